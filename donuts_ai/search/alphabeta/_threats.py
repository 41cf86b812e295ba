"""Threats on the forced line: a move that wins on the mover's next placement whatever the
opponent answers.

In Donuts the reply to a placement is forced onto the line through it, so this game's
natural threat is a placement after which *every* square of that line, once taken by the
opponent, leaves us a five on the line through it (the line we are then forced onto): a
win three plies on, without a search. :func:`wins_in_three` finds such moves exactly
(flips included), for the exact searches to take as proved; a cheap necessary test
(:func:`_may_win_in_three`, no flips) discards almost every other move first.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..._engine._types import Bool, Int64
from ..._engine.bits import ctz, popcount
from ..._engine.core import can_win_now, flips, has_five, legal_mask, threats
from ..._engine.position import PASSES, Position, place, settle_without_five
from ..._engine.tables import FULL

#: Replies examined at most: a forced line leaves at most 5; more means the line was full
#: and the opponent picks anywhere, where a threat on every square is all but impossible.
MAX_THREAT_REPLIES = 5

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_FULL = np.uint64(FULL)


@njit(cache=True)
def may_threaten_after(pos: Position, moves: np.uint64) -> Bool:
    """A node's test before any move's (one pass for all): False when no placement on
    ``moves`` can leave the side to move a square completing five by placing alone (flips
    aside: our donuts with every move square added still complete no five on an empty
    square). Only a filter: where it says True each move is tested by :func:`wins_in_three`."""
    may: Bool = threats(pos.own | moves, _FULL & ~(pos.own | pos.opp)) != _ZERO
    return may


@njit(cache=True)
def _may_win_in_three(child: Position, replies: np.uint64, line_masks: NDArray[np.uint64]) -> Bool:
    """Necessary, flips aside: every reply's line holds a square where we (``child.opp``,
    the side that just placed) would complete five by placing alone."""
    ours = threats(child.opp, _FULL & ~(child.own | child.opp))
    if ours == _ZERO:
        return False
    m = replies
    while m != _ZERO:
        r = ctz(m)
        m &= m - _ONE
        if line_masks[r] & ours & ~(_ONE << np.uint64(r)) == _ZERO:
            return False
    return True


@njit(cache=True)
def wins_in_three(donuts: Int64, single: bool, child: Position, sq: Int64, line_masks: NDArray[np.uint64]) -> Bool:
    """True when the side that just placed on ``sq`` (``child.opp``; ``child`` is the
    position after it, the opponent to move, status ``PASSES``) makes five on its next
    placement whatever the opponent replies: no reply makes five or ends the game, every
    reply passes the move back, and after each we have a five on the line we must play.

    Exact where it says True (each reply played out, flips included); it may say False
    for a few such moves (a five made only through flips, or more than
    :data:`MAX_THREAT_REPLIES` replies), which the search then finds itself."""
    replies = legal_mask(child.own, child.opp, sq, line_masks)
    if popcount(replies) > MAX_THREAT_REPLIES:
        return False
    if not _may_win_in_three(child, replies, line_masks):
        return False
    m = replies
    while m != _ZERO:
        r = ctz(m)
        m &= m - _ONE
        f = flips(child.own, child.opp, r, single)
        after = place(child, r, f)
        if has_five(after.own):
            return False
        back, status = settle_without_five(after, donuts)
        if status != PASSES:
            return False
        if not can_win_now(back.own, back.opp, legal_mask(back.own, back.opp, r, line_masks), single):
            return False
    return True
