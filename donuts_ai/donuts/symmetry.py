"""The 8 symmetries of the square board (rotations and reflections).

A symmetry moves squares *and* turns the printed lines: a quarter turn swaps
``-``/``|`` and ``/``/``\\``, a mirror swaps ``/``/``\\`` only. Each symmetry is an
integer 2×2 matrix acting on (file, rank) coordinates taken about the board's
centre; the same matrix maps a direction's vector, so lines never need a table.
Because the rules only speak of lines, runs and adjacency, a game and its image
under any symmetry are the same game: the strongest property test we have.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import NDArray

from .errors import SymmetryError
from .squares import DIRECTION_VECTORS, NUM_SQUARES, SIZE, square_file, square_rank

#: name -> matrix (a, b, c, d): (x, y) -> (a x + b y, c x + d y), x = file, y = rank.
SYMMETRIES = {
    "identity": (1, 0, 0, 1),
    "rot90": (0, -1, 1, 0),  # a quarter turn counter-clockwise
    "rot180": (-1, 0, 0, -1),
    "rot270": (0, 1, -1, 0),  # a quarter turn clockwise
    "mirror": (-1, 0, 0, 1),  # files a <-> f
    "flip": (1, 0, 0, -1),  # ranks 1 <-> 6
    "transpose": (0, 1, 1, 0),  # about the a1-f6 diagonal
    "antitranspose": (0, -1, -1, 0),  # about the a6-f1 diagonal
}
SYMMETRY_NAMES = tuple(SYMMETRIES)


def _matrix(sym: str) -> tuple[int, int, int, int]:
    try:
        return SYMMETRIES[sym]
    except KeyError:
        raise SymmetryError(f"unknown symmetry {sym!r}; expected one of {', '.join(SYMMETRY_NAMES)}") from None


def transform_coords(x: int, y: int, sym: str, size: int = SIZE) -> tuple[int, int]:
    """The image of (file, rank) on a ``size``×``size`` grid under ``sym``.

    Args:
        x: the file.
        y: the rank.
        sym: one of the names of :data:`SYMMETRY_NAMES`.
        size: the grid's side.
    """
    a, b, c, d = _matrix(sym)
    # Doubled centred coordinates stay integral on even and odd grids alike.
    cx, cy = 2 * x - (size - 1), 2 * y - (size - 1)
    nx, ny = a * cx + b * cy, c * cx + d * cy
    return (nx + size - 1) // 2, (ny + size - 1) // 2


def transform_direction(direction: int, sym: str) -> int:
    """The image of a line direction under ``sym``.

    Args:
        direction: 0..3.
        sym: one of the names of :data:`SYMMETRY_NAMES`.
    """
    a, b, c, d = _matrix(sym)
    dx, dy = DIRECTION_VECTORS[direction]
    v = (a * dx + b * dy, c * dx + d * dy)
    neg = (-v[0], -v[1])
    for i, w in enumerate(DIRECTION_VECTORS):
        if w == v or w == neg:  # a line has no orientation
            return i
    raise AssertionError("unreachable: symmetries map lines to lines")


def transform_square(sq: int, sym: str) -> int:
    """The image of a square under ``sym``.

    Args:
        sq: the square's index.
        sym: one of the names of :data:`SYMMETRY_NAMES`.
    """
    x, y = transform_coords(square_file(sq), square_rank(sq), sym)
    return y * SIZE + x


def transform_bitboard(bb: int, sym: str) -> int:
    """The image of a bitboard under ``sym``.

    Args:
        bb: the bitboard.
        sym: one of the names of :data:`SYMMETRY_NAMES`.
    """
    out = 0
    for sq in range(NUM_SQUARES):
        if bb >> sq & 1:
            out |= 1 << transform_square(sq, sym)
    return out


def inverse(sym: str) -> str:
    """The symmetry that undoes ``sym``.

    Args:
        sym: one of the names of :data:`SYMMETRY_NAMES`.
    """
    _matrix(sym)  # validates the name
    # Quarter turns undo each other; every other symmetry is its own inverse.
    return {"rot90": "rot270", "rot270": "rot90"}.get(sym, sym)


# The symmetries as tables, for compiled code and NumPy, in the order of SYMMETRY_NAMES
# (the identity first); a symmetry is then its row number. Kernels take them as arguments.
#: The number of symmetries of the board.
NUM_SYMMETRIES = len(SYMMETRY_NAMES)
#: ``SQUARE_IMAGE[s, sq]``: the image of square ``sq`` under symmetry ``s``.
SQUARE_IMAGE = np.array([[transform_square(sq, sym) for sq in range(NUM_SQUARES)] for sym in SYMMETRY_NAMES], dtype=np.int64)
#: ``DIRECTION_IMAGE[s, d]``: the image of line direction ``d`` under symmetry ``s``.
DIRECTION_IMAGE = np.array([[transform_direction(d, sym) for d in range(len(DIRECTION_VECTORS))] for sym in SYMMETRY_NAMES],
                           dtype=np.int64)


def square_images(names: Iterable[str]) -> NDArray[np.int64]:
    """``int64[k, 36]``: the rows of :data:`SQUARE_IMAGE` of the symmetries ``names``, in that
    order (a fresh array).

    Args:
        names: the symmetries' names.
    """
    return SQUARE_IMAGE[[SYMMETRY_NAMES.index(_name(sym)) for sym in names]]


def _name(sym: str) -> str:
    _matrix(sym)  # validates the name
    return sym
