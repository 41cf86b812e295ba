"""The solver as the learner's teacher (donuts_ai.learn.teacher), the WDL value head and the
self-play dataset (donuts_ai.learn.dataset): properties only, tiny networks and budgets."""

from __future__ import annotations

import dataclasses
import json
import random

import numpy as np
import pytest

pytest.importorskip("jax")

from donuts_ai import Board, Layout, Rules  # noqa: E402
from donuts_ai.donuts.alphabeta.solver import Solver  # noqa: E402
from donuts_ai.donuts.squares import NUM_SQUARES, SQUARE_NAMES  # noqa: E402
from donuts_ai.donuts.symmetry import SYMMETRY_NAMES, transform_square  # noqa: E402
from donuts_ai.learn import agent as A  # noqa: E402
from donuts_ai.learn.buffer import LABELLED, POLICY_KNOWN, SAMPLE, VALUE_KNOWN, legal_flags  # noqa: E402
from donuts_ai.learn.dataset import read_dataset  # noqa: E402
from donuts_ai.learn.errors import LearnError  # noqa: E402
from donuts_ai.learn.network import NetworkConfig, load_network, new_network, predict, predict_wdl, save_network  # noqa: E402
from donuts_ai.learn.teacher import Teacher, canonical, keep_flags, targets, write_labels  # noqa: E402
from donuts_ai.learn.train import TrainConfig, Trainer  # noqa: E402

from ..helpers import command_error  # noqa: E402
from .test_learn import SMALL, same_network  # noqa: E402

TINY_WDL = NetworkConfig(channels=8, blocks=1, value_hidden=8, value_head="wdl")
#: A run with the teacher small enough for the tests (two solver threads: labels made in any order).
TAUGHT = TrainConfig(games=8, simulations=4, network=TINY_WDL, batch_size=16, min_replay=16, checkpoint_every=5,
                     replay_capacity=500, teacher="solver", teacher_nodes=3_000, teacher_min_ply=2, teacher_threads=2)


def sample_of(board: Board) -> np.ndarray:
    """The :data:`SAMPLE` record of ``board``'s position (no search, no label)."""
    root = A.root_record(board)[0]
    sample = np.zeros(1, dtype=SAMPLE)
    for field in ("own", "opp", "legal", "last", "placed_own", "placed_opp", "color", "directions"):
        sample[field] = root[field]
    return sample


def random_positions(count: int, seed: int, min_ply: int = 0) -> list[Board]:
    """Positions of seeded random games on random tile arrangements, from ``min_ply`` on."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        board = Board(Layout.random(rng.randrange(1 << 30)))
        while not board.is_game_over() and len(found) < count:
            if board.ply >= min_ply:
                found.append(board.copy(stack=False))
            board.push(rng.choice(board.legal_moves()))
    return found


def samples_of(boards: list[Board]) -> np.ndarray:
    return np.concatenate([sample_of(b) for b in boards])


def exact_move_values(board: Board) -> dict[str, int]:
    solver, values = Solver(), {}
    for move in board.legal_moves():
        value = solver.move_value(board, move)
        assert value is not None  # no node limit
        values[move] = value
    return values


def test_labels_equal_the_solvers_on_a_sample():
    boards = random_positions(24, seed=3, min_ply=12)
    teacher = Teacher(Rules(), nodes=2_000)
    labels = teacher.label(samples_of(boards))
    assert any(label.keep is not None for label in labels) and any(label.value is None for label in labels)
    for board, label in zip(boards, labels, strict=True):
        values = exact_move_values(board)
        best = max(values.values())
        if label.value is not None:
            assert label.value == best
        if label.keep is not None:
            assert {SQUARE_NAMES[sq] for sq in range(NUM_SQUARES) if label.keep >> sq & 1} == \
                {m for m, v in values.items() if v == best}
        assert label.nodes >= 0
    teacher.close()


def test_a_position_and_its_images_get_one_label_whatever_the_threads_and_order():
    boards = random_positions(10, seed=5, min_ply=8)
    images = [b.transform(sym) for b in boards for sym in SYMMETRY_NAMES]
    records = samples_of(images)
    keys = [c.key for c in canonical(records)]
    for i in range(0, len(keys), len(SYMMETRY_NAMES)):
        assert len(set(keys[i:i + len(SYMMETRY_NAMES)])) == 1  # the 8 images of one position
    assert len(set(keys)) == len(boards)
    # No cache, one thread, in order; and two threads, shuffled, with the cache: the same labels.
    plain = Teacher(Rules(), nodes=1_500, threads=1, cache=0).label(records)
    order = list(range(len(records)))
    random.Random(1).shuffle(order)
    threaded = Teacher(Rules(), nodes=1_500, threads=2)
    shuffled = threaded.label(records[order])
    threaded.close()
    assert [shuffled[order.index(i)] for i in range(len(records))] == plain
    for b in range(len(boards)):
        first = plain[b * len(SYMMETRY_NAMES)]
        for s, sym in enumerate(SYMMETRY_NAMES):
            label = plain[b * len(SYMMETRY_NAMES) + s]
            assert (label.value, label.nodes) == (first.value, first.nodes)
            if first.keep is not None:
                assert label.keep == sum(1 << transform_square(sq, sym) for sq in range(NUM_SQUARES) if first.keep >> sq & 1)


def labelled_samples(count: int, seed: int) -> np.ndarray:
    """Positions with random visit distributions and results, labelled within a small budget."""
    boards = random_positions(count, seed=seed, min_ply=4)
    samples = samples_of(boards)
    rng = np.random.default_rng(seed)
    legal = legal_flags(samples)
    visits = rng.integers(0, 5, size=legal.shape) * legal
    visits[np.arange(len(samples)), legal.argmax(axis=1)] += 1  # every row some visit
    samples["policy"] = visits / visits.sum(axis=1, keepdims=True)
    samples["value"] = rng.choice([-1.0, 0.0, 1.0], size=len(samples))
    write_labels(samples, Teacher(Rules(), nodes=1_000).label(samples))
    return samples


def test_policy_targets_sum_to_one_over_legal_moves_and_the_solvers_cover_only_value_keeping_moves():
    samples = labelled_samples(60, seed=2)
    flags = samples["label_flags"]
    assert ((flags & POLICY_KNOWN) != 0).any() and ((flags & VALUE_KNOWN) == 0).any()
    legal, keep = legal_flags(samples), keep_flags(samples)
    settled = (flags & POLICY_KNOWN) != 0
    assert (keep[settled] <= legal[settled]).all() and keep[settled].any(axis=1).all()
    for teacher in ("none", "solver", "mixed"):
        policy, value = targets(samples, teacher)
        assert np.allclose(policy.sum(axis=1), 1.0, atol=1e-6)
        assert (policy[~legal] == 0).all() and (policy >= 0).all()
        known = (flags & VALUE_KNOWN) != 0
        if teacher == "none":
            assert np.array_equal(policy, samples["policy"]) and np.array_equal(value, samples["value"])
            continue
        assert np.array_equal(value[known], samples["label_value"][known].astype(np.float32))
        assert np.array_equal(value[~known], samples["value"][~known])
        if teacher == "solver":
            assert (policy[settled][~keep[settled]] == 0).all()  # only value-keeping moves
            critical = settled & (samples["label_keep"] != samples["legal"])
            assert critical.any()
            for row in np.flatnonzero(critical):  # uniform over them
                assert np.allclose(policy[row][keep[row]], 1.0 / keep[row].sum())
        else:
            critical = settled & (samples["label_keep"] != samples["legal"])
            expected = 0.5 * keep[critical] / keep[critical].sum(axis=1, keepdims=True) + 0.5 * samples["policy"][critical]
            assert np.allclose(policy[critical], expected)


def test_a_wdl_network_gives_probabilities_and_a_value_between_them(tmp_path):
    network = new_network(TINY_WDL, seed=1)
    planes = np.random.default_rng(0).random((5, 6, 6, 13), dtype=np.float32)
    wdl = predict_wdl(network, planes)
    logits, value = predict(network, planes)
    assert wdl.shape == (5, 3) and np.allclose(wdl.sum(axis=1), 1.0, atol=1e-5)
    assert np.allclose(value, wdl[:, 0] - wdl[:, 2], atol=1e-6) and logits.shape == (5, NUM_SQUARES)
    save_network(network, tmp_path / "wdl")
    assert same_network(load_network(tmp_path / "wdl"), network)
    with pytest.raises(LearnError, match="value_head"):
        predict_wdl(new_network(NetworkConfig(channels=8, blocks=1, value_hidden=8)), planes)
    with pytest.raises(LearnError, match="value_head"):
        NetworkConfig(value_head="ternary")


def test_an_old_network_and_an_old_checkpoint_still_load(tmp_path):
    # A network saved before the value head had a kind: its config has no value_head.
    network = new_network(NetworkConfig(channels=8, blocks=1, value_hidden=8), seed=3)
    save_network(network, tmp_path / "old")
    config_file = tmp_path / "old" / "network.json"
    old = json.loads(config_file.read_text())
    del old["value_head"]
    config_file.write_text(json.dumps(old))
    loaded = load_network(tmp_path / "old")
    assert loaded.config.value_head == "scalar" and same_network(loaded, network)
    # The shipped network is the one its training.json says was trained.
    shipped = TrainConfig.from_json(json.loads((A.SHIPPED_NETWORK / "training.json").read_text())["config"])
    assert A.cached_network(None).config == shipped.network
    # A checkpoint written before the teacher: no teacher settings, counters, label fields or visits.
    config = SMALL
    Trainer(tmp_path / "run", config).run(moves=22)
    folder = tmp_path / "run" / "checkpoint"
    settings = json.loads((folder / "train.json").read_text())
    for name in ("teacher", "teacher_nodes", "teacher_threads", "teacher_cache", "dataset"):
        del settings["config"][name]
    for name in ("labelled", "value_labels", "policy_labels", "label_seconds", "label_wait_seconds", "explored_games"):
        del settings["counters"][name]
    del settings["dataset_written"]
    (folder / "train.json").write_text(json.dumps(settings))
    old_sample = np.dtype([(name, SAMPLE.fields[name][0]) for name in SAMPLE.names if not name.startswith("label_")],
                          align=True)
    with np.load(folder / "state.npz") as arrays:
        state = {name: arrays[name] for name in arrays.files if name not in ("visits", "exploring")}
    for name in ("trajectories", "replay_samples"):
        new = state[name]
        state[name] = np.zeros(new.shape, dtype=old_sample)
        for field in old_sample.names:
            state[name][field] = new[field]
    np.savez(folder / "state.npz", **state)
    resumed = Trainer.resume(tmp_path / "run")
    assert resumed.config == config and resumed.counters["labelled"] == 0
    resumed.run(moves=26)
    whole = Trainer(tmp_path / "whole", config)
    whole.run(moves=26)
    assert same_network(whole.network, resumed.network)


def test_a_taught_run_repeats_resumes_as_if_never_stopped_and_writes_the_same_dataset(tmp_path):
    whole = Trainer(tmp_path / "whole", dataclasses.replace(TAUGHT, dataset=str(tmp_path / "whole-data")))
    whole.run(moves=22)
    buffered = whole.replay.samples[:whole.replay.size]
    asked = buffered["placed_own"] + buffered["placed_opp"] >= TAUGHT.teacher_min_ply
    assert whole.counters["train_steps"] > 0 and whole.counters["labelled"] == asked.sum() > 0
    assert 0 < whole.counters["value_labels"] <= whole.counters["labelled"]
    flags = buffered["label_flags"]
    assert (flags[asked] & LABELLED).all() and (flags[~asked] == 0).all() and (flags & VALUE_KNOWN).any()
    again = Trainer(tmp_path / "again", TAUGHT)
    again.run(moves=22)
    assert same_network(whole.network, again.network)
    parts = Trainer(tmp_path / "parts", dataclasses.replace(TAUGHT, dataset=str(tmp_path / "parts-data")))
    parts.run(moves=7)  # between checkpoints: games in progress carry labels being made
    parts.close()
    resumed = Trainer.resume(tmp_path / "parts")
    resumed.run(moves=22)
    assert same_network(whole.network, resumed.network)
    assert np.array_equal(whole.replay.samples, resumed.replay.samples)
    for trainer in (whole, again, resumed):
        trainer.close()
    # The dataset: every position that entered the buffer, as the buffer holds it.
    data, resumed_data = read_dataset(tmp_path / "whole-data"), read_dataset(tmp_path / "parts-data")
    assert len(data) == whole.counters["positions"]
    for name, array in data.arrays.items():
        assert np.array_equal(array, resumed_data.arrays[name]), name
    replay = whole.replay.samples[:whole.replay.size]
    assert np.array_equal(data.arrays["policy"], replay["policy"])
    for i, record in enumerate(data):
        board, sample = record.board(), replay[i]
        assert np.array_equal(sample_of(board)[0]["own"], sample["own"]) and board.turn == sample["color"] == record.turn
        assert record.result == sample["value"] and record.visits.sum() == TAUGHT.simulations
        assert (record.value is None) == (not sample["label_flags"] & VALUE_KNOWN)
        if record.value is not None:
            assert record.value == sample["label_value"]
        if record.keep is not None:
            assert set(record.keep) <= set(board.legal_moves())
        assert record.nodes == (sample["label_nodes"] if sample["label_flags"] else None)
    assert data.rules == Rules() and data[-1].game == whole.counters["games"] - 1 and data[0].ply == 0


def moves_played(data, game: int) -> tuple[list[int], list[np.ndarray]]:
    """The squares played in dataset game ``game`` between its positions, and each one's policy target."""
    rows = np.flatnonzero(data.arrays["game"] == game)
    filled = data.arrays["chocolate"][rows] | data.arrays["vanilla"][rows]
    squares = [int(np.log2(float(after ^ before))) for before, after in zip(filled[:-1], filled[1:], strict=True)]
    return squares, [data.arrays["policy"][r] for r in rows[:-1]]


def test_exploring_games_draw_every_move_and_a_resumed_run_keeps_drawing_them(tmp_path):
    exploring = dataclasses.replace(SMALL, explore_fraction=0.5)
    whole = Trainer(tmp_path / "whole", dataclasses.replace(exploring, dataset=str(tmp_path / "data")))
    whole.run(moves=30)
    parts = Trainer(tmp_path / "parts", exploring)
    parts.run(moves=12)
    resumed = Trainer.resume(tmp_path / "parts")
    resumed.run(moves=30)
    assert same_network(whole.network, resumed.network)
    assert np.array_equal(whole.selfplay.exploring, resumed.selfplay.exploring)
    assert whole.counters["explored_games"] == resumed.counters["explored_games"]
    data = read_dataset(tmp_path / "data")
    assert data.meta["explore_fraction"] == 0.5
    games = np.unique(data.arrays["game"])
    explored = {int(g) for g in games if data.arrays["explored"][data.arrays["game"] == g].all()}
    assert all(data.arrays["explored"][data.arrays["game"] == g].any() == (g in explored) for g in games)
    assert len(explored) == whole.counters["explored_games"] and 0 < len(explored) < len(games)
    off_the_top = 0
    for g in games:
        squares, policies = moves_played(data, int(g))
        for ply, (square, policy) in enumerate(zip(squares, policies, strict=True)):
            assert policy[square] > 0  # every move is one the search gave weight
            if ply >= exploring.temperature_plies:
                if g in explored:
                    off_the_top += int(square != policy.argmax())
                else:  # the main line: the most visited move
                    assert square == policy.argmax()
    assert off_the_top > 0  # exploring games draw past the first plies
    with pytest.raises(LearnError, match="explore_fraction"):
        TrainConfig(explore_fraction=1.5)


def test_settings_and_files_the_teacher_refuses(tmp_path):
    with pytest.raises(LearnError, match="teacher"):
        TrainConfig(teacher="oracle")
    with pytest.raises(LearnError, match="teacher_nodes"):
        TrainConfig(teacher_nodes=0)
    with pytest.raises(LearnError, match="simulations"):
        TrainConfig(simulations=70_000)
    old = TrainConfig(games=4).to_json()
    del old["teacher"], old["teacher_nodes"]
    assert TrainConfig.from_json(old) == TrainConfig(games=4)
    with pytest.raises(LearnError, match="no dataset"):
        read_dataset(tmp_path)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "shard-000000000000.npz").write_bytes(b"")
    with pytest.raises(LearnError, match="holds a dataset"):
        Trainer(tmp_path / "run", TrainConfig(games=2, dataset=str(tmp_path / "data")))


def test_train_command_refuses_bad_teacher_values_in_one_line(tmp_path, capsys):
    # In this process (test_learn.py's train-command test runs a real one).
    for args, says in ((["--teacher", "oracle"], "--teacher"),
                       (["--value-head", "ternary"], "--value-head"),
                       (["--teacher", "solver", "--teacher-nodes", "0"], "--teacher-nodes must be a positive int")):
        status, err = command_error(capsys, "train", "--out", str(tmp_path / "x"), "--moves", "1", *args)
        assert status == 2
        assert says in err and len(err.strip().splitlines()) == 1, err
