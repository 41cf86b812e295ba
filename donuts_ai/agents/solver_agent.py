"""Compatibility: :class:`SolverAgent` lives in :mod:`donuts_ai.search.alphabeta.agent`."""

from ..search.alphabeta.agent import SolverAgent

__all__ = ["SolverAgent"]
