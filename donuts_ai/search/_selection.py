"""Selection arithmetic the tree searches share (private, inlined into each search).

UCB1 is MCTS's (a child's visits under its parent's) and ISMCTS's (under the child's
availability); PUCT's score weighs the network's prior and stays in :mod:`.puct`. The
masked softmax over a node's legal actions is PUCT's priors (:func:`.puct.expand`) and
Gumbel's improved policy (:mod:`.puct._gumbel`)."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from numba import njit

from .._bits import ONE, ZERO, ctz


@njit(cache=True, inline="always")
def ucb1(total: float, visits: int, log_parent: float, exploration: float) -> float:
    """UCB1's score of a visited child: its mean reward, ``total / visits``, plus
    ``exploration * sqrt(log_parent / visits)`` (``log_parent``: the log of its parent's
    visits, or of its availability)."""
    score: float = total / visits + exploration * math.sqrt(log_parent / visits)
    return score


@njit(cache=True, inline="always")
def masked_softmax_terms(scores: npt.NDArray[np.float64], legal: np.uint64, top: float) -> float:
    """The terms of the softmax of ``scores`` over the actions of the ``legal`` bits, in
    place: ``scores[a] = exp(scores[a] - top)`` for each legal action ``a`` (``top`` their
    largest score, so none overflows; other entries untouched), in ascending order of
    ``a``; returns their sum, the normaliser the caller divides them by."""
    norm = 0.0
    bits = legal
    while bits != ZERO:
        a = int(ctz(bits))
        bits &= bits - ONE
        scores[a] = math.exp(scores[a] - top)
        norm += scores[a]
    return norm
