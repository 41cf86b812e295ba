"""Self-play in workers (``TrainConfig.workers``, :mod:`donuts_ai.learn.workers`), on the
local backend: a run repeats, a stopped run resumes as if never stopped (the round the
learner had not trained on, each worker's games and stream), the workers play games of
their own, and where a run plays is checked before it starts. The same run on Ray, across
two nodes, is in ``test_ray_cluster.py``."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("jax")

from donuts_ai.learn.dataset import read_dataset  # noqa: E402
from donuts_ai.learn.errors import LearnError  # noqa: E402
from donuts_ai.learn.runs import open_trainer, run_training  # noqa: E402
from donuts_ai.learn.train import Trainer  # noqa: E402
from donuts_ai.learn.workers import RoundTrainer, worker_seeds  # noqa: E402

from .test_learn import PATIENCE, SMALL, same_network  # noqa: E402

#: SMALL in two workers, rounds of 2 moves, short games (6 donuts each: games end within
#: the run), a quarter of them exploring, the solver labelling from ply 2.
ROUNDS = dataclasses.replace(SMALL, donuts=6, min_replay=16, checkpoint_every=5, workers=2, round_moves=2,
                             explore_fraction=0.25, teacher="solver", teacher_nodes=3_000, teacher_min_ply=2)


def test_a_run_in_workers_repeats_and_resumes_as_if_never_stopped(tmp_path):
    whole = RoundTrainer(tmp_path / "whole", dataclasses.replace(ROUNDS, dataset=str(tmp_path / "whole-data")))
    whole.run(moves=17)  # ends at the round end past it
    whole.close()
    counters = whole.counters
    assert counters["moves"] == 18 and counters["games"] > 0 and counters["labelled"] > 0
    # Training began once the buffer held min_replay positions: train_steps per move of each worker a round.
    assert counters["train_steps"] > 0 and counters["train_steps"] % (SMALL.train_steps * 2 * 2) == 0
    parts = RoundTrainer(tmp_path / "parts", dataclasses.replace(ROUNDS, dataset=str(tmp_path / "parts-data")))
    parts.run(moves=12)  # ends between checkpoints, the first games finished in a round not yet trained on
    parts.close()
    assert parts.unlearned and any(result.finished for result in parts.unlearned)
    resumed = RoundTrainer.resume(tmp_path / "parts")
    assert resumed.counters["moves"] == 12
    resumed.run(moves=18)
    resumed.close()
    assert same_network(whole.network, resumed.network)
    assert np.array_equal(whole.replay.samples, resumed.replay.samples)
    assert resumed.counters["positions"] == counters["positions"]
    assert resumed.counters["explored_games"] == counters["explored_games"]
    written, again = read_dataset(tmp_path / "whole-data"), read_dataset(tmp_path / "parts-data")
    assert len(written) == counters["positions"] and set(written.arrays) == set(again.arrays)
    for name, array in written.arrays.items():
        assert np.array_equal(array, again.arrays[name]), name


def test_each_worker_plays_games_of_its_own_from_the_seed():
    learner, workers = worker_seeds(7, 3)
    # The learner's stream is that of a run in one process; every environment seed differs.
    assert np.array_equal(np.random.default_rng(learner).random(4),
                          np.random.default_rng(np.random.SeedSequence(7).spawn(1)[0]).random(4))
    assert len({seed for _, seed in workers}) == 3
    assert [seed for _, seed in worker_seeds(7, 2)[1]] == [seed for _, seed in workers[:2]]


def test_where_a_run_plays_is_checked_before_it_starts(tmp_path):
    with pytest.raises(LearnError, match="RoundTrainer"):
        Trainer(tmp_path / "a", ROUNDS)
    with pytest.raises(LearnError, match="workers >= 1"):
        RoundTrainer(tmp_path / "b", SMALL)
    with pytest.raises(LearnError, match="backend"):
        RoundTrainer(tmp_path / "c", ROUNDS, backend="spark")
    with pytest.raises(LearnError, match="address"):
        open_trainer(tmp_path / "d", ROUNDS, address="10.0.0.1:6379")
    with pytest.raises(LearnError, match="workers 0"):
        open_trainer(tmp_path / "e", SMALL, backend="ray")
    for bad in ({"workers": -1}, {"round_moves": 0}):
        with pytest.raises(LearnError, match=list(bad)[0]):
            dataclasses.replace(SMALL, **bad)
    # A run in one process resumes in one process; the settings choose the kind of run.
    run_training(tmp_path / "one", SMALL, moves=2)
    with pytest.raises(LearnError, match="workers 0"):
        open_trainer(tmp_path / "one", resume=True, backend="ray")
    assert isinstance(open_trainer(tmp_path / "one", resume=True), Trainer)
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_train_command_refuses_ray_without_workers_in_one_line(tmp_path):
    from donuts_ai.learn import cli, config, network, teacher, workers

    # The command line repeats its choices (its help loads no JAX): they are the library's.
    assert (cli.BACKENDS, cli.SEARCHES, cli.TEACHERS, cli.VALUE_HEADS) == \
        (workers.TRAIN_BACKENDS, config.SEARCHES, teacher.TEACHER_MODES, network.VALUE_HEADS)
    for args, says in ((["--moves", "5", "--backend", "ray"], "give --workers N"),
                       (["--moves", "5", "--address", "10.0.0.1:6379"], "needs --backend ray")):
        done = subprocess.run([sys.executable, "-m", "donuts_ai.cli", "train", "--out", str(tmp_path), *args],
                              capture_output=True, text=True, timeout=PATIENCE)
        assert done.returncode == 2
        assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
