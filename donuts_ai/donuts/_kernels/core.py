"""The rules as Numba kernels over ``uint64`` bitboards (see :mod:`.tables` for the layout).

The kernels here take bitboards and plain ints. Most do not care whose donuts are
whose (``legal_mask``, ``forced_line``, ``flips``, ``has_five``, ``threats``,
``largest_group``, ``can_win_now``); ``final_result`` calls the first bitboard's owner
0, and ``next_turn`` (the forfeit's hand-over) works **by colour**: ``p0``/``p1`` the
donuts placed from each pool, ``n`` donuts per pool. What a placement does to a
position (the transition) is :func:`.position.apply`, on a
:class:`.position.Position` from the side to move. A layout enters as ``line_masks``
(``uint64[36]``: the line through each square in its printed direction).

Winner codes (``final_result``, :func:`.position.winner_of`): 0 Chocolate, 1 Vanilla
(or, from the side to move, 0 that side and 1 its opponent), :data:`WINNER_DRAW`, or
:data:`NO_WINNER_YET` while the game goes on; the end-reason codes ``REASON_*``. These
codes are defined once, in :mod:`donuts_ai.outcomes` (below the games), and imported
here. They are not game values (+1/0/-1 for the side to move, also there).

Kernels take and return plain ints and arrays, hold no Python objects and never
raise: the Python layer (:class:`donuts_ai.Board`) validates everything first.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..._bits import ONE, ZERO, clz, ctz, popcount
from ..._numba_types import Int64
from ...outcomes import NO_WINNER_YET, WINNER_DRAW
from ..outcomes import REASON_GROUP, REASON_MAJORITY
from .tables import (
    FIVE_START_FALLING,
    FIVE_START_H,
    FIVE_START_RISING,
    FIVE_START_V,
    FULL_BOARD_BITS,
    NOT_FILE_A,
    NOT_FILE_F,
    RAY_DOWN,
    RAY_UP,
    STEP1_DOWN,
    STEP1_UP,
    STEP2_DOWN,
    STEP2_UP,
)

_NOT_A = np.uint64(NOT_FILE_A)
_NOT_F = np.uint64(NOT_FILE_F)
_H = np.uint64(FIVE_START_H)
_V = np.uint64(FIVE_START_V)
_R = np.uint64(FIVE_START_RISING)
_F = np.uint64(FIVE_START_FALLING)
_S1, _S2, _S3, _S4 = np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4)
_S5, _S6, _S7 = np.uint64(5), np.uint64(6), np.uint64(7)
_S10, _S12, _S14, _S15 = np.uint64(10), np.uint64(12), np.uint64(14), np.uint64(15)
_S18, _S20, _S21, _S24, _S28 = np.uint64(18), np.uint64(20), np.uint64(21), np.uint64(24), np.uint64(28)


@njit(cache=True, inline="always")  # no call, no reference counted on line_masks, in legal_mask
def forced_line(empty: np.uint64, last: Int64, line_masks: NDArray[np.uint64]) -> np.uint64:
    """The open-pick rule: the empty squares of the line through ``last``, the only legal
    ones; 0 when that line is full or no donut has been placed yet (an open pick: every
    empty square is legal)."""
    if last < 0:
        return ZERO
    on_line: np.uint64 = line_masks[last] & empty
    return on_line


@njit(cache=True)
def legal_mask(b0: np.uint64, b1: np.uint64, last: Int64, line_masks: NDArray[np.uint64]) -> np.uint64:
    """Bitboard of legal squares: the forced line, or every empty square on an open pick.
    Says nothing about whether the game is over: callers check that first."""
    empty = FULL_BOARD_BITS & ~(b0 | b1)
    on_line = forced_line(empty, last, line_masks)
    if on_line != ZERO:
        return on_line
    return empty


@njit(cache=True)
def flips(own: np.uint64, opp: np.uint64, sq: Int64, single: bool) -> np.uint64:
    """Opponent donuts flipped when the mover (bitboard ``own``, not yet holding ``sq``)
    places on empty ``sq``.

    Official rule (``single`` false): on each axis, the maximal run of the mover's donuts
    through ``sq`` is inserted when the squares just beyond both ends hold opponent
    donuts; exactly those two flip. Variant (``single`` true): only ``o X o`` with no
    further opponent donut beyond either ``o``.
    """
    flipped = ZERO
    for axis in range(4):
        if single:
            a = STEP1_UP[axis, sq]
            b = STEP1_DOWN[axis, sq]
            # Both neighbours opposing, and neither opposing run longer than one.
            if (opp & a) != ZERO and (opp & b) != ZERO:
                if (opp & (STEP2_UP[axis, sq] | STEP2_DOWN[axis, sq])) == ZERO:
                    flipped |= a | b
            continue
        # The first non-own square of each ray ends the run; it must be an opponent's.
        up = RAY_UP[axis, sq] & ~own
        if up == ZERO:
            continue
        end_up = up & (~up + ONE)  # nearest = lowest bit on an up ray
        if (end_up & opp) == ZERO:
            continue
        down = RAY_DOWN[axis, sq] & ~own
        if down == ZERO:
            continue
        end_down = ONE << np.uint64(63 - clz(down))  # nearest = highest bit on a down ray
        if (end_down & opp) != ZERO:
            flipped |= end_up | end_down
    return flipped


@njit(cache=True)
def has_five(bb: np.uint64) -> bool:
    """True when ``bb`` holds five (or more) in a row on any line."""
    h = bb & (bb >> _S1) & (bb >> _S2) & (bb >> _S3) & (bb >> _S4) & _H
    v = bb & (bb >> _S6) & (bb >> _S12) & (bb >> _S18) & (bb >> _S24) & _V
    r = bb & (bb >> _S7) & (bb >> _S14) & (bb >> _S21) & (bb >> _S28) & _R
    f = bb & (bb << _S5) & (bb << _S10) & (bb << _S15) & (bb << _S20) & _F
    five: bool = (h | v | r | f) != ZERO
    return five


@njit(cache=True)
def threats(me: np.uint64, empty: np.uint64) -> np.uint64:
    """Empty squares where ``me`` would complete five in a row by placing alone (flips
    ignored), all found at once: for each line direction and each position ``j`` of the
    missing square in a five-window, AND the window's other four squares of ``me``."""
    out = ZERO
    # Right (step 1), up (6), up-right (7): windows start on the FIVE_START masks and
    # their squares are start + i * step, read by shifting right.
    for step, start in ((_S1, _H), (_S6, _V), (_S7, _R)):
        m0 = me
        m1 = me >> step
        m2 = me >> (step + step)
        m3 = me >> (step * _S3)
        m4 = me >> (step * _S4)
        out |= (start & m1 & m2 & m3 & m4 & empty)
        out |= (start & m0 & m2 & m3 & m4 & (empty >> step)) << step
        out |= (start & m0 & m1 & m3 & m4 & (empty >> (step + step))) << (step + step)
        out |= (start & m0 & m1 & m2 & m4 & (empty >> (step * _S3))) << (step * _S3)
        out |= (start & m0 & m1 & m2 & m3 & (empty >> (step * _S4))) << (step * _S4)
    # Down-right (step -5): squares start - 5 i, read by shifting left.
    m1 = me << _S5
    m2 = me << _S10
    m3 = me << _S15
    m4 = me << _S20
    out |= _F & m1 & m2 & m3 & m4 & empty
    out |= (_F & me & m2 & m3 & m4 & (empty << _S5)) >> _S5
    out |= (_F & me & m1 & m3 & m4 & (empty << _S10)) >> _S10
    out |= (_F & me & m1 & m2 & m4 & (empty << _S15)) >> _S15
    out |= (_F & me & m1 & m2 & m3 & (empty << _S20)) >> _S20
    return out & empty


@njit(cache=True)
def largest_group(bb: np.uint64) -> Int64:
    """Size of the largest orthogonally connected group of ``bb`` (bit-parallel flood fill)."""
    best: Int64 = 0
    rest = bb
    while rest != ZERO:
        group = rest & (~rest + ONE)
        while True:
            grown = group | ((group << _S1) & _NOT_A) | ((group >> _S1) & _NOT_F)
            grown = (grown | (group << _S6) | (group >> _S6)) & rest
            if grown == group:
                break
            group = grown
        size = popcount(group)
        if size > best:
            best = size
        rest &= ~group
    return best


@njit(cache=True)
def next_turn(mover: Int64, p0: Int64, p1: Int64, n: Int64) -> Int64:
    """Who moves after ``mover``: the opponent, or ``mover`` again when the opponent's
    pool is empty; -1 when both pools are empty."""
    if mover == 0:
        if p1 < n:
            return 1
        if p0 < n:
            return 0
    else:
        if p0 < n:
            return 0
        if p1 < n:
            return 1
    return -1


@njit(cache=True)
def _larger(a: Int64, b: Int64) -> Int64:
    """0 when ``a`` is larger, 1 when ``b`` is, WINNER_DRAW when they are equal."""
    if a > b:
        return 0
    if b > a:
        return 1
    return WINNER_DRAW


@njit(cache=True)
def final_result(b0: np.uint64, b1: np.uint64, p0: Int64, p1: Int64, n: Int64) -> tuple[Int64, Int64]:
    """(winner, reason) of a position without a five, or (NO_WINNER_YET, -1).

    A full board goes to the player with more donuts on it; otherwise, once both pools
    are empty, the larger largest orthogonal group wins; equal counts/sizes draw.
    """
    if (b0 | b1) == FULL_BOARD_BITS:
        return _larger(popcount(b0), popcount(b1)), REASON_MAJORITY
    if p0 >= n and p1 >= n:
        return _larger(largest_group(b0), largest_group(b1)), REASON_GROUP
    return NO_WINNER_YET, -1


@njit(cache=True)
def can_win_now(me: np.uint64, other: np.uint64, squares: np.uint64, single: bool) -> bool:
    """True when ``me`` makes five (flips included) by placing on one of ``squares``."""
    s = squares
    while s != ZERO:
        sq = ctz(s)
        s &= s - ONE
        f = flips(me, other, sq, single)
        if has_five(me | (ONE << np.uint64(sq)) | f):
            return True
    return False


@njit(cache=True)
def nth_bit(mask: np.uint64, k: Int64) -> Int64:
    """Square index of the ``k``-th lowest set bit of ``mask`` (0-based, k < popcount)."""
    for _ in range(k):
        mask &= mask - ONE
    return ctz(mask)
