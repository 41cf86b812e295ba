"""The heuristic of alpha-beta: what a position is worth when a depth-limited search
stops at its horizon (:func:`heuristic_score`, :func:`horizon_value`).

The solver never gets here: its depth (``EXACT_DEPTH``) is beyond every game's end.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..._bits import ONE, ZERO, ctz, popcount
from ..._numba_types import Bool, Int64
from .._kernels.core import largest_group, legal_mask
from .._kernels.position import Position, place, settle
from .._kernels.tables import FIVE_WINDOWS
from ._scores import INF, end_score

#: Weight of a five-window no opposing donut blocks, by the donuts one side has in it
#: (0..5; a full window is a five, which never reaches the heuristic).
WINDOW_WEIGHTS = np.array([0, 1, 4, 16, 64, 0], dtype=np.int64)
#: The largest-group difference weighs from 1 (empty pools) up to 1 + GROUP_WEIGHT_GROWTH
#: (pools spent), as the game nears the end where largest groups decide it.
GROUP_WEIGHT_GROWTH = 8
#: Heuristic scores are clamped to +-HEURISTIC_LIMIT, far inside MATE_BOUND: never mistaken for a win.
HEURISTIC_LIMIT = 4000



@njit(cache=True)
def heuristic_score(pos: Position, donuts: Int64) -> Int64:
    """Heuristic score of a quiet position for the side to move (``|score| <= HEURISTIC_LIMIT``).

    Open five-windows (no opposing donut) weighted by how full they are, for both
    sides, and largest groups weighted more as the pools run out."""
    own, opp = pos.own, pos.opp
    score: Int64 = 0
    for w in range(FIVE_WINDOWS.shape[0]):
        window = FIVE_WINDOWS[w]
        a = popcount(own & window)
        b = popcount(opp & window)
        if b == 0:
            score += WINDOW_WEIGHTS[a]
        elif a == 0:
            score -= WINDOW_WEIGHTS[b]
    placed = pos.placed_own + pos.placed_opp
    group_weight = 1 + (GROUP_WEIGHT_GROWTH * placed) // (2 * donuts)
    score += group_weight * (largest_group(own) - largest_group(opp))
    return max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, score))


@njit(cache=True)
def horizon_value(donuts: Int64, pos: Position, ply: Int64, own_move_ends: Bool, ws: np.record) -> Int64:
    """Value at the horizon of a position with no five to make: its heuristic score, unless
    every move ends the game (``own_move_ends``); then the exact best of them, with the
    flips of each legal move read from this ply's row of ``ws.flips``."""
    if not own_move_ends:
        return heuristic_score(pos, donuts)
    best: Int64 = -INF
    m = legal_mask(pos.own, pos.opp, pos.last, ws.line_masks)
    i = 0
    while m != ZERO:
        sq = ctz(m)
        m &= m - ONE
        score = end_score(settle(place(pos, sq, ws.flips[ply, i]), donuts)[1], ply + 1)
        i += 1
        if score > best:
            best = score
    return best
