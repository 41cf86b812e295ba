"""Donut Boxes as a :class:`~donuts_ai.game.Game` (the contract every front end reads),
registered as ``"boxes"``: a free-for-all of 2 to 10 players with shuffled decks and hidden trays.

- **Set-up**: a deal, written as its seed (``"123"``). ``random`` (the default) draws a
  fresh deal for every unit from the tournament's seed; ``deal:SEED[:COUNT]`` is COUNT deals
  drawn from SEED, and ``7,8,9`` names deals. A unit's games (a table in all its seat
  rotations) share their deal, so every agent at the table plays every seat's cards.
- **Rules**: :class:`BoxesRules` as a JSON object; the harness's ``players`` sets ``players``.
- **Agents** receive the observation of the player to move (:meth:`BoxesState.observation`)
  and answer a move text; kinds are :data:`donuts_ai.boxes.agents.AGENTS`.
- **Result**: the state's outcome (:class:`~.state.BoxesOutcome`): places (score, then boxes
  delivered), scores and a reason (``score``, ``boxes``, ``shared win``).
- **Ledger** ``points``: each game's final score; the report also sums every player's
  ``boxes`` delivered, ``cards`` placed and runs ``sealed``.
- No turn is forfeited: ``illegal="forfeit"`` is refused; an agent that fails drops out,
  ranked last, and the harness plays its turns with random legal moves.
"""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING, Any, cast

from .._checks import is_int
from ..errors import DonutsError, InvalidMoveError
from ..game import Game, register_game
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


class BoxesGame(Game[BoxesState]):
    """Donut Boxes through the game contract (see the module doc)."""

    name = "boxes"
    #: ``make("boxes", ...)``'s settings (:meth:`make`).
    SETTINGS = ("players", "grid", "matching", "closers", "rules", "seed")
    FREE_FOR_ALL = True
    #: Each player's hand is hidden from the others.
    PERFECT_INFORMATION = False
    SETUP_NAME = "deal"
    #: ``cards`` placed and runs ``sealed`` by a player's moves (from what a push reports),
    #: then ``boxes`` delivered to it (:meth:`final_stats`).
    STATS = ("cards", "sealed")
    #: ``points``: the ledger counts each game's final score.
    LEDGERS = ("points",)

    # --- set-ups and rules -----------------------------------------------------------
    def make(self, players: int | None = None, grid: str | None = None, matching: str | None = None,  # type: ignore[override]
             closers: bool | None = None, rules: object = None, seed: int = 0) -> BoxesState:
        """A new game of Donut Boxes: ``make("boxes", players=3, seed=1)``.

        Args:
            players: 2..10 (default 2).
            grid: ``"squared"`` (the default) or ``"splitzkies"``.
            matching: ``"one"`` (the default) or ``"perfect"``.
            closers: Coffee's For Closers (default ``False``).
            rules: a :class:`~donuts_ai.boxes.BoxesRules` instead of the four settings above.
            seed: the deal: every deck is shuffled from it.

        Returns:
            The :class:`~donuts_ai.boxes.BoxesState`.

        Raises:
            DonutsError: both ``rules`` and a setting given.
            BoxesRulesError: a bad setting.
        """
        given = {k: v for k, v in {"players": players, "grid": grid, "matching": matching, "closers": closers}.items()
                 if v is not None}
        if rules is not None and given:
            raise DonutsError(f"make('boxes'): give rules or {', '.join(given)}, not both")
        return BoxesState(BoxesRules(**given) if rules is None else rules, seed)  # type: ignore[arg-type]  # checked there

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
            from .agents import AGENTS
        except ImportError as exc:
            raise DonutsError(f"the Donut Boxes agents cannot be loaded ({exc}); module:Class specs still work") from None
        return AGENTS

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

    def final_stats(self, state: BoxesState, stats: list[dict[str, int]]) -> list[dict[str, int]]:
        boxes = state.boxes_delivered
        return [{**s, "boxes": boxes[p]} for p, s in enumerate(stats)]

    def running_scores(self, state: BoxesState) -> list[int]:
        return state.scores

    # --- agents ----------------------------------------------------------------------
    def observation(self, state: BoxesState, player: int) -> dict[str, Any]:
        return dict(state.observation(player))

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
    # The ledger's points are the game's own scores: the contract's default ledger_points.
    def ledger_text(self, ledger: str) -> str:
        return ("points: every game's final score; boxes: boxes delivered (sealed or boxed early); "
                "cards: cards placed; sealed: runs a player's moves sealed, whoever scored them")


#: Donut Boxes in the table of games (:func:`donuts_ai.game.get_game`).
BOXES = register_game(BoxesGame())
