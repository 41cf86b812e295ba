"""AlphaZero-style training: self-play games searched by PUCT, a replay buffer, and training
steps interleaved with the self-play, all from one seed; checkpoints a killed run resumes
from exactly.

One **move** of the training loop::

    search      every one of the `games` self-play games, from its position, `sims`
                simulations (the network evaluates each round's leaves in one batch),
                Dirichlet noise mixed into the root priors
    label       with a `teacher` ("solver", "mixed"), each searched position from ply
                `teacher_min_ply` on is handed to the solver's worker threads
                (:class:`~.teacher.Teacher`), which label it exactly where `teacher_nodes`
                nodes settle it, while the self-play goes on
    play        each game's move: drawn in proportion to the root visits for the first
                `temperature_plies` plies of a game, the most visited after; the position
                and its visit distribution are kept until the game ends and gives them
                their value target (+1 / 0 / -1 for the side to move); then the game's
                positions wait for their labels and enter the replay buffer (and the
                `dataset`, :mod:`.dataset`, when the run writes one)
    train       once the buffer holds `min_replay` positions, `train_steps` steps of Adam
                on batches drawn from it, each position under a random symmetry, the
                targets made by :func:`~.teacher.targets` (the teacher's labels where known);
                loss = cross-entropy(policy target, policy) + value loss: (target - value)^2
                for a scalar value head, cross-entropy(target, win/draw/loss) for a WDL one

Everything random (layouts, noise, move draws, batches, symmetries) comes from the run's
seed, and a checkpoint holds all of the state (network, optimizer, replay buffer, games in
progress with their labels, random streams, counters), so that a run stopped after a
checkpoint and resumed makes the same moves and the same network as one never stopped (on
the same machine and JAX build). A label depends on its position alone, never on when the
threads made it (:mod:`.teacher`), and a game's positions enter the buffer only once all
their labels are in: the teacher changes nothing of that. Checkpoints are written every
`checkpoint_every` moves, never by the clock.

The parts: :class:`SelfPlay` (the games, their search, their positions until each game
ends, the teacher), :class:`Learner` (the network, the optimizer, the replay buffer, the
dataset, the checkpoint files) and :class:`Trainer`, both in one process, a move then the
steps. With ``TrainConfig.workers`` the self-play plays in workers instead
(:mod:`.workers`), and :func:`~.runs.open_trainer` opens either kind of run.

**Where the search is called** (for another search to replace it): :meth:`SelfPlay.move`
calls ``self.search.run(evaluator, games, active, directions, donuts, single, noise=noise)``
(:class:`~.batched_search.BatchSearch`) on every game's position at once and reads
``result.visits`` (``float32[games, 36]``, 0 off the legal squares); the policy target
it records is the visits normalised, and the move is drawn from it (:meth:`SelfPlay._choose`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple, TypedDict

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt
import optax

from .._checks import check_int
from ..donuts.layout import LayoutSpec
from ..donuts.rules import INSERTION_MODES, Rules, make_rules
from ..donuts.squares import FULL_BOARD, NUM_SQUARES
from ..donuts.symmetry import NUM_SYMMETRIES
from ..donuts.vector_env import VectorEnv
from .batched_search import (
    MAX_CONSIDERED,
    SOLVE_PLIES,
    BatchSearch,
    Evaluator,
    dirichlet_noise,
    network_evaluator,
    playout_budgets,
    playout_cap,
)
from .buffer import SAMPLE, ReplayBuffer, as_samples, legal_flags, sample_planes, symmetric
from .dataset import DatasetWriter, rows_of
from .errors import LearnError
from .network import CONFIG_FILE, WDL_ORDER, Network, NetworkConfig, load_network, new_network, save_network
from .teacher import DEFAULT_CACHE, DEFAULT_MIN_PLY, DEFAULT_NODES, TEACHER_MODES, Pending, Teacher, label_counts, targets, write_labels

#: Longest game: 36 placements (then the board is full).
MAX_PLIES = NUM_SQUARES
#: The self-play searches (:attr:`TrainConfig.search`).
SEARCHES = ("puct", "gumbel")
#: Files of a run's directory: the checkpoint (a folder, replaced whole), and one JSON line
#: of progress per checkpoint.
CHECKPOINT, PROGRESS = "checkpoint", "progress.jsonl"
#: The folder of a supervised run's last network (see .supervised).
FINAL_NETWORK = "network"
#: Files inside a checkpoint: settings and counters, arrays (replay buffer, games), optimizer.
SETTINGS_FILE, ARRAYS_FILE, OPTIMIZER_FILE = "train.json", "state.npz", "optimizer.eqx"
#: Most self-play workers of a run (TrainConfig.workers).
MAX_WORKERS = 1024
#: Most simulations a self-play move (the visits are kept as 16-bit counts for the dataset).
MAX_SELF_PLAY_SIMS = 65_535


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    """The settings of a training run (all saved in its checkpoints)."""

    seed: int = 0
    games: int = 128  # self-play games played at once (the network's batch in the search)
    sims: int = 32  # simulations per self-play move
    layout: str = "random"  # layout spec of the self-play games (random tile arrangements)
    insertion: str = "group"
    donuts: int = 15
    network: NetworkConfig = NetworkConfig()
    batch_size: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    replay_capacity: int = 200_000
    min_replay: int = 4_096  # positions in the buffer before training starts
    train_steps: int = 2  # training steps per move (128 games x 4 uses / 256 a batch)
    temperature_plies: int = 8  # plies of each game whose move is drawn from the visits
    checkpoint_every: int = 100  # moves between checkpoints
    # The exact solver as teacher (see .teacher): "none" (self-play targets only), "solver"
    # or "mixed"; its node budget per position, the first ply it labels, its worker
    # threads, labels cached.
    teacher: str = "none"
    teacher_nodes: int = DEFAULT_NODES
    teacher_min_ply: int = DEFAULT_MIN_PLY
    teacher_threads: int = 1
    teacher_cache: int = DEFAULT_CACHE
    dataset: str | None = None  # a folder to write every self-play position into (see .dataset)
    # The network the run starts from instead of fresh weights (see network_in: a saved
    # network, a training run or a supervised run); its shape must be `network`.
    initial_network: str | None = None
    # The self-play search: "puct" (AlphaZero: Dirichlet noise, visit-count targets, the
    # first `temperature_plies` moves drawn from the visits) or "gumbel" (Gumbel root
    # selection with Sequential Halving, completed-Q policy targets, the move the search
    # chose: its Gumbel noise explores). With "gumbel": actions considered at the root,
    # the share of moves searched in full with `sims` (playout-cap randomization: only
    # those become policy targets; the others get `fast_sims`), and the plies left below
    # which the exact solver settles a leaf (0: only positions settled in one ply).
    search: str = "puct"
    gumbel_considered: int = MAX_CONSIDERED
    full_fraction: float = 1.0
    fast_sims: int = 8
    solve_plies: int = SOLVE_PLIES
    # The share of self-play games that explore: every move of such a game is drawn from
    # its search's policy target (not only the first `temperature_plies`), so that the
    # positions the network learns from (and the teacher labels) reach off the main lines.
    # Drawn for each game as it starts; 0 (the default) draws nothing, as before 0.3.0.
    explore_fraction: float = 0.0
    # Self-play spread over workers (see .workers): 0 (the default) plays and trains in turn
    # in one process, a move then `train_steps` steps; N plays in N workers, each with its
    # own `games` games, seeds and teacher, in rounds of `round_moves` moves with the network
    # the learner last sent them, while the learner trains on the round before
    # (`train_steps` steps per move of each worker: the same steps per position).
    workers: int = 0
    round_moves: int = 10

    def __post_init__(self) -> None:
        positive = ("games", "sims", "batch_size", "replay_capacity", "min_replay", "checkpoint_every", "donuts",
                    "teacher_nodes", "teacher_threads", "round_moves")
        for name in (*positive, "seed", "train_steps", "temperature_plies", "teacher_cache", "teacher_min_ply", "workers"):
            value = getattr(self, name)
            check_int(f"TrainConfig.{name}", value, 1 if name in positive else 0, error=LearnError)
        check_int("TrainConfig.sims", self.sims, 1, MAX_SELF_PLAY_SIMS, error=LearnError)
        check_int("TrainConfig.teacher_threads", self.teacher_threads, 1, 64, error=LearnError)
        check_int("TrainConfig.workers", self.workers, 0, MAX_WORKERS, error=LearnError)
        if self.teacher not in TEACHER_MODES:
            raise LearnError(f"TrainConfig.teacher must be one of {', '.join(TEACHER_MODES)}, got {self.teacher!r}")
        if self.search not in SEARCHES:
            raise LearnError(f"TrainConfig.search must be one of {', '.join(SEARCHES)}, got {self.search!r}")
        check_int("TrainConfig.gumbel_considered", self.gumbel_considered, 1, NUM_SQUARES, error=LearnError)
        # A fast search has at most the full one's simulations (checked where they are used).
        check_int("TrainConfig.fast_sims", self.fast_sims, 1, self.sims if self.search == "gumbel" else MAX_SELF_PLAY_SIMS,
                  error=LearnError)
        check_int("TrainConfig.solve_plies", self.solve_plies, 0, NUM_SQUARES, error=LearnError)
        fraction = self.full_fraction
        if isinstance(fraction, bool) or not isinstance(fraction, int | float) or not 0 < fraction <= 1:
            raise LearnError(f"TrainConfig.full_fraction must be a number in (0, 1], got {fraction!r}")
        fraction = self.explore_fraction
        if isinstance(fraction, bool) or not isinstance(fraction, int | float) or not 0 <= fraction <= 1:
            raise LearnError(f"TrainConfig.explore_fraction must be a number in [0, 1], got {fraction!r}")
        for name in ("dataset", "initial_network"):
            folder = getattr(self, name)
            if folder is not None and (not isinstance(folder, str) or not folder):
                raise LearnError(f"TrainConfig.{name} must be a folder's path or None, got {folder!r}")
        for name in ("learning_rate", "weight_decay"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1:
                raise LearnError(f"TrainConfig.{name} must be a number in [0, 1), got {value!r}")
        if self.insertion not in INSERTION_MODES:
            raise LearnError(f"TrainConfig.insertion must be one of {', '.join(INSERTION_MODES)}, got {self.insertion!r}")
        try:
            LayoutSpec(self.layout)
        except ValueError as exc:
            raise LearnError(f"TrainConfig.layout: {exc}") from None

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["network"] = self.network.to_json()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TrainConfig:
        """The settings saved by :meth:`to_json`; a setting missing (a file from an older
        version: before 0.3.0 there was no teacher) takes its default."""
        data = dict(data)
        unknown = set(data) - {f.name for f in dataclasses.fields(cls)}
        if unknown:
            raise LearnError(f"unknown training settings: {', '.join(sorted(unknown))}")
        if "network" in data:
            data["network"] = NetworkConfig.from_json(data["network"])
        return cls(**data)


class Progress(TypedDict):
    """One line of a run's progress (``progress.jsonl``, and what :meth:`Trainer.run` reports)."""

    moves: int  # self-play moves (each one placement in every game)
    games: int  # self-play games finished
    positions: int  # positions put into the replay buffer
    train_steps: int
    seconds: float  # wall seconds of the run so far (all sessions of it)
    search_seconds: float  # in the compiled search (selection, expansion, backups)
    network_seconds: float  # in the network's evaluations during the search
    train_seconds: float  # in training steps
    policy_loss: float  # mean over the training steps since the last line (NaN: none)
    value_loss: float
    policy_accuracy: float | None  # raw policy keeps the solver's value (the labelled positions), None if unmeasured
    value_accuracy: float | None  # value head's sign is right
    labelled: int  # positions put into the replay buffer with a teacher's label (settled or not)
    value_labels: int  # ... whose exact value the teacher settled
    policy_labels: int  # ... whose every move's value it settled (the policy label)
    label_seconds: float  # the teacher's solver threads' seconds, summed over its threads
    label_wait_seconds: float  # the self-play's own seconds on labels: asking for them, waiting for them
    explored_games: int  # games finished that explored (TrainConfig.explore_fraction)


def _fresh_counters() -> Progress:
    return Progress(moves=0, games=0, positions=0, train_steps=0, seconds=0.0, search_seconds=0.0, network_seconds=0.0,
                    train_seconds=0.0, policy_loss=float("nan"), value_loss=float("nan"), policy_accuracy=None,
                    value_accuracy=None, labelled=0, value_labels=0, policy_labels=0, label_seconds=0.0,
                    label_wait_seconds=0.0, explored_games=0)


def _loss(network: Network, planes: jax.Array, policy: jax.Array, legal: jax.Array,
          value: jax.Array) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
    logits, head = jax.vmap(network.heads)(planes)
    # Illegal squares get no probability: a large negative logit (not -inf: 0 * -inf is NaN).
    log_policy = jax.nn.log_softmax(jnp.where(legal, logits, -1e9))
    policy_loss = -jnp.mean(jnp.sum(policy * log_policy, axis=-1))
    if network.config.value_head == "wdl":
        # The result r (+1 / 0 / -1) is output 1 - r of (win, draw, loss).
        target = jax.nn.one_hot(jnp.rint(1.0 - value).astype(jnp.int32), len(WDL_ORDER))
        value_loss = -jnp.mean(jnp.sum(target * jax.nn.log_softmax(head, axis=-1), axis=-1))
    else:
        value_loss = jnp.mean((jnp.tanh(head[:, 0]) - value) ** 2)
    return policy_loss + value_loss, (policy_loss, value_loss)


def make_optimizer(config: TrainConfig) -> optax.GradientTransformation:
    """Adam with decoupled weight decay (AdamW)."""
    return optax.adamw(config.learning_rate, weight_decay=config.weight_decay)


@eqx.filter_jit
def _train_step(network: Network, opt_state: optax.OptState, optimizer: optax.GradientTransformation,
                planes: jax.Array, policy: jax.Array, legal: jax.Array,
                value: jax.Array) -> tuple[Network, optax.OptState, jax.Array, jax.Array]:
    grads: Network
    (_, (policy_loss, value_loss)), grads = eqx.filter_value_and_grad(_loss, has_aux=True)(network, planes, policy, legal, value)
    updates, opt_state = optimizer.update(grads, opt_state, eqx.filter(network, eqx.is_array))
    return eqx.apply_updates(network, updates), opt_state, policy_loss, value_loss


def train_step(network: Network, opt_state: optax.OptState, optimizer: optax.GradientTransformation,
               batch: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.float32]],
               ) -> tuple[Network, optax.OptState, float, float]:
    """One step of ``optimizer`` on ``batch`` = ``(planes, policy, legal, value)``: the
    updated network and optimizer state, and the batch's policy and value losses before the step."""
    network, opt_state, policy_loss, value_loss = _train_step(network, opt_state, optimizer, *(jnp.asarray(a) for a in batch))
    return network, opt_state, float(policy_loss), float(value_loss)


def batch_loss(network: Network, batch: tuple[np.ndarray, ...]) -> tuple[float, float]:
    """``(policy loss, value loss)`` of ``network`` on ``batch`` (see :func:`train_step`)."""
    _, (policy_loss, value_loss) = eqx.filter_jit(_loss)(network, *(jnp.asarray(a) for a in batch))
    return float(policy_loss), float(value_loss)


def training_batch(samples: np.ndarray, donuts: int, symmetries: npt.NDArray[np.int64] | None = None, teacher: str = "none",
                   ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.float32]]:
    """``(planes, policy, legal, value)`` of ``samples`` (:data:`~.buffer.SAMPLE`), row ``i``
    under symmetry ``symmetries[i]`` when given; the targets those of ``teacher``
    (:func:`~.teacher.targets`)."""
    policy, value = targets(samples, teacher)
    planes, legal = sample_planes(samples, donuts), legal_flags(samples)
    if symmetries is not None:
        planes, policy, legal = symmetric(planes, policy, legal, symmetries)
    return planes, policy, legal, value


def samples_of_games(games: np.ndarray) -> np.ndarray:
    """:data:`~.buffer.SAMPLE` records of ``games`` (:data:`~donuts_ai.donuts._engine.batch.GAME`
    records): each position, its legal squares and its forced line (the empty squares of
    the line through the last donut; 0 before the first), with no targets and no label."""
    at = np.zeros(len(games), dtype=SAMPLE)
    for field in ("own", "opp", "legal", "last", "placed_own", "placed_opp", "color", "directions"):
        at[field] = games[field]
    empty = np.uint64(FULL_BOARD) & ~(games["own"] | games["opp"])
    last = games["last"]
    on_line = games["line_masks"][np.arange(len(games)), np.maximum(last, 0)] & empty
    at["forced"] = np.where(last >= 0, on_line, np.uint64(0))
    return at


class _Timed:
    """An evaluator that adds its seconds to a counter (the network's share of the search)."""

    def __init__(self, evaluator: Evaluator):
        self.evaluator, self.seconds = evaluator, 0.0

    def __call__(self, planes: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        start = time.perf_counter()
        out = self.evaluator(planes)
        self.seconds += time.perf_counter() - start
        return out


def network_in(path: str | Path) -> Path:
    """The folder of the network ``path`` names: a saved network's folder (as
    :func:`~.network.save_network` writes it), a training run (its last checkpoint) or a
    supervised run (its last network)."""
    folder = Path(path)
    for inside in (folder, folder / CHECKPOINT, folder / FINAL_NETWORK):
        if (inside / CONFIG_FILE).is_file():
            return inside
    return folder


def _initial_network(config: TrainConfig) -> Network:
    """The network ``config.initial_network`` names, checked to have the run's shape."""
    assert config.initial_network is not None
    network = load_network(network_in(config.initial_network))
    if network.config != config.network:
        raise LearnError(f"the initial network {config.initial_network!r} is {network.config}, the run's network is "
                         f"{config.network}: give the run the initial network's shape")
    return network


class FinishedGame(NamedTuple):
    """A self-play game that ended: its positions valued and labelled (:data:`~.buffer.SAMPLE`),
    its root visits (``uint16[plies, 36]``, for the dataset), whether it explored."""

    samples: np.ndarray
    visits: npt.NDArray[np.uint16]
    explored: bool


#: The self-play's own seconds (:class:`Progress`' fields), counted by :class:`SelfPlay`.
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
        self.search = BatchSearch(config.games, config.sims)
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
        self._directions = np.ascontiguousarray(self.env._games["directions"])

    def _draw_exploring(self, count: int) -> npt.NDArray[np.bool_]:
        """Whether each of ``count`` games starting now explores. Without exploration no
        random number is drawn, so that a run's seeded games are those of earlier versions."""
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
        evaluator = _Timed(network_evaluator(network))
        legal = legal_flags(games)
        np.copyto(self._directions, games["directions"])
        everyone = np.ones(config.games, dtype=np.bool_)
        if config.search == "gumbel":
            full = playout_cap(self.rng, config.games, config.full_fraction)
            found = self.search.run_gumbel(
                evaluator, games, everyone, self._directions, self.rules.donuts, self.rules.single, rng=self.rng,
                sims=playout_budgets(full, config.sims, config.fast_sims), max_considered=config.gumbel_considered,
                solve=config.solve_plies > 0, solve_plies=config.solve_plies)
            # A fast search's target would be close to the prior: its row stays zero, which
            # leaves it out of the policy loss (its value target still counts).
            policy = np.where(full[:, None], found.policy, np.float32(0))
            actions, visits = found.actions, found.visits
            if self.exploring.any():  # an exploring game draws its move from its search's target
                actions = np.where(self.exploring, self._drawn(found.policy), actions)
        else:
            noise = dirichlet_noise(self.rng, legal)
            result = self.search.run(evaluator, games, everyone, self._directions, self.rules.donuts, self.rules.single,
                                     noise=noise)
            visits = result.visits
            policy = visits / np.maximum(visits.sum(axis=1, keepdims=True), 1.0)
            actions = self._choose(policy, games["plies"])
        self._record(games, policy, visits)
        self.env.step(actions)
        finished = self._finish_games()
        self.seconds["network_seconds"] += evaluator.seconds
        on_labels = self.seconds["label_wait_seconds"] - on_labels
        self.seconds["search_seconds"] += time.perf_counter() - start - evaluator.seconds - on_labels
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
        """Continue the games :meth:`state` saved (a checkpoint before 0.3.0 has no labels,
        visits or exploration: none, and nothing explored)."""
        self.env._games[:] = arrays["games"]
        self.trajectories[:] = as_samples(arrays["trajectories"])
        self.lengths[:] = arrays["lengths"]
        if "visits" in arrays:
            self.visits[:] = arrays["visits"]
        self.exploring[:] = arrays["exploring"] if "exploring" in arrays else False


def read_checkpoint(out: str | Path) -> tuple[Path, dict[str, Any], TrainConfig]:
    """The folder, settings and config of the last checkpoint of the run in ``out`` (its
    ``checkpoint.old`` when a save was killed between its two renames)."""
    out = Path(out)
    folder = out / CHECKPOINT
    if not (folder / SETTINGS_FILE).is_file() and (out / (CHECKPOINT + ".old") / SETTINGS_FILE).is_file():
        folder = out / (CHECKPOINT + ".old")  # killed between the two renames of a save
    if not (folder / SETTINGS_FILE).is_file():
        raise LearnError(f"no training checkpoint in {str(out)!r}")
    try:
        settings = json.loads((folder / SETTINGS_FILE).read_text())
        config = TrainConfig.from_json(settings["config"])
    except (KeyError, ValueError, TypeError) as exc:
        raise LearnError(f"{folder / SETTINGS_FILE}: {exc}") from None
    return folder, settings, config


class Learner:
    """The network, its optimizer and the replay buffer of a run, and the counters of what
    entered the buffer: what :class:`Trainer` and a distributed run (:mod:`.workers`) share."""

    def __init__(self, out: str | Path, config: TrainConfig, *, _resuming: bool = False):
        self.out = Path(out)
        if not _resuming and (self.out / CHECKPOINT).exists():
            raise LearnError(f"{str(self.out)!r} holds a training run already: resume it, or choose another directory")
        self.config = config
        self.rules = make_rules(config.insertion, donuts=config.donuts)
        self.network = new_network(config.network, seed=config.seed) if config.initial_network is None or _resuming \
            else _initial_network(config)
        self.optimizer = make_optimizer(config)
        self.opt_state = self.optimizer.init(eqx.filter(self.network, eqx.is_array))
        self.replay = ReplayBuffer(config.replay_capacity)
        #: The dataset being written (None without ``config.dataset``).
        self.dataset = None if config.dataset is None or _resuming else DatasetWriter(config.dataset, self._dataset_meta())
        self.counters: Progress = _fresh_counters()
        self._losses: list[tuple[float, float]] = []
        self._label_seconds_before = 0.0  # the teachers' seconds in earlier sessions of the run

    def _dataset_meta(self) -> dict[str, Any]:
        config = self.config
        return {"rules": self.rules.to_dict(), "teacher": config.teacher, "teacher_nodes": config.teacher_nodes,
                "sims": config.sims, "layout": config.layout, "seed": config.seed,
                "explore_fraction": config.explore_fraction}

    def add(self, finished: list[FinishedGame]) -> None:
        """Put the positions of ``finished`` games into the replay buffer (and the dataset),
        in their order, and count them."""
        for samples, visits, explored in finished:
            n = len(samples)
            self.replay.add(samples)
            if self.dataset is not None:
                self.dataset.add(rows_of(samples, visits, np.full(n, self.counters["games"]), np.arange(n), explored=explored))
            labelled, value_labels, policy_labels = label_counts(samples)
            self.counters["labelled"] += labelled
            self.counters["value_labels"] += value_labels
            self.counters["policy_labels"] += policy_labels
            self.counters["games"] += 1
            self.counters["positions"] += n
            self.counters["explored_games"] += int(explored)

    def train(self, rng: np.random.Generator, steps: int) -> None:
        """``steps`` training steps on batches drawn from the buffer with ``rng``, once it
        holds ``config.min_replay`` positions (none before)."""
        config, start = self.config, time.perf_counter()
        if self.replay.size >= config.min_replay:
            for _ in range(steps):
                samples = self.replay.draw(rng, config.batch_size)
                symmetries = rng.integers(0, NUM_SYMMETRIES, size=config.batch_size)
                batch = training_batch(samples, self.rules.donuts, symmetries, config.teacher)
                self.network, self.opt_state, p_loss, v_loss = train_step(self.network, self.opt_state, self.optimizer, batch)
                self._losses.append((p_loss, v_loss))
                self.counters["train_steps"] += 1
        self.counters["train_seconds"] += time.perf_counter() - start

    def count_seconds(self, spent: Mapping[str, float]) -> None:
        """Add a self-play's seconds (:meth:`SelfPlay.take_seconds`) to the counters."""
        for name, seconds in spent.items():
            self.counters[name] += seconds  # type: ignore[literal-required]

    def _progress_line(self, measure: Callable[[Network], tuple[float, float]] | None) -> None:
        """The losses since the last line, and ``measure``'s accuracies, into the counters."""
        if self._losses:
            losses = np.array(self._losses)
            self.counters["policy_loss"], self.counters["value_loss"] = (float(x) for x in losses.mean(axis=0))
        else:
            self.counters["policy_loss"] = self.counters["value_loss"] = float("nan")
        self._losses = []
        if measure is not None:
            self.counters["policy_accuracy"], self.counters["value_accuracy"] = measure(self.network)

    def _write_line(self, report: Callable[[Progress], None] | None) -> None:
        """The counters as a line of ``progress.jsonl`` (once the checkpoint is written), and to ``report``."""
        with open(self.out / PROGRESS, "a") as f:
            f.write(json.dumps(self.counters) + "\n")
        if report is not None:
            report(Progress(**self.counters))

    def _write_checkpoint(self, arrays: dict[str, np.ndarray], settings: dict[str, Any]) -> None:
        """The network, optimizer, replay buffer, ``arrays`` and ``settings`` (with the
        run's config, counters and the dataset's count) into ``out/checkpoint``: a new
        folder swapped in whole, so that a run killed while writing keeps its previous one."""
        self.out.mkdir(parents=True, exist_ok=True)
        if self.dataset is not None:  # what the checkpoint counts as written must be on disk
            self.dataset.flush()
        final, fresh, old = self.out / CHECKPOINT, self.out / (CHECKPOINT + ".new"), self.out / (CHECKPOINT + ".old")
        shutil.rmtree(fresh, ignore_errors=True)
        fresh.mkdir()
        save_network(self.network, fresh)
        eqx.tree_serialise_leaves(fresh / OPTIMIZER_FILE, self.opt_state)
        np.savez(fresh / ARRAYS_FILE, **{**arrays, **self.replay.state()})  # type: ignore[arg-type]
        settings = {"config": self.config.to_json(), "counters": self.counters, **settings,
                    "dataset_written": 0 if self.dataset is None else self.dataset.written}
        (fresh / SETTINGS_FILE).write_text(json.dumps(settings, indent=1) + "\n")
        shutil.rmtree(old, ignore_errors=True)
        if final.exists():
            os.replace(final, old)
        os.replace(fresh, final)
        shutil.rmtree(old, ignore_errors=True)

    def _restore(self, folder: Path, settings: dict[str, Any], arrays: Mapping[str, np.ndarray]) -> None:
        """The network, optimizer, buffer, counters and dataset a checkpoint saved."""
        self.network = load_network(folder)
        self.opt_state = eqx.tree_deserialise_leaves(folder / OPTIMIZER_FILE, self.opt_state)
        self.replay.restore({key: arrays[key] for key in ("replay_samples", "replay_counters")})
        self.counters = Progress(**{**_fresh_counters(), **settings["counters"]})
        self._label_seconds_before = self.counters["label_seconds"]
        if self.config.dataset is not None:
            self.dataset = DatasetWriter(self.config.dataset, self._dataset_meta(),
                                         written=int(settings.get("dataset_written", 0)))


class Trainer(Learner):
    """A training run in directory ``out``: ``Trainer(out, config)`` starts one (``out`` must
    hold no checkpoint), :meth:`Trainer.resume` continues one from its last checkpoint.
    Self-play (:class:`SelfPlay`) and training alternate in this process, a move of every
    game then ``train_steps`` steps, all drawn from one random stream."""

    def __init__(self, out: str | Path, config: TrainConfig | None = None, *, _resuming: bool = False):
        config = config or TrainConfig()
        if config.workers:
            raise LearnError(f"the run plays in {config.workers} self-play worker(s): train it with "
                             "donuts_ai.learn.RoundTrainer (or train(), which chooses)")
        super().__init__(out, config, _resuming=_resuming)
        self.rng = np.random.default_rng(np.random.SeedSequence(self.config.seed).spawn(1)[0])
        #: The self-play games, drawing from the run's one stream.
        self.selfplay = SelfPlay(self.config, self.rules, self.rng, self.config.seed)

    def close(self) -> None:
        """End the teacher's worker threads (a later move starts them again)."""
        self.selfplay.close()

    # --- one move -------------------------------------------------------------------
    def move(self) -> None:
        """One self-play move in every game, then the training steps (see the module)."""
        self.add(self.selfplay.move(self.network))
        self.count_seconds(self.selfplay.take_seconds())
        self.train(self.rng, self.config.train_steps)
        self.counters["moves"] += 1

    # --- running, checkpoints ----------------------------------------------------------
    def run(self, minutes: float | None = None, moves: int | None = None,
            report: Callable[[Progress], None] | None = None,
            measure: Callable[[Network], tuple[float, float]] | None = None) -> Progress:
        """Train until ``minutes`` of wall time have passed or the run has made ``moves``
        moves in all (whichever comes first; at least one must be given), writing a
        checkpoint every ``checkpoint_every`` moves and at the end. ``report`` is given
        each checkpoint's progress line; ``measure(network)`` (e.g. the accuracy against
        the solver, :func:`donuts_ai.learn.benchmark.accuracy`) fills its accuracies."""
        if minutes is None and moves is None:
            raise LearnError("Trainer.run needs minutes or moves")
        started = time.perf_counter()
        seconds_before = self.counters["seconds"]
        deadline = None if minutes is None else started + 60.0 * minutes
        while moves is None or self.counters["moves"] < moves:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            self.move()
            if self.counters["moves"] % self.config.checkpoint_every == 0:
                self.counters["seconds"] = seconds_before + time.perf_counter() - started
                self._checkpoint(report, measure)
        self.counters["seconds"] = seconds_before + time.perf_counter() - started
        if self.counters["moves"] % self.config.checkpoint_every != 0:
            # The end of a session between checkpoints: the state as it is, for the network
            # to be used; a resumed run continues from it, and stays seeded.
            self._checkpoint(report, measure)
        return self.counters

    def _checkpoint(self, report: Callable[[Progress], None] | None,
                    measure: Callable[[Network], tuple[float, float]] | None) -> None:
        self._progress_line(measure)
        self.save()
        self._write_line(report)

    def save(self) -> None:
        """Write the whole state into ``out/checkpoint`` (a new folder swapped in whole, so
        that a run killed while writing keeps its previous checkpoint). The labels of the
        games in progress go into it: it waits for them all."""
        arrays = self.selfplay.state()
        self.count_seconds(self.selfplay.take_seconds())
        self.counters["label_seconds"] = self._label_seconds_before + self.selfplay.label_seconds
        self._write_checkpoint(arrays, {"rng": self.rng.bit_generator.state})

    @classmethod
    def resume(cls, out: str | Path) -> Trainer:
        """The run saved in ``out`` as its last checkpoint left it."""
        folder, settings, config = read_checkpoint(out)
        trainer = cls(out, config, _resuming=True)
        with np.load(folder / ARRAYS_FILE) as arrays:
            trainer._restore(folder, settings, arrays)
            trainer.selfplay.restore(arrays)
        trainer.rng.bit_generator.state = settings["rng"]
        return trainer
