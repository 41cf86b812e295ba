"""Precomputed bitboard tables, built once at import with plain Python and NumPy.

Bit layout (bit i = square i = rank * 6 + file)::

          a   b   c   d   e   f
      6  30  31  32  33  34  35
      5  24  25  26  27  28  29
      4  18  19  20  21  22  23
      3  12  13  14  15  16  17
      2   6   7   8   9  10  11
      1   0   1   2   3   4   5

Worked example: c3 = rank 3 (index 2) * 6 + file c (index 2) = 14, so c3 is
``1 << 14``. Moving one file right is ``<< 1`` (masked so f does not wrap to a),
one rank up is ``<< 6``, one step up the rising diagonal ``/`` is ``<< 7`` and one
step down the falling diagonal ``\\`` (right and down) is ``>> 5``.

Numba freezes these module-level arrays into the compiled kernels.
"""

from __future__ import annotations

import numpy as np

# The board's constants are the vocabulary's (one home); Numba freezes them, as plain ints, into the kernels.
from ..squares import DIRECTION_VECTORS, FULL_BOARD, NUM_SQUARES, SIZE, bitboard_of, square, square_file, square_rank


def _on_board(x: int, y: int) -> bool:
    return 0 <= x < SIZE and 0 <= y < SIZE


def _ray(sq: int, dx: int, dy: int) -> list[int]:
    """Squares from ``sq`` (excluded) stepping (dx, dy) to the edge, nearest first."""
    x, y = square_file(sq) + dx, square_rank(sq) + dy
    out = []
    while _on_board(x, y):
        out.append(square(x, y))
        x, y = x + dx, y + dy
    return out


# LINE_MASK[d, sq]: the whole line through sq in direction d, sq included (uint64[4, 36]).
LINE_MASK = np.zeros((4, NUM_SQUARES), dtype=np.uint64)
# For each axis an "up" ray (towards higher square indices) and a "down" ray, so the
# nearest square of a ray is its lowest bit (up) or highest bit (down): no loops needed.
RAY_UP = np.zeros((4, NUM_SQUARES), dtype=np.uint64)
RAY_DOWN = np.zeros((4, NUM_SQUARES), dtype=np.uint64)
# First and second square of each ray (0 when off the board), for the "single" variant.
STEP1_UP = np.zeros((4, NUM_SQUARES), dtype=np.uint64)
STEP2_UP = np.zeros((4, NUM_SQUARES), dtype=np.uint64)
STEP1_DOWN = np.zeros((4, NUM_SQUARES), dtype=np.uint64)
STEP2_DOWN = np.zeros((4, NUM_SQUARES), dtype=np.uint64)

for _d, (_dx, _dy) in enumerate(DIRECTION_VECTORS):
    for _sq in range(NUM_SQUARES):
        fwd, back = _ray(_sq, _dx, _dy), _ray(_sq, -_dx, -_dy)
        LINE_MASK[_d, _sq] = bitboard_of(fwd + back + [_sq])
        # The falling diagonal's forward step (+1 file, -1 rank) lowers the index by 5.
        up, down = (fwd, back) if _dy * SIZE + _dx > 0 else (back, fwd)
        RAY_UP[_d, _sq] = bitboard_of(up)
        RAY_DOWN[_d, _sq] = bitboard_of(down)
        STEP1_UP[_d, _sq] = bitboard_of(up[:1])
        STEP2_UP[_d, _sq] = bitboard_of(up[1:2])
        STEP1_DOWN[_d, _sq] = bitboard_of(down[:1])
        STEP2_DOWN[_d, _sq] = bitboard_of(down[1:2])

_FILE_A = bitboard_of(r * SIZE for r in range(SIZE))
_FILE_F = bitboard_of(r * SIZE + SIZE - 1 for r in range(SIZE))
#: Every square's bit, as the kernels' ``uint64`` (``FULL_BOARD``, once for all of them).
FULL_BOARD_BITS = np.uint64(FULL_BOARD)
NOT_FILE_A = FULL_BOARD & ~_FILE_A
NOT_FILE_F = FULL_BOARD & ~_FILE_F

# Five detection by shifts: a five starts on one of these squares and runs
# right (<<1 steps), up (<<6), up-right (<<7) or down-right (>>5). Restricting the
# start squares keeps every run inside the board, so shifts never wrap a row.
FIVE_START_H = bitboard_of(y * SIZE + x for y in range(SIZE) for x in range(2))
FIVE_START_V = bitboard_of(y * SIZE + x for y in range(2) for x in range(SIZE))
FIVE_START_RISING = bitboard_of(y * SIZE + x for y in range(2) for x in range(2))
FIVE_START_FALLING = bitboard_of(y * SIZE + x for y in range(4, SIZE) for x in range(2))

# All 5-in-a-row windows as masks (32 of them): used by tests and the Python layer.
_windows: list[int] = []
for _dx, _dy in DIRECTION_VECTORS:
    for _sq in range(NUM_SQUARES):
        _x, _y = square_file(_sq), square_rank(_sq)
        if _on_board(_x + 4 * _dx, _y + 4 * _dy):
            _windows.append(bitboard_of(square(_x + k * _dx, _y + k * _dy) for k in range(5)))
FIVE_WINDOWS = np.array(_windows, dtype=np.uint64)

for _arr in (LINE_MASK, RAY_UP, RAY_DOWN, STEP1_UP, STEP2_UP, STEP1_DOWN, STEP2_DOWN, FIVE_WINDOWS):
    _arr.setflags(write=False)
