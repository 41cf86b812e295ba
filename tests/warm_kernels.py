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

``engine`` compiles for about a minute on one core; ``rest`` must not take longer, as the two
run side by side. ``rest`` also compiles the learned agent's JAX programs into the suite's
shared JAX cache (tests/compile_caches.py): the tiny networks the learning tests train and
the shipped one. To find a kernel the suite still compiles for itself, list the
``__pycache__/*.nbi`` files written after this ran (``find donuts_ai -name '*.nbi' -newer FILE``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import random
import sys
import tempfile
from pathlib import Path

from compile_caches import share_jax_compilations


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
        # One run in this process, every kernel it times compiled and cached: each figure's
        # first call compiles, so repeats of 1 ms (not bench's 100 ms) leave nothing out.
        measure(quick=True, min_seconds=0.001)
    _connect_four()


def _connect_four() -> None:
    """Connect Four's engine and the generic compiled solver bound to it: a position of
    its tests solved and analyzed, a perft, a playout."""
    import numpy as np

    from donuts_ai.connect_four import ConnectFourState
    from donuts_ai.connect_four import kernels as K
    from donuts_ai.connect_four.solve import analyze, solve

    board = ConnectFourState.from_moves("256174416734665724465317")
    solve(board, table_bits=12)
    analyze(board, table_bits=12)
    pos = K.position(board)
    K.perft(0, pos, 2)
    K.playout(0, pos, np.uint64(1))


def rest() -> None:
    """The exact solver (one thread and the portfolio, both insertion rules), the batched
    environment (random and fixed layouts, the final observations), canonical keys, Donut
    Boxes' playouts, the learned agent's search, and a few moves of training (PUCT and
    Gumbel self-play with solved leaves, the prediction cache, a training step) with the
    learning tests' tiny network."""
    from donuts_ai import Board, Layout, Rules, Solver
    from donuts_ai.boxes import BoxesRules, BoxesState
    from donuts_ai.donuts import canonical
    from donuts_ai.donuts.vector_env import VectorEnv
    from donuts_ai.tournament import make_agent

    for rules in (Rules(), Rules(insertion="single")):
        board = _late(Board(Layout.random_grid(3), rules), 14, seed=1)
        if not board.is_game_over():
            for threads in (1, 2):
                solver = Solver(tt_bits=14, threads=threads)
                solver.solve(board, distance=True)
                solver.analyze(board)
    for layout in ("random", "standard"):
        env = VectorEnv(4, layout=layout, seed=0)
        for _ in range(40):
            env.step(env.random_actions())
        env.final_observation  # noqa: B018 (written when first read)
    board = _late(Board(Layout.random_grid(5)), 6, seed=3)
    canonical.canonical_key(board)
    board.forfeit()
    BoxesState(BoxesRules(3, "splitzkies"), seed=2).random_playouts(2, seed=4)
    for spec in ("az:simulations=8",):
        agent = make_agent(spec, seed=0, game="donuts")
        agent.select_move(_late(Board(Layout.random_grid(5)), 4, seed=2))
    _learn()


def _learn() -> None:
    """tests/learn/test_learn.py's SMALL run and test_gumbel.py's GUMBEL one, a few moves each."""
    from donuts_ai.learn.network import NetworkConfig
    from donuts_ai.learn.train import TrainConfig, Trainer

    small = TrainConfig(games=8, simulations=4, network=NetworkConfig(channels=8, blocks=1, value_hidden=8), batch_size=16,
                        min_replay=32, checkpoint_every=5, replay_capacity=500)
    gumbel = dataclasses.replace(small, donuts=6, min_replay=16, search="gumbel", gumbel_considered=4, full_fraction=0.5,
                                 fast_simulations=2, solve_plies=6)
    with tempfile.TemporaryDirectory() as folder:
        for name, config in (("puct", small), ("gumbel", gumbel)):
            Trainer(Path(folder) / name, config).run(moves=8)


GROUPS = {"engine": engine, "rest": rest}

if __name__ == "__main__":
    share_jax_compilations()  # before anything imports JAX
    if len(sys.argv) != 2 or sys.argv[1] not in GROUPS:
        sys.exit(f"usage: python tests/warm_kernels.py {{{'|'.join(GROUPS)}}}")
    GROUPS[sys.argv[1]]()
