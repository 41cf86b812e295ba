# ruff: noqa: F821  (reveal_type is mypy's, never run)
"""A user's script, type-checked by tests/test_typing.py: what mypy sees of the public API.

Each ``reveal_type`` line's expected type, or its start, is in the comment after it. Never run."""

from donuts_ai import Board, Layout, Rules, VectorEnv, analyze, perft, solve
from donuts_ai import tournament as T
from donuts_ai.donuts.agents import MCTSAgent
from donuts_ai.learn import AlphaZeroAgent, TrainConfig, Trainer
from donuts_ai.play.analysis import Analyst
from donuts_ai.study import load_study

board = Board(Layout.random(1), Rules())
reveal_type(board.legal_moves())  # list[str]
reveal_type(board.push("c3"))  # list[str]
reveal_type(board.outcome())  # donuts_ai.donuts.board.Outcome | None
reveal_type(solve(board))  # donuts_ai.donuts.alphabeta.solution.Solution
reveal_type(solve(board).value)  # int
reveal_type(analyze(board))  # list[donuts_ai.donuts.alphabeta.solution.MoveValue]
reveal_type(perft(board, 2))  # int
reveal_type(MCTSAgent(time_limit=0.1).select_move(board))  # str
reveal_type(AlphaZeroAgent(simulations=0).select_move(board))  # str
reveal_type(VectorEnv(4).rewards)  # numpy.ndarray[tuple[Any, ...], numpy.dtype[numpy.floating[numpy._typing._nbit_base._32Bit]]]
reveal_type(T.run(["random", "greedy"], game="donuts"))  # donuts_ai.tournament.results.Results
reveal_type(Trainer("runs/x", TrainConfig()).counters)  # TypedDict(donuts_ai.learn.config.Progress, {
reveal_type(Analyst().analyze(board))  # donuts_ai.play.analysis.PositionAnalysis
reveal_type(load_study("study.jsonl"))  # tuple[TypedDict(donuts_ai.study.StudyConfig, {
