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
from collections.abc import Callable
from typing import TYPE_CHECKING, NotRequired, TypedDict

from ..donuts import reference as ref
from ..donuts._engine.position import position_of, rulebook_of
from ..donuts.agents.mcts import MCTSAgent
from ..donuts.alphabeta import Solver
from ..donuts.alphabeta._negamax import search_moves
from ..donuts.alphabeta._table import new_table
from ..donuts.alphabeta._workspace import new_workspace
from ..donuts.board import Board
from ..donuts.layout import Layout
from ..donuts.playouts import perft, random_playouts
from ..donuts.vector_env import VectorEnv
from ..errors import DonutsError
from ._report import Machine, Stats, machine, print_and_save
from .agents import DEFAULT_POSITIONS, DEFAULT_SEED, DEFAULT_TIME, agent_report, agent_speed

if TYPE_CHECKING:  # imported when measured: each may be missing or slow to import
    from .boxes import BoxesBench
    from .interop import PettingZooFigures

GAME_SNIPPET = (
    "import random; from donuts_ai import Board; b=Board(); r=random.Random(1)\n"
    "while not b.is_game_over(): b.push(r.choice(b.legal_moves()))\n"
)
ALL_KERNELS_SNIPPET = GAME_SNIPPET + (
    "from donuts_ai import Layout, perft, random_playouts, solve\n"
    "from donuts_ai.donuts.agents import MCTSAgent, AlphaBetaAgent\n"
    "perft(Board(), 3); random_playouts(Layout.standard(), 10, seed=1); random_playouts(Layout.standard(), 10, seed=1, parallel=True)\n"
    "MCTSAgent(iterations=10); AlphaBetaAgent(depth=2)\n"
)
#: Games of the batched environment's benchmark (its target: 5 million steps/s at this size, one core).
VECTOR_ENV_GAMES = 4096
#: The solver's fixed set: layouts whose empty board solves in well under a second.
SOLVER_LAYOUTS = [0, 1, 4, 10, 11]


class PerftFigures(Stats):
    """Perft leaves/s at ``depth`` (``leaves`` leaves)."""

    depth: int
    leaves: int


class AlphaBetaFigures(Stats):
    """Alpha-beta nodes/s at ``depth`` (:func:`alphabeta_speed`)."""

    depth: int
    nodes: int


class MCTSFigures(Stats):
    """MCTS iterations/s with ``workers`` threads (:func:`mcts_speed`)."""

    workers: int
    iterations: int


class SolverRow(TypedDict):
    """One layout the solver solved (:func:`solver_speed`)."""

    layout: str
    value: str
    move: str
    distance: int | None
    seconds: float
    nodes: int
    nodes_per_s: float


class SolverFigures(TypedDict):
    """The solver on a fixed set of layouts (:func:`solver_speed`)."""

    distance: bool
    rows: list[SolverRow]
    seconds: Stats


class VectorEnvFigures(TypedDict):
    """The batched environment's steps/s (:func:`vector_env_speed`)."""

    num_envs: int
    batches: int
    steps: Stats
    steps_with_observation: Stats
    ns_per_step: float
    ns_per_step_with_observation: float


class EngineBench(TypedDict):
    """Every figure of ``donuts-ai bench`` (:func:`run`); ``solver_distance`` with
    ``full_solve``, ``startup`` when start-up times were measured."""

    machine: Machine
    quick: bool
    playouts_1core: Stats
    playouts_all_cores: Stats
    perft: PerftFigures
    reference_playouts: Stats
    speedup_vs_reference: float
    alphabeta: AlphaBetaFigures
    mcts_1: MCTSFigures
    mcts_all: MCTSFigures
    solver: SolverFigures
    vector_env: VectorEnvFigures
    pettingzoo: dict[str, PettingZooFigures] | str
    solver_distance: NotRequired[SolverFigures]
    boxes: BoxesBench
    startup: NotRequired[dict[str, float]]


def _stats(values: list[float]) -> Stats:
    v = sorted(values)
    return {"median": statistics.median(v), "min": v[0], "max": v[-1], "repeats": len(v)}


def _rates(work_fn: Callable[[], float], repeats: int) -> Stats:
    """Run ``work_fn`` (returns the work done) ``repeats`` times: rates per second."""
    rates = []
    for _ in range(repeats):
        t = time.perf_counter()
        work = work_fn()
        rates.append(work / (time.perf_counter() - t))
    return _stats(rates)


def startup_times() -> dict[str, float]:
    """Fresh ``python -c`` processes with an empty, then a warm, Numba cache directory."""
    out: dict[str, float] = {}
    for name, snippet in (("game", GAME_SNIPPET), ("all_kernels", ALL_KERNELS_SNIPPET)):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            for label in ("compile_s", "cached_s"):
                t = time.perf_counter()
                subprocess.run([sys.executable, "-c", snippet], env=env, check=True, capture_output=True)
                out[f"{name}_{label}"] = time.perf_counter() - t
    return out


def alphabeta_speed(depth: int, repeats: int) -> AlphaBetaFigures:
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

    def work() -> int:
        nodes = 0
        for board, tt in zip(positions, tables, strict=True):
            game, pos = rulebook_of(board.layout, board.rules), position_of(*board.kernel_state())
            _, _, n, _ = search_moves(game, pos, depth, tt, new_workspace(), 1 << 62, -1)
            nodes += int(n)
        return nodes

    def fresh_work() -> tuple[int, float]:
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


def mcts_speed(iterations: int, workers: int, repeats: int) -> MCTSFigures:
    """MCTS iterations/s from the empty standard board (the tree search alone: no prover)."""
    agent = MCTSAgent(iterations=iterations, workers=workers, seed=1, reuse=False, proof_share=0)
    board = Board(Layout.standard())
    agent.select_move(board)  # warm-up

    def work() -> int:
        agent.select_move(board)
        iterations: int = agent.last_info["iterations"]
        return iterations

    return {"workers": workers, "iterations": iterations, **_rates(work, repeats)}


def vector_env_speed(num_envs: int, batches: int, repeats: int) -> VectorEnvFigures:
    """Environment steps/s of :class:`~donuts_ai.VectorEnv` (one core: the kernels are
    serial) with uniformly random legal actions (:meth:`VectorEnv.random_actions`, drawn
    in compiled code), on a fresh random tile arrangement every game; once without
    reading the observations, once reading them after every step (what a learner
    does; they are computed when read)."""
    env = VectorEnv(num_envs, layout="random", seed=1)
    env.step(env.random_actions())  # warm-up (compilation, caches)
    _ = env.observation

    def steps() -> int:
        for _ in range(batches):
            env.step(env.random_actions())
        return batches * num_envs

    def steps_read() -> int:
        for _ in range(batches):
            env.step(env.random_actions())
            _ = env.observation
        return batches * num_envs

    rates, rates_read = _rates(steps, repeats), _rates(steps_read, repeats)
    return {"num_envs": num_envs, "batches": batches, "steps": rates, "steps_with_observation": rates_read,
            "ns_per_step": 1e9 / rates["median"], "ns_per_step_with_observation": 1e9 / rates_read["median"]}


def pettingzoo_steps(seconds: float) -> dict[str, PettingZooFigures] | str:
    """The PettingZoo environment's steps/s (see :mod:`donuts_ai.bench.interop`), or why it
    was skipped."""
    try:
        from .interop import pettingzoo_speed

        with contextlib.redirect_stdout(io.StringIO()):  # its progress lines: the report says it all
            return pettingzoo_speed(seconds)
    except ImportError as exc:  # PettingZoo not installed, or no environment yet
        return f"skipped: {exc}"


def solver_speed(seeds: list[int], distance: bool) -> SolverFigures:
    """Solve the empty board of ``Layout.random_grid(seed)`` for each seed (fresh tables)."""
    Solver(tt_bits=12).solve(Board(Layout.random_grid(10**6)), distance=False)  # warm-up
    rows: list[SolverRow] = []
    for seed in seeds:
        t = time.perf_counter()
        sol = Solver(book=False).solve(Board(Layout.random_grid(seed)), distance=distance)
        dt = time.perf_counter() - t
        rows.append({"layout": f"random_grid({seed})", "value": sol.result, "move": sol.best_move,
                     "distance": sol.distance, "seconds": dt, "nodes": sol.nodes, "nodes_per_s": sol.nodes / dt})
    return {"distance": distance, "rows": rows, "seconds": _stats([r["seconds"] for r in rows])}


def run(quick: bool = False, startup: bool | None = None, full_solve: bool = False) -> EngineBench:
    repeats = 3 if quick else 7
    layout = Layout.standard()
    computer = machine()
    random_playouts(layout, 10, seed=0)
    random_playouts(layout, 10, seed=0, parallel=True)
    perft(Board(layout), 3)
    n_games = 100_000 if quick else 1_000_000
    playouts_1core = _rates(lambda: random_playouts(layout, n_games, seed=1).n_games, repeats)
    playouts_all_cores = _rates(lambda: random_playouts(layout, n_games, seed=1, parallel=True).n_games, repeats)
    depth = 6 if quick else 8
    perft_figures: PerftFigures = {"depth": depth, "leaves": perft(Board(layout), depth),
                                   **_rates(lambda: perft(Board(layout), depth), repeats)}
    ref_games = 30 if quick else 300

    def reference_games() -> int:
        ref.random_playouts(layout, ref_games, seed=1)
        return ref_games

    reference_playouts = _rates(reference_games, 3)
    alphabeta = alphabeta_speed(9 if quick else 14, repeats)
    mcts_1 = mcts_speed(20_000 if quick else 200_000, 1, repeats)
    mcts_all = mcts_speed(20_000 if quick else 200_000, os.cpu_count() or 1, repeats)
    solver = solver_speed(SOLVER_LAYOUTS[:2] if quick else SOLVER_LAYOUTS, distance=False)
    vector_env = vector_env_speed(VECTOR_ENV_GAMES, 50 if quick else 250, repeats)
    pettingzoo = pettingzoo_steps(1.0 if quick else 3.0)
    solver_distance = solver_speed(SOLVER_LAYOUTS, distance=True) if full_solve else None
    from . import boxes as boxes_bench  # the second game: random games/s, ISMCTS iterations/s

    res: EngineBench = {
        "machine": computer, "quick": quick, "playouts_1core": playouts_1core, "playouts_all_cores": playouts_all_cores,
        "perft": perft_figures, "reference_playouts": reference_playouts,
        "speedup_vs_reference": playouts_1core["median"] / reference_playouts["median"],
        "alphabeta": alphabeta, "mcts_1": mcts_1, "mcts_all": mcts_all, "solver": solver, "vector_env": vector_env,
        "pettingzoo": pettingzoo, "boxes": boxes_bench.run(quick),
    }
    if solver_distance is not None:
        res["solver_distance"] = solver_distance
    if startup if startup is not None else not quick:
        res["startup"] = startup_times()
    return res


def report(r: EngineBench) -> str:
    m = r["machine"]
    lines = [f"machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, Numba {m['numba']}, NumPy {m['numpy']}",
             f"{'figure':44s} {'median':>14s}   (min – max)"]

    def row(name: str, d: Stats, unit: str, scale: float = 1.0, fmt: str = ",.0f") -> None:
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
    solvers = [("value + best move", r["solver"])]
    if "solver_distance" in r:
        solvers.append(("with exact distance", r["solver_distance"]))
    for title, s in solvers:
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
        for name, env_figures in pz.items():
            lines.append(f"{'PettingZoo ' + name + ', random actions, 1 core':44s} {env_figures['steps_per_s']:>14,.0f}   "
                         f"steps/s ({env_figures['us_per_step'] * 1e3:,.0f} ns a step)")
    if "startup" in r:
        t = r["startup"]
        lines.append(f"{'play a game: first run (compiles)':44s} {t['game_compile_s']:>14.2f} s")
        lines.append(f"{'play a game: second run (cached kernels)':44s} {t['game_cached_s']:>14.2f} s")
        lines.append(f"{'all kernels: first run (compiles)':44s} {t['all_kernels_compile_s']:>14.2f} s")
        lines.append(f"{'all kernels: second run (cached)':44s} {t['all_kernels_cached_s']:>14.2f} s")
    if "boxes" in r:
        from . import boxes as boxes_bench

        lines += ["", *boxes_bench.report(r["boxes"]).splitlines()[1:]]  # its machine line is the one above
    return "\n".join(lines)


def main(argv: list[str] | None = None, prog: str = "donuts-ai bench") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, 3 repeats: under a minute")
    parser.add_argument("--full-solve", action="store_true", help="also solve the exact distances (slow)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--agent", metavar="SPEC", action="append",
                        help="measure this agent (repeatable) beside our alpha-beta and MCTS, instead of the engine figures")
    parser.add_argument("--time", type=float, default=DEFAULT_TIME, help="with --agent: seconds a move for specs that set none")
    parser.add_argument("--positions", type=int, default=DEFAULT_POSITIONS, help="with --agent: positions to measure on")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="with --agent: the seed of the positions")
    args = parser.parse_args(argv)
    if args.agent:
        try:
            figures = agent_speed(args.agent, args.time, args.positions, args.seed)
        except DonutsError as exc:
            parser.exit(2, f"{prog}: error: {exc}\n")
        return print_and_save(figures, agent_report, args.json)
    return print_and_save(run(args.quick, full_solve=args.full_solve), report, args.json)
