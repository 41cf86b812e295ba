"""Donut Boxes as the tournament harness sees it (:class:`~donuts_ai.tournament.protocol.Game`):
a free-for-all game of 2 to 10 players with a shuffled deck and hidden trays.

- **Set-up**: a deal, written as its seed (``"123"``): every deck is shuffled from it
  (``BoxesState(rules, seed)``). ``random`` (the default) draws a fresh deal for every unit
  from the tournament's seed; ``deal:SEED[:COUNT]`` is COUNT deals (default 1) drawn
  from SEED, and ``7,8,9`` names deals. The games of one unit (a table in all its seat
  rotations) share their deal, so every agent at the table plays every seat's cards.
- **Rules**: :class:`BoxesRules` as a JSON object (``players``, ``grid``, ``matching``,
  ``closers``); the harness's ``players`` sets ``players``.
- **Agents** receive the *observation* of the player to move
  (:meth:`BoxesState.observation`, a JSON dict: the layout, scores, pile and tray sizes,
  their own tray, the moves with others' stuck moves hidden), in-process and in an agent
  process alike, and answer a move text (:meth:`BoxesState.legal_moves`).
  :meth:`BoxesState.from_observation` samples a full state consistent with it (a
  determinisation). Agent kinds are :data:`donuts_ai.boxes.agents.BOXES_AGENTS`.
- **Result**: the state's outcome (:class:`~.state.BoxesOutcome`): its places (score,
  then boxes delivered; equal on both share a place), its scores and its reason:
  ``score`` (first place alone on points), ``boxes`` (points tied at the top, boxes
  delivered decided), ``shared win``. An agent answers a move's text.
- **Ledger** ``points``: each game's final score; the report also sums every player's
  ``boxes`` (delivered, sealed or boxed early), ``cards`` placed and ``sealed`` (runs
  their moves sealed, whoever scored them).
- Boxes has no forfeited turn: the harness's ``illegal="forfeit"`` is refused; an agent
  that fails (illegal move, exception, time, crash) drops out, ranked last, and the
  harness plays its turns with random legal moves while the others play on.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from .._checks import is_int
from ..errors import DonutsError, InvalidMoveError
from ..state import GameState
from ..tournament.protocol import Game
from .errors import BoxesError
from .moves import move_text, parse_move
from .rules import BoxesRules
from .state import BoxesState, PlayResult

if TYPE_CHECKING:
    from ..agents.registry import LazyRegistry
    from .agents import BoxesAgent

#: The largest deal seed a set-up may name (seeds are non-negative).
MAX_DEAL_SEED = 2**62 - 1
#: Moves a fresh agent process plays in :meth:`BoxesGame.warm_up` to load the rules' code.
WARM_UP_MOVES = 4


class BoxesGame(Game):
    """Donut Boxes through the harness protocol (see the module doc)."""

    name = "boxes"
    FREE_FOR_ALL = True
    CAN_FORFEIT = False
    SETUP_NAME = "deal"
    #: ``cards`` placed and runs ``sealed`` by a player's moves (from what a push reports),
    #: then ``boxes`` delivered to it (:meth:`final_stats`).
    STATS = ("cards", "sealed")
    #: ``points``: the ledger counts each game's final score.
    LEDGERS = ("points",)

    # --- set-ups and rules -----------------------------------------------------------
    def parse_setups(self, spec: str) -> list[str] | str:
        if not isinstance(spec, str) or not spec.strip():
            raise DonutsError(f"boxes set-ups: expected random, deal:SEED[:COUNT] or deal seeds like 7,8,9, got {spec!r}")
        spec = spec.strip()
        if spec == "random":
            return spec
        if spec.startswith("deal:"):
            parts = spec.split(":")[1:]
            try:
                seed = int(parts[0])
                count = int(parts[1]) if len(parts) > 1 else 1
                if len(parts) > 2 or count < 1:
                    raise ValueError
            except (ValueError, IndexError):
                raise DonutsError(f"boxes set-ups: expected deal:SEED[:COUNT] with COUNT >= 1, got {spec!r}") from None
            rng = random.Random(seed)
            return [str(rng.getrandbits(62)) for _ in range(count)]
        return [self.setup_text(x) for x in spec.split(",")]

    def draw_setup(self, kind: str, seed: int) -> str:
        return str(seed % (MAX_DEAL_SEED + 1))

    def setup_text(self, setup: object) -> str:
        seed: object
        try:
            seed = int(setup.strip()) if isinstance(setup, str) else setup
        except ValueError:
            seed = None
        if not is_int(seed) or not 0 <= int(seed) <= MAX_DEAL_SEED:
            raise DonutsError(f"a boxes set-up is a deal seed 0..{MAX_DEAL_SEED}, got {setup!r}")
        return str(int(seed))

    def rules_dict(self, rules: object) -> dict[str, Any]:
        try:
            if rules is None:
                rules = BoxesRules()
            elif isinstance(rules, dict):
                rules = BoxesRules.from_dict(rules)
            if not isinstance(rules, BoxesRules):
                raise DonutsError(f"boxes rules must be a BoxesRules or a dict, got {type(rules).__name__}")
        except BoxesError as exc:
            raise DonutsError(f"boxes rules: {exc}") from None
        return dict(rules.to_dict())

    def num_players(self, rules: dict[str, Any]) -> int:
        players: int = rules["players"]
        return players

    def with_players(self, rules: dict[str, Any], players: int) -> dict[str, Any]:
        return self.rules_dict({**rules, "players": players})

    def agent_registry(self) -> LazyRegistry[type[BoxesAgent]]:
        try:
            from .agents import BOXES_AGENTS
        except ImportError as exc:
            raise DonutsError(f"the Donut Boxes agents cannot be loaded ({exc}); module:Class specs still work") from None
        return BOXES_AGENTS

    # --- playing ---------------------------------------------------------------------
    def new_state(self, setup: str, rules: dict[str, Any]) -> BoxesState:
        return BoxesState(BoxesRules.from_dict(rules), int(setup))

    def move_text(self, answer: object) -> str | None:
        if not isinstance(answer, str):
            return None
        try:
            return move_text(parse_move(answer))  # the canonical text of the move it names
        except InvalidMoveError:
            return None

    def move_stats(self, report: object) -> dict[str, int]:
        # The mover's own counts; boxes and points can go to others, so final_stats reads them.
        counts = cast(PlayResult, report)
        return {"cards": int(counts.get("cards", 0)), "sealed": int(counts.get("sealed", 0))}

    def final_stats(self, state: GameState, stats: list[dict[str, int]]) -> list[dict[str, int]]:
        boxes = _boxes(state).boxes_delivered
        return [{**s, "boxes": boxes[p]} for p, s in enumerate(stats)]

    def running_scores(self, state: GameState) -> list[int]:
        return _boxes(state).scores

    # --- agents ----------------------------------------------------------------------
    def view(self, state: GameState) -> BoxesState:
        """The whole state (hidden parts included): only for code that may see it all."""
        return _boxes(state).copy()

    def player_view(self, state: GameState, player: int) -> dict[str, Any]:
        return self.agent_view(self.observation(state, player))

    def observation(self, state: GameState, player: int) -> dict[str, Any]:
        return dict(_boxes(state).observation(player))

    def agent_view(self, observation: dict[str, Any]) -> dict[str, Any]:
        view: dict[str, Any] = json.loads(json.dumps(observation))  # the agent's own copy, as a process would get it
        return view

    def warm_up(self) -> None:
        """Load the rules' compiled code, and the agents' (:func:`donuts_ai.boxes.agents.warm_up`),
        before an agent process says it is ready: never charged to a move."""
        state = BoxesState(BoxesRules(), 0)
        for _ in range(WARM_UP_MOVES):
            if state.is_game_over():
                break
            state.push(state.legal_moves()[0])
        BoxesState.from_observation(state.observation(0), 0)
        try:
            from .agents import warm_up as warm_up_agents
        except ImportError:  # the agents' module is optional to the harness: module:Class agents need none
            return
        warm_up_agents()

    # --- scores ----------------------------------------------------------------------
    def ledger_points_ffa(self, ranking: list[int], scores: Sequence[int | float] | None, player: int,
                          stats: dict[str, int], ledger: str) -> int | float:
        assert scores is not None  # Boxes always gives scores (:meth:`scores`)
        return scores[player]

    def ledger_text(self, ledger: str) -> str:
        return ("points: every game's final score; boxes: boxes delivered (sealed or boxed early); "
                "cards: cards placed; sealed: runs a player's moves sealed, whoever scored them")


def _boxes(state: GameState) -> BoxesState:
    """The harness's state of a game of Donut Boxes: the state :meth:`BoxesGame.new_state` made."""
    assert isinstance(state, BoxesState), type(state)
    return state


#: The adapter the harness takes by name (:data:`~donuts_ai.tournament.protocol.KNOWN_GAMES`).
BOXES = BoxesGame()
