"""``python -m benchmarks.distill``: a dataset of perfect play (issue 40, item 1).

    python -m benchmarks.distill --out DIR --games N [--seed S] [--nodes N] [--min-ply P]
        [--players random greedy alphabeta mcts] [--noise F] [--games-per-shard G] [--resume]
        [--insertion group|single] [--donuts N] [--runs N] [--json FILE]

Plays ``N`` seeded games of a mix of players on random tile arrangements and labels every
position from ``--min-ply`` on with the exact solver (:mod:`donuts_ai.learn.distill`),
symmetric repeats kept once, into a dataset folder ``donuts_ai.learn.read_dataset`` reads.
Prints the dataset's size, phases, the share the solver settled and what the labelling cost
(nodes, seconds, one core), after each shard and at the end; ``--resume`` continues a
killed run, writing what a run never stopped writes.

``--json FILE`` writes a pyperf record of what the run cost (:mod:`donuts_ai.bench.record`;
``python -m pyperf stats FILE`` reads it) with its machine's metadata: the seconds the
solver took to label a position (work unit ``position``, one core) and the wall seconds a
position took all included (playing, labelling, writing), a value per shard of the run
(:func:`figures_of`); the dataset's size, phases and settled shares are kept beside them as
parameters, printed, not stored as figures (they are not times). A dataset is made once, so
``--runs`` defaults to 1, measured in this process (its lines printed after each shard);
``--runs N`` starts N processes one after the other, the first writing the dataset into
``--out`` and the others the same dataset (the games and labels depend on the settings
alone) into a temporary folder, deleted after, to time the same work again.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from donuts_ai.bench import runs, tables
from donuts_ai.bench.record import Figure
from donuts_ai.donuts.rules import add_rules_arguments, rules_from_arguments
from donuts_ai.errors import DonutsError
from donuts_ai.learn.distill import (
    DEFAULT_GAMES_PER_SHARD,
    DEFAULT_NOISE,
    DEFAULT_PLAYERS,
    PHASES,
    PLAYERS,
    PROGRESS_FILE,
    DistillSettings,
    DistillSummary,
    describe,
    distill,
)
from donuts_ai.learn.teacher import DEFAULT_MIN_PLY, DEFAULT_NODES

#: A shard's counts as the run went: (positions labelled, seconds labelling, wall seconds), all since the run began.
Mark = tuple[int, float, float]


def label_name(nodes: int) -> str:
    """The record's name of the solver's seconds a position."""
    return f"distill, label a position (solver, at most {nodes:,} nodes, one core)"


def wall_name(nodes: int) -> str:
    """The record's name of the wall seconds a position, all included."""
    return f"distill, play, label and write a position (at most {nodes:,} nodes), wall clock"


def figures_of(marks: list[Mark], summary: DistillSummary, nodes: int) -> list[Figure]:
    """One run as record figures: for each shard (``marks``: after each, the positions
    labelled, the seconds labelling and the wall seconds since the run began) that labelled
    a position, its labelling seconds and its wall seconds over its positions; the
    dataset's counts (``summary``) as parameters. A
    :class:`~donuts_ai.errors.DonutsError` when no shard labelled anything (a finished
    dataset resumed)."""
    label, wall = [], []
    before: Mark = (0, 0.0, 0.0)
    for mark in marks:
        positions = mark[0] - before[0]
        if positions > 0:
            label.append((mark[1] - before[1]) / positions)
            wall.append((mark[2] - before[2]) / positions)
        before = mark
    if not label:
        raise DonutsError("the run labelled no position (was the dataset finished already?): nothing to record")
    params: dict[str, int | float | str] = {
        "games": summary.games, "positions": summary.positions, "duplicates": summary.duplicates,
        "settled_values": summary.settled_values, "settled_policies": summary.settled_policies, "labelled": summary.labelled,
        "nodes": summary.nodes, "shards": len(label), **{f"phase_{name}": count for name, count in summary.by_phase.items()}}
    # each value is another shard of games: a run's time is their mean
    return [Figure(label_name(nodes), "position", label, params, "mean"), Figure(wall_name(nodes), "position", wall, params, "mean")]


def report(suite: Any) -> str:
    """A record of this benchmark: the table of its figures, then the dataset each run
    wrote (its size, phases and settled shares) and what its labelling cost."""
    lines = [tables.record_text(suite), ""]
    for benchmark in suite:
        if not benchmark.get_name().startswith("distill, label a position"):
            continue
        for i, run in enumerate(benchmark.get_runs()):
            meta = run.get_metadata()
            positions = int(meta["param_positions"])
            n = max(positions, 1)
            phases = {name: int(meta.get(f"param_phase_{name}", 0)) for name in PHASES}
            lines.append(f"run {i + 1}: {meta['param_games']} games, {positions} positions ({meta['param_duplicates']} "
                         f"symmetric repeats merged); by phase {phases}; values settled "
                         f"{int(meta['param_settled_values']) / n:.1%}, every move settled "
                         f"{int(meta['param_settled_policies']) / n:.1%}; this run labelled {meta['param_labelled']} "
                         f"positions, {int(meta['param_nodes']):,} nodes ({statistics.fmean(run.values) * 1000:.2f} ms a "
                         f"position, the mean over {len(run.values)} shards)")
    return "\n".join(lines)


def measure(args: argparse.Namespace, out: str) -> tuple[list[Figure], DistillSummary]:
    """One run into the folder ``out``: its figures (:func:`figures_of`) and its summary,
    each shard's lines printed as it ends."""
    marks: list[Mark] = []
    start = time.perf_counter()

    def progress(s: DistillSummary) -> None:
        marks.append((s.labelled, s.seconds, time.perf_counter() - start))
        print(describe(s), flush=True)

    settings = DistillSettings(players=args.players, nodes=args.nodes, min_ply=args.min_ply, noise=args.noise,
                               games_per_shard=args.games_per_shard)
    summary = distill(out, games=args.games, rules=rules_from_arguments(args), seed=args.seed, resume=args.resume,
                      progress=progress, settings=settings)
    print(f"done in {time.perf_counter() - start:.1f} s of wall clock: {describe(summary)}", flush=True)
    return figures_of(marks, summary, args.nodes), summary


def main(argv: list[str] | None = None, prog: str = "python -m benchmarks.distill") -> int:
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
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
    add_rules_arguments(ap)
    runs.add_record_options(ap, default_runs=1, printed_only="the dataset's size, phases and settled shares")
    args = ap.parse_args(argv)
    if args.runs > 1 and args.resume:
        ap.error("--resume continues one run: it takes --runs 1")

    def measure_run() -> tuple[list[Figure], str]:
        settings = (f"games={args.games} seed={args.seed} nodes={args.nodes} min_ply={args.min_ply} "
                    f"players={' '.join(args.players)} noise={args.noise:g} games_per_shard={args.games_per_shard} "
                    f"rules={rules_from_arguments(args).to_dict()}")
        if args.record_run and not args.resume and (Path(args.out) / PROGRESS_FILE).exists():
            # a run after the first of --runs N: the same dataset again, into a folder deleted after
            with tempfile.TemporaryDirectory(prefix="donuts-distill-") as again:
                return measure(args, again)[0], settings
        return measure(args, args.out)[0], settings

    if not args.record_run and not args.resume and (Path(args.out) / PROGRESS_FILE).exists():
        ap.exit(2, f"{prog}: error: dataset folder {args.out!r} holds a dataset already: choose another (or --resume)\n")
    return runs.record_main(ap, args, argv, "benchmarks.distill", measure_run, report)


if __name__ == "__main__":
    raise SystemExit(main())
