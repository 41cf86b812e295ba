"""Donuts as an OpenSpiel game, ``python_donuts`` (``pip install 'donuts_ai[spiel]'``).

Importing this module registers the game with ``pyspiel``, so OpenSpiel's algorithms
run on it::

    import pyspiel
    import donuts_ai.interop.openspiel  # registers python_donuts

    game = pyspiel.load_game("python_donuts")                        # standard layout, official rules
    game = pyspiel.load_game("python_donuts(layout_seed=7,donuts=12)")
    game = pyspiel.load_game("python_donuts", {"layout": "random:3", "insertion": "single"})

Parameters: ``layout`` (``"standard"``, ``"random:SEED"``, ``"grid:SEED"``, or layout
text: 6 rows of 6 symbols, rank 6 first, as 36 symbols in one run in a game string,
where commas separate parameters, or joined by newlines or commas in a parameter
dict), ``layout_seed`` (an int >= 0: the tile arrangement ``Layout.random(seed)``,
instead of ``layout``), ``insertion`` (``"group"`` or ``"single"``) and ``donuts`` (per
player). :func:`load` takes a :class:`~donuts_ai.Layout` and :class:`~donuts_ai.Rules`.

The game is sequential, deterministic, perfect information, zero-sum, with terminal
rewards +1/-1/0; actions are square indices 0..35 (a1 = 0); the player to move is the
colour to move (0 Chocolate, 1 Vanilla), and **the same player may move twice in a
row** when the other's pool is empty, so code must read ``current_player()`` rather
than alternate. Observation tensor: the 13 planes of
:mod:`donuts_ai.interop._planes`, shape ``(13, 6, 6)`` (channels first), from the
player's point of view; observation string: the position string (:meth:`Board.fen`).
Information state: the same planes followed by the moves so far, one-hot, shape
``(max_game_length, 36)`` (the history a perfect-recall player remembers); its string
is the moves so far as square names.

Agents both ways: :class:`DonutsBot` is any of our agents (an :class:`Agent` or a spec
such as ``"mcts:time=0.1"``) as a ``pyspiel.Bot``; :class:`OpenSpielMCTSAgent` is
OpenSpiel's ``MCTSBot`` (UCT with random rollouts) as one of our agents, so the
tournament harness rates it against ours (spec ``openspiel-mcts:simulations=1000`` or
``openspiel-mcts:time=1.0``).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TypedDict

try:
    import pyspiel
    from open_spiel.python.algorithms import mcts as _mcts
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(f"donuts_ai.interop.openspiel needs OpenSpiel: pip install 'donuts_ai[spiel]' ({exc})") from exc

import numpy as np
from numpy.typing import NDArray

from ..agents.base import (
    SIMULATIONS,
    Agent,
    budget,
    check_exploration,
    check_flag,
    check_time_limit,
    deprecated_alias,
    positive_int,
    renamed_argument,
)
from ..donuts.agents.donuts_agent import DonutsAgent
from ..donuts.board import Board
from ..donuts.layout import Layout, LayoutSpec
from ..donuts.rules import RULE_KEYS, Rules, make_rules
from ..donuts.squares import NUM_SQUARES, SIZE, SQUARE_NAMES, parse_square
from ..errors import AgentError
from ..outcomes import value_for
from ._options import InteropError
from ._planes import NUM_PLANES, write_planes

#: OpenSpiel's name of the game.
SHORT_NAME = "python_donuts"


class GameParams(TypedDict, total=False):
    """The game's parameters (see the module); one not given takes its :data:`DEFAULT_PARAMS` value."""

    layout: str
    layout_seed: int
    insertion: str
    donuts: int


#: The game's parameters and their defaults.
DEFAULT_PARAMS: GameParams = {"layout": "standard", "layout_seed": -1, **Rules().to_dict()}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Donuts",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(DEFAULT_PARAMS),
)


def _layout_of(params: GameParams) -> Layout:
    """The one layout a game is played on, from its ``layout`` and ``layout_seed``."""
    text, seed = params["layout"], params["layout_seed"]
    if seed != -1:
        if seed < 0:
            raise InteropError(f"layout_seed must be an int >= 0 (or -1 for none), got {seed}")
        if text != DEFAULT_PARAMS["layout"]:
            raise InteropError(f"give layout or layout_seed, not both (layout={text!r}, layout_seed={seed})")
        return Layout.random(seed)
    source = LayoutSpec(text)
    if source.drawn:
        raise InteropError(f"an OpenSpiel game is played on one layout: layout={text!r} draws a new one every game "
                           f"(give random:SEED, grid:SEED, layout text or layout_seed)")
    return source.layouts[0]


class OpenSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """The game ``python_donuts``: one layout and one rule variant (see the module)."""

    def __init__(self, params: GameParams | None = None):
        given: GameParams = {**(params or {})}
        full = DEFAULT_PARAMS | given
        self.layout = _layout_of(full)
        self.rules = Rules.from_dict({key: value for key, value in full.items() if key in RULE_KEYS})
        max_length = min(2 * self.rules.donuts, NUM_SQUARES)
        info = pyspiel.GameInfo(num_distinct_actions=NUM_SQUARES, max_chance_outcomes=0, num_players=2, min_utility=-1.0,
                                max_utility=1.0, utility_sum=0.0, max_game_length=max_length)
        super().__init__(_GAME_TYPE, info, given)

    def new_initial_state(self) -> DonutsState:
        return DonutsState(self, Board(self.layout, self.rules))

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: Mapping[str, object] | None = None) -> DonutsObserver:
        return DonutsObserver(self, iig_obs_type, params)


class _Position:
    """The state's Board, in a holder that copies it cheaply: OpenSpiel clones a Python
    state by deep-copying each of its attributes (MCTS clones one every simulation)."""

    __slots__ = ("board",)

    def __init__(self, board: Board):
        self.board = board

    def __deepcopy__(self, memo: dict[int, object]) -> _Position:
        return _Position(self.board.copy())

    def __reduce__(self) -> tuple[Callable[[str, Rules, list[str | None]], _Position], tuple[str, Rules, list[str | None]]]:
        # pickled by the position string, for State.serialize
        board = self.board
        return _position_from, (board.fen(), board.rules, [m for m in board.move_stack])


def _position_from(fen: str, rules: Rules, moves: list[str | None]) -> _Position:
    """A holder rebuilt from a pickle: the moves replayed on the start when they lead to
    ``fen``, else the position alone."""
    board = Board.from_fen(fen, rules)
    replayed = _replay(board.layout, rules, moves)
    return _Position(replayed if replayed is not None and replayed == board else board)


def _replay(layout: Layout, rules: Rules, moves: Iterable[str | None]) -> Board | None:
    board = Board(layout, rules)
    for move in moves:
        if move is None or not board.is_legal(move):
            return None
        board.push(move)
    return board


class DonutsState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type information
    """A position of ``python_donuts``: a :class:`~donuts_ai.Board` (:meth:`to_board`)."""

    def __init__(self, game: OpenSpielGame, board: Board):
        super().__init__(game)
        self._position = _Position(board)

    @property
    def _board(self) -> Board:
        return self._position.board

    def to_board(self) -> Board:
        """A copy of the position as a :class:`~donuts_ai.Board`, with its moves."""
        return self._board.copy()

    def current_player(self) -> int:
        turn = self._board.turn
        return pyspiel.PlayerId.TERMINAL if turn is None else turn

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._board.turn:
            return []
        return self._board.legal_squares()

    def _apply_action(self, action: int) -> None:
        self._board.push(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return SQUARE_NAMES[action]

    def is_terminal(self) -> bool:
        return self._board.is_game_over()

    def returns(self) -> list[float]:
        outcome = self._board.outcome()
        if outcome is None:
            return [0.0, 0.0]
        return [float(value_for(outcome.winner, player)) for player in range(2)]

    def __str__(self) -> str:
        return str(self._board)


class DonutsObserver:
    """Observation (default) and information state (``perfect_recall``) of a player, as
    a tensor and a string, following OpenSpiel's PyObserver interface."""

    def __init__(self, game: OpenSpielGame, iig_obs_type: pyspiel.IIGObservationType | None = None,
                 params: Mapping[str, object] | None = None):
        if params:
            raise InteropError(f"python_donuts takes no observation parameters; got {params}")
        self._public = iig_obs_type is None or iig_obs_type.public_info
        self._recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        pieces: list[tuple[str, tuple[int, ...]]] = []
        if self._public:
            pieces.append(("planes", (NUM_PLANES, SIZE, SIZE)))
            if self._recall:
                pieces.append(("history", (game.max_game_length(), NUM_SQUARES)))
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        self.dict: dict[str, NDArray[np.float32]] = {}
        start = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[start : start + size].reshape(shape)
            start += size

    def set_from(self, state: DonutsState, player: int) -> None:
        if "planes" in self.dict:
            write_planes(state._board, player, self.dict["planes"])
        if "history" in self.dict:
            history = self.dict["history"]
            history.fill(0.0)
            for ply, action in enumerate(state.history()):
                history[ply, action] = 1.0

    def string_from(self, state: DonutsState, player: int) -> str:
        if not self._public:
            return ""  # perfect information: nothing is private
        if self._recall:
            return " ".join(SQUARE_NAMES[a] for a in state.history())
        return state._board.fen()


pyspiel.register_game(_GAME_TYPE, OpenSpielGame)


def _layout_param(layout: Layout) -> str:
    """A layout as the ``layout`` parameter: its 36 symbols in one run (game-string safe)."""
    return "".join(layout.to_text().splitlines())


@functools.lru_cache(maxsize=256)
def _cached_game(layout: Layout, rules: Rules) -> OpenSpielGame:
    game: OpenSpielGame = pyspiel.load_game(SHORT_NAME, {"layout": _layout_param(layout), **rules.to_dict()})
    return game


def load(layout: Layout | str | None = None, rules: Rules | str | None = None, donuts: int | None = None) -> OpenSpielGame:
    """The ``python_donuts`` game of ``layout`` (a :class:`~donuts_ai.Layout`, layout text
    or a fixed layout spec such as ``"random:7"``; default standard) and ``rules`` (a
    :class:`~donuts_ai.Rules` or an insertion rule name) with ``donuts`` per player.
    Games of the same layout and rules are the same object."""
    if layout is None or isinstance(layout, Layout):
        fixed = layout or Layout.standard()
    else:
        source = LayoutSpec(layout)
        if source.drawn:
            raise InteropError(f"an OpenSpiel game is played on one layout; {layout!r} draws a new one every game")
        fixed = source.layouts[0]
    return _cached_game(fixed, make_rules(rules, donuts))


def state_from_board(board: Board, game: OpenSpielGame | None = None) -> DonutsState:
    """The OpenSpiel state of ``board``, in ``game`` (default: :func:`load` of the board's
    layout and rules). The board's moves are replayed from the start, so the state's
    ``history()`` holds them; a board set up from a position string (or with a forfeit
    in its moves) gives a state whose OpenSpiel history starts at that position."""
    if not isinstance(board, Board):
        raise TypeError(f"state_from_board needs a Board, got {type(board).__name__}")
    if game is None:
        game = load(board.layout, board.rules)
    elif (game.layout, game.rules) != (board.layout, board.rules):
        raise InteropError("state_from_board: the board's layout or rules differ from the game's")
    state = game.new_initial_state()
    replayed = _replay(board.layout, board.rules, board.move_stack)
    if replayed is not None and replayed == board:
        for move in board.move_stack:
            state.apply_action(parse_square(move))
    else:
        state._position = _Position(board.copy())
    return state


def board_of(state: object) -> Board:
    """The :class:`~donuts_ai.Board` of a ``python_donuts`` state (a copy)."""
    if not isinstance(state, DonutsState):
        raise TypeError(f"board_of needs a python_donuts state, got {type(state).__name__}")
    return state.to_board()


class DonutsBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel has no type information
    """One of our agents as a ``pyspiel.Bot`` for OpenSpiel's tools (``evaluate_bots``,
    its arenas): ``agent`` is an :class:`~donuts_ai.agents.Agent` or an agent spec
    (``"mcts:time=0.1"``, ``"alphabeta:depth=6"``; ``seed`` is used unless the spec sets
    one). ``restart_at`` starts a new game (:meth:`Agent.reset`); ``step`` returns the
    agent's move as an action."""

    def __init__(self, agent: Agent | str, seed: int | None = None):
        pyspiel.Bot.__init__(self)
        if isinstance(agent, str):
            from ..tournament.specs import make_agent

            built: Agent = make_agent(agent, seed, game="donuts")
        else:
            built = agent
        if not callable(getattr(built, "select_move", None)):
            raise InteropError(f"DonutsBot needs an agent (with select_move) or an agent spec, got {type(built).__name__}")
        self.agent = built

    def restart_at(self, state: pyspiel.State) -> None:
        self.agent.reset()

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        pass

    def step(self, state: pyspiel.State) -> int:
        return parse_square(self.agent.select_move(board_of(state)))

    def provides_policy(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"DonutsBot({self.agent!r})"


#: Fewest simulations of a search: MCTSBot expands its root on the second one.
MIN_SIMS = 2
#: Simulations of the short search with which a time-limited :class:`OpenSpielMCTSAgent`
#: measures MCTSBot's speed on each position before its real search.
CALIBRATION_SIMS = 32
#: Default exploration constant of MCTSBot's UCT (``exploration``; OpenSpiel's own default ``uct_c``).
DEFAULT_EXPLORATION = 2.0


class OpenSpielMCTSInfo(TypedDict, total=False):
    """:attr:`OpenSpielMCTSAgent.last_info`: empty before the first move, then the last
    move's simulations (of its last search) and seconds."""

    sims: int
    seconds: float


class OpenSpielMCTSAgent(DonutsAgent):
    """OpenSpiel's ``MCTSBot`` (UCT, exploration constant ``exploration``, ``rollouts`` uniformly random
    rollouts per leaf, MCTS-Solver backups when ``solve``) as one of our agents: spec
    ``openspiel-mcts:simulations=1000``.

    Limits: ``simulations`` a move (default 1000 when no ``time_limit``), or
    ``time_limit`` seconds a move (capped in blitz at a twentieth of the clock left):
    ``MCTSBot`` has no clock, so a search of :data:`CALIBRATION_SIMS` simulations
    measures its speed on the position, and a second, fresh search gets the
    simulations that fit in the rest of the budget at that speed (``simulations`` then caps
    them); the time used is close to the budget, not bounded by it. The search stops
    early when MCTS-Solver proves the root. A seed fixes every move of a
    simulation-limited agent. No tactical pass: it is OpenSpiel's bot as it comes.
    ``last_info`` holds the last move's simulations (of its last search) and seconds.
    ``sims=`` is the deprecated name of ``simulations`` (a :class:`DeprecationWarning`; the
    attribute ``sims`` too), taken until 0.6.0.
    """

    kind = "openspiel-mcts"
    DEPRECATED_PARAMETERS = {"sims": SIMULATIONS}
    #: Deprecated since 0.5.0: :attr:`simulations`.
    sims = deprecated_alias("sims", SIMULATIONS)

    def __init__(self, simulations: int | None = None, time_limit: float | None = None, *,
                 exploration: float = DEFAULT_EXPLORATION, rollouts: int = 1, solve: bool = True, sims: int | None = None,
                 seed: int | None = None, name: str | None = None):
        super().__init__(seed, name)
        given, given_as = renamed_argument("OpenSpielMCTSAgent", SIMULATIONS, simulations, "sims", sims)
        #: Simulations a move (MCTSBot's ``max_simulations``); ``None``: timed.
        self.simulations = positive_int(given_as, given)
        if self.simulations is not None and self.simulations < MIN_SIMS:
            raise AgentError(f"{given_as} must be at least {MIN_SIMS} (MCTSBot expands its root on the second simulation), "
                             f"got {given}")
        self.time_limit = check_time_limit(time_limit)
        if self.simulations is None and self.time_limit is None:
            self.simulations = 1000
        self.exploration = check_exploration(exploration)
        self.rollouts = positive_int("rollouts", rollouts, allow_none=False)
        self.solve = check_flag("solve", solve)
        self.last_info: OpenSpielMCTSInfo = {}

    def params(self) -> dict[str, object]:
        p = {k: getattr(self, k) for k in (SIMULATIONS, "time_limit") if getattr(self, k) is not None}
        defaults = {"exploration": DEFAULT_EXPLORATION, "rollouts": 1, "solve": True}
        p |= {k: getattr(self, k) for k, v in defaults.items() if getattr(self, k) != v}
        return p | super().params()

    def _search(self, state: DonutsState, game: OpenSpielGame, sims: int) -> tuple[int, int]:
        """(the most visited move, simulations run: fewer than ``sims`` when the root is proven)."""
        random_state = np.random.RandomState(self.rng.getrandbits(32))
        evaluator = _mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts, random_state=random_state)
        bot = _mcts.MCTSBot(game, self.exploration, sims, evaluator, solve=self.solve, random_state=random_state)
        root = bot.mcts_search(state)
        return root.best_child().action, root.explore_count

    def _select(self, board: Board, time_left: float | None) -> str:
        start = time.perf_counter()
        game = load(board.layout, board.rules)
        state = state_from_board(board, game)
        seconds = budget(self.time_limit, time_left)
        if seconds is None:
            assert self.simulations is not None  # set when there is no time limit
            action, done = self._search(state, game, self.simulations)
        else:
            # MCTSBot has no clock: measure its speed on this position with a short
            # search, then give it the simulations that fit in the rest of the budget.
            calibration = CALIBRATION_SIMS if self.simulations is None else min(CALIBRATION_SIMS, self.simulations)
            t = time.perf_counter()
            action, done = self._search(state, game, calibration)
            rate = done / max(time.perf_counter() - t, 1e-6)
            left = seconds - (time.perf_counter() - start)
            sims = int(rate * left)
            if self.simulations is not None:
                sims = min(sims, self.simulations)
            if done >= calibration and sims > calibration:  # else the short search's move stands
                action, done = self._search(state, game, sims)
        self.last_info = {"sims": done, "seconds": time.perf_counter() - start}
        return SQUARE_NAMES[action]


__all__ = [
    "DEFAULT_PARAMS",
    "CALIBRATION_SIMS",
    "MIN_SIMS",
    "SHORT_NAME",
    "DonutsBot",
    "GameParams",
    "OpenSpielGame",
    "DonutsObserver",
    "DonutsState",
    "OpenSpielMCTSAgent",
    "OpenSpielMCTSInfo",
    "board_of",
    "load",
    "state_from_board",
]
