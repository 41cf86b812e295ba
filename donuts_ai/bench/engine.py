"""``donuts-ai bench`` (also ``python -m benchmarks``): search and engine speed on this machine.

Measures random playouts/s (one core and all cores), perft leaves/s, alpha-beta
nodes/s at a fixed depth, MCTS iterations/s, solver time and nodes for a fixed set of
layouts from the empty board, the batched environment's steps/s (:class:`~donuts_ai.VectorEnv`
with random legal actions, beside the PettingZoo environment's when it is installed), the speed-up of the Numba engine over the pure-Python
reference in the same run, and (not with ``--quick``) compile and cached start-up
times. Each figure is a median over repeats with min–max; warm-up calls keep
compilation out. ``--quick`` finishes in under a minute; ``--json FILE`` writes the
figures. Benchmarks are not tests: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

from .. import reference as ref
from .._engine.position import position_of, rulebook_of
from ..analysis import perft, random_playouts
from ..board import Board
from ..layout import Layout
from ..search.alphabeta import Solver
from ..search.alphabeta._negamax import search_moves
from ..search.alphabeta._table import new_table
from ..search.alphabeta._workspace import new_workspace
from ..search.mcts import MCTSAgent
from ..vector_env import VectorEnv
from ._report import machine, print_and_save

GAME_SNIPPET = (
    "import random; from donuts_ai import Board; b=Board(); r=random.Random(1)\n"
    "while not b.is_game_over(): b.push(r.choice(b.legal_moves()))\n"
)
ALL_KERNELS_SNIPPET = GAME_SNIPPET + (
    "from donuts_ai import Layout, perft, random_playouts, solve\n"
    "from donuts_ai.agents import MCTSAgent, AlphaBetaAgent\n"
    "perft(Board(), 3); random_playouts(Layout.standard(), 10, seed=1); random_playouts(Layout.standard(), 10, seed=1, parallel=True)\n"
    "MCTSAgent(iterations=10); AlphaBetaAgent(depth=2)\n"
)
#: Games of the batched environment's benchmark (its target: 5 million steps/s at this size, one core).
VECTOR_ENV_GAMES = 4096
#: The solver's fixed set: layouts whose empty board solves in well under a second.
SOLVER_LAYOUTS = [0, 1, 4, 10, 11]


def _stats(values: list[float]) -> dict:
    v = sorted(values)
    return {"median": statistics.median(v), "min": v[0], "max": v[-1], "repeats": len(v)}


def _rates(work_fn, repeats: int) -> dict:
    """Run ``work_fn`` (returns the work done) ``repeats`` times: rates per second."""
    rates = []
    for _ in range(repeats):
        t = time.perf_counter()
        work = work_fn()
        rates.append(work / (time.perf_counter() - t))
    return _stats(rates)


def startup_times() -> dict:
    """Fresh ``python -c`` processes with an empty, then a warm, Numba cache directory."""
    out = {}
    for name, snippet in (("game", GAME_SNIPPET), ("all_kernels", ALL_KERNELS_SNIPPET)):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            for label in ("compile_s", "cached_s"):
                t = time.perf_counter()
                subprocess.run([sys.executable, "-c", snippet], env=env, check=True, capture_output=True)
                out[f"{name}_{label}"] = time.perf_counter() - t
    return out


def alphabeta_speed(depth: int, repeats: int) -> dict:
    """Nodes/s of the alpha-beta kernel at a fixed depth from six early positions."""
    rng = random.Random(1)
    positions = []
    for seed in range(6):
        board = Board(Layout.random_grid(100 + seed))
        for _ in range(4):
            board.push(rng.choice(board.legal_moves()))
        positions.append(board)

    # One table per position, allocated and touched before the clock starts (allocating
    # and faulting in 24 MB is not search), and cleared between repeats.
    tables = [new_table(20) for _ in positions]

    def work():
        nodes = 0
        for board, tt in zip(positions, tables, strict=True):
            game, pos = rulebook_of(board.layout, board.rules), position_of(*board.kernel_state())
            _, _, n, _ = search_moves(game, pos, depth, tt, new_workspace(), 1 << 62, -1)
            nodes += int(n)
        return nodes

    def fresh_work():
        for tt in tables:
            tt.fill(0)
        t = time.perf_counter()
        nodes = work()
        return nodes, time.perf_counter() - t

    nodes, _ = fresh_work()  # warm-up
    rates = []
    for _ in range(repeats):
        n, seconds = fresh_work()
        rates.append(n / seconds)
    return {"depth": depth, "nodes": nodes, **_stats(rates)}


def mcts_speed(iterations: int, workers: int, repeats: int) -> dict:
    """MCTS iterations/s from the empty standard board (the tree search alone: no prover)."""
    agent = MCTSAgent(iterations=iterations, workers=workers, seed=1, reuse=False, proof_share=0)
    board = Board(Layout.standard())
    agent.select_move(board)  # warm-up

    def work():
        agent.select_move(board)
        return agent.last_info["iterations"]

    return {"workers": workers, "iterations": iterations, **_rates(work, repeats)}


def vector_env_speed(num_envs: int, batches: int, repeats: int) -> dict:
    """Environment steps/s of :class:`~donuts_ai.VectorEnv` (one core: the kernels are
    serial) with uniformly random legal actions (:meth:`VectorEnv.random_actions`, drawn
    in compiled code), on a fresh random tile arrangement every game; once without
    reading the observations, once reading them after every step (what a learner
    does; they are computed when read)."""
    env = VectorEnv(num_envs, layout="random", seed=1)
    env.step(env.random_actions())  # warm-up (compilation, caches)
    _ = env.observation

    def steps():
        for _ in range(batches):
            env.step(env.random_actions())
        return batches * num_envs

    def steps_read():
        for _ in range(batches):
            env.step(env.random_actions())
            _ = env.observation
        return batches * num_envs

    out = {"num_envs": num_envs, "batches": batches, "steps": _rates(steps, repeats),
           "steps_with_observation": _rates(steps_read, repeats)}
    out["ns_per_step"] = 1e9 / out["steps"]["median"]
    out["ns_per_step_with_observation"] = 1e9 / out["steps_with_observation"]["median"]
    return out


def pettingzoo_steps(seconds: float) -> dict | str:
    """The PettingZoo environment's steps/s (see :mod:`donuts_ai.bench.interop`), or why it
    was skipped."""
    try:
        from .interop import pettingzoo_speed

        with contextlib.redirect_stdout(io.StringIO()):  # its progress lines: the report says it all
            return pettingzoo_speed(seconds)
    except ImportError as exc:  # PettingZoo not installed, or no environment yet
        return f"skipped: {exc}"


def solver_speed(seeds: list[int], distance: bool) -> dict:
    """Solve the empty board of ``Layout.random_grid(seed)`` for each seed (fresh tables)."""
    Solver(tt_bits=12).solve(Board(Layout.random_grid(10**6)), distance=False)  # warm-up
    rows = []
    for seed in seeds:
        t = time.perf_counter()
        sol = Solver().solve(Board(Layout.random_grid(seed)), distance=distance)
        dt = time.perf_counter() - t
        rows.append({"layout": f"random_grid({seed})", "value": sol.result, "move": sol.best_move,
                     "distance": sol.distance, "seconds": dt, "nodes": sol.nodes, "nodes_per_s": sol.nodes / dt})
    return {"distance": distance, "rows": rows, "seconds": _stats([r["seconds"] for r in rows])}


def run(quick: bool = False, startup: bool | None = None, full_solve: bool = False) -> dict:
    repeats = 3 if quick else 7
    layout = Layout.standard()
    res: dict = {"machine": machine(), "quick": quick}
    random_playouts(layout, 10, seed=0)
    random_playouts(layout, 10, seed=0, parallel=True)
    perft(Board(layout), 3)
    n_games = 100_000 if quick else 1_000_000
    res["playouts_1core"] = _rates(lambda: random_playouts(layout, n_games, seed=1).n_games, repeats)
    res["playouts_all_cores"] = _rates(lambda: random_playouts(layout, n_games, seed=1, parallel=True).n_games, repeats)
    depth = 6 if quick else 8
    res["perft"] = {"depth": depth, "leaves": perft(Board(layout), depth),
                    **_rates(lambda: perft(Board(layout), depth), repeats)}
    ref_games = 30 if quick else 300

    def reference_games():
        ref.random_playouts(layout, ref_games, seed=1)
        return ref_games

    res["reference_playouts"] = _rates(reference_games, 3)
    res["speedup_vs_reference"] = res["playouts_1core"]["median"] / res["reference_playouts"]["median"]
    res["alphabeta"] = alphabeta_speed(9 if quick else 14, repeats)
    res["mcts_1"] = mcts_speed(20_000 if quick else 200_000, 1, repeats)
    res["mcts_all"] = mcts_speed(20_000 if quick else 200_000, os.cpu_count() or 1, repeats)
    res["solver"] = solver_speed(SOLVER_LAYOUTS[:2] if quick else SOLVER_LAYOUTS, distance=False)
    res["vector_env"] = vector_env_speed(VECTOR_ENV_GAMES, 50 if quick else 250, repeats)
    res["pettingzoo"] = pettingzoo_steps(1.0 if quick else 3.0)
    if full_solve:
        res["solver_distance"] = solver_speed(SOLVER_LAYOUTS, distance=True)
    from . import boxes as boxes_bench  # the second game: random games/s, ISMCTS iterations/s

    res["boxes"] = boxes_bench.run(quick)
    if startup if startup is not None else not quick:
        res["startup"] = startup_times()
    return res


def report(r: dict) -> str:
    m = r["machine"]
    lines = [f"machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, Numba {m['numba']}, NumPy {m['numpy']}",
             f"{'figure':44s} {'median':>14s}   (min – max)"]

    def row(name, d, unit, scale=1.0, fmt=",.0f"):
        lines.append(f"{name:44s} {d['median'] * scale:>14{fmt}}   ({d['min'] * scale:{fmt}} – {d['max'] * scale:{fmt}}) {unit}")

    row("random playouts, 1 core", r["playouts_1core"], "games/s")
    row(f"random playouts, all {m['cores']} cores", r["playouts_all_cores"], "games/s")
    row(f"perft depth {r['perft']['depth']} ({r['perft']['leaves']:,} leaves)", r["perft"], "leaves/s")
    row("pure-Python reference playouts, 1 core", r["reference_playouts"], "games/s", fmt=",.1f")
    lines.append(f"{'engine / reference (playouts)':44s} {r['speedup_vs_reference']:>14,.0f}x")
    a = r["alphabeta"]
    row(f"alpha-beta, depth {a['depth']} ({a['nodes']:,} nodes)", a, "nodes/s")
    row("MCTS iterations, 1 worker, empty board", r["mcts_1"], "iterations/s")
    row(f"MCTS iterations, {r['mcts_all']['workers']} workers, empty board", r["mcts_all"], "iterations/s")
    for key, title in (("solver", "value + best move"), ("solver_distance", "with exact distance")):
        if key not in r:
            continue
        s = r[key]
        lines.append(f"solver, empty board, {title}:")
        for x in s["rows"]:
            dist = "" if x["distance"] is None else f", distance {x['distance']}"
            lines.append(f"  {x['layout']:16s} {x['value']} {x['move']}{dist}: {x['seconds']:.3f} s, {x['nodes']:,} nodes "
                         f"({x['nodes_per_s'] / 1e6:.2f} M nodes/s)")
        row("  solver time per layout", s["seconds"], "s", fmt=".3f")
    if "vector_env" in r:
        v = r["vector_env"]
        row(f"VectorEnv, {v['num_envs']:,} games, random actions, 1 core", v["steps"], "steps/s")
        lines.append(f"{'  per step':44s} {v['ns_per_step']:>14,.0f} ns")
        row("  reading the observation after every step", v["steps_with_observation"], "steps/s")
        lines.append(f"{'  per step':44s} {v['ns_per_step_with_observation']:>14,.0f} ns")
    pz = r.get("pettingzoo")
    if isinstance(pz, str):
        lines.append(f"PettingZoo environment: {pz}")
    elif pz:
        for name, x in pz.items():
            lines.append(f"{'PettingZoo ' + name + ', random actions, 1 core':44s} {x['steps_per_s']:>14,.0f}   "
                         f"steps/s ({x['us_per_step'] * 1e3:,.0f} ns a step)")
    if "startup" in r:
        s = r["startup"]
        lines.append(f"{'play a game: first run (compiles)':44s} {s['game_compile_s']:>14.2f} s")
        lines.append(f"{'play a game: second run (cached kernels)':44s} {s['game_cached_s']:>14.2f} s")
        lines.append(f"{'all kernels: first run (compiles)':44s} {s['all_kernels_compile_s']:>14.2f} s")
        lines.append(f"{'all kernels: second run (cached)':44s} {s['all_kernels_cached_s']:>14.2f} s")
    if "boxes" in r:
        from . import boxes as boxes_bench

        lines += ["", *boxes_bench.report(r["boxes"]).splitlines()[1:]]  # its machine line is the one above
    return "\n".join(lines)


def main(argv: list[str] | None = None, prog: str = "donuts-ai bench") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, 3 repeats: under a minute")
    parser.add_argument("--full-solve", action="store_true", help="also solve the exact distances (slow)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    return print_and_save(run(args.quick, full_solve=args.full_solve), report, args.json)
