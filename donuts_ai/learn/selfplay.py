"""Self-play: ``TrainConfig.games`` games played at once, each move searched with the
network (:class:`SelfPlay`), their positions kept until each game ends and its labels
are in, then handed to the learner as :class:`FinishedGame` s (:mod:`.train`; in workers,
:mod:`.workers`)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..donuts.rules import Rules
from ..donuts.squares import NUM_SQUARES
from ..donuts.vector_env import VectorEnv
from .batched_search import (
    BatchSearch,
    GumbelSettings,
    Predictor,
    SolveSettings,
    dirichlet_noise,
    network_predictor,
    playout_budgets,
    playout_cap,
)
from .buffer import SAMPLE, as_samples, legal_flags, samples_of_games
from .config import MAX_PLIES, TrainConfig
from .network import Network
from .teacher import Pending, Teacher, write_labels


class _Timed:
    """A predictor that adds its seconds to a counter (the network's share of the search)."""

    def __init__(self, predictor: Predictor):
        self.predictor, self.seconds = predictor, 0.0

    def __call__(self, planes: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        start = time.perf_counter()
        out = self.predictor(planes)
        self.seconds += time.perf_counter() - start
        return out


class FinishedGame(NamedTuple):
    """A self-play game that ended: its positions valued and labelled (:data:`~.buffer.SAMPLE`),
    its root visits (``uint16[plies, 36]``, for the dataset), whether it explored."""

    samples: np.ndarray
    visits: npt.NDArray[np.uint16]
    explored: bool


#: The self-play's own seconds (:class:`~.config.Progress`' fields), counted by :class:`SelfPlay`.
SELF_PLAY_SECONDS = ("search_seconds", "network_seconds", "label_wait_seconds")
#: The arrays of :meth:`SelfPlay.state` (a checkpoint's games in progress).
SELF_PLAY_ARRAYS = ("games", "trajectories", "lengths", "visits", "exploring")


class SelfPlay:
    """``config.games`` self-play games played at once, each move searched with the network
    it is given: their batched environment (seeded by ``env_seed``) and search, their
    positions kept until each game ends, the teacher labelling them (``config.teacher``),
    and the random stream ``rng`` every draw of the self-play comes from.

    A :class:`Trainer` holds one and trains beside it; a worker of a distributed run
    (:mod:`.workers`) holds one of its own and hands the games it finishes to the learner.
    """

    def __init__(self, config: TrainConfig, rules: Rules, rng: np.random.Generator, env_seed: int):
        self.config, self.rules, self.rng = config, rules, rng
        self.env = VectorEnv(config.games, layout=config.layout, rules=rules, seed=env_seed)
        self.search = BatchSearch(config.games, config.simulations)
        # Positions of the games in progress, waiting for their game's result.
        self.trajectories = np.zeros((config.games, MAX_PLIES), dtype=SAMPLE)
        self.lengths = np.zeros(config.games, dtype=np.int64)
        # Their root visits (for the dataset), and the labels asked of the teacher and not yet
        # written into them (None: none asked, or written already).
        self.visits = np.zeros((config.games, MAX_PLIES, NUM_SQUARES), dtype=np.uint16)
        self._pending: list[list[Pending | None]] = [[None] * MAX_PLIES for _ in range(config.games)]
        #: The solver labelling the positions (None for teacher "none").
        self.teacher = None if config.teacher == "none" else Teacher(rules, config.teacher_nodes, config.teacher_threads,
                                                                      config.teacher_cache)
        #: Which games in progress explore (``config.explore_fraction``).
        self.exploring = self._draw_exploring(config.games)
        #: Seconds spent since :meth:`take_seconds` last emptied them (:data:`SELF_PLAY_SECONDS`).
        self.seconds = dict.fromkeys(SELF_PLAY_SECONDS, 0.0)

    def _draw_exploring(self, count: int) -> npt.NDArray[np.bool_]:
        """Whether each of ``count`` games starting now explores. Without exploration no
        random number is drawn, so that a run without exploration draws nothing for it."""
        if self.config.explore_fraction == 0:
            return np.zeros(count, dtype=np.bool_)
        drawn: npt.NDArray[np.bool_] = self.rng.random(count) < self.config.explore_fraction
        return drawn

    def close(self) -> None:
        """End the teacher's worker threads (a later move starts them again)."""
        if self.teacher is not None:
            self.teacher.close()

    def take_seconds(self) -> dict[str, float]:
        """The seconds spent since the last call (:data:`SELF_PLAY_SECONDS`), and zero them."""
        spent, self.seconds = self.seconds, dict.fromkeys(SELF_PLAY_SECONDS, 0.0)
        return spent

    def move(self, network: Network) -> list[FinishedGame]:
        """One move in every game, searched with ``network``; the games it ended (their
        positions labelled, waiting for the teacher where it is still at work), and a new
        game started in the place of each."""
        config, games = self.config, self.env._games
        start = time.perf_counter()
        on_labels = self.seconds["label_wait_seconds"]
        predictor = _Timed(network_predictor(network))
        legal = legal_flags(games)
        everyone = np.ones(config.games, dtype=np.bool_)
        if config.search == "gumbel":
            full = playout_cap(self.rng, config.games, config.full_fraction)
            solve = SolveSettings(plies=config.solve_plies) if config.solve_plies > 0 else None
            found = self.search.run_gumbel(
                predictor, games, everyone, self.rules, gumbel=self.rng,
                simulations=playout_budgets(full, config.simulations, config.fast_simulations),
                settings=GumbelSettings(max_considered=config.gumbel_considered, solve=solve))
            # A fast search's target would be close to the prior: its row stays zero, which
            # leaves it out of the policy loss (its value target still counts).
            policy = np.where(full[:, None], found.policy, np.float32(0))
            actions, visits = found.actions, found.visits
            if self.exploring.any():  # an exploring game draws its move from its search's target
                actions = np.where(self.exploring, self._drawn(found.policy), actions)
        else:
            noise = dirichlet_noise(self.rng, legal)
            result = self.search.run(predictor, games, everyone, self.rules, noise=noise)
            visits = result.visits
            policy = visits / np.maximum(visits.sum(axis=1, keepdims=True), 1.0)
            actions = self._choose(policy, games["plies"])
        self._record(games, policy, visits)
        self.env.step(actions)
        finished = self._finish_games()
        self.seconds["network_seconds"] += predictor.seconds
        on_labels = self.seconds["label_wait_seconds"] - on_labels
        self.seconds["search_seconds"] += time.perf_counter() - start - predictor.seconds - on_labels
        return finished

    def _choose(self, policy: npt.NDArray[np.float32], plies: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Each game's square: drawn from ``policy`` early in the game (all game long in an
        exploring game), the most visited after."""
        drawing = (plies < self.config.temperature_plies) | self.exploring
        chosen: npt.NDArray[np.int64] = np.where(drawing, self._drawn(policy), policy.argmax(axis=1)).astype(np.int64)
        return chosen

    def _drawn(self, policy: npt.NDArray[np.float32]) -> npt.NDArray[np.int64]:
        """A square drawn from each row of ``policy`` (one random number a row)."""
        cumulative = np.cumsum(policy, axis=1)
        draws = self.rng.random(len(policy))[:, None] * cumulative[:, -1:]
        drawn = np.minimum((cumulative <= draws).sum(axis=1), NUM_SQUARES - 1)
        # A draw can land on a square of zero probability only through rounding: step back to a visited one.
        out: npt.NDArray[np.int64] = np.where(policy[np.arange(len(policy)), drawn] > 0, drawn,
                                              policy.argmax(axis=1)).astype(np.int64)
        return out

    def _record(self, games: np.ndarray, policy: npt.NDArray[np.float32], visits: npt.NDArray[np.float32]) -> None:
        """Keep each game's searched position until its result is known, and ask the
        teacher for its label."""
        rows = np.arange(len(games))
        at = samples_of_games(games)  # no label until the teacher's comes
        at["policy"] = policy
        self.trajectories[rows, self.lengths] = at
        self.visits[rows, self.lengths] = np.rint(visits).astype(np.uint16)
        if self.teacher is not None:
            asking = time.perf_counter()
            asked = np.flatnonzero(at["placed_own"] + at["placed_opp"] >= self.config.teacher_min_ply)
            for g, pending in zip(asked, self.teacher.submit(at[asked]), strict=True):
                self._pending[g][int(self.lengths[g])] = pending
            self.seconds["label_wait_seconds"] += time.perf_counter() - asking
        self.lengths += 1

    def _labels_in(self, game: int, samples: np.ndarray) -> None:
        """Write the teacher's labels of ``game``'s positions into ``samples`` (its first
        ones), waiting for those still being made."""
        if self.teacher is None:
            return
        pending = self._pending[game]
        start = time.perf_counter()
        for ply in range(len(samples)):
            asked = pending[ply]
            if asked is not None:
                write_labels(samples[ply:ply + 1], [self.teacher.resolve(asked)])
                pending[ply] = None
        self.seconds["label_wait_seconds"] += time.perf_counter() - start

    def _finish_games(self) -> list[FinishedGame]:
        """The games that just ended, valued and labelled; a new game starts in each one's place."""
        rewards, finished = self.env.rewards, []
        for g in np.flatnonzero(self.env.terminated):
            n = int(self.lengths[g])
            samples = self.trajectories[g, :n].copy()
            samples["value"] = rewards[g, samples["color"]]
            self._labels_in(int(g), samples)
            finished.append(FinishedGame(samples, self.visits[g, :n].copy(), bool(self.exploring[g])))
            self.lengths[g] = 0
            self.exploring[g] = self._draw_exploring(1)[0]  # the game that starts in its place
        return finished

    def settle(self) -> None:
        """Wait for the labels of every game in progress and write them in (a checkpoint holds them)."""
        for g in range(self.config.games):
            self._labels_in(g, self.trajectories[g, :int(self.lengths[g])])

    @property
    def label_seconds(self) -> float:
        """The teacher's solver threads' seconds in this session, summed over its threads."""
        return 0.0 if self.teacher is None else self.teacher.seconds

    def state(self) -> dict[str, np.ndarray]:
        """The games in progress (:data:`SELF_PLAY_ARRAYS`), their labels settled (:meth:`settle`)."""
        self.settle()
        return {"games": self.env._games.copy(), "trajectories": self.trajectories.copy(), "lengths": self.lengths.copy(),
                "visits": self.visits.copy(), "exploring": self.exploring.copy()}

    def restore(self, arrays: Mapping[str, np.ndarray]) -> None:
        """Continue the games :meth:`state` saved (an older checkpoint has no labels,
        visits or exploration: none, and nothing explored)."""
        self.env._games[:] = arrays["games"]
        self.trajectories[:] = as_samples(arrays["trajectories"])
        self.lengths[:] = arrays["lengths"]
        if "visits" in arrays:
            self.visits[:] = arrays["visits"]
        self.exploring[:] = arrays["exploring"] if "exploring" in arrays else False
