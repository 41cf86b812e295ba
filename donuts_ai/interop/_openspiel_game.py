"""The OpenSpiel game ``python_donuts``: the game half of :mod:`donuts_ai.interop.openspiel`
(which names everything), registered with ``pyspiel`` when imported. Apart from the agents
so that registering the game (on ``import donuts_ai``, where OpenSpiel is installed) loads
no agent and none of OpenSpiel's algorithms."""


from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import TypedDict

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(f"donuts_ai.interop.openspiel needs OpenSpiel: pip install 'donuts_ai[spiel]' ({exc})") from exc

import numpy as np
from numpy.typing import NDArray

from ..donuts.board import Board
from ..donuts.layout import Layout, LayoutSpec
from ..donuts.rules import RULE_KEYS, Rules, make_rules
from ..donuts.squares import NUM_SQUARES, SIZE, SQUARE_NAMES, parse_square
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
