"""The dataset of perfect play (donuts_ai.learn.distill): labels equal the solver's, a
resumed run writes what a run never stopped writes, symmetric repeats kept once."""

from __future__ import annotations

import json

import numpy as np
import pytest

from donuts_ai import Solver
from donuts_ai.donuts.rules import Rules
from donuts_ai.donuts.squares import SQUARE_NAMES
from donuts_ai.learn.dataset import read_dataset
from donuts_ai.learn.distill import PROGRESS_FILE, DistillSettings, distill, play_game
from donuts_ai.learn.errors import LearnError
from donuts_ai.learn.teacher import canonical

# Late positions only, so that the test's own unlimited solves are cheap.
SMALL = DistillSettings(players=("random", "greedy"), min_ply=12, nodes=20_000, games_per_shard=1)
SEED = 3


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    path = tmp_path_factory.mktemp("distill") / "whole"
    summary = distill(path, games=4, seed=SEED, settings=SMALL)
    return path, summary


def test_labels_are_the_solvers(whole):
    path, summary = whole
    data = read_dataset(path)
    assert len(data) == summary.positions > 0 and data.meta["source"] == "distill"
    solver = Solver(book=False)
    for record in data:
        board = record.board()
        assert record.ply >= SMALL.min_ply and record.nodes is not None
        values = {move: solver.move_value(board, move) for move in board.legal_moves()}
        if record.value is not None:
            assert record.value == max(values.values())
        if record.keep is not None:
            assert set(record.keep) == {m for m, v in values.items() if v == record.value}
            assert np.isclose(record.policy.sum(), 1.0)
            assert {SQUARE_NAMES[i] for i in np.flatnonzero(record.policy)} == set(record.keep)


def test_symmetric_repeats_are_kept_once(whole):
    path, _ = whole
    data = read_dataset(path)
    from donuts_ai.learn.distill import _records

    keys = [c.key for c in canonical(_records([record.board() for record in data]))]
    assert len(keys) == len(set(keys))


def test_a_resumed_run_writes_what_a_run_never_stopped_writes(whole, tmp_path):
    path, _ = whole
    again = tmp_path / "again"
    distill(again, games=3, seed=SEED, settings=SMALL)
    # Killed after its second shard: the progress file says two games, a third shard lies past it.
    progress = json.loads((again / PROGRESS_FILE).read_text())
    two = read_dataset(again).arrays["game"] < 2
    (again / PROGRESS_FILE).write_text(json.dumps({"games": 2, "positions": int(two.sum())}))
    assert progress["games"] == 3
    summary = distill(again, games=4, seed=SEED, resume=True, settings=SMALL)
    ours, theirs = read_dataset(again).arrays, read_dataset(path).arrays
    assert summary.games == 4 and summary.positions == len(ours["game"])
    for name in theirs:
        assert np.array_equal(ours[name], theirs[name]), name


@pytest.mark.parametrize("players", [("random", "greedy"), ("az",)])
def test_games_come_from_the_seed_alone(players):
    if "az" in players:
        pytest.importorskip("jax")
    rules = Rules()
    one = [b.fen() for b in play_game(5, 2, players, rules, 0.1)]
    two = [b.fen() for b in play_game(5, 2, players, rules, 0.1)]
    assert one == two and one != [b.fen() for b in play_game(5, 3, players, rules, 0.1)]


@pytest.mark.parametrize("settings, message", [
    ({"games": 0}, "games must be a positive int"),
    ({"games": 1, "settings": DistillSettings(players=("random", "nobody"))}, "players must be among"),
    ({"games": 1, "settings": DistillSettings(noise=1.5)}, "noise must be a share"),
    ({"games": 1, "resume": True}, "nothing to resume"),
])
def test_bad_settings_are_refused_before_any_game(tmp_path, settings, message):
    with pytest.raises(LearnError, match=message):
        distill(tmp_path / "d", **settings)
    assert not (tmp_path / "d" / PROGRESS_FILE).exists()


def test_resuming_with_other_settings_is_refused(whole, tmp_path):
    path, _ = whole
    with pytest.raises(LearnError, match="other settings"):
        distill(path, games=5, seed=4, resume=True, settings=SMALL)


def test_supervised_training_lowers_the_loss_and_is_reproducible(whole, tmp_path):
    pytest.importorskip("jax")
    from donuts_ai.learn.network import NetworkConfig, load_network
    from donuts_ai.learn.supervised import CURVE_FILE, FitConfig, fit, samples_of
    from donuts_ai.learn.train import batch_loss, training_batch

    path, _ = whole
    data = read_dataset(path)
    samples = samples_of(data)
    assert len(samples) == int((data.arrays["label"] != -128).sum()) > 0
    config = FitConfig(steps=40, batch_size=16, checkpoint_every=20, network=NetworkConfig(channels=8, blocks=1, value_hidden=8,
                                                                                            value_head="wdl"))
    batch = training_batch(samples, data.rules.donuts, None, "solver")
    first = fit(data, tmp_path / "a", FitConfig(steps=1, batch_size=16, checkpoint_every=1, network=config.network))
    last = fit(data, tmp_path / "b", config)
    assert sum(batch_loss(last, batch)) < sum(batch_loss(first, batch))
    assert [row["step"] for row in json.loads((tmp_path / "b" / CURVE_FILE).read_text())] == [20, 40]
    again = fit(data, tmp_path / "c", config)
    assert batch_loss(again, batch) == batch_loss(load_network(tmp_path / "b" / "network"), batch)
    with pytest.raises(LearnError, match="holds a run already"):
        fit(data, tmp_path / "b", config)
