"""The Ray backend across nodes (issue 41): a two-node cluster on this machine (Ray's
``cluster_utils.Cluster``: a head and one more node, one CPU each), shared by the module.

A tournament, ``evaluate`` and the first-player study play the local run's games on it;
a node removed while it plays a unit loses nothing and duplicates nothing (Ray runs the
unit again on the other node; the driver alone writes the results file); a driver killed
with SIGKILL is finished by ``--resume``; a driver stopped by SIGTERM leaves none of the
engines its tasks started, on any node, an engine hung mid-move too.

The agents' moves do not depend on timing (depths, iteration counts, seeds), so results
are compared game by game. Every wait is a liveness bound for a loaded machine, never
asserted as a duration.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from donuts_ai import tournament as T
from donuts_ai.study import run_study
from donuts_ai.suites.evaluation import EvaluationSettings, evaluate

from ..tournament.test_shutdown import LEFT_AFTER, PATIENCE, STUBBORN, _alive, _pids, _processes, _start

ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")

pytestmark = [pytest.mark.skipif(not Path("/proc").is_dir(), reason="the tests find the nodes' processes in /proc")]

#: Deterministic agents slow enough that a unit is still running when the node is removed.
AGENTS = ["greedy", "mcts:simulations=1500"]
#: The tournament's settings, shared by the lost-node and the resume tests (one local run).
GAMES, SEED = 10, 7
#: The liveness bound of a training run's steps: each Ray actor imports JAX and compiles
#: the network before its first move, which on a loaded 2-core machine took longer than
#: PATIENCE once (the learning tests' bound).
TRAINING_PATIENCE = 300.0
#: evaluate's agent and sample: 3 units of 25 middlegame positions.
EVAL_AGENT, EVAL_LIMIT = "mcts:simulations=3000", 75
#: How often the head checks that each node is alive. A removed node counts as alive until
#: its checks fail (5 in a row, Ray's default), and ``wait_for_nodes`` waits for that when a
#: node is added again: with Ray's default period of 3 s, 10 to 15 s each time. A node that
#: is alive fails a check only when it gives no answer within Ray's timeout (10 s), so a
#: loaded machine does not make a live node look dead any sooner.
HEALTH_CHECK_PERIOD_MS = 500


@contextlib.contextmanager
def _sigint_ignored():
    """Start a node's processes with SIGINT ignored, as a cluster started by a script in
    the background (a shell's ``&``) has them: Ray cancels a running task through SIGINT,
    and a stopped run must still reach its workers' engines (whether this test process
    ignores SIGINT or not)."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.fixture(scope="module")
def cluster():
    """A head and one more node, one CPU each, on this machine, with this process connected
    to it (the in-process runs share one Ray job, and so its workers, rather than each
    starting workers of its own: CI time); shut down after the module."""
    with _sigint_ignored():
        made = cluster_utils.Cluster(initialize_head=True, head_node_args={
            "num_cpus": 1, "include_dashboard": False,
            "_system_config": {"health_check_period_ms": HEALTH_CHECK_PERIOD_MS}})
    handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        with _sigint_ignored():
            made.add_node(num_cpus=1)
        made.wait_for_nodes()
        ray.init(address=made.address, log_to_driver=False)
        yield made
    finally:
        if ray.is_initialized():
            ray.shutdown()
        made.shutdown()
        for number, handler in handlers.items():  # ray.init's own SIGTERM handler goes with the cluster
            signal.signal(number, handler)


def _second_node(cluster):
    """The cluster's node besides the head, added again if a test removed it."""
    others = [node for node in cluster.list_all_nodes() if node is not cluster.head_node]
    if not others:
        with _sigint_ignored():
            others = [cluster.add_node(num_cpus=1)]
        cluster.wait_for_nodes()
    return others[0]


def _raylet(node) -> int:
    return node.all_processes["raylet"][0].process.pid


def _below(root: int) -> list[int]:
    """Every process below ``root`` (a raylet: its workers, their seats and engines), from /proc."""
    table, found = _processes(), [root]
    for pid in found:
        found += [child for child, (parent, _) in table.items() if parent == pid]
    return found[1:]


def _seats_on(node) -> list[int]:
    """The processes a node's workers started (seats, engines): the raylet's grandchildren and below."""
    workers = {pid for pid, (parent, _) in _processes().items() if parent == _raylet(node)}
    return [pid for worker in workers for pid in _below(worker)]


def _units(path: Path) -> list[int]:
    """The unit numbers written to a results file, in file order (repeats kept)."""
    if not path.exists():
        return []
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [line["unit"] for line in lines if line.get("type") == "unit"]


def _games(units) -> list[tuple]:
    """A tournament's games by unit, without timings."""
    return [(u["unit"], [(g["moves"], g["winner"], g["reason"]) for g in u["games"]])
            for u in sorted(units, key=lambda u: u["unit"])]


def _gone_soon(pids: list[int]) -> list[int]:
    """Which of ``pids`` still run after LEFT_AFTER (a killed process dies once scheduled)."""
    since = time.monotonic()
    while any(_alive(pid) for pid in pids) and time.monotonic() - since < LEFT_AFTER:
        time.sleep(0.05)
    return [pid for pid in pids if _alive(pid)]


def _stopped_by_sigterm(driver, ready: Callable[[], list[int]], waiting_for: Callable[[], str],
                        patience: float = PATIENCE) -> tuple[list[int], str]:
    """Wait until ``ready()`` names the processes to watch (within ``patience``, the driver
    still running), then stop the driver with SIGTERM and wait for it to end: (those
    processes, its stderr). A driver still running after that is killed with its process group."""
    try:
        deadline = time.monotonic() + patience
        while not (watched := ready()):
            assert driver.poll() is None, driver.communicate()
            assert time.monotonic() < deadline, waiting_for()
            time.sleep(0.05)
        driver.send_signal(signal.SIGTERM)
        _, err = driver.communicate(timeout=PATIENCE)
    finally:
        if driver.poll() is None:
            os.killpg(driver.pid, signal.SIGKILL)
            driver.wait()
    return watched, err


class _NodeLoss(threading.Thread):
    """Removes ``node`` once it plays a unit (a seat runs below its raylet) and at least
    one unit is in the results file; records what it saw then."""

    def __init__(self, cluster, node, out: Path):
        super().__init__(daemon=True)
        self.cluster, self.node, self.out = cluster, node, out
        self.written_then: int | None = None
        self.seats: list[int] = []
        self.stop = threading.Event()

    def run(self) -> None:
        deadline = time.monotonic() + PATIENCE
        while not self.stop.is_set() and time.monotonic() < deadline:
            seats = _seats_on(self.node)
            written = len(_units(self.out))
            if seats and written:
                self.seats, self.written_then = seats, written
                self.cluster.remove_node(self.node, allow_graceful=False)
                return
            time.sleep(0.05)


def _with_node_lost(cluster, out: Path, run):
    """``run()`` while the second node is removed mid-run; (its result, the node loss)."""
    loss = _NodeLoss(cluster, _second_node(cluster), out)
    loss.start()
    try:
        result = run()
    finally:
        loss.stop.set()
        loss.join()
    return result, loss


@pytest.fixture(scope="module")
def local_games():
    """The tournament played locally, in this process: the games every cluster run must play.
    Its agents play as objects here (isolation "none"): their moves do not depend on where
    they run, and a seat process costs about a second to start."""
    return _games(T.run(AGENTS, games=GAMES, seed=SEED, workers=1, isolation="none", game="donuts").units)


def test_the_study_across_two_nodes_solves_as_a_local_run(cluster):
    _second_node(cluster)
    local = run_study(arrangements=4, grids=2, seed=11, workers=1)[1]
    across = run_study(arrangements=4, grids=2, seed=11, backend="ray", address=cluster.address)[1]
    def solved(rows):  # without the seconds each took
        return sorted(({k: v for k, v in row.items() if k != "seconds"} for row in rows), key=lambda r: r["unit"])

    assert solved(across) == solved(local) and local


def test_a_run_without_an_address_starts_an_instance_of_its_own_beside_a_cluster(cluster, tmp_path):
    # The cluster is the machine's latest (as `ray start` makes) and RAY_ADDRESS names it:
    # ray.init() alone would join it, and refuse the run's CPU count.
    out = tmp_path / "r.jsonl"
    args = ["tournament", "greedy", "random", "--games", "2", "--seed", "3", "--backend", "ray", "--workers", "1",
            "--quiet", "--out", str(out)]
    driver = _start(args, env={**os.environ, "RAY_ADDRESS": cluster.address})
    _, err = driver.communicate(timeout=PATIENCE)
    assert driver.returncode == 0, err
    local = T.run(["greedy", "random"], games=2, seed=3, workers=1, isolation="none", game="donuts")  # as local_games
    assert _games(T.Results.from_file(str(out)).units) == _games(local.units)


def test_a_driver_killed_mid_run_is_finished_by_resume(cluster, local_games, tmp_path):
    _second_node(cluster)
    out = tmp_path / "r.jsonl"
    args = ["tournament", *AGENTS, "--games", str(GAMES), "--seed", str(SEED), "--backend", "ray",
            "--address", cluster.address, "--quiet", "--out", str(out)]
    driver = _start(args)
    try:
        deadline = time.monotonic() + PATIENCE
        while not _units(out):
            assert driver.poll() is None, driver.communicate()
            assert time.monotonic() < deadline, "no unit written"
            time.sleep(0.05)
        seats = [pid for node in cluster.list_all_nodes() for pid in _seats_on(node)]
        os.killpg(driver.pid, signal.SIGKILL)
        driver.wait()
    finally:
        if driver.poll() is None:
            os.killpg(driver.pid, signal.SIGKILL)
            driver.wait()
    before = _units(out)
    assert 0 < len(before) < len(local_games) and len(set(before)) == len(before)
    # Ray ends a dead driver's workers: their seats see the end of their input and leave.
    assert not _gone_soon(seats)
    T.run(AGENTS, games=GAMES, seed=SEED, game="donuts",
          results_path=str(out), config=T.HarnessConfig(backend="ray", address=cluster.address, resume=True))  # what --resume runs
    written = _units(out)
    assert written[:len(before)] == before and sorted(written) == [unit for unit, _ in local_games], Counter(written)
    assert _games(T.Results.from_file(str(out)).units) == local_games


@pytest.fixture
def stubborn(tmp_path) -> Path:
    path = tmp_path / "stubborn.py"
    path.write_text(f"#!{sys.executable}\n{STUBBORN}")
    path.chmod(0o755)
    return path


def test_a_stopped_ray_run_leaves_nothing_on_any_node(cluster, stubborn, tmp_path):
    nodes = [cluster.head_node, _second_node(cluster)]
    log, out = tmp_path / "pids", tmp_path / "r.jsonl"
    engine = f"engine:{stubborn} {log} 2"  # plays one unit (two quick losses), then hangs mid-move and ignores quit
    driver = _start(["tournament", engine, engine, "--games", "8", "--backend", "ray", "--address", cluster.address,
                     "--move-limit", "100", "--quiet", "--out", str(out)])

    def hanging() -> list[int]:  # both nodes hang in a unit of their own: two engines hang on go
        if _pids(log)[1] < 2 or not all(_seats_on(node) for node in nodes):
            return []
        engines, _ = _pids(log)
        return sorted({*(pid for node in nodes for pid in _seats_on(node)),
                       *(pid for pid, (_, group) in _processes().items() if group in engines)})

    started, err = _stopped_by_sigterm(driver, hanging, lambda: f"no engine hanging on both nodes: {log.read_text()}")
    left = _gone_soon(started)
    for pid in left:  # leave nothing behind even when the test fails
        os.kill(pid, signal.SIGKILL)
    assert not left, f"left running {LEFT_AFTER:g} s after SIGTERM: {left} of {started}"
    assert driver.returncode == 128 + signal.SIGTERM and "stopped by SIGTERM" in err, err
    # The units finished before the stop are in the results file, each once, and nothing else is.
    written = _units(out)
    assert written and len(set(written)) == len(written)
    assert all(g.reason == "illegal move" for g in T.Results.from_file(str(out)).games)


def _actors_on(node) -> list[int]:
    """The self-play workers (Ray actors of learn.workers) running below a node's raylet."""
    found = []
    for pid in _below(_raylet(node)):
        try:
            title = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:  # gone meanwhile
            continue
        if b"SelfPlayWorker" in title:
            found.append(pid)
    return found


def test_training_in_workers_on_two_nodes_stops_and_resumes_as_if_never_stopped(cluster, tmp_path):
    from donuts_ai.learn.errors import LearnError
    from donuts_ai.learn.train import TrainConfig
    from donuts_ai.learn.workers import RoundTrainer
    from tests.learn.test_learn import SMALL_FLAGS, same_network

    nodes = [cluster.head_node, _second_node(cluster)]
    out = tmp_path / "run"
    too_many = RoundTrainer(tmp_path / "three", TrainConfig(workers=3), backend="ray", address=cluster.address)
    with pytest.raises(LearnError, match="2 CPUs for 3 workers"):  # refused, not left waiting for a third CPU
        too_many.run(moves=1)
    too_many.close()
    flags = [*SMALL_FLAGS, "--donuts", "4", "--min-replay", "16", "--workers", "2", "--round-moves", "2", "--checkpoint-every", "4"]
    on_ray = ["--backend", "ray", "--address", cluster.address, "--no-measure"]
    driver = _start(["train", "--out", str(out), "--moves", "100000", *flags, *on_ray])
    progress = out / "progress.jsonl"

    def playing() -> list[int]:  # one worker on each node (one CPU each), and a checkpoint written
        if not (progress.exists() and progress.read_text().strip() and all(_actors_on(node) for node in nodes)):
            return []
        return [pid for node in nodes for pid in _actors_on(node)]

    actors, err = _stopped_by_sigterm(driver, playing, lambda: "no checkpoint with a worker on each node", TRAINING_PATIENCE)
    assert driver.returncode == 128 + signal.SIGTERM and "stopped by SIGTERM" in err, err
    left = _gone_soon(actors)
    assert not left, f"self-play workers left {LEFT_AFTER:g} s after SIGTERM: {left} of {actors}"
    # Resumed on the cluster, it is the run a never-stopped one is: the same run in this process.
    saved = RoundTrainer.resume(out)
    end = saved.counters["moves"] + 8  # past the first games' end (8 plies), and training on them
    done = _start(["train", "--out", str(out), "--resume", "--moves", str(end), *on_ray])
    _, err = done.communicate(timeout=TRAINING_PATIENCE)
    assert done.returncode == 0, err
    whole = RoundTrainer(tmp_path / "whole", saved.config)
    whole.run(moves=end)
    whole.close()
    resumed = RoundTrainer.resume(out)
    assert resumed.counters["moves"] == end and resumed.counters["train_steps"] > 0
    assert same_network(whole.network, resumed.network)
    assert np.array_equal(whole.replay.samples, resumed.replay.samples)


# --- a node lost mid-run (the last tests: each removes the second node, the next adds one) ---


def test_a_tournament_loses_a_node_mid_run_and_plays_every_unit_once(cluster, local_games, tmp_path):
    out = tmp_path / "r.jsonl"
    results, loss = _with_node_lost(cluster, out, lambda: T.run(
        AGENTS, games=GAMES, seed=SEED, game="donuts", results_path=str(out),
                                                                config=T.HarnessConfig(backend="ray", address=cluster.address)))
    assert loss.written_then is not None, "the run ended before the second node played a unit"
    assert loss.written_then < len(local_games)  # removed mid-run, its unit unfinished
    written = _units(out)
    assert sorted(written) == [unit for unit, _ in local_games], Counter(written)  # every unit, once
    assert _games(results.units) == local_games == _games(T.Results.from_file(str(out)).units)
    assert not _gone_soon(loss.seats)  # the lost node's seats saw their input end and left


def test_evaluate_loses_a_node_mid_run_and_counts_every_position_once(cluster, tmp_path):
    out = tmp_path / "e.jsonl"
    local = evaluate(EVAL_AGENT, suite="middlegame", limit=EVAL_LIMIT, seed=3,
                     settings=EvaluationSettings(isolation="none"))  # as local_games: the same answers, no seat process
    result, loss = _with_node_lost(cluster, out, lambda: evaluate(
        EVAL_AGENT, suite="middlegame", limit=EVAL_LIMIT, seed=3, results_path=str(out),
        settings=EvaluationSettings(backend="ray", address=cluster.address)))
    assert loss.written_then is not None, "the run ended before the second node played a unit"
    written = _units(out)
    assert loss.written_then < len(written) and sorted(written) == list(range(len(written))), Counter(written)
    moves = {name: [(a["index"], a["move"]) for a in answers["middlegame"]] for name, answers in result.answers.items()}
    assert moves == {name: [(a["index"], a["move"]) for a in answers["middlegame"]]
                     for name, answers in local.answers.items()}
    assert result.scores()[EVAL_AGENT]["middlegame"]["positions"] == EVAL_LIMIT
    assert not _gone_soon(loss.seats)


def test_training_that_loses_a_worker_with_its_node_stops_and_resumes_as_if_never_stopped(cluster, tmp_path):
    from donuts_ai.learn.errors import LearnError
    from donuts_ai.learn.workers import RoundTrainer
    from tests.learn.test_workers import ROUNDS, same_network

    config = dataclasses.replace(ROUNDS, donuts=4, teacher="none", explore_fraction=0.0, checkpoint_every=4)
    node, out = _second_node(cluster), tmp_path / "run"
    progress = out / "progress.jsonl"

    def lose_the_node() -> None:  # once a checkpoint is written, while the node's worker plays
        deadline = time.monotonic() + TRAINING_PATIENCE
        while time.monotonic() < deadline and not (progress.exists() and progress.read_text().strip() and _actors_on(node)):
            time.sleep(0.05)
        cluster.remove_node(node, allow_graceful=False)

    loss = threading.Thread(target=lose_the_node, daemon=True)
    trainer = RoundTrainer(out, config, backend="ray", address=cluster.address)
    loss.start()
    try:
        with pytest.raises(LearnError, match="self-play worker was lost"):
            trainer.run(moves=100_000)
    finally:
        trainer.close()
        loss.join()
    _second_node(cluster)  # a node again: the run's two workers have their CPUs
    saved = RoundTrainer.resume(out)
    end = saved.counters["moves"] + 8  # past the first games' end (8 plies), and training on them
    resumed = RoundTrainer.resume(out, backend="ray", address=cluster.address)
    resumed.run(moves=end)
    resumed.close()
    whole = RoundTrainer(tmp_path / "whole", config)
    whole.run(moves=end)
    whole.close()
    assert resumed.counters["train_steps"] > 0 and same_network(whole.network, resumed.network)
    assert np.array_equal(whole.replay.samples, resumed.replay.samples)
