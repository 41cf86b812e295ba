"""The game protocol: everything the harness needs to know about a game.

Tournaments, ratings, the SPRT, results files and the runner depend on this small
interface, never on a game's internals, so another game plugs in by implementing it
and registering itself in :data:`GAMES`. The games of this package live with their rules
(Donuts: :class:`donuts_ai.donuts.game.DonutsGame`; Donut Boxes:
:class:`donuts_ai.boxes.game.BoxesGame`) and are named in :data:`KNOWN_GAMES`: the harness
imports one by its module's dotted path when a configuration first names it, and knows
nothing else of any game.

A game is turn-based between ``num_players(rules)`` players, numbered from 0 (0 moves
first); :meth:`Game.to_move` returns the index of the player to move. Two kinds:

- *two-sided* (``FREE_FOR_ALL = False``, Donuts): two sides, a winner or a draw
  (:meth:`Game.result`), played in colour-swapped pairs, best-of series, or 2v2 team
  battles (a side's two players alternate its turns);
- *free-for-all* (``FREE_FOR_ALL = True``): 2 or more players, each for themselves; a
  finished game gives a :meth:`Game.ranking` (a place per player, shared places
  allowed) and per-player :meth:`Game.scores`, besides ``result``'s winner (the player
  alone in first place, else ``None``) and reason.

Chance is the game's business: the set-up the harness hands to :meth:`Game.new_state`
is drawn from the unit's seed (:meth:`Game.draw_setup`) and may hold the seed of the
game's own random stream (a deal). The harness holds the ``state`` (any object the game
likes) and only ever calls the methods below; agents receive ``player_view(state,
player)`` in-process or ``agent_view(observation(state, player))`` in their own process,
so what an agent sees is the game's decision (a game of hidden information sends each
player only what it may know).
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from random import Random
from typing import Any, TypeAlias

from ..errors import DonutsError

#: A game's state: any object the game likes. The harness never looks inside it; it only
#: hands it back to the game's methods, so each game narrows it to its own type.
State: TypeAlias = Any
#: A move: what an agent returned (anything, until :meth:`Game.is_legal` says it is one),
#: or what the game writes in records (JSON-ready; ``None`` for a forfeit).
Move: TypeAlias = Any
#: A JSON object as a game writes it (its rules variant, an observation): values of any
#: JSON type, read by the game that wrote them.
JSONObject: TypeAlias = dict[str, Any]
#: A player's counts in a game (``{"insertions": 1}``), summed over its moves.
Stats: TypeAlias = dict[str, int]
#: A score as a game gives it (a whole number, or a fraction).
Score: TypeAlias = int | float


class Game(ABC):
    """A game the harness can run (see the module doc). Methods never change their
    arguments unless they say so; bad set-ups or rules raise ``DonutsError`` subclasses."""

    #: Registry name, written in results files.
    name: str = "game"
    #: Players ranked each for themselves (:meth:`ranking`), rather than two sides.
    FREE_FOR_ALL: bool = False
    #: Whether the rules know a forfeited turn (the harness's ``illegal="forfeit"``).
    CAN_FORFEIT: bool = True
    #: What a set-up is called in reports ("a fresh deal for every unit").
    SETUP_NAME: str = "set-up"

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

    # --- playing -------------------------------------------------------------------------
    @abstractmethod
    def new_state(self, setup: str, rules: JSONObject) -> State:
        """The starting state of a game."""

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

    def setups_line(self, setups: Sequence[object] | str, seed: int) -> str:
        """The line of a report that says what the tournament's set-ups were: ``setups``
        is the word :meth:`parse_setups` gave (a fresh draw per unit, from the tournament
        seed ``seed``) or the list of set-up texts."""
        if isinstance(setups, str):
            what = self.SETUP_NAME if setups == "random" else f"{setups} {self.SETUP_NAME}"
            return f"Set-ups: a fresh {what} for every unit, seeded from the tournament seed {seed}"
        return f"Set-ups: {len(setups)} fixed, cycled through"

    @abstractmethod
    def to_move(self, state: State) -> int | None:
        """The player to move (an index; for a two-sided game its side, 0 or 1),
        ``None`` when the game is over."""

    @abstractmethod
    def legal_moves(self, state: State) -> list[Move]:
        """The legal moves, as the game writes them in records."""

    @abstractmethod
    def is_legal(self, state: State, move: Move) -> bool:
        """Whether ``move`` (anything an agent returned) is legal now; never raises."""

    @abstractmethod
    def play(self, state: State, move: Move) -> Stats:
        """Play a legal ``move`` (changes ``state``); returns the game's counts for it
        (added to the mover's ``stats`` in the record, e.g. ``{"insertions": 1}``)."""

    @abstractmethod
    def forfeit(self, state: State) -> None:
        """The side to move forfeits its turn (changes ``state``)."""

    @abstractmethod
    def result(self, state: State) -> tuple[int | None, str]:
        """(winning side or ``None`` for a draw, reason) of a finished game; in a
        free-for-all game the winning player, ``None`` when first place is shared."""

    def ranking(self, state: State) -> list[int]:
        """The place of every player in a finished game: 0 first, players sharing a place
        get the same number (smaller is better; the harness reads it as competition
        places). Default, for two players: from :meth:`result`."""
        winner, _ = self.result(state)
        return [0, 0] if winner is None else [0 if p == winner else 1 for p in range(2)]

    def scores(self, state: State) -> Sequence[Score] | None:
        """Every player's score in a finished game (numbers), or ``None`` (the default)."""
        return None

    def final_stats(self, state: State, stats: list[Stats]) -> list[Stats]:
        """Every player's counts at the end of the game, given those the harness summed
        from :meth:`play` (each move's counts go to its mover). Default: those."""
        return stats

    @abstractmethod
    def moves(self, state: State) -> list[Move]:
        """The moves played so far (``None`` for a forfeit), JSON-ready."""

    @abstractmethod
    def new_stats(self) -> Stats:
        """A player's counts at the start of a game (e.g. ``{"insertions": 0}``)."""

    # --- agents --------------------------------------------------------------------------
    @abstractmethod
    def view(self, state: State) -> Any:
        """What an in-process agent's ``select_move`` receives (a copy it may change)."""

    def player_view(self, state: State, player: int) -> Any:
        """What an in-process agent receives when ``player`` is to move. Default:
        :meth:`view` (a game of perfect information); a game of hidden information
        returns ``agent_view(observation(state, player))``, what a process would get."""
        return self.view(state)

    def dropout_move(self, state: State, rng: Random) -> Move:
        """In a free-for-all game, the move the harness plays for a player who dropped out
        (ranked last) while the others play on. Default: a uniformly random legal move
        from ``rng`` (a :class:`random.Random` seeded from the game's seed)."""
        return rng.choice(self.legal_moves(state))

    @abstractmethod
    def observation(self, state: State, side: int) -> JSONObject:
        """What an agent process is sent for ``side`` to move: JSON-ready."""

    @abstractmethod
    def agent_view(self, observation: JSONObject) -> Any:
        """In the agent's process: the object ``select_move`` receives for ``observation``."""

    def warm_up(self) -> None:  # noqa: B027 - a default that does nothing, on purpose
        """One-off set-up an agent process does before it says it is ready (load compiled
        code, say), so that it is never charged to a move. Default: nothing."""

    # --- scores --------------------------------------------------------------------------
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


GAMES: dict[str, Game] = {}
#: The games of this package, which live outside the harness, by name -> the dotted path
#: of the module that registers the game when imported (the first time it is named); filled
#: by the package root (``donuts_ai/__init__.py``), as the harness names no game.
KNOWN_GAMES: dict[str, str] = {}


def game_named(game: Game | str) -> Game:
    """``game`` itself, or the registered game of that name (:func:`get_game`). Every
    caller names its game: the harness has no game of its own."""
    if isinstance(game, Game):
        return game
    return get_game(game)


def register(game: Game) -> Game:
    """Make ``game`` known to the harness by its name."""
    GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    """The registered game of that name (importing it first if it is a :data:`KNOWN_GAMES` one)."""
    if name not in GAMES and name in KNOWN_GAMES:
        try:
            importlib.import_module(KNOWN_GAMES[name])
        except ImportError as exc:
            raise DonutsError(f"game {name!r} cannot be loaded: {exc}") from None
    if name not in GAMES:
        known = [*GAMES, *(n for n in KNOWN_GAMES if n not in GAMES)]
        raise DonutsError(f"unknown game {name!r}; expected one of {', '.join(known)}")
    return GAMES[name]
