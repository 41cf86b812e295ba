"""AlphaZero-style training: self-play games searched by PUCT, a replay buffer, and training
steps interleaved with the self-play, all from one seed; checkpoints a killed run resumes
from exactly (the move of the loop: :meth:`Trainer.run`).

Everything random (layouts, noise, move draws, batches, symmetries) comes from the run's
seed, and a checkpoint holds all of the state (network, optimizer, replay buffer, games in
progress with their labels, random streams, counters), so that a run stopped after a
checkpoint and resumed makes the same moves and the same network as one never stopped (on
the same machine and JAX build). A label depends on its position alone (:mod:`.teacher`),
and a game's positions enter the buffer only once all their labels are in. Checkpoints
are written every ``checkpoint_every`` moves, never by the clock.

The parts: :class:`~.selfplay.SelfPlay` (the games, their search, the teacher),
:class:`Learner` (the network, the optimizer, the replay buffer, the dataset, the
checkpoint files) and :class:`Trainer`, both in one process, a move then the steps. With
``TrainConfig.workers`` the self-play plays in workers instead (:mod:`.workers`), and
:func:`~.runs.open_trainer` opens either kind of run. The search is called in
:meth:`~.selfplay.SelfPlay.move` (:class:`~.batched_search.BatchSearch`), which reads
``result.visits`` (``float32[games, 36]``): the place for another search to replace it."""

from __future__ import annotations

import json
import os
import shutil
import time
import zipfile
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt
import optax

from ..donuts.rules import make_rules
from ..donuts.symmetry import NUM_SYMMETRIES
from .buffer import ReplayBuffer, legal_flags, sample_planes, symmetric
from .config import ARRAYS_FILE, OPTIMIZER_FILE, PROGRESS, SETTINGS_FILE, fresh_counters
from .config import Progress as Progress  # the run's settings and progress line, importable from here too
from .config import TrainConfig as TrainConfig
from .dataset import DatasetWriter, rows_of
from .errors import LearnError
from .network import CHECKPOINT, WDL_ORDER, Network, load_network, new_network, save_network
from .selfplay import FinishedGame, SelfPlay
from .teacher import label_counts, targets


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


def _initial_network(config: TrainConfig) -> Network:
    """The network ``config.initial_network`` names, checked to have the run's shape."""
    assert config.initial_network is not None
    network = load_network(config.initial_network)
    if network.config != config.network:
        raise LearnError(f"the initial network {config.initial_network!r} is {network.config}, the run's network is "
                         f"{config.network}: give the run the initial network's shape")
    return network


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
        if self.out.exists() and not self.out.is_dir():
            raise LearnError(f"{str(self.out)!r} is a file: a run's checkpoints go into a folder")
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
        self.counters: Progress = fresh_counters()
        self._losses: list[tuple[float, float]] = []
        self._label_seconds_before = 0.0  # the teachers' seconds in earlier sessions of the run

    def _dataset_meta(self) -> dict[str, Any]:
        config = self.config
        return {"rules": self.rules.to_dict(), "teacher": config.teacher, "teacher_nodes": config.teacher_nodes,
                "sims": config.simulations, "layout": config.layout, "seed": config.seed,  # the dataset format 1 key "sims"
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
        """Add a self-play's seconds (:meth:`~.selfplay.SelfPlay.take_seconds`) to the counters."""
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
        self.counters = Progress(**{**fresh_counters(), **settings["counters"]})
        self._label_seconds_before = self.counters["label_seconds"]
        if self.config.dataset is not None:
            self.dataset = DatasetWriter(self.config.dataset, self._dataset_meta(),
                                         written=int(settings.get("dataset_written", 0)))


class Trainer(Learner):
    """A training run in directory ``out``: ``Trainer(out, config)`` starts one (``out`` must
    hold no checkpoint), :meth:`Trainer.resume` continues one from its last checkpoint.
    Self-play (:class:`~.selfplay.SelfPlay`) and training alternate in this process, a move of every
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
        checkpoint every ``checkpoint_every`` moves and at the end.

        One **move** of the training loop::

            search      every one of the `games` self-play games, from its position, `simulations`
                        simulations (the network predicts each round's leaves in one batch),
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

        Args:
            minutes: wall time to train for.
            moves: the moves the run is to have made in all.
            report: given each checkpoint's progress line.
            measure: ``measure(network)`` (e.g. the accuracy against the solver,
                :func:`donuts_ai.learn.benchmark.accuracy`) fills the progress' accuracies.

        Returns:
            The progress at the end.
        """
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
        _cut_partial_line(Path(out) / PROGRESS)
        trainer = cls(out, config, _resuming=True)
        try:
            with np.load(folder / ARRAYS_FILE) as arrays:
                trainer._restore(folder, settings, arrays)
                trainer.selfplay.restore(arrays)
        except (OSError, ValueError, zipfile.BadZipFile, zlib.error) as exc:  # cut off, damaged, or not an archive of arrays
            raise LearnError(f"{folder / ARRAYS_FILE}: the checkpoint's arrays cannot be read ({exc})") from None
        trainer.rng.bit_generator.state = settings["rng"]
        return trainer


def _cut_partial_line(path: Path) -> None:
    """Cut away a last line written in part (a run killed mid-line: no newline at its end),
    so that the resumed run's first line starts a line of its own and every line parses."""
    try:
        with open(path, "rb+") as fh:
            text = fh.read()
            if text and not text.endswith(b"\n"):
                fh.truncate(text.rfind(b"\n") + 1)
    except FileNotFoundError:
        pass
