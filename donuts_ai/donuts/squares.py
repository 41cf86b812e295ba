"""Squares, colours and line directions as plain ints, python-chess style.

Square index = rank * 6 + file, so a1 = 0, f1 = 5, a6 = 30, f6 = 35; bit ``i`` of a
bitboard is square ``i``. Directions are ints too, each with its printed symbol::

    0 "-"  horizontal          vector (+1,  0)
    1 "|"  vertical            vector ( 0, +1)
    2 "/"  rising diagonal     vector (+1, +1)   lower-left to upper-right
    3 "\\"  falling diagonal    vector (+1, -1)   upper-left to lower-right

(vectors are (file, rank) steps).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import InvalidMoveError

SIZE = 6
NUM_SQUARES = SIZE * SIZE
FULL_BOARD = (1 << NUM_SQUARES) - 1

CHOCOLATE = 0
VANILLA = 1
COLOR_NAMES = ("chocolate", "vanilla")
COLOR_LETTERS = ("c", "v")

HORIZONTAL, VERTICAL, RISING, FALLING = 0, 1, 2, 3
DIRECTION_SYMBOLS = ("-", "|", "/", "\\")
DIRECTION_VECTORS = ((1, 0), (0, 1), (1, 1), (1, -1))

FILE_NAMES = "abcdef"
RANK_NAMES = "123456"

SQUARES = list(range(NUM_SQUARES))
SQUARE_NAMES = [f + r for r in RANK_NAMES for f in FILE_NAMES]
#: The text of a forfeited turn (``None`` in a board's ``move_stack``) wherever Donuts'
#: moves are written as text: the engine protocol's ``position`` and ``bestmove``, saved games.
PASS = "pass"
(
    A1, B1, C1, D1, E1, F1,
    A2, B2, C2, D2, E2, F2,
    A3, B3, C3, D3, E3, F3,
    A4, B4, C4, D4, E4, F4,
    A5, B5, C5, D5, E5, F5,
    A6, B6, C6, D6, E6, F6,
) = SQUARES  # fmt: skip

_SQUARE_INDEX = {name: i for i, name in enumerate(SQUARE_NAMES)}


def square(file: int, rank: int) -> int:
    """The square index of a file and a rank.

    Args:
        file: 0..5 = a..f.
        rank: 0..5 = 1..6.
    """
    return rank * SIZE + file


def square_file(sq: int) -> int:
    """The file of a square, 0..5 = a..f.

    Args:
        sq: the square's index.
    """
    return sq % SIZE


def square_rank(sq: int) -> int:
    """The rank of a square, 0..5 = 1..6.

    Args:
        sq: the square's index.
    """
    return sq // SIZE


def square_name(sq: int) -> str:
    """The name of a square index, e.g. ``square_name(14) == "c3"``.

    Args:
        sq: the index, 0..35.

    Returns:
        The name, ``"a1"`` to ``"f6"``.
    """
    return SQUARE_NAMES[sq]


def parse_square(move: object) -> int:
    """The square index of a move given as a name (``"c3"``) or an index (0..35).

    Args:
        move: the square's name or index.

    Returns:
        The index, 0..35.

    Raises:
        InvalidMoveError: anything else.
    """
    if isinstance(move, str):
        idx = _SQUARE_INDEX.get(move.strip().lower())
        if idx is None:
            raise InvalidMoveError(f"invalid move {move!r}: expected a square name a1..f6")
        return idx
    # A class (``int`` itself) has an unbound ``__index__`` and numpy arrays of more than one
    # element have one that raises TypeError: both are bad moves, not programming errors.
    if isinstance(move, (bool, type)) or not hasattr(move, "__index__"):
        raise InvalidMoveError(f"invalid move {move!r}: expected a square name a1..f6 or an index 0..35")
    try:
        idx = move.__index__()
    except (TypeError, ValueError):
        raise InvalidMoveError(f"invalid move {move!r}: expected a square name a1..f6 or an index 0..35") from None
    if not isinstance(idx, int) or not 0 <= idx < NUM_SQUARES:
        raise InvalidMoveError(f"invalid move {move!r}: square index must be in 0..35")
    return idx


def squares_of(bb: int) -> list[int]:
    """The square indices of the set bits of a bitboard, ascending.

    Args:
        bb: the bitboard.
    """
    out = []
    while bb:
        low = bb & -bb
        out.append(low.bit_length() - 1)
        bb ^= low
    return out


def bitboard_of(squares: Iterable[int]) -> int:
    """The bitboard of a set of squares.

    Args:
        squares: square indices.
    """
    bb = 0
    for sq in squares:
        bb |= 1 << sq
    return bb
