"""``python -m benchmarks.time_to_exact``: how long exact analysis takes, from the empty board on.

For positions at given plies of seeded random games on random tile arrangements, runs
:meth:`donuts_ai.play.evaluation.Analyst.evaluate` (what the page's and the terminal's
background analysis runs) with the default node limits and reports, per ply, the
seconds until every move's estimate is shown, until every move's exact value is known,
and until the analysis is complete (distances included), and how many moves were left
without an exact value or distance. The analyst's solver uses ``--threads`` threads
(default: every core, as on the page); ``--clock wall`` (default) measures what a person
waits, so run it on otherwise idle cores; ``--clock cpu`` counts every thread's CPU time
(other work on the machine changes it little).

    python -m benchmarks.time_to_exact --layouts 8 --plies 0 1 2 4 6
    python -m benchmarks.time_to_exact --threads 1 --clock cpu
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from donuts_ai import Board, Layout
from donuts_ai.play.evaluation import Analyst


def position(seed: int, plies: int) -> Board | None:
    rng, board = random.Random(seed), Board(Layout.random(seed))
    for _ in range(plies):
        if board.is_game_over():
            return None
        board.push(rng.choice(board.legal_moves()))
    return None if board.is_game_over() else board


def measure(board: Board, threads: int | None = None, clock=time.perf_counter) -> dict:
    """Seconds (of ``clock``) to the estimates, to every exact value, to the end; what stayed unknown."""
    marks = {}
    analyst = Analyst(threads=threads)
    start = clock()

    def publish(snapshot) -> None:
        now = clock() - start
        marks.setdefault("estimates", now)
        if snapshot.exact:
            marks.setdefault("values", now)

    analysis = analyst.evaluate(board, publish)
    total = clock() - start
    return {"moves": len(analysis.moves), "estimates": marks.get("estimates", total), "values": marks.get("values", total),
            "complete": total, "unknown_values": len(analysis.moves) - analysis.proven,
            "unknown_distances": sum(m.exact and m.distance is None for m in analysis.moves)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.time_to_exact", description=__doc__.splitlines()[0])
    parser.add_argument("--layouts", type=int, default=8, help="random arrangements (seeds 0..N-1)")
    parser.add_argument("--plies", type=int, nargs="+", default=[0, 1, 2, 4, 6])
    parser.add_argument("--threads", type=int, default=None, help="the analyst's solver threads (default: every core)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args(argv)
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    analyst = Analyst(threads=args.threads)
    analyst.evaluate(position(0, 10) or Board())  # load the kernels first
    print(f"threads: {analyst.threads}, clock: {args.clock}")
    print("| plies | positions | moves (median) | estimates median (s) | all values median (s) | all values slowest (s) "
          "| complete median (s) | complete slowest (s) | values unknown | distances unknown |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for plies in args.plies:
        rows = [measure(b, args.threads, clock) for b in (position(s, plies) for s in range(args.layouts)) if b is not None]
        med = {key: statistics.median(r[key] for r in rows) for key in ("moves", "estimates", "values", "complete")}
        print(f"| {plies} | {len(rows)} | {med['moves']:g} | {med['estimates']:.2f} | {med['values']:.2f} | "
              f"{max(r['values'] for r in rows):.2f} | {med['complete']:.2f} | {max(r['complete'] for r in rows):.2f} | "
              f"{sum(r['unknown_values'] for r in rows)} | {sum(r['unknown_distances'] for r in rows)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
