"""The solver's slow tail: nodes, CPU and wall seconds per layout, a fresh solver each.

    python -m benchmarks.solver_tail [--set random|study] [--count N] [--distance | --first-moves | --analyze]
        [--insertion single] [--threads T] [--share-plies P] [--tt-bits B] [--runs N] [--json FILE]
        [--compare OLD.json ...]

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
(its ``move`` column is a digest of the whole list, to compare runs).

The layouts are measured in ``--runs`` independent processes (3 by default; ``--runs 1``
for one pass), and ``--json FILE`` writes a pyperf record of them
(:mod:`donuts_ai.bench.record`; ``python -m pyperf stats FILE`` reads it): two figures,
the CPU and the wall seconds of each layout (work unit ``solve``, or ``layout`` with
``--first-moves`` and ``--analyze``; a value per layout, in order), each layout's name,
value, distance, move and nodes kept beside them as parameters, so the tables printed
(median over the runs of each layout) are computed from the record. ``--compare`` prints
earlier runs beside this one, layout by layout, and checks that every value agrees (and
that the runs of this one agree; exit status 1 if not): records of this script, or the
JSON it wrote before it wrote records (``{"config", "rows", "summary"}``). To measure an
older commit, run the command from a checkout of it (``python -m`` imports the
``donuts_ai`` of the current folder; a run that imports another library than the command
stops), or this script with ``PYTHONPATH`` at a checkout older than the records
(``donuts_ai.bench.runs``): there it measures in its own process, as before, and
``--json`` writes the old JSON. Benchmarks are not tests: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import donuts_ai
from donuts_ai import Board, Layout, Rules
from donuts_ai.bench.reporting import write_json
from donuts_ai.donuts.alphabeta import Solver, _dfpn
from donuts_ai.errors import DonutsError

try:  # the records (0.5.0 on); a library older than them is measured as before (see the module doc)
    from donuts_ai.bench import runs, tables
    from donuts_ai.bench.record import Figure, SpeedRecordError
except ImportError:
    runs = tables = None  # type: ignore[assignment]

STUDY_SEED = 7
#: The environment variable a run checks against the ``donuts_ai`` it imported: the folder of
#: the library of the command that started it.
LIBRARY_ENV = "DONUTS_AI_SOLVER_TAIL_LIBRARY"
#: The record's two figures: (key of a row, clock).
CLOCKS = (("cpu_s", "CPU clock"), ("wall_s", "wall clock"))
#: The row keys kept as each figure's parameters (``param_layout_<key>``), a comma-separated text each.
ROW_PARAMS = ("layout", "value", "distance", "move", "nodes")


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
        print(layout_line(row), flush=True)
    return rows


def layout_line(row: dict) -> str:
    return (f"  {row['layout']:18} value {row['value']:+d} dist {row['distance']!s:4} nodes {row['nodes']:>12,} "
            f"cpu {row['cpu_s']:8.3f} s wall {row.get('wall_s', row['cpu_s']):8.3f} s")


def summary(rows: list[dict]) -> dict:
    nodes = [r["nodes"] for r in rows]
    cpu = [r["cpu_s"] for r in rows]
    wall = [r.get("wall_s", r["cpu_s"]) for r in rows]
    slowest = max(rows, key=lambda r: r["cpu_s"])
    return {"layouts": len(rows), "median_nodes": statistics.median(nodes), "most_nodes": max(nodes), "total_nodes": sum(nodes),
            "median_s": statistics.median(cpu), "slowest_s": max(cpu), "slowest": slowest["layout"], "total_s": sum(cpu),
            "median_wall_s": statistics.median(wall), "slowest_wall_s": max(wall)}


def summary_line(label: str, s: dict) -> str:
    return (f"| {label} | {s['median_nodes']:,.0f} | {s['most_nodes']:,} | {s['total_nodes'] / 1e6:.1f} M | {s['median_s']:.3f} | "
            f"{s['slowest_s']:.2f} ({s['slowest']}) | {s['total_s']:.1f} | {s['median_wall_s']:.3f} | {s['slowest_wall_s']:.2f} |")


def tables_text(label: str, rows: list[dict], compared: list[tuple[str, list[dict]]]) -> tuple[str, int]:
    """The summary table of ``rows`` (this run's) and of each ``compared`` run (``(label,
    rows)``) over this run's layouts, and with earlier runs the table layout by layout;
    the number of values that differ from an earlier run's."""
    everyone = [*compared, (label, rows)]
    lines = ["", "| | median nodes | most nodes | total nodes | median CPU (s) | slowest CPU (s) | total CPU (s) | median wall (s) | "
             "slowest wall (s) |", "|---|---|---|---|---|---|---|---|---|"]
    names = {x["layout"] for x in rows}
    for name, run_rows in everyone:
        shared = [r for r in run_rows if r["layout"] in names]
        if shared:
            lines.append(summary_line(name, summary(shared)))
        else:
            lines.append(f"| {name} | no layout of this run | | | | | | | |")
    bad = 0
    if compared:
        by_name = [{r["layout"]: r for r in run_rows} for _, run_rows in everyone]
        lines += ["", "| layout | " + " | ".join(f"{lb} nodes | {lb} CPU / wall (s)" for lb, _ in everyone) + " |",
                  "|---|" + "---|---|" * len(everyone)]
        for r in rows:
            cells = []
            for table in by_name:
                old = table.get(r["layout"])
                if old is None:
                    cells.append(" | ")
                    continue
                cells.append(f"{old['nodes']:,} | {old['cpu_s']:.3f} / {old.get('wall_s', old['cpu_s']):.3f}")
                bad += old["value"] != r["value"]
            lines.append(f"| {r['layout']} | " + " | ".join(cells) + " |")
        lines.append(f"\nvalues that differ from an earlier run: {bad}")
    return "\n".join(lines), bad


# --- The record ----------------------------------------------------------------------------------------------------


def what_text(distance: bool, first_moves: bool, analyze: bool) -> str:
    """What a layout's measure is: ``value``, ``value and distance``, ..."""
    if analyze:
        return "every first move's value and distance"
    if first_moves:
        return "every first move's value"
    return "value and distance" if distance else "value"


def figure_name(what: str, which: str, layouts: int, threads: int, insertion: str, clock: str) -> str:
    """The record's name of a figure: ``solver tail, value, 64 random grids, 1 thread, CPU clock``."""
    kind = "random grids" if which == "random" else "study arrangements"
    rule = ", single insertion" if insertion == "single" else ""
    return f"solver tail, {what}, {layouts} {kind}, {threads} thread{'s' * (threads != 1)}{rule}, {clock}"


def figures(rows: list[dict], what: str, which: str, threads: int, insertion: str, label: str) -> list[Figure]:
    """The rows of one run (:func:`measure`) as record figures: the CPU and the wall seconds
    of each layout, in order, each layout's name, value, distance, move and nodes as the
    parameters ``layout_layout``, ``layout_value``, ... (comma-separated), and the nodes of
    them all (``nodes``)."""
    if not rows:
        raise DonutsError("no layout measured: --only names none of the set's layouts")
    unit = "solve" if what in ("value", "value and distance") else "layout"
    params: dict[str, int | float | str] = {f"layout_{key}": text for key in ROW_PARAMS
                                            if (text := ",".join(str(r[key]) for r in rows))}  # pyperf takes no empty text
    params |= {"nodes": sum(r["nodes"] for r in rows), "label": label, "threads": threads}
    # each value is another layout: a run's time is their mean (the total over the layouts)
    return [Figure(figure_name(what, which, len(rows), threads, insertion, clock), unit, [r[key] for r in rows], params, "mean")
            for key, clock in CLOCKS]


def _number(text: str) -> int | None:
    return None if text == "None" else int(text)


def rows_of(suite: Any) -> tuple[str | None, list[dict], int]:
    """A record of this script (a pyperf suite) as ``(label, rows, differ)``: each layout's
    row with its nodes and its CPU and wall seconds the median over the runs, its value,
    distance and move the first run's, and how many layouts' value or distance differ
    between the runs. :class:`ValueError` for a record without this script's figures."""
    by_name = {b.get_name(): b for b in suite.get_benchmarks()}
    cpu_name = next((n for n in by_name if n.startswith("solver tail, ") and n.endswith(", CPU clock")), None)
    wall_name = cpu_name and cpu_name.removesuffix(", CPU clock") + ", wall clock"
    if cpu_name is None or wall_name not in by_name:
        raise ValueError("not a record of benchmarks.solver_tail (no figures 'solver tail, ..., CPU clock' and '..., wall clock')")
    every: dict[str, list[dict]] = {}
    label = None
    for cpu_run, wall_run in zip(by_name[cpu_name].get_runs(), by_name[wall_name].get_runs(), strict=True):
        meta = cpu_run.get_metadata()
        label = label or meta.get("param_label")
        columns = {key: str(meta.get(f"param_layout_{key}", "")).split(",") for key in ROW_PARAMS}
        for i, name in enumerate(columns["layout"]):
            every.setdefault(name, []).append({
                "layout": name, "value": int(columns["value"][i]), "distance": _number(columns["distance"][i]),
                "move": columns["move"][i], "nodes": int(columns["nodes"][i]), "cpu_s": cpu_run.values[i],
                "wall_s": wall_run.values[i]})
    rows, differ = [], 0
    for seen in every.values():
        first = seen[0]
        differ += any((r["value"], r["distance"]) != (first["value"], first["distance"]) for r in seen)
        rows.append({**first, "nodes": round(statistics.median(r["nodes"] for r in seen)),
                     "cpu_s": statistics.median(r["cpu_s"] for r in seen), "wall_s": statistics.median(r["wall_s"] for r in seen)})
    return label, rows, differ


def load_run(path: str) -> tuple[str, list[dict]]:
    """``(label, rows)`` of an earlier run: a record of this script, or the JSON it wrote
    before the records. :class:`ValueError` (or :class:`OSError`) naming what is wrong."""
    with open(path) as f:
        data = json.load(f)
    if isinstance(data, dict) and "benchmarks" in data and "version" in data:
        import pyperf

        label, rows, _ = rows_of(pyperf.BenchmarkSuite.loads(json.dumps(data)))
        return label or path, rows
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
        raise ValueError("neither a record of this script nor its JSON of rows")
    return (data.get("config") or {}).get("label", path), data["rows"]


def main(argv: list[str] | None = None, prog: str = "python -m benchmarks.solver_tail") -> int:
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
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
    ap.add_argument("--compare", nargs="*", default=[], help="earlier runs (records of this script, or its JSON before "
                    "them) to print beside this one")
    ap.add_argument("--label", default="new", help="this run's name in the tables (kept in the record)")
    if runs is None:
        ap.add_argument("--json", help="save the rows and the summary here")
    else:
        runs.add_record_options(ap, printed_only="the comparison with the --compare runs")
    args = ap.parse_args(argv)
    count = args.count if args.count is not None else (64 if args.set == "random" else 40)
    if args.share_plies is not None:
        _dfpn.SHARE_PLIES = args.share_plies
    rules = Rules(insertion=args.insertion)

    def rows() -> list[dict]:
        return measure(args.set, count, args.distance, rules, args.threads, args.tt_bits, args.only, args.first_moves,
                       args.analyze)

    if runs is None:
        return main_before_records(args, rows)
    library = str(Path(donuts_ai.__file__).resolve().parent)
    what = what_text(args.distance, args.first_moves, args.analyze)
    settings = (f"set={args.set} count={count} measure={what} threads={args.threads} tt_bits={args.tt_bits} "
                f"insertion={args.insertion} share_plies={_dfpn.SHARE_PLIES} label={args.label}"
                + (f" only={' '.join(args.only)}" if args.only else ""))

    def run_figures() -> tuple[list[Figure], str]:
        expected = os.environ.get(LIBRARY_ENV)
        if expected and expected != library:
            raise DonutsError(f"this run imported donuts_ai from {library}, the command from {expected}: run the command "
                              "from the checkout whose donuts_ai it measures")
        return figures(rows(), what, args.set, args.threads, args.insertion, args.label), settings

    compared: list[tuple[str, list[dict]]] = []
    if not args.record_run:
        try:
            compared = [load_run(path) for path in args.compare]
        except (OSError, ValueError, KeyError, TypeError, SpeedRecordError) as exc:
            ap.exit(2, f"{prog}: error: --compare: {exc}\n")
    bad = []

    def report(suite: Any) -> str:
        _, this, differ = rows_of(suite)
        text, differ_earlier = tables_text(args.label, this, compared)
        bad.append(differ + differ_earlier)
        runs_line = f"\neach layout's median over {suite.get_benchmarks()[0].get_nrun()} runs:"
        differ_line = [f"\nvalues or distances that differ between this record's runs: {differ}"] if differ else []
        return "\n".join([tables.record_text(suite), runs_line, *(layout_line(r) for r in this), *differ_line, text])

    before = os.environ.get(LIBRARY_ENV)
    if not args.record_run:
        os.environ[LIBRARY_ENV] = library  # the runs check it (see run_figures)
    try:
        status = runs.record_main(ap, args, argv, "benchmarks.solver_tail", run_figures, report)
    finally:
        if before is None:
            del os.environ[LIBRARY_ENV]
        else:
            os.environ[LIBRARY_ENV] = before
    return 1 if status == 0 and any(bad) else status


def main_before_records(args: argparse.Namespace, rows: Any) -> int:
    """The script under a library older than the records: measured in this process, and
    ``--json`` writes the rows and the summary (``{"config", "rows", "summary"}``)."""
    this = rows()
    result = {"config": {k: v for k, v in vars(args).items() if k not in ("json", "compare")}, "rows": this,
              "summary": summary(this)}
    if args.json:
        write_json(args.json, result)
    text, bad = tables_text(args.label, this, [load_run(path) for path in args.compare])
    print(text)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
