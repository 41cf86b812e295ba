"""Connect Four's public compiled API: the kernels a compiled search calls, under stable names.

Every game's kernels take the same arguments, so a search written against them runs on any
game: ``rules`` first (an ``int64``; Connect Four has no variants and ignores it: pass 0),
then a position ``pos`` from the side to move, then a move. Here::

    import numpy as np
    from numba import njit
    from donuts_ai.connect_four import kernels as K

    @njit(cache=True)
    def negamax(rules, pos, depth):            # the value for the side to move, to ``depth`` plies
        if depth == 0:
            return 0
        best, moves = -1, K.legal(rules, pos)
        for column in range(K.WIDTH):
            if moves >> column & 1:
                child, status = K.play(rules, pos, column)
                value = 1 if status == K.WON else 0 if status == K.DRAWN else -negamax(rules, child, depth - 1)
                best = max(best, value)
        return best

    print(negamax(0, K.pos_from_moves("4453"), 3))

**The position** is a tuple ``(current, mask, moves)``: ``current`` the stones of the side
to move and ``mask`` every stone, ``uint64`` bitboards with bit ``column * 7 + row`` (row 0
the bottom; each column's seventh bit a sentinel, never a stone: the grid is drawn in
:mod:`donuts_ai.connect_four._kernels`), and ``moves`` the plies played, an ``int64``.
:func:`start` is the empty board; :func:`pos_from_moves` (Python) reads a game's moves,
and :meth:`ConnectFourState.kernel_state() <donuts_ai.connect_four.state.ConnectFourState.kernel_state>`
is a board's position.

**Moves** are column indices 0..6 (0 the leftmost, column ``a``; Pons' digit ``1``). A set
of moves is a ``uint64`` whose bit ``c`` is column ``c``: :func:`legal`, :func:`winning`,
:func:`safe`.

**The transition** :func:`play` returns the next position (from the next player's side)
and a status: :data:`GOES_ON`, :data:`WON` (the player who just moved made four in a row)
or :data:`DRAWN` (the board is full). After :data:`WON` or :data:`DRAWN` the game is over:
pass that position to no kernel. Kernels trust their input and never raise: a legal column
of a position whose game goes on.

**The solver's hooks**, all exact: :func:`key` (a unique non-zero key), :func:`winning`
(the columns that win at once), :func:`safe` (the columns after which the opponent cannot
win at once), :func:`plies_left` (an upper bound on the game's length), :func:`order` (a
move-ordering score, higher first), :func:`playout` (a random game to its end) and
:func:`perft` (leaf counts).

**Types.** Bitboards are ``np.uint64``, every other number ``int64``. A kernel called from
Python returns its bitboards as Python ints: keep positions inside compiled code, or pass
them back through :func:`as_position`, which types them (Numba compiles each kernel once per
argument types; a Python ``int`` where a ``uint64`` belongs compiles another
specialization).

The kernels are defined in the private :mod:`donuts_ai.connect_four._kernels`, which may
change; the names here are the stable ones.
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
    """The position after the moves of ``text`` from the empty board, typed for the kernels:
    Pons' digits ``1``..``7`` (``"4453"``: two stones in the middle column, then the one to
    its right, then the one to its left) or column letters ``a``..``g``.

    Raises :class:`~donuts_ai.connect_four.errors.ConnectFourError` for a character that
    names no column, a move into a full column, or a move that ends the game (four in a
    row, or the last cell): the kernels take positions whose game goes on."""
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
    """The position of ``board`` (:meth:`~donuts_ai.connect_four.state.ConnectFourState.kernel_state`),
    checked: :class:`~donuts_ai.connect_four.errors.ConnectFourError` when its game is
    over, ``TypeError`` for anything but a :class:`~donuts_ai.connect_four.state.ConnectFourState`."""
    if not isinstance(board, ConnectFourState):
        raise TypeError(f"position needs a ConnectFourState, got {type(board).__name__}")
    if board.is_game_over():
        raise ConnectFourError("position: the game is over, no side is to move")
    return board.kernel_state()
