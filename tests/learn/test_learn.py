"""The learned agent (donuts_ai.learn): properties of the search, the network, the training
and the agent. No test asserts a strength, a speed or a figure a machine measured: those
live in benchmarks/learning.py and notebooks/08_learning.ipynb."""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("jax")

import equinox as eqx  # noqa: E402
import jax  # noqa: E402

from donuts_ai import Board, Layout, Rules  # noqa: E402
from donuts_ai import tournament as T  # noqa: E402
from donuts_ai.donuts.squares import NUM_SQUARES, SQUARE_NAMES  # noqa: E402
from donuts_ai.donuts.symmetry import SYMMETRY_NAMES  # noqa: E402
from donuts_ai.learn import agent as A  # noqa: E402
from donuts_ai.learn.batched_search import BatchSearch, masked_policy, root_planes  # noqa: E402
from donuts_ai.learn.benchmark import label_positions, load_positions, measure  # noqa: E402
from donuts_ai.learn.buffer import ReplayBuffer, symmetric  # noqa: E402
from donuts_ai.learn.errors import LearnError  # noqa: E402
from donuts_ai.learn.network import NetworkConfig, load_network, new_network, predict, save_network  # noqa: E402
from donuts_ai.learn.train import TrainConfig, Trainer, batch_loss, make_optimizer, train_step, training_batch  # noqa: E402

from ..helpers import command_error  # noqa: E402

TINY = NetworkConfig(channels=8, blocks=1, value_hidden=8)
#: A run small enough for the tests (a few seconds a session on a loaded machine).
SMALL = TrainConfig(games=8, simulations=4, network=TINY, batch_size=16, min_replay=32, checkpoint_every=5, replay_capacity=500)
#: How long a test waits for a training subprocess to reach a checkpoint (a liveness bound, never asserted).
PATIENCE = 300.0


def uniform(planes):
    """The predictor of a network that knows nothing: equal logits, value 0."""
    n = len(planes)
    return np.zeros((n, NUM_SQUARES), dtype=np.float32), np.zeros(n, dtype=np.float32)


def leaves(network):
    return jax.tree_util.tree_leaves(eqx.filter(network, eqx.is_array))


def same_network(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(leaves(a), leaves(b), strict=True))


def _wins_at_once(board: Board, move: str) -> bool:
    after = board.copy()
    mover = after.turn
    after.push(move)
    outcome = after.outcome()
    return outcome is not None and outcome.winner == mover


def tactical_positions(kind: str, count: int, seed: int = 1) -> list[tuple[Board, set[str]]]:
    """Positions of seeded random games where the side to move has more than one legal
    square and either (``"win"``) some square makes it win at once, or (``"block"``) no
    square wins at once and exactly one square leaves the opponent no win at once."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        board = Board(Layout.random(rng.randrange(1 << 30)))
        while not board.is_game_over() and len(found) < count:
            moves = board.legal_moves()
            if len(moves) > 1:
                wins = {m for m in moves if _wins_at_once(board, m)}
                if kind == "win" and wins and len(wins) < len(moves):
                    found.append((board.copy(), wins))
                elif kind == "block" and not wins:
                    safe = set()
                    for m in moves:
                        after = board.copy()
                        after.push(m)
                        if after.outcome() is None and after.turn != board.turn and \
                                not any(_wins_at_once(after, r) for r in after.legal_moves()):
                            safe.add(m)
                    if len(safe) == 1:
                        found.append((board.copy(), safe))
            board.push(rng.choice(moves))
    return found


def search_move(board: Board, simulations: int, predictor=uniform) -> str:
    root = A.root_record(board)
    search = BatchSearch(1, simulations)
    result = search.run(predictor, root, np.ones(1, dtype=np.bool_), board.rules)
    return SQUARE_NAMES[int(np.argmax(result.visits[0]))]


@pytest.mark.parametrize("board, wins", tactical_positions("win", 6))
def test_puct_with_a_uniform_prior_plays_a_five_at_once(board, wins):
    assert search_move(board, 64) in wins


@pytest.mark.parametrize("board, safe", tactical_positions("block", 6))
def test_puct_with_a_uniform_prior_blocks_the_only_five(board, safe):
    assert search_move(board, 400) in safe


def test_the_search_counts_every_simulation_on_legal_squares_only():
    rng = random.Random(3)
    boards = []
    for _ in range(5):
        board = Board(Layout.random(rng.randrange(1000)))
        for _ in range(rng.randrange(12)):
            board.push(rng.choice(board.legal_moves()))
        boards.append(board)
    roots = np.concatenate([A.root_record(b) for b in boards])
    result = BatchSearch(5, 30).run(uniform, roots, np.ones(5, dtype=np.bool_), Rules())
    for board, visits in zip(boards, result.visits, strict=True):
        assert visits.sum() == 30
        assert set(np.flatnonzero(visits)) <= set(board.legal_squares())


def test_batched_prediction_equals_one_by_one():
    network = new_network(TINY, seed=4)
    rng = random.Random(5)
    boards = []
    for _ in range(6):
        board = Board(Layout.random(rng.randrange(1000)))
        for _ in range(rng.randrange(20)):
            board.push(rng.choice(board.legal_moves()))
        boards.append(board)
    planes = root_planes(np.concatenate([A.root_record(b) for b in boards]), 15)
    logits, values = predict(network, planes)
    for i in range(len(boards)):
        one_logits, one_value = predict(network, planes[i:i + 1])
        np.testing.assert_allclose(one_logits[0], logits[i], rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(one_value[0], values[i], rtol=1e-5, atol=1e-5)


def test_root_planes_are_the_vector_envs_observation():
    from donuts_ai import VectorEnv

    env = VectorEnv(4, layout="random", seed=2)
    for _ in range(7):
        env.step(env.random_actions())
    np.testing.assert_array_equal(root_planes(env._games, 15), env.observation)


def test_a_symmetry_maps_a_position_to_the_planes_of_its_image():
    board = Board(Layout.random(8))
    rng = random.Random(8)
    for _ in range(9):
        board.push(rng.choice(board.legal_moves()))
    planes = root_planes(A.root_record(board), 15)
    policy = np.arange(NUM_SQUARES, dtype=np.float32)[None] / NUM_SQUARES
    legal = masked_policy(np.zeros((1, NUM_SQUARES), dtype=np.float32),
                          np.array([[sq in board.legal_squares() for sq in range(NUM_SQUARES)]])) > 0
    for s, name in enumerate(SYMMETRY_NAMES):
        image = board.transform(name)
        out, out_policy, out_legal = symmetric(planes, policy, legal, np.array([s]))
        np.testing.assert_array_equal(out, root_planes(A.root_record(image), 15))
        assert set(np.flatnonzero(out_legal[0])) == set(image.legal_squares())
        from donuts_ai.donuts.symmetry import transform_square

        for sq in range(NUM_SQUARES):
            assert out_policy[0, transform_square(sq, name)] == policy[0, sq]


def _fixed_batch():
    from donuts_ai.learn.buffer import SAMPLE

    rng = np.random.default_rng(0)
    samples = np.zeros(32, dtype=SAMPLE)
    board_rng = random.Random(1)
    for i in range(32):
        board = Board(Layout.random(board_rng.randrange(1000)))
        for _ in range(board_rng.randrange(15)):
            board.push(board_rng.choice(board.legal_moves()))
        root = A.root_record(board)[0]
        for field in ("own", "opp", "legal", "last", "placed_own", "placed_opp", "color", "directions"):
            samples[i][field] = root[field]
        last = int(root["last"])
        empty = ~(int(root["own"]) | int(root["opp"])) & ((1 << 36) - 1)
        samples[i]["forced"] = int(root["line_masks"][last]) & empty if last >= 0 else 0
        legal = [sq for sq in range(NUM_SQUARES) if int(root["legal"]) >> sq & 1]
        target = rng.dirichlet(np.ones(len(legal)))
        samples[i]["policy"][legal] = target
        samples[i]["value"] = rng.choice([-1.0, 1.0])
    return training_batch(samples, 15)


def test_a_few_training_steps_on_a_fixed_batch_lower_its_loss():
    batch = _fixed_batch()
    network = new_network(TINY, seed=0)
    optimizer = make_optimizer(TrainConfig(learning_rate=0.01))
    opt_state = optimizer.init(eqx.filter(network, eqx.is_array))
    before = sum(batch_loss(network, batch))
    for _ in range(30):
        network, opt_state, _, _ = train_step(network, opt_state, optimizer, batch)
    after = sum(batch_loss(network, batch))
    assert after < before * 0.8, (before, after)


def test_seeded_runs_repeat_and_a_stopped_run_resumes_as_if_never_stopped(tmp_path):
    whole = Trainer(tmp_path / "whole", SMALL)
    whole.run(moves=30)
    again = Trainer(tmp_path / "again", SMALL)
    again.run(moves=30)
    assert same_network(whole.network, again.network)
    assert whole.counters["train_steps"] > 0 and whole.counters["games"] > 0
    parts = Trainer(tmp_path / "parts", SMALL)
    parts.run(moves=12)  # stops between checkpoints: the end of a session writes one too
    progress = tmp_path / "parts" / "progress.jsonl"
    with open(progress, "a") as fh:  # a kill while writing a line (after the checkpoint) leaves part of it
        fh.write('{"moves": 13, "gam')
    resumed = Trainer.resume(tmp_path / "parts")
    assert resumed.counters["moves"] == 12
    resumed.run(moves=30)
    lines = [json.loads(line) for line in progress.read_text().splitlines()]  # the part line went
    assert lines[-1]["moves"] == 30
    assert same_network(whole.network, resumed.network)
    assert np.array_equal(whole.replay.samples, resumed.replay.samples)
    assert resumed.counters["positions"] == whole.counters["positions"]


def test_a_run_into_a_file_or_from_damaged_arrays_is_refused_in_a_line(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(LearnError, match="is a file: a run's checkpoints go into a folder"):
        Trainer(tmp_path / "file", SMALL)  # (it was found after the probe's work, a mkdir traceback)
    Trainer(tmp_path / "run", SMALL).run(moves=1)
    arrays = tmp_path / "run" / "checkpoint" / "state.npz"
    arrays.write_bytes(arrays.read_bytes()[:100])  # cut off
    with pytest.raises(LearnError, match="the checkpoint's arrays cannot be read"):
        Trainer.resume(tmp_path / "run")


def test_a_run_can_start_from_a_saved_network_of_its_shape(tmp_path):
    start = new_network(TINY, seed=5)
    save_network(start, tmp_path / "start")
    config = dataclasses.replace(SMALL, initial_network=str(tmp_path / "start"))
    trainer = Trainer(tmp_path / "run", config)
    assert same_network(trainer.network, start)  # its weights, not fresh ones
    trainer.run(moves=30)
    assert trainer.counters["train_steps"] > 0 and not same_network(trainer.network, start)
    resumed = Trainer.resume(tmp_path / "run")  # resumes from its checkpoint, not from the start
    assert same_network(resumed.network, trainer.network) and resumed.config == config
    chained = Trainer(tmp_path / "next", dataclasses.replace(SMALL, initial_network=str(tmp_path / "run")))
    assert same_network(chained.network, trainer.network)  # a run names its last checkpoint
    other_shape = dataclasses.replace(config, network=dataclasses.replace(TINY, channels=16))
    with pytest.raises(LearnError, match="initial network"):
        Trainer(tmp_path / "other", other_shape)
    with pytest.raises(LearnError, match="no network"):
        Trainer(tmp_path / "none", dataclasses.replace(SMALL, initial_network=str(tmp_path / "missing")))
    with pytest.raises(LearnError, match="initial_network"):
        TrainConfig(initial_network="")


def test_a_network_and_a_checkpoint_round_trip(tmp_path):
    network = new_network(TINY, seed=9)
    save_network(network, tmp_path / "net")
    assert same_network(load_network(tmp_path / "net"), network)
    trainer = Trainer(tmp_path / "run", SMALL)
    trainer.run(moves=6)
    back = Trainer.resume(tmp_path / "run")
    assert back.config == SMALL
    assert json.dumps(back.counters) == json.dumps(trainer.counters)  # NaN losses before training compare as text
    assert same_network(back.network, trainer.network)
    assert np.array_equal(back.selfplay.env._games, trainer.selfplay.env._games)
    assert np.array_equal(back.selfplay.lengths, trainer.selfplay.lengths)


def test_training_settings_saved_under_their_old_names_load(tmp_path):
    # The settings of a run saved before 0.5.0 name the budgets sims and fast_sims.
    old = SMALL.to_json()
    old["sims"], old["fast_sims"] = old.pop("simulations"), old.pop("fast_simulations")
    assert TrainConfig.from_json(old) == SMALL
    with pytest.raises(LearnError, match="twice"):
        TrainConfig.from_json({**SMALL.to_json(), "sims": 4})
    # A checkpoint of such a run resumes, silently, and goes on.
    Trainer(tmp_path / "run", SMALL).run(moves=5)
    path = tmp_path / "run" / "checkpoint" / "train.json"
    settings = json.loads(path.read_text())
    settings["config"] = old
    path.write_text(json.dumps(settings))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        resumed = Trainer.resume(tmp_path / "run")
    assert not [w for w in caught if "sims" in str(w.message)]
    assert resumed.config == SMALL
    resumed.run(moves=7)
    assert resumed.counters["moves"] == 7


def test_the_old_names_of_the_budgets_are_gone():
    # Only a saved run's settings are read under them (above); code takes the names of now.
    with pytest.raises(TypeError, match="sims"):
        TrainConfig(games=8, sims=4)
    config = TrainConfig(games=8, simulations=4, fast_simulations=2, search="gumbel")
    assert not hasattr(config, "sims") and not hasattr(config, "fast_sims")
    # donuts-ai train --sims, --fast-sims
    from donuts_ai.learn.cli import add_train_command

    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers()
    add_train_command(commands)
    for old in ("--sims", "--fast-sims"):
        with pytest.raises(SystemExit):
            parser.parse_args(["train", "--out", "x", old, "4"])
    # BatchSearch(games, sims), its attribute, run(sims=) and run_gumbel(sims=)
    with pytest.raises(TypeError, match="sims"):
        BatchSearch(1, sims=3)
    search = BatchSearch(1, 3)
    assert not hasattr(search, "sims")
    root = A.root_record(Board())
    with pytest.raises(TypeError, match="sims"):
        search.run(uniform, root, np.ones(1, dtype=np.bool_), Rules(), sims=2)
    with pytest.raises(TypeError, match="sims"):
        search.run_gumbel(uniform, root, np.ones(1, dtype=np.bool_), Rules(), sims=2)


def test_the_names_of_the_networks_forward_pass_before_0_5_0_are_gone():
    import importlib

    import donuts_ai.learn as learn
    from donuts_ai.learn import batched_search, network, prediction_cache

    for module, old in ((learn, "evaluate"), (learn, "evaluate_wdl"), (learn, "EvaluationCache"),
                        (network, "evaluate"), (network, "evaluate_wdl"),
                        (batched_search, "Evaluator"), (batched_search, "network_evaluator"),
                        (batched_search, "evaluate_roots"), (prediction_cache.PredictionCache, "evaluate")):
        assert not hasattr(module, old), (module, old)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("donuts_ai.learn.eval_cache")


def test_bad_settings_and_files_are_refused_with_their_name(tmp_path):
    with pytest.raises(LearnError, match="games"):
        TrainConfig(games=0)
    with pytest.raises(LearnError, match="insertion"):
        TrainConfig(insertion="sideways")
    with pytest.raises(LearnError, match="channels"):
        NetworkConfig(channels=0)
    with pytest.raises(LearnError, match="no network"):
        load_network(tmp_path)
    with pytest.raises(LearnError, match="no training checkpoint"):
        Trainer.resume(tmp_path)
    Trainer(tmp_path / "run", SMALL).run(moves=1)
    with pytest.raises(LearnError, match="holds a training run"):
        Trainer(tmp_path / "run", SMALL)
    (tmp_path / "broken").mkdir()
    save_network(new_network(TINY), tmp_path / "broken")
    (tmp_path / "broken" / "network.eqx").write_bytes(b"not weights")
    with pytest.raises(LearnError, match="cannot read"):
        load_network(tmp_path / "broken")
    with pytest.raises(ValueError, match="simulations"):
        A.AlphaZeroAgent(checkpoint=str(tmp_path / "run"), simulations=-1)


@pytest.fixture(scope="module")
def tiny_network(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiny")
    save_network(new_network(TINY, seed=2), folder)
    return str(folder)


@pytest.mark.parametrize("sims", [0, 6])
def test_the_agent_plays_only_legal_moves_under_forfeits_too(tiny_network, sims):
    agent = A.AlphaZeroAgent(checkpoint=tiny_network, simulations=sims, seed=1)
    rng = random.Random(sims)
    for game in range(3):
        board = Board(Layout.random(game), Rules(insertion="single") if game == 2 else Rules())
        while not board.is_game_over():
            if rng.random() < 0.15:
                board.forfeit()  # the turn passes; the side to move may play twice in a row
                continue
            move = agent.select_move(board)
            assert move in board.legal_moves()
            board.push(move)


def test_the_agent_with_a_time_limit_still_moves(tiny_network):
    agent = A.AlphaZeroAgent(checkpoint=tiny_network, time_limit=0.05)
    board = Board(Layout.random(4))
    assert agent.select_move(board) in board.legal_moves()
    assert agent.last_info["sims"] >= 1


def test_az_specs_play_a_supervised_tournament(tiny_network):
    spec = f"az:checkpoint={tiny_network},simulations=4"
    results = T.run([spec, "random"], games=2, workers=1, seed=3, game="donuts")
    assert len(results.games) == 2 and not results.events()
    agent = T.make_agent(spec, game="donuts")
    assert agent.spec == spec and agent.simulations == 4


def test_the_shipped_network_loads_and_plays():
    agent = A.AlphaZeroAgent(simulations=0)
    board = Board(Layout.random(1))
    assert agent.select_move(board) in board.legal_moves()


def test_fresh_positions_carry_the_solvers_values():
    from donuts_ai.donuts.alphabeta.solver import solve

    for position in label_positions(3, seed=4):
        board = position.board()
        assert position.value == solve(board, distance=False).value != 0
        assert {label.move for label in position.labels} == set(board.legal_moves())


def test_the_probe_positions_are_the_decided_positions_of_the_suites_every_phase_first():
    positions = load_positions()
    assert all(p.value != 0 for p in positions)
    assert {p.ply <= 8 for p in positions[:3]} == {True, False} and len(positions) >= 3000


def test_measure_gives_shares_of_the_positions(tiny_network):
    positions = load_positions()[:40]
    result = measure(load_network(tiny_network), positions, simulations=(4,))
    assert result["positions"] == 40
    for share in (result["policy"], result["value"], result["searched"][4]):
        assert 0.0 <= share <= 1.0
    # In a lost position every move keeps the value: over all positions the raw policy does
    # at least as well as over the critical ones alone, weighted by their number.
    critical = result["critical_positions"]
    assert result["policy"] * 40 >= result["critical_policy"] * critical - 1e-9


def test_measure_takes_simulations_only(tiny_network):
    positions = load_positions()[:4]
    result = measure(load_network(tiny_network), positions, simulations=(2,))
    assert set(result["searched"]) == {2}
    with pytest.raises(TypeError, match="sims"):
        measure(load_network(tiny_network), positions, sims=(2,))


def _train_command(out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "donuts_ai.cli", "train", "--out", str(out), *extra]


SMALL_FLAGS = ("--games", "8", "--simulations", "4", "--channels", "8", "--blocks", "1", "--batch-size", "16", "--min-replay", "32",
               "--checkpoint-every", "5", "--replay-capacity", "500")


def test_a_killed_training_run_resumes_from_its_last_checkpoint(tmp_path):
    out = tmp_path / "run"
    process = subprocess.Popen(_train_command(out, "--moves", "100000", "--no-measure", *SMALL_FLAGS),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    progress = out / "progress.jsonl"
    deadline = time.monotonic() + PATIENCE
    try:
        while time.monotonic() < deadline and (not progress.exists() or len(progress.read_text().splitlines()) < 2):
            time.sleep(0.2)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    lines = progress.read_text().splitlines()
    assert len(lines) >= 2, process.stdout.read() if process.stdout else ""
    saved = json.loads(lines[-1])["moves"]
    # The checkpoint on disk is the last one written; the resumed run starts there.
    resumed = Trainer.resume(out)
    assert resumed.counters["moves"] in (saved, saved + 5)  # killed while writing the next one: either is whole
    start = resumed.counters["moves"]
    done = subprocess.run(_train_command(out, "--resume", "--moves", str(start + 10), "--no-measure"),
                          capture_output=True, text=True, timeout=PATIENCE)
    assert done.returncode == 0, done.stderr
    assert f"resumed at move {start}" in done.stdout
    # And it is the run a never-killed one would be.
    whole = Trainer(tmp_path / "whole", resumed.config)
    whole.run(moves=start + 10)
    assert same_network(whole.network, Trainer.resume(out).network)


def test_train_command_errors_are_one_line(tmp_path, capsys):
    for args, says in ((["--out", str(tmp_path)], "--minutes or --moves"),
                       (["--out", str(tmp_path), "--moves", "5", "--resume", "--games", "4"], "drop --games"),
                       (["--out", str(tmp_path / "none"), "--moves", "5", "--resume"], "no training checkpoint")):
        # One of them from a real process: what a user sees.
        status, err = command_error(capsys, "train", *args, real_process=says == "--minutes or --moves", timeout=PATIENCE)
        assert status == 2
        assert says in err and len(err.strip().splitlines()) == 1, err


def test_the_replay_buffer_keeps_the_latest_samples_in_a_ring():
    from donuts_ai.learn.buffer import SAMPLE

    buffer = ReplayBuffer(5)
    for start in (0, 3, 6):
        chunk = np.zeros(3, dtype=SAMPLE)
        chunk["last"] = np.arange(start, start + 3)
        buffer.add(chunk)
    assert buffer.size == 5 and buffer.added == 9
    assert sorted(buffer.samples["last"]) == [4, 5, 6, 7, 8]
    assert set(buffer.draw(np.random.default_rng(0), 50)["last"]) <= {4, 5, 6, 7, 8}


def test_donuts_ai_engine_az_answers_the_protocol(tiny_network):
    from donuts_ai.engine_protocol import board_command

    proc = subprocess.Popen([sys.executable, "-m", "donuts_ai", "engine", f"az:checkpoint={tiny_network},simulations=8"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    board = Board(Layout.random(3))
    rng = random.Random(3)
    for _ in range(7):
        board.push(rng.choice(board.legal_moves()))
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("dep\nisready\nnewgame\n" + board_command(board) + "\ngo movetime 200\n")
    proc.stdin.flush()
    lines: list[str] = []
    while not lines or not lines[-1].startswith("bestmove"):  # the engine answers, or ends (then readline gives "")
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.strip())
    out, err = proc.communicate("quit\n", timeout=PATIENCE)
    assert "depok" in lines and "readyok" in lines, (lines, err)
    assert any(line.startswith("option name simulations") for line in lines), lines
    assert not any(line.startswith("option name sims ") for line in lines), lines  # no option of the old name
    assert lines[-1].startswith("bestmove") and board.is_legal(lines[-1].split()[1]), (lines, err)
    assert proc.returncode == 0


def test_the_package_names_load_lazily_and_all_of_them():
    import donuts_ai.learn as learn

    assert set(learn.__all__) == set(learn._NAMES)
    for name in learn.__all__:
        assert getattr(learn, name) is not None


def test_load_network_takes_what_az_checkpoint_takes(tiny_network, tmp_path):
    import shutil

    from donuts_ai.learn.network import CHECKPOINT, FINAL_NETWORK, load_network

    expected = load_network(tiny_network).config
    for inside in (CHECKPOINT, FINAL_NETWORK):  # a training run's folder, a supervised run's folder
        run = tmp_path / inside.replace("/", "_") / "run"
        shutil.copytree(tiny_network, run / inside)
        assert load_network(run).config == expected
        assert A.AlphaZeroAgent(checkpoint=str(run), simulations=0).network.config == expected
    with pytest.raises(LearnError, match="no network in"):
        load_network(tmp_path / "empty")


def test_the_probe_s_baselines_are_its_random_and_greedy_shares():
    from donuts_ai.learn.benchmark import probe_baselines, probe_positions

    positions = probe_positions()[:12]
    baselines = probe_baselines(positions)
    # A uniformly random legal move keeps the value with the share of the labelled moves that do.
    labelled = [sum(label.value == p.value for label in p.labels) / len(p.labels) for p in positions]
    assert all(sorted(label.move for label in p.labels) == sorted(p.board().legal_moves()) for p in positions)
    assert baselines["random"] == pytest.approx(sum(labelled) / len(labelled))
    assert 0.0 <= baselines["greedy"] <= 1.0 and baselines == probe_baselines(positions)  # seeded: the same again
