"""Connect Four's public compiled API: the kernels a compiled search calls, under stable names.

Every game's kernels take the same arguments, so a search written against them runs on any
game: ``rules`` first (an ``int64``; Connect Four has no variants and ignores it: pass
:data:`~donuts_ai.connect_four.rules.RULES`), then a position ``pos`` from the side to move,
then a move (a column index 0..6). A position is ``(current, mask, moves)``: two ``uint64``
bitboards and the plies played; :func:`start` is the empty board, :func:`pos_from_moves`
reads a game's moves and :func:`position` is a state's. :func:`play` returns the next
position and a status (:data:`GOES_ON`, :data:`WON`, :data:`DRAWN`); a set of moves is a
``uint64`` whose bit ``c`` is column ``c``. Kernels trust their input and never raise.

The position's layout, the solver's hooks, the types and an example search are on the API
page (``docs/reference/connect_four.md``, "The compiled API"). The kernels are defined in
the private :mod:`donuts_ai.connect_four._kernels`; the names here are the stable ones.
"""

from __future__ import annotations

from ._kernels import (
    CELLS,
    DRAWN,
    GOES_ON,
    HEIGHT,
    WIDTH,
    WON,
    Position,
    as_position,
    key,
    legal,
    order,
    perft,
    play,
    playout,
    plies_left,
    safe,
    start,
    winning,
)
from .errors import ConnectFourError
from .state import ConnectFourState, parse_columns

__all__ = [
    "CELLS",
    "DRAWN",
    "GOES_ON",
    "HEIGHT",
    "WIDTH",
    "WON",
    "Position",
    "as_position",
    "key",
    "legal",
    "order",
    "perft",
    "play",
    "playout",
    "plies_left",
    "pos_from_moves",
    "position",
    "safe",
    "start",
    "winning",
]


def pos_from_moves(text: str) -> Position:
    """The position after the moves of ``text`` from the empty board, typed for the kernels.

    Args:
        text: Pons' digits ``1``..``7`` (``"4453"``) or column letters ``a``..``g``.

    Returns:
        The position.

    Raises:
        ConnectFourError: a character that names no column, a move into a full column, or a
            move that ends the game (the kernels take positions whose game goes on).
    """
    pos = as_position(*start())
    for i, column in enumerate(parse_columns(text)):
        if not int(legal(0, pos)) >> column & 1:
            raise ConnectFourError(f"pos_from_moves: move {i + 1} of {text!r}, {text[i]!r}, is into a full column")
        after, status = play(0, pos, column)
        if status != GOES_ON:
            raise ConnectFourError(f"pos_from_moves: move {i + 1} of {text!r}, {text[i]!r}, ends the game "
                                   f"({'four in a row' if status == WON else 'the board full'}); the kernels "
                                   f"take positions whose game goes on")
        pos = as_position(*after)
    return pos


def position(board: ConnectFourState) -> Position:
    """The kernels' position of a state (:meth:`~donuts_ai.connect_four.state.ConnectFourState.kernel_state`), checked.

    Args:
        board: a :class:`~donuts_ai.connect_four.state.ConnectFourState` whose game goes on.

    Returns:
        The position.

    Raises:
        ConnectFourError: the game is over.
        TypeError: ``board`` is not a :class:`~donuts_ai.connect_four.state.ConnectFourState`.
    """
    if not isinstance(board, ConnectFourState):
        raise TypeError(f"position needs a ConnectFourState, got {type(board).__name__}")
    if board.is_game_over():
        raise ConnectFourError("position: the game is over, no side is to move")
    return board.kernel_state()
