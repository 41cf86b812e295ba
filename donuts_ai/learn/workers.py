"""Self-play spread over workers, in this process or across a Ray cluster.

A run with ``TrainConfig.workers = N`` (N >= 1) plays its self-play in N workers, each
with its own ``games`` games (a :class:`~.selfplay.SelfPlay`), its own seeds and its own
share of the teacher's labelling; one learner (:class:`RoundTrainer`) keeps the network,
the optimizer, the replay buffer, the dataset and the checkpoints. They work in rounds:
in round r every worker plays ``round_moves`` moves with the network the learner sent at
its start, while the learner trains on round r-1's games (``train_steps`` steps per move
of each worker); so the workers play with a network one round behind the learner.

What a run does depends on its settings and seed alone, never on timing or on where its
workers run: the rounds fix the order of every step, worker ``i`` draws from its own
stream (:func:`worker_seeds`), and the learner adds the workers' games in worker order.
The ``"local"`` backend (the workers one after another here) and ``"ray"`` (one actor
each, ``num_cpus=1``) make the same network. A checkpoint, written at the end of a round,
holds every worker's games in progress and streams and the round not yet trained on, so
that a resumed run is the run never stopped. On Ray, a worker lost with its node stops
the run; ``--resume`` continues from the last checkpoint."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from ..donuts.rules import make_rules
from ..donuts.squares import NUM_SQUARES
from ..errors import DonutsError
from ..tournament import stops_cleanly
from .buffer import SAMPLE, as_samples
from .config import ARRAYS_FILE, Progress, TrainConfig
from .errors import LearnError
from .network import CHECKPOINT, Network
from .selfplay import SELF_PLAY_ARRAYS, FinishedGame, SelfPlay
from .train import Learner, read_checkpoint

#: Where a run's workers play: one after another in this process, or as Ray actors.
TRAIN_BACKENDS = ("local", "ray")
#: Prefix of a worker's arrays in a checkpoint (``w3_games``: worker 3's games).
_WORKER_PREFIX = "w{}_"
#: A checkpoint's round not yet trained on: its games' positions end to end, their visits,
#: each game's length, and whether it explored.
_ROUND_ARRAYS = ("round_samples", "round_visits", "round_lengths", "round_explored")


def worker_seeds(seed: int, workers: int) -> tuple[np.random.SeedSequence, list[tuple[np.random.SeedSequence, int]]]:
    """The learner's stream and each worker's ``(stream, environment seed)``, all from ``seed``:
    children of ``SeedSequence(seed)``, the learner's the first (the stream of a run in one
    process), worker ``i``'s the ``i + 2``-th, its environment's seed drawn from it."""
    children = np.random.SeedSequence(seed).spawn(1 + workers)
    return children[0], [(child, int(child.generate_state(1, np.uint64)[0] >> np.uint64(1))) for child in children[1:]]


class RoundResult(NamedTuple):
    """What a worker hands the learner at the end of a round."""

    finished: list[FinishedGame]  # the games it finished, in the order they ended
    seconds: dict[str, float]  # its self-play seconds in the round (selfplay.SELF_PLAY_SECONDS)
    label_seconds: float  # its teacher's seconds this session, summed over its threads


class SelfPlayWorker:
    """Worker ``index`` of a run: its :class:`~.selfplay.SelfPlay` and random stream. A Ray
    actor on the ``"ray"`` backend (so everything it takes and gives is plain data)."""

    def __init__(self, config: dict[str, Any], index: int):
        self.config = TrainConfig.from_json(config)
        stream, env_seed = worker_seeds(self.config.seed, self.config.workers)[1][index]
        self.rng = np.random.default_rng(stream)
        self.selfplay = SelfPlay(self.config, make_rules(self.config.insertion, donuts=self.config.donuts), self.rng, env_seed)

    def play(self, network: Network, moves: int) -> RoundResult:
        """``moves`` moves of every game with ``network``."""
        finished: list[FinishedGame] = []
        for _ in range(moves):
            finished += self.selfplay.move(network)
        return RoundResult(finished, self.selfplay.take_seconds(), self.selfplay.label_seconds)

    def state(self) -> tuple[dict[str, np.ndarray], dict[str, Any], dict[str, float]]:
        """Its games in progress (labels settled), its stream's state, the seconds settling took."""
        arrays = self.selfplay.state()
        return arrays, dict(self.rng.bit_generator.state), self.selfplay.take_seconds()

    def restore(self, arrays: dict[str, np.ndarray], rng: dict[str, Any]) -> None:
        self.selfplay.restore(arrays)
        self.rng.bit_generator.state = rng

    def close(self) -> None:
        self.selfplay.close()


class _LocalWorkers:
    """The workers in this process, played one after another."""

    def __init__(self, config: TrainConfig):
        self.workers = [SelfPlayWorker(config.to_json(), i) for i in range(config.workers)]

    def play(self, network: Network, moves: int) -> Callable[[], list[RoundResult]]:
        results = [worker.play(network, moves) for worker in self.workers]
        return lambda: results

    def states(self) -> list[tuple[dict[str, np.ndarray], dict[str, Any], dict[str, float]]]:
        return [worker.state() for worker in self.workers]

    def restore(self, states: list[tuple[dict[str, np.ndarray], dict[str, Any]]]) -> None:
        for worker, (arrays, rng) in zip(self.workers, states, strict=True):
            worker.restore(arrays, rng)

    def close(self) -> None:
        for worker in self.workers:
            worker.close()


class _RayWorkers:
    """The workers as Ray actors (one CPU each), wherever the cluster places them."""

    def __init__(self, ray: Any, config: TrainConfig):
        self.ray = ray
        # An actor waits for a free CPU without end: a cluster too small would hang the run.
        cpus = ray.cluster_resources().get("CPU", 0)
        if cpus < config.workers:
            raise LearnError(f"the Ray cluster has {cpus:g} CPUs for {config.workers} workers of one CPU each: "
                             f"give at most {int(cpus)} workers, or add nodes")
        actor = ray.remote(num_cpus=1, max_restarts=0)(SelfPlayWorker)
        self.workers = [actor.remote(config.to_json(), i) for i in range(config.workers)]

    def play(self, network: Network, moves: int) -> Callable[[], list[RoundResult]]:
        sent = self.ray.put(network)  # once, for every worker
        refs = [worker.play.remote(sent, moves) for worker in self.workers]
        return lambda: self._get(refs)

    def _get(self, refs: list[Any]) -> list[Any]:
        try:
            got: list[Any] = self.ray.get(refs)
        except self.ray.exceptions.RayActorError as exc:
            raise LearnError(f"a self-play worker was lost ({type(exc).__name__}); the run stopped: resume it from "
                             "its last checkpoint") from None
        return got

    def states(self) -> list[tuple[dict[str, np.ndarray], dict[str, Any], dict[str, float]]]:
        return self._get([worker.state.remote() for worker in self.workers])

    def restore(self, states: list[tuple[dict[str, np.ndarray], dict[str, Any]]]) -> None:
        self._get([worker.restore.remote(arrays, rng) for worker, (arrays, rng) in zip(self.workers, states, strict=True)])

    def close(self) -> None:
        for worker in self.workers:  # their teachers' threads go with their processes
            try:
                self.ray.kill(worker)
            except Exception:  # noqa: BLE001 - a worker lost with its node, or Ray gone already: nothing to stop
                pass


class RoundTrainer(Learner):
    """A run whose self-play plays in ``config.workers`` workers (see the module), in
    directory ``out``: ``RoundTrainer(out, config, backend=..., address=...)`` starts one
    (``out`` must hold no checkpoint), :meth:`resume` continues one. ``backend`` is
    ``"local"`` (the workers in this process) or ``"ray"`` (Ray actors: on the cluster at
    ``address``, else on a Ray instance of ``config.workers`` CPUs started here); both make
    the same run. The workers start with the first :meth:`run` and stop with :meth:`close`."""

    def __init__(self, out: str | Path, config: TrainConfig, *, backend: str = "local", address: str | None = None,
                 _resuming: bool = False):
        if backend not in TRAIN_BACKENDS:
            raise LearnError(f"backend must be one of {', '.join(TRAIN_BACKENDS)}, got {backend!r}")
        if not config.workers:
            raise LearnError("RoundTrainer needs TrainConfig.workers >= 1 (workers=0 trains in one process: Trainer)")
        if address is not None and backend != "ray":
            raise LearnError("an address is a Ray cluster's: it needs backend 'ray'")
        super().__init__(out, config, _resuming=_resuming)
        self.backend, self.address = backend, address
        learner_stream, _ = worker_seeds(config.seed, config.workers)
        self.rng = np.random.default_rng(learner_stream)
        #: The last round played and not yet trained on (None before the first).
        self.unlearned: list[RoundResult] | None = None
        self._saved_states: list[tuple[dict[str, np.ndarray], dict[str, Any]]] | None = None  # a checkpoint's workers
        self._label_seconds = 0.0  # this session's, as the workers last said
        self._closed = False
        self._workers: _LocalWorkers | _RayWorkers | None = None
        self._session = ExitStack()  # the Ray connection, when this run made one

    # --- the workers ------------------------------------------------------------------
    def _start(self) -> _LocalWorkers | _RayWorkers:
        if self._closed:
            raise LearnError("the run's workers were closed: continue it with RoundTrainer.resume(out)")
        if self._workers is None:
            if self.backend == "ray":
                from ..tournament.backends import ray_session

                try:
                    ray = self._session.enter_context(ray_session(self.address, self.config.workers))
                except DonutsError as exc:  # Ray missing: name it as the run's error
                    raise LearnError(str(exc)) from None
                self._workers = _RayWorkers(ray, self.config)
            else:
                self._workers = _LocalWorkers(self.config)
            if self._saved_states is not None:
                self._workers.restore(self._saved_states)
                self._saved_states = None
        return self._workers

    def close(self) -> None:
        """Stop the workers (and the Ray instance the run started); the run goes on with
        :meth:`resume` from its last checkpoint (written at the end of every :meth:`run`)."""
        self._closed = True
        workers, self._workers = self._workers, None
        try:
            if workers is not None:
                workers.close()
        finally:
            self._session.close()

    # --- rounds -----------------------------------------------------------------------
    @stops_cleanly  # SIGTERM and SIGHUP stop it as Ctrl-C does (Ray's own handler would abort the process)
    def run(self, minutes: float | None = None, moves: int | None = None,
            report: Callable[[Progress], None] | None = None,
            measure: Callable[[Network], tuple[float, float]] | None = None) -> Progress:
        """Train in rounds until ``minutes`` of wall time have passed or the run has made
        ``moves`` moves in all (each worker's moves; checked between rounds, so a run ends
        at the first round end at or past them), writing a checkpoint whenever a multiple of
        ``checkpoint_every`` moves is passed, and at the end. ``report`` and ``measure`` as
        :meth:`~.train.Trainer.run`. The workers stay up for a later call until :meth:`close`."""
        if minutes is None and moves is None:
            raise LearnError("RoundTrainer.run needs minutes or moves")
        config = self.config
        started = time.perf_counter()
        seconds_before = self.counters["seconds"]
        deadline = None if minutes is None else started + 60.0 * minutes
        workers = self._start()
        written = self.counters["moves"]
        while moves is None or self.counters["moves"] < moves:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            playing = workers.play(self.network, config.round_moves)  # before the training below: one round behind
            if self.unlearned is not None:
                for result in self.unlearned:
                    self.add(result.finished)
                self.train(self.rng, config.train_steps * config.round_moves * config.workers)
            self.unlearned = playing()
            for result in self.unlearned:
                self.count_seconds(result.seconds)
            self._label_seconds = sum(result.label_seconds for result in self.unlearned)
            self.counters["moves"] += config.round_moves
            if self.counters["moves"] // config.checkpoint_every > written // config.checkpoint_every:
                self.counters["seconds"] = seconds_before + time.perf_counter() - started
                self._checkpoint(workers, report, measure)
                written = self.counters["moves"]
        self.counters["seconds"] = seconds_before + time.perf_counter() - started
        if written != self.counters["moves"] or not (self.out / CHECKPOINT).exists():
            self._checkpoint(workers, report, measure)
        return self.counters

    def _checkpoint(self, workers: _LocalWorkers | _RayWorkers, report: Callable[[Progress], None] | None,
                    measure: Callable[[Network], tuple[float, float]] | None) -> None:
        self._progress_line(measure)
        states = workers.states()
        arrays: dict[str, np.ndarray] = {}
        rngs = []
        for i, (worker_arrays, rng, seconds) in enumerate(states):
            arrays.update({_WORKER_PREFIX.format(i) + name: array for name, array in worker_arrays.items()})
            rngs.append(rng)
            self.count_seconds(seconds)
        arrays.update(_round_arrays(self.unlearned or []))
        self.counters["label_seconds"] = self._label_seconds_before + self._label_seconds
        self._write_checkpoint(arrays, {"rng": self.rng.bit_generator.state, "worker_rngs": rngs,
                                        "unlearned_games": None if self.unlearned is None else
                                        [len(result.finished) for result in self.unlearned]})
        self._write_line(report)

    @classmethod
    def resume(cls, out: str | Path, *, backend: str = "local", address: str | None = None) -> RoundTrainer:
        """The run saved in ``out`` as its last checkpoint left it, its workers on ``backend``
        (any: where a run plays changes nothing of what it plays)."""
        folder, settings, config = read_checkpoint(out)
        if not config.workers:
            raise LearnError(f"the run in {str(out)!r} trains in one process (workers 0): resume it with Trainer")
        trainer = cls(out, config, backend=backend, address=address, _resuming=True)
        with np.load(folder / ARRAYS_FILE) as arrays:
            trainer._restore(folder, settings, arrays)
            trainer._saved_states = [
                ({name: arrays[_WORKER_PREFIX.format(i) + name] for name in SELF_PLAY_ARRAYS}, rng)
                for i, rng in enumerate(settings["worker_rngs"])]
            counts = settings["unlearned_games"]
            if counts is not None:
                games = list(_games_of(arrays))
                trainer.unlearned, at = [], 0
                for count in counts:
                    trainer.unlearned.append(RoundResult(games[at:at + count], {}, 0.0))
                    at += count
        trainer.rng.bit_generator.state = settings["rng"]
        return trainer


def _round_arrays(round_: list[RoundResult]) -> dict[str, np.ndarray]:
    """A round's finished games as the flat arrays of :data:`_ROUND_ARRAYS`."""
    games = [game for result in round_ for game in result.finished]
    return {"round_samples": np.concatenate([g.samples for g in games]) if games else np.zeros(0, dtype=SAMPLE),
            "round_visits": np.concatenate([g.visits for g in games]) if games else np.zeros((0, NUM_SQUARES), dtype=np.uint16),
            "round_lengths": np.array([len(g.samples) for g in games], dtype=np.int64),
            "round_explored": np.array([g.explored for g in games], dtype=np.bool_)}


def _games_of(arrays: Mapping[str, np.ndarray]) -> Iterator[FinishedGame]:
    """The games :func:`_round_arrays` flattened, in order."""
    samples, visits = as_samples(arrays["round_samples"]), arrays["round_visits"]
    ends = np.cumsum(arrays["round_lengths"])
    for end, length, explored in zip(ends, arrays["round_lengths"], arrays["round_explored"], strict=True):
        yield FinishedGame(samples[end - length:end].copy(), visits[end - length:end].copy(), bool(explored))
