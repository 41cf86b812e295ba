"""The game protocol: what the harness needs to know about a game besides its state.

Tournaments, ratings, the SPRT, results files and the runner depend on this small
interface and on the state API both games speak (:class:`donuts_ai.state.GameState`),
never on a game's internals, so another game plugs in by implementing both and registering
its adapter in :data:`GAMES`. The games of this package live with their rules (Donuts:
:class:`donuts_ai.donuts.game.DonutsGame`; Donut Boxes: :class:`donuts_ai.boxes.game.BoxesGame`)
and are named in :data:`KNOWN_GAMES`: the harness imports one's adapter by its dotted path
when a configuration first names it, and knows nothing else of any game.

**The state plays the game.** :meth:`Game.new_state` returns a
:class:`~donuts_ai.state.GameState`, and the harness drives it through the state's verbs
alone: ``state.turn`` (the player to move, numbered from 0; ``None`` once over),
``state.legal_moves()`` (an agent's answer is legal when its text, :meth:`Game.move_text`,
is one of them: :func:`legal_move`), ``state.push(move)``, ``state.forfeit()``,
``state.move_stack`` (the record's moves) and ``state.outcome()`` (its ``winner``,
``places``, ``scores`` and ``reason``: the record's result). The adapter, this class, keeps
only what a state does not know: set-ups and their text, rules as JSON, the number of
players, how an agent's answer reads as a move, the per-player counts and ledgers, what
agents see (views and observations), and the game's agents.

A game is turn-based between ``num_players(rules)`` players, numbered from 0 (0 moves
first). Two kinds:

- *two-sided* (``FREE_FOR_ALL = False``, Donuts): two sides, a winner or a draw, played in
  colour-swapped pairs, best-of series, or 2v2 team battles (a side's two players
  alternate its turns);
- *free-for-all* (``FREE_FOR_ALL = True``, Donut Boxes): 2 or more players, each for
  themselves; a finished game's outcome gives a place per player (shared places allowed)
  and per-player scores, its ``winner`` the player alone in first place, else ``None``.

Chance is the game's business: the set-up the harness hands to :meth:`Game.new_state`
is drawn from the unit's seed (:meth:`Game.draw_setup`) and may hold the seed of the
game's own random stream (a deal). Agents receive ``player_view(state, player)``
in-process or ``agent_view(observation(state, player))`` in their own process, so what
an agent sees is the game's decision (a game of hidden information sends each player
only what it may know).
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

from ..errors import DonutsError
from ..state import GameState

#: A move as an agent answered it: anything, until :func:`legal_move` finds it one of the
#: state's legal moves (then it is that move's text).
Move: TypeAlias = Any
#: A JSON object as a game writes it (its rules variant, an observation): values of any
#: JSON type, read by the game that wrote them.
JSONObject: TypeAlias = dict[str, Any]
#: A player's counts in a game (``{"insertions": 1}``), summed over its moves.
Stats: TypeAlias = dict[str, int]
#: A score as a game gives it (a whole number, or a fraction).
Score: TypeAlias = int | float


class Game(ABC):
    """A game the harness can run, besides its state (see the module doc). Methods never
    change their arguments unless they say so; bad set-ups or rules raise ``DonutsError``
    subclasses."""

    #: Registry name, written in results files.
    name: str = "game"
    #: Players ranked each for themselves (the outcome's ``places``), rather than two sides.
    FREE_FOR_ALL: bool = False
    #: Whether the rules know a forfeited turn (``state.forfeit()``; the harness's ``illegal="forfeit"``).
    CAN_FORFEIT: bool = True
    #: What a set-up is called in reports ("a fresh deal for every unit").
    SETUP_NAME: str = "set-up"
    #: The names of a player's counts in a game (:meth:`move_stats`), each 0 at the start,
    #: in the order a record writes them.
    STATS: tuple[str, ...] = ()

    # --- set-ups and rules ---------------------------------------------------------------
    @abstractmethod
    def parse_setups(self, spec: str) -> list[Any] | str:
        """Set-ups named by ``spec``: a list of set-ups (the game's own objects or their
        texts, as :meth:`setup_text` takes them), or a word the harness passes to
        :meth:`draw_setup` for a fresh set-up per unit."""

    @abstractmethod
    def draw_setup(self, kind: str, seed: int) -> str:
        """A fresh set-up of ``kind`` (a word :meth:`parse_setups` returned) from ``seed``."""

    @abstractmethod
    def setup_text(self, setup: object) -> str:
        """The text of a set-up given as the game's own object or as text (checked)."""

    @abstractmethod
    def rules_dict(self, rules: object) -> JSONObject:
        """The rules variant as a JSON object (``None``: the official rules), checked."""

    def setups_line(self, setups: Sequence[object] | str, seed: int) -> str:
        """The line of a report that says what the tournament's set-ups were: ``setups``
        is the word :meth:`parse_setups` gave (a fresh draw per unit, from the tournament
        seed ``seed``) or the list of set-up texts."""
        if isinstance(setups, str):
            what = self.SETUP_NAME if setups == "random" else f"{setups} {self.SETUP_NAME}"
            return f"Set-ups: a fresh {what} for every unit, seeded from the tournament seed {seed}"
        return f"Set-ups: {len(setups)} fixed, cycled through"

    # --- players and states --------------------------------------------------------------
    def num_players(self, rules: JSONObject) -> int:
        """How many players a game under ``rules`` (as :meth:`rules_dict` gives them) has.
        Default: 2."""
        return 2

    def with_players(self, rules: JSONObject, players: int) -> JSONObject:
        """``rules`` for a game of ``players`` players (checked). Default: only the
        count the rules already have."""
        if players != self.num_players(rules):
            raise DonutsError(f"{self.name} is a game of {self.num_players(rules)} players, not {players}")
        return rules

    @abstractmethod
    def new_state(self, setup: str, rules: JSONObject) -> GameState:
        """The starting state of a game on the set-up text ``setup`` under ``rules``."""

    def move_text(self, answer: object) -> str | None:
        """What an agent answered, as the state's :meth:`~donuts_ai.state.GameState.legal_moves`
        write a move (Donuts also reads a square's index, or a name in capitals); ``None``
        when it names no move. Never raises. Default: a text as it is, anything else ``None``."""
        return answer if isinstance(answer, str) else None

    # --- counts and scores ---------------------------------------------------------------
    def move_stats(self, report: object) -> Stats:
        """The mover's counts (names from :data:`STATS`) for one move, from what
        ``state.push`` returned for it (the game's own report: Donuts' flipped squares).
        Default: none."""
        return {}

    def final_stats(self, state: GameState, stats: list[Stats]) -> list[Stats]:
        """Every player's counts at the end of the game, given those the harness summed
        from :meth:`move_stats` (each move's counts go to its mover). Default: those."""
        return stats

    def running_scores(self, state: GameState) -> Sequence[Score] | None:
        """Every player's score as ``state`` stands, for the record of a free-for-all game
        stopped before its end (every player but one dropped out); a finished game's are
        its outcome's ``scores``. Default: ``None`` (no scores)."""
        return None

    # --- agents --------------------------------------------------------------------------
    def agent_registry(self) -> Mapping[str, type[Any]]:
        """The agent classes by spec kind (``random``, ``greedy``...) for this game, each
        built from keyword options. Default: none (only ``module:Class`` specs, which
        work for every game)."""
        return {}

    def optional_agents(self) -> Mapping[str, tuple[str, str]]:
        """Agent kinds whose classes need an optional dependency: kind -> (``"module:Class"``,
        the extra of ``pip install 'donuts_ai[extra]'``), imported when a spec names one.
        Default: none."""
        return {}

    @abstractmethod
    def view(self, state: GameState) -> Any:
        """What an in-process agent's ``select_move`` receives (a copy it may change)."""

    def player_view(self, state: GameState, player: int) -> Any:
        """What an in-process agent receives when ``player`` is to move. Default:
        :meth:`view` (a game of perfect information); a game of hidden information
        returns ``agent_view(observation(state, player))``, what a process would get."""
        return self.view(state)

    @abstractmethod
    def observation(self, state: GameState, side: int) -> JSONObject:
        """What an agent process is sent for ``side`` to move: JSON-ready."""

    @abstractmethod
    def agent_view(self, observation: JSONObject) -> Any:
        """In the agent's process: the object ``select_move`` receives for ``observation``."""

    def warm_up(self) -> None:  # noqa: B027 - a default that does nothing, on purpose
        """One-off set-up an agent process does before it says it is ready (load compiled
        code, say), so that it is never charged to a move. Default: nothing."""

    # --- ledgers -------------------------------------------------------------------------
    #: Score ledgers the game knows; the first is the default.
    LEDGERS: tuple[str, ...] = ("rulebook",)

    def ledger_points(self, winner_side: int | None, reason: str, side: int, stats: Stats, ledger: str) -> int:
        """Ledger points of a player of ``side`` with counts ``stats`` in a two-sided game
        that ended so. Default: none (free-for-all games use :meth:`ledger_points_ffa`)."""
        return 0

    def ledger_points_ffa(self, ranking: list[int], scores: Sequence[Score] | None, player: int, stats: Stats,
                          ledger: str) -> Score:
        """Ledger points of ``player`` in a finished free-for-all game (its places, its
        scores, the player's counts). Default: the player's score, else nothing."""
        return 0 if scores is None else scores[player]

    @abstractmethod
    def ledger_text(self, ledger: str) -> str:
        """One line that says how ``ledger`` scores, for reports."""


def legal_move(game: Game, state: GameState, answer: object) -> str | None:
    """``answer`` (anything an agent returned) as the text of a move legal in ``state``
    now (:meth:`Game.move_text`, found among ``state.legal_moves()``), else ``None``.
    Never raises: whatever an agent returned, a move that cannot be read is not legal."""
    try:
        text = game.move_text(answer)
    except Exception:  # a game's reading of an odd object: not a move
        return None
    return text if text is not None and text in state.legal_moves() else None


#: The games known by name: those :func:`register` was given, and the games of
#: :data:`KNOWN_GAMES` once first named.
GAMES: dict[str, Game] = {}
#: The games of this package, which live outside the harness, by name -> ``"module:name"``
#: of the game's adapter object, imported the first time a configuration names the game;
#: filled by the package root (``donuts_ai/__init__.py``), as the harness names no game.
#: Importing a game's module registers nothing: the harness takes the adapter from here.
KNOWN_GAMES: dict[str, str] = {}


def game_named(game: Game | str) -> Game:
    """``game`` itself, or the registered game of that name (:func:`get_game`). Every
    caller names its game: the harness has no game of its own."""
    if isinstance(game, Game):
        return game
    return get_game(game)


def register(game: Game) -> Game:
    """Make ``game`` known to the harness by its name (a game of one's own: call it once,
    before naming the game; a configuration's ``game_module`` is imported for this)."""
    GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    """The registered game of that name (importing it first if it is a :data:`KNOWN_GAMES` one)."""
    if name not in GAMES and name in KNOWN_GAMES:
        module, _, attribute = KNOWN_GAMES[name].partition(":")
        try:
            GAMES[name] = getattr(importlib.import_module(module), attribute)
        except (ImportError, AttributeError) as exc:
            raise DonutsError(f"game {name!r} cannot be loaded: {exc}") from None
    if name not in GAMES:
        known = [*GAMES, *(n for n in KNOWN_GAMES if n not in GAMES)]
        raise DonutsError(f"unknown game {name!r}; expected one of {', '.join(known)}")
    return GAMES[name]
