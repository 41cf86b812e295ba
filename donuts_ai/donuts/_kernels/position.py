"""The kernel contract: one position value, one rulebook value, and the transition on them.

Every kernel takes a position **from the side to move**, :class:`Position` ``(own,
opp, last, placed_own, placed_opp)``, and the :class:`Rulebook` it is played by
``(line_masks, donuts, single)``: the layout's lines and the rules. The Board keeps its
state **by colour** (``b0``/``b1``, ``turn``, ``p0``/``p1``: :meth:`Board.kernel_state`);
:func:`position_of` (Python) and :func:`play` (the Board's placements) are the two
conversions between the two.

**The transition**: :func:`apply` plays a placement and decides what follows, as the
rules say: the donut and its flips, then five in a row (the placer wins), then the end
by majority (board full) or largest group (both pools empty), then whose turn it is
(the opponent's, or the placer's again when the opponent's pool is empty). It returns
the next position and a :data:`status <PASSES>`; every search, playout, solver, batch
and agent goes through it, and the Board too (through :func:`play`). The comment above
:class:`Position` says why both are ``NamedTuple`` values of fixed field types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..._bits import ONE, popcount
from ..._numba_types import Bool, Int64
from ...outcomes import NO_WINNER_YET, WINNER_DRAW
from ..outcomes import REASON_FIVE, REASON_GROUP, REASON_MAJORITY
from ..squares import NUM_SQUARES
from .core import final_result, flips, has_five, legal_mask
from .tables import FULL_BOARD_BITS

if TYPE_CHECKING:
    from ..layout import Layout
    from ..rules import Rules


# Status of a placement (:func:`apply`), seen by the side that placed. While the game goes on:
#: the opponent moves next; the position returned is from its side.
PASSES = 0
#: the opponent's pool is empty: the side that placed moves again (the position is from its side).
MOVES_AGAIN = 1
# Once it is over (the position returned is the final one, from the side that placed):
#: the placement made five: the side that placed wins.
WON_BY_FIVE = 2
#: it ended the game (board full: majority; both pools empty: largest group), won for the side that placed,
ENDED_WON = 3
#: drawn,
ENDED_DRAWN = 4
#: or lost.
ENDED_LOST = 5


# Position and Rulebook are NamedTuple. Numba passes a tuple's fields as separate arguments
# (its calling convention flattens aggregates), so a Position costs no more than five scalars,
# and building one inside a kernel allocates nothing. Rulebook holds an array, and Numba counts
# references to an array on every read of it from a tuple and on every call that passes it:
# hot loops read the rulebook's fields once before the loop (playouts, MCTS), and recursions
# take the rulebook apart at their entry (perft; alpha-beta keeps the lines in its workspace
# record). That is why apply takes the rulebook's two scalars, ``donuts`` and ``single``, not
# the rulebook (measured: benchmarks/RESULTS.md). The transition and its small parts are
# inlined into their callers by Numba itself (inline="always"): left to LLVM, a kernel as
# large as the batch step calls them, and that cost it 5-8% of its steps/s.
# Field types are fixed, since a tuple of other field types is another Numba type and
# compiles another specialization of every kernel taking it (for a recursive kernel with the
# on-disk cache, a segfault: numba #6061/#6713): bitboards np.uint64, everything else int64
# (Python ints from the Python layer, np.int64 inside kernels), ``single`` a bool.
class Position(NamedTuple):
    """A position from the side to move's point of view (a ``NamedTuple``).

    - ``own``, ``opp``: the side to move's and its opponent's donuts, bitboards
      (``np.uint64``, bit ``i`` = square ``i`` = rank * 6 + file);
    - ``last``: the square filled last, -1 before the first placement;
    - ``placed_own``, ``placed_opp``: the donuts each side has placed from its pool.

    Bitboards are ``np.uint64`` and the other fields ``int64``: kernels compile for those
    types (see :mod:`donuts_ai.donuts.kernels`)."""

    own: np.uint64  # bitboard of the side to move
    opp: np.uint64  # bitboard of the opponent
    last: Int64  # square filled last, -1 before the first placement
    placed_own: Int64  # donuts the side to move has placed from its pool
    placed_opp: Int64  # donuts the opponent has placed


class Rulebook(NamedTuple):
    """What a position is played by: the layout's lines (where the next donut may go)
    and the rules (the pools, the insertion variant). A ``NamedTuple``:

    - ``line_masks``: ``uint64[36]``, the line through each square in its printed
      direction, the square included;
    - ``donuts``: the donuts in each player's pool;
    - ``single``: True under the "single" insertion variant (only ``o X o`` flips)."""

    line_masks: NDArray[np.uint64]  # uint64[36]: the line through each square in its printed direction
    donuts: int  # donuts in each player's pool
    single: bool  # the "single" insertion variant (only o X o flips)


def position_of(b0: int | np.uint64, b1: int | np.uint64, turn: int, last: Int64, p0: Int64, p1: Int64) -> Position:
    """The kernels' position of a Board's by-colour state (:meth:`Board.kernel_state`)
    with ``turn`` (0/1) to move."""
    if turn == 0:
        return Position(np.uint64(b0), np.uint64(b1), int(last), int(p0), int(p1))
    return Position(np.uint64(b1), np.uint64(b0), int(last), int(p1), int(p0))


def typed_position(pos: Position) -> Position:
    """``pos`` with its bitboards as ``np.uint64``: a kernel returns them as Python ints,
    and a Python int passed back in compiles an ``int64`` specialization."""
    return Position(np.uint64(pos.own), np.uint64(pos.opp), int(pos.last), int(pos.placed_own), int(pos.placed_opp))


def rulebook_of(layout: Layout, rules: Rules) -> Rulebook:
    """The kernels' rulebook of a :class:`~donuts_ai.Layout` and :class:`~donuts_ai.Rules`."""
    return Rulebook(layout.line_masks, int(rules.donuts), bool(rules.single))



@njit(cache=True)
def as_position(pos: Position) -> Position:
    """``pos`` with exactly the field types kernels build (``uint64`` bitboards, ``int64``
    ints): recursive kernels convert their argument once, at their entry point."""
    return Position(
        np.uint64(pos.own), np.uint64(pos.opp), np.int64(pos.last), np.int64(pos.placed_own), np.int64(pos.placed_opp)
    )


@njit(cache=True)
def legal_moves(rulebook: Rulebook, pos: Position) -> np.uint64:
    """Bitboard of the side to move's legal squares (the game is not over)."""
    return legal_mask(pos.own, pos.opp, pos.last, rulebook.line_masks)


@njit(cache=True, inline="always")
def place(pos: Position, sq: Int64, flipped: np.uint64) -> Position:
    """The side to move places on empty ``sq``, turning ``flipped`` (from :func:`.core.flips`)
    to its colour. The result is still from the same side's point of view (``last`` is
    ``sq``); :func:`settle` decides what follows."""
    return Position(
        pos.own | (ONE << np.uint64(sq)) | flipped, pos.opp & ~flipped, np.int64(sq), pos.placed_own + 1, pos.placed_opp
    )


@njit(cache=True, inline="always")
def is_over_after(after: Position, donuts: Int64) -> Bool:
    """True when the placement that led to ``after`` (see :func:`place`) ended the game
    without a five: the board is full, or both pools are empty."""
    return (after.own | after.opp) == FULL_BOARD_BITS or (after.placed_own >= donuts and after.placed_opp >= donuts)


@njit(cache=True)
def placement_ends_game(pos: Position, donuts: Int64) -> Bool:
    """True when any placement of the side to move ends the game (its last donut with the
    opponent's pool empty, or the last empty square), five or not."""
    return (pos.placed_own + 1 >= donuts and pos.placed_opp >= donuts) or popcount(pos.own | pos.opp) + 1 >= NUM_SQUARES


@njit(cache=True)
def end_result(after: Position, donuts: Int64) -> tuple[Int64, Int64]:
    """``(winner, reason)`` of a game that :func:`is_over_after` says ended, ``winner`` 0
    for the side that placed (``after.own``), 1 for its opponent, or ``WINNER_DRAW``."""
    return final_result(after.own, after.opp, after.placed_own, after.placed_opp, donuts)


@njit(cache=True, inline="always")
def swap(pos: Position) -> Position:
    """The same position from the opponent's point of view."""
    return Position(pos.opp, pos.own, pos.last, pos.placed_opp, pos.placed_own)


@njit(cache=True, inline="always")
def settle(after: Position, donuts: Int64) -> tuple[Position, int]:
    """What follows the placement that led to ``after`` (:func:`place`): ``(position,
    status)``, see :func:`apply`. For callers that hold the placement's flips already."""
    # Flips only ever turn donuts to the placer's colour, so only the placer can make five.
    if has_five(after.own):
        return after, WON_BY_FIVE
    return settle_without_five(after, donuts)


@njit(cache=True, inline="always")
def settle_without_five(after: Position, donuts: Int64) -> tuple[Position, int]:
    """:func:`settle` of a placement known to make no five (a search that has looked for
    fives already skips looking again)."""
    if is_over_after(after, donuts):
        winner, _ = end_result(after, donuts)
        if winner == 0:
            return after, ENDED_WON
        if winner == WINNER_DRAW:
            return after, ENDED_DRAWN
        return after, ENDED_LOST
    if after.placed_opp < donuts:
        return swap(after), PASSES
    return after, MOVES_AGAIN


@njit(cache=True, inline="always")
def apply(donuts: Int64, single: bool, pos: Position, sq: Int64) -> tuple[Position, int]:
    """The transition: the side to move of ``pos`` (a game that is not over) places on
    legal ``sq`` under the rules ``donuts``/``single`` of its rulebook. Returns ``(position,
    status)``: while the game goes on (status :data:`PASSES` or :data:`MOVES_AGAIN`) the
    position for whoever moves next, from its side; once over (:data:`WON_BY_FIVE`,
    :data:`ENDED_WON`, :data:`ENDED_DRAWN`, :data:`ENDED_LOST`) the final position, from
    the side that placed."""
    return settle(place(pos, sq, flips(pos.own, pos.opp, sq, single)), donuts)


@njit(cache=True, inline="always")
def is_over(status: Int64) -> Bool:
    """True when a placement of :func:`apply`'s ``status`` ended the game."""
    return status >= WON_BY_FIVE


@njit(cache=True)
def placer_value(status: Int64) -> int:
    """+1 / 0 / -1: the game value, for the side that placed, of a placement that ended
    the game."""
    if status == WON_BY_FIVE or status == ENDED_WON:
        return 1
    if status == ENDED_DRAWN:
        return 0
    return -1


@njit(cache=True)
def winner_of(status: Int64, placer: Int64) -> Int64:
    """The winner code of a placement by ``placer`` (a colour, 0/1) of :func:`apply`'s
    ``status``: ``placer``, its opponent, ``WINNER_DRAW``, or ``NO_WINNER_YET``."""
    if not is_over(status):
        return NO_WINNER_YET
    if status == ENDED_DRAWN:
        return WINNER_DRAW
    return placer if status == WON_BY_FIVE or status == ENDED_WON else 1 - placer


@njit(cache=True)
def end_reason(status: Int64, final: Position) -> int:
    """How a game ended by a placement of ``status`` in position ``final`` (what
    :func:`apply` returned): ``REASON_FIVE``, ``REASON_MAJORITY`` (the board is full) or
    ``REASON_GROUP`` (both pools are empty)."""
    if status == WON_BY_FIVE:
        return REASON_FIVE
    if (final.own | final.opp) == FULL_BOARD_BITS:
        return REASON_MAJORITY
    return REASON_GROUP


@njit(cache=True)
def placer_view(pos: Position, status: Int64) -> Position:
    """The position :func:`apply` returned, seen by the side that placed."""
    return swap(pos) if status == PASSES else pos


@njit(cache=True)
def play(
    b0: np.uint64, b1: np.uint64, turn: Int64, p0: Int64, p1: Int64, sq: Int64, n: Int64, single: bool
) -> tuple[np.uint64, np.uint64, Int64, Int64, Int64, np.uint64, Int64, Int64]:
    """:func:`apply` by colour, for the :class:`~donuts_ai.Board`: ``b0``/``b1`` the
    Chocolate/Vanilla bitboards, ``turn`` (0/1) to place on legal ``sq``, ``p0``/``p1`` the
    donuts placed from each pool, ``n`` donuts per pool.

    Returns ``(b0, b1, next_turn, p0, p1, flipped, winner, reason)``: ``next_turn`` -1,
    ``winner`` 0/1/WINNER_DRAW and ``reason`` a ``REASON_*`` when the placement ends the
    game, else ``winner`` NO_WINNER_YET and ``reason`` -1. The new ``last`` square is ``sq``.
    """
    if turn == 0:
        pos = Position(b0, b1, np.int64(-1), p0, p1)
    else:
        pos = Position(b1, b0, np.int64(-1), p1, p0)
    child, status = apply(n, single, pos, sq)
    mine = placer_view(child, status)
    flipped = pos.opp & ~mine.opp
    if turn == 0:
        b0, b1, p0, p1 = mine.own, mine.opp, mine.placed_own, mine.placed_opp
    else:
        b1, b0, p1, p0 = mine.own, mine.opp, mine.placed_own, mine.placed_opp
    if is_over(status):
        return b0, b1, -1, p0, p1, flipped, winner_of(status, turn), end_reason(status, mine)
    next_turn = 1 - turn if status == PASSES else turn
    return b0, b1, next_turn, p0, p1, flipped, NO_WINNER_YET, -1


@njit(cache=True)
def plies_left(pos: Position, donuts: Int64) -> Int64:
    """Plies until the game ends if nobody makes five: both pools empty, or the board full."""
    return min(2 * donuts - pos.placed_own - pos.placed_opp, NUM_SQUARES - popcount(pos.own | pos.opp))


# Records (rows of a structured array: the batch environment's games, a search's node
# states) hold a position in five fields of the same names; these two are the one place
# that copies them, inlined so that a kernel reads and writes the fields directly.
@njit(cache=True, inline="always")
def read_position(record: Any) -> Position:
    """The position held in a record.

    Args:
        record: a record with the fields ``own opp last placed_own placed_opp``.
    """
    return Position(record.own, record.opp, record.last, record.placed_own, record.placed_opp)


@njit(cache=True, inline="always")
def write_position(record: Any, pos: Position) -> None:
    """Write a position into a record's fields ``own opp last placed_own placed_opp``.

    Args:
        record: the record.
        pos: the position.
    """
    record.own = pos.own
    record.opp = pos.opp
    record.last = pos.last
    record.placed_own = pos.placed_own
    record.placed_opp = pos.placed_opp
