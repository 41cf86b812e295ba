"""``python -m benchmarks.workers``: training with its self-play in Ray workers, measured.

The shipped network's recipe (128 games a worker, 32 simulations, the 32x3 network with a
WDL value head, the solver as teacher on one thread a worker) trained for ``--minutes``
each way:

    one process     ``donuts-ai train`` as shipped: self-play and training in turn
    ray, N worker   ``--workers N --backend ray`` on a two-node Ray cluster on this machine
                    (Ray's ``cluster_utils.Cluster``: a head and one more node, one CPU
                    each), rounds of ``--round-moves`` moves, the learner in this process

For each: positions searched a second (each worker's moves times its games), games and
positions into the replay buffer, training steps, and the losses of every checkpoint
(``--checkpoint-every`` moves) against the positions in the buffer, so that the runs'
losses compare at equal data.

``--json FILE`` writes a pyperf record (:mod:`donuts_ai.bench.record`; ``python -m pyperf
stats FILE`` reads it) with its machine's metadata: for each way, the seconds a position
searched took (work unit ``position``) and the seconds a training step took (work unit
``step``), one value a run (the run's wall seconds over its positions or steps,
:func:`figures_of`); the games, the positions in the buffer and every checkpoint's losses
are kept beside them as parameters, printed, not stored as figures (losses are not times).
Each run takes ``--minutes`` for each way (about 11 minutes as below), so ``--runs``
defaults to 1, measured in this process, its lines printed as each way ends; ``--runs N``
starts N processes one after the other, each with its own Ray cluster, and prints their
lines at the end.

    nice -n 10 python -m benchmarks.workers --minutes 3 --json runs/workers.json
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import sys
import tempfile
from typing import TYPE_CHECKING, Any

from donuts_ai.bench import runs, tables
from donuts_ai.bench.record import Figure
from donuts_ai.errors import DonutsError

if TYPE_CHECKING:
    from donuts_ai.learn.train import Progress, TrainConfig


def recipe() -> TrainConfig:
    """The shipped network's settings (donuts_ai/learn/data/training.json), but the
    checkpoints' spacing. Imported here: the rest of this module (the record) needs no JAX."""
    from donuts_ai.learn.network import NetworkConfig
    from donuts_ai.learn.train import TrainConfig

    return TrainConfig(teacher="solver", network=NetworkConfig(value_head="wdl"))

#: A checkpoint's fields kept in the record's ``curve`` parameter, in order.
CURVE_FIELDS = ("positions", "train_steps", "seconds", "policy_loss", "value_loss")
#: The counters of a way kept as its figures' parameters.
ROW_PARAMS = ("workers", "seconds", "moves", "positions_searched", "games", "positions", "train_steps")


def _run(name: str, config: TrainConfig, minutes: float, backend: str = "local", address: str | None = None
         ) -> dict[str, Any]:
    from donuts_ai.learn.runs import open_trainer

    lines: list[Progress] = []
    with tempfile.TemporaryDirectory() as out:
        trainer = open_trainer(out, config, backend=backend, address=address)
        try:
            counters = dict(trainer.run(minutes=minutes, report=lines.append))
        finally:
            trainer.close()
    searched = counters["moves"] * config.games * max(config.workers, 1)
    row = {"name": name, "workers": config.workers, "seconds": counters["seconds"], "moves": counters["moves"],
           "positions_searched": searched, "searched_per_second": searched / counters["seconds"],
           "games": counters["games"], "positions": counters["positions"], "train_steps": counters["train_steps"],
           "curve": [{"positions": p["positions"], "train_steps": p["train_steps"], "seconds": p["seconds"],
                      "policy_loss": p["policy_loss"], "value_loss": p["value_loss"]} for p in lines]}
    print(row_line(row), flush=True)
    return row


def row_line(row: dict[str, Any]) -> str:
    """One way's line: seconds, moves, positions searched (a second), games, positions in the buffer,
    training steps and the last checkpoint's losses."""
    last = row["curve"][-1] if row["curve"] else {"policy_loss": math.nan, "value_loss": math.nan}
    return (f"{row['name']:16s} {row['seconds']:6.0f} s  moves {row['moves']:5d}  searched {row['positions_searched']:7d} "
            f"({row['positions_searched'] / row['seconds']:6.1f}/s)  games {row['games']:5d}  in buffer {row['positions']:7d}  "
            f"steps {row['train_steps']:5d}  last losses policy {last['policy_loss']:.3f} value {last['value_loss']:.3f}")


def searched_name(name: str) -> str:
    """The record's name of the positions searched by way ``name`` (``one process``, ``ray, 2 worker(s)``)."""
    return f"training with self-play, {name}, positions searched"


def steps_name(name: str) -> str:
    """The record's name of the training steps of way ``name``."""
    return f"training with self-play, {name}, training steps"


def curve_text(curve: list[dict[str, Any]]) -> str:
    """Checkpoints as the ``curve`` parameter: ``positions/steps/seconds/policy loss/value loss`` each, ``;`` between."""
    return ";".join(f"{p['positions']}/{p['train_steps']}/{p['seconds']:.1f}/{p['policy_loss']:.4f}/{p['value_loss']:.4f}"
                    for p in curve)


def curve_of(text: str) -> list[dict[str, Any]]:
    """The checkpoints of a ``curve`` parameter (:func:`curve_text`)."""
    out = []
    for point in filter(None, text.split(";")):
        positions, steps, seconds, policy, value = point.split("/")
        out.append({"positions": int(positions), "train_steps": int(steps), "seconds": float(seconds),
                    "policy_loss": float(policy), "value_loss": float(value)})
    return out


def figures_of(rows: list[dict[str, Any]], minutes: float) -> list[Figure]:
    """The ways of one run (:func:`_run`'s rows) as record figures: the seconds a position
    searched took and the seconds a training step took (the way's wall seconds over its
    positions searched, over its steps; none for a way that searched or trained nothing),
    one value each, the way's counters and its checkpoints (``curve``) as parameters."""
    out = []
    for row in rows:
        params: dict[str, int | float | str] = {key: row[key] for key in ROW_PARAMS}
        params["minutes"] = minutes
        if row["curve"]:  # pyperf takes no empty text
            params["curve"] = curve_text(row["curve"])
        for name, work_unit, units in ((searched_name(row["name"]), "position", row["positions_searched"]),
                                       (steps_name(row["name"]), "step", row["train_steps"])):
            if units > 0 and row["seconds"] > 0:
                out.append(Figure(name, work_unit, [row["seconds"] / units], params))
    if not out:
        raise DonutsError("no way searched a position: nothing to record")
    return out


def rows_of(suite: Any) -> list[list[dict[str, Any]]]:
    """The rows of a record of this benchmark, run by run (the lines :func:`row_line` prints)."""
    by_run: list[list[dict[str, Any]]] = []
    for benchmark in suite:
        name = benchmark.get_name()
        if not (name.startswith("training with self-play, ") and name.endswith(", positions searched")):
            continue
        for i, run in enumerate(benchmark.get_runs()):
            meta = run.get_metadata()
            row: dict[str, Any] = {key: meta[f"param_{key}"] for key in ROW_PARAMS}
            row |= {"name": name.removeprefix("training with self-play, ").removesuffix(", positions searched"),
                    "curve": curve_of(str(meta.get("param_curve", "")))}
            while len(by_run) <= i:
                by_run.append([])
            by_run[i].append(row)
    return by_run


def report(suite: Any) -> str:
    """A record of this benchmark: the table of its figures, then each run's lines and every
    way's checkpoints (positions in the buffer, training steps, seconds and losses)."""
    lines = [tables.record_text(suite)]
    for i, rows in enumerate(rows_of(suite)):
        lines += ["", f"run {i + 1}:", *(row_line(row) for row in rows)]
        for row in rows:
            if not row["curve"]:
                continue
            lines += ["", f"{row['name']}, run {i + 1}: the checkpoints",
                      "| positions in buffer | training steps | seconds | policy loss | value loss |", "|---|---|---|---|---|"]
            lines += [f"| {p['positions']} | {p['train_steps']} | {p['seconds']:.0f} | {p['policy_loss']:.3f} | "
                      f"{p['value_loss']:.3f} |" for p in row["curve"]]
    return "\n".join(lines)


def measure(minutes: float, round_moves: int, checkpoint_every: int, workers: list[int], local: bool
            ) -> list[dict[str, Any]]:
    """One run: each way trained for ``minutes`` (one process unless not ``local``, then Ray
    with each of ``workers``); their rows."""
    import ray
    from ray import cluster_utils

    base = dataclasses.replace(recipe(), checkpoint_every=checkpoint_every, round_moves=round_moves)
    print(f"load before: {os.getloadavg()[0]:.2f}", flush=True)
    rows = [_run("one process", base, minutes)] if local else []
    cluster = cluster_utils.Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    try:
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, log_to_driver=False)
        for n in workers:
            config = dataclasses.replace(base, workers=n)
            rows.append(_run(f"ray, {n} worker(s)", config, minutes, "ray", cluster.address))
    finally:
        ray.shutdown()
        cluster.shutdown()
    print(f"load after: {os.getloadavg()[0]:.2f}", flush=True)
    return rows


def main(argv: list[str] | None = None, prog: str = "python -m benchmarks.workers") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="minutes each run trains (default 3)")
    parser.add_argument("--round-moves", type=int, default=10, help="moves of each worker a round (default 10)")
    parser.add_argument("--checkpoint-every", type=int, default=20, help="moves between checkpoints (default 20)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts on Ray (default 1 2)")
    parser.add_argument("--no-local", action="store_true", help="skip the run in one process")
    runs.add_record_options(parser, default_runs=1, printed_only="the games, the positions in the buffer and the losses")
    args = parser.parse_args(argv)
    if not args.minutes > 0 or args.round_moves < 1 or args.checkpoint_every < 1 or min(args.workers) < 1:
        parser.error("--minutes must be above 0, --round-moves, --checkpoint-every and --workers at least 1")
    settings = (f"minutes={args.minutes:g} round_moves={args.round_moves} checkpoint_every={args.checkpoint_every} "
                f"workers={' '.join(str(w) for w in args.workers)}{' no_local' if args.no_local else ''}")

    def measure_run() -> tuple[list[Figure], str]:
        rows = measure(args.minutes, args.round_moves, args.checkpoint_every, args.workers, not args.no_local)
        return figures_of(rows, args.minutes), settings

    return runs.record_main(parser, args, argv, "benchmarks.workers", measure_run, report)


if __name__ == "__main__":
    sys.exit(main())
