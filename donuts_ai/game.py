"""The game contract, written down once: :class:`Game`, and the one table of games.

A game is two objects (OpenSpiel's split of ``Game`` from ``State``): its **state**
(:class:`~donuts_ai.state.GameState`: ``turn``, ``legal_moves()``, ``push``, ``pop``,
``outcome()``...; :class:`~donuts_ai.state.BaseState` writes all but five) and its **game**
(:class:`Game`): its name, settings, set-ups, rules as JSON, players, how an answer reads as
a move, what each player may see, its agents, and what a tournament counts. Only
:meth:`Game.new_state` and :attr:`Game.name` are required; the defaults fit a two-player game
of perfect information without rule variants, set-ups or scores (``docs/howto/own_game.md``).

A game is *two-sided* (``FREE_FOR_ALL = False``, Donuts: a winner or a draw, colour-swapped
pairs, 2v2 team battles) or *free-for-all* (``FREE_FOR_ALL = True``, Donut Boxes: 2 or more
players each for themselves, places and scores). Chance is the game's: the set-up handed to
:meth:`Game.new_state` is drawn from the unit's seed (:meth:`Game.draw_setup`). What an
agent sees is the game's choice (:meth:`Game.player_view`, :meth:`Game.observation`).

Every front end reads the one table of this module: :func:`get_game` finds a game by name,
and a game joins with :func:`register_game`, from its own module. This module imports
nothing of the package but the errors and the state protocol.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeAlias, TypeVar

from .errors import DonutsError, GameError
from .state import GameState

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

#: The concrete state type of a game (Donuts: :class:`~donuts_ai.Board`).
StateT = TypeVar("StateT", bound=GameState)


@dataclass(frozen=True)
class Ending:
    """How a game ended as the ledgers see it (a :class:`~donuts_ai.state.GameOutcome`),
    given to :meth:`Game.ledger_points`. In a two-sided game the players are the two
    *sides* (a team battle's two players of a side share its points): ``winner`` is the
    winning side or ``None``, ``places`` the sides' places. In a free-for-all game they are
    the players: their places (those who dropped out share the last) and scores."""

    winner: int | None
    places: tuple[int, ...]
    scores: tuple[Score, ...] | None
    #: The game's end reason, or the harness's adjudication (``"time"``, ``"illegal"``...).
    reason: str


class Game(ABC, Generic[StateT]):
    """A game, besides its state (see the module doc). Methods never change their
    arguments unless they say so; bad settings, set-ups or rules raise
    :class:`~donuts_ai.errors.GameError` (a ``ValueError``). Subclass it as
    ``class MyGame(Game[MyState])``, so that the methods that take a state take the
    game's own type; :meth:`new_state` is the one method to write."""

    #: The name it is registered under, written in results files.
    name: str = "game"
    #: Players ranked each for themselves (the outcome's ``places``), rather than two sides.
    FREE_FOR_ALL: bool = False
    #: Whether every player may see the whole state (no hidden cards, no private deal):
    #: the generic searches (``mcts``, ``alphabeta``, ``solver``) search the state itself,
    #: so they refuse a game of hidden information.
    PERFECT_INFORMATION: bool = True
    #: Whether the rules know a forfeited turn (``state.forfeit()``; the harness's ``illegal="forfeit"``).
    CAN_FORFEIT: bool = False
    #: What a set-up is called in reports ("a fresh deal for every unit").
    SETUP_NAME: str = "set-up"
    #: The word of :meth:`parse_setups` for a fresh set-up drawn from a seed, the default
    #: (:meth:`draw_setup`'s default draws the start position, ``""``, whatever the seed).
    FRESH_SETUP: str = "random"
    #: The keyword settings :meth:`make` takes (``donuts_ai.make(name, **settings)``).
    SETTINGS: tuple[str, ...] = ("setup", "rules", "seed")
    #: The names of a player's counts in a game (:meth:`move_stats`), each 0 at the start,
    #: in the order a record writes them.
    STATS: tuple[str, ...] = ()
    #: Score ledgers the game knows; the first is the default.
    LEDGERS: tuple[str, ...] = ("rulebook",)

    # --- settings, set-ups and rules -----------------------------------------------------
    def make(self, **settings: Any) -> StateT:
        """A fresh state from keyword ``settings`` (names in :data:`SETTINGS`, checked by
        :func:`donuts_ai.make`). Default: ``setup`` (its text or object, else a fresh one
        drawn from ``seed``, default 0) under ``rules`` (``None``: the official rules)."""
        rules = self.rules_dict(settings.get("rules"))
        setup = settings.get("setup")
        text = (self.draw_setup(self.FRESH_SETUP, settings.get("seed") or 0) if setup is None
                else self.setup_text(setup))
        return self.new_state(text, rules)

    def parse_setups(self, spec: str) -> list[Any] | str:
        """Set-ups named by ``spec``: a list of set-ups (the game's own objects or their
        texts, as :meth:`setup_text` takes them), or a word the harness passes to
        :meth:`draw_setup` for a fresh set-up per unit. Default: :attr:`FRESH_SETUP` as
        it is, else set-up texts separated by commas (each checked by :meth:`setup_text`)."""
        if spec == self.FRESH_SETUP:
            return spec
        return [self.setup_text(text) for text in spec.split(",")]

    def draw_setup(self, kind: str, seed: int) -> str:
        """A fresh set-up of ``kind`` (a word :meth:`parse_setups` returned) from ``seed``.
        Default: the start position, ``""`` (a game without set-ups starts every game
        from the same position; write this method to draw openings or deals)."""
        return ""

    def setup_text(self, setup: object) -> str:
        """The text of a set-up given as the game's own object or as text, checked.
        Default: the text, checked by building a state on it with the official rules."""
        text = "" if setup is None else str(setup).strip()
        self.new_state(text, self.rules_dict(None))
        return text

    def rules_dict(self, rules: object) -> JSONObject:
        """The rules variant as a JSON object (``None``: the official rules), checked.
        Default: no variants (``{}``); anything else is a :class:`~donuts_ai.errors.GameError`."""
        if rules is None or (isinstance(rules, Mapping) and not rules):
            return {}
        raise GameError(f"{self.name} has no rule variants, got {rules!r}")

    def setups_line(self, setups: Sequence[object] | str, seed: int) -> str:
        """The line of a report that says what the tournament's set-ups were: ``setups``
        is the word :meth:`parse_setups` gave (a fresh draw per unit, from the tournament
        seed ``seed``) or the list of set-up texts."""
        if isinstance(setups, str):
            what = self.SETUP_NAME if setups == self.FRESH_SETUP else f"{setups} {self.SETUP_NAME}"
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
    def new_state(self, setup: str, rules: JSONObject) -> StateT:
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

    def final_stats(self, state: StateT, stats: list[Stats]) -> list[Stats]:
        """Every player's counts at the end of the game, given those the harness summed
        from :meth:`move_stats` (each move's counts go to its mover). Default: those."""
        return stats

    def running_scores(self, state: StateT) -> Sequence[Score] | None:
        """Every player's score as ``state`` stands, for the record of a free-for-all game
        stopped before its end (every player but one dropped out); a finished game's are
        its outcome's ``scores``. Default: ``None`` (no scores)."""
        return None

    def ledger_points(self, ending: Ending, player: int, stats: Stats, ledger: str) -> Score:
        """``ledger`` points of ``player`` (a side, in a two-sided game: see :class:`Ending`)
        with counts ``stats`` in a game that ended as ``ending``. Default: the player's
        score where the game gives scores; else a share of first place (a win 1, a
        two-sided draw ½, a first place shared by ``k`` players ``1/k``), nothing below it."""
        if ending.scores is not None:
            return ending.scores[player]
        firsts = sum(place == 0 for place in ending.places)
        return 1 / firsts if firsts and ending.places[player] == 0 else 0

    def ledger_text(self, ledger: str) -> str:
        """One line that says how ``ledger`` scores, for reports. Default: the ledger's
        name, or (a game without scores) what the default points are."""
        if ledger == Game.LEDGERS[0] and type(self).ledger_points is Game.ledger_points:
            shared = "a first place shared by k players 1/k each" if self.FREE_FOR_ALL else "a draw 1/2"
            return f"a win 1, {shared}; or the score, where the game gives scores"
        return ledger

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

    def player_view(self, state: StateT, player: int) -> Any:
        """What an in-process agent's ``select_move`` receives when ``player`` is to move:
        a copy it may change. Default: ``agent_view(observation(state, player))``, what an
        agent process gets; where neither is written (their defaults give the state back),
        ``state.copy()``, which is quicker."""
        if type(self).observation is Game.observation and type(self).agent_view is Game.agent_view:
            return state.copy()
        return self.agent_view(self.observation(state, player))

    def observation(self, state: StateT, player: int) -> JSONObject:
        """What an agent process is sent for ``player`` to move: JSON-ready, and nothing
        that player may not know. Default (a game of perfect information only): the
        whole state, ``state.to_dict()``; a game of hidden information writes its own."""
        if not self.PERFECT_INFORMATION:
            raise GameError(f"{self.name} is a game of hidden information: it writes its own observation()")
        return dict(state.to_dict())

    def agent_view(self, observation: JSONObject) -> Any:
        """In the agent's process: the object ``select_move`` receives for ``observation``.
        Default: the state read back by its class's ``from_dict`` (the default observation
        is the state's ``to_dict()``)."""
        return self._state_type().from_dict(observation)

    def _state_type(self) -> type[StateT]:
        """The class of the game's states, from a state built once (an agent process reads
        an observation every move: the start is not built again for each)."""
        known = _STATE_TYPES.get(type(self))
        if known is None:
            known = _STATE_TYPES[type(self)] = type(self.new_state(self.draw_setup(self.FRESH_SETUP, 0),
                                                                   self.rules_dict(None)))
        return known

    # --- search hooks --------------------------------------------------------------------
    def heuristic(self, state: StateT, player: int) -> float | None:
        """How good ``state`` (a game that goes on) looks for ``player``: a number in
        [-1, 1], 1 as good as won, for the depth-limited searches (``alphabeta``) to score
        the positions they stop at. Default: ``None``, no heuristic (those positions score
        0, and the search says so in its ``last_info``)."""
        return None

    def state_key(self, state: StateT) -> Hashable:
        """A key equal for states whose futures are the same (the same moves, outcomes and
        player to move), for the searches' transposition tables. Default: ``state.to_text()``
        (correct; a key without the move history finds more transpositions)."""
        return state.to_text()

    def warm_up(self) -> None:  # noqa: B027 - a default that does nothing, on purpose
        """One-off set-up an agent process does before it says it is ready (load compiled
        code, say), so that it is never charged to a move. Default: nothing."""


#: The class of each game's states, by the game's class (:meth:`Game._state_type`).
_STATE_TYPES: dict[type[Game[Any]], type[Any]] = {}


def legal_move(game: Game[Any], state: GameState, answer: object) -> str | None:
    """``answer`` (anything an agent returned) as the text of a move legal in ``state``
    now (:meth:`Game.move_text`, found among ``state.legal_moves()``), else ``None``.
    Never raises: whatever an agent returned, a move that cannot be read is not legal."""
    try:
        text = game.move_text(answer)
    except Exception:  # a game's reading of an odd object: not a move
        return None
    return text if text is not None and text in state.legal_moves() else None


#: The games known by name (:func:`register_game`), in the order they joined: the one table.
_GAMES: dict[str, Game[Any]] = {}


def register_game(game: Game[Any]) -> Game[Any]:
    """Make a game known by its name to :func:`make`, the tournament harness and the
    command line. A game's module calls it once when imported (a tournament's agent
    processes import that module again: ``type(game).__module__``).

    Args:
        game: the game; registering the same game again changes nothing.

    Returns:
        The registered game.

    Raises:
        DonutsError: for a name another game has taken, or that is empty or has outer spaces.
    """
    if not isinstance(game, Game):
        raise DonutsError(f"register_game takes a Game, got {type(game).__name__}")
    if not isinstance(game.name, str) or not game.name or game.name != game.name.strip():
        raise DonutsError(f"a game's name is a non-empty text without outer spaces, got {game.name!r}")
    known = _GAMES.get(game.name)
    if known is not None and type(known) is not type(game):
        raise DonutsError(f"a game named {game.name!r} is already registered ({type(known).__qualname__})")
    if known is None:
        _GAMES[game.name] = game
    return _GAMES[game.name]


def game_names() -> tuple[str, ...]:
    """The names of the registered games, in the order they joined."""
    return tuple(_GAMES)


def get_game(game: Game[Any] | str) -> Game[Any]:
    """A registered game, found by its name.

    Args:
        game: a :class:`Game` (returned as it is) or a registered name. A name
            ``"module:name"`` imports ``module`` first, so that a game of one's own
            registers itself (``get_game("examples.connect_four:connect-four-python")``).

    Returns:
        The game.

    Raises:
        DonutsError: for an unknown name (the message lists the known ones) or a module
            that cannot be imported.
    """
    if isinstance(game, Game):
        return game
    if isinstance(game, str) and game not in _GAMES and ":" in game:
        module, _, name = game.rpartition(":")
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise DonutsError(f"game {game!r}: its module cannot be imported ({exc})") from None
        game = name
    if not isinstance(game, str) or game not in _GAMES:
        raise DonutsError(f"unknown game {game!r}; expected one of {', '.join(_GAMES)}")
    return _GAMES[game]


def make(name: str, **settings: Any) -> GameState:
    """A fresh state of a registered game, built by its :meth:`Game.make`.

    Each game documents its own settings (:attr:`Game.SETTINGS` lists their names):
    :meth:`DonutsGame.make <donuts_ai.donuts.game.DonutsGame.make>`,
    :meth:`BoxesGame.make <donuts_ai.boxes.game.BoxesGame.make>`,
    :meth:`ConnectFourGame.make <donuts_ai.connect_four.game.ConnectFourGame.make>`.

    Args:
        name: the game's registered name (:func:`get_game`), such as ``"donuts"``.
        **settings: the game's keyword settings (``make("boxes", players=3)``).

    Returns:
        The game's starting state (Donuts: a :class:`~donuts_ai.Board`).

    Raises:
        DonutsError: for an unknown game or setting, naming what is accepted; a bad value
            raises the game's own error (a ``ValueError``).
    """
    game = get_game(name)
    unknown = sorted(set(settings) - set(game.SETTINGS))
    if unknown:
        raise DonutsError(f"make({name!r}): unknown setting {unknown[0]!r}; accepted: {', '.join(game.SETTINGS)}")
    state: GameState = game.make(**settings)
    return state


__all__ = ["Ending", "Game", "JSONObject", "Move", "Score", "StateT", "Stats", "game_names", "get_game", "legal_move", "make",
           "register_game"]
