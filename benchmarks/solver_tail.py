"""The solver's slow tail: nodes, CPU and wall seconds per layout, a fresh solver each.

    python -m benchmarks.solver_tail [--set random|study] [--count N] [--distance | --first-moves | --analyze]
        [--insertion single] [--threads T] [--share-plies P] [--tt-bits B] [--json FILE] [--compare OLD.json ...]

``--set random`` solves the empty board of ``Layout.random_grid(0..count-1)`` (64 by
default); ``--set study`` the layouts of ``study_layouts(arrangements=count, seed=7)``
(tile arrangements, one per symmetry class; 40 by default). Each layout gets a fresh
``Solver(tt_bits, threads, book=False)`` (the search, never the opening book) and
``solve(board, distance=...)``; time is the process's
CPU time (``time.process_time``, every thread of it), so other jobs on the machine do
not count, and wall time is kept beside it. After one warm-up call (compilation is not
measured). ``--threads T`` runs the parallel solver (:class:`~donuts_ai.Solver`: the
portfolio of alpha-beta and proof numbers on one table, Lazy SMP helpers); its CPU time is
every thread's, so on a busy machine ``wall / 1`` and ``CPU / T`` bracket what idle cores
would give; rerun on idle cores for the wall-clock figures. ``--share-plies P`` sets how
deep the portfolio's proof-number search shares bounds with alpha-beta (0: not at all).
``--first-moves`` measures the page's exact analysis of the empty board instead: every
first move's value (``Solver.move_value`` of each legal move, no node limit), one solver a
layout. ``--analyze`` measures ``Solver.analyze``: every first move's value and distance
(its ``move`` column is a digest of the whole list, to compare runs). ``--compare``
prints earlier runs' JSON files beside this one, layout by layout, and checks that every
value agrees; to measure an older commit, run this script with ``PYTHONPATH`` pointing at
a checkout of it and save its ``--json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time

from donuts_ai import Board, Layout, Rules
from donuts_ai.donuts.alphabeta import Solver, _dfpn

STUDY_SEED = 7


def layouts(which: str, count: int) -> list[tuple[str, Layout]]:
    """``(name, layout)`` of the set to measure."""
    if which == "random":
        return [(f"random_grid({s})", Layout.random_grid(s)) for s in range(count)]
    from donuts_ai.study import study_layouts

    return [(f"study[{u['unit']}]", Layout.from_text(u["layout"])) for u in study_layouts(arrangements=count, seed=STUDY_SEED)]


def measure(which: str, count: int, distance: bool, rules: Rules, threads: int, tt_bits: int, only: list[str] | None,
            first_moves: bool = False, analyze: bool = False) -> list[dict]:
    warm = Board(Layout.random_grid(10**6), rules)
    for t in sorted({1, threads}):  # warm-up: compile every kernel the runs use
        Solver(tt_bits=12, threads=t, book=False).solve(warm, distance=distance)
        Solver(tt_bits=12, threads=t, book=False).move_value(warm, warm.legal_moves()[0])
        if analyze:
            after = warm.copy(stack=False)
            after.push(after.legal_moves()[0])
            Solver(tt_bits=12, threads=t, book=False).analyze(after)
    rows = []
    for name, layout in layouts(which, count):
        if only and name not in only:
            continue
        board = Board(layout, rules)
        solver = Solver(tt_bits=tt_bits, threads=threads, book=False)
        cpu, wall = time.process_time(), time.perf_counter()
        if analyze:
            moves = solver.analyze(board)
            listed = ",".join(f"{m.move}{m.value:+d}/{m.distance}" for m in sorted(moves, key=lambda m: m.move))
            row = {"layout": name, "value": moves[0].value, "distance": moves[0].distance,
                   "move": hashlib.sha1(listed.encode()).hexdigest()[:12], "nodes": solver.nodes}
        elif first_moves:
            values = [solver.move_value(board, move) for move in board.legal_moves()]
            row = {"layout": name, "value": max(v for v in values if v is not None), "distance": None,
                   "move": "".join("+=-"[1 - v] for v in values if v is not None), "nodes": solver.nodes}
        else:
            sol = solver.solve(board, distance=distance)
            row = {"layout": name, "value": sol.value, "distance": sol.distance, "move": sol.best_move, "nodes": sol.nodes}
        row |= {"cpu_s": time.process_time() - cpu, "wall_s": time.perf_counter() - wall}
        rows.append(row)
        print(f"  {name:18} value {row['value']:+d} dist {row['distance']!s:4} nodes {row['nodes']:>12,} cpu {row['cpu_s']:8.3f} s"
              f" wall {row['wall_s']:8.3f} s", flush=True)
    return rows


def summary(rows: list[dict]) -> dict:
    nodes = [r["nodes"] for r in rows]
    cpu = [r["cpu_s"] for r in rows]
    wall = [r.get("wall_s", r["cpu_s"]) for r in rows]
    slowest = max(rows, key=lambda r: r["cpu_s"])
    return {"layouts": len(rows), "median_nodes": statistics.median(nodes), "most_nodes": max(nodes), "total_nodes": sum(nodes),
            "median_s": statistics.median(cpu), "slowest_s": max(cpu), "slowest": slowest["layout"], "total_s": sum(cpu),
            "median_wall_s": statistics.median(wall), "slowest_wall_s": max(wall)}


def print_summary(label: str, s: dict) -> None:
    print(f"| {label} | {s['median_nodes']:,.0f} | {s['most_nodes']:,} | {s['total_nodes'] / 1e6:.1f} M | {s['median_s']:.3f} | "
          f"{s['slowest_s']:.2f} ({s['slowest']}) | {s['total_s']:.1f} | {s['median_wall_s']:.3f} | {s['slowest_wall_s']:.2f} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", choices=("random", "study"), default="random")
    ap.add_argument("--count", type=int, default=None, help="64 random grids or 40 study arrangements by default")
    ap.add_argument("--distance", action="store_true", help="prove the distance too (solve(board, distance=True))")
    ap.add_argument("--insertion", default="group", choices=("group", "single"))
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--share-plies", type=int, default=None, help="the portfolio's proof numbers share bounds this deep (default: "
                    "the library's SHARE_PLIES)")
    ap.add_argument("--first-moves", action="store_true", help="every first move's value instead of solve (the page's analysis)")
    ap.add_argument("--analyze", action="store_true", help="every first move's value and distance (Solver.analyze)")
    ap.add_argument("--tt-bits", type=int, default=20)
    ap.add_argument("--only", nargs="*", help="measure only these layout names (e.g. random_grid(55))")
    ap.add_argument("--json", help="save the rows and the summary here")
    ap.add_argument("--compare", nargs="*", default=[], help="earlier runs' JSON files to print beside this one")
    ap.add_argument("--label", default="new")
    args = ap.parse_args(argv)
    count = args.count if args.count is not None else (64 if args.set == "random" else 40)
    if args.share_plies is not None:
        _dfpn.SHARE_PLIES = args.share_plies
    rows = measure(args.set, count, args.distance, Rules(insertion=args.insertion), args.threads, args.tt_bits, args.only,
                   args.first_moves, args.analyze)
    result = {"config": {k: v for k, v in vars(args).items() if k not in ("json", "compare")}, "rows": rows,
              "summary": summary(rows)}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    runs = [json.load(open(path)) for path in args.compare] + [result]
    labels = [r["config"].get("label", path) for r, path in zip(runs, [*args.compare, "this run"], strict=True)]
    print("\n| | median nodes | most nodes | total nodes | median CPU (s) | slowest CPU (s) | total CPU (s) | median wall (s) | "
          "slowest wall (s) |\n|---|---|---|---|---|---|---|---|---|")
    for label, run in zip(labels, runs, strict=True):
        print_summary(label, summary([r for r in run["rows"] if r["layout"] in {x["layout"] for x in rows}]))
    if len(runs) > 1:
        by_name = [{r["layout"]: r for r in run["rows"]} for run in runs]
        print("\n| layout | " + " | ".join(f"{lb} nodes | {lb} CPU / wall (s)" for lb in labels) + " |")
        print("|---|" + "---|---|" * len(runs))
        bad = 0
        for r in rows:
            cells = []
            for table in by_name:
                old = table.get(r["layout"])
                if old is None:
                    cells.append(" | ")
                    continue
                cells.append(f"{old['nodes']:,} | {old['cpu_s']:.3f} / {old.get('wall_s', old['cpu_s']):.3f}")
                bad += old["value"] != r["value"]
            print(f"| {r['layout']} | " + " | ".join(cells) + " |")
        print(f"\nvalues that differ from an earlier run: {bad}")
        if bad:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
