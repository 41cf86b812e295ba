"""Connect Four's ``mcts`` agent: the compiled UCT of :mod:`donuts_ai.search.mcts` bound to
the engine (:mod:`donuts_ai.connect_four.agents._mcts`). Legal, seeded, tactics in one, and won
end positions of Pons' set kept won."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from donuts_ai.connect_four import ConnectFourState
from donuts_ai.connect_four.agents import AGENTS, MCTSAgent
from donuts_ai.connect_four.state import COLUMN_NAMES
from donuts_ai.errors import AgentError

DATA = Path(__file__).resolve().parent.parent / "data" / "connect_four"


def test_registered() -> None:
    assert AGENTS["mcts"] is MCTSAgent


def test_legal_move_and_info() -> None:
    board = ConnectFourState()
    agent = MCTSAgent(simulations=2_000, seed=1)
    move = agent.select_move(board)
    assert move in board.legal_moves()
    info = agent.last_info
    assert info["simulations"] == 2_000
    assert info["nodes"] > 1 and not info["proven"]


def test_timed_move_is_legal() -> None:
    board = ConnectFourState.from_moves("dd")
    agent = MCTSAgent(time_limit=0.05, seed=2)
    assert agent.select_move(board) in board.legal_moves()
    assert agent.last_info["simulations"] > 0


def test_same_seed_same_move() -> None:
    board = ConnectFourState.from_moves("dcde")
    moves = {MCTSAgent(simulations=3_000, seed=7).select_move(board) for _ in range(3)}
    assert len(moves) == 1
    first = MCTSAgent(simulations=3_000, seed=7)
    again = MCTSAgent(simulations=3_000, seed=7)
    assert [first.select_move(board) for _ in range(2)] == [again.select_move(board) for _ in range(2)]


@pytest.mark.parametrize(("moves", "expected"), [("dadbdc", "d"), ("abcbeb", "b")])
def test_win_and_block_in_one(moves: str, expected: str) -> None:
    board = ConnectFourState.from_moves(moves)
    assert MCTSAgent(simulations=2_000, seed=3).select_move(board) == expected


def test_proven_win_is_played() -> None:
    agent = MCTSAgent(simulations=5_000, seed=4)
    assert agent.select_move(ConnectFourState.from_moves("dadbdc")) == "d"
    assert agent.last_info["proven"]


def test_keeps_won_end_positions() -> None:
    rows = [json.loads(line) for line in (DATA / "end.jsonl").read_text().splitlines() if line.strip()]
    won = [row for row in rows if row["score"] > 0][:10]
    assert len(won) == 10
    agent = MCTSAgent(simulations=20_000, seed=5)
    for row in won:
        move = agent.select_move(ConnectFourState.from_moves(row["moves"]))
        score = row["move_scores"][COLUMN_NAMES.index(move)]
        assert score is not None and score > 0, (row["moves"], move, row["move_scores"])


@pytest.mark.parametrize("kwargs", [{"simulations": 0}, {"max_nodes": 10}, {"exploration": -1.0},
                                    {"time_limit": -1.0}])
def test_bad_arguments(kwargs: dict[str, float]) -> None:
    with pytest.raises(AgentError):
        MCTSAgent(**kwargs)  # type: ignore[arg-type]
