"""The baseline the solver is measured against: plain negamax with alpha-beta on the
win/draw/loss value, moves in square order, no transposition table, no move ordering,
no threat detection (the "naive search" of the search issue, here in Numba rather
than C)."""

from __future__ import annotations

import numpy as np
from numba import njit

from .._engine.core import final_result, flips, has_five, legal_mask

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_FULL = np.uint64((1 << 36) - 1)


@njit(cache=True)
def end_score_sign(own, opp, p_own, p_opp, n):
    """+1 / 0 / -1 for the player ``own`` of a game that ended without a five."""
    winner, _ = final_result(own, opp, p_own, p_opp, n)
    if winner == 0:
        return np.int64(1)
    if winner == 1:
        return np.int64(-1)
    return np.int64(0)


@njit(cache=True)
def _naive(lm, own, opp, last, p_own, p_opp, n, single, alpha, beta, stats):
    stats[0] += 1
    if stats[0] >= stats[1]:
        return 0
    moves = legal_mask(own, opp, last, lm)
    best = np.int64(-2)
    while moves != _ZERO:
        sq = np.int64(0)
        while not (moves >> np.uint64(sq)) & _ONE:
            sq += 1
        moves &= moves - _ONE
        f = flips(own, opp, sq, single)
        new_own = own | (_ONE << np.uint64(sq)) | f
        new_opp = opp & ~f
        q_own = p_own + 1
        if has_five(new_own):
            return np.int64(1)
        if (new_own | new_opp) == _FULL or (q_own >= n and p_opp >= n):
            v = end_score_sign(new_own, new_opp, q_own, p_opp, n)
        elif p_opp < n:
            v = -_naive(lm, new_opp, new_own, sq, p_opp, q_own, n, single, -beta, -alpha, stats)
        else:
            v = _naive(lm, new_own, new_opp, sq, q_own, p_opp, n, single, alpha, beta, stats)
        if v > best:
            best = v
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    break
    return best


@njit(cache=True)
def naive_value(lm, own, opp, last, p_own, p_opp, n, single, node_limit):
    """(value for the side to move, nodes, finished) of a position that is not over."""
    stats = np.zeros(2, dtype=np.int64)
    stats[1] = node_limit
    v = _naive(lm, own, opp, np.int64(last), np.int64(p_own), np.int64(p_opp), np.int64(n), single,
               np.int64(-1), np.int64(1), stats)
    return v, stats[0], stats[0] < node_limit
