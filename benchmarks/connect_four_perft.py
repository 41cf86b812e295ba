"""Connect Four's perft: the compiled engine against OpenSpiel's ``connect_four``, its
leaves a second, and a plain C bitboard beside it.

    python -m benchmarks.connect_four_perft [--depth 8] [--engine-depth 10] [--repeats 5]
                                            [--no-c] [--cc cc] [--cflags=-O2]

For each depth 1..``--depth`` it counts the leaves of the tree below the empty board (a
finished game is a leaf) twice: with :func:`donuts_ai.connect_four.kernels.perft`, and by a
recursive walk of ``pyspiel.load_game("connect_four")`` in Python (``state.child``, the
legal actions counted without playing at the last ply, as the engine does), and prints
both counts, whether they agree, and the seconds each took. The Python walk costs about
0.2 µs a leaf (depth 8, 5.7 million leaves: about 1 s; depth 9: about 8 s; depth 10: about
a minute, on one core of a 2-core EPYC). Both counted 1, 7, ..., 823,536, 5,686,266 and
39,452,034 leaves at depths 1 to 9. Then the engine
alone to ``--engine-depth``, best of ``--repeats``, in leaves a second (after one warm-up
call: compilation is not measured), with the load average (``os.getloadavg``) beside each.
Exit status 1 when a count disagrees. ``--depth 0`` skips OpenSpiel.

With ``--json FILE`` it writes a record instead (``--runs`` processes, each figure measured
as every record here is): the engine's perft and the C program's at ``--engine-depth``,
after checking their counts at every depth to it, and the ratio with its interval::

    python -m benchmarks.connect_four_perft --engine-depth 10 --runs 3 --cflags="-O2 -march=native" \
        --json benchmarks/records/connect-four-perft.json

The C side is ``benchmarks/c/connect_four_perft.c``, a plain bitboard perft written for
this benchmark (about 90 lines): the engine's layout (column ``c`` in bits ``7c .. 7c+6``,
the 7th a sentinel; Pons' layout), its counting rule (a move that wins or fills the board
is a leaf; at depth 1 the playable cells are counted without playing), four in a row by
shifts of 1, 6, 7 and 8, timed inside the program (``CLOCK_MONOTONIC``, best of
``--repeats`` after one untimed warm-up call). When ``--cc`` (default: ``cc``, else
``gcc``, else ``clang`` on ``PATH``) is found and ``--no-c`` is not given, the script
compiles it into a temporary folder with ``--cflags`` (default plain ``-O2``: no
``-march``), checks its counts equal the engine's at every depth 1..``--engine-depth``
(exit status 1 otherwise), and prints the engine's leaves a second beside the C
program's at ``--engine-depth`` and their ratio; with no compiler it says so and skips
the C side.

Measured 2026-12-06 on a 2-core AMD EPYC VM (gcc 12.2, Numba's LLVM), other benchmarks
running (load average 1.8 to 2.1), depth 10 (269,175,990 leaves), best of 5 in each of 3
to 5 runs: the engine 1.45e9 to 1.48e9 leaves/s (0.18 s); the C program at plain ``-O2``
1.13e9 to 1.17e9 (0.23 s), the engine 1.24x to 1.30x as fast; at ``--cflags="-O2
-mpopcnt"`` or ``--cflags="-O2 -march=native"`` 1.51e9 to 1.53e9 (0.18 s), the engine
0.97x to 0.98x. The gap at plain ``-O2`` is the popcount at depth 1: without
``-mpopcnt`` gcc calls libgcc's software ``__popcountdi2``, where Numba compiles for the
host CPU and uses ``popcnt``. (At load 2.2 to 3 the figures scattered from 0.6e9 to 1.5e9
on both sides: compare only runs at the same load.) The engine and the C program agree at
every depth 1..11: 7, 49, 343, 2,401, 16,807, 117,649, 823,536, 5,686,266, 39,452,034,
269,175,990 and 1,849,996,230 leaves (OpenSpiel checked to depth 9).

OpenSpiel is the ``spiel`` extra (``pip install 'donuts_ai[spiel]'``). Benchmarks are not
tests: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

#: The C perft (see the module docstring).
C_SOURCE = Path(__file__).resolve().parent / "c" / "connect_four_perft.c"
#: The compilers tried, in order, when ``--cc`` is not given.
C_COMPILERS = ("cc", "gcc", "clang")


def spiel_perft(state: Any, depth: int) -> int:
    """The leaves ``depth`` plies below an OpenSpiel state (a terminal state is a leaf)."""
    if depth == 0 or state.is_terminal():
        return 1
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(spiel_perft(state.child(action), depth - 1) for action in actions)


def find_cc(name: str | None = None) -> str | None:
    """The path of the C compiler ``name``, or of the first of :data:`C_COMPILERS` on
    ``PATH`` when ``name`` is None; None when there is none."""
    for candidate in (name,) if name else C_COMPILERS:
        path = shutil.which(candidate)
        if path:
            return path
    return None


def compile_c(cc: str, folder: str | Path, cflags: str = "-O2") -> Path:
    """Compiles :data:`C_SOURCE` with ``cc`` and ``cflags`` into ``folder``; the program's path.
    Raises :class:`subprocess.CalledProcessError` when the compiler fails."""
    exe = Path(folder) / "connect_four_perft"
    subprocess.run([cc, *shlex.split(cflags), "-o", str(exe), str(C_SOURCE)], check=True, capture_output=True, text=True)
    return exe


def run_c(exe: str | Path, depth: int, repeats: int = 1) -> dict[int, tuple[int, float]]:
    """The C program's ``{depth: (leaves, best seconds)}`` for depths 1..``depth`` (``repeats``
    0: ``{depth: (leaves, 0.0)}``, one untimed perft at ``depth`` alone)."""
    out = subprocess.run([str(exe), str(depth), str(repeats)], check=True, capture_output=True, text=True).stdout
    table: dict[int, tuple[int, float]] = {}
    for line in out.split("\n"):
        if line.strip():
            d, leaves, seconds = line.split()
            table[int(d)] = (int(leaves), float(seconds))
    return table


def load() -> str:
    """The 1-, 5- and 15-minute load averages, as ``a/b/c``."""
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


#: The two sides of a record, each a parameter ``perft`` of its figures.
ENGINE, C_PROGRAM = "donuts_ai engine", "plain C bitboard"


def figure_name(side: str, depth: int) -> str:
    return f"{side}, connect four, perft depth {depth} from the empty board"


def figures(depth: int, cc: str, cflags: str, repeats: int) -> list[Any]:
    """The record's figures: the engine's perft at ``depth`` and the C program's, ``repeats``
    timings each, seconds a leaf (:func:`donuts_ai.bench.record.measure_work`, warm-up and calibration off the
    clock). The C program is one process a call (``DEPTH 0``: one perft at that depth alone,
    untimed by itself): its start (about a millisecond) is in its figure, under 1% of a
    perft at depth 10 (0.18 s)."""
    from donuts_ai.bench.record import measure_work
    from donuts_ai.connect_four import kernels as K

    start = K.as_position(*K.start())
    out = [measure_work(figure_name(ENGINE, depth), "leaf", lambda: int(K.perft(0, start, depth)), repeats,
                        {"perft": ENGINE, "depth": depth})]
    with tempfile.TemporaryDirectory(prefix="c4perft-") as folder:
        exe = compile_c(cc, folder, cflags)
        out.append(measure_work(figure_name(C_PROGRAM, depth), "leaf", lambda: run_c(exe, depth, 0)[depth][0],
                                repeats, {"perft": C_PROGRAM, "depth": depth, "cflags": cflags}, threads=0))
    return out


def ratios(suite: Any) -> list[tuple[str, float, float, float]]:
    """(name, the engine's leaves a second over the C program's, low, high)."""
    from donuts_ai.bench import compare

    by_perft = {b.get_runs()[0].get_metadata().get("param_perft"): b for b in suite}
    if ENGINE in by_perft and C_PROGRAM in by_perft:
        return [("engine / plain C bitboard: leaves a second", *compare.speed_within(by_perft[C_PROGRAM], by_perft[ENGINE]))]
    return []


def record(args: argparse.Namespace, parser: argparse.ArgumentParser, argv: list[str] | None) -> int:
    """``--json``: the record of the engine's perft beside the C program's at ``--engine-depth``,
    after checking their counts agree at every depth to it (in the first process only)."""
    from donuts_ai.bench import runs, tables

    cc = find_cc(args.cc)
    if cc is None:
        parser.error(f"a record needs a C compiler ({args.cc or ' or '.join(C_COMPILERS)}) on PATH")
    depth = args.engine_depth
    if not args.record_run:
        from donuts_ai.connect_four import kernels as K

        start = K.as_position(*K.start())
        with tempfile.TemporaryDirectory(prefix="c4perft-") as folder:
            table = run_c(compile_c(cc, folder, args.cflags), depth, 1)
        wrong = [d for d in range(1, depth + 1) if table[d][0] != int(K.perft(0, start, d))]
        if wrong:
            print(f"the C program's counts differ from the engine's at depths {wrong}", file=sys.stderr)
            return 1
        print(f"counts: the engine and the C program agree at depths 1..{depth}", file=sys.stderr)
    settings = f"depth={depth} repeats={args.repeats} cc={Path(cc).name} cflags={args.cflags.replace(' ', '_')}"
    return runs.record_main(parser, args, argv, "benchmarks.connect_four_perft",
                            lambda: (figures(depth, cc, args.cflags, args.repeats), settings),
                            lambda suite: tables.record_text(suite, ratios(suite)))


def main(argv: list[str] | None = None) -> int:
    from donuts_ai.bench import runs

    ap = argparse.ArgumentParser(prog="python -m benchmarks.connect_four_perft", description=__doc__.splitlines()[0])
    ap.add_argument("--depth", type=int, default=8, help="compare with OpenSpiel to this depth (default 8; 0 skips it)")
    ap.add_argument("--engine-depth", type=int, default=10, help="time the engine alone to this depth (default 10)")
    ap.add_argument("--repeats", type=int, default=5,
                    help="timings of each engine depth, the best kept (--json: a figure's repeats a run; default 5)")
    ap.add_argument("--no-c", action="store_true", help="skip the C bitboard perft")
    ap.add_argument("--cc", default=None, help="the C compiler (default: cc, gcc or clang, the first on PATH)")
    ap.add_argument("--cflags", default="-O2", help='flags for the C compiler, as one word: --cflags="-O2 -march=native" (default -O2)')
    runs.add_record_options(ap)
    args = ap.parse_args(argv)
    if args.json or args.record_run:
        return record(args, ap, argv)

    from donuts_ai.connect_four import kernels as K

    start = K.as_position(*K.start())
    K.perft(0, start, 2)  # compile (or load) before timing
    agree = True
    if args.depth > 0:
        import pyspiel

        game = pyspiel.load_game("connect_four")
        print(f"{'depth':>5} {'engine':>12} {'OpenSpiel':>12} {'same':>5} {'engine s':>9} {'OpenSpiel s':>11}")
        for depth in range(1, args.depth + 1):
            t0 = time.perf_counter()
            ours = int(K.perft(0, start, depth))
            t1 = time.perf_counter()
            theirs = spiel_perft(game.new_initial_state(), depth)
            t2 = time.perf_counter()
            agree &= ours == theirs
            print(f"{depth:>5} {ours:>12,} {theirs:>12,} {'yes' if ours == theirs else 'NO':>5} {t1 - t0:>9.4f} {t2 - t1:>11.2f}")

    print(f"\nthe engine, best of {args.repeats}:")
    print(f"{'depth':>5} {'leaves':>14} {'seconds':>9} {'leaves/s':>14} {'load 1/5/15 min':>16}")
    engine: dict[int, tuple[int, float, str]] = {}
    for depth in range(1, args.engine_depth + 1):
        best, leaves = float("inf"), 0
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            leaves = int(K.perft(0, start, depth))
            best = min(best, time.perf_counter() - t0)
        engine[depth] = (leaves, best, load())
        print(f"{depth:>5} {leaves:>14,} {best:>9.4f} {leaves / best:>14,.0f} {engine[depth][2]:>16}")

    if args.no_c or args.engine_depth < 1:
        return 0 if agree else 1
    cc = find_cc(args.cc)
    if cc is None:
        wanted = args.cc or " or ".join(C_COMPILERS)
        print(f"\nthe C bitboard: skipped, no C compiler ({wanted}) on PATH (give one with --cc, or --no-c)")
        return 0 if agree else 1
    with tempfile.TemporaryDirectory(prefix="c4perft-") as folder:
        try:
            exe = compile_c(cc, folder, args.cflags)
        except subprocess.CalledProcessError as error:
            print(f"\nthe C bitboard: {cc} {args.cflags} failed:\n{error.stderr}")
            return 1
        c_table = run_c(exe, args.engine_depth, args.repeats)
        c_load = load()
    print(f"\nthe C bitboard ({C_SOURCE.name}, {cc} {args.cflags}), best of {args.repeats}:")
    print(f"{'depth':>5} {'engine':>14} {'C':>14} {'same':>5} {'C seconds':>9} {'C leaves/s':>14}")
    for depth in range(1, args.engine_depth + 1):
        ours = engine[depth][0]
        theirs, seconds = c_table.get(depth, (-1, float("nan")))
        agree &= ours == theirs
        rate = f"{theirs / seconds:>14,.0f}" if seconds > 0 else f"{'-':>14}"
        print(f"{depth:>5} {ours:>14,} {theirs:>14,} {'yes' if ours == theirs else 'NO':>5} {seconds:>9.4f} {rate}")
    depth = args.engine_depth
    leaves, ours_s, ours_load = engine[depth]
    c_s = c_table[depth][1] if depth in c_table else float("nan")
    if c_s > 0:
        ours_rate, c_rate = leaves / ours_s, leaves / c_s
        print(
            f"\ndepth {depth}: the engine {ours_rate:,.0f} leaves/s (load {ours_load}), "
            f"C ({args.cflags}) {c_rate:,.0f} leaves/s (load {c_load}); engine / C = {ours_rate / c_rate:.2f}"
        )
    else:
        print(f"\ndepth {depth}: the C program's time is below its clock's resolution; no ratio")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
