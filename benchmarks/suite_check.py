"""``python -m benchmarks.suite_check``: the shipped suites' labels re-checked by another search.

    python -m benchmarks.suite_check [--sample 60] [--seed 1] [SUITE...]

For a seeded sample of each suite's positions (every ply, the first ones included: the
tests re-check only cheap positions), the value of every legal move is found again by
the solver's proof-number search (df-pn: "does the side to move win?", then "does it
draw?"), not by the alpha-beta that labelled the suites, and compared with the label.
Prints, per suite, the moves re-checked, the disagreements (each one: its line and move)
and the seconds taken. Not a test: it takes minutes.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from donuts_ai import Board
from donuts_ai.donuts.alphabeta.solver import Solver
from donuts_ai.suites import SUITE_NAMES, load_suite


def proof_number_value(solver: Solver, board: Board, move: str) -> int:
    """The value of ``move`` for its player, by proof-number search on the position after it."""
    mover, child = board.turn, board.copy(stack=False)
    child.push(move)
    outcome = child.outcome()
    if outcome is not None:
        return 0 if outcome.winner is None else (1 if outcome.winner == mover else -1)
    value = solver.proof_number_value(child)  # for the side to move after the move: the same player after a pass
    return value if child.turn == mover else -value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.suite_check", description=__doc__.splitlines()[0])
    parser.add_argument("suites", nargs="*", default=list(SUITE_NAMES))
    parser.add_argument("--sample", type=int, default=60, help="positions per suite (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    bad = 0
    for name in args.suites:
        suite = load_suite(name)
        sample = random.Random(args.seed).sample(list(suite.positions), min(args.sample, len(suite)))
        solver = Solver()
        start, moves, wrong = time.perf_counter(), 0, []
        for position in sample:
            board = position.board()
            for label in position.labels:
                moves += 1
                if proof_number_value(solver, board, label.move) != label.value:
                    wrong.append(f"{position.line()} {label.move}")
        bad += len(wrong)
        plies = sorted(p.ply for p in sample)
        print(f"{name}: {len(sample)} positions (plies {plies[0]}-{plies[-1]}), {moves} moves re-checked by proof numbers, "
              f"{len(wrong)} disagree, {time.perf_counter() - start:.0f} s", flush=True)
        for line in wrong:
            print(f"  disagrees: {line}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
