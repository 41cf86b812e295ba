"""Perft: count the leaf positions of the game tree to a fixed depth.

A leaf is a position ``depth`` plies down, or a finished game reached earlier.
At depth 1 every child is a leaf whatever it holds, so the children are counted
from the legal-move mask without being played ("bulk counting").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import ctz, popcount
from .core import legal_mask, play

_ONE = np.uint64(1)


@njit(cache=True)
def perft(line_masks, b0, b1, turn, last, p0, p1, n, single, depth):
    """Leaf count below a position that is not over (``depth`` >= 1)."""
    moves = legal_mask(b0, b1, last, line_masks)
    if depth == 1:
        return popcount(moves)
    total = 0
    while moves:
        sq = ctz(moves)
        moves &= moves - _ONE
        c0, c1, nt, q0, q1, _, _, _ = play(b0, b1, turn, p0, p1, sq, n, single)
        if nt < 0:
            total += 1  # the game ended: a leaf above the horizon
        else:
            total += perft(line_masks, c0, c1, nt, sq, q0, q1, n, single, depth - 1)
    return total
