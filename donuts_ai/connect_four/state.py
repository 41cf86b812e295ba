"""A Connect Four game in progress: :class:`ConnectFourState`, the library's state API
(:class:`~donuts_ai.state.GameState`) over the compiled engine's bitboard position.

Moves are the columns' letters ``a``..``g`` (left to right), as in
``examples/connect_four.py``; a set-up is an opening, the column letters played before the
game starts (``"dd"``; ``""`` the empty board). Pascal Pons' notation, digits ``1``..``7``,
is read too (:meth:`ConnectFourState.from_moves`, :func:`parse_columns`)::

    >>> board = ConnectFourState("dd")
    >>> board.push("c")
    0
    >>> board.turn, board.legal_moves()
    (1, ['a', 'b', 'c', 'd', 'e', 'f', 'g'])

The state is the engine's position from the side to move (:meth:`ConnectFourState.kernel_state`),
so a compiled search starts from it as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from ..state import BaseState, GameEnd
from ._kernels import DRAWN, GOES_ON, HEIGHT, WIDTH, WON, Position, as_position, legal, play, start
from .errors import ConnectFourError

#: The moves: each column's letter, left to right (column ``c`` is ``COLUMN_NAMES[c]``).
COLUMN_NAMES = "abcdefg"
#: Pons' notation of the same columns: ``1`` the leftmost.
COLUMN_DIGITS = "1234567"
#: How a game ends: four in a row, or the board full without one.
FOUR_IN_A_ROW, FULL_BOARD = "four in a row", "full board"

__all__ = ["COLUMN_DIGITS", "COLUMN_NAMES", "FOUR_IN_A_ROW", "FULL_BOARD", "ConnectFourState", "parse_columns"]


def parse_columns(text: str) -> list[int]:
    """The column indices of a string of moves. Says nothing of legality.

    Args:
        text: letters ``a``..``g`` or Pons' digits ``1``..``7`` (either, or both).

    Returns:
        The columns, 0..6.

    Raises:
        ConnectFourError: a character that names no column.
    """
    if not isinstance(text, str):
        raise ConnectFourError(f"Connect Four moves are a text of column letters a..g or digits 1..7, got {text!r}")
    columns = []
    for i, char in enumerate(text):
        if char in COLUMN_NAMES:
            columns.append(COLUMN_NAMES.index(char))
        elif char in COLUMN_DIGITS:
            columns.append(COLUMN_DIGITS.index(char))
        else:
            raise ConnectFourError(f"Connect Four moves are column letters a..g or digits 1..7: {char!r} at "
                                   f"{i} of {text!r} is neither")
    return columns


class ConnectFourState(BaseState):
    """A Connect Four game: 7 columns, 6 rows, the first player 0, four in a row wins.

    ``setup`` is the opening, column letters played before the game starts (not in
    :attr:`move_stack`, not undone by :meth:`pop`); a :class:`~donuts_ai.connect_four.errors.ConnectFourError`
    when it names no column or plays into a full column or after the end.

    :meth:`push` returns the move's status (the engine's :data:`~donuts_ai.connect_four.kernels.GOES_ON`,
    :data:`~donuts_ai.connect_four.kernels.WON` or :data:`~donuts_ai.connect_four.kernels.DRAWN`);
    an illegal move raises :class:`~donuts_ai.errors.IllegalMoveError` naming the legal ones,
    a move after the end :class:`~donuts_ai.errors.GameOverError`, and the board is unchanged.
    """

    def __init__(self, setup: str = "") -> None:
        """A game after the opening ``setup``.

        Args:
            setup: column letters played before the game starts (``""``: the empty board).

        Raises:
            ConnectFourError: a character that names no column, or a move that cannot be played.
        """
        if not isinstance(setup, str) or any(char not in COLUMN_NAMES for char in setup):
            raise ConnectFourError(f"a Connect Four set-up is an opening of column letters a..g, got {setup!r}")
        super().__init__(setup)
        self._pos: Position = as_position(*start())
        self._status = GOES_ON
        #: The position and status before each move pushed (the undo history).
        self._history: list[tuple[Position, int]] = []
        for i, move in enumerate(setup):
            if move not in self.legal_moves():
                raise ConnectFourError(f"the set-up {setup!r} cannot be played: move {i + 1}, {move!r}, is "
                                       f"{'after the end' if self.is_game_over() else 'into a full column'}")
            self.apply(move)
        self._history.clear()  # the opening is the set-up, not moves to undo

    @classmethod
    def from_moves(cls, text: str) -> Self:
        """The empty board with the moves of ``text`` pushed (in :attr:`move_stack`).

        Args:
            text: column letters ``a``..``g`` or Pons' digits ``1``..``7`` (``"4453"``: two
                stones in column d, then e, then c).

        Returns:
            The state.

        Raises:
            ConnectFourError: a character that names no column or a move that cannot be played.
        """
        board = cls()
        for i, column in enumerate(parse_columns(text)):
            move = COLUMN_NAMES[column]
            if move not in board.legal_moves():
                raise ConnectFourError(f"the moves {text!r} cannot be played: move {i + 1}, {text[i]!r}, is "
                                       f"{'after the end' if board.is_game_over() else 'into a full column'}")
            board.push(move)
        return board

    # --- the five members of the state API ---------------------------------------------

    @property
    def turn(self) -> int | None:
        """The player to move (0 moved first); ``None`` once the game is over."""
        return None if self._status != GOES_ON else int(self._pos[2]) % 2

    def legal_moves(self) -> list[str]:
        """The columns not full, as letters left to right; empty once the game is over."""
        if self._status != GOES_ON:
            return []
        columns = int(legal(0, self._pos))
        return [COLUMN_NAMES[c] for c in range(WIDTH) if columns >> c & 1]

    def apply(self, move: str) -> int:
        """Drop a stone in ``move``'s column (:meth:`push` checked it).

        Args:
            move: a legal column letter.

        Returns:
            The move's status (the engine's).
        """
        after, status = play(0, self._pos, COLUMN_NAMES.index(move))
        self._history.append((self._pos, self._status))
        self._pos, self._status = as_position(*after), int(status)
        return self._status

    def undo(self, move: str) -> None:
        """Take back the last move: the position and status before it, exactly.

        Args:
            move: the last move played.
        """
        self._pos, self._status = self._history.pop()

    def outcome(self) -> GameEnd | None:
        """``None`` while the game goes on; else the winner (the player who made four in a
        row, reason ``"four in a row"``) or a draw (``"full board"``)."""
        if self._status == WON:
            return GameEnd.win((self.moves_played() - 1) % 2, reason=FOUR_IN_A_ROW)  # who moved last
        if self._status == DRAWN:
            return GameEnd.draw(reason=FULL_BOARD)
        return None

    # --- the engine's view --------------------------------------------------------------

    def kernel_state(self) -> Position:
        """The engine's position: ``(current, mask, moves)`` from the side to move, typed as
        the kernels take it (``np.uint64`` bitboards). Once the game is over it is the final
        position, from the side that would move next: give no kernel a finished game."""
        return self._pos

    def moves_played(self) -> int:
        """The stones on the board (the set-up's included)."""
        return int(self._pos[2])

    def cells(self) -> list[list[int | None]]:
        """The grid ``[column][row]`` (row 0 the bottom): 0 or 1, the player whose stone it
        is, or ``None`` for an empty cell."""
        current, mask, moves = (int(x) for x in self._pos)
        to_move = moves % 2  # the player whose stones ``current`` holds
        grid: list[list[int | None]] = []
        for column in range(WIDTH):
            grid.append([])
            for row in range(HEIGHT):
                bit = 1 << (column * (HEIGHT + 1) + row)
                grid[-1].append(None if not mask & bit else to_move if current & bit else 1 - to_move)
        return grid

    def __str__(self) -> str:
        """The board as text, top row first: ``x`` player 0, ``o`` player 1, ``.`` empty;
        the column letters below."""
        grid = self.cells()
        rows = ["".join(".xo"[1 + cell] if (cell := grid[c][r]) is not None else "." for c in range(WIDTH))
                for r in reversed(range(HEIGHT))]
        return "\n".join([*rows, COLUMN_NAMES])

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_text({self.to_text()!r})"

    # --- copies and texts ---------------------------------------------------------------

    def copy(self) -> Self:
        """An independent copy, undo history included."""
        other = type(self).__new__(type(self))
        other.setup, other.move_stack = self.setup, list(self.move_stack)
        other._pos, other._status, other._history = self._pos, self._status, list(self._history)
        return other

    def to_dict(self) -> dict[str, Any]:
        """``{"setup": "dd", "moves": ["c", ...]}``: the opening and the moves since."""
        return super().to_dict()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The state of :meth:`to_dict`'s form, checked.

        Args:
            data: the dict.

        Returns:
            The state.

        Raises:
            ConnectFourError: ``data`` is not of that form.
            IllegalMoveError: a move cannot be played.
        """
        if not isinstance(data, Mapping) or set(data) != {"setup", "moves"} or not isinstance(data["setup"], str) \
                or not isinstance(data["moves"], list) or not all(isinstance(m, str) for m in data["moves"]):
            raise ConnectFourError(f"a Connect Four state is a dict of 'setup' (column letters) and 'moves' (a list "
                                   f"of column letters), got {data!r}")
        board = cls(data["setup"])
        for move in data["moves"]:
            board.push(move)
        return board

    def to_text(self) -> str:
        """The state as one line, ``setup/moves`` (``"dd/cge"``: the opening dd, then c, g, e)."""
        return f"{self.setup}/{''.join(m or '' for m in self.move_stack)}"

    @classmethod
    def from_text(cls, text: str) -> Self:
        """The state of :meth:`to_text`'s form, checked.

        Args:
            text: the JSON text.

        Returns:
            The state.

        Raises:
            ConnectFourError: ``text`` is not of that form.
        """
        if not isinstance(text, str):
            raise ConnectFourError(f"a Connect Four state's text is 'setup/moves', got {text!r}")
        setup, slash, moves = text.partition("/")
        if not slash or "/" in moves:
            raise ConnectFourError(f"a Connect Four state's text is 'setup/moves' (column letters either side of "
                                   f"one '/'), got {text!r}")
        return cls.from_dict({"setup": setup, "moves": list(moves)})

