"""Plain searches the library's own are measured against, kept beside the engine they
run on (they reach its kernels, as only the game's own package may):

- :func:`naive_value`: the baseline the solver is measured against: plain negamax with
  alpha-beta on the win/draw/loss value, moves in square order, no transposition table,
  no move ordering, no threat detection (the "naive search" of the solver's benchmark,
  here in Numba rather than C), playing placements with the transition every kernel uses
  (:func:`~donuts_ai.donuts.kernels.apply`'s engine twin);
- :func:`negamax_private` and :func:`negamax_public`: one depth-limited negamax written
  twice, name for name, against the engine's own kernels and against their public
  names (:mod:`donuts_ai.donuts.kernels`), whose node rates ``python -m
  benchmarks.kernels`` compares (what the public face costs).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from .._bits import ONE, ZERO, ctz
from . import kernels as K
from ._kernels.position import PASSES, WON_BY_FIVE, Position, Rulebook, apply, as_position, is_over, legal_moves, placer_value

# Columns of the stats array: nodes searched, the node limit.
_NODES, _NODE_LIMIT = 0, 1


@njit(cache=True)
def _naive(rulebook: Rulebook, pos: Position, alpha: np.int64, beta: np.int64, stats: NDArray[np.int64]) -> np.int64:
    stats[_NODES] += 1
    if stats[_NODES] >= stats[_NODE_LIMIT]:
        return 0  # type: ignore[return-value]  # Numba compiles it as the kernel's int64
    moves = legal_moves(rulebook, pos)
    best = np.int64(-2)
    while moves != ZERO:
        sq = np.int64(0)
        while not (moves >> np.uint64(sq)) & ONE:  # the lowest square, the slow way
            sq += 1
        moves &= moves - ONE
        child, status = apply(rulebook.donuts, rulebook.single, pos, sq)
        if status == WON_BY_FIVE:
            return np.int64(1)
        if is_over(status):
            v = np.int64(placer_value(status))
        elif status == PASSES:
            v = -_naive(rulebook, child, -beta, -alpha, stats)
        else:
            v = _naive(rulebook, child, alpha, beta, stats)
        if v > best:
            best = v
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    break
    return best


@njit(cache=True)
def naive_value(rulebook: Rulebook, pos: Position, node_limit: int) -> tuple[np.int64, np.int64, np.bool_]:
    """(value for the side to move, nodes, finished) of a position that is not over."""
    stats = np.zeros(2, dtype=np.int64)
    stats[_NODE_LIMIT] = node_limit
    v = _naive(rulebook, as_position(pos), np.int64(-1), np.int64(1), stats)
    return v, stats[_NODES], stats[_NODES] < node_limit


@njit(cache=True)
def negamax_private(rb: Rulebook, pos: Position, depth: int, alpha: int, beta: int, nodes: NDArray[np.int64]) -> int:
    """The negamax against the private engine (``python -m benchmarks.kernels`` times it)."""
    nodes[0] += 1
    if depth == 0:
        return 0
    best, moves = -1, legal_moves(rb, pos)
    while moves:
        square = ctz(moves)
        moves = moves & (moves - ONE)
        child, status = apply(rb.donuts, rb.single, pos, square)
        if is_over(status):
            value = placer_value(status)
        elif status == PASSES:
            value = -negamax_private(rb, child, depth - 1, -beta, -max(alpha, best), nodes)
        else:
            value = negamax_private(rb, child, depth - 1, max(alpha, best), beta, nodes)
        if value > best:
            best = value
            if best >= beta:
                break
    return best


@njit(cache=True)
def negamax_public(rb: Rulebook, pos: Position, depth: int, alpha: int, beta: int, nodes: NDArray[np.int64]) -> int:
    """The same negamax against :mod:`donuts_ai.donuts.kernels` (``python -m benchmarks.kernels`` times it)."""
    nodes[0] += 1
    if depth == 0:
        return 0
    best, moves = -1, K.legal_moves(rb, pos)
    while moves:
        square = K.lowest_square(moves)
        moves = K.without_lowest(moves)
        child, status = K.apply(rb.donuts, rb.single, pos, square)
        if K.is_over(status):
            value = K.game_value(status)
        elif status == K.PASSES:
            value = -negamax_public(rb, child, depth - 1, -beta, -max(alpha, best), nodes)
        else:
            value = negamax_public(rb, child, depth - 1, max(alpha, best), beta, nodes)
        if value > best:
            best = value
            if best >= beta:
                break
    return best
