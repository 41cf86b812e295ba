"""Donuts as a PettingZoo AEC environment, ``donuts_v0`` (``pip install 'donuts_ai[rl]'``).

It follows PettingZoo's classic board games (``connect_four_v3``): :func:`env` wraps
:class:`raw_env` in the standard wrappers (an illegal move ends the game with -1 for its
player). Agents are ``player_0`` (Chocolate, moves first) and ``player_1`` (Vanilla);
an action is a square index, ``Discrete(36)`` (a1 = 0); an observation is a dict of
``observation``, ``float32[6, 6, 13]`` planes from the observer's side
(:mod:`donuts_ai.interop._planes`), and ``action_mask``, ``int8[36]``. Rewards are +1 / -1
at the end, 0 for a draw. The same agent may move twice in a row (when the other's pool is
empty): read ``agent_selection`` rather than alternating agents yourself.

Keyword arguments: ``layout`` (a :class:`~donuts_ai.Layout`, layout text or a layout spec;
``"random"`` draws a fresh one at every reset), ``rules``, ``donuts`` and ``render_mode``
(``"ansi"``, ``"human"``, ``"rgb_array"``). ``reset(seed=...)`` draws layouts as game 0 of
a :class:`~donuts_ai.VectorEnv` does; ``reset(options={"layout": ...})`` or
``options={"fen": ...}`` sets the next game's layout or start. ``env.unwrapped.board`` is
the :class:`~donuts_ai.Board`, so the library's agents play in it. ``env(game="boxes",
players=N)`` is Donut Boxes (:mod:`donuts_ai.interop.pettingzoo_boxes`). Importing this
module registers ``donuts_ai/donuts-v0`` (and ``donuts_ai/boxes-v0``) with PettingZoo's
registry; the how-to "Use the environments" gives an example.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Sequence
from typing import Any, Literal, SupportsInt, TypedDict, Unpack, overload

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(f"donuts_ai.interop.pettingzoo needs PettingZoo and Gymnasium: pip install 'donuts_ai[rl]' ({exc})") from exc

import numpy as np
from numpy.typing import NDArray

from .._checks import check_seed
from ..donuts.board import Board
from ..donuts.layout import Layout, LayoutSpec
from ..donuts.rules import Rules, make_rules
from ..donuts.squares import NUM_SQUARES, SIZE
from ..donuts.vector_env import VectorEnv
from ..errors import DonutsError
from ..outcomes import value_for
from ._options import InteropError
from ._planes import NUM_PLANES, action_mask, write_planes
from .pettingzoo_boxes import BoxesEnvOptions
from .pettingzoo_boxes import env as boxes_env

#: The environment's name (PettingZoo's ``metadata["name"]``).
NAME = "donuts_v0"
#: Its id in PettingZoo's registry.
REGISTRY_ID = "donuts_ai/donuts-v0"
AGENTS = ("player_0", "player_1")
RENDER_MODES = ("ansi", "human", "rgb_array")
#: The games :func:`env` plays: Donuts (this module's ``raw_env``) and Donut Boxes (``pettingzoo_boxes``).
GAMES = ("donuts", "boxes")


class EnvOptions(TypedDict, total=False):
    """The keyword arguments of :func:`env` and :class:`raw_env` (see the module)."""

    layout: Layout | str | None
    rules: Rules | str | None
    donuts: int | None
    render_mode: str | None


class ResetOptions(TypedDict, total=False):
    """The ``options`` of :meth:`raw_env.reset`: a layout spec, or a position string."""

    layout: Layout | str | Sequence[Layout] | None
    fen: str | None


class Observation(TypedDict):
    """What :meth:`raw_env.observe` returns for an agent."""

    #: ``float32[6, 6, 13]``: the planes from the agent's point of view, channels last.
    observation: NDArray[np.float32]
    #: ``int8[36]``: the legal squares (all zero for the agent not to move).
    action_mask: NDArray[np.int8]


class EndInfo(TypedDict, total=False):
    """An agent's ``infos`` entry: empty until the game ends, then its winner (an agent
    name, ``None`` for a draw) and how it ended."""

    winner: str | None
    reason: str


@overload
def env(game: Literal["donuts"] = "donuts", **kwargs: Unpack[EnvOptions]) -> AECEnv: ...
@overload
def env(game: Literal["boxes"], **kwargs: Unpack[BoxesEnvOptions]) -> AECEnv: ...
def env(game: str = "donuts", **kwargs: Any) -> AECEnv:
    """The environment in PettingZoo's standard wrappers for board games.

    Args:
        game: ``"donuts"``, or ``"boxes"`` for Donut Boxes (:mod:`donuts_ai.interop.pettingzoo_boxes`).
        kwargs: those of the game's ``raw_env``.
    """
    if game == "boxes":
        return boxes_env(**kwargs)
    if game != "donuts":
        raise InteropError(_no_environment(game))
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


def _no_environment(game: str) -> str:
    """Why :func:`env` has no environment of ``game``: for a game in the one table of games
    (a registered name, or ``"module:name"``, whose module is imported), that these
    environments serve :data:`GAMES` only; for any other, the table's own error."""
    from ..tournament import get_game  # the table of games, read only to say why: the harness stays unloaded

    try:
        name = get_game(game).name
    except DonutsError as exc:
        return str(exc)
    return (f"the PettingZoo environments serve {' and '.join(GAMES)} only; {name!r} is in the table of games but has "
            "no environment (the game contract has no action numbering nor observation tensor)")


# Lower case: PettingZoo's name for the unwrapped environment.
class raw_env(AECEnv, EzPickle):  # type: ignore[misc]  # PettingZoo has no type information
    """Donuts as an AEC environment, without wrappers: an illegal action raises
    :class:`~donuts_ai.errors.IllegalMoveError` here (use :func:`env` for PettingZoo's
    behaviour). The module says what the spaces and rewards are.

    Args:
        layout: a :class:`~donuts_ai.Layout`, layout text, or a layout spec: ``"standard"``
            (default), ``"random"`` / ``"grid"`` for a fresh draw at every reset,
            ``"random:SEED:COUNT"`` for a pool drawn from at every reset, a file.
        rules: a :class:`~donuts_ai.Rules` or an insertion rule, ``"group"`` or ``"single"``.
        donuts: donuts per player, overriding the rules'.
        render_mode: ``"ansi"`` (:meth:`render` returns the text diagram), ``"human"`` (prints
            it after every step) or ``"rgb_array"`` (the board's picture as ``uint8[H, W, 3]``).
    """

    metadata = {"render_modes": list(RENDER_MODES), "name": NAME, "is_parallelizable": False, "render_fps": 2}

    def __init__(self, layout: Layout | str | None = "standard", rules: Rules | str | None = None, donuts: int | None = None,
                 render_mode: str | None = None):
        EzPickle.__init__(self, layout=layout, rules=rules, donuts=donuts, render_mode=render_mode)
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InteropError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.rules = make_rules(rules, donuts)
        # The layouts are drawn as game 0 of a VectorEnv draws them (and so the Gymnasium
        # environment's): the same seed gives the same games in all three.
        self._draws = VectorEnv(1, layout=layout, rules=self.rules)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.action_spaces = {a: spaces.Discrete(NUM_SQUARES) for a in AGENTS}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=0.0, high=1.0, shape=(SIZE, SIZE, NUM_PLANES), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(NUM_SQUARES,), dtype=np.int8),
            })
            for a in AGENTS
        }
        self._planes = np.empty((NUM_PLANES, SIZE, SIZE), dtype=np.float32)
        self.board = Board(self._draws.layout(0), self.rules)
        self._start(self.board)

    # --- spaces ---------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Dict:
        """The observation's space (a ``Dict`` of ``observation`` and ``action_mask``).

        Args:
            agent: ``player_0`` .. ``player_{N-1}``.
        """
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """``Discrete(36)``: a square index, a1 = 0.

        Args:
            agent: ``player_0`` .. ``player_{N-1}``.
        """
        return self.action_spaces[agent]

    # --- the game -------------------------------------------------------------------
    def _start(self, board: Board) -> None:
        self.board = board
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, EndInfo] = {a: {} for a in self.agents}
        assert board.turn is not None  # a game that goes on
        self.agent_selection = self.possible_agents[board.turn]

    def reset(self, seed: int | None = None, options: ResetOptions | None = None) -> None:
        """Start a new game.

        Args:
            seed: reseeds the layout draws (a drawn layout, ``"random"``, ``"grid"`` or a pool, is
                the same for the same seed): a Python or NumPy integer in 0..2**64-1.
            options: ``{"layout": ...}`` plays this game on that layout (any form the ``layout``
                argument takes); ``{"fen": ...}`` starts from that position string
                (:meth:`Board.fen`, under the environment's rules; the game must not be over);
                other keys are ignored.
        """
        self._draws.reset(check_seed("seed", seed, error=InteropError))  # None: the next draw of the streams
        options = options or {}
        fen, layout = options.get("fen"), options.get("layout")
        if fen is not None:
            if layout is not None:
                raise InteropError("reset options: give layout or fen, not both (a position string holds its layout)")
            board = Board.from_fen(fen, self.rules)
            if board.is_game_over():
                raise InteropError(f"reset options: the game of fen {fen!r} is over")
        else:
            drawn = self._draws.layout(0) if layout is None else LayoutSpec(layout).draw(random.Random(self._draws.seed))
            board = Board(drawn, self.rules)
        self._start(board)

    def observe(self, agent: str) -> Observation:
        """The observation of ``agent``, from its side.

        Args:
            agent: ``player_0`` .. ``player_{N-1}``.
        """
        player = self.possible_agents.index(agent)
        obs = write_planes(self.board, player, self._planes).transpose(1, 2, 0).copy()
        if agent == self.agent_selection and not self.board.is_game_over():
            mask = action_mask(self.board)
        else:
            mask = np.zeros(NUM_SQUARES, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: SupportsInt | None) -> None:
        """Play the agent to move's action.

        Args:
            action: a square index, or ``None`` for an agent whose game is over.

        Raises:
            IllegalMoveError: a square not legal now (the wrapped :func:`env` ends the game instead).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError(f"{agent} is to move: its action must be a square index, got None")
        self._cumulative_rewards[agent] = 0
        self.board.push(int(action))
        self._clear_rewards()
        outcome = self.board.outcome()
        if outcome is not None:
            winner = outcome.winner
            for player, name in enumerate(self.possible_agents):
                self.rewards[name] = value_for(winner, player)
            self.terminations = dict.fromkeys(self.agents, True)
            result: EndInfo = {"winner": None if winner is None else self.possible_agents[winner], "reason": str(outcome.reason)}
            self.infos = {a: result.copy() for a in self.agents}
            # Like connect_four: the agent that did not make the last move is told first.
            self.agent_selection = self.possible_agents[1 - self.possible_agents.index(agent)]
        else:
            assert self.board.turn is not None  # the game goes on
            self.agent_selection = self.possible_agents[self.board.turn]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # --- rendering ------------------------------------------------------------------
    def render(self) -> str | NDArray[np.uint8] | None:
        """``"ansi"``: the board's text diagram; ``"human"``: print it (returns ``None``);
        ``"rgb_array"``: the board's picture as ``uint8[H, W, 3]`` pixels (:meth:`Board.rgb_array`),
        for video recorders."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.render_mode == "rgb_array":
            return self.board.rgb_array()
        text = str(self.board)
        if self.render_mode == "ansi":
            return text
        print(text, flush=True)
        return None

    def close(self) -> None:
        """Nothing to release (no window)."""


def _register() -> None:
    """Add the environment to PettingZoo's registry, when the installed version has one."""
    try:
        from pettingzoo import register
    except ImportError:  # PettingZoo before its registry
        return
    with warnings.catch_warnings():  # a reload re-registers the same entry point
        warnings.simplefilter("ignore")
        register("aec", REGISTRY_ID, entry_point=f"{__name__}:env")


_register()
