"""``python -m benchmarks.book_lookup``: how fast the opening book answers.

    python -m benchmarks.book_lookup [--count N] [--seed S] [--runs N] [--json FILE]

Reads the shipped book (timed: the first call of a process pays it), then probes a seeded
sample of each whole-arrangement study's arrangements with ``Book.probe`` and answers them
with ``solve(board, threads=1)`` (each a new layout), and answers a sample of each
first-move study's arrangements (turned by a symmetry) with ``analyze(board,
distance=False)``, checking every answer against the study row (a run stops at the first
that differs). Prints the median and the slowest call of each, in milliseconds, over every
run's calls.

The figures are measured in ``--runs`` independent processes (3 by default), and ``--json
FILE`` writes them as a pyperf record (:mod:`donuts_ai.bench.record`; ``python -m pyperf
stats FILE`` reads it): the seconds reading the book took (work unit ``read``, one value a
run: only a process's first call reads it), and for each study the seconds of each probe
(work unit ``probe``) and of each solve (work unit ``solve``), or of each analysis (work unit
``analyze``), a value per arrangement.
Benchmarks are not tests: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path
from typing import Any

from donuts_ai import Board, Layout, Rules, analyze, solve
from donuts_ai.bench import record, runs, tables
from donuts_ai.bench.record import Figure
from donuts_ai.donuts.book import shipped_book, study_row_first_moves
from donuts_ai.donuts.squares import SQUARE_NAMES, parse_square
from donuts_ai.donuts.symmetry import SYMMETRY_NAMES, transform_square
from donuts_ai.errors import DonutsError
from donuts_ai.study import ARRANGEMENT_STUDIES, FIRST_MOVE_STUDIES, load_study

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
#: The record's name of the time the shipped book took to read.
READ_NAME = "opening book, read the shipped book"


def study_name(study: str) -> str:
    """A study file's name without its suffixes: ``study_all_arrangements_single``."""
    return study.removesuffix(".gz").removesuffix(".jsonl")


def probe_name(study: str) -> str:
    """The record's name of the probes of ``study``'s arrangements."""
    return f"opening book, probe, {study_name(study)}"


def solve_name(study: str) -> str:
    """The record's name of the solves of ``study``'s arrangements."""
    return f"opening book, solve(threads=1), {study_name(study)}"


def analyze_name(study: str) -> str:
    """The record's name of the values-only analyses of ``study``'s arrangements."""
    return f"opening book, analyze(distance=False), {study_name(study)}"


def first_move_figures(count: int, seed: int) -> list[Figure]:
    """For each first-move study: the seconds of ``analyze(board, distance=False)`` of up to
    ``count`` of its arrangements sampled with ``seed``, each turned by a seeded symmetry (a
    :class:`~donuts_ai.errors.DonutsError` when a move's value differs from the row's, or when
    the answer searched)."""
    out = []
    rng = random.Random(seed)
    for name in FIRST_MOVE_STUDIES:
        config, rows = load_study(NOTEBOOKS / name)
        rules = Rules.from_dict(config.get("rules") or {})
        times = []
        for row in rng.sample(rows, min(count, len(rows))):
            sym = rng.choice(SYMMETRY_NAMES)
            board = Board(Layout.from_text(row["layout"]).transform(sym), rules)
            t = time.perf_counter()
            moves = analyze(board, distance=False)
            times.append(time.perf_counter() - t)
            # The row's values, in the turned board's frame.
            expected = {SQUARE_NAMES[transform_square(parse_square(move), sym)]: value
                        for move, value in study_row_first_moves(row).items()}
            if {m.move: m.value for m in moves} != expected:
                raise DonutsError(f"{name}: analyze(distance=False) of {row['layout']!r} turned by {sym} differs from the "
                                  "study's row")
        params: dict[str, int | float | str] = {"arrangements": len(times), "seed": seed}
        out.append(Figure(analyze_name(name), "analyze", times, params, "mean"))
    return out


def figures(count: int, seed: int) -> list[Figure]:
    """One run: the seconds reading the book took (the first call of this process), and for
    each shipped study the seconds of each ``Book.probe`` and each ``solve`` of ``count``
    arrangements sampled with ``seed`` (a value each, in the order sampled). A
    :class:`~donuts_ai.errors.DonutsError` when an answer differs from the study row."""
    t = time.perf_counter()
    book = shipped_book()
    out = [Figure(READ_NAME, "read", [time.perf_counter() - t], {"entries": len(book)})]
    for name in ARRANGEMENT_STUDIES:
        config, rows = load_study(NOTEBOOKS / name)
        rules = Rules.from_dict(config.get("rules") or {})
        sample = random.Random(seed).sample(rows, count)
        boards = [Board(Layout.from_text(row["layout"]), rules) for row in sample]
        probes, solves = [], []
        for board, row in zip(boards, sample, strict=True):
            t = time.perf_counter()
            entry = book.probe(board)
            probes.append(time.perf_counter() - t)
            t = time.perf_counter()
            answer = solve(board, threads=1)
            solves.append(time.perf_counter() - t)
            if entry is None or (entry.value, entry.best_move) != (row["value"], row["best_move"]):
                raise DonutsError(f"{name}: the book's entry for {row['layout']!r} is {entry}, the study's row says "
                                  f"value {row['value']} move {row['best_move']}")
            if (answer.value, answer.best_move, answer.source) != (row["value"], row["best_move"], "book"):
                raise DonutsError(f"{name}: solve of {row['layout']!r} answered value {answer.value} move "
                                  f"{answer.best_move} from {answer.source}, the study's row says value {row['value']} "
                                  f"move {row['best_move']} from the book")
        params: dict[str, int | float | str] = {"arrangements": count, "seed": seed}
        # each value is another arrangement: a run's time is their mean (probes a second over all of them)
        out += [Figure(probe_name(name), "probe", probes, params, "mean"),
                Figure(solve_name(name), "solve", solves, params, "mean")]
    return out + first_move_figures(count, seed)


def report(suite: Any) -> str:
    """A record of this benchmark: the table of its figures, then the lines this script has
    always printed (median and slowest call, in milliseconds), over every run's calls."""
    by_name = record.figures_of(suite)
    reads = by_name[READ_NAME].get_values()
    entries = ", ".join(str(e) for e in record.metadata_values(suite, "param_entries"))
    lines = [tables.record_text(suite), "",
             f"reading the shipped book: median {statistics.median(reads) * 1000:.1f} ms, slowest {max(reads) * 1000:.1f} ms "
             f"over {len(reads)} runs ({entries} entries)"]
    for name in FIRST_MOVE_STUDIES:
        if analyze_name(name) in by_name:
            times = by_name[analyze_name(name)].get_values()
            lines.append(f"{name}: analyze(distance=False) median {statistics.median(times) * 1000:.3f} ms, slowest "
                         f"{max(times) * 1000:.2f} ms over {len(times)} arrangements")
    for name in ARRANGEMENT_STUDIES:
        if probe_name(name) not in by_name:
            continue
        probes, solves = by_name[probe_name(name)].get_values(), by_name[solve_name(name)].get_values()
        count = ", ".join(str(c) for c in record.metadata_values([by_name[probe_name(name)]], "param_arrangements"))
        lines.append(f"{name}: {count} arrangements a run; probe median {statistics.median(probes) * 1000:.3f} ms, slowest "
                     f"{max(probes) * 1000:.2f} ms; solve median {statistics.median(solves) * 1000:.3f} ms, slowest "
                     f"{max(solves) * 1000:.2f} ms")
    return "\n".join(lines)


def main(argv: list[str] | None = None, prog: str = "python -m benchmarks.book_lookup") -> int:
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=200, help="arrangements sampled from each study (default 200)")
    ap.add_argument("--seed", type=int, default=1)
    runs.add_record_options(ap)
    args = ap.parse_args(argv)
    if args.count < 1:
        ap.error("--count must be at least 1")
    return runs.record_main(ap, args, argv, "benchmarks.book_lookup",
                            lambda: (figures(args.count, args.seed), f"count={args.count} seed={args.seed}"), report)


if __name__ == "__main__":
    raise SystemExit(main())
