"""The alpha-beta agents (donuts_ai.donuts.agents.alphabeta): the clock, the minimal
search, perfect play. (The exact solver has tests/donuts/test_solver.py; every agent's common
duties, tactics and seeds, tests/donuts/test_agents.py.)"""

from __future__ import annotations

import pytest

from donuts_ai import Board
from donuts_ai.donuts.agents import alphabeta as alphabeta_module
from donuts_ai.donuts.agents.alphabeta import AlphaBetaAgent, SolverAgent

from ..helpers import BLOCK, TINY_CLOCK, install_fake_clock, position, random_positions
from ..helpers import opening as _opening


def _always_depth(board: Board) -> int:
    """The depth alpha-beta completes whatever its limits."""
    return 2 if len(board.legal_moves()) <= alphabeta_module.ALWAYS_DEPTH_2_MOVES else 1


@pytest.fixture
def fake_clock(monkeypatch):
    """``fake_clock(step)`` installs a :class:`~.helpers.FakeClock` as the agent's clock."""
    return lambda step: install_fake_clock(monkeypatch, alphabeta_module, step)


@pytest.mark.parametrize("time_left", [None, TINY_CLOCK])
def test_alphabeta_past_its_deadline_completes_only_the_minimal_search(fake_clock, time_left):
    fake_clock(10.0)  # the deadline has passed at the first reading after the start
    agent = AlphaBetaAgent(time_limit=0.1)
    board = _opening()
    assert agent.select_move(board, time_left) in board.legal_moves()
    assert agent.last_info["depth"] == _always_depth(board)
    assert agent.select_move(position(**BLOCK), time_left) == "f6"


def test_alphabeta_searches_until_its_deadline(fake_clock):
    # A clock advancing 0.1 ms a reading allows a few hundred slices of the 0.05 s budget.
    fake_clock(1e-4)
    agent = AlphaBetaAgent(time_limit=0.05)
    board = _opening()
    agent.select_move(board)
    assert agent.last_info["depth"] >= 4
    # A node budget stops it as well, after the same minimal search.
    capped = AlphaBetaAgent(time_limit=0.05, nodes=1)
    capped.select_move(board)
    assert capped.last_info["depth"] == _always_depth(board)


def test_solver_agent_always_legal_and_keeps_the_value():
    from donuts_ai import Solver, solve

    agent, solver = SolverAgent(), Solver(tt_bits=18)
    for board in random_positions(12, seed=8, min_plies=10):
        move = agent.select_move(board)
        assert move in board.legal_moves()
        assert solver.move_value(board, move) == solve(board, distance=False).value


def test_history_ages_below_the_killer_bonus():
    """History weighs cut-offs by the sixth power of the depth: past its cap every square's
    history is halved, so no key overflows and killers and the table move still go first."""
    from donuts_ai.donuts.alphabeta._ordering import HISTORY_CAP, KILLER_BONUS, TABLE_MOVE_BONUS, remember_cutoff
    from donuts_ai.donuts.alphabeta._workspace import new_workspace

    workspace = new_workspace()
    ws = workspace[0]
    for i in range(300_000):
        remember_cutoff(ws, 3, 7, i % 5, 40)  # the last move on square 7
    history = workspace["history"][0]
    counter = workspace["counter"][0]
    # A key adds the two: still below the killer bonus.
    assert history.max() + counter.max() <= 2 * HISTORY_CAP < KILLER_BONUS < TABLE_MOVE_BONUS
    assert history[:5].min() > 0 and history[5:].max() == 0
    assert counter[7 + 1, :5].min() > 0 and counter.sum() == counter[7 + 1, :5].sum()  # only after square 7
