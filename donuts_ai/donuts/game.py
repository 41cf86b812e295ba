"""Donuts, the board game, as a :class:`~donuts_ai.game.Game` (the contract every front end
reads), beside Donut Boxes' (:mod:`donuts_ai.boxes.game`); registered as ``"donuts"``.

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

from ..errors import DonutsError
from ..game import Ending, Game, JSONObject, register_game
from .agents import AGENTS, OPTIONAL_AGENTS
from .board import Board, Termination
from .errors import LayoutError, RulesError
from .layout import Layout, fresh_layout, parse_layout_spec
from .rules import Rules, make_rules
from .squares import SQUARE_NAMES, parse_square

if TYPE_CHECKING:
    from ..agents.registry import LazyRegistry
    from .agents.donuts_agent import DonutsAgent

#: Insertions in one game that earn a player the ledger's bonus point.
INSERTION_BONUS_AT = 3
FIVE_POINTS, BOARD_WIN_POINTS, INSERTION_POINTS = 3, 2, 1


class DonutsGame(Game[Board]):
    """Donuts through the game contract (see the module doc)."""

    name = "donuts"
    #: ``make("donuts", ...)``'s settings (:meth:`make`).
    SETTINGS = ("layout", "rules", "insertion", "donuts", "seed")
    #: A player's insertions (placements that flipped donuts), which the ledgers reward.
    STATS = ("insertions",)
    #: ``rulebook``: +3 a five, +2 majority control of a full board, +1 for 3+ insertions;
    #: ``end-win``: +2 for any win at the end (largest group too) instead.
    LEDGERS = ("rulebook", "end-win")
    #: The rulebook's penalty for an illegal placement: the turn is lost.
    CAN_FORFEIT = True

    def __init__(self) -> None:
        self._seen: tuple[tuple[str, str], Board] | None = None  # (key, Board) of the last agent_view, in an agent process

    def make(self, layout: object = "standard", rules: object = None, insertion: str | None = None,  # type: ignore[override]
             donuts: int | None = None, seed: int | None = None) -> Board:
        """A :class:`~donuts_ai.Board`: ``layout`` (a :class:`~donuts_ai.Layout` or a layout
        spec: ``"standard"``, the default, ``"random:3"``, ``"grid:5"``, a layout's text;
        ``"random"`` draws one from ``seed``) under ``rules`` (a :class:`~donuts_ai.Rules`,
        a rule name or a rules dict) or ``insertion`` / ``donuts`` alone."""
        if rules is not None and insertion is not None:
            raise DonutsError("make('donuts'): give rules or insertion, not both")
        chosen = make_rules(insertion if rules is None else rules, donuts)  # type: ignore[arg-type]  # make_rules checks it
        return Board(Layout.from_spec(layout, seed), chosen)  # type: ignore[arg-type]  # from_spec checks it

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

    def agent_registry(self) -> LazyRegistry[type[DonutsAgent]]:
        return AGENTS

    def optional_agents(self) -> Mapping[str, tuple[str, str]]:
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

    def player_view(self, state: Board, player: int) -> Board:
        return state.copy()  # perfect information: the agent gets the whole Board, to change at will

    def observation(self, state: Board, player: int) -> JSONObject:
        board = state
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

    def ledger_points(self, ending: Ending, player: int, stats: dict[str, int], ledger: str) -> int:
        points = INSERTION_POINTS if stats.get("insertions", 0) >= INSERTION_BONUS_AT else 0
        if ending.winner is not None and player == ending.winner:
            points += win_points(ending.reason, ledger)
        return points

    def ledger_text(self, ledger: str) -> str:
        board_win = "+2 majority of a full board" if ledger == "rulebook" else "+2 any win at the end"
        return f"+3 five, {board_win}, +1 for {INSERTION_BONUS_AT}+ insertions in a game"


def win_points(reason: str, ledger: str = "rulebook") -> int:
    """Ledger points for winning a game that ended by ``reason`` (adjudicated wins: none)."""
    if reason == Termination.FIVE:
        return FIVE_POINTS
    if reason == Termination.MAJORITY or (ledger == "end-win" and reason == Termination.LARGEST_GROUP):
        return BOARD_WIN_POINTS
    return 0


#: Donuts in the table of games (:func:`donuts_ai.game.get_game`).
DONUTS = register_game(DonutsGame())
