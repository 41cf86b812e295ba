"""Compatibility: the exact solver lives in :mod:`donuts_ai.search.alphabeta.solver`."""

from .search.alphabeta.solver import DRAW, LOSS, WIN, MoveValue, Solution, Solver, analyze, solve

__all__ = ["DRAW", "LOSS", "WIN", "MoveValue", "Solution", "Solver", "analyze", "solve"]
