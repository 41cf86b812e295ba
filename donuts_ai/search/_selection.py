"""Selection scores the tree searches share (private, inlined into each search).

UCB1 is MCTS's (a child's visits under its parent's) and ISMCTS's (under the child's
availability); PUCT's score weighs the network's prior and stays in :mod:`.puct`."""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True, inline="always")
def ucb1(total: float, visits: int, log_parent: float, exploration: float) -> float:
    """UCB1's score of a visited child: its mean reward, ``total / visits``, plus
    ``exploration * sqrt(log_parent / visits)`` (``log_parent``: the log of its parent's
    visits, or of its availability)."""
    score: float = total / visits + exploration * math.sqrt(log_parent / visits)
    return score
