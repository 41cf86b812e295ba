"""The public compiled API costs nothing: the same negamax, written against
:mod:`donuts_ai.donuts.kernels` and against the private engine it wraps, searches at the same
node rate.

    python -m benchmarks.kernels [--quick] [--depth N] [--repeats N] [--runs N] [--json FILE]

The two kernels (:mod:`donuts_ai.donuts.baselines`) are one search written twice, name for
name, run at a fixed depth from six early positions (those of the alpha-beta figure of
``donuts-ai bench``) in interleaved repeats, the order alternating; each repeat's node
rates are paired and their ratio reported. Rates are per second of CPU time (less
disturbed on a shared machine than the wall clock, which is reported too). The figures
are measured in ``--runs`` independent processes, and ``--json FILE`` writes them as a
pyperf record (:mod:`donuts_ai.bench.record`): the seconds a node took against each
kernel, CPU and wall clock as separate figures (:func:`figures`); the ratio is derived in
the table from the stored times. Benchmarks are not tests: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any, TypedDict

import numpy as np

from donuts_ai.bench import compare, record, runs, tables
from donuts_ai.bench.record import Figure
from donuts_ai.bench.reporting import Machine, RateStats, Stats, machine, rate_stats, stats
from donuts_ai.donuts import kernels as K
from donuts_ai.donuts.baselines import negamax_private, negamax_public
from donuts_ai.donuts.board import Board
from donuts_ai.donuts.layout import Layout

#: Six early positions: ``Layout.random_grid(FIRST_LAYOUT + i)`` after ``OPENING_PLIES`` seeded random plies.
FIRST_LAYOUT, POSITIONS, OPENING_PLIES = 100, 6, 4


# The two searches: a negamax with alpha-beta on the win/draw/loss value, square order, no
# table, the horizon scoring 0. The one against the engine calls its functions directly
# (legal_moves, apply, is_over, placer_value, the ctz intrinsic, b & (b - 1)); the other
# calls their public names in donuts_ai.donuts.kernels.
def positions() -> list[Board]:
    """The six early positions the two searches start from."""
    rng, boards = random.Random(1), []
    for i in range(POSITIONS):
        board = Board(Layout.random_grid(FIRST_LAYOUT + i))
        for _ in range(OPENING_PLIES):
            board.push(rng.choice(board.legal_moves()))
        boards.append(board)
    return boards


def search_all(which: str, boards: list[Board], depth: int) -> tuple[list[int], int, float, float]:
    """(values, nodes, CPU seconds, wall-clock seconds) of one search of every board by the
    ``"public"`` or ``"private"`` negamax."""
    search = negamax_public if which == "public" else negamax_private
    values, nodes = [], np.zeros(1, dtype=np.int64)
    cpu, wall = time.process_time(), time.perf_counter()
    for board in boards:
        values.append(int(search(K.rulebook(board), K.position(board), depth, -1, 1, nodes)))
    return values, int(nodes[0]), time.process_time() - cpu, time.perf_counter() - wall


class KernelsFigures(TypedDict):
    """Node rates of the two negamaxes (:func:`run`): the same search, so the same ``nodes``."""

    machine: Machine
    depth: int
    nodes: int
    public: RateStats  # nodes per CPU second
    private: RateStats
    ratio: Stats  # public / private node rate (CPU time), per interleaved pair of repeats
    public_wall: RateStats  # nodes per wall-clock second
    private_wall: RateStats
    ratio_wall: Stats


#: The defaults of :func:`run`, and those of ``--quick``: (depth, repeats).
FULL, QUICK = (18, 11), (16, 5)
#: The record's figures, by kernel and clock: (key of :class:`KernelsFigures`, kernel, clock).
FIGURES = (("public", "public kernels", "CPU clock"), ("private", "private engine", "CPU clock"),
           ("public_wall", "public kernels", "wall clock"), ("private_wall", "private engine", "wall clock"))


def figure_name(depth: int, kernel: str, clock: str) -> str:
    """The name of a figure of the record: ``negamax depth 16, public kernels, CPU clock``."""
    return f"negamax depth {depth}, {kernel}, {clock}"


def run(depth: int = FULL[0], repeats: int = FULL[1]) -> KernelsFigures:
    """Both negamaxes ``repeats`` times each, interleaved, at ``depth`` from :func:`positions`."""
    boards = positions()
    reference, nodes, _, _ = search_all("private", boards, 2)  # warm-up: compile or load both kernels
    if search_all("public", boards, 2)[:2] != (reference, nodes):
        raise AssertionError("the two negamaxes differ: they must be one search written twice")
    rates: dict[str, list[float]] = {"public": [], "private": [], "public_wall": [], "private_wall": []}
    for repeat in range(repeats):
        for which in ("public", "private") if repeat % 2 == 0 else ("private", "public"):
            _, nodes, cpu, wall = search_all(which, boards, depth)
            rates[which].append(nodes / cpu)
            rates[f"{which}_wall"].append(nodes / wall)

    def ratios(suffix: str) -> Stats:
        return stats([p / q for p, q in zip(rates[f"public{suffix}"], rates[f"private{suffix}"], strict=True)])

    return {"machine": machine(), "depth": depth, "nodes": nodes, "public": rate_stats(rates["public"]),
            "private": rate_stats(rates["private"]), "ratio": ratios(""), "public_wall": rate_stats(rates["public_wall"]),
            "private_wall": rate_stats(rates["private_wall"]), "ratio_wall": ratios("_wall")}


def figures(depth: int = FULL[0], repeats: int = FULL[1]) -> list[Figure]:
    """The node rates of :func:`run` as record figures: seconds a node against each kernel,
    on the CPU clock and on the wall clock (four figures, a value per repeat; the nodes
    of one search of the six positions as a parameter)."""
    r = run(depth, repeats)
    return [Figure(figure_name(depth, kernel, clock), "node", [1 / rate for rate in r[key]["rates"]],  # type: ignore[literal-required]
                   {"nodes": r["nodes"], "positions": POSITIONS}) for key, kernel, clock in FIGURES]


def ratios(suite: Any) -> list[tuple[str, float, float, float]]:
    """(name, ratio, low, high): the node rate against the public kernels over that against
    the private engine, on each clock, derived from the record's stored times (each run
    measured both, so the runs are paired)."""
    by_name = record.figures_of(suite)
    out = []
    for name, fast in by_name.items():
        slow = by_name.get(name.replace(", public kernels, ", ", private engine, "))
        if ", public kernels, " not in name or slow is None:
            continue
        out.append((f"kernels / engine node rate, {name.rsplit(', ', 1)[1]}", *compare.speed_within(slow, fast)))
    return out


def record_report(suite: Any) -> str:
    """A record of this benchmark as a table: each figure's rate with its interval over the
    runs, and the ratios of the public kernels' node rate to the private engine's."""
    return tables.record_text(suite, ratios(suite))


def report(r: KernelsFigures) -> str:
    m = r["machine"]
    lines = [f"machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, Numba {m['numba']}, NumPy {m['numpy']}",
             f"negamax depth {r['depth']} from {POSITIONS} early positions ({r['nodes']:,} nodes a search), "
             f"{r['public']['repeats']} interleaved repeats each:",
             f"{'':32s} {'median':>14s}   (min – max)"]
    for clock, public, private, ratio in (("CPU", r["public"], r["private"], r["ratio"]),
                                          ("wall-clock", r["public_wall"], r["private_wall"], r["ratio_wall"])):
        for name, s in (("against donuts_ai.donuts.kernels", public), ("against the private engine", private)):
            lines.append(f"{name:32s} {s['median']:>14,.0f}   ({s['min']:,.0f} – {s['max']:,.0f}) nodes per {clock} second")
        lines.append(f"{'kernels / engine, per pair':32s} {ratio['median']:>14.3f}   ({ratio['min']:.3f} – {ratio['max']:.3f})")
    return "\n".join(lines)


def main(argv: list[str] | None = None, prog: str = "python -m benchmarks.kernels") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"depth {QUICK[0]}, {QUICK[1]} repeats: a few seconds a run (default: depth {FULL[0]}, "
                             f"{FULL[1]} repeats)")
    parser.add_argument("--depth", type=int, help="the search's depth (overrides --quick's)")
    parser.add_argument("--repeats", type=int, help="interleaved repeats of each search in a run (overrides --quick's)")
    runs.add_record_options(parser)
    args = parser.parse_args(argv)
    depth = args.depth if args.depth is not None else (QUICK if args.quick else FULL)[0]
    repeats = args.repeats if args.repeats is not None else (QUICK if args.quick else FULL)[1]
    if depth < 1 or repeats < 1:
        parser.error("--depth and --repeats must be at least 1")
    return runs.record_main(parser, args, argv, "benchmarks.kernels",
                              lambda: (figures(depth, repeats), f"depth={depth} repeats={repeats}"), record_report)


if __name__ == "__main__":
    raise SystemExit(main())
