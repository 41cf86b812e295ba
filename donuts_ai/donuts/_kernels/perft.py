"""Perft: count the leaf positions of the game tree to a fixed depth.

A leaf is a position ``depth`` plies down, or a finished game reached earlier.
At depth 1 every child is a leaf whatever it holds, so the children are counted
from the legal-move mask without being played ("bulk counting").
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..._bits import ONE, ctz, popcount
from ..._numba_types import Int64
from .core import legal_mask
from .position import Position, Rulebook, apply, as_position, is_over


@njit(cache=True)
def perft(rulebook: Rulebook, pos: Position, depth: Int64) -> Int64:
    """Leaf count below a position (:class:`.position.Position`) that is not over (``depth`` >= 1)."""
    # The recursion gets exactly one set of argument types: with the on-disk cache, a
    # recursive kernel compiled in two specializations segfaults (numba #6061/#6713).
    # The recursion takes the game's fields apart: Numba counts references to an array
    # read from a tuple, once per read and per call, and perft does little else per node.
    return _perft(rulebook.line_masks, rulebook.donuts, rulebook.single, as_position(pos), np.int64(depth))


@njit(cache=True)
def _perft(line_masks: NDArray[np.uint64], donuts: Int64, single: bool, pos: Position, depth: Int64) -> Int64:
    moves = legal_mask(pos.own, pos.opp, pos.last, line_masks)
    if depth == 1:
        return popcount(moves)
    total: Int64 = 0
    while moves:
        sq = ctz(moves)
        moves &= moves - ONE
        child, status = apply(donuts, single, pos, sq)
        if is_over(status):
            total += 1  # the game ended: a leaf above the horizon
        else:
            total += _perft(line_masks, donuts, single, child, depth - 1)
    return total
