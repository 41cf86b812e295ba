"""The MCTS agent (donuts_ai.search.mcts): the clock, tree reuse, MCTS-Solver proofs.
(Every agent's common duties, tactics and seeds: tests/test_agents.py.)"""

from __future__ import annotations

import random

import pytest

from donuts_ai import Board, Layout, Rules, Solver, solve
from donuts_ai.search.mcts import MCTSAgent
from donuts_ai.search.mcts import agent as mcts_module

from .helpers import position
from .test_agents import BLOCK, TINY_CLOCK, WIN_NOW, _opening, install_fake_clock


@pytest.fixture
def fake_clock(monkeypatch):
    """``fake_clock(step)`` installs a :class:`~.test_agents.FakeClock` as the agent's clock."""
    return lambda step: install_fake_clock(monkeypatch, mcts_module, step)


@pytest.mark.parametrize("workers", [1, 2])
def test_mcts_past_its_deadline_plays_after_one_iteration(fake_clock, workers):
    fake_clock(10.0)
    agent = MCTSAgent(time_limit=0.1, seed=1, workers=workers)
    board = _opening()
    assert agent.select_move(board) in board.legal_moves()
    assert agent.last_info["iterations"] == workers  # the one that expands each root
    assert agent.select_move(position(**BLOCK)) == "f6"
    assert agent.select_move(position(**WIN_NOW), TINY_CLOCK) == "c2"


def test_mcts_reuses_its_tree():
    agent = MCTSAgent(iterations=5000, seed=3)
    board = Board(Layout.random_grid(2))
    board.push(agent.select_move(board))
    board.push(board.legal_moves()[0])
    assert agent._reroot(board)  # the reply was in the tree: the root moves down
    other = Board(Layout.random_grid(3))
    assert not agent._reroot(other)
    assert agent.select_move(board) in board.legal_moves()


def test_mcts_proves_a_win_and_plays_it():
    board = position(**WIN_NOW)
    agent = MCTSAgent(iterations=50, seed=1)
    assert agent.select_move(board) == "c2"


def _small_pool_positions(count: int, seed: int, after_forfeit: bool) -> list[Board]:
    """Positions of random small-pool games that the side to move wins, though not with
    every move. With ``after_forfeit`` the last event was a forfeit; else the opponent's
    pool is empty and the side to move places (at least) twice in a row."""
    rng = random.Random(seed)
    solver = Solver(tt_bits=16)
    out = []
    while len(out) < count:
        n = rng.choice([5, 6, 7])
        board = Board(Layout.random_grid(rng.randrange(10**6)), Rules(donuts=n))
        stop_at = rng.randrange(4, 2 * n)
        while not board.is_game_over() and board.ply < stop_at:
            if rng.random() < 0.25:
                board.forfeit()
            else:
                board.push(rng.choice(board.legal_moves()))
        if board.is_game_over():
            continue
        if after_forfeit:
            board.forfeit()
        else:
            p_me, p_opp = board.placed[board.turn], board.placed[1 - board.turn]
            if p_opp < n or p_me > n - 2:
                continue
        if board.is_game_over() or solve(board, distance=False).value != 1:
            continue
        if all(solver.move_value(board, m) == 1 for m in board.legal_moves()):
            continue
        out.append(board)
    return out


@pytest.mark.parametrize("after_forfeit", [True, False], ids=["after-a-forfeit", "opponent-pool-empty"])
def test_mcts_proves_wins_for_the_side_to_move_when_turns_do_not_alternate(after_forfeit):
    solver = Solver(tt_bits=16)
    for board in _small_pool_positions(8, seed=13 if after_forfeit else 14, after_forfeit=after_forfeit):
        agent = MCTSAgent(iterations=20_000, seed=1)
        move = agent.select_move(board)
        assert solver.move_value(board, move) == 1, (board.fen(), board.rules, move)
        if not agent.last_info["forced"]:
            assert agent.last_info["proven"], board.fen()  # a proof, oriented to the right side


def test_mcts_proofs_keep_the_value_through_forfeits_and_double_moves():
    """Games on small pools against an opponent that often forfeits (so turns do not
    alternate and one pool empties first): whenever the tree, re-rooted from move to move,
    holds a proof, the move keeps the solver's value."""
    solver = Solver(tt_bits=16)
    rng = random.Random(5)
    checked = 0
    for game in range(6):
        board = Board(Layout.random_grid(100 + game), Rules(donuts=6))
        agent = MCTSAgent(iterations=4000, seed=game)
        while not board.is_game_over():
            if board.turn == game % 2:
                move = agent.select_move(board)
                if agent.last_info["proven"]:
                    assert solver.move_value(board, move) == solve(board, distance=False).value, board.fen()
                    checked += 1
                board.push(move)
            elif rng.random() < 0.4:
                board.forfeit()
            else:
                board.push(rng.choice(board.legal_moves()))
    assert checked > 0
