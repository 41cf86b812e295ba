"""The state API every game speaks, written down once: :class:`GameState`.

A game's state (:class:`~donuts_ai.Board`, :class:`~donuts_ai.boxes.BoxesState`,
:class:`~donuts_ai.connect_four.ConnectFourState`) implements this protocol with python-chess's verbs,
so code written against it (a random game, an undo loop, a search that copies and pushes)
runs on any game unchanged: ``turn``, ``legal_moves()``, ``push(move)``, ``forfeit()``,
``pop()``, ``move_stack``, ``is_game_over()``, ``outcome()`` (a :class:`GameOutcome`),
``copy()``, and ``to_dict()`` / ``from_dict(data)`` and ``to_text()`` / ``from_text(text)``.
An illegal move, or any move once the game is over, raises a
:class:`~donuts_ai.errors.DonutsError` and leaves the state unchanged.

The protocol is structural (:class:`typing.Protocol`): the classes do not derive from it.
This module imports nothing of the package but its errors, so every layer may name it: the
tournament harness and the generic searches play, check, forfeit and score every game
through these verbs alone.

A game of one's own may derive its state from :class:`BaseState`, which writes the
protocol from five members (``turn``, ``legal_moves()``, ``apply(move)``, ``undo(move)``
and ``outcome()``), and end its games with a :class:`GameEnd` (``GameEnd.win(0)``,
``GameEnd.draw()``).
"""

from __future__ import annotations

import copy as _copy
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self, runtime_checkable

from .errors import GameError, GameOverError, IllegalMoveError


@runtime_checkable
class GameOutcome(Protocol):
    """How a game ended, in the terms every game shares."""

    @property
    def winner(self) -> int | None:
        """The one player who won; ``None`` for a draw or a shared first place."""

    @property
    def places(self) -> Sequence[int]:
        """Each player's place, in player order: 0 first, players sharing a place get the
        same number, counted as competition places (``(0, 0, 2)``: a shared first place,
        then third; a two-player draw ``(0, 0)``)."""

    @property
    def scores(self) -> Sequence[int] | None:
        """Each player's score at the end, in player order (``None`` where the end has none)."""

    @property
    def reason(self) -> str:
        """How the game ended, in the game's words (Donuts: ``"five"``, ``"majority"``,
        ``"largest group"``; Donut Boxes: ``"score"``, ``"boxes"``, ``"shared win"``)."""


@runtime_checkable
class GameState(Protocol):
    """A game in progress or over, with its move history: the verbs every game's state speaks."""

    @property
    def turn(self) -> int | None:
        """The player to move; ``None`` once the game is over."""

    def legal_moves(self) -> Sequence[str]:
        """The legal moves' texts in the game's fixed order; empty once the game is over."""

    def push(self, move: str) -> object:
        """Play ``move`` for the player to move.

        Args:
            move: a legal move's text.

        Returns:
            The game's own report of the move.

        Raises:
            DonutsError: an illegal move, or any move once the game is over (the state unchanged).
        """

    def forfeit(self) -> None:
        """The player to move forfeits its turn (``None`` in :attr:`move_stack`); raises a
        ``DonutsError`` when the game's rules know no forfeited turn."""

    def pop(self) -> str | None:
        """Undo the last push (or forfeit) and return its move (``None`` for a forfeit)."""

    def is_game_over(self) -> bool:
        """Whether the game is over."""

    def outcome(self) -> GameOutcome | None:
        """``None`` while the game goes on, else how it ended."""

    @property
    def move_stack(self) -> Sequence[str | None]:
        """The moves pushed, oldest first."""

    def copy(self) -> Self:
        """An independent copy, undo history included."""

    def to_dict(self) -> Mapping[str, Any]:
        """The whole state as JSON-ready data (:meth:`from_dict` reads it back)."""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """A state from :meth:`to_dict`'s form, checked.

        Args:
            data: the state's data.
        """

    def to_text(self) -> str:
        """The state as one line of text (:meth:`from_text` reads it back)."""

    @classmethod
    def from_text(cls, text: str) -> Self:
        """A state from :meth:`to_text`'s form, checked.

        Args:
            text: the state's text.
        """



@dataclass(frozen=True)
class GameEnd:
    """How a game ended (a :class:`GameOutcome`), for a game of one's own: build it with
    :meth:`win` or :meth:`draw` (or give ``places`` and ``scores`` of a free-for-all game).

    Attributes:
        winner: the winning player, or ``None`` (a draw, or no single winner).
        places: each player's competition place (0 first; ``(0, 0, 2)``: a shared first place).
        reason: how the game ended, in the game's words.
        scores: each player's score, when the game keeps one.
    """

    winner: int | None
    places: tuple[int, ...]
    reason: str
    scores: tuple[int, ...] | None = None

    @classmethod
    def win(cls, player: int, players: int = 2, reason: str = "win") -> GameEnd:
        """``player`` won alone; every other player shares second place.

        Args:
            player: the winner.
            players: the players in the game.
            reason: how the game ended.
        """
        return cls(player, tuple(0 if p == player else 1 for p in range(players)), reason)

    @classmethod
    def draw(cls, players: int = 2, reason: str = "draw") -> GameEnd:
        """A draw: every player shares first place.

        Args:
            players: the players in the game.
            reason: how the game ended.
        """
        return cls(None, (0,) * players, reason)


class BaseState(ABC):
    """The state protocol written from five members a game writes: ``turn`` (a property),
    ``legal_moves()``, ``apply(move)`` (play a legal move, already checked), ``undo(move)``
    (take back the last move, exactly) and ``outcome()`` (``None``, else a :class:`GameEnd`).

    The rest it writes: ``push`` checks the move and keeps ``move_stack``; ``pop`` undoes;
    ``copy`` is a deep copy; ``to_dict``/``to_text`` write the set-up and the moves, and
    ``from_dict``/``from_text`` replay them on ``cls(setup)`` (override the four where the
    constructor takes more); ``forfeit`` raises (no forfeited turn).

    Args:
        setup: the set-up text the game starts from (``""``: the start position); a subclass's
            ``__init__`` calls ``super().__init__(setup)``.
    """

    def __init__(self, setup: str = "") -> None:
        #: The set-up this game started from (``""``: the start position).
        self.setup = setup
        #: The moves pushed, oldest first.
        self.move_stack: list[str | None] = []

    @property
    @abstractmethod
    def turn(self) -> int | None:
        """The player to move; ``None`` once the game is over."""

    @abstractmethod
    def legal_moves(self) -> Sequence[str]:
        """The legal moves' texts in the game's fixed order; empty once the game is over."""

    @abstractmethod
    def apply(self, move: str) -> object:
        """Play ``move`` for the player to move.

        Args:
            move: a legal move (:meth:`push` checked it).

        Returns:
            What :meth:`push` returns (the game's own report of the move, if any).
        """

    @abstractmethod
    def undo(self, move: str) -> None:
        """Take back the last move played, leaving the state exactly as before it.

        Args:
            move: that move.
        """

    @abstractmethod
    def outcome(self) -> GameOutcome | None:
        """``None`` while the game goes on, else how it ended (a :class:`GameEnd`)."""

    def push(self, move: str) -> object:
        """Play ``move`` for the player to move, checked (the state is unchanged when it is refused).

        Args:
            move: the move's text.

        Returns:
            What :meth:`apply` returns.

        Raises:
            IllegalMoveError: a move not legal now, naming the legal ones.
            GameOverError: the game is over.
        """
        legal = self.legal_moves()
        if move not in legal:
            if not legal:
                raise GameOverError(f"no move is legal: the game is over, got {move!r}")
            raise IllegalMoveError(f"illegal move {move!r}; legal: {', '.join(legal)}")
        report = self.apply(move)
        self.move_stack.append(move)
        return report

    def pop(self) -> str | None:
        """Undo the last push and return its move (``IndexError`` when none is left)."""
        if not self.move_stack:
            raise IndexError("pop from an empty move stack")
        move = self.move_stack.pop()
        if move is not None:
            self.undo(move)
        return move

    def forfeit(self) -> None:
        """Refused: the game knows no forfeited turn (a game that does overrides it)."""
        raise GameError(f"{type(self).__name__} has no forfeited turn")

    def is_game_over(self) -> bool:
        """Whether the game is over."""
        return self.outcome() is not None

    def copy(self) -> Self:
        """An independent copy, undo history included."""
        return _copy.deepcopy(self)

    def to_dict(self) -> dict[str, Any]:
        """``{"setup": ..., "moves": [...]}``: the set-up and the moves since."""
        return {"setup": self.setup, "moves": list(self.move_stack)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The state of :meth:`to_dict`'s form: ``cls(setup)`` with the moves replayed, checked.

        Args:
            data: ``{"setup": ..., "moves": [...]}``.
        """
        if not isinstance(data, Mapping) or set(data) != {"setup", "moves"} or not isinstance(data["setup"], str) \
                or not isinstance(data["moves"], list):
            raise GameError(f"a {cls.__name__} is a dict of 'setup' (text) and 'moves' (a list), got {data!r}")
        state = cls(data["setup"])  # the documented constructor: the set-up text
        for move in data["moves"]:
            state.push(move)
        return state

    def to_text(self) -> str:
        """:meth:`to_dict` as one line of JSON."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_text(cls, text: str) -> Self:
        """The state of :meth:`to_text`'s form, checked.

        Args:
            text: the state's text.
        """
        try:
            data = json.loads(text)
        except (TypeError, ValueError):
            raise GameError(f"a {cls.__name__}'s text is one line of JSON, got {text!r}") from None
        return cls.from_dict(data)
