"""The state API both games speak, written down once: :class:`GameState`.

A game's state is a :class:`~donuts_ai.Board` (Donuts) or a
:class:`~donuts_ai.boxes.BoxesState` (Donut Boxes); both implement this protocol with
python-chess's verbs, so code written against it (a random game, an undo loop, a search
that copies and pushes) runs on either game unchanged:

- ``turn``: the player to move (0, 1, ... ), ``None`` once the game is over;
- ``legal_moves()``: the legal moves as texts, in a fixed order (empty once over);
- ``push(move)``: play a legal move; an illegal move, or any move once the game is over,
  raises a :class:`~donuts_ai.errors.DonutsError` and leaves the state unchanged;
- ``forfeit()``: the player to move gives up its turn (the rulebook's penalty for an
  illegal placement, in Donuts), written ``None`` in ``move_stack``; a game whose rules
  know no forfeited turn (Donut Boxes) raises a :class:`~donuts_ai.errors.DonutsError`
  and changes nothing;
- ``pop()``: undo the last push or forfeit exactly (hidden cards and all), returning its
  move (``None`` for a forfeit); ``IndexError`` when nothing pushed is left to undo;
- ``move_stack``: the moves pushed, oldest first;
- ``is_game_over()`` and ``outcome()`` (``None`` while the game goes on; else a
  :class:`GameOutcome`: ``winner``, ``places``, ``scores`` and ``reason``);
- ``copy()``: an independent copy, undo history included;
- ``to_dict()`` / ``from_dict(data)`` and ``to_text()`` / ``from_text(text)``: the
  state as JSON-ready data and as one line of text, and back.

The protocol is structural (:class:`typing.Protocol`): the classes do not derive from it.
This module imports nothing of the package, so every layer may name it: the tournament
harness plays, checks, forfeits and scores every game through these verbs alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, Self, runtime_checkable


@runtime_checkable
class GameOutcome(Protocol):
    """How a game ended, in the terms both games share."""

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
    """A game in progress or over, with its move history (see the module docstring)."""

    @property
    def turn(self) -> int | None:
        """The player to move; ``None`` once the game is over."""

    def legal_moves(self) -> Sequence[str]:
        """The legal moves' texts in the game's fixed order; empty once the game is over."""

    def push(self, move: str) -> object:
        """Play ``move`` for the player to move (what it returns is the game's own report)."""

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
        """A state from :meth:`to_dict`'s form, checked."""

    def to_text(self) -> str:
        """The state as one line of text (:meth:`from_text` reads it back)."""

    @classmethod
    def from_text(cls, text: str) -> Self:
        """A state from :meth:`to_text`'s form, checked."""
