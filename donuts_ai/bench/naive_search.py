"""The baseline the solver is measured against: plain negamax with alpha-beta on the
win/draw/loss value, moves in square order, no transposition table, no move ordering,
no threat detection (the "naive search" of the search issue, here in Numba rather
than C). It asks the same rule helpers as every kernel (:mod:`donuts_ai._engine.position`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from .._engine.core import DRAW, has_five
from .._engine.position import as_position, end_result, is_over_after, legal_moves, make_move, opponent_moves_next, swap

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
# Columns of the stats array: nodes searched, the node limit.
_NODES, _NODE_LIMIT = 0, 1


@njit(cache=True)
def end_score_sign(after, donuts):
    """+1 / 0 / -1 for the side that placed, of a game that ended without a five."""
    winner, _ = end_result(after, donuts)
    if winner == 0:
        return np.int64(1)
    if winner == DRAW:
        return np.int64(0)
    return np.int64(-1)


@njit(cache=True)
def _naive(game, pos, alpha, beta, stats):
    stats[_NODES] += 1
    if stats[_NODES] >= stats[_NODE_LIMIT]:
        return 0
    moves = legal_moves(game, pos)
    best = np.int64(-2)
    while moves != _ZERO:
        sq = np.int64(0)
        while not (moves >> np.uint64(sq)) & _ONE:  # the lowest square, the slow way
            sq += 1
        moves &= moves - _ONE
        after = make_move(game, pos, sq)
        if has_five(after.own):
            return np.int64(1)
        if is_over_after(after, game.donuts):
            v = end_score_sign(after, game.donuts)
        elif opponent_moves_next(after, game.donuts):
            v = -_naive(game, swap(after), -beta, -alpha, stats)
        else:
            v = _naive(game, after, alpha, beta, stats)
        if v > best:
            best = v
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    break
    return best


@njit(cache=True)
def naive_value(game, pos, node_limit):
    """(value for the side to move, nodes, finished) of a position that is not over."""
    stats = np.zeros(2, dtype=np.int64)
    stats[_NODE_LIMIT] = node_limit
    v = _naive(game, as_position(pos), np.int64(-1), np.int64(1), stats)
    return v, stats[_NODES], stats[_NODES] < node_limit
