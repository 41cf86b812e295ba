"""The ablation of the learned agent's recipe (issue 31): what each part buys.

Each **arm** trains from the same seed for the same wall-clock budget, changing only its
own settings (:data:`ARMS`):

    alphazero   PUCT self-play, visit-count targets, no teacher (the recipe before 0.3.0)
    gumbel      Gumbel root selection, completed-Q policy targets, playout caps, solved leaves
    solver      PUCT with the exact solver as teacher (labels where it settles a position)
    all         Gumbel search and the solver teacher together

and is then measured against perfect play on the **winning** positions of the shipped
``middlegame`` and ``critical`` suites (where a move can lose the value; in a lost
position every move keeps it): the share where the raw policy's move keeps the value,
and where a PUCT search of ``simulations`` simulations does (the same search for every arm, so
that only the network differs). Run by ``python -m benchmarks.learning --ablation``;
the runs' folders stay under ``--out`` (each resumable, with its ``progress.jsonl``) and
``ablation.json`` there holds every figure, the machine and each arm's wall time.
"""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any

from donuts_ai.bench.reporting import write_json
from donuts_ai.donuts.alphabeta.solver import available_cores
from donuts_ai.learn.benchmark import load_positions, measure
from donuts_ai.learn.runs import run_training
from donuts_ai.learn.train import TrainConfig
from donuts_ai.outcomes import WIN

#: The arms, each a change of the default :class:`TrainConfig`, in the order they are run.
#: Gumbel's arms search a quarter of the moves in full (those become policy targets) and
#: the rest with 8 simulations: KataGo's playout-cap randomization, part of the recipe.
GUMBEL = {"search": "gumbel", "full_fraction": 0.25, "fast_simulations": 8}
ARMS: dict[str, dict[str, Any]] = {
    "alphazero": {"search": "puct", "teacher": "none"},
    "gumbel": {**GUMBEL, "teacher": "none"},
    "solver": {"search": "puct", "teacher": "solver"},
    "all": {**GUMBEL, "teacher": "solver"},
    # Two more, for where the four point: Gumbel with every move a full search (a policy
    # target), and the solver's labels learnt by a win/draw/loss value head.
    "gumbel-full": {"search": "gumbel", "teacher": "none"},
    "solver-wdl": {"search": "puct", "teacher": "solver", "value_head": "wdl"},
    # The shipped recipe with a quarter of the games exploring (every move drawn from the
    # visits), for the teacher to label positions off the main lines.
    "solver-explore": {"search": "puct", "teacher": "solver", "value_head": "wdl", "explore_fraction": 0.25},
}
#: The arms run when none are named: the issue's four.
DEFAULT_ARMS = ("alphazero", "gumbel", "solver", "all")
#: Settings of the network's shape (:class:`NetworkConfig`) an arm may change.
NETWORK_SETTINGS = ("channels", "blocks", "value_head")
#: The suites measured: their winning positions.
ABLATION_SUITES = ("middlegame", "critical")


def arm_config(name: str, seed: int, overrides: dict[str, Any] | None = None) -> TrainConfig:
    """The :class:`TrainConfig` of arm ``name`` (:data:`ARMS`) with ``seed`` and any further
    ``overrides`` shared by every arm (a smaller network for a quick look, say)."""
    if name not in ARMS:
        raise ValueError(f"unknown arm {name!r} (arms: {', '.join(ARMS)})")
    fields = {f.name for f in dataclasses.fields(TrainConfig)}
    settings = {**ARMS[name], **(overrides or {}), "seed": seed}
    network = {key: settings.pop(key) for key in NETWORK_SETTINGS if key in settings}
    unknown = sorted(set(settings) - fields)
    if unknown:
        raise ValueError(f"TrainConfig has no setting {', '.join(unknown)}")
    base = TrainConfig()
    return dataclasses.replace(base, **settings, network=dataclasses.replace(base.network, **network))


def winning_positions(suite: str) -> list:
    """The positions of ``suite`` the side to move wins (the ones a move can throw away)."""
    return [p for p in load_positions([suite]) if p.value == WIN]


def run_ablation(out: Path, minutes: float, arms: list[str], seed: int = 0, simulations: int = 50,
                 overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """Train each arm for ``minutes`` (resuming a run already there) and measure it; returns
    (and writes to ``out / "ablation.json"``, beside the arms an earlier call measured there)
    every figure (its keys as before 0.5.0: ``sims``, ``sims_N``)."""
    from donuts_ai.bench.reporting import machine

    out.mkdir(parents=True, exist_ok=True)
    suites = {name: winning_positions(name) for name in ABLATION_SUITES}
    summary = out / "ablation.json"
    # Arms measured by an earlier call into the same folder stay in the file.
    earlier = json.loads(summary.read_text())["arms"] if summary.exists() else {}
    results: dict[str, Any] = {"minutes": minutes, "seed": seed, "sims": simulations, "overrides": overrides or {},
                               "machine": {**machine(), "cores": available_cores()}, "arms": earlier}
    for name in arms:
        config = arm_config(name, seed, overrides)
        folder = out / name
        start = time.perf_counter()
        resume = (folder / "checkpoint").exists()
        trainer = run_training(folder, None if resume else config, minutes=minutes, resume=resume)
        seconds = time.perf_counter() - start
        figures: dict[str, Any] = {"config": config.to_json(), "wall_seconds": round(seconds, 1),
                                   "counters": trainer.counters}
        for suite, positions in suites.items():
            accuracy = measure(trainer.network, positions, simulations=(simulations,))
            figures[suite] = {"positions": accuracy["positions"], "raw_policy": accuracy["policy"],
                              f"sims_{simulations}": accuracy["searched"][simulations]}
        results["arms"][name] = figures
        write_json(summary, results)
        print(row(name, figures, simulations), flush=True)
    return results


def header(simulations: int) -> str:
    suites = " | ".join(f"{s} raw | {s} {simulations} sims" for s in ABLATION_SUITES)
    return f"| arm | minutes trained | self-play positions | {suites} |\n|---|---|---|" + "---|" * (2 * len(ABLATION_SUITES))


def row(name: str, figures: dict[str, Any], simulations: int) -> str:
    cells = " | ".join(f"{figures[s]['raw_policy']:.1%} | {figures[s][f'sims_{simulations}']:.1%}" for s in ABLATION_SUITES)
    positions = figures["counters"].get("positions", "?")
    return f"| {name} | {figures['wall_seconds'] / 60:.1f} | {positions} | {cells} |"
