"""``python -m benchmarks.supervised``: the network taught by the solver alone (issue 40, item 2).

    python -m benchmarks.supervised --data DIR --out DIR [--steps N] [--batch-size B]
        [--checkpoint-every K] [--seed S] [--channels C] [--blocks R] [--value-hidden H]

Trains a fresh network on a dataset of perfect play (``python -m benchmarks.distill``) with
:func:`donuts_ai.learn.supervised.fit` and prints each checkpoint's losses and time; the
checkpoints (``DIR/step-NNNNNNNN``) and the last network (``DIR/network``) are measured
like any other network: ``python -m benchmarks.learning --winning --checkpoint
DIR/network --sims 50 400``.
"""

from __future__ import annotations

import argparse
import sys

from donuts_ai.errors import DonutsError
from donuts_ai.learn.network import NetworkConfig
from donuts_ai.learn.supervised import FitConfig, fit


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True, help="the dataset folder (benchmarks.distill's --out)")
    ap.add_argument("--out", required=True, help="a new folder for the checkpoints and the curve")
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
    try:
        config = FitConfig(steps=args.steps, batch_size=args.batch_size, checkpoint_every=args.checkpoint_every,
                           learning_rate=args.learning_rate, seed=args.seed,
                           network=NetworkConfig(channels=args.channels, blocks=args.blocks, value_hidden=args.value_hidden,
                                                 value_head="wdl"))
        fit(args.data, args.out, config, report=lambda row: print(
            f"step {row['step']:>7}  positions {row['positions']:>10,}  {row['seconds']:8.1f} s  "
            f"policy loss {row['policy_loss']:.4f}  value loss {row['value_loss']:.4f}", flush=True))
    except DonutsError as exc:
        print(f"supervised: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
