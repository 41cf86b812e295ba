"""The kernel contract: one position value, one game value, and the rule helpers on them.

Every kernel outside the :class:`~donuts_ai.Board` takes a position **from the side
to move**, :class:`Position` ``(own, opp, last, placed_own, placed_opp)``, and the game
it is played in, :class:`Game` ``(line_masks, donuts, single)``. The Board keeps its
state **by colour** (``b0``/``b1``, ``turn``, ``p0``/``p1``: :meth:`Board.kernel_state`);
:func:`position_of` is the one conversion between the two.

Both are ``NamedTuple``. Numba passes a tuple's fields as separate arguments (its
calling convention flattens aggregates), so a ``Position`` costs no more than five
scalars, and building one inside a kernel allocates nothing. ``Game`` holds an array,
and Numba counts references to an array on every read of it from a tuple and on every
call that passes it: hot loops read ``game``'s fields once before the loop (playouts,
MCTS), and recursions take the game apart at their entry (perft; alpha-beta keeps the
lines in its workspace record). Measured, see ``benchmarks/RESULTS.md`` (issue 9).

Field types are fixed, since a tuple of other field types is another Numba type and
compiles another specialization of every kernel taking it (for a recursive kernel
with the on-disk cache, a segfault: numba #6061/#6713): bitboards ``np.uint64``,
everything else ``int64`` (Python ints from the Python layer, ``np.int64`` inside
kernels), ``single`` a ``bool``.

The rule helpers here are the only statement of "what a placement does to the
position" outside :func:`.core.play` (which works by colour for the Board): every
search, playout, solver and agent asks them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .bits import popcount
from .core import DRAW, final_result, flips, legal_mask
from .tables import FULL, NUM_SQUARES

_ONE = np.uint64(1)
_FULL = np.uint64(FULL)


class Position(NamedTuple):
    """A position from the side to move's point of view."""

    own: np.uint64  # bitboard of the side to move
    opp: np.uint64  # bitboard of the opponent
    last: int  # square filled last, -1 before the first placement
    placed_own: int  # donuts the side to move has placed from its pool
    placed_opp: int  # donuts the opponent has placed


class Game(NamedTuple):
    """What a position is played in: the layout's lines and the rules."""

    line_masks: np.ndarray  # uint64[36]: the line through each square in its printed direction
    donuts: int  # donuts in each player's pool
    single: bool  # the "single" insertion variant (only o X o flips)


def position_of(b0, b1, turn: int, last: int, p0: int, p1: int) -> Position:
    """The kernels' position of a Board's by-colour state (:meth:`Board.kernel_state`)
    with ``turn`` (0/1) to move."""
    if turn == 0:
        return Position(np.uint64(b0), np.uint64(b1), int(last), int(p0), int(p1))
    return Position(np.uint64(b1), np.uint64(b0), int(last), int(p1), int(p0))


def typed_position(pos) -> Position:
    """``pos`` with its bitboards as ``np.uint64``: a kernel returns them as Python ints,
    and a Python int passed back in compiles an ``int64`` specialization."""
    return Position(np.uint64(pos.own), np.uint64(pos.opp), int(pos.last), int(pos.placed_own), int(pos.placed_opp))


def game_of(layout, rules) -> Game:
    """The kernels' game of a :class:`~donuts_ai.Layout` and :class:`~donuts_ai.Rules`."""
    return Game(layout.line_masks, int(rules.donuts), bool(rules.single))


@njit(cache=True)
def as_position(pos):
    """``pos`` with exactly the field types kernels build (``uint64`` bitboards, ``int64``
    ints): recursive kernels convert their argument once, at their entry point."""
    return Position(
        np.uint64(pos.own), np.uint64(pos.opp), np.int64(pos.last), np.int64(pos.placed_own), np.int64(pos.placed_opp)
    )


@njit(cache=True)
def legal_moves(game, pos):
    """Bitboard of the side to move's legal squares (the game is not over)."""
    return legal_mask(pos.own, pos.opp, pos.last, game.line_masks)


@njit(cache=True)
def place(pos, sq, flipped):
    """The side to move places on empty ``sq``, turning ``flipped`` (from :func:`.core.flips`)
    to its colour. The result is still from the same side's point of view (``last`` is
    ``sq``); :func:`next_position` hands it to whoever moves next."""
    return Position(
        pos.own | (_ONE << np.uint64(sq)) | flipped, pos.opp & ~flipped, np.int64(sq), pos.placed_own + 1, pos.placed_opp
    )


@njit(cache=True)
def make_move(game, pos, sq):
    """:func:`place` on legal ``sq`` with the donuts it flips."""
    return place(pos, sq, flips(pos.own, pos.opp, sq, game.single))


@njit(cache=True)
def is_over_after(after, donuts):
    """True when the placement that led to ``after`` (see :func:`place`) ended the game
    without a five: the board is full, or both pools are empty."""
    return (after.own | after.opp) == _FULL or (after.placed_own >= donuts and after.placed_opp >= donuts)


@njit(cache=True)
def placement_ends_game(pos, donuts):
    """True when any placement of the side to move ends the game (its last donut with the
    opponent's pool empty, or the last empty square), five or not."""
    return (pos.placed_own + 1 >= donuts and pos.placed_opp >= donuts) or popcount(pos.own | pos.opp) + 1 >= NUM_SQUARES


@njit(cache=True)
def end_result(after, donuts):
    """``(winner, reason)`` of a game that :func:`is_over_after` says ended, ``winner`` 0
    for the side that placed (``after.own``), 1 for its opponent, or ``DRAW``."""
    return final_result(after.own, after.opp, after.placed_own, after.placed_opp, donuts)


@njit(cache=True)
def winner_colour(winner, own_colour):
    """The colour of a ``winner`` of :func:`end_result` when ``after.own`` is ``own_colour``."""
    if winner == DRAW:
        return DRAW
    return own_colour if winner == 0 else 1 - own_colour


@njit(cache=True)
def opponent_moves_next(after, donuts):
    """After a placement that did not end the game: does the opponent move next? (When
    its pool is empty, the side that placed moves again.)"""
    return after.placed_opp < donuts


@njit(cache=True)
def swap(pos):
    """The same position from the opponent's point of view."""
    return Position(pos.opp, pos.own, pos.last, pos.placed_opp, pos.placed_own)


@njit(cache=True)
def next_position(after, donuts):
    """``(position for the next side to move, True when that is the opponent)`` after a
    placement that did not end the game."""
    if opponent_moves_next(after, donuts):
        return swap(after), True
    return after, False


@njit(cache=True)
def plies_left(pos, donuts):
    """Plies until the game ends if nobody makes five: both pools empty, or the board full."""
    return min(2 * donuts - pos.placed_own - pos.placed_opp, NUM_SQUARES - popcount(pos.own | pos.opp))
