"""The canonical position: the one home of the least key of a Donuts position or layout over
the board's symmetries, and of the images of bitboards under a symmetry.

A game and its image under a board symmetry (:mod:`.symmetry`) are the same game, so a
table keyed by the *canonical* form of what it holds (the least key among the images) holds
each game once. Each table keeps its own key and order, since the book's keys are stored in
the shipped file, the study's texts in its results files, and the teacher's labels and the
network's cached answers are those of the image chosen:

- :func:`canonical_key`: the solver's position key over the symmetries of the layout itself;
- :func:`canonical_layout_key`: the opening book's key of an empty board, over all 8;
- :func:`canonical_layout_text`: the study's name of a layout class, the least layout text;
- :func:`canonical_positions`: the teacher's, layout and donuts mapped together, the layout
  compared first;
- :func:`canonical_game_key` (compiled): the prediction cache's, with what else the network
  sees, the donuts compared first.

The kernels are :mod:`donuts_ai.donuts._kernels.canonical`'s; this module checks its
arguments (raising :class:`~donuts_ai.donuts.errors.SymmetryError`,
:class:`~donuts_ai.donuts.errors.PositionError` or ``TypeError``) and re-exports them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._kernels.canonical import DIRECTION_BITS, LOW_WORD_SQUARES
from ._kernels.canonical import GAME_CONTEXT_SHIFT as GAME_CONTEXT_SHIFT
from ._kernels.canonical import GAME_KEY_WORDS as GAME_KEY_WORDS
from ._kernels.canonical import PositionKey as PositionKey
from ._kernels.canonical import bitboard_images as _bitboard_images
from ._kernels.canonical import canonical_game_key as canonical_game_key
from ._kernels.canonical import canonical_layout_key as _canonical_layout_key
from ._kernels.canonical import canonical_position_key as canonical_position_key
from ._kernels.canonical import position_image as position_image
from ._kernels.canonical import position_key as position_key
from ._kernels.position import position_of
from .board import Board
from .errors import PositionError, SymmetryError
from .layout import Layout
from .squares import DIRECTION_SYMBOLS, FULL_BOARD, NUM_SQUARES
from .symmetry import DIRECTION_IMAGE, NUM_SYMMETRIES, SQUARE_IMAGE, SYMMETRY_NAMES, square_images

#: Bits of a layout key below its high word (:func:`canonical_layout_key` joins the two).
_LOW_WORD_BITS = DIRECTION_BITS * LOW_WORD_SQUARES
#: The fields of a record :func:`canonical_positions` reads.
RECORD_FIELDS = ("own", "opp", "last", "placed_own", "placed_opp", "directions")
#: Bytes of a bitboard in a :class:`CanonicalPosition` key.
_BITBOARD_BYTES = 8


def _symmetry_row(sym: object) -> int:
    """The row of the symmetry tables (:data:`~.symmetry.SQUARE_IMAGE`) of ``sym``: a name
    of :data:`~.symmetry.SYMMETRY_NAMES` or its index there."""
    if isinstance(sym, str) and sym in SYMMETRY_NAMES:
        return SYMMETRY_NAMES.index(sym)
    if isinstance(sym, int | np.integer) and not isinstance(sym, bool) and 0 <= int(sym) < NUM_SYMMETRIES:
        return int(sym)
    raise SymmetryError(f"unknown symmetry {sym!r}; expected one of {', '.join(SYMMETRY_NAMES)} or its index 0..{NUM_SYMMETRIES - 1}")


def _bitboards(name: str, values: ArrayLike) -> NDArray[np.uint64]:
    """``values`` as a contiguous ``uint64`` array of bitboards of the 36 squares."""
    try:
        array = np.ascontiguousarray(values, dtype=np.uint64)
    except (TypeError, ValueError, OverflowError):
        raise PositionError(f"{name}: expected bitboards (ints 0..2**{NUM_SQUARES} - 1)") from None
    if np.any(array & ~np.uint64(FULL_BOARD)):
        raise PositionError(f"{name}: a bitboard has bits beyond the {NUM_SQUARES} squares")
    return array


def _bitboard(value: object) -> int:
    """``value`` as a bitboard of the 36 squares (an int)."""
    if not isinstance(value, int | np.integer) or isinstance(value, bool) or not 0 <= int(value) <= FULL_BOARD:
        raise PositionError(f"bitboard: expected an int 0..2**{NUM_SQUARES} - 1, got {value!r}")
    return int(value)


# --- images of bitboards --------------------------------------------------------------------------


def bitboard_image(bitboard: int, sym: str | int) -> int:
    """The image of a bitboard under a symmetry.

    Args:
        bitboard: bit ``i`` = square ``i``.
        sym: a name of :data:`~.symmetry.SYMMETRY_NAMES` or its index there.
    """
    return int(bitboard_images(np.array([_bitboard(bitboard)], dtype=np.uint64), sym)[0])


def bitboard_images(bitboards: ArrayLike, sym: str | int) -> NDArray[np.uint64]:
    """The image of each of ``bitboards`` under a symmetry, as a new ``uint64`` array.

    Args:
        bitboards: a 1-D array of bitboards.
        sym: a name of :data:`~.symmetry.SYMMETRY_NAMES` or its index there.
    """
    row = _symmetry_row(sym)
    array = _bitboards("bitboards", bitboards)
    if array.ndim != 1:
        raise PositionError(f"bitboards: expected a 1-D array, got shape {array.shape}")
    images: NDArray[np.uint64] = _bitboard_images(array, SQUARE_IMAGE[row])
    return images


# --- a board: the solver's key over the layout's own symmetries ---------------------------------


def canonical_key(board: Board) -> tuple[int, int]:
    """The canonical key of ``board``'s position: the least solver key ``(key_a, key_b)``
    (:func:`donuts_ai.donuts.kernels.key`) among its images under the symmetries that map its
    layout onto itself. Two positions of one layout and rules have the same canonical key
    exactly when one is the image of the other; :func:`donuts_ai.donuts.kernels.canonical_key`
    gives it to compiled code.

    Args:
        board: a game not over.

    Raises:
        PositionError: the game is over (no side is to move).
        TypeError: anything but a :class:`~donuts_ai.Board`.
    """
    if not isinstance(board, Board):
        raise TypeError(f"canonical_key needs a Board, got {type(board).__name__}")
    if board.is_game_over():
        raise PositionError("canonical_key: the game is over, no side is to move")
    key_a, key_b = canonical_position_key(position_of(*board.kernel_state()), square_images(board.layout.symmetries()))
    return int(key_a), int(key_b)


# --- a layout: the book's key and the study's text over all 8 symmetries -------------------------


def _layout(name: str, layout: object) -> Layout:
    if not isinstance(layout, Layout):
        raise TypeError(f"{name} needs a Layout, got {type(layout).__name__}")
    return layout


def canonical_layout_key(layout: Layout) -> tuple[int, str]:
    """The least layout key among ``layout``'s images under the 8 board symmetries: equal for
    layouts that are the same game; the opening book's key. A layout key packs the image's 36
    line directions two bits a square, square 0 lowest::

        key = d[a1] | d[b1] << 2 | ... | d[f6] << 70        d[sq] in 0..3 (DIRECTION_SYMBOLS)

    Args:
        layout: the layout.

    Returns:
        ``(key, symmetry)``: the key, and the first symmetry (a name) taking the layout to
        that image.

    Raises:
        TypeError: anything but a :class:`~donuts_ai.Layout`.
    """
    directions = np.array(_layout("canonical_layout_key", layout).directions, dtype=np.int8)
    low, high, row = _canonical_layout_key(directions, SQUARE_IMAGE, DIRECTION_IMAGE)
    return int(low) | int(high) << _LOW_WORD_BITS, SYMMETRY_NAMES[int(row)]


def canonical_layout_text(layout: Layout) -> str:
    """The least layout text (:meth:`Layout.to_text <donuts_ai.Layout.to_text>`) among
    ``layout``'s images under the 8 board symmetries: equal for layouts that are the same
    game; the study's name of a layout class.

    Args:
        layout: the layout.

    Raises:
        TypeError: anything but a :class:`~donuts_ai.Layout`.
    """
    return min(_layout("canonical_layout_text", layout).transform(sym).to_text() for sym in SYMMETRY_NAMES)


# --- a position with its layout: the teacher's canonical image ----------------------------------


@dataclass(frozen=True)
class CanonicalPosition:
    """The least image of a position with its layout under the 8 board symmetries (see
    :func:`canonical_positions`).

    Attributes:
        key: the image's layout and position, packed: equal exactly for images of one position.
        symmetry: the symmetry (an index of ``SYMMETRY_NAMES``) that maps the position to the image.
        directions: the image's layout.
        own: the image's donuts of the side to move.
        opp: the image's donuts of the other side.
        last: the image's square filled last (-1: none).
        placed_own: the donuts the side to move has placed.
        placed_opp: the donuts the other side has placed.
    """

    key: bytes  # the image's layout and position, packed: equal exactly for images of one position
    symmetry: int  # the symmetry (an index of SYMMETRY_NAMES) that maps the position to the image
    directions: tuple[int, ...]  # the image's layout
    own: int  # the image's donuts of the side to move
    opp: int
    last: int  # -1: none
    placed_own: int
    placed_opp: int


def _check_records(records: np.ndarray) -> None:
    names = getattr(getattr(records, "dtype", None), "names", None) or ()
    missing = [f for f in RECORD_FIELDS if f not in names]
    if missing or records.ndim != 1:
        raise PositionError(f"records: expected a 1-D structured array with fields {', '.join(RECORD_FIELDS)}"
                            + (f"; missing {', '.join(missing)}" if missing else f"; got shape {records.shape}"))
    directions, last = records["directions"], records["last"]
    if directions.shape[1:] != (NUM_SQUARES,) or np.any((directions < 0) | (directions >= len(DIRECTION_SYMBOLS))):
        raise PositionError(f"records: directions must be {NUM_SQUARES} line directions 0..{len(DIRECTION_SYMBOLS) - 1}")
    if np.any((last < -1) | (last >= NUM_SQUARES)):
        raise PositionError(f"records: last must be -1 (none) or a square 0..{NUM_SQUARES - 1}")
    for field in ("placed_own", "placed_opp"):
        if np.any((records[field] < 0) | (records[field] > NUM_SQUARES)):
            raise PositionError(f"records: {field} must be 0..{NUM_SQUARES}")


def canonical_positions(records: np.ndarray) -> list[CanonicalPosition]:
    """Each record's least image under the 8 board symmetries, layout and donuts mapped together:
    the teacher's canonical image.

    The key compares the image's directions square by square, then ``own``, ``opp`` and
    ``last``; two positions get the same key exactly when one is an image of the other, and
    are then the same game (same value; the moves map with the squares). The colour of the
    side to move is not part of it: the game does not depend on it.

    Args:
        records: a structured array with the fields of :data:`RECORD_FIELDS`, the position
            from its side to move and its layout's line directions.

    Raises:
        PositionError: records without those fields or with values out of range.
    """
    _check_records(records)
    n = len(records)
    own, opp = _bitboards("records own", records["own"]), _bitboards("records opp", records["opp"])
    images = []
    for s in range(NUM_SYMMETRIES):
        directions = np.empty((n, NUM_SQUARES), dtype=np.int8)
        directions[:, SQUARE_IMAGE[s]] = DIRECTION_IMAGE[s][records["directions"].astype(np.int64)]
        last = records["last"].astype(np.int64)
        last = np.where(last >= 0, SQUARE_IMAGE[s][np.maximum(last, 0)], -1)
        images.append((directions, _bitboard_images(own, SQUARE_IMAGE[s]), _bitboard_images(opp, SQUARE_IMAGE[s]), last))
    out = []
    for i in range(n):
        placed = (int(records["placed_own"][i]), int(records["placed_opp"][i]))
        best: tuple[bytes, int] | None = None
        for s, (directions, own_image, opp_image, last) in enumerate(images):
            key = (directions[i].tobytes() + int(own_image[i]).to_bytes(_BITBOARD_BYTES, "big")
                   + int(opp_image[i]).to_bytes(_BITBOARD_BYTES, "big") + bytes([int(last[i]) + 1, *placed]))
            if best is None or key < best[0]:
                best = (key, s)
        assert best is not None
        key, s = best
        directions, own_image, opp_image, last = images[s]
        out.append(CanonicalPosition(key, s, tuple(int(d) for d in directions[i]), int(own_image[i]), int(opp_image[i]),
                                     int(last[i]), *placed))
    return out


__all__ = ["GAME_CONTEXT_SHIFT", "GAME_KEY_WORDS", "RECORD_FIELDS", "CanonicalPosition", "PositionKey", "bitboard_image",
           "bitboard_images", "canonical_game_key", "canonical_key", "canonical_layout_key", "canonical_layout_text",
           "canonical_position_key", "canonical_positions", "position_image", "position_key"]
