"""Connect Four in plain Python: a slow, obviously-correct statement of the rules.

It shares nothing with the bitboard engine (:mod:`donuts_ai.connect_four.kernels`) but the
game's numbers: a grid of cells ``grid[column][row]`` (row 0 the bottom) holding 0, 1
(the first and second player's stones) or ``None``, walked cell by cell. The engine is
checked against it move by move (``tests/connect_four/test_engine.py``).

    >>> game = ReferenceConnectFour()
    >>> [game.play(3) for _ in range(6)][-1]
    0
    >>> game.legal()
    [0, 1, 2, 4, 5, 6]

Moves are column indices 0..6, and :meth:`ReferenceConnectFour.play` returns the engine's
statuses: :data:`GOES_ON`, :data:`WON` (the player who just moved won) or :data:`DRAWN`.
"""

from __future__ import annotations

from .rules import HEIGHT, IN_A_ROW, WIDTH

#: The directions a line runs in, as (column, row) steps: along a row, up a column, the two diagonals.
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
#: The statuses of a move (the engine's numbers): the game goes on, the mover won, the board filled.
GOES_ON, WON, DRAWN = 0, 1, 2

__all__ = ["DIRECTIONS", "DRAWN", "GOES_ON", "HEIGHT", "IN_A_ROW", "WIDTH", "WON", "ReferenceConnectFour"]


class ReferenceConnectFour:
    """A game from the empty board: ``grid[column][row]``, the player to move ``turn``
    (0 first), and ``over`` once a move won or filled the board (then ``winner`` is the
    player who won, or ``None`` for a draw)."""

    def __init__(self) -> None:
        self.grid: list[list[int | None]] = [[None] * HEIGHT for _ in range(WIDTH)]
        self.turn = 0
        self.played = 0
        self.over = False
        self.winner: int | None = None

    def height(self, column: int) -> int:
        """The stones in a column: the row the next stone there lands on.

        Args:
            column: 0..6.

        Returns:
            The height.
        """
        row = 0
        while row < HEIGHT and self.grid[column][row] is not None:
            row += 1
        return row

    def legal(self) -> list[int]:
        """The columns not full, left to right; empty once the game is over."""
        if self.over:
            return []
        return [column for column in range(WIDTH) if self.height(column) < HEIGHT]

    def line_through(self, column: int, row: int, player: int) -> int:
        """The longest run of ``player``'s stones through a cell, counting that cell as
        ``player``'s whatever it holds.

        Args:
            column: the cell's column.
            row: the cell's row.
            player: 0 or 1.

        Returns:
            The run's length.
        """
        longest = 0
        for dc, dr in DIRECTIONS:
            run = 1
            for sign in (1, -1):
                c, r = column + sign * dc, row + sign * dr
                while 0 <= c < WIDTH and 0 <= r < HEIGHT and self.grid[c][r] == player:
                    run += 1
                    c, r = c + sign * dc, r + sign * dr
            longest = max(longest, run)
        return longest

    def play(self, column: int) -> int:
        """The player to move drops a stone in ``column``.

        Args:
            column: a legal column.

        Returns:
            The move's status.
        """
        if column not in self.legal():
            raise ValueError(f"column {column} is not legal: {self.legal()}")
        row = self.height(column)
        self.grid[column][row] = self.turn
        self.played += 1
        if self.line_through(column, row, self.turn) >= IN_A_ROW:
            self.over, self.winner = True, self.turn
            return WON
        self.turn = 1 - self.turn
        if self.played == WIDTH * HEIGHT:
            self.over = True
            return DRAWN
        return GOES_ON

    def undo(self, column: int) -> None:
        """Take back the last move.

        Args:
            column: the column of the last stone.
        """
        row = self.height(column) - 1
        player = self.grid[column][row]
        assert player is not None
        self.grid[column][row] = None
        self.played -= 1
        self.turn, self.over, self.winner = player, False, None

    def winning_columns(self) -> list[int]:
        """The legal columns where the player to move makes four in a row at once."""
        return [c for c in self.legal() if self.line_through(c, self.height(c), self.turn) >= IN_A_ROW]

    def perft(self, depth: int) -> int:
        """The leaves ``depth`` plies down (a finished game is a leaf), walked move by move.

        Args:
            depth: plies.

        Returns:
            The leaf count.
        """
        if depth == 0 or self.over:
            return 1
        total = 0
        for column in self.legal():
            self.play(column)
            total += self.perft(depth - 1)
            self.undo(column)
        return total
