"""Canonical positions, compiled: the images of bitboards, positions and layouts under a
board symmetry, the keys that pack them, and the least key over a set of symmetries.

The one definition of each; :mod:`donuts_ai.donuts.canonical` is their Python face (it
checks what it is given, and says which caller uses which key). A symmetry reaches these
kernels as its rows of the tables of :mod:`donuts_ai.donuts.symmetry`: ``square_image``
(``int64[36]``, where each square goes) and ``direction_image`` (``int64[4]``, where each
printed line direction goes); a set of symmetries as those rows stacked, **the identity
first** (the kernels take the first row's key without mapping it). Like every engine
kernel they trust their input and never raise.

The keys, each packed so that equal keys are equal things: the position key
(:func:`position_key`, the solver's table's), the layout key (:func:`layout_key`, the
opening book's) and the game key (:func:`game_key`, the prediction cache's); each
function's docstring says how it packs. A canonical key is the least of a key over the
images under a set of symmetries: the words compared in the order listed, the first
symmetry giving it kept.
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..._bits import ONE, ZERO, ctz
from ..._numba_types import Int64
from ..squares import NUM_SQUARES
from .position import Position

#: A position's key ``(key_a, key_b)`` (:func:`position_key`).
PositionKey: TypeAlias = tuple[np.uint64, np.uint64]

# The position key: key_a = own | last + 1 | placed_own, key_b = opp | placed_opp.
_LAST_SHIFT = np.uint64(NUM_SQUARES)  # key_a: last + 1 above the 36 square bits
_PLACED_OWN_SHIFT = np.uint64(43)  # key_a: placed_own above last + 1 (6 bits, 36..41; bit 42 unused)
_PLACED_OPP_SHIFT = np.uint64(NUM_SQUARES)  # key_b: placed_opp above the 36 square bits

#: Bits a square's line direction takes in a layout key.
DIRECTION_BITS = 2
#: Squares whose directions fill a layout key's low word (64 bits / DIRECTION_BITS); the
#: others' lie in its high word.
LOW_WORD_SQUARES = 32

#: Words of a game key (:func:`game_key`).
GAME_KEY_WORDS = 4
# The game key's last word: the layout key's high word (8 bits), then these fields.
_GAME_LAST_SHIFT = np.uint64(8)  # last + 1 (0..36)
_GAME_PLACED_OWN_SHIFT = np.uint64(16)
_GAME_PLACED_OPP_SHIFT = np.uint64(24)
#: Where a game key's last word holds the caller's ``context`` (32 bits).
GAME_CONTEXT_SHIFT = 32


# --- images under one symmetry --------------------------------------------------------------


@njit(cache=True, inline="always")
def bitboard_image(bitboard: np.uint64, square_image: NDArray[np.int64]) -> np.uint64:
    """The image of ``bitboard`` (squares 0..35 only) under the square map ``square_image``."""
    bits = np.uint64(bitboard)
    out = ZERO
    while bits:
        out |= ONE << np.uint64(square_image[ctz(bits)])
        bits &= bits - ONE
    return out


@njit(cache=True)
def bitboard_images(bitboards: NDArray[np.uint64], square_image: NDArray[np.int64]) -> NDArray[np.uint64]:
    """:func:`bitboard_image` of each of ``bitboards`` (a new array)."""
    out = np.empty_like(bitboards)
    for i in range(bitboards.shape[0]):
        out[i] = bitboard_image(bitboards[i], square_image)
    return out


@njit(cache=True, inline="always")
def position_image(pos: Position, square_image: NDArray[np.int64]) -> Position:
    """The image of ``pos`` under a square map: the donuts and the last square moved, the counts
    kept.

    Args:
        pos: the position.
        square_image: where each square goes, ``int64[36]``.
    """
    last = pos.last if pos.last < 0 else square_image[pos.last]
    return Position(bitboard_image(np.uint64(pos.own), square_image), bitboard_image(np.uint64(pos.opp), square_image),
                    np.int64(last), np.int64(pos.placed_own), np.int64(pos.placed_opp))


# --- the keys ---------------------------------------------------------------------------------


@njit(cache=True)
def position_key(pos: Position) -> PositionKey:
    """The position's key ``(key_a, key_b)``: the whole position, packed in two words,
    ``key_a = own | (last + 1) << 36 | placed_own << 43`` and ``key_b = opp | placed_opp << 36``.
    The solver's table kernels take the pair as one ``key``.

    Args:
        pos: the position.
    """
    key_a = pos.own | (np.uint64(pos.last + 1) << _LAST_SHIFT) | (np.uint64(pos.placed_own) << _PLACED_OWN_SHIFT)
    key_b = pos.opp | (np.uint64(pos.placed_opp) << _PLACED_OPP_SHIFT)
    return key_a, key_b


@njit(cache=True, inline="always")
def layout_key(directions: NDArray[np.int8], square_image: NDArray[np.int64],
               direction_image: NDArray[np.int64]) -> tuple[np.uint64, np.uint64]:
    """``(low, high)``: the layout key (the 36 line directions, two bits a square, square 0
    lowest: a 72-bit number, squares 0..31 in ``low``, the rest in ``high``) of the image of
    the layout whose
    square ``sq`` has line direction ``directions[sq]``, under the symmetry of rows
    ``square_image`` and ``direction_image``."""
    low, high = ZERO, ZERO
    for sq in range(NUM_SQUARES):
        to = square_image[sq]
        d = np.uint64(direction_image[directions[sq]])
        if to < LOW_WORD_SQUARES:
            low |= d << np.uint64(DIRECTION_BITS * to)
        else:
            high |= d << np.uint64(DIRECTION_BITS * (to - LOW_WORD_SQUARES))
    return low, high


@njit(cache=True, inline="always")
def game_key(pos: Position, directions: NDArray[np.int8], square_image: NDArray[np.int64], direction_image: NDArray[np.int64],
             context: np.uint64) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """The ``GAME_KEY_WORDS`` words of the game key of the image of ``pos`` on the layout of
    ``directions``, under the symmetry of rows ``square_image`` and ``direction_image``:
    ``own``, ``opp``, the layout key's low word, then one word holding the layout key's high
    bits, ``last + 1``, the placed counts and ``context`` (below 2**32; fields no symmetry
    moves)."""
    image = position_image(pos, square_image)
    low, high = layout_key(directions, square_image, direction_image)
    last_word = (high | (np.uint64(image.last + 1) << _GAME_LAST_SHIFT)  # last -1 (none) is 0
                 | (np.uint64(pos.placed_own) << _GAME_PLACED_OWN_SHIFT)
                 | (np.uint64(pos.placed_opp) << _GAME_PLACED_OPP_SHIFT)
                 | (np.uint64(context) << np.uint64(GAME_CONTEXT_SHIFT)))
    return np.uint64(image.own), np.uint64(image.opp), low, last_word


# --- the least key over a set of symmetries -----------------------------------------------------


@njit(cache=True)
def canonical_position_key(pos: Position, square_images: NDArray[np.int64]) -> PositionKey:
    """The least :func:`position_key` among the images of ``pos`` under a set of symmetries.

    Args:
        pos: the position.
        square_images: ``int64[k, 36]``, the symmetries' square maps, the identity first.
    """
    best_a, best_b = position_key(pos)
    for s in range(1, square_images.shape[0]):
        a, b = position_key(position_image(pos, square_images[s]))
        if a < best_a or (a == best_a and b < best_b):
            best_a, best_b = a, b
    return best_a, best_b


@njit(cache=True)
def canonical_layout_key(directions: NDArray[np.int8], square_images: NDArray[np.int64],
                         direction_images: NDArray[np.int64]) -> tuple[np.uint64, np.uint64, Int64]:
    """``(low, high, s)``: the least :func:`layout_key` of the layout of ``directions``
    among its images under the symmetries of ``square_images`` and ``direction_images``
    (the identity first), and the first symmetry ``s`` (a row) giving it."""
    best_low, best_high = layout_key(directions, square_images[0], direction_images[0])
    best = 0
    for s in range(1, square_images.shape[0]):
        low, high = layout_key(directions, square_images[s], direction_images[s])
        if high < best_high or (high == best_high and low < best_low):
            best_low, best_high, best = low, high, s
    return best_low, best_high, np.int64(best)


@njit(cache=True)
def canonical_game_key(pos: Position, directions: NDArray[np.int8], square_images: NDArray[np.int64],
                       direction_images: NDArray[np.int64], context: np.uint64, key: NDArray[np.uint64]) -> Int64:
    """The least :func:`game_key` of ``pos`` among its images under a set of symmetries.

    Args:
        pos: the position.
        directions: the layout's printed directions.
        square_images: the symmetries' square maps, the identity first.
        direction_images: the symmetries' direction maps, in the same order.
        context: the key's context word (below 2**32).
        key: ``uint64[GAME_KEY_WORDS]``, written.

    Returns:
        The first symmetry (a row) giving it.
    """
    best = 0
    for s in range(square_images.shape[0]):
        w0, w1, w2, w3 = game_key(pos, directions, square_images[s], direction_images[s], context)
        less = s == 0 or w0 < key[0] or (w0 == key[0] and (
            w1 < key[1] or (w1 == key[1] and (w2 < key[2] or (w2 == key[2] and w3 < key[3])))))
        if less:
            best = s
            key[0], key[1], key[2], key[3] = w0, w1, w2, w3
    return np.int64(best)
