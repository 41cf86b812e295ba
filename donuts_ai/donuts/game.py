"""Donuts, the board game, as the tournament harness sees it
(:class:`~donuts_ai.tournament.protocol.Game`), beside Donut Boxes' (:mod:`donuts_ai.boxes.game`).

The set-up is a layout (its text), the rules a :class:`~donuts_ai.Rules` as a JSON
object, the state a :class:`~donuts_ai.Board`, which the harness plays through its state
API (a forfeited turn is ``Board.forfeit()``); an agent may answer a square's name or its
index. Agents get a copy of the Board; an agent
process gets the layout, the rules and the moves and rebuilds the Board, pushing only
the moves it has not seen yet. Agent kinds are :data:`donuts_ai.donuts.agents.AGENTS` and
:data:`donuts_ai.donuts.agents.OPTIONAL_AGENTS`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..errors import LayoutError, RulesError
from ..state import GameState
from ..tournament.protocol import Game, JSONObject
from .agents import AGENTS, OPTIONAL_AGENTS
from .board import Board, Termination
from .layout import Layout, fresh_layout, parse_layout_spec
from .rules import Rules, make_rules
from .squares import SQUARE_NAMES, parse_square

if TYPE_CHECKING:
    from ..agents.registry import LazyRegistry
    from .agents.board_agent import BoardAgent

#: Insertions in one game that earn a player the ledger's bonus point.
INSERTION_BONUS_AT = 3
FIVE_POINTS, BOARD_WIN_POINTS, INSERTION_POINTS = 3, 2, 1


class DonutsGame(Game):
    """Donuts through the harness protocol (see the module doc)."""

    name = "donuts"
    #: A player's insertions (placements that flipped donuts), which the ledgers reward.
    STATS = ("insertions",)
    #: ``rulebook``: +3 a five, +2 majority control of a full board, +1 for 3+ insertions;
    #: ``end-win``: +2 for any win at the end (largest group too) instead.
    LEDGERS = ("rulebook", "end-win")

    def __init__(self) -> None:
        self._seen: tuple[tuple[str, str], Board] | None = None  # (key, Board) of the last agent_view, in an agent process

    def parse_setups(self, spec: str) -> list[Layout] | str:
        return parse_layout_spec(spec)

    def draw_setup(self, kind: str, seed: int) -> str:
        return fresh_layout(kind, seed).to_text()

    def setup_text(self, setup: object) -> str:
        if isinstance(setup, Layout):
            return setup.to_text()
        if isinstance(setup, str):
            return Layout.from_text(setup).to_text()
        raise LayoutError(f"a Donuts set-up is a Layout or its text, got {type(setup).__name__}")

    def rules_dict(self, rules: object) -> JSONObject:
        if not (rules is None or isinstance(rules, Rules | str | Mapping)):
            raise RulesError(f"rules must be a Rules, an insertion rule name or a mapping, got {type(rules).__name__}")
        checked = make_rules(rules)
        return dict(checked.to_dict())

    def setups_line(self, setups: Sequence[object] | str, seed: int) -> str:
        if isinstance(setups, str):
            what = "tile arrangement" if setups == "random" else "random direction grid"
            return f"Layouts: a freshly drawn {what} for every unit (seeded from the tournament seed {seed})"
        return f"Layouts: {len(setups)} fixed, cycled through"

    def agent_registry(self) -> LazyRegistry[type[BoardAgent]]:
        return AGENTS

    def optional_agents(self) -> dict[str, tuple[str, str]]:
        return OPTIONAL_AGENTS

    def new_state(self, setup: str, rules: JSONObject) -> Board:
        return Board(Layout.from_text(setup), Rules.from_dict(rules))

    def move_text(self, answer: object) -> str | None:
        try:
            return SQUARE_NAMES[parse_square(answer)]  # a name in any case, or a square's index
        except ValueError:
            return None

    def move_stats(self, report: object) -> dict[str, int]:
        # Board.push reports the squares it flipped: a move that flips is an insertion.
        return {"insertions": 1 if report else 0}

    def view(self, state: GameState) -> Board:
        return _board(state).copy()

    def observation(self, state: GameState, side: int) -> JSONObject:
        board = _board(state)
        return {"layout": board.layout.to_text(), "rules": self.rules_dict(board.rules), "moves": board.move_stack}

    def agent_view(self, observation: JSONObject) -> Board:
        key = (observation["layout"], json.dumps(observation["rules"], sort_keys=True))
        moves = observation["moves"]
        board = None if self._seen is None or self._seen[0] != key else self._seen[1]
        if board is None or board.move_stack != moves[: board.ply]:
            board = Board(Layout.from_text(observation["layout"]), Rules.from_dict(observation["rules"]))
        for move in moves[board.ply :]:
            if move is None:
                board.forfeit()
            else:
                board.push(move)
        self._seen = (key, board)
        return board.copy()

    def warm_up(self) -> None:
        # A Board and a move load the rule kernels (from Numba's cache, or compile them).
        board = Board()
        board.push(board.legal_moves()[0])

    def ledger_points(self, winner_side: int | None, reason: str, side: int, stats: dict[str, int], ledger: str) -> int:
        points = INSERTION_POINTS if stats.get("insertions", 0) >= INSERTION_BONUS_AT else 0
        if winner_side is not None and side == winner_side:
            points += win_points(reason, ledger)
        return points

    def ledger_text(self, ledger: str) -> str:
        board_win = "+2 majority of a full board" if ledger == "rulebook" else "+2 any win at the end"
        return f"+3 five, {board_win}, +1 for {INSERTION_BONUS_AT}+ insertions in a game"


def _board(state: GameState) -> Board:
    """The harness's state of a Donuts game: the Board :meth:`DonutsGame.new_state` made."""
    assert isinstance(state, Board), type(state)
    return state


def win_points(reason: str, ledger: str = "rulebook") -> int:
    """Ledger points for winning a game that ended by ``reason`` (adjudicated wins: none)."""
    if reason == Termination.FIVE:
        return FIVE_POINTS
    if reason == Termination.MAJORITY or (ledger == "end-win" and reason == Termination.LARGEST_GROUP):
        return BOARD_WIN_POINTS
    return 0


#: The adapter the harness takes by name (:data:`~donuts_ai.tournament.protocol.KNOWN_GAMES`).
DONUTS = DonutsGame()
