"""``python -m benchmarks.gymnasium_env``: steps a second of the Gymnasium vector environment beside ``VectorEnv``.

    python -m benchmarks.gymnasium_env [--num-envs N] [--steps N] [--runs N] [--json FILE]

Three figures on the same batch, every action a uniformly random legal square drawn in
compiled code (``VectorEnv.random_actions``), after a warm-up:

- ``VectorEnv`` bare: ``step`` alone (what ``donuts-ai bench`` measures);
- ``VectorEnv`` with its observation read after every step (``observation`` and
  ``legal_action_mask``): the work an agent needs done;
- the Gymnasium vector environment (``gymnasium.make_vec("donuts_ai/Donuts-v0", ...,
  vectorization_mode="vector_entry_point")``): ``step``, whose arrays are the caller's.

The figures are measured in ``--runs`` independent processes (3 by default), each value the
seconds of one step of the whole batch over its games (a ``step`` is one game's move), and ``--json FILE`` writes them as a pyperf record
(:mod:`donuts_ai.bench.record`). Benchmarks are not tests: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import gymnasium

import donuts_ai  # noqa: F401  (registers donuts_ai/Donuts-v0)
from donuts_ai import VectorEnv
from donuts_ai.bench import runs, tables
from donuts_ai.bench.record import Figure
from donuts_ai.interop.gymnasium import ENV_ID

#: Steps played before timing (compiled code loaded, caches warm).
WARM_UP_STEPS = 50
#: The record's names of the three figures.
BARE, READ, GYMNASIUM = "VectorEnv, step", "VectorEnv, step and read the observation", "Gymnasium vector env, step"


def _timed(step: Callable[[], Any], steps: int, num_envs: int) -> list[float]:
    """Seconds a game move (one step of the batch over its ``num_envs`` games), a value a step."""
    for _ in range(WARM_UP_STEPS):
        step()
    values = []
    for _ in range(steps):
        t = time.perf_counter()
        step()
        values.append((time.perf_counter() - t) / num_envs)
    return values


def figures(num_envs: int, steps: int, seed: int = 1) -> list[Figure]:
    """One run: the seconds a game move of each step of ``num_envs`` games, for the three figures."""
    games = VectorEnv(num_envs, seed=seed)

    def read() -> None:
        games.step(games.random_actions())
        games.observation  # noqa: B018  (computed when read: the point of this figure)
        games.legal_action_mask  # noqa: B018

    envs = gymnasium.make_vec(ENV_ID, num_envs=num_envs, vectorization_mode="vector_entry_point")
    envs.reset(seed=seed)
    inner = envs.games
    params: dict[str, int | float | str] = {"num_envs": num_envs, "steps": steps}
    return [Figure(BARE, "step", _timed(lambda: games.step(games.random_actions()), steps, num_envs), params, "mean"),
            Figure(READ, "step", _timed(read, steps, num_envs), params, "mean"),
            Figure(GYMNASIUM, "step", _timed(lambda: envs.step(inner.random_actions()), steps, num_envs), params, "mean")]


def report(suite: Any) -> str:
    """The table of the record's figures (a step is one move in every game of the batch)."""
    return tables.record_text(suite)


def main(argv: list[str] | None = None, prog: str = "python -m benchmarks.gymnasium_env") -> int:
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    ap.add_argument("--num-envs", type=int, default=1024, help="games in the batch (default 1024)")
    ap.add_argument("--steps", type=int, default=500, help="timed steps a run (default 500)")
    runs.add_record_options(ap)
    args = ap.parse_args(argv)
    if args.num_envs < 1 or args.steps < 1:
        ap.error("--num-envs and --steps must be at least 1")
    return runs.record_main(ap, args, argv, "benchmarks.gymnasium_env",
                            lambda: (figures(args.num_envs, args.steps), f"num_envs={args.num_envs} steps={args.steps}"),
                            report)


if __name__ == "__main__":
    raise SystemExit(main())
