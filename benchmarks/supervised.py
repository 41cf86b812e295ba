"""``python -m benchmarks.supervised``: the network taught by the solver alone (issue 40, item 2).

    python -m benchmarks.supervised --data DIR --out DIR [--steps N] [--batch-size B]
        [--checkpoint-every K] [--seed S] [--channels C] [--blocks R] [--value-hidden H] [--no-probe]
    python -m benchmarks.supervised --curve DIR
    python -m benchmarks.supervised --collect FILE DIR [DIR ...]

Trains a fresh network on a dataset of perfect play (``python -m benchmarks.distill``) with
:func:`donuts_ai.learn.supervised.fit` and prints each checkpoint's losses, time and (unless
``--no-probe``) its raw policy and value head on the 300 probe positions ``donuts-ai train``
measures its own checkpoints on, so that the two curves share an axis. The checkpoints
(``DIR/step-NNNNNNNN``) and the last network (``DIR/network``) are measured like any other
network: ``python -m benchmarks.learning --winning --checkpoint DIR --simulations 50 400``.

``--curve DIR`` measures every checkpoint of a run on the winning positions of the
``middlegame`` and ``critical`` suites (the raw policy: the issue's target) and on the probe
positions, and writes the rows, with the steps, positions drawn and seconds of ``DIR/curve.json``, to
``DIR/winning_curve.json``.

``--collect FILE DIR...`` gathers runs' files (``training.json``, ``curve.json``,
``winning_curve.json`` and, where ``python -m benchmarks.learning --winning --json
DIR/winning.json`` wrote one, ``winning.json``) into one JSON file, a run a key: what
notebook 08 reads (``notebooks/learning_supervised.json``).

Its figures are not speed figures (losses and shares against training steps; the seconds
are the curve's time axis, not a rate), so it writes no pyperf record (issue 48).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from donuts_ai.bench.reporting import write_json
from donuts_ai.errors import DonutsError
from donuts_ai.learn.network import NetworkConfig
from donuts_ai.learn.supervised import CURVE_FILE, FitConfig, fit

#: Where ``--curve`` writes its rows, in the run's folder.
WINNING_CURVE_FILE = "winning_curve.json"


#: The files of a run that ``--collect`` gathers, by key (absent ones are left out).
RUN_FILES = {"training": "training.json", "curve": CURVE_FILE, "winning_curve": WINNING_CURVE_FILE,
             "winning": "winning.json"}


def collect(out: Path, runs: list[Path]) -> int:
    """Write the files of ``runs`` into ``out`` (see the module)."""
    gathered = {run.name: {key: json.loads((run / name).read_text()) for key, name in RUN_FILES.items()
                           if (run / name).is_file()} for run in runs}
    write_json(out, gathered)
    print(f"{len(runs)} runs -> {out}")
    return 0


def winning_curve(run: Path) -> int:
    """Measure each checkpoint of the supervised run ``run`` on the winning positions of the
    ablation's suites (raw policy); print and write the rows (see the module)."""
    from benchmarks.ablation import ABLATION_SUITES, winning_positions
    from donuts_ai.learn.benchmark import measure, probe_positions
    from donuts_ai.learn.network import load_network

    rows = json.loads((run / CURVE_FILE).read_text())
    suites = {name: winning_positions(name) for name in ABLATION_SUITES}
    probe = probe_positions()
    print(f"{'step':>7} {'positions':>11} {'seconds':>8}" + "".join(f" {name:>11}" for name in suites) + "  probe policy",
          flush=True)
    out = []
    for row in rows:
        network = load_network(run / f"step-{row['step']:08d}")
        start = time.perf_counter()
        shares = {name: measure(network, positions)["policy"] for name, positions in suites.items()}
        on_probe = measure(network, probe)
        out.append({**{k: row[k] for k in ("step", "positions", "seconds")}, "raw_policy": shares,
                    "probe": {"policy": on_probe["policy"], "value": on_probe["value"]},
                    "measure_seconds": round(time.perf_counter() - start, 1)})
        print(f"{row['step']:7d} {row['positions']:11,} {row['seconds']:8.0f}" + "".join(f" {v:11.1%}" for v in shares.values())
              + f"  {on_probe['policy']:12.1%}", flush=True)
    write_json(run / WINNING_CURVE_FILE, out)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.supervised", description=__doc__.splitlines()[0])
    ap.add_argument("--data", help="the dataset folder (benchmarks.distill's --out)")
    ap.add_argument("--out", help="a new folder for the checkpoints and the curve")
    ap.add_argument("--curve", type=Path, metavar="DIR", help="measure every checkpoint of the run in DIR on the winning positions")
    ap.add_argument("--collect", nargs="+", type=Path, metavar=("FILE", "DIR"),
                    help="gather the runs DIR... into the JSON file FILE")
    ap.add_argument("--no-probe", action="store_true", help="do not measure the checkpoints on the probe positions")
    defaults, shape = FitConfig(), NetworkConfig()
    ap.add_argument("--steps", type=int, default=defaults.steps)
    ap.add_argument("--batch-size", type=int, default=defaults.batch_size)
    ap.add_argument("--checkpoint-every", type=int, default=defaults.checkpoint_every)
    ap.add_argument("--learning-rate", type=float, default=defaults.learning_rate)
    ap.add_argument("--seed", type=int, default=defaults.seed)
    ap.add_argument("--channels", type=int, default=shape.channels)
    ap.add_argument("--blocks", type=int, default=shape.blocks)
    ap.add_argument("--value-hidden", type=int, default=shape.value_hidden)
    args = ap.parse_args(argv)
    if args.collect is not None:
        missing = [str(run) for run in args.collect[1:] if not (run / CURVE_FILE).is_file()]
        if len(args.collect) < 2 or missing:
            ap.error(f"--collect takes a file and run folders (no {CURVE_FILE} in {', '.join(missing) or 'none given'})")
        return collect(args.collect[0], args.collect[1:])
    if args.curve is not None:
        if not (args.curve / CURVE_FILE).is_file():
            ap.error(f"--curve: no {CURVE_FILE} in {str(args.curve)!r}")
        return winning_curve(args.curve)
    if args.data is None or args.out is None:
        ap.error("training needs --data and --out")
    try:
        config = FitConfig(steps=args.steps, batch_size=args.batch_size, checkpoint_every=args.checkpoint_every,
                           learning_rate=args.learning_rate, seed=args.seed,
                           network=NetworkConfig(channels=args.channels, blocks=args.blocks, value_hidden=args.value_hidden,
                                                 value_head="wdl"))
        probe = None
        if not args.no_probe:
            from donuts_ai.learn.benchmark import probe_positions

            probe = probe_positions()  # what donuts-ai train measures its checkpoints on
        fit(args.data, args.out, config, positions=probe, report=lambda row: print(
            f"step {row['step']:>7}  positions {row['positions']:>10,}  {row['seconds']:8.1f} s  "
            f"policy loss {row['policy_loss']:.4f}  value loss {row['value_loss']:.4f}"
            + ("" if "accuracy" not in row else
               f"  probe: policy {row['accuracy']['policy']:.3f} value {row['accuracy']['value']:.3f}"), flush=True))
    except DonutsError as exc:
        print(f"supervised: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
