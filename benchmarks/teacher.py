"""``python -m benchmarks.teacher``: the exact solver as the learner's teacher, measured.

``--label``: positions of self-play-like games (the shipped network's raw policy, its
moves drawn in proportion to the policy for the first 8 plies and its most probable
square after, as the self-play's temperature; fresh tile arrangements), each labelled by
the teacher within ``--nodes`` solver nodes on one thread: positions a second (the
solver's time alone), and by ply the share whose value and whose every move's value (the
policy label) the solver settled, with the mean milliseconds a position.

``--selfplay MINUTES``: a training run with the default settings (128 games, 32
simulations, the 32x3 network) for MINUTES with each teacher of ``--teachers`` (default
none and solver, one solver thread), reporting positions searched a second, the share
labelled, and the seconds the self-play waited for labels.

    nice -n 10 python -m benchmarks.teacher --label --games 40 --nodes 20000
    nice -n 10 python -m benchmarks.teacher --selfplay 1.5 --runs 1

Both are measured in ``--runs`` independent processes (3 by default: ``--selfplay`` then
takes 3 times MINUTES for each teacher), and ``--json FILE`` writes them as a pyperf record
(:mod:`donuts_ai.bench.record`; ``python -m pyperf stats FILE`` reads it): the seconds
each label took (work unit ``position``, a value a position, over every position and
from ply ``teacher_min_ply`` on: :func:`label_figures`), and the seconds a position
searched and a position put into the buffer took in each self-play session (one value a
run: :func:`selfplay_figures`). The shares settled, the nodes and the self-play's
counters are not times: kept beside the figures as parameters, and printed over all runs.
The record keeps the machine's load average at the start and end of each run (printed
before and after each part before the records). Benchmarks are not tests: nothing here
asserts a speed.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Mapping
from functools import partial
from typing import Any

import numpy as np

from donuts_ai import Board, Layout, Rules
from donuts_ai.bench import record, runs, tables
from donuts_ai.bench.record import Figure, SpeedRecordError
from donuts_ai.donuts.alphabeta.solver import Solver
from donuts_ai.donuts.squares import SQUARE_NAMES
from donuts_ai.learn.agent import cached_network, root_record
from donuts_ai.learn.batched_search import masked_policy, network_predictor, predict_roots
from donuts_ai.learn.buffer import SAMPLE, legal_flags
from donuts_ai.learn.teacher import DEFAULT_MIN_PLY, DEFAULT_NODES, TEACHER_TT_BITS, canonical, label_position

#: The module the record's runs are started as.
MODULE = "benchmarks.teacher"
#: Plies whose move is drawn from the policy (the self-play's temperature_plies).
DRAWN_PLIES = 8


def self_play_positions(games: int, seed: int) -> np.ndarray:
    """The positions of ``games`` games of the shipped network's raw policy (see the module)."""
    predictor = network_predictor(cached_network(None))
    rng = np.random.default_rng(seed)
    records = []
    for _ in range(games):
        board = Board(Layout.random(int(rng.integers(1 << 30))))
        while not board.is_game_over():
            root = root_record(board)
            sample = np.zeros(1, dtype=SAMPLE)
            for field in ("own", "opp", "legal", "last", "placed_own", "placed_opp", "color", "directions"):
                sample[field] = root[field]
            records.append(sample)
            logits, _ = predict_roots(predictor, root, board.rules.donuts)
            policy = masked_policy(logits, legal_flags(root))[0].astype(np.float64)
            sq = int(rng.choice(len(policy), p=policy / policy.sum())) if board.ply < DRAWN_PLIES else int(policy.argmax())
            board.push(SQUARE_NAMES[sq])
    return np.concatenate(records)


#: The letter of a label's settled parts in the record's ``settled`` parameter: value and
#: policy, value only, policy only (never seen: a settled policy settles the value), neither.
SETTLED_LETTERS = {(True, True): "b", (True, False): "v", (False, True): "p", (False, False): "n"}


def label_name(nodes: int, min_ply: int | None = None) -> str:
    """The record's name of the labelling figure: every position, or those from ``min_ply`` on."""
    return f"teacher labels, {nodes} nodes a position, one thread{f', from ply {min_ply}' if min_ply is not None else ''}"


def label_figures(records: np.ndarray, nodes: int, games: int) -> list[Figure]:
    """Label every position of ``records`` (:data:`SAMPLE` records) within ``nodes`` solver
    nodes on one thread: two figures of the seconds each label took (work unit ``position``,
    a value a position, their mean the run's time: each value is another position), over
    every position and over those from ply :data:`DEFAULT_MIN_PLY` on (the default
    ``teacher_min_ply``). The first keeps each position's ply, what the solver settled
    (:data:`SETTLED_LETTERS`) and its nodes as parameters, for the table by ply."""
    rules, solver = Rules(), Solver(tt_bits=TEACHER_TT_BITS, threads=1)
    label_position(solver, canonical(records[-1:])[0], rules, nodes)  # the kernels loaded, outside the timing
    seconds, plies, settled, used = [], [], [], []
    for rec, position in zip(records, canonical(records), strict=True):
        start = time.perf_counter()
        label = label_position(solver, position, rules, nodes)
        seconds.append(time.perf_counter() - start)
        plies.append(int(rec["placed_own"] + rec["placed_opp"]))
        settled.append(SETTLED_LETTERS[label.value is not None, label.keep is not None])
        used.append(label.nodes)
    later = [s for s, ply in zip(seconds, plies, strict=True) if ply >= DEFAULT_MIN_PLY]
    common = {"node_budget": nodes, "games": games}
    out = [Figure(label_name(nodes), "position", seconds,
                  {**common, "positions": len(seconds), "plies": ",".join(map(str, plies)), "settled": "".join(settled),
                   "nodes_used": ",".join(map(str, used))}, run_statistic="mean")]
    if later:
        out.append(Figure(label_name(nodes, DEFAULT_MIN_PLY), "position", later,
                          {**common, "positions": len(later), "min_ply": DEFAULT_MIN_PLY}, run_statistic="mean"))
    return out


def label_report(suite: Any) -> list[str]:
    """The lines of the labelling figures of a record (:func:`label_figures`): the shares
    settled over all runs, and the table by ply."""
    lines: list[str] = []
    for benchmark in suite:
        runs_ = [run for run in benchmark.get_runs() if "param_settled" in run.get_metadata()]
        if not runs_:
            continue
        meta = runs_[0].get_metadata()
        rows = []  # (ply, value settled, policy settled, seconds, nodes) of every position of every run
        for run in runs_:
            m = run.get_metadata()
            plies = [int(p) for p in str(m["param_plies"]).split(",")]
            used = [int(n) for n in str(m["param_nodes_used"]).split(",")]
            settled = str(m["param_settled"])
            if not len(plies) == len(used) == len(settled) == len(run.values):
                raise SpeedRecordError(f"{benchmark.get_name()}: its parameters do not match its values")
            rows += [(ply, letter in "bv", letter in "bp", sec, n)
                     for ply, letter, sec, n in zip(plies, settled, run.values, used, strict=True)]
        later = [r for r in rows if r[0] >= DEFAULT_MIN_PLY]
        lines += ["", f"{meta.get('param_positions')} positions of {meta.get('param_games')} games labelled, "
                      f"{meta.get('param_node_budget')} nodes each, one thread, in each of {len(runs_)} runs:",
                  f"value settled {np.mean([r[1] for r in rows]):.1%}, policy settled {np.mean([r[2] for r in rows]):.1%}, "
                  f"{np.mean([r[4] for r in rows]):.0f} nodes a position"]
        if later:
            lines.append(f"from ply {DEFAULT_MIN_PLY} on (the default teacher_min_ply): value settled "
                         f"{np.mean([r[1] for r in later]):.1%}, policy settled {np.mean([r[2] for r in later]):.1%}")
        lines += ["", "| plies | positions | value settled | policy settled | ms a position | nodes a position |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for low in range(0, 36, 4):
            bucket = [r for r in rows if low <= r[0] < low + 4]
            if bucket:
                lines.append(f"| {low}-{low + 3} | {len(bucket) / len(runs_):.0f} | {np.mean([r[1] for r in bucket]):.0%} | "
                             f"{np.mean([r[2] for r in bucket]):.0%} | {1e3 * np.mean([r[3] for r in bucket]):.2f} | "
                             f"{np.mean([r[4] for r in bucket]):.0f} |")
    return lines


def selfplay_name(teacher: str, nodes: int, threads: int, what: str) -> str:
    """The record's name of a self-play figure: ``what`` is "searched" or "into the buffer"."""
    solver = "" if teacher == "none" else f", {nodes} nodes, {threads} thread{'s' * (threads > 1)}"
    return f"self-play, teacher {teacher}{solver}, positions {what}"


#: The progress counters a self-play figure keeps as parameters (:func:`selfplay_figures`).
SELFPLAY_PARAMS = ("moves", "games", "positions", "labelled", "value_labels", "policy_labels", "search_seconds",
                   "network_seconds", "train_seconds", "label_wait_seconds", "label_seconds")


def selfplay_figures(teacher: str, nodes: int, threads: int, minutes: float, games: int, progress: Mapping[str, Any]) -> list[Figure]:
    """The figures of one self-play session with ``teacher`` (its ``progress``, as
    :meth:`Trainer.run` returns it, of ``games`` games at once): the seconds a position
    searched took (``moves * games`` positions) and the seconds a position put into the
    buffer took (work unit ``position``, one value each), with the counters of
    :data:`SELFPLAY_PARAMS` as parameters; none for a session that made no move."""
    searched = progress["moves"] * games
    params: dict[str, int | float | str] = {"teacher": teacher, "minutes": minutes, "self_play_games": games,
                                            **{k: progress[k] for k in SELFPLAY_PARAMS}}
    if teacher != "none":
        params.update({"teacher_nodes": nodes, "threads": threads})
    out = []
    for what, count in (("searched", searched), ("into the buffer", progress["positions"])):
        if count > 0 and progress["seconds"] > 0:
            out.append(Figure(selfplay_name(teacher, nodes, threads, what), "position", [progress["seconds"] / count], params))
    return out


def self_play(minutes: float, teachers: list[str], nodes: int, threads: int) -> list[Figure]:
    """One self-play session of ``minutes`` with each of ``teachers`` (after a 2-move warm-up),
    as figures (:func:`selfplay_figures`)."""
    from donuts_ai.learn.train import TrainConfig, Trainer

    out = []
    for teacher in teachers:
        config = TrainConfig(teacher=teacher, teacher_nodes=nodes, teacher_threads=threads, checkpoint_every=10_000)
        with tempfile.TemporaryDirectory() as folder:
            warm = Trainer(f"{folder}/warm", config)  # compiles the network's shapes and loads the kernels
            warm.run(moves=2)
            warm.close()
            trainer = Trainer(f"{folder}/run", config)
            p = trainer.run(minutes=minutes)
            trainer.close()
        out += selfplay_figures(teacher, nodes, threads, minutes, config.games, p)
    return out


def selfplay_report(suite: Any) -> list[str]:
    """The lines of the self-play figures of a record: for each teacher, the rates over all
    runs and the means over the runs of its counters (as the table before the records)."""
    by_name = record.figures_of(suite)
    lines: list[str] = []
    for name, benchmark in by_name.items():
        if not name.startswith("self-play, ") or not name.endswith(", positions searched"):
            continue
        metas = [run.get_metadata() for run in benchmark.get_runs()]
        mean = partial(_mean_param, metas)

        buffer = by_name.get(name.removesuffix("searched") + "into the buffer")
        into = f"{tables.rate_interval(buffer)[0]:.0f}" if buffer is not None else "0"
        labelled = (f", labelled {mean('labelled'):.0f}: value settled {mean('value_labels') / mean('labelled'):.1%}, policy "
                    f"{mean('policy_labels') / mean('labelled'):.1%}" if mean("labelled") else "")
        lines += ["", f"{name.removeprefix('self-play, ').removesuffix(', positions searched')}, {mean('minutes'):g} minutes "
                      f"(means over {len(metas)} runs):",
                  f"  {mean('moves'):.0f} moves, {tables.rate_interval(benchmark)[0]:.0f} positions searched/s, "
                  f"{mean('games'):.0f} games, {into} positions into the buffer/s{labelled}; seconds: search "
                  f"{mean('search_seconds'):.1f}, network {mean('network_seconds'):.1f}, training {mean('train_seconds'):.1f}, "
                  f"waiting for labels {mean('label_wait_seconds'):.1f}, solver threads {mean('label_seconds'):.1f}"]
    return lines


def _mean_param(metas: list[dict[str, Any]], key: str) -> float:
    """The mean over runs (their metadata ``metas``) of parameter ``key`` (0 where absent)."""
    return float(np.mean([float(m.get(f"param_{key}", 0)) for m in metas]))


def report(suite: Any) -> str:
    """A record of this benchmark: each figure with its interval over the runs, then the
    labels' shares settled and table by ply, and the self-play sessions' counters."""
    return "\n".join([tables.record_text(suite), *label_report(suite), *selfplay_report(suite)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.teacher", description=__doc__.split("\n\n")[0])
    parser.add_argument("--label", action="store_true", help="labelling throughput and settled shares by ply")
    parser.add_argument("--games", type=int, default=40, help="games whose positions --label labels")
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODES, help="solver nodes per position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--selfplay", type=float, metavar="MINUTES", help="self-play positions/s by teacher, MINUTES each")
    parser.add_argument("--teachers", nargs="+", default=["none", "solver"])
    parser.add_argument("--threads", type=int, default=1, help="the teacher's solver threads in --selfplay")
    runs.add_record_options(parser, printed_only="the shares settled, the nodes and the self-play's counters (kept as "
                                                 "parameters of the figures) are")
    args = parser.parse_args(argv)
    if not args.label and not args.selfplay:
        parser.error("give --label and/or --selfplay MINUTES")
    if args.games < 1 or args.nodes < 1 or args.threads < 1:
        parser.error("--games, --nodes and --threads must be at least 1")

    def measure() -> tuple[list[Figure], str]:
        figures, settings = [], []
        if args.label:
            figures += label_figures(self_play_positions(args.games, args.seed), args.nodes, args.games)
            settings.append(f"label games={args.games} nodes={args.nodes} seed={args.seed}")
        if args.selfplay:
            figures += self_play(args.selfplay, args.teachers, args.nodes, args.threads)
            settings.append(f"selfplay minutes={args.selfplay:g} teachers={','.join(args.teachers)} nodes={args.nodes} "
                            f"threads={args.threads}")
        return figures, "; ".join(settings)

    return runs.record_main(parser, args, argv, MODULE, measure, report)


if __name__ == "__main__":
    raise SystemExit(main())
