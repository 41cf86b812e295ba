"""Donuts as Gymnasium environments: a vector environment on the compiled batch, and one game.

    import gymnasium
    import donuts_ai  # registers donuts_ai/Donuts-v0

    envs = gymnasium.make_vec("donuts_ai/Donuts-v0", num_envs=8, vectorization_mode="vector_entry_point")
    obs, infos = envs.reset(seed=1)

:class:`DonutsVectorEnv` is a :class:`gymnasium.vector.VectorEnv` over
:class:`~donuts_ai.VectorEnv`, built the way pgx builds two-player games: one action per
game per step for the side to move (``infos["to_move"]``; the observation is that side's
13 planes of :mod:`donuts_ai.interop._planes` and its ``action_mask``); the reward belongs
to the player who acted (+1 when its move won, -1 when it lost); games reset in the same
step (``infos["final_obs"]``, ``infos["final_info"]``); the arrays returned are the
caller's; seeds follow Gymnasium and give the games of :class:`~donuts_ai.VectorEnv`.
:class:`DonutsEnv` is one game as a :class:`gymnasium.Env`, where an illegal action loses
the game (``info["illegal"]``) instead of raising
:class:`~donuts_ai.errors.IllegalMoveError`. Both take ``layout`` and ``rules`` as
:class:`~donuts_ai.VectorEnv` does. The how-to "Use the environments" says the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from .._checks import check_seed
from ..donuts.layout import Layout
from ..donuts.planes import NUM_PLANES
from ..donuts.rules import Rules
from ..donuts.squares import NUM_SQUARES, SIZE
from ..donuts.vector_env import VectorEnv
from ._options import InteropError

#: The environments' id in Gymnasium's registry (registered by :func:`register_envs`).
ENV_ID = "donuts_ai/Donuts-v0"
#: What the reward of a move is when it wins, loses or draws the game (0 on other steps too).
WIN_REWARD, LOSS_REWARD, DRAW_REWARD = 1.0, -1.0, 0.0

LayoutArg = Layout | str | Sequence[Layout] | None


def single_observation_space() -> spaces.Dict:
    """One game's observation: the planes from the side to move, and its legal squares."""
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, (SIZE, SIZE, NUM_PLANES), np.float32),
        "action_mask": spaces.Box(0, 1, (NUM_SQUARES,), np.int8),
    })


def _seed_of(seed: int | Sequence[int] | None) -> int | None:
    """A vector reset's seed: one int, or a list of per-game seeds whose first seeds every
    game (the batch has one seed, from which each game takes its own stream)."""
    if isinstance(seed, list | tuple):
        if not seed:
            raise InteropError("seed: an empty list of seeds")
        for s in seed:
            check_seed("seed", s, allow_none=True, error=InteropError)
        seed = seed[0]
    return check_seed("seed", seed, error=InteropError)


class DonutsVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of Donuts as a Gymnasium vector environment over :class:`~donuts_ai.VectorEnv`.

    One action per game per step, for the side to move: the observation is that side's 13
    planes and ``action_mask``, and ``infos["to_move"]`` says which colour it is (the same side
    may move twice in a row). The reward belongs to the player who acted: +1 when its move won
    the game, -1 when it lost it. A game that ends resets in the same step
    (``AutoresetMode.SAME_STEP``): its final observation is ``infos["final_obs"][i]`` and
    ``infos["final_info"]`` holds ``reason`` and ``plies``. The arrays returned are the caller's.

    Args:
        num_envs: the games.
        layout: as :class:`~donuts_ai.VectorEnv` takes it (``"random"``: a fresh tile
            arrangement every game).
        rules: a :class:`~donuts_ai.Rules` or an insertion rule name.
        render_mode: ``None``: the vector environment draws nothing.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 1, layout: LayoutArg = "standard", rules: Rules | str | None = None,
                 render_mode: str | None = None):
        if render_mode is not None:
            raise InteropError(f"render_mode: the vector environment draws nothing, got {render_mode!r}")
        self._games = VectorEnv(num_envs, layout=layout, rules=rules)  # a drawn seed until reset(seed=)
        self.num_envs = self._games.num_envs
        self.single_observation_space = single_observation_space()
        self.single_action_space = spaces.Discrete(NUM_SQUARES)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.render_mode = None
        self._rows = np.arange(self.num_envs)

    @property
    def games(self) -> VectorEnv:
        """The :class:`~donuts_ai.VectorEnv` underneath (zero-copy arrays; its ``seed``)."""
        return self._games

    def _observations(self) -> dict[str, NDArray[Any]]:
        # Copies: the caller keeps what it is given (VectorEnv's arrays are overwritten in place).
        return {"observation": self._games.observation_array(),
                "action_mask": self._games.legal_action_mask.astype(np.int8)}

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, NDArray[Any]], dict[str, Any]]:
        """Start every game anew.

        Args:
            seed: a Python or NumPy integer in 0..2**64-1 (or a list of them, one per game, of which
                the first seeds them all): the games of :class:`~donuts_ai.VectorEnv` under that
                seed; ``None`` goes on with the streams, drawing new layouts.
            options: none are taken (an :class:`~._options.InteropError` otherwise).

        Returns:
            ``(observations, infos)``.
        """
        if options:
            raise InteropError(f"reset options: none are taken, got {sorted(options)}")
        self._games.reset(_seed_of(seed))
        return self._observations(), {"to_move": self._games.current_player.copy()}

    def step(self, actions: Any) -> tuple[dict[str, NDArray[Any]], NDArray[np.float32], NDArray[np.bool_],
                                          NDArray[np.bool_], dict[str, Any]]:
        """One move in every game.

        Args:
            actions: ``actions[i]``, a square index legal in game ``i``.

        Returns:
            ``(observations, rewards, terminations, truncations, infos)``.

        Raises:
            IllegalMoveError: an action not legal in its game, naming it; nothing changes.
        """
        mover = self._games.current_player.copy()
        self._games.step(actions)
        rewards = self._games.rewards[self._rows, mover].copy()  # the player who acted
        terminations = self._games.terminated.copy()
        infos: dict[str, Any] = {"to_move": self._games.current_player.copy()}
        if terminations.any():
            ended = np.flatnonzero(terminations)
            final = self._games.final_observation_array(ended)  # a new array: each game's entry is a view of it
            final_obs = np.full(self.num_envs, None, dtype=object)
            for k, i in enumerate(ended):
                final_obs[i] = {"observation": final[k], "action_mask": np.zeros(NUM_SQUARES, np.int8)}
            infos["final_obs"], infos["_final_obs"] = final_obs, terminations.copy()
            infos["final_info"] = {"reason": self._games.final_reason, "plies": self._games.final_plies,
                                   "_reason": terminations.copy(), "_plies": terminations.copy()}
            infos["_final_info"] = terminations.copy()
        return (self._observations(), rewards, terminations, np.zeros(self.num_envs, dtype=np.bool_), infos)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games are arrays.

        Args:
            kwargs: ignored.
        """


class DonutsEnv(gymnasium.Env):
    """One game of Donuts as a Gymnasium environment, self-play: the observation is from the side
    to move, the reward the mover's (as :class:`DonutsVectorEnv`). An illegal action ends the
    game, lost by the player who made it (``info["illegal"]``), as PettingZoo's board games do.

    Args:
        layout: as :class:`~donuts_ai.VectorEnv` takes it.
        rules: a :class:`~donuts_ai.Rules` or an insertion rule name.
        render_mode: ``None``, ``"ansi"`` or ``"rgb_array"``.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}

    def __init__(self, layout: LayoutArg = "standard", rules: Rules | str | None = None, render_mode: str | None = None):
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise InteropError(f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}")
        self._games = DonutsVectorEnv(1, layout=layout, rules=rules)
        self.observation_space = self._games.single_observation_space
        self.action_space = self._games.single_action_space
        self.render_mode = render_mode

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, NDArray[Any]], dict[str, Any]]:
        """Start a new game.

        Args:
            seed: a Python or NumPy integer in 0..2**64-1; ``None`` goes on with the stream.
            options: none are taken (an :class:`~._options.InteropError` otherwise).

        Returns:
            ``(observation, info)``.
        """
        super().reset(seed=None if seed is None else check_seed("seed", seed, error=InteropError))
        obs, infos = self._games.reset(seed=seed, options=options)
        return {k: v[0] for k, v in obs.items()}, {"to_move": int(infos["to_move"][0])}

    def step(self, action: Any) -> tuple[dict[str, NDArray[Any]], float, bool, bool, dict[str, Any]]:
        """Play one move for the side to move.

        Args:
            action: a square index.

        Returns:
            ``(observation, reward, terminated, truncated, info)``.
        """
        games = self._games.games
        if not (self.action_space.contains(action) and games.legal_action_mask[0, int(action)]):
            # As PettingZoo's board games do (and Gymnasium's checker samples without the mask):
            # an illegal action ends the game, lost by the player who made it.
            planes = games.observation[0].copy()
            return ({"observation": planes, "action_mask": np.zeros(NUM_SQUARES, np.int8)}, LOSS_REWARD, True, False,
                    {"to_move": int(games.current_player[0]), "illegal": True})
        obs, rewards, terminations, truncations, infos = self._games.step(np.array([action], dtype=np.int64))
        info: dict[str, Any] = {"to_move": int(infos["to_move"][0])}
        if terminations[0]:  # Gymnasium's single env stops at the end: hand back the final position
            obs = infos["final_obs"][0]
            info["reason"], info["plies"] = int(infos["final_info"]["reason"][0]), int(infos["final_info"]["plies"][0])
            return obs, float(rewards[0]), True, False, info
        return {k: v[0] for k, v in obs.items()}, float(rewards[0]), False, False, info

    def render(self) -> str | NDArray[np.uint8] | None:
        """``"ansi"``: the board's text diagram; ``"rgb_array"``: its picture as pixels."""
        if self.render_mode is None:
            return None
        from ..donuts.board import Board

        board = Board.from_fen(self._games.games.fen(0), self._games.games.rules)
        return board.rgb_array() if self.render_mode == "rgb_array" else str(board)


def register_envs() -> None:
    """Add :data:`ENV_ID` to Gymnasium's registry (:class:`DonutsEnv` and its vector
    entry point :class:`DonutsVectorEnv`); importing this module calls it."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(ENV_ID, entry_point=f"{__name__}:DonutsEnv", vector_entry_point=f"{__name__}:DonutsVectorEnv")


register_envs()

__all__ = ["ENV_ID", "DonutsEnv", "DonutsVectorEnv", "register_envs", "single_observation_space"]
