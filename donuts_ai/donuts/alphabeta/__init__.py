"""Donuts' negamax alpha-beta over bitboards and the exact solver, in one place.

Kernels (private): :mod:`._scores` (the score scale), :mod:`._table` (transposition
table), :mod:`._ordering` (move order), :mod:`._evaluation` (the horizon),
:mod:`._workspace` (scratch arrays), :mod:`._negamax` (the search), :mod:`._dfpn` (the
proof-number value search of the "single" insertion rule). Driver: :mod:`.solver`
(``solve``, ``analyze``, ``Solver``). The agents that play by it, ``AlphaBetaAgent`` and
``SolverAgent``, are :mod:`donuts_ai.donuts.agents.alphabeta`.
"""

from .solver import MoveValue, Solution, Solver, analyze, solve

__all__ = ["MoveValue", "Solution", "Solver", "analyze", "solve"]
