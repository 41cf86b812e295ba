"""Connect Four's perft: the compiled engine against OpenSpiel's ``connect_four``, and the
engine's leaves a second.

    python -m benchmarks.connect_four_perft [--depth 8] [--engine-depth 10] [--repeats 5]

For each depth 1..``--depth`` it counts the leaves of the tree below the empty board (a
finished game is a leaf) twice: with :func:`donuts_ai.connect_four.kernels.perft`, and by a
recursive walk of ``pyspiel.load_game("connect_four")`` in Python (``state.child``, the
legal actions counted without playing at the last ply, as the engine does), and prints
both counts, whether they agree, and the seconds each took. The Python walk costs about
0.2 µs a leaf (depth 8, 5.7 million leaves: about 1 s; depth 9: about 8 s; depth 10: about
a minute, on one core of a 2-core EPYC). Both counted 1, 7, ..., 823,536, 5,686,266 and
39,452,034 leaves at depths 1 to 9. Then the engine
alone to ``--engine-depth``, best of ``--repeats``, in leaves a second (after one warm-up
call: compilation is not measured). Exit status 1 when a count disagrees.

OpenSpiel is the ``spiel`` extra (``pip install 'donuts_ai[spiel]'``). Benchmarks are not
tests: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any


def spiel_perft(state: Any, depth: int) -> int:
    """The leaves ``depth`` plies below an OpenSpiel state (a terminal state is a leaf)."""
    if depth == 0 or state.is_terminal():
        return 1
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(spiel_perft(state.child(action), depth - 1) for action in actions)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.connect_four_perft", description=__doc__.splitlines()[0])
    ap.add_argument("--depth", type=int, default=8, help="compare with OpenSpiel to this depth (default 8)")
    ap.add_argument("--engine-depth", type=int, default=10, help="time the engine alone to this depth (default 10)")
    ap.add_argument("--repeats", type=int, default=5, help="timings of each engine depth, the best kept (default 5)")
    args = ap.parse_args(argv)

    import pyspiel

    from donuts_ai.connect_four import kernels as K

    start = K.as_position(*K.start())
    K.perft(0, start, 2)  # compile (or load) before timing
    game = pyspiel.load_game("connect_four")
    agree = True
    print(f"{'depth':>5} {'engine':>12} {'OpenSpiel':>12} {'same':>5} {'engine s':>9} {'OpenSpiel s':>11}")
    for depth in range(1, args.depth + 1):
        t0 = time.perf_counter()
        ours = int(K.perft(0, start, depth))
        t1 = time.perf_counter()
        theirs = spiel_perft(game.new_initial_state(), depth)
        t2 = time.perf_counter()
        agree &= ours == theirs
        print(f"{depth:>5} {ours:>12,} {theirs:>12,} {'yes' if ours == theirs else 'NO':>5} {t1 - t0:>9.4f} {t2 - t1:>11.2f}")

    print(f"\nthe engine, best of {args.repeats}:")
    print(f"{'depth':>5} {'leaves':>14} {'seconds':>9} {'leaves/s':>14}")
    for depth in range(1, args.engine_depth + 1):
        best, leaves = float("inf"), 0
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            leaves = int(K.perft(0, start, depth))
            best = min(best, time.perf_counter() - t0)
        print(f"{depth:>5} {leaves:>14,} {best:>9.4f} {leaves / best:>14,.0f}")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
