"""Donuts in Gymnasium: the vector environment of ``gymnasium.make_vec`` on the compiled
batch, one game as a ``gymnasium.Env``, Gymnasium's seeding in all three environments,
and a CleanRL-style PPO loop that trains on it (``examples/ppo_donuts.py``)."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import donuts_ai  # noqa: E402,F401  (registers donuts_ai/Donuts-v0)
from donuts_ai import VectorEnv  # noqa: E402
from donuts_ai.donuts.vector_env import VectorEnvError  # noqa: E402
from donuts_ai.interop import InteropError  # noqa: E402
from donuts_ai.interop.gymnasium import ENV_ID  # noqa: E402

N = 8


def _make(num_envs: int = N, **kwargs):
    return gymnasium.make_vec(ENV_ID, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs)


def _random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask])


def test_make_vec_gives_a_gymnasium_vector_env_with_its_spaces_and_returns():
    envs = _make()
    assert isinstance(envs, gymnasium.vector.VectorEnv)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, infos = envs.reset(seed=1)
    assert envs.observation_space.contains(obs) and envs.single_action_space.n == 36
    assert obs["observation"].shape == (N, 6, 6, 13) and obs["action_mask"].shape == (N, 36)
    step = envs.step(_random_legal(obs["action_mask"], np.random.default_rng(0)))
    assert len(step) == 5
    _, rewards, terminations, truncations, infos = step
    assert rewards.shape == terminations.shape == truncations.shape == (N,)
    assert infos["to_move"].shape == (N,)
    envs.close()


def test_a_kept_observation_is_unchanged_by_the_next_step():
    envs = _make()
    obs, _ = envs.reset(seed=2)
    rng = np.random.default_rng(2)
    kept, copy = obs, {k: v.copy() for k, v in obs.items()}
    envs.step(_random_legal(obs["action_mask"], rng))
    assert all(np.array_equal(kept[k], copy[k]) for k in copy)


def test_rewards_go_to_the_player_who_acted_and_final_observations_come_in_infos():
    # The vector environment beside a VectorEnv with the same seed and the same actions.
    envs, games = _make(layout="random"), VectorEnv(N, layout="random", seed=5)
    obs, infos = envs.reset(seed=5)
    rng, ended = np.random.default_rng(5), 0
    while ended < 12:
        assert np.array_equal(obs["observation"], games.observation)
        actions = _random_legal(obs["action_mask"], rng)
        mover = games.current_player.copy()
        obs, rewards, terminations, truncations, infos = envs.step(actions)
        games.step(actions)
        assert np.array_equal(rewards, games.rewards[np.arange(N), mover]) and not truncations.any()
        assert np.array_equal(terminations, games.terminated)
        if terminations.any():
            ended += int(terminations.sum())
            assert np.array_equal(infos["_final_obs"], terminations)
            for i in range(N):
                final = infos["final_obs"][i]
                if terminations[i]:
                    assert np.array_equal(final["observation"], games.final_observation[i])
                    assert rewards[i] in (-1.0, 0.0, 1.0) and not final["action_mask"].any()
                else:
                    assert final is None and rewards[i] == 0.0
            assert np.array_equal(infos["final_info"]["reason"][terminations], games.final_reason[terminations])


def test_one_game_passes_gymnasium_s_checker_and_loses_an_illegal_move():
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(ENV_ID)
    check_env(env.unwrapped, skip_render_check=True)
    obs, _ = env.reset(seed=3)
    obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))  # the empty board's every square is legal
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal"]


def test_the_same_seed_gives_the_same_games_in_all_three_environments():
    from donuts_ai.interop.pettingzoo import env as pettingzoo_env

    for seed in (0, 7, np.int64(3), np.uint32(11)):
        vector = VectorEnv(N, layout="random", seed=int(seed))
        envs = _make(layout="random")
        envs.reset(seed=seed)
        aec = pettingzoo_env(layout="random")
        aec.reset(seed=seed)
        assert envs.unwrapped.games.layout(0) == vector.layout(0) == aec.unwrapped.board.layout
        assert [envs.unwrapped.games.layout(g) for g in range(N)] == [vector.layout(g) for g in range(N)]


@pytest.mark.parametrize("bad", ["42", 3.7, -1, True, 2**64, None.__class__])
def test_every_environment_refuses_a_seed_gymnasium_refuses(bad):
    from donuts_ai.interop.pettingzoo import env as pettingzoo_env

    aec = pettingzoo_env()
    with pytest.raises(InteropError, match="seed must be an int in 0..2\\*\\*64-1"):
        aec.reset(seed=bad)
    with pytest.raises(InteropError, match="seed must be an int in 0..2\\*\\*64-1"):
        _make().reset(seed=bad)
    with pytest.raises(VectorEnvError, match="seed must be an int in 0..2\\*\\*64-1"):
        VectorEnv(2, seed=bad)


def test_a_cleanrl_style_ppo_loop_trains_on_it():
    pytest.importorskip("jax")
    pytest.importorskip("optax")
    from examples.ppo_donuts import train

    params, losses = train(total_steps=2048, num_envs=16, rollout=16, epochs=1, minibatches=2, verbose=False)
    assert len(losses) == 8 and np.isfinite(losses).all()
    assert set(params) == {"w1", "b1", "w2", "b2", "pi", "v"}
