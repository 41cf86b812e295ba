"""The network sized by measurement (issue 31, item 2): what each trunk size costs the
self-play, and what it learns of the teacher's targets from the same positions.

For each size ``CxB`` (``C`` channels, ``B`` residual blocks):

- **weights** and the **evaluation cost**: seconds per position of the network's compiled
  call on a batch of ``--batch`` positions (the self-play's batch, 128 games), the best
  of ``--repeats`` calls (the self-play's time goes mostly there: ``network`` in a run's
  progress line);
- **what it learns**: a network of that size trained from scratch, from the same seed,
  for the same ``--steps`` steps on the same batches of the same positions (a training
  run's replay buffer, ``--run``, with the targets its run trained on: the solver
  teacher's labels where it had one), then measured by its losses on held-out positions
  of the buffer and by its raw policy on the winning positions of the ``middlegame`` and
  ``critical`` suites (the share where its most probable legal move keeps the value).

Supervised learning on fixed positions is not self-play (a bigger network would also make
better games to learn from), but with a teacher most targets are the solver's, and the
question here is the one a fixed budget asks: which size learns the most per second.

    python -m benchmarks.network_size --run runs/ship --sizes 16x2 32x3 48x4 64x4 --steps 2000
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.ablation import ABLATION_SUITES, winning_positions
from donuts_ai.donuts.symmetry import NUM_SYMMETRIES
from donuts_ai.learn.batched_search import network_evaluator
from donuts_ai.learn.benchmark import measure
from donuts_ai.learn.buffer import as_samples, sample_planes
from donuts_ai.learn.network import NetworkConfig, count_parameters, new_network
from donuts_ai.learn.train import (
    ARRAYS_FILE,
    CHECKPOINT,
    SETTINGS_FILE,
    TrainConfig,
    batch_loss,
    make_optimizer,
    train_step,
    training_batch,
)

#: The share of the buffer held out for the losses (never trained on).
HELD_OUT_SHARE = 0.05
#: Held-out positions evaluated at once.
LOSS_CHUNK = 4096


def parse_size(text: str) -> tuple[int, int]:
    """``"32x3"`` -> ``(32, 3)``."""
    channels, sep, blocks = text.partition("x")
    if not sep or not channels.isdigit() or not blocks.isdigit():
        raise SystemExit(f"a size is CHANNELSxBLOCKS, e.g. 32x3, got {text!r}")
    return int(channels), int(blocks)


def load_run(run: Path) -> tuple[np.ndarray, TrainConfig]:
    """The positions in ``run``'s replay buffer (its last checkpoint) and the run's settings."""
    folder = run / CHECKPOINT
    config = TrainConfig.from_json(json.loads((folder / SETTINGS_FILE).read_text())["config"])
    with np.load(folder / ARRAYS_FILE) as arrays:
        size = int(arrays["replay_counters"][0])
        samples = as_samples(arrays["replay_samples"][:size])
    return samples, config


def evaluation_seconds(network: Any, planes: np.ndarray, repeats: int) -> float:
    """Seconds per position of one compiled call on ``planes``, the best of ``repeats``."""
    evaluator = network_evaluator(network)
    evaluator(planes)  # compiles
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        evaluator(planes)
        best = min(best, time.perf_counter() - start)
    return best / len(planes)


def held_out_losses(network: Any, samples: np.ndarray, donuts: int, teacher: str) -> tuple[float, float]:
    """The mean policy and value losses of ``network`` on ``samples`` (no symmetries)."""
    totals = np.zeros(2)
    for start in range(0, len(samples), LOSS_CHUNK):
        chunk = samples[start:start + LOSS_CHUNK]
        totals += np.array(batch_loss(network, training_batch(chunk, donuts, None, teacher))) * len(chunk)
    policy, value = totals / len(samples)
    return float(policy), float(value)


def measure_size(channels: int, blocks: int, samples: np.ndarray, held_out: np.ndarray, config: TrainConfig,
                 steps: int, batch: int, repeats: int, seed: int) -> dict[str, Any]:
    """One size's figures (see the module)."""
    network_config = NetworkConfig(channels=channels, blocks=blocks, value_hidden=config.network.value_hidden,
                                   value_head=config.network.value_head)
    network = new_network(network_config, seed=seed)
    donuts = config.donuts
    figures: dict[str, Any] = {"size": f"{channels}x{blocks}", "weights": count_parameters(network),
                               "eval_us_per_position": 1e6 * evaluation_seconds(network, sample_planes(samples[:batch], donuts),
                                                                                repeats)}
    optimizer = make_optimizer(config)
    opt_state = optimizer.init(_arrays(network))
    rng = np.random.default_rng(seed)  # the same batches for every size
    start = time.perf_counter()
    for step in range(steps):
        if step == 1:  # the first step compiled the training step: time the others
            start = time.perf_counter()
        rows = samples[rng.integers(0, len(samples), size=config.batch_size)]
        symmetries = rng.integers(0, NUM_SYMMETRIES, size=config.batch_size)
        network, opt_state, _, _ = train_step(network, opt_state, optimizer, training_batch(rows, donuts, symmetries, config.teacher))
    figures["train_ms_per_step"] = 1e3 * (time.perf_counter() - start) / max(steps - 1, 1)
    figures["held_out_policy_loss"], figures["held_out_value_loss"] = held_out_losses(network, held_out, donuts, config.teacher)
    for suite in ABLATION_SUITES:
        figures[f"{suite}_raw"] = measure(network, winning_positions(suite))["policy"]
    return figures


def _arrays(network: Any) -> Any:
    import equinox as eqx

    return eqx.filter(network, eqx.is_array)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.network_size", description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", type=Path, required=True, help="a training run whose replay buffer gives the positions")
    parser.add_argument("--sizes", nargs="+", default=["16x2", "32x3", "48x4", "64x4"], help="CHANNELSxBLOCKS each")
    parser.add_argument("--steps", type=int, default=2000, help="training steps for every size")
    parser.add_argument("--batch", type=int, default=128, help="positions per evaluation call timed (the self-play's games)")
    parser.add_argument("--repeats", type=int, default=20, help="evaluation calls timed (the best counts)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures to FILE")
    args = parser.parse_args(argv)
    sizes = [parse_size(s) for s in args.sizes]
    samples, config = load_run(args.run)
    order = np.random.default_rng(args.seed).permutation(len(samples))
    cut = len(samples) - max(1, int(HELD_OUT_SHARE * len(samples)))
    training, held_out = samples[order[:cut]], samples[order[cut:]]
    print(f"{len(training)} positions to train on, {len(held_out)} held out, from {args.run} (teacher {config.teacher}, "
          f"{config.network.value_head} value head); {args.steps} steps of {config.batch_size} for every size")
    print(f"{'size':>6} {'weights':>8} {'eval us/pos':>11} {'ms/step':>8} {'p-loss':>7} {'v-loss':>7}"
          + "".join(f" {s + ' raw':>15}" for s in ABLATION_SUITES), flush=True)
    rows = []
    for channels, blocks in sizes:
        f = measure_size(channels, blocks, training, held_out, config, args.steps, args.batch, args.repeats, args.seed)
        rows.append(f)
        print(f"{f['size']:>6} {f['weights']:8d} {f['eval_us_per_position']:11.1f} {f['train_ms_per_step']:8.1f} "
              f"{f['held_out_policy_loss']:7.3f} {f['held_out_value_loss']:7.3f}"
              + "".join(f" {f[f'{s}_raw']:15.1%}" for s in ABLATION_SUITES), flush=True)
    if args.json is not None:
        from donuts_ai.bench._report import machine

        args.json.write_text(json.dumps({"run": str(args.run), "steps": args.steps, "machine": machine(), "sizes": rows},
                                        indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
