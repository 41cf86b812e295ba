"""Connect Four's exact solver (the generic compiled solver bound to the engine:
:mod:`donuts_ai.connect_four.solve`) beside Pascal Pons' ``c4solver``, on the same
positions on the same machine.

The positions are the 400 of ``tests/data/connect_four/`` (200 middle, 200 end; copied
from the shared set, labelled by Pons' solver): every one is solved first and its score
checked against the label (the run stops on a wrong one), then each set is timed as one
unit of work, the seconds a position took:

- ours with one table of ``2**24`` entries kept across the set, as Pons' ``c4solver``
  keeps its table from line to line (clearing 200 MB before every position would time
  the clearing);
- Pons' ``c4solver`` (``--pons PATH``: built with ``make c4solver`` from a snapshot of
  github.com/PascalPons/connect4, AGPL, run, never copied), the set piped through one
  process of it (its start included: about 60 ms a set, which is most of the end set's
  time, so only the middle set compares the searches), without its opening book.

The positions explored are ours alone (``c4solver`` prints none); the check prints their
mean a position, each solved from an empty table.

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
from donuts_ai.connect_four import ConnectFourBoard
from donuts_ai.connect_four.solve import new_table, solve
from donuts_ai.search.solver import clear_table

#: The labelled positions (a copy of the shared set).
DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "connect_four"
#: The sets timed.
PHASES = ("middle", "end")
#: Our table's size when kept across a set: 2**24 entries, as Pons' table.
TABLE_BITS = 24
#: Repeats of each figure in a run.
REPEATS = 3
#: The table of the check, cleared before each position (2**22 entries: 48 MB to clear).
CHECK_TABLE_BITS = 22
#: The solvers, each a parameter ``solver`` of its figures.
OURS, PONS = "donuts_ai solver", "pons c4solver"


def positions(phase: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DATA / f"{phase}.jsonl").read_text().splitlines()]


def check_and_count(phase: str) -> tuple[int, float]:
    """Every position of ``phase`` solved with a cleared table: (wrong scores, mean positions explored)."""
    rows = positions(phase)
    wrong, nodes = 0, 0
    table = new_table(CHECK_TABLE_BITS)
    for row in rows:
        clear_table(table)
        solution = solve(ConnectFourBoard.from_moves(row["moves"]), table=table, best_move=False)
        wrong += solution.score != row["score"]
        nodes += solution.nodes
    return wrong, nodes / len(rows)


def _ours(phase: str) -> Callable[[], int]:
    boards = [ConnectFourBoard.from_moves(row["moves"]) for row in positions(phase)]
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
    return f"{solver}, {phase} (200 positions)"


def figures(pons: str | None) -> list[Figure]:
    out = []
    for phase in PHASES:
        wrong, mean_nodes = check_and_count(phase)
        print(f"{phase}: {wrong} wrong of 200; {mean_nodes:,.0f} positions explored a position (ours, table cleared)",
              file=sys.stderr, flush=True)
        if wrong:
            raise SystemExit(f"{phase}: {wrong} wrong scores")
        out.append(measure_work(figure_name(OURS, phase), "position", _ours(phase), REPEATS,
                                {"solver": OURS, "phase": phase, "table_bits": TABLE_BITS}))
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.connect_four_solver", description=__doc__.splitlines()[0])
    parser.add_argument("--pons", metavar="PATH", help="Pons' c4solver (without it: ours alone)")
    runs.add_record_options(parser)
    args = parser.parse_args(argv)
    if args.pons and not Path(args.pons).is_file():
        parser.error(f"--pons {args.pons}: no such file")
    settings = f"table_bits={TABLE_BITS} repeats={REPEATS} pons={'yes' if args.pons else 'no'}"
    return runs.record_main(parser, args, argv, "benchmarks.connect_four_solver", lambda: (figures(args.pons), settings),
                            lambda suite: tables.record_text(suite, ratios(suite)))


if __name__ == "__main__":
    sys.exit(main())
