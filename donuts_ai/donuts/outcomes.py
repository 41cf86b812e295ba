"""Donuts' own outcome words: how a game ends (the engine's end-reason codes and their
names) and the result strings of its game records. The words every game shares (game
values, winner codes) are :mod:`donuts_ai.outcomes`'s."""

from __future__ import annotations

#: How a game of Donuts ended (the engine's end-reason codes).
REASON_FIVE = 0
REASON_GROUP = 1
REASON_MAJORITY = 2
#: The name of each way a game ends (the engine's ``REASON_*`` codes).
REASON_NAMES = {REASON_FIVE: "five", REASON_GROUP: "largest group", REASON_MAJORITY: "majority"}

#: The result string of a finished game by its winner (a colour, or ``None`` for a draw),
#: as game records write it: Chocolate (the first player) is written first.
RESULT_STRINGS = {0: "1-0", 1: "0-1", None: "1/2-1/2"}
#: The result string of a game not finished.
UNFINISHED = "*"
#: Every result string a game record may carry.
RESULTS = (*RESULT_STRINGS.values(), UNFINISHED)


def result_string(winner: int | None) -> str:
    """``"1-0"`` (Chocolate won), ``"0-1"`` or ``"1/2-1/2"`` of a finished game.

    Args:
        winner: the winning colour, or ``None`` for a draw.
    """
    return RESULT_STRINGS[winner]


__all__ = ["REASON_FIVE", "REASON_GROUP", "REASON_MAJORITY", "REASON_NAMES", "RESULTS", "RESULT_STRINGS", "UNFINISHED",
           "result_string"]
