"""PPO by self-play on the Gymnasium vector environment, in CleanRL's single-file style
(``pip install 'donuts_ai[rl,learn]'``: Gymnasium, JAX and Optax).

    python examples/ppo_donuts.py --total-steps 200000 --num-envs 64

One policy plays both sides of every game (``gymnasium.make_vec("donuts_ai/Donuts-v0", ...)``):
the observation is the side to move's, the reward the mover's. Donuts is zero-sum, so a
value seen from the next observation is the opponent's when the turn passes: the returns
negate it then (``sign`` below), and stay with it when the same side moves again. Illegal
squares are masked out of the policy. At the end it plays the trained policy against a
uniformly random player and prints the score.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, NamedTuple

import gymnasium
import jax
import jax.numpy as jnp
import numpy as np
import optax

import donuts_ai  # noqa: F401  (registers donuts_ai/Donuts-v0)

#: Squares of the board: the actions.
ACTIONS = 36
#: A masked-out action's logit.
MASKED = -1e9


class Batch(NamedTuple):
    obs: jax.Array       # float32[T * N, 468]: the flattened planes
    mask: jax.Array      # bool[T * N, 36]
    actions: jax.Array   # int32[T * N]
    logp: jax.Array      # float32[T * N]: the acting policy's log-probability
    advantages: jax.Array
    returns: jax.Array


def init_params(key: jax.Array, inputs: int, hidden: int) -> dict[str, jax.Array]:
    k1, k2, k3, k4 = jax.random.split(key, 4)

    def dense(k: jax.Array, n_in: int, n_out: int, scale: float) -> jax.Array:
        return jax.random.normal(k, (n_in, n_out)) * scale / np.sqrt(n_in)

    return {"w1": dense(k1, inputs, hidden, np.sqrt(2)), "b1": jnp.zeros(hidden),
            "w2": dense(k2, hidden, hidden, np.sqrt(2)), "b2": jnp.zeros(hidden),
            "pi": dense(k3, hidden, ACTIONS, 0.01), "v": dense(k4, hidden, 1, 1.0)}


def forward(params: dict[str, jax.Array], obs: jax.Array, mask: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Masked logits and the value of the side to move."""
    h = jnp.tanh(obs @ params["w1"] + params["b1"])
    h = jnp.tanh(h @ params["w2"] + params["b2"])
    return jnp.where(mask, h @ params["pi"], MASKED), (h @ params["v"])[..., 0]


@jax.jit
def act(params: dict[str, jax.Array], obs: jax.Array, mask: jax.Array, key: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    logits, value = forward(params, obs, mask)
    action = jax.random.categorical(key, logits)
    logp = jax.nn.log_softmax(logits)[jnp.arange(action.shape[0]), action]
    return action, logp, value


def ppo_loss(params: dict[str, jax.Array], batch: Batch, clip: float, vf_coef: float, ent_coef: float) -> jax.Array:
    logits, value = forward(params, batch.obs, batch.mask)
    logp_all = jax.nn.log_softmax(logits)
    logp = logp_all[jnp.arange(batch.actions.shape[0]), batch.actions]
    ratio = jnp.exp(logp - batch.logp)
    adv = (batch.advantages - batch.advantages.mean()) / (batch.advantages.std() + 1e-8)
    policy = -jnp.minimum(ratio * adv, jnp.clip(ratio, 1 - clip, 1 + clip) * adv).mean()
    entropy = -(jnp.where(batch.mask, jnp.exp(logp_all) * logp_all, 0.0)).sum(-1).mean()
    return policy + vf_coef * ((value - batch.returns) ** 2).mean() - ent_coef * entropy


def train(total_steps: int = 20_000, num_envs: int = 32, rollout: int = 32, seed: int = 1, hidden: int = 64,
          lr: float = 3e-4, gamma: float = 0.99, lam: float = 0.95, epochs: int = 2, minibatches: int = 4,
          verbose: bool = True) -> tuple[dict[str, jax.Array], list[float]]:
    """Train a policy by self-play; returns it and the mean loss of each update."""
    envs = gymnasium.make_vec("donuts_ai/Donuts-v0", num_envs=num_envs, vectorization_mode="vector_entry_point")
    obs, infos = envs.reset(seed=seed)
    key = jax.random.PRNGKey(seed)
    key, init_key = jax.random.split(key)
    params = init_params(init_key, int(np.prod(obs["observation"].shape[1:])), hidden)
    optimizer = optax.chain(optax.clip_by_global_norm(0.5), optax.adam(lr))
    opt_state = optimizer.init(params)
    grad = jax.jit(jax.value_and_grad(ppo_loss), static_argnums=(2, 3, 4))
    losses: list[float] = []
    start = time.perf_counter()
    for update in range(max(1, total_steps // (num_envs * rollout))):
        store: dict[str, list[Any]] = {k: [] for k in ("obs", "mask", "actions", "logp", "values", "rewards", "dones", "signs")}
        for _ in range(rollout):
            flat = jnp.asarray(obs["observation"].reshape(num_envs, -1))
            mask = jnp.asarray(obs["action_mask"].astype(bool))
            key, sub = jax.random.split(key)
            action, logp, value = act(params, flat, mask, sub)
            mover = infos["to_move"]
            obs, rewards, terminations, truncations, infos = envs.step(np.asarray(action))
            # The next state's value is the opponent's unless the same side moves again.
            sign = np.where(infos["to_move"] == mover, 1.0, -1.0)
            for name, item in zip(store, (flat, mask, action, logp, value, rewards, terminations | truncations, sign), strict=True):
                store[name].append(np.asarray(item))
        _, last_value = forward(params, jnp.asarray(obs["observation"].reshape(num_envs, -1)),
                                jnp.asarray(obs["action_mask"].astype(bool)))
        values, rewards, dones, signs = (np.stack(store[k]) for k in ("values", "rewards", "dones", "signs"))
        advantages = np.zeros_like(rewards)
        next_value, next_adv = np.asarray(last_value), np.zeros(num_envs, np.float32)
        for t in reversed(range(rollout)):
            carry = (1.0 - dones[t]) * signs[t]
            delta = rewards[t] + gamma * carry * next_value - values[t]
            next_adv = delta + gamma * lam * carry * next_adv
            advantages[t], next_value = next_adv, values[t]
        batch = Batch(jnp.asarray(np.concatenate(store["obs"])), jnp.asarray(np.concatenate(store["mask"])),
                      jnp.asarray(np.concatenate(store["actions"])), jnp.asarray(np.concatenate(store["logp"])),
                      jnp.asarray(advantages.reshape(-1)), jnp.asarray((advantages + values).reshape(-1)))
        size = batch.actions.shape[0]
        update_losses = []
        for _ in range(epochs):
            key, sub = jax.random.split(key)
            order = np.asarray(jax.random.permutation(sub, size))
            for part in np.array_split(order, minibatches):
                loss, grads = grad(params, Batch(*(x[part] for x in batch)), 0.2, 0.5, 0.01)
                updates, opt_state = optimizer.update(grads, opt_state, params)
                params = optax.apply_updates(params, updates)
                update_losses.append(float(loss))
        losses.append(float(np.mean(update_losses)))
        if verbose:
            steps = (update + 1) * num_envs * rollout
            print(f"update {update + 1}: {steps} steps, loss {losses[-1]:.4f}, {steps / (time.perf_counter() - start):,.0f} steps/s")
    envs.close()
    return params, losses


def score_against_random(params: dict[str, jax.Array], games: int = 256, seed: int = 2) -> float:
    """The policy's score (win 1, draw 1/2) against a uniformly random player, half the games each colour."""
    envs = gymnasium.make_vec("donuts_ai/Donuts-v0", num_envs=games, vectorization_mode="vector_entry_point")
    obs, infos = envs.reset(seed=seed)
    policy_colour = np.arange(games) % 2
    done, score = np.zeros(games, bool), np.zeros(games)
    rng, key = np.random.default_rng(seed), jax.random.PRNGKey(seed)
    while not done.all():
        key, sub = jax.random.split(key)
        greedy, _, _ = act(params, jnp.asarray(obs["observation"].reshape(games, -1)), jnp.asarray(obs["action_mask"].astype(bool)), sub)
        random_moves = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        mover = infos["to_move"]
        actions = np.where(mover == policy_colour, np.asarray(greedy), random_moves)
        obs, rewards, terminations, _, infos = envs.step(actions)
        ended = terminations & ~done
        policy_moved = mover == policy_colour
        score[ended] = np.where(policy_moved, (rewards + 1) / 2, (1 - rewards) / 2)[ended]
        done |= terminations
    envs.close()
    return float(score.mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--total-steps", type=int, default=200_000)
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    params, _ = train(args.total_steps, args.num_envs, seed=args.seed)
    print(f"score against a uniformly random player: {score_against_random(params):.1%}")


if __name__ == "__main__":
    main()
