"""Engine speed: random playouts, perft, the reference, compile and cached start-up.

    python -m benchmarks.engine [--quick] [--json FILE]

Every figure is a median over repeats (min–max beside it), measured after a warm-up
call so compilation is excluded; compile and cold start-up are measured separately
in fresh processes with an empty (then a warm) Numba cache directory.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

from donuts_ai import Board, Layout, perft, random_playouts
from donuts_ai import reference as ref

GAME_SNIPPET = (
    "import random; from donuts_ai import Board; b=Board(); r=random.Random(1)\n"
    "while not b.is_game_over(): b.push(r.choice(b.legal_moves()))\n"
)
ALL_KERNELS_SNIPPET = GAME_SNIPPET + (
    "from donuts_ai import Layout, perft, random_playouts\n"
    "perft(Board(), 3); random_playouts(Layout.standard(), 10, seed=1); random_playouts(Layout.standard(), 10, seed=1, parallel=True)\n"
)


def _timed(fn, repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def _rate(work: float, times: list[float]) -> dict:
    rates = sorted(work / t for t in times)
    return {"median": statistics.median(rates), "min": rates[0], "max": rates[-1], "repeats": len(rates)}


def machine() -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    import numba

    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(), "numba": numba.__version__}


def startup_times() -> dict:
    """Seconds for fresh ``python -c`` processes: one that imports donuts_ai and plays a
    game through ``Board``, and one that also runs perft and serial and parallel
    playouts; each first with an empty Numba cache (compiles), then again (cached)."""
    out = {}
    for name, snippet in (("game", GAME_SNIPPET), ("all_kernels", ALL_KERNELS_SNIPPET)):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            for label in ("compile_s", "cached_s"):
                t = time.perf_counter()
                subprocess.run([sys.executable, "-c", snippet], env=env, check=True, capture_output=True)
                out[f"{name}_{label}"] = time.perf_counter() - t
    return out


def run(quick: bool = False) -> dict:
    layout = Layout.standard()
    repeats = 3 if quick else 7
    n_games = 200_000 if quick else 1_000_000
    results: dict = {"machine": machine(), "quick": quick}
    # Warm-up: compile every kernel before timing.
    random_playouts(layout, 10, seed=0)
    random_playouts(layout, 10, seed=0, parallel=True)
    perft(Board(layout), 3)

    times = _timed(lambda: random_playouts(layout, n_games, seed=1), repeats)
    results["playouts_per_s_1core"] = _rate(n_games, times)
    times = _timed(lambda: random_playouts(layout, n_games, seed=1, parallel=True), repeats)
    results["playouts_per_s_all_cores"] = _rate(n_games, times)

    depth = 7 if quick else 8
    leaves = perft(Board(layout), depth)
    times = _timed(lambda: perft(Board(layout), depth), repeats)
    results["perft"] = {"depth": depth, "leaves": leaves, **_rate(leaves, times)}

    ref_games = 100 if quick else 400
    times = _timed(lambda: ref.random_playouts(layout, ref_games, seed=1), 3 if quick else 5)
    results["reference_playouts_per_s"] = _rate(ref_games, times)
    results["speedup_vs_reference"] = results["playouts_per_s_1core"]["median"] / results["reference_playouts_per_s"]["median"]
    results["startup"] = startup_times()
    return results


def report(r: dict) -> str:
    m = r["machine"]
    lines = [
        f"machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, Numba {m['numba']}",
        "figure                              median        (min – max)",
    ]

    def row(name, d, unit):
        lines.append(f"{name:34s} {d['median']:>12,.0f}  ({d['min']:,.0f} – {d['max']:,.0f}) {unit}")

    row("random playouts, 1 core", r["playouts_per_s_1core"], "games/s")
    row("random playouts, all cores", r["playouts_per_s_all_cores"], "games/s")
    row(f"perft depth {r['perft']['depth']} ({r['perft']['leaves']:,} leaves)", r["perft"], "leaves/s")
    row("reference playouts, 1 core", r["reference_playouts_per_s"], "games/s")
    lines.append(f"{'engine / reference (playouts)':34s} {r['speedup_vs_reference']:>12,.0f}x")
    s = r["startup"]
    lines.append(f"{'play a game: first run (compiles)':34s} {s['game_compile_s']:>12.2f} s")
    lines.append(f"{'play a game: second run (cached)':34s} {s['game_cached_s']:>12.2f} s")
    lines.append(f"{'all kernels: first run (compiles)':34s} {s['all_kernels_compile_s']:>12.2f} s")
    lines.append(f"{'all kernels: second run (cached)':34s} {s['all_kernels_cached_s']:>12.2f} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.engine", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, fewer repeats")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    results = run(args.quick)
    print(report(results))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
