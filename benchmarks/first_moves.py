"""``python -m benchmarks.first_moves``: every first move of an empty board analysed.

    python -m benchmarks.first_moves arrangements [--count N] [--json FILE]
    python -m benchmarks.first_moves grids [--count N] [--old-tree PATH] [--json FILE]
    python -m benchmarks.first_moves values [--count N] [--json FILE]

``arrangements``: the empty boards of ``Layout.random(seed)``, seeds ``0..N-1`` (default 20),
under each of the three rules variants the opening book serves. For each: ``analyze(board,
distance=False)`` (every first move's value: from the book where it holds the class's first
moves, else searched) and ``analyze(board)`` (values and distances), each with a fresh
default solver; the book's values checked against a book-less solver's search; how many
boards the book held. ``grids``: ``analyze(board)`` of the empty boards of ``Layout.random_grid(seed)``
(seeds ``0..N-1``, default 8), which no book holds; with ``--old-tree`` (a source tree of
another version, say a ``git worktree`` of 0.5.0) the same boards by that tree in its own
process, interleaved board by board with this tree's, and the ratio of each pair.
``values``: every first move's value of the empty boards of ``Layout.random(seed)`` (official
rules, default 9), one thread, a fresh book-less solver each: by proof numbers
(``Solver.move_values``) and by alpha-beta's null window (``Solver.move_value`` of each move).

``--json FILE`` writes a pyperf record (:mod:`donuts_ai.bench.record`): seconds a board
(work unit ``board``), a value per board, and the yardstick's rate measured before the
boards (:mod:`donuts_ai.bench.yardstick`), so that its tables normalise the figures.
Benchmarks are not tests: nothing here asserts a time; a wrong value stops the run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from donuts_ai import Board, Layout, Rules
from donuts_ai.bench import record, yardstick
from donuts_ai.bench.record import Figure
from donuts_ai.donuts.alphabeta import Solver
from donuts_ai.donuts.alphabeta.solver import available_cores
from donuts_ai.donuts.book import shipped_book
from donuts_ai.errors import DonutsError

#: The rules variants the shipped book serves, by the name a figure gives them.
VARIANTS = {"official": Rules(), "donuts18": Rules(donuts=18), "single": Rules(insertion="single")}
#: What a worker process runs: ``analyze`` of the empty board of each random grid it is sent
#: (a seed a line on stdin), answering the seconds and the moves' values and distances as a
#: JSON line. Only names every version since 0.3 has, so that any tree can run it.
WORKER = """
import json, sys, time
from donuts_ai import Board, Layout, analyze
warm = Board(Layout.random_grid(999))
for _ in range(10):
    warm.push(warm.legal_moves()[-1])
analyze(warm)  # the kernels loaded (or compiled) before the first board is timed
print("ready", flush=True)
for line in sys.stdin:
    board = Board(Layout.random_grid(int(line)))
    t = time.perf_counter()
    moves = analyze(board)
    seconds = time.perf_counter() - t
    print(json.dumps({"seconds": seconds, "moves": sorted([m.move, m.value, m.distance] for m in moves)}), flush=True)
"""


def fresh_solver() -> Solver:
    """A solver as ``analyze`` makes one (every core, the shipped book), new: no table from
    an earlier board."""
    return Solver(threads=available_cores())


def arrangements(count: int) -> list[Figure]:
    """The figures of ``arrangements`` (module doc); raises DonutsError on a wrong value."""
    by_book: dict[str, list[float]] = {"book": [], "search": []}
    whole: list[float] = []
    held = 0
    for name, rules in VARIANTS.items():
        for seed in range(count):
            board = Board(Layout.random(seed), rules)
            entry = shipped_book().probe(board)
            in_book = entry is not None and entry.first_moves is not None
            held += in_book
            t = time.perf_counter()
            values = fresh_solver().analyze(board, distance=False)
            by_book["book" if in_book else "search"].append(time.perf_counter() - t)
            t = time.perf_counter()
            moves = fresh_solver().analyze(board)
            whole.append(time.perf_counter() - t)
            got = {m.move: m.value for m in values}
            # The book's values against a search's (searched values are the search's own).
            truth = Solver(threads=available_cores(), book=False).move_values(board) if in_book else got
            if got != truth or {m.move: m.value for m in moves} != truth:
                raise DonutsError(f"{name} Layout.random({seed}): analyze's values differ from a book-less solver's")
            print(f"{name} Layout.random({seed}): values {by_book['book' if in_book else 'search'][-1]:.4f} s "
                  f"({'book' if in_book else 'search'}), with distances {whole[-1]:.2f} s", file=sys.stderr, flush=True)
    params: dict[str, int | float | str] = {"boards": 3 * count, "book_held": held, "threads": available_cores()}
    figures = [Figure(f"first moves, values, from the {how}", "board", values, params, "median")
               for how, values in by_book.items() if values]
    return figures + [Figure("first moves, values and distances", "board", whole, params, "median")]


def values(count: int) -> list[Figure]:
    """The figures of ``values`` (module doc); raises DonutsError when the two differ."""
    by_method: dict[str, list[float]] = {"proof numbers (move_values)": [], "alpha-beta (move_value each)": []}
    for seed in range(count):
        board = Board(Layout.random(seed))
        t = time.perf_counter()
        proof_numbers = Solver(book=False).move_values(board)
        by_method["proof numbers (move_values)"].append(time.perf_counter() - t)
        solver, t = Solver(book=False), time.perf_counter()
        alpha_beta = {move: solver.move_value(board, move) for move in board.legal_moves()}
        by_method["alpha-beta (move_value each)"].append(time.perf_counter() - t)
        if proof_numbers != alpha_beta:
            raise DonutsError(f"Layout.random({seed}): the two searches' values differ")
        print(f"Layout.random({seed}): " + ", ".join(f"{m} {t[-1]:.2f} s" for m, t in by_method.items()),
              file=sys.stderr, flush=True)
    params: dict[str, int | float | str] = {"boards": count, "threads": 1}
    return [Figure(f"first moves' values, one thread, {method}", "board", times, params, "median")
            for method, times in by_method.items()]


def _worker(tree: Path | None) -> subprocess.Popen[str]:
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    proc = subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env=env, cwd=tree or Path.cwd())
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready", "the worker did not start"
    return proc


def _ask(proc: subprocess.Popen[str], seed: int) -> dict:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"{seed}\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def grids(count: int, old_tree: Path | None) -> list[Figure]:
    """The figures of ``grids`` (module doc): this tree's, and the old tree's interleaved."""
    trees = {"this tree": None} | ({f"old tree {old_tree.name}": old_tree} if old_tree else {})
    workers = {label: _worker(tree) for label, tree in trees.items()}
    times: dict[str, list[float]] = {label: [] for label in trees}
    try:
        for seed in range(count):
            answers = {}
            for label, proc in workers.items():
                answers[label] = _ask(proc, seed)
                times[label].append(answers[label]["seconds"])
            if len({json.dumps(a["moves"]) for a in answers.values()}) != 1:
                raise DonutsError(f"random_grid({seed}): the trees' analyses differ")
            print(f"random_grid({seed}): " + ", ".join(f"{label} {t[-1]:.2f} s" for label, t in times.items()),
                  file=sys.stderr, flush=True)
    finally:
        for proc in workers.values():
            proc.kill()
    params: dict[str, int | float | str] = {"boards": count, "threads": available_cores()}
    return [Figure(f"empty random grid, analyze, {label}", "board", values, params, "median")
            for label, values in times.items()]


def main(argv: list[str] | None = None, prog: str = "python -m benchmarks.first_moves") -> int:
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["arrangements", "grids", "values"], help="the boards measured (module doc)")
    ap.add_argument("--count", type=int, default=None,
                    help="boards: arrangements a variant (20), grids (8), or arrangements for values (9)")
    ap.add_argument("--old-tree", type=Path, default=None, help="grids: a source tree of another version, run beside")
    ap.add_argument("--json", default=None, help="write a pyperf record here")
    args = ap.parse_args(argv)
    count = args.count if args.count is not None else {"arrangements": 20, "grids": 8, "values": 9}[args.what]
    if count < 1:
        ap.error("--count must be at least 1")
    if args.old_tree is not None and not (args.old_tree / "donuts_ai" / "__init__.py").is_file():
        ap.error(f"--old-tree {args.old_tree}: no donuts_ai package there")
    load_before, rate = record.load_average(), yardstick.rate()  # the yardstick before the boards
    try:
        figures = {"arrangements": lambda: arrangements(count), "grids": lambda: grids(count, args.old_tree),
                   "values": lambda: values(count)}[args.what]()
    except DonutsError as exc:
        ap.exit(2, f"{prog}: error: {exc}\n")
    for figure in figures:
        times = figure.values
        print(f"{figure.name}: {len(times)} boards, median {statistics.median(times):.4f} s, slowest {max(times):.4f} s")
    if len(figures) == 2 and args.what != "arrangements":
        ratios = [old / new for new, old in zip(figures[0].values, figures[1].values, strict=True)]
        print(f"{figures[1].name} / {figures[0].name}, board by board: median {statistics.median(ratios):.2f}x "
              f"(min {min(ratios):.2f}x, max {max(ratios):.2f}x); of the medians "
              f"{statistics.median(figures[1].values) / statistics.median(figures[0].values):.2f}x")
    if args.json:
        record.dump(record.suite_of(figures, f"{args.what} count={count}", prog, load_before, yardstick_rate=rate), args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
