"""Compatibility: :class:`AlphaBetaAgent` lives in :mod:`donuts_ai.search.alphabeta.agent`."""

from ..search.alphabeta.agent import AlphaBetaAgent

__all__ = ["AlphaBetaAgent"]
