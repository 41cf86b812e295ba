"""``python -m benchmarks.distill``: a dataset of perfect play (issue 40, item 1).

    python -m benchmarks.distill --out DIR --games N [--seed S] [--nodes N] [--min-ply P]
        [--players random greedy alphabeta mcts] [--noise F] [--games-per-shard G] [--resume]
        [--insertion group|single] [--donuts N] [--json FILE]

Plays ``N`` seeded games of a mix of players on random tile arrangements and labels every
position from ``--min-ply`` on with the exact solver (:mod:`donuts_ai.learn.distill`),
symmetric repeats kept once, into a dataset folder ``donuts_ai.learn.read_dataset`` reads.
Prints the dataset's size, phases, the share the solver settled and what the labelling cost
(nodes, seconds, one core), after each shard and at the end; ``--resume`` continues a
killed run, writing what a run never stopped writes.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time

from donuts_ai.donuts.rules import add_rules_arguments, rules_from_arguments
from donuts_ai.errors import DonutsError
from donuts_ai.learn.distill import DEFAULT_GAMES_PER_SHARD, DEFAULT_NOISE, DEFAULT_PLAYERS, PLAYERS, describe, distill
from donuts_ai.learn.teacher import DEFAULT_MIN_PLY, DEFAULT_NODES


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="the dataset folder")
    ap.add_argument("--games", type=int, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--nodes", type=int, default=DEFAULT_NODES, help=f"solver nodes a position (default {DEFAULT_NODES:,})")
    ap.add_argument("--min-ply", type=int, default=DEFAULT_MIN_PLY, help=f"first ply labelled (default {DEFAULT_MIN_PLY})")
    ap.add_argument("--players", nargs="+", default=list(DEFAULT_PLAYERS), choices=list(PLAYERS),
                    help=f"the players mixed (default: {' '.join(DEFAULT_PLAYERS)})")
    ap.add_argument("--noise", type=float, default=DEFAULT_NOISE, help="share of moves made at random")
    ap.add_argument("--games-per-shard", type=int, default=DEFAULT_GAMES_PER_SHARD)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--json", help="also write the summary here")
    add_rules_arguments(ap)
    args = ap.parse_args(argv)
    start = time.perf_counter()
    try:
        summary = distill(args.out, games=args.games, rules=rules_from_arguments(args), seed=args.seed, players=args.players,
                          nodes=args.nodes, min_ply=args.min_ply, noise=args.noise, games_per_shard=args.games_per_shard,
                          resume=args.resume, progress=lambda s: print(describe(s), flush=True))
    except DonutsError as exc:
        print(f"distill: error: {exc}", file=sys.stderr)
        return 2
    wall = time.perf_counter() - start
    print(f"done in {wall:.1f} s of wall clock: {describe(summary)}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({**dataclasses.asdict(summary), "wall_s": wall, "config": {k: v for k, v in vars(args).items()
                                                                                 if k != "json"}}, fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
