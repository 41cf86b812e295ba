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
    python -m benchmarks.network_size --speed [--run RUN] --sizes 16x2 32x3 64x3 --runs 3 --json FILE

That measurement trains every size to the end in one process; its ``--json FILE`` writes
its figures (losses, shares, and the two costs above) as they are. ``--speed`` times the
two costs alone (no training to the end, no measurement against the suites; ``--run``
optional: without it, positions of the ``middlegame`` suite and the default training
settings, which the costs do not depend on) in ``--runs`` independent processes (3 by
default), and there ``--json FILE`` writes a pyperf record (:mod:`donuts_ai.bench.record`;
``python -m pyperf stats FILE`` reads it): for each size, the seconds a position took in
each of ``--repeats`` calls on ``--batch`` positions (work unit ``position``) and the
seconds each of ``--steps`` training steps took, the batch's making included (work unit
``training step``), the weights as a parameter (:func:`speed_figures`); each size's time
over the default 32x3's is derived in the table from the stored times. Benchmarks are not
tests: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.ablation import ABLATION_SUITES, winning_positions
from donuts_ai.bench import compare, record, runs, tables
from donuts_ai.bench.record import Figure
from donuts_ai.donuts.symmetry import NUM_SYMMETRIES
from donuts_ai.learn.batched_search import network_predictor
from donuts_ai.learn.benchmark import measure
from donuts_ai.learn.buffer import as_samples, sample_planes
from donuts_ai.learn.config import ARRAYS_FILE, SETTINGS_FILE, TrainConfig
from donuts_ai.learn.network import CHECKPOINT, NetworkConfig, count_parameters, new_network
from donuts_ai.learn.train import batch_loss, make_optimizer, train_step, training_batch

#: The share of the buffer held out for the losses (never trained on).
HELD_OUT_SHARE = 0.05
#: Held-out positions evaluated at once.
LOSS_CHUNK = 4096
#: The sizes measured by default, and the default trunk the others are compared with.
DEFAULT_SIZES = ["16x2", "32x3", "48x4", "64x4"]
DEFAULT_SIZE = "32x3"
#: The module the record's runs are started as.
MODULE = "benchmarks.network_size"


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


def evaluation_times(network: Any, planes: np.ndarray, repeats: int) -> list[float]:
    """Seconds per position of each of ``repeats`` compiled calls on ``planes`` (after one
    that compiles)."""
    predictor = network_predictor(network)
    predictor(planes)  # compiles
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        predictor(planes)
        times.append((time.perf_counter() - start) / len(planes))
    return times


def evaluation_seconds(network: Any, planes: np.ndarray, repeats: int) -> float:
    """Seconds per position of one compiled call on ``planes``, the best of ``repeats``."""
    return min(evaluation_times(network, planes, repeats))


def training_steps(network: Any, samples: np.ndarray, config: TrainConfig, steps: int, seed: int) -> tuple[Any, list[float]]:
    """``steps`` training steps of ``network`` from fresh optimizer state on batches of
    ``config.batch_size`` drawn from ``samples`` (the same batches for every size from the
    same ``seed``): the trained network and the seconds each step took, the batch's making
    included (the first compiles the training step)."""
    optimizer = _optimizer(config.learning_rate, config.weight_decay)
    opt_state = optimizer.init(_arrays(network))
    rng = np.random.default_rng(seed)  # the same batches for every size
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        rows = samples[rng.integers(0, len(samples), size=config.batch_size)]
        symmetries = rng.integers(0, NUM_SYMMETRIES, size=config.batch_size)
        network, opt_state, _, _ = train_step(network, opt_state, optimizer,
                                              training_batch(rows, config.donuts, symmetries, config.teacher))
        times.append(time.perf_counter() - start)
    return network, times


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
    network, times = training_steps(network, samples, config, steps, seed)
    timed = times[1:] or times  # the first step compiled the training step: time the others
    figures["train_ms_per_step"] = 1e3 * sum(timed) / max(len(timed), 1)
    figures["held_out_policy_loss"], figures["held_out_value_loss"] = held_out_losses(network, held_out, donuts, config.teacher)
    for suite in ABLATION_SUITES:
        figures[f"{suite}_raw"] = measure(network, winning_positions(suite))["policy"]
    return figures


@functools.cache
def _optimizer(learning_rate: float, weight_decay: float) -> Any:
    """The training's optimizer (:func:`make_optimizer`), one object for equal settings: the
    compiled training step is kept for the object it was compiled with."""
    return make_optimizer(TrainConfig(learning_rate=learning_rate, weight_decay=weight_decay))


def _arrays(network: Any) -> Any:
    import equinox as eqx

    return eqx.filter(network, eqx.is_array)


def speed_samples(count: int = 512, suite: str = "middlegame") -> np.ndarray:
    """Positions to time the network on when no training run is given: up to ``count`` of
    ``suite``'s, as :data:`~donuts_ai.learn.buffer.SAMPLE` records with a uniform policy
    target over the legal squares and a drawn value (the cost of a call or a step does not
    depend on the numbers)."""
    from donuts_ai.learn.agent import root_record
    from donuts_ai.learn.buffer import legal_flags, samples_of_games
    from donuts_ai.suites.format import load_suite

    positions = load_suite(suite).positions[:count]
    samples = samples_of_games(np.concatenate([root_record(p.board()) for p in positions]))
    legal = legal_flags(samples)
    samples["policy"] = legal / np.maximum(legal.sum(axis=1, keepdims=True), 1)
    return samples


def evaluation_name(size: str, batch: int) -> str:
    """The record's name of the evaluation cost of the trunk ``size`` (``32x3``)."""
    return f"network {size}, evaluation, batch {batch}"


def step_name(size: str, batch: int) -> str:
    """The record's name of the training step of the trunk ``size``."""
    return f"network {size}, training step, batch {batch}"


def speed_figures(sizes: list[tuple[int, int]], samples: np.ndarray, config: TrainConfig, batch: int, repeats: int,
                  steps: int, seed: int) -> list[Figure]:
    """The timed figures of each size, for a record (``--speed``): the seconds a position took
    in each of ``repeats`` compiled calls on ``batch`` positions of ``samples`` (work unit
    ``position``), and unless ``steps`` is 0 the seconds each of ``steps`` training steps on
    ``config.batch_size`` of them took (work unit ``training step``; one step more first, to
    compile); the weights as a parameter."""
    out = []
    planes = sample_planes(samples[:batch], config.donuts)
    for channels, blocks in sizes:
        network = new_network(NetworkConfig(channels=channels, blocks=blocks, value_hidden=config.network.value_hidden,
                                            value_head=config.network.value_head), seed=seed)
        size, params = f"{channels}x{blocks}", {"weights": count_parameters(network), "channels": channels, "blocks": blocks}
        out.append(Figure(evaluation_name(size, len(planes)), "position", evaluation_times(network, planes, repeats),
                          {**params, "batch": len(planes)}))
        if steps:
            _, times = training_steps(network, samples, config, steps + 1, seed)
            out.append(Figure(step_name(size, config.batch_size), "training step", times[1:],
                              {**params, "batch": config.batch_size, "teacher": config.teacher}))
    return out


def speed_report(suite: Any) -> str:
    """A record of ``--speed``: each figure with its interval over the runs, then each
    size's weights and costs relative to the default trunk's (32x3) where the record has it,
    derived from the stored times (each run measured every size)."""
    by_name = record.figures_of(suite)
    derived = []
    for name, benchmark in by_name.items():
        size = name.split(", ", 1)[0].removeprefix("network ")
        default = by_name.get(name.replace(f"network {size}, ", f"network {DEFAULT_SIZE}, ", 1))
        if default is not None and default is not benchmark:
            derived.append((f"{name.split(', ')[1]} time, {size} / {DEFAULT_SIZE}", *compare.speed_within(benchmark, default)))
    lines = [tables.record_text(suite, derived), ""]
    for name, benchmark in by_name.items():
        if ", evaluation, " in name:
            weights = benchmark.get_runs()[0].get_metadata().get("param_weights")
            if isinstance(weights, int):
                lines.append(f"{name.split(', ')[0]}: {weights:,} weights")
    return "\n".join(lines).rstrip()


def speed_main(argv: list[str] | None = None) -> int:
    """``--speed``: the evaluation cost and the training step of each size, as a record."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.network_size --speed",
                                     description="What each trunk size costs the self-play: the network's evaluation "
                                                 "and training step, timed (no training to the end, no measurement).")
    parser.add_argument("--speed", action="store_true", help="this mode: the timed figures only, as a record")
    parser.add_argument("--run", type=Path, help="a training run whose replay buffer and settings give the positions "
                                                 "(default: positions of the middlegame suite, the default settings)")
    parser.add_argument("--sizes", nargs="+", default=DEFAULT_SIZES, help="CHANNELSxBLOCKS each")
    parser.add_argument("--batch", type=int, default=128, help="positions per evaluation call timed (the self-play's games)")
    parser.add_argument("--repeats", type=int, default=20, help="evaluation calls timed a run")
    parser.add_argument("--steps", type=int, default=20, help="training steps timed a run (after one that compiles); 0: none")
    parser.add_argument("--batch-size", type=int, help="positions a training step (default: the run's, or the default settings')")
    parser.add_argument("--seed", type=int, default=0)
    runs.add_record_options(parser, printed_only="the weights of each size (a parameter of its figures) are")
    args = parser.parse_args(argv)
    if args.batch < 1 or args.repeats < 1 or args.steps < 0 or (args.batch_size is not None and args.batch_size < 1):
        parser.error("--batch, --repeats and --batch-size must be at least 1, --steps at least 0")
    sizes = [parse_size(s) for s in args.sizes]

    def measure() -> tuple[list[Figure], str]:
        samples, config = load_run(args.run) if args.run is not None else (speed_samples(), TrainConfig())
        if args.batch_size is not None:
            config = dataclasses.replace(config, batch_size=args.batch_size)
        settings = (f"sizes={','.join(args.sizes)} batch={args.batch} repeats={args.repeats} steps={args.steps} "
                    f"batch_size={config.batch_size} positions={args.run or 'middlegame suite'}")
        return speed_figures(sizes, samples, config, args.batch, args.repeats, args.steps, args.seed), settings

    return runs.record_main(parser, args, argv, MODULE, measure, speed_report)


def main(argv: list[str] | None = None) -> int:
    if "--speed" in (sys.argv[1:] if argv is None else argv):
        return speed_main(argv)
    parser = argparse.ArgumentParser(prog="python -m benchmarks.network_size", description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", type=Path, required=True, help="a training run whose replay buffer gives the positions")
    parser.add_argument("--sizes", nargs="+", default=DEFAULT_SIZES, help="CHANNELSxBLOCKS each")
    parser.add_argument("--steps", type=int, default=2000, help="training steps for every size")
    parser.add_argument("--batch", type=int, default=128, help="positions per evaluation call timed (the self-play's games)")
    parser.add_argument("--repeats", type=int, default=20, help="evaluation calls timed (the best counts)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures to FILE (with --speed: the record)")
    parser.add_argument("--speed", action="store_true",
                        help="the timed figures only (evaluation and training step), in --runs processes, --json "
                             "writing their pyperf record: see --speed --help")
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
        from donuts_ai.bench.reporting import machine, write_json

        write_json(args.json, {"run": str(args.run), "steps": args.steps, "machine": machine(), "sizes": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
