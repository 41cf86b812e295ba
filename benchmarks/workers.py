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
losses compare at equal data. ``--json FILE`` writes them all.

    nice -n 10 python -m benchmarks.workers --minutes 3 --json runs/workers.json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import tempfile
import time
from typing import Any

from donuts_ai.learn.network import NetworkConfig
from donuts_ai.learn.runs import open_trainer
from donuts_ai.learn.train import Progress, TrainConfig

#: The shipped network's settings (donuts_ai/learn/data/training.json), but the checkpoints' spacing.
RECIPE = TrainConfig(teacher="solver", network=NetworkConfig(value_head="wdl"))


def _run(name: str, config: TrainConfig, minutes: float, backend: str = "local", address: str | None = None
         ) -> dict[str, Any]:
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
    print(f"{name:16s} {row['seconds']:6.0f} s  moves {row['moves']:5d}  searched {searched:7d} "
          f"({row['searched_per_second']:6.1f}/s)  games {row['games']:5d}  in buffer {row['positions']:7d}  "
          f"steps {row['train_steps']:5d}  last losses policy {lines[-1]['policy_loss']:.3f} "
          f"value {lines[-1]['value_loss']:.3f}", flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.workers", description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="minutes each run trains (default 3)")
    parser.add_argument("--round-moves", type=int, default=10, help="moves of each worker a round (default 10)")
    parser.add_argument("--checkpoint-every", type=int, default=20, help="moves between checkpoints (default 20)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts on Ray (default 1 2)")
    parser.add_argument("--no-local", action="store_true", help="skip the run in one process")
    parser.add_argument("--json", metavar="FILE", help="write the figures here")
    args = parser.parse_args()
    import ray
    from ray import cluster_utils

    base = dataclasses.replace(RECIPE, checkpoint_every=args.checkpoint_every, round_moves=args.round_moves)
    print(f"load before: {os.getloadavg()[0]:.2f}", flush=True)
    rows = [] if args.no_local else [_run("one process", base, args.minutes)]
    cluster = cluster_utils.Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    try:
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, log_to_driver=False)
        for workers in args.workers:
            config = dataclasses.replace(base, workers=workers)
            rows.append(_run(f"ray, {workers} worker(s)", config, args.minutes, "ray", cluster.address))
    finally:
        ray.shutdown()
        cluster.shutdown()
    print(f"load after: {os.getloadavg()[0]:.2f}", flush=True)
    if args.json:
        machine = {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                   "python": platform.python_version(), "date": time.strftime("%Y-%m-%d")}
        with open(args.json, "w") as f:
            json.dump({"minutes": args.minutes, "round_moves": args.round_moves, "machine": machine, "runs": rows}, f, indent=1)


if __name__ == "__main__":
    main()
