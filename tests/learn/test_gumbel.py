"""Self-play with Gumbel search (``TrainConfig.search="gumbel"``): seeded runs repeat, a
stopped run resumes as if never stopped, only full searches become policy targets, and
the settings are checked."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

pytest.importorskip("jax")

from donuts_ai.learn.errors import LearnError  # noqa: E402
from donuts_ai.learn.train import TrainConfig, Trainer  # noqa: E402

from .test_learn import SMALL, same_network  # noqa: E402

#: SMALL with short games (6 donuts each), Gumbel search, a playout cap (half the moves searched in full with 4
#: simulations, the rest with 2) and solved leaves.
GUMBEL = dataclasses.replace(SMALL, donuts=6, min_replay=16, search="gumbel", gumbel_considered=4, full_fraction=0.5,
                             fast_simulations=2, solve_plies=6)


def test_a_gumbel_run_repeats_and_resumes_as_if_never_stopped(tmp_path):
    whole = Trainer(tmp_path / "whole", GUMBEL)
    whole.run(moves=16)
    assert whole.counters["train_steps"] > 0 and whole.counters["games"] > 0
    again = Trainer(tmp_path / "again", GUMBEL)
    again.run(moves=16)
    assert same_network(whole.network, again.network)
    parts = Trainer(tmp_path / "parts", GUMBEL)
    parts.run(moves=6)
    resumed = Trainer.resume(tmp_path / "parts")
    resumed.run(moves=16)
    assert same_network(whole.network, resumed.network)
    assert np.array_equal(whole.replay.samples, resumed.replay.samples)


def test_only_full_searches_become_policy_targets_and_they_sum_to_one(tmp_path):
    trainer = Trainer(tmp_path / "run", dataclasses.replace(GUMBEL, min_replay=10_000))
    trainer.run(moves=12)
    samples = trainer.replay.samples[: trainer.replay.size]
    assert len(samples)
    sums = samples["policy"].sum(axis=1)
    full = sums > 0
    # About half the moves are searched in full (playout cap 0.5); each target is a
    # distribution over the legal squares, every other row all zeros.
    assert 0 < full.sum() < len(samples)
    assert np.allclose(sums[full], 1.0, atol=1e-4)
    legal = np.array([[(int(row) >> sq) & 1 for sq in range(36)] for row in samples["legal"]], dtype=bool)
    assert not (samples["policy"][~legal] > 0).any()


def test_gumbel_settings_are_checked():
    for bad in ({"search": "alphabeta"}, {"gumbel_considered": 0}, {"gumbel_considered": 37}, {"full_fraction": 0.0},
                {"full_fraction": 1.5}, {"full_fraction": True}, {"fast_simulations": 0},
                {"search": "gumbel", "fast_simulations": SMALL.simulations + 1},
                {"solve_plies": -1}):
        with pytest.raises(LearnError, match=list(bad)[-1]):
            dataclasses.replace(SMALL, **bad)
    old = SMALL.to_json()
    for name in ("search", "gumbel_considered", "full_fraction", "fast_simulations", "solve_plies"):
        del old[name]
    assert TrainConfig.from_json(old) == SMALL  # a run saved before 0.3.0 is a PUCT run


def test_the_agent_searches_by_gumbel_legally_and_repeats_with_its_seed():
    from donuts_ai import Board, Layout
    from donuts_ai import tournament as T

    def game(seed: int) -> list[str]:
        agent = T.make_agent("az:search=gumbel,simulations=8", seed=seed, game="donuts")
        assert agent.params()["search"] == "gumbel"
        board, moves = Board(Layout.random_grid(2)), []
        while not board.is_game_over() and len(moves) < 10:
            move = agent.select_move(board)
            assert board.is_legal(move)
            assert 1 <= agent.last_info["sims"] <= 8
            board.push(move)
            moves.append(move)
        return moves

    assert game(3) == game(3)
    with pytest.raises(ValueError, match="search must be one of puct, gumbel"):
        T.make_agent("az:search=minimax", game="donuts")
