"""The public compiled API: what your own ``@njit`` search needs to run at the engine's speed.

Every search of the library runs on the same few Numba kernels; this module gives them
stable, documented names, inlined into your kernel so that it compiles into the same
machine code (the how-to "Compile your game", its last part, has two complete examples).

A position is a :class:`Position` seen from the side to move: ``own`` and ``opp`` are
``np.uint64`` bitboards (bit ``i`` = square ``i`` = rank * 6 + file, a1 = 0), ``last`` the
square filled last (-1 before the first donut), ``placed_own``/``placed_opp`` the donuts
each side has placed. A :class:`Rulebook` holds the layout's lines and the rules.
:func:`position` and :func:`rulebook` make them from a :class:`~donuts_ai.Board` (in
Python, before your kernel); :func:`legal_moves` gives the legal squares as a bitboard, and
:func:`apply` plays one, returning the next position and a status: who moves next
(:data:`PASSES`, :data:`MOVES_AGAIN`) or how the game ended (:data:`WON_BY_FIVE`,
:data:`ENDED_WON`, :data:`ENDED_DRAWN`, :data:`ENDED_LOST`; :func:`game_value` gives +1 / 0 / -1).

Kernels trust their input and never raise: pass a game not over and a legal square.
Bitboards are ``np.uint64`` and every other number ``int64`` (a Python ``int`` compiles
another specialization, or is refused). After upgrading donuts_ai, delete your own code's
cached kernels. Everything else of the engine (``donuts_ai.donuts._kernels``) is private.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from .._bits import ONE
from .._bits import ctz as _ctz
from .._bits import popcount as _popcount
from ._kernels.core import nth_bit as _nth_bit
from ._kernels.position import ENDED_DRAWN as _ENDED_DRAWN
from ._kernels.position import ENDED_LOST as _ENDED_LOST
from ._kernels.position import ENDED_WON as _ENDED_WON
from ._kernels.position import MOVES_AGAIN as _MOVES_AGAIN
from ._kernels.position import PASSES as _PASSES
from ._kernels.position import WON_BY_FIVE as _WON_BY_FIVE
from ._kernels.position import Position, Rulebook, read_position, write_position
from ._kernels.position import apply as _apply
from ._kernels.position import is_over as _is_over
from ._kernels.position import legal_moves as _legal_moves
from ._kernels.position import placer_value as _placer_value
from ._kernels.position import plies_left as _plies_left
from ._kernels.position import position_of as _position_of
from ._kernels.position import rulebook_of as _rulebook_of
from .board import Board
from .canonical import canonical_position_key as _canonical_position_key
from .canonical import position_image as _position_image
from .canonical import position_key as _position_key
from .errors import PositionError
from .squares import NUM_SQUARES
from .symmetry import square_images as _square_images

__all__ = [
    "ENDED_DRAWN",
    "ENDED_LOST",
    "ENDED_WON",
    "MOVES_AGAIN",
    "NUM_SQUARES",
    "PASSES",
    "WON_BY_FIVE",
    "Position",
    "Rulebook",
    "apply",
    "canonical_key",
    "game_value",
    "is_over",
    "key",
    "legal_moves",
    "lowest_square",
    "nth_square",
    "plies_left",
    "popcount",
    "position",
    "position_image",
    "read_position",
    "rulebook",
    "square_bit",
    "symmetries",
    "without_lowest",
    "write_position",
]

# The statuses of a placement (:func:`apply`), the engine's numbers. While the game goes on:
#: The opponent moves next; the position :func:`apply` returned is from its side.
PASSES = _PASSES
#: The opponent's pool is empty: the side that placed moves again (the position returned is from its side).
MOVES_AGAIN = _MOVES_AGAIN
#: The game is over (this and the three below; the position returned is the final one, from the
#: side that placed): the placement made five in a row, and the side that placed wins.
WON_BY_FIVE = _WON_BY_FIVE
#: The placement ended the game (the board full: the majority wins; both pools empty: the
#: largest orthogonal group wins) and the side that placed won.
ENDED_WON = _ENDED_WON
#: The placement ended the game in a draw.
ENDED_DRAWN = _ENDED_DRAWN
#: The placement ended the game and the side that placed lost.
ENDED_LOST = _ENDED_LOST



# --- from a Board (Python) ------------------------------------------------------------------


def position(board: Board) -> Position:
    """The position of ``board``, from its side to move, typed as kernels take it (``np.uint64``
    bitboards, ``int`` counts).

    Args:
        board: a game not over.

    Raises:
        PositionError: the game is over (no side is to move).
        TypeError: anything but a :class:`~donuts_ai.Board`.
    """
    if not isinstance(board, Board):
        raise TypeError(f"position needs a Board, got {type(board).__name__}")
    if board.is_game_over():
        raise PositionError("position: the game is over, no side is to move")
    return _position_of(*board.kernel_state())


def rulebook(board: Board) -> Rulebook:
    """What ``board`` is played by: ``Rulebook(line_masks, donuts, single)``, the same for every
    position of a game: the layout's lines (``uint64[36]``: the line through each square in its
    printed direction, the square included), the donuts in each pool and whether the "single"
    insertion variant is played.

    Args:
        board: the game.

    Raises:
        TypeError: anything but a :class:`~donuts_ai.Board`.
    """
    if not isinstance(board, Board):
        raise TypeError(f"rulebook needs a Board, got {type(board).__name__}")
    return _rulebook_of(board.layout, board.rules)


def symmetries(board: Board) -> NDArray[np.int64]:
    """The symmetries of ``board``'s layout, for :func:`canonical_key`.

    Under such a symmetry, a position and its image are the same game: same value, and each
    move's image is the image's move. The standard layout and nearly every tile arrangement
    have the identity alone; grids such as all ``-`` lines have more.

    Args:
        board: the game.

    Returns:
        ``int64[k, 36]``: row ``s`` maps each square to its image under the ``s``-th board
        symmetry that maps the layout onto itself (its lines included), the identity first
        (:meth:`Layout.symmetries <donuts_ai.Layout.symmetries>` names them).

    Raises:
        TypeError: anything but a :class:`~donuts_ai.Board`.
    """
    if not isinstance(board, Board):
        raise TypeError(f"symmetries needs a Board, got {type(board).__name__}")
    images = _square_images(board.layout.symmetries())
    images.setflags(write=False)
    return images


# --- the transition ------------------------------------------------------------------------


@njit(cache=True, inline="always")
def legal_moves(rulebook: Rulebook, pos: Position) -> np.uint64:
    """The side to move's legal squares as a bitboard (bit ``i`` = square ``i``): the empty
    squares of the line through ``pos.last`` in its printed direction, or every empty square
    when that line is full or no donut has been placed yet.

    Args:
        rulebook: what the game is played by.
        pos: a game that is not over (never empty then).
    """
    return _legal_moves(rulebook, pos)


@njit(cache=True, inline="always")
def apply(donuts: int | np.int64, single: bool, pos: Position, square: int | np.int64) -> tuple[Position, int]:
    """The transition: the side to move of ``pos`` places a donut on ``square``; the donut and
    the donuts it flips, then five in a row, then the end (the board full, or both pools
    empty), then whose turn it is.

    Args:
        donuts: the donuts in each pool (``rulebook.donuts``).
        single: whether the "single" insertion rule is played (``rulebook.single``).
        pos: a game that is not over.
        square: a legal square.

    Returns:
        ``(next_position, status)``: with :data:`PASSES` the opponent moves, with
        :data:`MOVES_AGAIN` (the opponent's pool is empty) the same side moves again, and
        ``next_position`` is from the side to move; with :data:`WON_BY_FIVE`,
        :data:`ENDED_WON`, :data:`ENDED_DRAWN` or :data:`ENDED_LOST` the game is over
        (:func:`is_over`), ``next_position`` is the final position from the side that
        placed, and :func:`game_value` is its value for that side.
    """
    return _apply(donuts, single, pos, square)


@njit(cache=True, inline="always")
def is_over(status: int | np.int64) -> bool | np.bool:
    """Whether a placement ended the game.

    Args:
        status: :func:`apply`'s status.
    """
    return _is_over(status)


@njit(cache=True, inline="always")
def game_value(status: int | np.int64) -> int:
    """The game value of a finished game for the side that placed the last donut: +1
    (:data:`WON_BY_FIVE`, :data:`ENDED_WON`), 0 (:data:`ENDED_DRAWN`) or -1 (:data:`ENDED_LOST`).

    Args:
        status: a status that :func:`is_over`.
    """
    value: int = _placer_value(status)
    return value


@njit(cache=True, inline="always")
def plies_left(pos: Position, donuts: int | np.int64) -> int | np.int64:
    """The most plies the game can still last if nobody makes five: until both pools are empty
    or the board is full. A search ``plies_left`` plies deep reaches the end of every line
    (each :func:`apply` is one ply, whoever moves).

    Args:
        pos: the position.
        donuts: the donuts in each pool (``rulebook.donuts``).
    """
    return _plies_left(pos, donuts)


# --- squares and bitboards ----------------------------------------------------------------


@njit(cache=True, inline="always")
def popcount(bitboard: np.uint64) -> np.int64:
    """The number of squares in ``bitboard`` (one machine instruction).

    Args:
        bitboard: the squares.
    """
    return _popcount(np.uint64(bitboard))


@njit(cache=True, inline="always")
def lowest_square(bitboard: np.uint64) -> np.int64:
    """The lowest square of ``bitboard`` (one machine instruction).

    Args:
        bitboard: a non-empty bitboard.
    """
    return _ctz(np.uint64(bitboard))


@njit(cache=True, inline="always")
def without_lowest(bitboard: np.uint64) -> np.uint64:
    """``bitboard`` without its lowest square. With :func:`lowest_square`, the loop over a
    bitboard's squares::

        while moves:
            square = lowest_square(moves)
            moves = without_lowest(moves)

    Args:
        bitboard: a non-empty bitboard.
    """
    b = np.uint64(bitboard)
    rest: np.uint64 = b & (b - ONE)
    return rest


@njit(cache=True, inline="always")
def nth_square(bitboard: np.uint64, n: int | np.int64) -> int | np.int64:
    """The ``n``-th lowest square of ``bitboard``: with ``n`` drawn uniformly below
    :func:`popcount`, a uniformly random square of it.

    Args:
        bitboard: the squares.
        n: 0-based, ``n < popcount(bitboard)``.
    """
    return _nth_bit(np.uint64(bitboard), n)


@njit(cache=True, inline="always")
def square_bit(square: int | np.int64) -> np.uint64:
    """The bitboard of one square (``1 << square`` as a ``uint64``).

    Args:
        square: the square's index.
    """
    bit: np.uint64 = ONE << np.uint64(square)
    return bit


# --- keys for a transposition table ---------------------------------------------------------


@njit(cache=True, inline="always")
def key(pos: Position) -> tuple[np.uint64, np.uint64]:
    """The whole position packed in two words, ``(key_a, key_b)``: equal keys, equal positions
    (``key_a`` = ``own``, ``last + 1`` at bit 36, ``placed_own`` at bit 43; ``key_b`` =
    ``opp``, ``placed_opp`` at bit 36). The solver's table uses this key. A table of them
    serves one layout and one set of rules: clear it when those change.

    Args:
        pos: the position.
    """
    return _position_key(pos)


@njit(cache=True, inline="always")
def position_image(pos: Position, image: NDArray[np.int64]) -> Position:
    """The image of ``pos`` under a board symmetry: the donuts and the last square moved, the
    counts kept. Under a symmetry of the layout it is played on, the same game.

    Args:
        pos: the position.
        image: the symmetry's square map (``image[sq]``, the image of square ``sq``: a row of
            :func:`symmetries`, or of :data:`donuts_ai.donuts.symmetry.SQUARE_IMAGE`).
    """
    return _position_image(pos, image)


@njit(cache=True)
def canonical_key(pos: Position, symmetries: NDArray[np.int64]) -> tuple[np.uint64, np.uint64]:
    """The least :func:`key` among the images of ``pos`` under ``symmetries``.

    Two positions of games on that layout and rules have the same canonical key exactly when
    one is the image of the other under one of them, and then they have the same value (a best
    move maps with the squares: store values, or map moves back). With the identity alone (the
    standard layout, nearly every tile arrangement) it is :func:`key`, at the cost of one
    comparison; each further symmetry costs a loop over the donuts on the board.

    Args:
        pos: the position.
        symmetries: from :func:`symmetries`: the symmetries of the layout it is played on.
    """
    return _canonical_position_key(pos, symmetries)
