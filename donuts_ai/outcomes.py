"""The outcome vocabulary, once: game values, winner codes, end reasons, and their names.

Two kinds of numbers say who won, and they are never mixed:

- a **game value** is for one side, the side to move (or the player of a move): +1
  win, 0 draw, -1 loss (:data:`WIN`, :data:`DRAW`, :data:`LOSS`; ``solve(board).value``,
  ``MoveValue.value``), or :data:`UNKNOWN` where it is not known;
- a **winner code** is by colour, as the engine's kernels return it: 0 Chocolate,
  1 Vanilla, :data:`WINNER_DRAW` (2), or :data:`NO_WINNER_YET` (-1) while the game goes
  on. The Python layer shows a drawn game's winner as ``None`` (``Outcome.winner``).

The codes are defined here, below the games: Donuts' engine
(:mod:`donuts_ai.donuts._kernels.core`) and the tree searches return them unchanged. This
module also holds the value names. Donuts' own words (its end reasons and their codes, its
result strings) are :mod:`donuts_ai.donuts.outcomes`'s. (Colour names are
:data:`donuts_ai.donuts.squares.COLOR_NAMES`.)
"""

from __future__ import annotations

#: Winner code of a game that goes on.
NO_WINNER_YET = -1
#: Winner code of a drawn game (0 / 1 are the players).
WINNER_DRAW = 2

#: Game values, for the side to move (or the player of a move).
WIN, DRAW, LOSS = 1, 0, -1
#: The name of each game value.
VALUE_NAMES = {WIN: "win", DRAW: "draw", LOSS: "loss"}
#: A game value not known: a position the solver did not settle (a dataset's label), a node
#: of a tree search not proven. int8's least value, so that an int8 array of game values
#: holds it; the value the stored datasets hold.
UNKNOWN = -128

__all__ = [
    "DRAW",
    "LOSS",
    "NO_WINNER_YET",
    "UNKNOWN",
    "VALUE_NAMES",
    "WIN",
    "WINNER_DRAW",
    "value_for",
    "value_name",
    "winner_of_code",
]


def value_name(value: int) -> str:
    """``"win"``, ``"draw"`` or ``"loss"`` of a game value.

    Args:
        value: +1, 0 or -1.
    """
    return VALUE_NAMES[value]


def value_for(winner: int | None, side: int) -> int:
    """The game value for ``side`` of a finished game: :data:`WIN`, :data:`DRAW` or :data:`LOSS`.

    Args:
        winner: the winning colour, or ``None`` for a draw.
        side: 0 Chocolate, 1 Vanilla.
    """
    return DRAW if winner is None else WIN if winner == side else LOSS


def winner_of_code(code: int) -> int | None:
    """The Python layer's winner (0, 1 or ``None`` for a draw) of a finished game.

    Args:
        code: an engine winner code.
    """
    return None if code == WINNER_DRAW else int(code)
