"""``python -m benchmarks.time_to_exact``: how long exact analysis takes, from the empty board on.

For positions at given plies of seeded random games on random tile arrangements, runs
:meth:`donuts_ai.play.analysis.Analyst.analyze` (what the page's and the terminal's
background analysis runs) with the default node limits and reports, per ply, the
seconds until every move's estimate is shown, until every move's exact value is known,
and until the analysis is complete (distances included), and how many moves were left
without an exact value or distance. The analyst's solver uses ``--threads`` threads
(default: every core, as on the page); ``--clock wall`` (default) measures what a person
waits, so run it on otherwise idle cores; ``--clock cpu`` counts every thread's CPU time
(other work on the machine changes it little).

    python -m benchmarks.time_to_exact --layouts 8 --plies 0 1 2 4 6
    python -m benchmarks.time_to_exact --threads 1 --clock cpu

The positions are analysed in ``--runs`` independent processes (3 by default), and
``--json FILE`` writes a pyperf record of them (:mod:`donuts_ai.bench.record`; ``python -m
pyperf stats FILE`` reads it): for each ply, three figures, the seconds each position took
until its estimates were shown, until every value was exact and until the analysis was
complete (work unit ``position``, a value per position, in order); the moves and the moves
left without an exact value or distance are kept beside them as parameters, and the
table of medians and slowest is computed from the record over every run's positions.
Benchmarks are not tests: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any

from donuts_ai import Board, Layout
from donuts_ai.bench import record, runs, tables
from donuts_ai.bench.record import Figure
from donuts_ai.errors import DonutsError
from donuts_ai.play.analysis import Analyst

#: The three marks of an analysis, each a figure of the record: (key of :func:`measure`, what the figure names).
MARKS = (("estimates", "estimates shown"), ("values", "every value exact"), ("complete", "analysis complete"))


def position(seed: int, plies: int) -> Board | None:
    rng, board = random.Random(seed), Board(Layout.random(seed))
    for _ in range(plies):
        if board.is_game_over():
            return None
        board.push(rng.choice(board.legal_moves()))
    return None if board.is_game_over() else board


def measure(board: Board, threads: int | None = None, clock=time.perf_counter) -> dict:
    """Seconds (of ``clock``) to the estimates, to every exact value, to the end; what stayed unknown."""
    marks = {}
    analyst = Analyst(threads=threads)
    start = clock()

    def publish(snapshot) -> None:
        now = clock() - start
        marks.setdefault("estimates", now)
        if snapshot.exact:
            marks.setdefault("values", now)

    analysis = analyst.analyze(board, publish)
    total = clock() - start
    return {"moves": len(analysis.moves), "estimates": marks.get("estimates", total), "values": marks.get("values", total),
            "complete": total, "unknown_values": len(analysis.moves) - analysis.proven,
            "unknown_distances": sum(m.exact and m.distance is None for m in analysis.moves)}


def figure_name(plies: int, positions: int, mark: str, threads: int | None, clock: str) -> str:
    """The record's name of a figure: ``exact analysis, ply 4, 8 positions, every value exact, 1 thread, cpu clock``."""
    who = "every core" if threads is None else f"{threads} thread{'s' * (threads != 1)}"
    return f"exact analysis, ply {plies}, {positions} positions, {mark}, {who}, {clock} clock"


def figures_of(plies: int, rows: list[dict], threads: int | None, clock: str, used_threads: int) -> list[Figure]:
    """The analyses of one ply's positions (:func:`measure`'s rows) as record figures: the
    seconds of each position to each of :data:`MARKS`, and as parameters the ply, each
    position's moves (comma-separated) and the moves left without an exact value or
    distance in all. No figure for a ply without a position."""
    if not rows:
        return []
    params: dict[str, int | float | str] = {
        "ply": plies, "positions": len(rows), "position_moves": ",".join(str(r["moves"]) for r in rows),
        "unknown_values": sum(r["unknown_values"] for r in rows), "unknown_distances": sum(r["unknown_distances"] for r in rows),
        "threads": used_threads, "clock": clock}
    # each value is another position: a run's time is their mean
    return [Figure(figure_name(plies, len(rows), mark, threads, clock), "position", [r[key] for r in rows], params, "mean")
            for key, mark in MARKS]


def figures(layouts: int, plies_list: list[int], threads: int | None, clock_name: str) -> list[Figure]:
    """One run: the analyst warmed up, then every ply's positions analysed (:func:`figures_of`)."""
    clock = time.perf_counter if clock_name == "wall" else time.process_time
    analyst = Analyst(threads=threads)
    analyst.analyze(position(0, 10) or Board())  # load the kernels first
    out = []
    for plies in plies_list:
        rows = [measure(b, threads, clock) for b in (position(s, plies) for s in range(layouts)) if b is not None]
        out += figures_of(plies, rows, threads, clock_name, analyst.threads)
    if not out:
        raise DonutsError("no position to analyse: every game of --layouts was over before the plies of --plies")
    return out


def _spread(values: list[Any]) -> str:
    """One value, or the range over the runs where they differ."""
    return f"{values[0]}" if len(set(values)) == 1 else f"{min(values)}-{max(values)}"


def report(suite: Any) -> str:
    """A record of this benchmark: the table of its figures, then the table this script has
    always printed, per ply: medians and slowest over every run's positions, and the moves
    left unknown by a run (a range where the runs differ)."""
    by_ply: dict[int, dict[str, Any]] = {}
    for benchmark in suite:
        meta = benchmark.get_runs()[0].get_metadata()
        key = next(k for k, mark in MARKS if f", {mark}, " in benchmark.get_name())
        ply = by_ply.setdefault(int(meta["param_ply"]), {"benchmarks": {}, "runs": benchmark.get_nrun()})
        ply["benchmarks"][key] = benchmark
        ply["moves"] = [int(m) for run in benchmark.get_runs() for m in str(run.get_metadata()["param_position_moves"]).split(",")]
        for param in ("positions", "unknown_values", "unknown_distances"):
            ply[param] = [int(run.get_metadata()[f"param_{param}"]) for run in benchmark.get_runs()]
    threads = ", ".join(str(t) for t in record.metadata_values(suite, "param_threads"))
    clocks = ", ".join(str(c) for c in record.metadata_values(suite, "param_clock"))
    lines = [tables.record_text(suite), "", f"threads: {threads}, clock: {clocks}, over every run's positions",
             "| plies | positions | moves (median) | estimates median (s) | all values median (s) | all values slowest (s) "
             "| complete median (s) | complete slowest (s) | values unknown | distances unknown |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for plies, ply in sorted(by_ply.items()):
        seconds = {key: list(b.get_values()) for key, b in ply["benchmarks"].items()}
        lines.append(f"| {plies} | {_spread(ply['positions'])} | {statistics.median(ply['moves']):g} | "
                     f"{statistics.median(seconds['estimates']):.2f} | {statistics.median(seconds['values']):.2f} | "
                     f"{max(seconds['values']):.2f} | {statistics.median(seconds['complete']):.2f} | "
                     f"{max(seconds['complete']):.2f} | {_spread(ply['unknown_values'])} | {_spread(ply['unknown_distances'])} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None, prog: str = "python -m benchmarks.time_to_exact") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--layouts", type=int, default=8, help="random arrangements (seeds 0..N-1)")
    parser.add_argument("--plies", type=int, nargs="+", default=[0, 1, 2, 4, 6])
    parser.add_argument("--threads", type=int, default=None, help="the analyst's solver threads (default: every core)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    runs.add_record_options(parser)
    args = parser.parse_args(argv)
    if args.layouts < 1 or min(args.plies) < 0 or (args.threads is not None and args.threads < 1):
        parser.error("--layouts and --threads must be at least 1, --plies at least 0")
    plies = list(dict.fromkeys(args.plies))  # each ply once: a figure a name
    settings = (f"layouts={args.layouts} plies={' '.join(str(p) for p in plies)} "
                f"threads={'every core' if args.threads is None else args.threads} clock={args.clock}")
    return runs.record_main(parser, args, argv, "benchmarks.time_to_exact",
                            lambda: (figures(args.layouts, plies, args.threads, args.clock), settings), report)


if __name__ == "__main__":
    sys.exit(main())
