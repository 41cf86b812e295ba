"""Agents for any game of the table, through the state API alone: :class:`GenericRandomAgent`
(``generic-random``: a uniformly random legal move), :class:`GenericMCTSAgent`
(``generic-mcts``: UCT with random playouts and MCTS-Solver, :mod:`donuts_ai.search.uct`),
:class:`GenericAlphaBetaAgent` (``generic-alphabeta``: iterative-deepening negamax with a
transposition table and the game's heuristic at the horizon, :mod:`donuts_ai.search.negamax`)
and :class:`GenericSolverAgent` (``generic-solver``: the same negamax to the end of the game).

Each takes the game as ``game`` (a :class:`~donuts_ai.game.Game`, or its registered
name), whose hooks :meth:`~donuts_ai.game.Game.heuristic` and
:meth:`~donuts_ai.game.Game.state_key` serve the search; a game the agent cannot play (of
hidden information; for the alpha-beta ones, a free-for-all or more than two players) is
refused when the agent is built (:class:`~donuts_ai.errors.AgentError`, the reason also
given by the class's ``refusal(game)``). With ``game=None`` an agent works from the state
alone: no heuristic, the key ``state.to_text()``.

``select_move(view, time_left=None)`` searches a copy of ``view`` for
:func:`~donuts_ai.agents.base.budget` of ``time_limit`` and the clock, refuses a finished
game and plays the only legal move at once (``forced`` in ``last_info``; the solver
searches it still, for its value). With a simulation, depth or node limit the same
``seed`` gives the same move.
"""

from __future__ import annotations

from typing import Any, TypedDict

from ..errors import AgentError, DonutsError, GameOverError
from ..game import Game, get_game
from ..search.negamax import DEFAULT_TABLE_ENTRIES, MATE_BOUND, NegamaxResult, NegamaxSearch, NotTwoSidedError
from ..search.uct import DEFAULT_EXPLORATION, uct_search
from .base import Agent, budget, check_exploration, check_time_left, check_time_limit, now, positive_int

#: Seconds a move when an agent is given no other limit (as Donuts' searching agents).
DEFAULT_TIME_LIMIT = 1.0
#: The verbs of the state API a search plays through.
STATE_VERBS = ("legal_moves", "push", "pop", "outcome", "copy")


def _game_of(game: object) -> Game[Any] | None:
    """``game`` as a :class:`Game` (a name looked up in the table), or ``None``."""
    if game is None or isinstance(game, Game):
        return game
    if not isinstance(game, str):
        raise AgentError(f"game must be a Game, a registered game's name or None, got {type(game).__name__}")
    try:
        return get_game(game)
    except DonutsError as exc:
        raise AgentError(f"game: {exc}") from None


def _hidden_information(kind: str, verb: str, game: Game[Any]) -> str:
    """The refusal of ``kind`` (which ``verb`` the whole state) for ``game``, a game of hidden information."""
    kinds = list(game.agent_registry())
    own = f"use its own agents such as {', '.join(kinds)}" if kinds else "use an agent written for it"
    return f"{kind} {verb} the whole state; {game.name} is a game of hidden information: {own}"


class _GenericAgent(Agent):
    """What the generic agents share: the game and its hooks, the checks of a view."""

    #: Whether the search needs a two-sided game of two players (alpha-beta).
    TWO_SIDED = False
    #: What the agent does with the state, in its refusals.
    VERB = "searches"
    #: Seconds a move (``None``: no time limit); set by each agent.
    time_limit: float | None = None

    def __init__(self, game: Game[Any] | str | None, seed: int | None, name: str | None) -> None:
        super().__init__(seed, name)
        #: The game played (``None``: from the state alone, with the defaults).
        self.game = _game_of(game)
        why = None if self.game is None else self.refusal(self.game)
        if why:
            raise AgentError(why)

    @classmethod
    def refusal(cls, game: Game[Any]) -> str | None:
        """Why this agent cannot play ``game`` (one line naming the reason), or ``None``
        when it can: a game of hidden information is refused by every generic agent (they
        read the whole state), a free-for-all game or one of more than two players by the
        alpha-beta ones."""
        if not game.PERFECT_INFORMATION:
            return _hidden_information(cls.kind, cls.VERB, game)
        if cls.TWO_SIDED:
            if game.FREE_FOR_ALL:
                return f"{cls.kind} searches two-sided games; {game.name} is free-for-all: use mcts"
            players = game.num_players(game.rules_dict(None))
            if players != 2:
                return f"{cls.kind} searches two-sided games; {game.name} has {players} players: use mcts"
        return None

    def _check_view(self, view: Any, time_left: object) -> float | None:
        """The seconds to spend on ``view`` (a state of a game that goes on), checked."""
        time_left = check_time_left(time_left)
        if not all(callable(getattr(view, verb, None)) for verb in STATE_VERBS) or not hasattr(view, "turn"):
            raise AgentError(f"{self.kind} {self.VERB} the whole state (turn, legal_moves, push, pop, outcome, copy); it was "
                             f"handed a {type(view).__name__}: a game of hidden information hands its players an observation, "
                             "use its own agents")
        if view.outcome() is not None or not view.legal_moves():
            raise GameOverError("select_move: the game is over")
        if self.TWO_SIDED and view.turn not in (0, 1):
            raise AgentError(f"{self.kind} searches two-sided games; player {view.turn} is to move: use mcts")
        return budget(self.time_limit, time_left)

    def _state_of(self, view: Any, time_left: object) -> tuple[Any, float | None]:
        """(a copy of ``view`` to search, the seconds to spend), checked."""
        seconds = self._check_view(view, time_left)
        return view.copy(), seconds


class GenericRandomAgent(_GenericAgent):
    """A uniformly random legal move, for any game whose players see its state (perfect
    information).

    Args:
        game: the game (a :class:`~donuts_ai.game.Game` or its registered name) whose hooks
            serve the search; ``None``: the state alone.
        seed: the random stream's seed.
        name: how results name it.
    """

    kind = "generic-random"
    VERB = "plays from"

    def __init__(self, *, game: Game[Any] | str | None = None, seed: int | None = None, name: str | None = None) -> None:
        super().__init__(game, seed, name)

    def select_move(self, view: Any, time_left: float | None = None) -> str:
        """A legal move of the player to move in ``view``.

        Args:
            view: a state of the game, unchanged.
            time_left: the player's clock in seconds, or ``None``.
        """
        self._check_view(view, time_left)
        return str(self.rng.choice(view.legal_moves()))


class MCTSInfo(TypedDict, total=False):
    """:attr:`GenericMCTSAgent.last_info`: figures of the last move (empty before the first)."""

    simulations: int
    seconds: float
    nodes: int  # of the tree searched
    proven: bool  # the root's value was proven (MCTS-Solver, two-player games)
    value: float  # the move's mean reward for the player to move, in [0, 1] (1 / 0.5 / 0 when proven)
    forced: bool  # the only legal move, played without searching


class GenericMCTSAgent(_GenericAgent):
    """UCT with uniformly random playouts over the state API (:func:`~donuts_ai.search.uct.uct_search`),
    for any game of perfect information: rewards per player from the outcome's places, and
    MCTS-Solver proofs in two-player games. The tree is built afresh every move.

    Args:
        simulations: simulations per move (both limits given, the first reached ends it).
        time_limit: seconds per move (1.0 when neither limit is given), capped on a clock by
            :func:`~donuts_ai.agents.base.budget`.
        exploration: UCB1's constant on rewards in [0, 1].
        game: the game (a :class:`~donuts_ai.game.Game` or its registered name) whose hooks
            serve the search; ``None``: the state alone.
        seed: the random stream's seed: with a simulation limit it fixes every move.
        name: how results name it.
    """

    kind = "generic-mcts"

    def __init__(self, simulations: int | None = None, time_limit: float | None = None, *,
                 exploration: float = DEFAULT_EXPLORATION, game: Game[Any] | str | None = None,
                 seed: int | None = None, name: str | None = None) -> None:
        super().__init__(game, seed, name)
        #: Simulations a move; ``None``: timed.
        self.simulations = positive_int("simulations", simulations)
        self.time_limit = check_time_limit(time_limit)
        if self.simulations is None and self.time_limit is None:
            self.time_limit = DEFAULT_TIME_LIMIT
        self.exploration = check_exploration(exploration)
        #: Figures of the last move (:class:`MCTSInfo`).
        self.last_info: MCTSInfo = {}

    def select_move(self, view: Any, time_left: float | None = None) -> str:
        """The move of the player to move in ``view``.

        Args:
            view: a state of the game, unchanged.
            time_left: the player's clock in seconds, or ``None``.
        """
        start = now()
        state, seconds = self._state_of(view, time_left)
        moves = state.legal_moves()
        if len(moves) == 1:
            self.last_info = {"simulations": 0, "seconds": now() - start, "nodes": 0, "proven": False, "value": 0.5,
                              "forced": True}
            return str(moves[0])
        deadline = None if seconds is None else start + seconds
        result = uct_search(state, rng=self.rng, simulations=self.simulations, deadline=deadline,
                            exploration=self.exploration, clock=now)
        self.last_info = {"simulations": result.simulations, "seconds": now() - start, "nodes": result.nodes,
                          "proven": result.proven, "value": result.value, "forced": False}
        return result.move


class AlphaBetaInfo(TypedDict, total=False):
    """:attr:`GenericAlphaBetaAgent.last_info`: figures of the last move (empty before the first)."""

    depth: int  # the deepest finished iteration, in plies
    nodes: int  # moves pushed
    seconds: float
    score: int | None  # for the player to move (search.negamax's scale); None when forced
    proven: bool  # the score is the exact value (every line reached the end, or a forced win or loss)
    heuristic: bool  # no leaf at the depth limit lacked a score: False when some were scored 0 for want of a heuristic
    unscored_leaves: int  # leaves at the depth limit scored 0 (the game gives no heuristic)
    forced: bool  # the only legal move, played without searching


class _NegamaxAgent(_GenericAgent):
    """An agent of :class:`~donuts_ai.search.negamax.NegamaxSearch`, its table kept from move
    to move of a game (emptied by :meth:`reset` and when the state's type changes)."""

    TWO_SIDED = True

    def __init__(self, game: Game[Any] | str | None, table_entries: int, seed: int | None, name: str | None) -> None:
        super().__init__(game, seed, name)
        #: The most entries of the transposition table (emptied when full).
        self.table_entries = positive_int("table_entries", table_entries, allow_none=False)
        heuristic = None if self.game is None else self.game.heuristic
        self._search = (NegamaxSearch(heuristic, self.game.state_key, self.table_entries) if self.game is not None
                        else NegamaxSearch(heuristic, table_entries=self.table_entries))
        #: The state type the table's entries belong to (``None``: empty).
        self._table_type: type | None = None

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._search.clear()
        self._table_type = None

    def _negamax(self, state: Any, seconds: float | None, start: float, depth: int | None,
                 nodes: int | None) -> NegamaxResult:
        if type(state) is not self._table_type:
            self._search.clear()
            self._table_type = type(state)
        try:
            return self._search.search(state, depth=depth, nodes=nodes,
                                       deadline=None if seconds is None else start + seconds, clock=now)
        except NotTwoSidedError as exc:
            raise AgentError(f"{self.kind} searches two-sided games; {exc}: use mcts") from None


class GenericAlphaBetaAgent(_NegamaxAgent):
    """Iterative-deepening negamax with alpha-beta and a transposition table over the state API
    (:class:`~donuts_ai.search.negamax.NegamaxSearch`), for two-sided two-player games of
    perfect information, the game's heuristic scoring the horizon (``last_info["heuristic"]``
    False when it gives none). It is exact (``proven``) once every line reaches the end.

    Args:
        depth: the most plies.
        time_limit: seconds a move (1.0 when no limit is given), capped on a clock by
            :func:`~donuts_ai.agents.base.budget`.
        nodes: the most moves pushed a move.
        table_entries: the transposition table's bound.
        game: the game (a :class:`~donuts_ai.game.Game` or its registered name) whose hooks
            serve the search; ``None``: the state alone.
        seed: the random stream's seed.
        name: how results name it.
    """

    kind = "generic-alphabeta"

    def __init__(self, depth: int | None = None, time_limit: float | None = None, *, nodes: int | None = None,
                 table_entries: int = DEFAULT_TABLE_ENTRIES, game: Game[Any] | str | None = None,
                 seed: int | None = None, name: str | None = None) -> None:
        super().__init__(game, table_entries, seed, name)
        self.depth = positive_int("depth", depth)
        self.nodes = positive_int("nodes", nodes)
        self.time_limit = check_time_limit(time_limit)
        if self.depth is None and self.nodes is None and self.time_limit is None:
            self.time_limit = DEFAULT_TIME_LIMIT
        #: Figures of the last move (:class:`AlphaBetaInfo`).
        self.last_info: AlphaBetaInfo = {}

    def select_move(self, view: Any, time_left: float | None = None) -> str:
        """The move of the player to move in ``view``.

        Args:
            view: a state of the game, unchanged.
            time_left: the player's clock in seconds, or ``None``.
        """
        start = now()
        state, seconds = self._state_of(view, time_left)
        moves = state.legal_moves()
        if len(moves) == 1:
            self.last_info = {"depth": 0, "nodes": 0, "seconds": now() - start, "score": None, "proven": False,
                              "heuristic": True, "unscored_leaves": 0, "forced": True}
            return str(moves[0])
        result = self._negamax(state, seconds, start, self.depth, self.nodes)
        self.last_info = {"depth": result.depth, "nodes": result.nodes, "seconds": now() - start, "score": result.score,
                          "proven": result.proven, "heuristic": result.unscored_leaves == 0,
                          "unscored_leaves": result.unscored_leaves, "forced": False}
        return result.move


class SolverInfo(TypedDict, total=False):
    """:attr:`GenericSolverAgent.last_info`: figures of the last move (empty before the first)."""

    depth: int  # the deepest finished iteration, in plies
    nodes: int  # moves pushed
    seconds: float
    score: int  # for the player to move (search.negamax's scale)
    proven: bool  # the search finished: the score is the exact value
    value: int | None  # the exact value for the player to move (1 win, 0 draw, -1 loss); None when not proven


class GenericSolverAgent(_NegamaxAgent):
    """Perfect play in two-sided two-player games of perfect information: the negamax of
    :class:`GenericAlphaBetaAgent` with no depth limit, to the end of every line (a quicker
    win, a slower loss); ``last_info["proven"]`` says whether it finished. Stopped early, it
    plays the best move of the deepest finished iteration.

    Args:
        time_limit: seconds a move (none by default; on a clock
            :func:`~donuts_ai.agents.base.budget` caps it).
        nodes: the most moves pushed a move (none by default).
        table_entries: the transposition table's bound.
        game: the game (a :class:`~donuts_ai.game.Game` or its registered name) whose hooks
            serve the search; ``None``: the state alone.
        seed: the random stream's seed.
        name: how results name it.
    """

    kind = "generic-solver"

    def __init__(self, time_limit: float | None = None, *, nodes: int | None = None,
                 table_entries: int = DEFAULT_TABLE_ENTRIES, game: Game[Any] | str | None = None,
                 seed: int | None = None, name: str | None = None) -> None:
        super().__init__(game, table_entries, seed, name)
        self.time_limit = check_time_limit(time_limit)
        self.nodes = positive_int("nodes", nodes)
        #: Figures of the last move (:class:`SolverInfo`).
        self.last_info: SolverInfo = {}

    def select_move(self, view: Any, time_left: float | None = None) -> str:
        """The move of the player to move in ``view``.

        Args:
            view: a state of the game, unchanged.
            time_left: the player's clock in seconds, or ``None``.
        """
        start = now()
        state, seconds = self._state_of(view, time_left)
        result = self._negamax(state, seconds, start, None, self.nodes)
        value = None
        if result.proven:
            value = 0 if abs(result.score) <= MATE_BOUND else (1 if result.score > 0 else -1)
        self.last_info = {"depth": result.depth, "nodes": result.nodes, "seconds": now() - start, "score": result.score,
                          "proven": result.proven, "value": value}
        return result.move


__all__ = ["AlphaBetaInfo", "GenericAlphaBetaAgent", "GenericMCTSAgent", "GenericRandomAgent",
           "GenericSolverAgent", "MCTSInfo", "SolverInfo"]
