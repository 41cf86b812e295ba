"""The user-facing position: :class:`Board`, with its move stack, python-chess style.

The Board owns parsing, checking, errors and printing; every rule is applied by the
Numba kernels of :mod:`donuts_ai.donuts._kernels`, so the Board and the search agree exactly.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias, TypedDict

import numpy as np
from numpy.typing import NDArray

from ..errors import GameOverError, IllegalMoveError
from ..outcomes import winner_of_code
from ..state import GameState
from . import _kernels as E
from ._kernels.position import plies_left, position_of
from .errors import LayoutError, PositionError, RulesError
from .layout import Layout
from .outcomes import REASON_NAMES, result_string
from .raster import board_rgb
from .rules import Rules, RulesDict
from .squares import (
    COLOR_LETTERS,
    COLOR_NAMES,
    DIRECTION_SYMBOLS,
    FILE_NAMES,
    FULL_BOARD,
    SIZE,
    SQUARE_NAMES,
    parse_square,
    square,
    squares_of,
)
from .svg import board_svg
from .symmetry import transform_bitboard, transform_square


class Termination(enum.StrEnum):
    """How a game ended."""

    FIVE = "five"
    LARGEST_GROUP = "largest group"
    MAJORITY = "majority"


_REASONS = {code: Termination(name) for code, name in REASON_NAMES.items()}


@dataclass(frozen=True)
class Outcome:
    """The end of a game of Donuts.

    Attributes:
        winner: 0 (Chocolate), 1 (Vanilla) or ``None`` (draw).
        reason: how it ended.
        scores: the two players' largest groups (largest-group end) or donut counts (majority
            end); ``None`` after a five.
    """

    winner: int | None
    reason: Termination
    scores: tuple[int, int] | None = None

    def result(self) -> str:
        """``"1-0"`` (Chocolate won), ``"0-1"`` or ``"1/2-1/2"``."""
        return result_string(self.winner)

    @property
    def places(self) -> tuple[int, int]:
        """Chocolate's and Vanilla's places (0 first): ``(0, 0)`` for a draw."""
        return (0, 0) if self.winner is None else (0, 1) if self.winner == 0 else (1, 0)

    def winner_text(self) -> str:
        """Who won, in words: ``"Chocolate wins"``, ``"Vanilla wins"`` or ``"draw"``."""
        return "draw" if self.winner is None else f"{COLOR_NAMES[self.winner]} wins"


_U = np.uint64


class BoardDict(TypedDict):
    """A :class:`Board` as data (:meth:`Board.to_dict`): its :meth:`~Board.fen` and its rules."""

    fen: str
    rules: RulesDict


# --- the one conversion ----------------------------------------------------------------
# The Board keeps its state by colour (b0 Chocolate, b1 Vanilla, Python ints); the engine
# takes uint64 bitboards. These functions, the transition `E.play` (apply by colour) in
# Board.push and `kernel_state` (what `position_of` takes) are the only places the Board
# calls the engine.
def _legal_mask(b0: int, b1: int, last: int, line_masks: NDArray[np.uint64]) -> int:
    """Bitboard of the legal squares of a game that goes on."""
    return int(E.legal_mask(_U(b0), _U(b1), last, line_masks))


def _forced_line(b0: int, b1: int, last: int, line_masks: NDArray[np.uint64]) -> int:
    """The empty squares of the line through ``last`` (0: an open pick)."""
    return int(E.forced_line(_U(FULL_BOARD & ~(b0 | b1)), last, line_masks))


def _fives(b0: int, b1: int) -> tuple[bool, bool]:
    """Whether Chocolate, Vanilla hold five in a row."""
    return bool(E.has_five(_U(b0))), bool(E.has_five(_U(b1)))


def _end_of(b0: int, b1: int, p0: int, p1: int, donuts: int) -> Outcome | None:
    """The outcome of a position with no five, or ``None`` when the game goes on."""
    winner, reason = E.final_result(_U(b0), _U(b1), p0, p1, donuts)
    return None if winner == E.NO_WINNER_YET else _outcome_of(int(winner), int(reason), b0, b1)


def _outcome_of(winner: int, reason: int, b0: int, b1: int) -> Outcome:
    """The engine's winner and end-reason codes as an :class:`Outcome`, with its scores."""
    term = _REASONS[reason]
    if term is Termination.LARGEST_GROUP:
        scores: tuple[int, int] | None = (int(E.largest_group(_U(b0))), int(E.largest_group(_U(b1))))
    elif term is Termination.MAJORITY:
        scores = (b0.bit_count(), b1.bit_count())
    else:
        scores = None
    return Outcome(winner_of_code(winner), term, scores)


def _next_turn(mover: int, p0: int, p1: int, donuts: int) -> int:
    """Who moves after ``mover`` forfeits or places (the opponent, unless its pool is empty)."""
    return int(E.next_turn(mover, p0, p1, donuts))


#: A Board's whole state, saved by :meth:`Board.push` and put back by :meth:`Board.pop`:
#: ``(b0, b1, turn, last, p0, p1, outcome)``.
_State: TypeAlias = "tuple[int, int, int | None, int, int, int, Outcome | None]"


class Board:
    """A Donuts position with its move history.

    Chocolate (0) moves first. Moves are square names (``"c3"``) or indices (0..35);
    :meth:`push` plays one and :meth:`pop` undoes it exactly. It speaks the state API both
    games share (:class:`donuts_ai.state.GameState`); its text is :meth:`to_text`, its data
    :meth:`to_dict`. An unparsable move raises :class:`~donuts_ai.errors.InvalidMoveError`, a
    move not legal now :class:`~donuts_ai.errors.IllegalMoveError`; a failed call leaves the
    board untouched.

    Args:
        layout: the layout played on (default :meth:`Layout.standard`).
        rules: the rules (default: the official rules).
    """

    _b0: int
    _b1: int
    _turn: int | None
    _last: int
    _p0: int
    _p1: int
    _outcome: Outcome | None

    def __init__(self, layout: Layout | None = None, rules: Rules | None = None):
        if layout is None:
            layout = Layout.standard()
        if not isinstance(layout, Layout):
            raise LayoutError(f"layout must be a Layout, got {type(layout).__name__}")
        if rules is None:
            rules = Rules()
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, got {type(rules).__name__}")
        self._layout = layout
        self._rules = rules
        self._line_masks = layout.line_masks
        self._set_state(0, 0, 0, -1, 0, 0)
        self._root = self._state()
        self._stack: list[int | None] = []
        self._history: list[_State] = []

    # --- state ---------------------------------------------------------------------
    def _state(self) -> _State:
        return (self._b0, self._b1, self._turn, self._last, self._p0, self._p1, self._outcome)

    def _restore(self, state: _State) -> None:
        self._b0, self._b1, self._turn, self._last, self._p0, self._p1, self._outcome = state

    def _set_state(self, b0: int, b1: int, turn: int | None, last: int, p0: int, p1: int) -> None:
        """Set raw state and work out whether the game is over (any position, e.g. from FEN)."""
        self._b0, self._b1, self._last, self._p0, self._p1 = b0, b1, last, p0, p1
        five0, five1 = _fives(b0, b1)
        if five0 or five1:
            self._outcome = Outcome(0 if five0 else 1, Termination.FIVE)
        else:
            self._outcome = _end_of(b0, b1, p0, p1, self._rules.donuts)
        self._turn = None if self._outcome else turn

    # --- read-only views -----------------------------------------------------------
    @property
    def layout(self) -> Layout:
        return self._layout

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def turn(self) -> int | None:
        """Side to move: 0 Chocolate, 1 Vanilla; ``None`` once the game is over."""
        return self._turn

    @property
    def last(self) -> int | None:
        """The square filled last (its line constrains the next move), or ``None``."""
        return None if self._last < 0 else self._last

    @property
    def placed(self) -> tuple[int, int]:
        """Donuts each player has placed from their pool (flips do not count)."""
        return (self._p0, self._p1)

    @property
    def bitboards(self) -> tuple[int, int]:
        """(Chocolate, Vanilla) bitboards: bit i set when that colour holds square i."""
        return (self._b0, self._b1)

    @property
    def ply(self) -> int:
        """Moves pushed since the start of this board's history (forfeits included)."""
        return len(self._stack)

    @property
    def move_stack(self) -> list[str | None]:
        """Moves played, oldest first: square names, ``None`` for a forfeited turn."""
        return [None if m is None else SQUARE_NAMES[m] for m in self._stack]

    def color_at(self, square: int | str) -> int | None:
        """The colour at ``square``: 0, 1, or ``None`` when it is empty.

        Args:
            square: a square's name or index.
        """
        sq = parse_square(square)
        if self._b0 >> sq & 1:
            return 0
        if self._b1 >> sq & 1:
            return 1
        return None

    def kernel_state(self) -> tuple[np.uint64, np.uint64, int, int, int, int]:
        """``(b0, b1, turn, last, p0, p1)`` as the engine kernels take them (``uint64``
        bitboards, ``last`` = -1 before the first placement, ``turn`` = -1 when over)."""
        turn = -1 if self._turn is None else self._turn
        return (_U(self._b0), _U(self._b1), turn, self._last, self._p0, self._p1)

    def plies_left(self) -> int:
        """The most plies the game can still last if nobody makes five: until both pools
        are empty or the board is full (the engine's rule, :func:`plies_left`)."""
        return int(plies_left(position_of(*self.kernel_state()), self.rules.donuts))

    # --- moves ---------------------------------------------------------------------
    def legal_mask(self) -> int:
        """Bitboard of legal squares (0 when the game is over)."""
        if self._outcome is not None:
            return 0
        return _legal_mask(self._b0, self._b1, self._last, self._line_masks)

    def legal_squares(self) -> list[int]:
        return squares_of(self.legal_mask())

    def legal_moves(self) -> list[str]:
        """Legal moves as square names, ascending by square index."""
        return [SQUARE_NAMES[sq] for sq in self.legal_squares()]

    def is_legal(self, move: object) -> bool:
        """Whether ``move`` is legal now (False for unparsable moves too).

        Args:
            move: a square's name or index.
        """
        try:
            sq = parse_square(move)
        except ValueError:
            return False
        return bool(self.legal_mask() >> sq & 1)

    def is_open_pick(self) -> bool:
        """True when the side to move may place on any empty square."""
        if self._outcome is not None:
            return False
        return _forced_line(self._b0, self._b1, self._last, self._line_masks) == 0

    def push(self, move: int | str) -> list[str]:
        """Play ``move`` for the side to move.

        Args:
            move: a square's name or index.

        Returns:
            The flipped squares' names, ascending.

        Raises:
            InvalidMoveError: an unparsable move.
            IllegalMoveError: a move not legal now (or the game is over).
        """
        sq = parse_square(move)
        self._check_legal(sq)
        mover = self._turn
        assert mover is not None  # the game goes on (_check_legal), so a side is to move
        self._history.append(self._state())
        self._stack.append(sq)
        b0, b1, turn, p0, p1, flipped, winner, reason = E.play(
            _U(self._b0), _U(self._b1), mover, self._p0, self._p1, sq, self._rules.donuts, self._rules.single
        )
        self._b0, self._b1, self._p0, self._p1, self._last = int(b0), int(b1), int(p0), int(p1), sq
        if winner != E.NO_WINNER_YET:
            self._turn = None
            self._outcome = _outcome_of(int(winner), int(reason), self._b0, self._b1)
        else:
            self._turn = int(turn)
        return [SQUARE_NAMES[s] for s in squares_of(int(flipped))]

    def _check_legal(self, sq: int) -> None:
        name = SQUARE_NAMES[sq]
        if self._outcome is not None:
            raise GameOverError(f"illegal move {name}: the game is over")
        mask = self.legal_mask()
        if not mask >> sq & 1:
            legal = ", ".join(SQUARE_NAMES[s] for s in squares_of(mask))
            if (self._b0 | self._b1) >> sq & 1:
                why = "square is occupied"
            else:
                why = f"not on the {DIRECTION_SYMBOLS[self._layout.direction(self._last)]} line through {SQUARE_NAMES[self._last]}"
            raise IllegalMoveError(f"illegal move {name}: {why} (legal: {legal})")

    def forfeit(self) -> None:
        """The side to move forfeits its turn (the rulebook's penalty for an illegal
        placement): it keeps its donut, and the opponent moves under the same line
        constraint. Undo with :meth:`pop`."""
        if self._outcome is not None:
            raise GameOverError("cannot forfeit: the game is over")
        mover = self._turn
        assert mover is not None  # the game goes on, so a side is to move
        self._history.append(self._state())
        self._stack.append(None)
        self._turn = _next_turn(mover, self._p0, self._p1, self._rules.donuts)

    def pop(self) -> str | None:
        """Undo the last move; returns it (``None`` for a forfeit). Raises ``IndexError`` when
        there is nothing to undo."""
        if not self._stack:
            raise IndexError("pop from empty move stack")
        move = self._stack.pop()
        self._restore(self._history.pop())
        return None if move is None else SQUARE_NAMES[move]

    def peek(self) -> str | None:
        """The last move (``None`` for a forfeit); ``IndexError`` when there is none."""
        move = self._stack[-1]
        return None if move is None else SQUARE_NAMES[move]

    # --- outcome -------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on, else its :class:`Outcome`."""
        return self._outcome

    def is_game_over(self) -> bool:
        return self._outcome is not None

    # --- copies, symmetry, equality ------------------------------------------------
    def copy(self, stack: bool = True) -> Board:
        """A copy of the board.

        Args:
            stack: whether the copy keeps the move history (False: its history starts here).
        """
        board = Board.__new__(Board)
        board._layout, board._rules, board._line_masks = self._layout, self._rules, self._line_masks
        board._restore(self._state())
        if stack:
            board._root, board._stack, board._history = self._root, list(self._stack), list(self._history)
        else:
            board._root, board._stack, board._history = self._state(), [], []
        return board

    def __copy__(self) -> Board:
        return self.copy()

    def transform(self, sym: str) -> Board:
        """This board (layout, position and move history) under a symmetry.

        Args:
            sym: one of the 8 names of :data:`donuts_ai.donuts.symmetry.SYMMETRY_NAMES`.
        """
        b0, b1, turn, last, p0, p1, _ = self._root
        board = Board(self._layout.transform(sym), self._rules)
        last = transform_square(last, sym) if last >= 0 else -1
        board._set_state(transform_bitboard(b0, sym), transform_bitboard(b1, sym), turn, last, p0, p1)
        board._root = board._state()
        for move in self._stack:
            if move is None:
                board.forfeit()
            else:
                board.push(transform_square(move, sym))
        return board

    def __eq__(self, other: object) -> bool:
        """Same layout, rules and position (histories may differ)."""
        if not isinstance(other, Board):
            return NotImplemented
        return (self._layout, self._rules, self._state()) == (other._layout, other._rules, other._state())

    def __hash__(self) -> int:
        return hash((self._layout, self._rules, self._state()[:6]))

    # --- position strings ----------------------------------------------------------
    def fen(self) -> str:
        """Position string: ``<layout> <cells> <turn> <last> <placed c> <placed v>``.

        ``layout``: the 6 rows of the layout text, rank 6 first, joined by ``,``;
        ``cells``: 6 rows of ``c``/``v``/``.``, rank 6 first, joined by ``/``;
        ``turn``: ``c``, ``v`` or ``-`` (game over); ``last``: a square or ``-``.
        Rules are not part of it: pass them to :meth:`from_fen`.
        """
        layout = ",".join(self._layout.to_text().splitlines())
        rows = []
        for rank in range(SIZE - 1, -1, -1):
            row = ""
            for f in range(SIZE):
                sq = square(f, rank)
                row += "c" if self._b0 >> sq & 1 else "v" if self._b1 >> sq & 1 else "."
            rows.append(row)
        turn = "-" if self._turn is None else COLOR_LETTERS[self._turn]
        last = "-" if self._last < 0 else SQUARE_NAMES[self._last]
        return f"{layout} {'/'.join(rows)} {turn} {last} {self._p0} {self._p1}"

    @classmethod
    def from_fen(cls, fen: str, rules: Rules | None = None) -> Board:
        """Parse a :meth:`fen` string.

        Args:
            fen: the position string.
            rules: the rules (default: the official rules).

        Raises:
            PositionError: naming the bad field.
        """
        if not isinstance(fen, str):
            raise PositionError(f"position string must be a str, got {type(fen).__name__}")
        fields = fen.split()
        if len(fields) != 6:
            raise PositionError(f"position string needs 6 fields (layout cells turn last placed-c placed-v), got {len(fields)}")
        layout_f, cells_f, turn_f, last_f, p0_f, p1_f = fields
        try:
            layout = Layout.from_text("\n".join(layout_f.split(",")))
        except LayoutError as exc:
            raise PositionError(f"position string: bad layout field: {exc}") from None
        board = cls(layout, rules)
        n = board._rules.donuts
        rows = cells_f.split("/")
        if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
            raise PositionError(f"position string: cells field needs 6 rows of 6 of c/v/. joined by '/', got {cells_f!r}")
        b0 = b1 = 0
        for i, row in enumerate(rows):
            for f, ch in enumerate(row):
                sq = square(f, SIZE - 1 - i)
                if ch == "c":
                    b0 |= 1 << sq
                elif ch == "v":
                    b1 |= 1 << sq
                elif ch != ".":
                    raise PositionError(f"position string: bad cell {ch!r} at {SQUARE_NAMES[sq]} (expected c, v or .)")
        if turn_f not in ("c", "v", "-"):
            raise PositionError(f"position string: turn must be c, v or -, got {turn_f!r}")
        placed = []
        for name, text in (("chocolate", p0_f), ("vanilla", p1_f)):
            # isdigit() alone also accepts "²" or "١" (int() refuses the first) and any length
            # (int() refuses more than 4300 digits): only short ASCII decimals are counts.
            if not (text.isascii() and text.isdigit() and len(text) <= 3) or int(text) > n:
                raise PositionError(f"position string: placed count for {name} must be an int in 0..{n}, got {text!r}")
            placed.append(int(text))
        p0, p1 = placed
        if (b0 | b1).bit_count() != p0 + p1:
            raise PositionError(
                f"position string: {(b0 | b1).bit_count()} donuts on the board but {p0}+{p1} placed (each placement adds one donut)"
            )
        if last_f == "-":
            last = -1
            if p0 + p1:
                raise PositionError("position string: last square '-' but donuts have been placed")
        else:
            if last_f not in SQUARE_NAMES:
                raise PositionError(f"position string: last must be a square a1..f6 or -, got {last_f!r}")
            last = SQUARE_NAMES.index(last_f)
            if not (b0 | b1) >> last & 1:
                raise PositionError(f"position string: last square {last_f} is empty")
        if all(_fives(b0, b1)):
            raise PositionError("position string: both colours have five in a row")
        turn = None if turn_f == "-" else COLOR_LETTERS.index(turn_f)
        board._set_state(b0, b1, turn, last, p0, p1)
        if board._outcome is None:
            if turn is None:
                raise PositionError("position string: turn '-' but the game is not over")
            if placed[turn] >= n:
                raise PositionError(f"position string: {COLOR_NAMES[turn]} to move with an empty pool")
        elif turn is not None:
            raise PositionError(f"position string: turn {turn_f!r} but the game is over ({board._outcome.reason})")
        board._root = board._state()
        return board

    def to_text(self) -> str:
        """The state as one line of text (the state API's text form): the :meth:`fen`
        followed by the rules, ``<fen> <insertion> <donuts>``; :meth:`from_text` reads it back."""
        return f"{self.fen()} {self._rules.insertion} {self._rules.donuts}"

    @classmethod
    def from_text(cls, text: str) -> Board:
        """Parse a :meth:`to_text` string.

        Args:
            text: the board's text.

        Raises:
            PositionError: naming the bad field.
        """
        if not isinstance(text, str):
            raise PositionError(f"board text must be a str, got {type(text).__name__}")
        fields = text.split()
        if len(fields) != 8:
            raise PositionError(f"board text needs 8 fields (a position string's 6, then insertion and donuts), got {len(fields)}")
        insertion, donuts = fields[6:]
        if not (donuts.isascii() and donuts.isdigit() and len(donuts) <= 3):
            raise PositionError(f"board text: donuts must be an int, got {donuts!r}")
        try:
            rules = Rules(insertion, int(donuts))
        except RulesError as exc:
            raise PositionError(f"board text: {exc}") from None
        return cls.from_fen(" ".join(fields[:6]), rules)

    def to_dict(self) -> BoardDict:
        """The state as JSON-ready data (the state API's dict form): ``{"fen": ..., "rules":
        ...}``, the :meth:`fen` and :meth:`Rules.to_dict`; :meth:`from_dict` reads it back."""
        return {"fen": self.fen(), "rules": self._rules.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Board:
        """A board from :meth:`to_dict`'s form.

        Args:
            data: the board's data.

        Raises:
            PositionError: naming what is wrong.
        """
        if not isinstance(data, Mapping):
            raise PositionError(f"board dict must be a mapping, got {type(data).__name__}")
        if set(data) != {"fen", "rules"}:
            raise PositionError(f"board dict needs exactly the keys fen and rules, got {', '.join(map(str, data)) or 'none'}")
        if not isinstance(data["rules"], Mapping):
            raise PositionError(f"board dict: rules must be a mapping, got {type(data['rules']).__name__}")
        try:
            rules = Rules.from_dict(data["rules"])
        except RulesError as exc:
            raise PositionError(f"board dict: {exc}") from None
        return cls.from_fen(data["fen"], rules)

    # --- printing ------------------------------------------------------------------
    def __repr__(self) -> str:
        rules = "" if self._rules == Rules() else f", rules={self._rules!r}"
        return f"Board.from_fen({self.fen()!r}{rules})"

    def __str__(self) -> str:
        """Text diagram: donuts as ``c``/``v`` (the last placed in capitals), empty squares
        show their printed line; a status line follows."""
        lines = []
        for rank in range(SIZE - 1, -1, -1):
            cells = []
            for f in range(SIZE):
                sq = square(f, rank)
                if self._b0 >> sq & 1 or self._b1 >> sq & 1:
                    ch = "c" if self._b0 >> sq & 1 else "v"
                    cells.append(ch.upper() if sq == self._last else ch)
                else:
                    cells.append(self._layout.symbol(sq))
            lines.append(f"{rank + 1}  " + "  ".join(cells))
        lines.append("   " + "  ".join(FILE_NAMES))
        n = self._rules.donuts
        pools = f"placed c {self._p0}/{n}, v {self._p1}/{n}"
        if self._outcome is not None:
            status = f"game over: {self._outcome.winner_text()} ({self._outcome.reason})"
        else:
            assert self._turn is not None  # the game goes on, so a side is to move
            status = f"{COLOR_NAMES[self._turn]} to move" + (" (open pick)" if self.is_open_pick() and self._last >= 0 else "")
        last = "-" if self._last < 0 else SQUARE_NAMES[self._last]
        lines.append(f"{status} · last {last} · {pools}")
        return "\n".join(lines)

    def _repr_svg_(self) -> str:
        return board_svg(self._layout.directions, self.bitboards, self.last, self.legal_mask())

    def rgb_array(self) -> NDArray[np.uint8]:
        """The board's picture (that of :meth:`_repr_svg_`) as ``uint8[H, W, 3]`` pixels, for
        video recorders (:func:`donuts_ai.donuts.raster.board_rgb`)."""
        return board_rgb(self._layout.directions, self.bitboards, self.last, self.legal_mask())


#: The Board speaks the state API every game shares (the type checker holds it to the protocol).
_STATE_API: type[GameState] = Board
