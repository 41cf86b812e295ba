"""``python -m benchmarks.book_lookup``: how fast the opening book answers.

Reads the shipped book (timed: the first call of a process pays it), then probes a seeded
sample of each shipped study's arrangements with ``Book.probe`` and answers them with
``solve(board, threads=1)`` (each a new layout), checking every answer against the study
row. Prints the median and the slowest call of each, in milliseconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from donuts_ai import Board, Layout, Rules, solve
from donuts_ai.donuts.book import shipped_book
from donuts_ai.study import BOOK_STUDIES, load_study

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=200, help="arrangements sampled from each study (default 200)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    t = time.perf_counter()
    book = shipped_book()
    print(f"reading the shipped book: {(time.perf_counter() - t) * 1000:.1f} ms ({len(book)} entries)")
    for name in BOOK_STUDIES:
        config, rows = load_study(NOTEBOOKS / name)
        rules = Rules.from_dict(config.get("rules") or {})
        sample = random.Random(args.seed).sample(rows, args.count)
        boards = [Board(Layout.from_text(row["layout"]), rules) for row in sample]
        probes, solves = [], []
        for board, row in zip(boards, sample, strict=True):
            t = time.perf_counter()
            entry = book.probe(board)
            probes.append(time.perf_counter() - t)
            t = time.perf_counter()
            answer = solve(board, threads=1)
            solves.append(time.perf_counter() - t)
            assert entry is not None and (entry.value, entry.best_move) == (row["value"], row["best_move"])
            assert (answer.value, answer.best_move, answer.source) == (row["value"], row["best_move"], "book")
        print(f"{name}: {args.count} arrangements; probe median {statistics.median(probes) * 1000:.3f} ms, slowest "
              f"{max(probes) * 1000:.2f} ms; solve median {statistics.median(solves) * 1000:.3f} ms, slowest "
              f"{max(solves) * 1000:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
