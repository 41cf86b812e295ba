"""Connect Four's ``alphabeta`` agent: iterative deepening on the generic compiled solver's
horizon-limited analysis (:func:`donuts_ai.search.solver.analyze_within`). The analysis is
exact where it decides (a win or a loss within the horizon is Pons' score) and 0 where it
does not; the agent is legal, deterministic, plays wins in one and blocks, keeps won end
positions of Pons' set, and says when its value is proven."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from donuts_ai.connect_four import ConnectFourState
from donuts_ai.connect_four import kernels as K
from donuts_ai.connect_four.agents import AGENTS, AlphaBetaAgent
from donuts_ai.connect_four.rules import RULES
from donuts_ai.connect_four.solve import _analyze, _analyze_within
from donuts_ai.connect_four.state import COLUMN_NAMES
from donuts_ai.errors import AgentError
from donuts_ai.search import solver

DATA = Path(__file__).resolve().parent.parent / "data" / "connect_four"
#: End positions of Pons' set checked (each a few plies from its end).
END_POSITIONS = 20


def _rows(phase: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / f"{phase}.jsonl").read_text().splitlines() if line.strip()]


def test_registered() -> None:
    assert AGENTS["alphabeta"] is AlphaBetaAgent


@pytest.mark.parametrize("horizon", [1, 3, 6])
def test_a_horizon_decides_exactly_what_ends_within_it(horizon: int) -> None:
    """Every move's score within a horizon is the full analysis's (Pons' scores: the solver's
    tests) where the win or loss ends within the horizon, and 0 everywhere else."""
    table = solver.new_table(16)
    for row in _rows("end")[:END_POSITIONS]:
        pos = K.position(ConnectFourState.from_moves(row["moves"]))
        solver.clear_table(table)
        full, _ = _analyze(np.int64(RULES), pos, table, np.int64(solver.NO_NODE_LIMIT))
        solver.clear_table(table)
        scores, _ = _analyze_within(np.int64(RULES), pos, table, np.int64(solver.NO_NODE_LIMIT), np.int64(horizon))
        for column in range(K.WIDTH):
            exact = int(full[column])
            within = exact != 0 and exact != solver.NOT_LEGAL and solver.plies_to_end(exact) <= horizon
            expected = exact if within or exact == solver.NOT_LEGAL else 0
            assert scores[column] == expected, (row["moves"], column, horizon)
    assert any(row["score"] != 0 for row in _rows("end")[:END_POSITIONS])


def test_legal_and_deterministic_and_says_its_depth() -> None:
    board = ConnectFourState.from_moves("dd")
    moves = {AlphaBetaAgent(depth=6, seed=seed).select_move(board) for seed in range(3)}
    assert len(moves) == 1 and moves <= set(board.legal_moves())
    agent = AlphaBetaAgent(depth=6)
    agent.select_move(board)
    assert agent.last_info["depth"] == 6 and agent.last_info["nodes"] > 0 and not agent.last_info["proven"]


def test_timed_move_is_legal_and_deepens() -> None:
    board = ConnectFourState.from_moves("dcde")
    agent = AlphaBetaAgent(time_limit=0.05)
    assert agent.select_move(board) in board.legal_moves()
    assert agent.last_info["depth"] >= 1


@pytest.mark.parametrize(("moves", "expected"), [("dadbdc", "d"), ("abcbeb", "b")])
def test_win_and_block_in_one(moves: str, expected: str) -> None:
    assert AlphaBetaAgent(depth=4).select_move(ConnectFourState.from_moves(moves)) == expected


def test_keeps_won_end_positions_and_proves_them() -> None:
    won = [row for row in _rows("end") if row["score"] > 0][:10]
    assert len(won) == 10
    agent = AlphaBetaAgent(time_limit=1.0)
    for row in won:
        move = agent.select_move(ConnectFourState.from_moves(row["moves"]))
        assert row["move_scores"][COLUMN_NAMES.index(move)] == row["score"], (row["moves"], move)
        assert agent.last_info["proven"] and agent.last_info["score"] == row["score"]


@pytest.mark.parametrize("kwargs", [{"depth": 0}, {"time_limit": -1.0}, {"table_bits": 0}, {"table_bits": 31}])
def test_bad_arguments(kwargs: dict[str, float]) -> None:
    with pytest.raises(AgentError):
        AlphaBetaAgent(**kwargs)  # type: ignore[arg-type]
