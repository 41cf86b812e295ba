"""Compile the library's Numba kernels into their on-disk caches before the test suite runs.

``make test`` runs this twice at once (``engine`` and ``rest``, one a core), then pytest.
Why: with cold caches every process the suite starts (pytest's two workers, tournament
workers, seats, command-line runs) compiles the kernels it needs for itself until some
process has written them, so the same kernels are compiled many times over, most of them
at the start, where every test wants the engine. Compiled once here, each later process
loads them from disk. It checks nothing: a kernel it misses is compiled by the first test
that needs it, as before.

    python tests/warm_kernels.py engine
    python tests/warm_kernels.py rest
"""

from __future__ import annotations

import contextlib
import io
import random
import sys


def _late(board, plies: int, seed: int):
    """``board`` after ``plies`` seeded random plies (fewer if the game ends first)."""
    rng = random.Random(seed)
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_moves()))
    return board


def engine() -> None:
    """The Donuts engine and its searches: what ``donuts-ai bench --quick`` runs."""
    from donuts_ai.bench.engine import measure

    with contextlib.redirect_stdout(io.StringIO()):
        measure(quick=True)  # one run in this process: every kernel it times is compiled and cached


def rest() -> None:
    """The exact solver (one thread and the portfolio, both insertion rules), the batched
    environment and the learned agent's search."""
    from donuts_ai import Board, Layout, Rules, Solver
    from donuts_ai.donuts.vector_env import VectorEnv
    from donuts_ai.tournament import make_agent

    for rules in (Rules(), Rules(insertion="single")):
        board = _late(Board(Layout.random_grid(3), rules), 14, seed=1)
        if not board.is_game_over():
            for threads in (1, 2):
                solver = Solver(tt_bits=14, threads=threads)
                solver.solve(board, distance=True)
                solver.analyze(board)
    env = VectorEnv(4, layout="random", seed=0)
    for _ in range(40):
        env.step(env.random_actions())
    for spec in ("az:simulations=8",):
        agent = make_agent(spec, seed=0, game="donuts")
        agent.select_move(_late(Board(Layout.random_grid(5)), 4, seed=2))


GROUPS = {"engine": engine, "rest": rest}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in GROUPS:
        sys.exit(f"usage: python tests/warm_kernels.py {{{'|'.join(GROUPS)}}}")
    GROUPS[sys.argv[1]]()
