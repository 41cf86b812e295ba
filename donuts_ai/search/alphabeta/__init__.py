"""Negamax alpha-beta over bitboards, in one place.

Kernels (private): :mod:`._scores` (the score scale), :mod:`._table` (transposition
table), :mod:`._ordering` (move order), :mod:`._evaluation` (the horizon),
:mod:`._workspace` (scratch arrays), :mod:`._negamax` (the search), :mod:`._dfpn` (the
proof-number value search of the "single" insertion rule). Drivers:
:mod:`.solver` (``solve``, ``analyze``, ``Solver``) and :mod:`.agent`
(``AlphaBetaAgent``, ``SolverAgent``).
"""

from .agent import AlphaBetaAgent, SolverAgent
from .solver import MoveValue, Solution, Solver, analyze, solve

__all__ = ["AlphaBetaAgent", "MoveValue", "Solution", "Solver", "SolverAgent", "analyze", "solve"]
