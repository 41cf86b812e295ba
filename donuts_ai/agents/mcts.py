"""Compatibility: :class:`MCTSAgent` lives in :mod:`donuts_ai.search.mcts.agent`."""

from ..search.mcts.agent import MCTSAgent

__all__ = ["MCTSAgent"]
