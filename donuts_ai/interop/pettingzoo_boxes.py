"""Donut Boxes as a PettingZoo AEC environment, ``donut_boxes_v0`` (``pip install 'donuts_ai[rl]'``):
``donuts_ai.interop.pettingzoo.env(game="boxes", players=N)``, 2 to 10 players.

It follows PettingZoo's classic card games (``leduc_holdem``): :func:`env` wraps
:class:`raw_env` in the standard wrappers (an illegal move ends the game with -1 for its
player). Agents are ``player_0`` .. ``player_{N-1}`` in turn order. Actions are
``Discrete(K)``, the dense move index of :class:`~donuts_ai.boxes.encoding.ActionEncoding`
on a table of ``radius`` (``env.unwrapped.encoding``); observations are a dict of
``observation`` planes, ``features`` and ``action_mask``, built from the player's view
alone (:mod:`donuts_ai.boxes.encoding` lists every plane and field); the info of the agent
to move holds that view as ``info["observation"]``, which the library's agents take.
Rewards are by final place (``reward="place"``) or the points as scored (``"score"``). A
game whose cards reach the table's edge is truncated. ``env.unwrapped.state`` is the
:class:`~donuts_ai.boxes.BoxesState`.

The how-to "Use the environments" gives an example, the keyword arguments and every
figure. Importing this module registers ``donuts_ai/boxes-v0`` when the installed
PettingZoo has a registry.
"""

from __future__ import annotations

import warnings
from typing import Any, SupportsInt, TypedDict, Unpack

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(f"donuts_ai.interop.pettingzoo_boxes needs PettingZoo and Gymnasium: pip install 'donuts_ai[rl]' ({exc})") from exc

import numpy as np
from numpy.typing import NDArray

from .._checks import check_seed
from ..boxes.encoding import ActionEncoding, ObservationEncoding
from ..boxes.rules import ONE, SQUARED, BoxesRules
from ..boxes.state import BoxesObservation, BoxesState
from ._options import InteropError

#: The environment's name (PettingZoo's ``metadata["name"]``).
NAME = "donut_boxes_v0"
#: Its id in PettingZoo's registry.
REGISTRY_ID = "donuts_ai/boxes-v0"
RENDER_MODES = ("ansi", "human")
#: The reward schemes (see the module): by final place, or the rulebook's points as scored.
PLACE_REWARD, SCORE_REWARD = "place", "score"
REWARDS = (PLACE_REWARD, SCORE_REWARD)
#: The reward of an illegal action under :func:`env` (PettingZoo's wrapper ends the game).
ILLEGAL_REWARD = -1
#: A game's deal seed drawn by a reset without a seed: 0 .. 2**63 - 1.
GAME_SEEDS = 2**63
#: The end reason of a game truncated at the table's edge (the others are :attr:`~donuts_ai.boxes.state.BoxesOutcome.reason`'s).
TABLE_EDGE = "table edge"


class BoxesEnvOptions(TypedDict, total=False):
    """The keyword arguments of :func:`env` and :class:`raw_env` (see the module)."""

    players: int
    grid: str
    matching: str
    closers: bool
    radius: int | None
    reward: str
    render_mode: str | None


class BoxesEnvObservation(TypedDict):
    """What :meth:`raw_env.observe` returns for an agent (see the module and :mod:`donuts_ai.boxes.encoding`)."""

    observation: NDArray[np.float32]
    features: NDArray[np.float32]
    action_mask: NDArray[np.int8]


class BoxesInfo(TypedDict, total=False):
    """An agent's ``infos`` entry: the view of the agent to move (``observation``) while the
    game goes on, nothing for the others; at the end, for every agent, how it ended
    (``reason``: ``"score"``, ``"boxes"``, ``"shared win"`` or ``"table edge"``), the
    ``scores`` and ``boxes`` by player, and, unless truncated, the ``places`` (0 first) and
    the ``winners`` (agent names)."""

    observation: BoxesObservation
    reason: str
    scores: list[int]
    boxes: list[int]
    places: list[int]
    winners: list[str]


def place_rewards(places: list[int]) -> list[float]:
    """Each player's reward for their final place: from +1 for first to -1 for last in even
    steps; players sharing a place share the mean of the places they cover (``[0, 0, 2]`` ->
    ``[0.5, 0.5, -1.0]``).

    Args:
        places: each player's place (:meth:`~donuts_ai.boxes.state.BoxesState.ranking`, 0 first).
    """
    last = len(places) - 1
    shared = {place: places.count(place) for place in places}
    # Places p .. p + m - 1 are worth 1 - 2 * i / last each; their mean is at i = p + (m - 1) / 2.
    return [1 - 2 * (place + (shared[place] - 1) / 2) / last for place in places]


def env(**kwargs: Unpack[BoxesEnvOptions]) -> AECEnv:
    """Donut Boxes in PettingZoo's standard wrappers.

    Args:
        kwargs: those of :class:`raw_env`.
    """
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=ILLEGAL_REWARD)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


# Lower case: PettingZoo's name for the unwrapped environment.
class raw_env(AECEnv, EzPickle):  # type: ignore[misc]  # PettingZoo has no type information
    """Donut Boxes as an AEC environment, without wrappers: an illegal action raises
    :class:`~donuts_ai.errors.IllegalMoveError` here (use :func:`env` for PettingZoo's
    behaviour). The module says what the spaces and rewards are.

    Args:
        players: 2..10.
        grid: ``"squared"`` or ``"splitzkies"``.
        matching: ``"one"`` or ``"perfect"``.
        closers: the closers rule switch (:class:`~donuts_ai.boxes.BoxesRules`).
        radius: the table's radius, even, 4..1024 (default ``30 + 2 * players``).
        reward: ``"place"`` (by final place, at the end) or ``"score"`` (the points as scored).
        render_mode: ``"ansi"`` (:meth:`render` returns the state's text picture, the mover's
            tray included: a viewer's view, not an agent's) or ``"human"`` (prints it after
            every step).
    """

    metadata = {"render_modes": list(RENDER_MODES), "name": NAME, "is_parallelizable": False, "render_fps": 2}

    def __init__(self, players: int = 2, *, grid: str = SQUARED, matching: str = ONE, closers: bool = False,
                 radius: int | None = None, reward: str = PLACE_REWARD, render_mode: str | None = None):
        EzPickle.__init__(self, players=players, grid=grid, matching=matching, closers=closers, radius=radius,
                          reward=reward, render_mode=render_mode)
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InteropError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, got {render_mode!r}")
        if not isinstance(reward, str) or reward not in REWARDS:
            raise InteropError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
        self.render_mode, self.reward = render_mode, reward
        self.rules = BoxesRules(players, grid, matching, closers)
        self.encoding = ActionEncoding(self.rules, radius)
        self.views = ObservationEncoding(self.rules, self.encoding.radius)
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.action_spaces = {a: spaces.Discrete(self.encoding.size) for a in self.possible_agents}
        self.observation_spaces = {a: self._observation_space() for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self._start(BoxesState(self.rules, int(self._rng.integers(GAME_SEEDS))))

    def _observation_space(self) -> spaces.Dict:
        views = self.views
        return spaces.Dict({
            "observation": spaces.Box(low=0.0, high=1.0, shape=views.plane_shape, dtype=np.float32),
            "features": spaces.Box(low=np.zeros(views.num_features, dtype=np.float32), high=views.feature_high, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.encoding.size,), dtype=np.int8),
        })

    # --- spaces ---------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Dict:
        """The observation's space (a ``Dict`` of ``observation``, ``features`` and ``action_mask``).

        Args:
            agent: ``player_0`` .. ``player_{N-1}``.
        """
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """``Discrete(K)``: the dense move index of the environment's ``encoding``.

        Args:
            agent: ``player_0`` .. ``player_{N-1}``.
        """
        return self.action_spaces[agent]

    # --- the game -------------------------------------------------------------------
    def _start(self, state: BoxesState) -> None:
        self.state = state
        self._views: dict[int, BoxesObservation] = {}  # each player's view of the state, made when first read
        self._mask: NDArray[np.int8] | None = None  # the legal moves' mask, likewise
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._select(self._player_to_move())

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game.

        Args:
            seed: a non-negative Python or NumPy int: the deal of ``BoxesState(rules, seed)``, and
                the stream of the next resets' deals seeded by it; ``None``: the stream's next deal.
            options: ignored.
        """
        seed = check_seed("seed", seed, error=InteropError)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(GAME_SEEDS)) if seed is None else seed
        self._start(BoxesState(self.rules, game_seed))

    def _player_to_move(self) -> int:
        turn = self.state.turn
        assert turn is not None  # the game goes on
        return turn

    def _view(self, player: int) -> BoxesObservation:
        view = self._views.get(player)
        if view is None:
            view = self._views[player] = self.state.observation(player)
        return view

    def _select(self, player: int) -> None:
        """The agent to move is ``player``; its info is its view, the others' empty."""
        self.agent_selection = self.possible_agents[player]
        self.infos: dict[str, BoxesInfo] = {a: {} for a in self.agents}
        self.infos[self.agent_selection] = {"observation": self._view(player)}

    def observe(self, agent: str) -> BoxesEnvObservation:
        """The observation of ``agent``, from its view alone.

        Args:
            agent: ``player_0`` .. ``player_{N-1}``.
        """
        player = self.possible_agents.index(agent)
        view = self._view(player)
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            if self._mask is None:
                self._mask = self.encoding.mask(self.state.legal_move_ids())
            mask = self._mask.copy()
        else:
            mask = np.zeros(self.encoding.size, dtype=np.int8)
        return {"observation": self.views.planes(view), "features": self.views.features(view), "action_mask": mask}

    def step(self, action: SupportsInt | None) -> None:
        """Play the agent to move's action.

        Args:
            action: a move index, or ``None`` for an agent whose game is over.

        Raises:
            IllegalMoveError: a move not legal now (the wrapped :func:`env` ends the game instead).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError(f"{agent} is to move: its action must be a move index, got None")
        code = self.encoding.code(int(action))
        self._cumulative_rewards[agent] = 0.0
        before = self.state.scores
        self.state.push_id(code)
        self._views, self._mask = {}, None
        self._clear_rewards()
        if self.reward == SCORE_REWARD:
            for name, old, new in zip(self.possible_agents, before, self.state.scores, strict=True):
                self.rewards[name] = float(new - old)
        mover = self.possible_agents.index(agent)
        if self.state.is_game_over():
            self._end(mover)
        elif not self.encoding.covers(self._view(self._player_to_move())):
            self._truncate()
        else:
            self._select(self._player_to_move())
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end(self, mover: int) -> None:
        outcome = self.state.outcome()
        assert outcome is not None  # the game is over
        if self.reward == PLACE_REWARD:
            for name, value in zip(self.possible_agents, place_rewards(list(outcome.places)), strict=True):
                self.rewards[name] = value
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos = {a: {"reason": outcome.reason, "scores": list(outcome.scores), "boxes": list(outcome.boxes),
                          "places": list(outcome.places), "winners": [self.possible_agents[p] for p in outcome.winners]}
                      for a in self.agents}
        # Like the card games: the agents are told in turn order from the one after the mover.
        self.agent_selection = self.possible_agents[(mover + 1) % len(self.possible_agents)]

    def _truncate(self) -> None:
        self.truncations = dict.fromkeys(self.agents, True)
        self.infos = {a: {"reason": TABLE_EDGE, "scores": self.state.scores, "boxes": self.state.boxes_delivered}
                      for a in self.agents}
        self.agent_selection = self.possible_agents[self._player_to_move()]

    # --- rendering ------------------------------------------------------------------
    def render(self) -> str | None:
        """``"ansi"``: the state's text picture (the mover's tray included); ``"human"``: print it."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        text = str(self.state)
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
