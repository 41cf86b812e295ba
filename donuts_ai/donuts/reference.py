"""A slow, obviously-correct pure-Python statement of the rules.

It shares nothing with the Numba engine but the square numbering: it walks the
board cell by cell in (file, rank) coordinates, exactly as the rulebook is worded.
Use it to check the fast engine (the test suite does, move by move) or to read
what the rules mean.

    >>> from donuts_ai import Layout
    >>> game = ReferenceGame(Layout.standard())
    >>> game.play(14)            # Chocolate on c3: nothing to flip yet
    []
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypedDict

from .layout import Layout
from .rules import Rules

# The reference keeps its own coordinates on purpose: it shares no code with the engine
# or the Board it checks (only the Layout and Rules values it reads).
SIZE = 6
VECTORS = ((1, 0), (0, 1), (1, 1), (1, -1))  # -, |, /, \ as (file, rank) steps


def _xy(sq: int) -> tuple[int, int]:
    return sq % SIZE, sq // SIZE


def _sq(x: int, y: int) -> int:
    return y * SIZE + x


def _inside(x: int, y: int) -> bool:
    return 0 <= x < SIZE and 0 <= y < SIZE


@dataclass
class ReferenceGame:
    """A game in progress: ``cells[sq]`` is 0 (Chocolate), 1 (Vanilla) or None."""

    layout: Layout
    rules: Rules = Rules()

    def __post_init__(self) -> None:
        self.cells: list[int | None] = [None] * (SIZE * SIZE)
        self.turn: int | None = 0
        self.last: int | None = None
        self.placed = [0, 0]
        self.winner: int | None = None  # 0, 1, or None for a draw once over
        self.reason: str | None = None  # "five", "largest group", "majority" once over

    @classmethod
    def from_state(
        cls, layout: Layout, rules: Rules, cells: Iterable[int | None], turn: int | None, last: int | None, placed: Iterable[int]
    ) -> ReferenceGame:
        """A game set up from raw state.

        Args:
            layout: the layout.
            rules: the rules.
            cells: ``cells[sq]``: 0 (Chocolate), 1 (Vanilla) or ``None``.
            turn: the side to move, ``None`` once over.
            last: the square filled last (``None`` before any placement).
            placed: the donuts each side has placed.
        """
        game = cls(layout, rules)
        game.cells = list(cells)
        game.last = last
        game.placed = list(placed)
        game.turn = turn
        game._settle()
        return game

    # --- queries -------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.reason is not None

    def line_squares(self, sq: int) -> list[int]:
        """Every square of the line through ``sq`` in its printed direction, ``sq`` included.

        Args:
            sq: the square.
        """
        dx, dy = VECTORS[self.layout.direction(sq)]
        x, y = _xy(sq)
        out = [sq]
        for sign in (1, -1):
            k = 1
            while _inside(x + sign * k * dx, y + sign * k * dy):
                out.append(_sq(x + sign * k * dx, y + sign * k * dy))
                k += 1
        return sorted(out)

    def legal_moves(self) -> list[int]:
        if self.over:
            return []
        empty = [s for s in range(SIZE * SIZE) if self.cells[s] is None]
        if self.last is None:
            return empty
        on_line = [s for s in self.line_squares(self.last) if self.cells[s] is None]
        return on_line if on_line else empty  # a full line gives an open pick

    def flips_for(self, sq: int, mover: int) -> list[int]:
        """The opponent's squares that placing ``mover`` on the empty ``sq`` would flip.

        Args:
            sq: the square.
            mover: the colour placed.
        """
        opp = 1 - mover
        cells = self.cells
        flipped: list[int] = []
        x, y = _xy(sq)
        for dx, dy in VECTORS:
            ends = []
            for sign in (1, -1):
                k = 1
                # Walk over the mover's run; the first other square is the run's end.
                while _inside(x + sign * k * dx, y + sign * k * dy) and cells[_sq(x + sign * k * dx, y + sign * k * dy)] == mover:
                    k += 1
                ex, ey = x + sign * k * dx, y + sign * k * dy
                ends.append((k, ex, ey))
            if self.rules.insertion == "single":
                # Alone between two single opposing donuts: o X o, nothing opposing beyond.
                ok = all(
                    k == 1
                    and _inside(ex, ey)
                    and cells[_sq(ex, ey)] == opp
                    and not (_inside(ex + (ex - x), ey + (ey - y)) and cells[_sq(ex + (ex - x), ey + (ey - y))] == opp)
                    for k, ex, ey in ends
                )
            else:
                ok = all(_inside(ex, ey) and cells[_sq(ex, ey)] == opp for _, ex, ey in ends)
            if ok:
                flipped.extend(_sq(ex, ey) for _, ex, ey in ends)
        return sorted(flipped)

    def has_five(self, color: int) -> bool:
        """Whether ``color`` has five in a row.

        Args:
            color: 0 or 1.
        """
        for y in range(SIZE):
            for x in range(SIZE):
                for dx, dy in VECTORS:
                    if all(_inside(x + k * dx, y + k * dy) and self.cells[_sq(x + k * dx, y + k * dy)] == color for k in range(5)):
                        return True
        return False

    def largest_group(self, color: int) -> int:
        """The size of ``color``'s largest orthogonally connected group.

        Args:
            color: 0 or 1.
        """
        seen: set[int] = set()
        best = 0
        for start in range(SIZE * SIZE):
            if self.cells[start] != color or start in seen:
                continue
            stack, size = [start], 0
            seen.add(start)
            while stack:
                s = stack.pop()
                size += 1
                x, y = _xy(s)
                for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if _inside(nx, ny) and self.cells[_sq(nx, ny)] == color and _sq(nx, ny) not in seen:
                        seen.add(_sq(nx, ny))
                        stack.append(_sq(nx, ny))
            best = max(best, size)
        return best

    # --- moves ---------------------------------------------------------------------
    def play(self, sq: int) -> list[int]:
        """Place for the side to move.

        Args:
            sq: the square.

        Returns:
            The flipped squares.
        """
        if sq not in self.legal_moves():
            raise ValueError(f"illegal move {sq}")
        mover = self.turn
        assert mover is not None  # a legal move: the game goes on
        flipped = self.flips_for(sq, mover)
        self.cells[sq] = mover
        for s in flipped:
            self.cells[s] = mover
        self.placed[mover] += 1
        self.last = sq
        if self.has_five(mover):
            self.winner, self.reason, self.turn = mover, "five", None
            return flipped
        self._pass_turn(mover)
        return flipped

    def forfeit(self) -> None:
        """The side to move forfeits its turn and keeps its donut."""
        if self.over:
            raise ValueError("game over")
        assert self.turn is not None  # the game goes on
        self._pass_turn(self.turn)

    def _pass_turn(self, mover: int) -> None:
        n = self.rules.donuts
        if self.placed[1 - mover] < n:
            self.turn = 1 - mover  # a player whose pool is empty is skipped
        elif self.placed[mover] < n:
            self.turn = mover
        else:
            self.turn = None
        self._settle()

    def _settle(self) -> None:
        """Decide a game that has no move left (full board or both pools empty)."""
        n = self.rules.donuts
        for color in (0, 1):
            if self.has_five(color):
                self.winner, self.reason, self.turn = color, "five", None
                return
        if all(c is not None for c in self.cells):
            a, b = self.cells.count(0), self.cells.count(1)
            self.reason = "majority"
        elif self.placed[0] >= n and self.placed[1] >= n:
            a, b = self.largest_group(0), self.largest_group(1)
            self.reason = "largest group"
        else:
            return
        self.turn = None
        self.winner = 0 if a > b else 1 if b > a else None


def perft(game: ReferenceGame, depth: int) -> int:
    """The leaf count of the reference game tree (a finished game is a leaf).

    Args:
        game: the position.
        depth: the plies.
    """
    if depth == 0 or game.over:
        return 1
    total = 0
    for sq in game.legal_moves():
        child = ReferenceGame.from_state(game.layout, game.rules, game.cells, game.turn, game.last, game.placed)
        child.play(sq)
        total += perft(child, depth - 1)
    return total


class PlayoutTotals(TypedDict):
    """What :func:`random_playouts` returns."""

    wins: list[int]  # by color: Chocolate, Vanilla
    draws: int
    mean_plies: float


def random_playouts(layout: Layout, n_games: int, seed: int | None = None, rules: Rules | None = None) -> PlayoutTotals:
    """Random games with the reference rules (Python's ``random``, so not the same games as the
    engine's).

    Args:
        layout: the layout.
        n_games: the games.
        seed: the games' seed.
        rules: the rules (default: official).

    Returns:
        ``{"wins": [c, v], "draws": d, "mean_plies": m}``.
    """
    rng = random.Random(seed)
    wins, draws, plies = [0, 0], 0, 0
    for _ in range(n_games):
        game = ReferenceGame(layout, rules or Rules())
        while not game.over:
            game.play(rng.choice(game.legal_moves()))
            plies += 1
        if game.winner is None:
            draws += 1
        else:
            wins[game.winner] += 1
    return {"wins": wins, "draws": draws, "mean_plies": plies / max(n_games, 1)}
