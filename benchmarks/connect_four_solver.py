"""Connect Four's exact solver (the generic compiled solver bound to the engine:
:mod:`donuts_ai.connect_four.solve`) beside Pascal Pons' ``c4solver``, on the same
positions on the same machine.

The positions are the 500 of ``tests/data/connect_four/``, all labelled by Pons' solver:
100 begin (8 to 13 moves played; drawn here by ``benchmarks/connect_four_begin_set.py``,
seed and command in its docstring), 200 middle (14 to 27) and 200 end (28 to 36; both
copied from the shared set). Every one is solved first and its score checked against the
label (the run stops on a wrong one), then each set is timed as one unit of work, the
seconds a position took:

- ours with one table of ``2**24`` entries kept across the set, as Pons' ``c4solver``
  keeps its table from line to line (clearing 200 MB before every position would time
  the clearing);
- Pons' ``c4solver`` (``--pons PATH``: built with ``make c4solver`` from a snapshot of
  github.com/PascalPons/connect4, AGPL, run, never copied), the set piped through one
  process of it (its start included: about 60 ms a set, which is most of the end set's
  time, so only the middle and begin sets compare the searches), without its opening book.

The positions explored are ours alone (``c4solver`` prints none); the check prints their
mean a position, each solved from an empty table, and keeps it in our figure's parameters
(``positions_explored``).

Beside the record's table the report prints Pons' own published figures for his test sets
of the same kinds (:data:`PONS_PUBLISHED`: his strong solver's mean time and mean positions
explored a position, 1,000 positions a set, on his machine, from the benchmark table of
"Part 12 -- Lower bound transposition table" of his tutorial, :data:`PONS_PUBLISHED_URL`,
the solver of the ``c4solver`` timed here) next to ours on the sets here. His sets split
each phase by the moves left under perfect play (Easy: under 14, Medium: 14 to 27, Hard:
28 or more; "Begin" is 14 moves played or fewer, "Middle" 15 to 28, "End" more than 28);
the sets here are not split that way (the begin set is 20 Easy, 43 Medium, 37 Hard by that
rule), so the two are of the same kinds, not the same positions: read them as orders of
magnitude, not as a ratio.

    python -m benchmarks.connect_four_solver --pons /tmp/pons/c4solver --runs 3 \\
        --json benchmarks/records/connect-four-solver.json
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from donuts_ai.bench import compare, runs, tables
from donuts_ai.bench.record import Figure, measure_work
from donuts_ai.connect_four import ConnectFourState
from donuts_ai.connect_four.solve import new_table, solve
from donuts_ai.search.solver import clear_table

#: The labelled positions (a copy of the shared set).
DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "connect_four"
#: The sets timed.
PHASES = ("begin", "middle", "end")
#: Our table's size when kept across a set: 2**24 entries, as Pons' table.
TABLE_BITS = 24
#: Repeats of each figure in a run.
REPEATS = 3
#: The table of the check, cleared before each position (2**22 entries: 48 MB to clear).
CHECK_TABLE_BITS = 22
#: The solvers, each a parameter ``solver`` of its figures.
OURS, PONS = "donuts_ai solver", "pons c4solver"
#: Where Pons published his solver's figures on his test sets (the tutorial's last part).
PONS_PUBLISHED_URL = "http://blog.gamesolver.org/solving-connect-four/12-lower-bound-transposition-table/"
#: His published figures, strong solver, 1,000 positions a set: test set (file, name) ->
#: (mean seconds a position, mean positions explored a position), as the page's table gives them.
PONS_PUBLISHED: dict[str, tuple[str, float, float]] = {
    "End-Easy": ("Test_L3_R1", 4.568e-6, 51.28),
    "Middle-Easy": ("Test_L2_R1", 37.45e-6, 449.6),
    "Middle-Medium": ("Test_L2_R2", 3.212e-3, 39_900),
    "Begin-Easy": ("Test_L1_R1", 254.6e-6, 3_298),
    "Begin-Medium": ("Test_L1_R2", 96.63e-3, 1_201_000),
    "Begin-Hard": ("Test_L1_R3", 5.490, 65_920_000),
}
#: His sets of the same kind as each of ours.
PONS_SETS_OF = {"begin": ("Begin-Easy", "Begin-Medium", "Begin-Hard"), "middle": ("Middle-Easy", "Middle-Medium"),
                "end": ("End-Easy",)}


def positions(phase: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DATA / f"{phase}.jsonl").read_text().splitlines()]


def check_and_count(phase: str) -> tuple[int, float]:
    """Every position of ``phase`` solved with a cleared table: (wrong scores, mean positions explored)."""
    rows = positions(phase)
    wrong, nodes = 0, 0
    table = new_table(CHECK_TABLE_BITS)
    for row in rows:
        clear_table(table)
        solution = solve(ConnectFourState.from_moves(row["moves"]), table=table, best_move=False)
        wrong += solution.score != row["score"]
        nodes += solution.nodes
    return wrong, nodes / len(rows)


def _ours(phase: str) -> Callable[[], int]:
    boards = [ConnectFourState.from_moves(row["moves"]) for row in positions(phase)]
    table = new_table(TABLE_BITS)

    def work() -> int:
        clear_table(table)  # every call starts from an empty table, as a c4solver process does
        for board in boards:
            solve(board, table=table, best_move=False)  # the value alone, as c4solver prints it
        return len(boards)

    return work


def _pons(phase: str, binary: str) -> Callable[[], int]:
    rows = positions(phase)
    text = "".join(row["moves"] + "\n" for row in rows)

    def work() -> int:
        done = subprocess.run([binary], input=text, capture_output=True, text=True, check=True)
        scores = [int(line.split()[-1]) for line in done.stdout.splitlines()]
        if scores != [row["score"] for row in rows]:
            raise RuntimeError(f"{binary} disagrees with the labels of {phase}")
        return len(rows)

    return work


def figure_name(solver: str, phase: str) -> str:
    return f"{solver}, {phase} ({len(positions(phase))} positions)"


def figures(pons: str | None) -> list[Figure]:
    out = []
    for phase in PHASES:
        wrong, mean_nodes = check_and_count(phase)
        print(f"{phase}: {wrong} wrong of {len(positions(phase))}; {mean_nodes:,.0f} positions explored a position "
              f"(ours, table cleared)", file=sys.stderr, flush=True)
        if wrong:
            raise SystemExit(f"{phase}: {wrong} wrong scores")
        out.append(measure_work(figure_name(OURS, phase), "position", _ours(phase), REPEATS,
                                {"solver": OURS, "phase": phase, "table_bits": TABLE_BITS,
                                 "positions_explored": round(mean_nodes)}))
        if pons:  # its work runs in a process of its own: threads=0, no CPU share of ours to judge
            out.append(measure_work(figure_name(PONS, phase), "position", _pons(phase, pons), REPEATS,
                                    {"solver": PONS, "phase": phase}, threads=0))
    return out


def ratios(suite: Any) -> list[tuple[str, float, float, float]]:
    """(name, Pons' positions a second over ours, low, high), each set (above 1: his is faster)."""
    by_name = {b.get_name(): b for b in suite}
    out = []
    for phase in PHASES:
        theirs, ours = by_name.get(figure_name(PONS, phase)), by_name.get(figure_name(OURS, phase))
        if theirs is not None and ours is not None:
            out.append((f"Pons' c4solver over ours: positions a second, {phase}", *compare.speed_within(ours, theirs)))
    return out


def _time_text(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.4g} {unit}"
    return f"{seconds / 1e-6:.3g} µs"


def published_text(suite: Any) -> str:
    """Ours on each set (mean time a position from the record, mean positions explored from
    the check) beside Pons' published figures for his sets of the same kind."""
    by_name = {b.get_name(): b for b in suite}
    lines = [f"Pons' published figures (strong solver, his machine, 1,000 positions a set; {PONS_PUBLISHED_URL}) "
             "beside ours here:",
             f"{'set':34s} {'mean time':>12s} {'mean positions explored':>24s}"]
    for phase in PHASES:
        ours = by_name.get(figure_name(OURS, phase))
        if ours is not None:
            rate = tables.rate_interval(ours)[0]
            explored = ours.get_runs()[0].get_metadata().get("param_positions_explored")
            lines.append(f"{'ours, ' + phase + ' (' + str(len(positions(phase))) + ')':34s} {_time_text(1 / rate):>12s} "
                         f"{'-' if explored is None else format(explored, ','):>24s}")
        for name in PONS_SETS_OF[phase]:
            test_set, seconds, explored = PONS_PUBLISHED[name]
            lines.append(f"{'  Pons, ' + name + ' (' + test_set + ')':34s} {_time_text(seconds):>12s} {format(explored, ','):>24s}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.connect_four_solver", description=__doc__.splitlines()[0])
    parser.add_argument("--pons", metavar="PATH", help="Pons' c4solver (without it: ours alone)")
    parser.add_argument("--pons-commit", metavar="SHA", default="unknown",
                        help="the commit of PascalPons/connect4 it was built from, for the record (git -C REPO rev-parse HEAD)")
    runs.add_record_options(parser)
    args = parser.parse_args(argv)
    if args.pons and not Path(args.pons).is_file():
        parser.error(f"--pons {args.pons}: no such file")
    pons = f"yes pons_commit={args.pons_commit[:10]}" if args.pons else "no"
    settings = f"table_bits={TABLE_BITS} repeats={REPEATS} pons={pons}"
    return runs.record_main(parser, args, argv, "benchmarks.connect_four_solver", lambda: (figures(args.pons), settings),
                            lambda suite: tables.record_text(suite, ratios(suite)) + "\n\n" + published_text(suite))


if __name__ == "__main__":
    sys.exit(main())
