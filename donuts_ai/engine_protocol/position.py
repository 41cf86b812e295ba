"""The Donuts Engine Protocol's words for a position: the ``position`` command (written by
the harness from a game's observation, read by an engine into a :class:`~donuts_ai.Board`).
The ``go`` command's grammar, written by the harness and read by our engines, is
:mod:`donuts_ai.tournament.engine_text`.

    position layout -/|\\|/\\-//-\\|\\--/||/-/-\\-\\||\\//|\\\\|/ donuts 15 insertion group moves c3 pass d4

The layout is the 36 line symbols of ranks 6 down to 1, files a to f within each rank,
with no separators (:meth:`~donuts_ai.Layout.to_text` without its line breaks); moves are
square names, ``pass`` a forfeited turn. ``donuts`` and ``insertion`` default to the
official rules (15, ``group``). See docs/engine_protocol.md for the whole protocol.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..donuts.board import Board
from ..donuts.layout import Layout, layout_text
from ..donuts.rules import Rules
from ..donuts.squares import NUM_SQUARES, PASS, SQUARE_NAMES
from ..errors import DonutsError
from ..tournament.engine_text import POSITION, EngineProtocolError

#: The keywords of a ``position`` command after its layout, each followed by its value(s).
POSITION_KEYS = ("donuts", "insertion", "moves")


def position_command(observation: Mapping[str, Any]) -> str:
    """The ``position`` command of a Donuts observation.

    Args:
        observation: what the harness sends an agent process: ``{"layout": text, "rules":
            {"insertion", "donuts"}, "moves": [...]}``, with ``None`` for a forfeited turn.
    """
    layout = "".join(observation["layout"].split())
    rules = observation["rules"]
    words = [POSITION, "layout", layout, "donuts", str(rules["donuts"]), "insertion", rules["insertion"]]
    moves = [PASS if m is None else str(m) for m in observation["moves"]]
    if moves:
        words += ["moves", *moves]
    return " ".join(words)


def board_command(board: Board) -> str:
    """The ``position`` command of ``board`` (its layout, rules and moves).

    Args:
        board: the game.
    """
    rules = board.rules
    return position_command({"layout": board.layout.to_text(), "rules": rules.to_dict(),
                             "moves": board.move_stack})


def parse_position(words: list[str]) -> Board:
    """The Board a ``position`` command's words describe, every move checked.

    Args:
        words: the words after ``position``.

    Raises:
        EngineProtocolError: saying what is wrong.
    """
    if len(words) < 2 or words[0] != "layout":
        raise EngineProtocolError("position needs 'layout <36 symbols>'")
    text = layout_text(words[1])
    if text is None or len(words[1]) != NUM_SQUARES:
        raise EngineProtocolError(f"layout needs 36 symbols of - | / \\ (ranks 6 to 1, files a to f), got {words[1]!r}")
    settings: dict[str, str] = {}
    moves: list[str] = []
    i = 2
    while i < len(words):
        key = words[i]
        if key == "moves":
            moves = words[i + 1:]
            break
        if key not in POSITION_KEYS or i + 1 >= len(words):
            raise EngineProtocolError(f"position: expected one of {', '.join(POSITION_KEYS)} with a value, got {key!r}")
        if key in settings:
            raise EngineProtocolError(f"position: {key} given twice")
        settings[key] = words[i + 1]
        i += 2
    try:
        rules = Rules.from_dict({key: int(value) if key == "donuts" else value for key, value in settings.items()})
        board = Board(Layout.from_text(text), rules)
    except ValueError as exc:
        raise EngineProtocolError(f"position: {exc}") from None
    for ply, move in enumerate(moves, 1):
        try:
            if move == PASS:
                board.forfeit()
            elif move in SQUARE_NAMES:
                board.push(move)
            else:
                raise EngineProtocolError(f"{move!r} is neither a square a1..f6 nor {PASS}")
        except DonutsError as exc:
            raise EngineProtocolError(f"position: move {ply} ({move}): {exc}") from None
    return board
