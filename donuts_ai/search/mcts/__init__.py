"""Monte-Carlo tree search, in one place: the kernels (:mod:`._tree`: UCT with random
playouts and MCTS-Solver, in preallocated arrays) and :class:`MCTSAgent` (:mod:`.agent`)."""

from .agent import MCTSAgent

__all__ = ["MCTSAgent"]
