"""``donuts-ai bench``: search and engine speed on this machine.

Measures random playouts (one core and all cores), perft leaves, alpha-beta nodes at a
fixed depth, MCTS iterations (one worker and one a core), the solver's time on a fixed
set of layouts from the empty board, the batched environment's steps
(:class:`~donuts_ai.VectorEnv` with random legal actions, beside the PettingZoo
environment's when it is installed), the pure-Python reference's playouts, Donut Boxes
(:mod:`donuts_ai.bench.boxes`), and (not with ``--quick``) compile and cached start-up
times. Warm-up calls keep compilation out.

The figures are measured in ``--runs`` independent processes (5 by default), each making
every figure's repeats, and kept as a record in pyperf's format
(:mod:`donuts_ai.bench.record`; ``--json FILE``): seconds per unit of work, every value,
the machine, the load, the commit. The table gives each figure's rate with its 95%
interval over the runs, and the ratios derived from the stored times (the engine over the
reference, all cores over one). ``donuts-ai bench compare OLD NEW`` compares two records
(:mod:`donuts_ai.bench.compare`). ``--quick`` takes about a minute and a half on an idle
2-core machine (5 runs of about 18 s, each figure's repeats lasting at least 100 ms).
Benchmarks are not tests: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._argparse import OneLineParser
from .._checks import check_int, check_seconds
from ..donuts import kernels as K
from ..donuts import reference as ref
from ..donuts.agents.mcts import MCTSAgent
from ..donuts.alphabeta import Solver, new_table, new_workspace, search_moves
from ..donuts.board import Board
from ..donuts.layout import Layout
from ..donuts.playouts import perft, random_playouts
from ..donuts.vector_env import VectorEnv
from ..errors import DonutsError
from ..tournament import get_game, resolve
from ..tournament.records import game_source
from . import compare, record, runs, tables
from .agents import (
    DEFAULT_POSITIONS,
    DEFAULT_SEED,
    DEFAULT_TIME,
    GAME,
    agent_figures,
    agent_report_of,
    agent_settings,
    agent_speed,
)
from .record import (
    MCTS_1,
    MCTS_ALL,
    MIN_REPEAT_SECONDS,
    PLAYOUTS_1,
    PLAYOUTS_ALL,
    REFERENCE_PLAYOUTS,
    Figure,
    alphabeta_name,
    measure_work,
    perft_name,
    pettingzoo_name,
    solver_name,
    vector_env_name,
)

GAME_SNIPPET = (
    "import random; from donuts_ai import Board; b=Board(); r=random.Random(1)\n"
    "while not b.is_game_over(): b.push(r.choice(b.legal_moves()))\n"
)
ALL_KERNELS_SNIPPET = GAME_SNIPPET + (
    "from donuts_ai import Layout, perft, random_playouts, solve\n"
    "from donuts_ai.donuts.agents import MCTSAgent, AlphaBetaAgent\n"
    "perft(Board(), 3); random_playouts(Layout.standard(), 10, seed=1); random_playouts(Layout.standard(), 10, seed=1, parallel=True)\n"
    "MCTSAgent(simulations=10); AlphaBetaAgent(depth=2)\n"
)
#: Games of the batched environment's benchmark (its target: 5 million steps/s at this size, one core).
VECTOR_ENV_GAMES = 4096
#: The solver's fixed set: layouts whose empty board solves in well under a second.
SOLVER_LAYOUTS = [0, 1, 4, 10, 11]


#: The groups of figures, in the order they are measured; ``--only GROUP`` measures some.
GROUPS = ("playouts", "perft", "reference", "alphabeta", "mcts", "solver", "vector_env", "pettingzoo", "boxes", "startup")
#: Runs (independent processes) a record is made of, unless ``--runs`` says otherwise.
DEFAULT_RUNS = 5
#: Repeats a run makes of each figure: with --quick, and without.
QUICK_REPEATS, FULL_REPEATS = 3, 5


def startup_times() -> list[Figure]:
    """Fresh ``python -c`` processes with an empty, then a warm, Numba cache directory: one
    value each."""
    out: list[Figure] = []
    for name, snippet in (("play a game", GAME_SNIPPET), ("every kernel", ALL_KERNELS_SNIPPET)):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            for label in ("first run, compiling", "second run, cached kernels"):
                t = time.perf_counter()
                subprocess.run([sys.executable, "-c", snippet], env=env, check=True, capture_output=True)
                seconds = time.perf_counter() - t
                out.append(Figure(f"start-up, {name}, {label}", "start", [seconds], duration=seconds))
    return out


def alphabeta_speed(depth: int, repeats: int, min_seconds: float = MIN_REPEAT_SECONDS) -> Figure:
    """Seconds a node of the alpha-beta kernel at a fixed depth from six early positions.

    Args:
        depth: the search depth.
        repeats: the repeats measured.
        min_seconds: the least time a repeat lasts.

    Returns:
        The figure (``params["nodes"]``: the nodes of one search of the six).
    """
    rng = random.Random(1)
    positions = []
    for seed in range(6):
        board = Board(Layout.random_grid(100 + seed))
        for _ in range(4):
            board.push(rng.choice(board.legal_moves()))
        positions.append(board)

    # One table per position, allocated and touched before the clock starts (allocating
    # and faulting in 24 MB is not search), and cleared off the clock before every search.
    tables = [new_table(20) for _ in positions]

    def clear() -> None:
        for tt in tables:
            tt.fill(0)

    def work() -> int:
        nodes = 0
        for board, tt in zip(positions, tables, strict=True):
            game, pos = K.rulebook(board), K.position(board)
            _, _, n, _ = search_moves(game, pos, depth, tt, new_workspace(), 1 << 62, -1)
            nodes += int(n)
        return nodes

    clear()
    nodes = work()
    return measure_work(alphabeta_name(depth), "node", work, repeats, {"nodes": nodes}, prepare=clear,
                        min_seconds=min_seconds)


def mcts_speed(iterations: int, workers: int, repeats: int, min_seconds: float = MIN_REPEAT_SECONDS) -> Figure:
    """Seconds an MCTS iteration from the empty standard board (the tree search alone).

    Args:
        iterations: the iterations of one search.
        workers: the threads searching.
        repeats: the repeats measured.
        min_seconds: the least time a repeat lasts.

    Returns:
        The figure.
    """
    agent = MCTSAgent(simulations=iterations, workers=workers, seed=1, reuse=False, proof_share=0)
    board = Board(Layout.standard())

    def work() -> int:
        agent.select_move(board)
        done: int = agent.last_info["iterations"]
        return done

    name = MCTS_1 if workers == 1 else MCTS_ALL
    return measure_work(name, "iteration", work, repeats, {"iterations": iterations, "workers": workers}, threads=workers,
                        min_seconds=min_seconds)


def vector_env_speed(num_envs: int, batches: int, repeats: int, min_seconds: float = MIN_REPEAT_SECONDS) -> list[Figure]:
    """Seconds an environment step of :class:`~donuts_ai.VectorEnv` (one core: the kernels
    are serial) with uniformly random legal actions (:meth:`VectorEnv.random_actions`,
    drawn in compiled code), on a fresh random tile arrangement every game; once without
    reading the observations, once reading them after every step (what a learner does;
    they are computed when read)."""
    env = VectorEnv(num_envs, layout="random", seed=1)

    def steps() -> int:
        for _ in range(batches):
            env.step(env.random_actions())
        return batches * num_envs

    def steps_read() -> int:
        for _ in range(batches):
            env.step(env.random_actions())
            _ = env.observation
        return batches * num_envs

    params: dict[str, int | float | str] = {"num_envs": num_envs, "batches": batches}
    return [measure_work(vector_env_name(num_envs), "step", steps, repeats, params, min_seconds=min_seconds),
            measure_work(vector_env_name(num_envs, observation=True), "step", steps_read, repeats, params,
                         min_seconds=min_seconds)]


def pettingzoo_figures(repeats: int, min_seconds: float = MIN_REPEAT_SECONDS) -> list[Figure]:
    """Seconds a step of the PettingZoo environment, wrapped as
    :func:`~donuts_ai.interop.pettingzoo.env` gives it and raw, with uniformly random legal
    actions (drawn from the action mask) on a fresh random tile arrangement every game: the
    record's figures named as ``donuts-ai bench``'s, each measured by
    :func:`~donuts_ai.bench.record.measure_work` (a call plays one game; repeats of at
    least ``min_seconds``); none when PettingZoo is not installed."""
    try:
        from ..interop.pettingzoo import env, raw_env
    except ImportError:
        return []
    out = []
    for name, make in (("env", env), ("raw_env", raw_env)):
        e = make(layout="random")
        e.reset(seed=0)
        rng = np.random.default_rng(0)

        def one_game(e: Any = e, rng: np.random.Generator = rng) -> int:
            e.reset()
            steps = 0
            for _agent in e.agent_iter():
                obs, _, termination, truncation, _ = e.last()
                if termination or truncation:
                    action = None
                else:
                    action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
                    steps += 1
                e.step(action)
            return steps

        out.append(measure_work(pettingzoo_name(name), "step", one_game, repeats, min_seconds=min_seconds))
    return out


def solver_speed(seeds: list[int], distance: bool, repeats: int, min_seconds: float = MIN_REPEAT_SECONDS) -> list[Figure]:
    """Seconds a solve of the empty board of ``Layout.random_grid(seed)`` for each seed (a
    fresh solver each time); its value, move and nodes as parameters."""
    Solver(tt_bits=12).solve(Board(Layout.random_grid(10**6)), distance=False)  # warm-up
    out = []
    for seed in seeds:
        params: dict[str, int | float | str] = {}

        def work(seed: int = seed, params: dict[str, int | float | str] = params) -> int:
            sol = Solver(book=False).solve(Board(Layout.random_grid(seed)), distance=distance)
            params.update({"value": str(sol.result), "move": str(sol.best_move), "nodes": int(sol.nodes)})
            if distance and sol.distance is not None:
                params["distance"] = int(sol.distance)
            return 1

        figure = measure_work(solver_name(f"random_grid({seed})", distance), "solve", work, repeats, min_seconds=min_seconds)
        figure.params = params
        out.append(figure)
    return out


def measured_groups(quick: bool = False, startup: bool | None = None, only: Sequence[str] | None = None) -> set[str]:
    """The groups :func:`measure` measures: ``only`` (every group of :data:`GROUPS` when
    empty), ``startup`` as ``startup`` says; left to ``None``, without it under ``quick``
    unless ``only`` names it. :class:`DonutsError` for an unknown group."""
    groups = set(GROUPS if not only else only)
    unknown = groups - set(GROUPS)
    if unknown:
        raise DonutsError(f"unknown figure group {sorted(unknown)[0]!r} (the groups: {', '.join(GROUPS)})")
    if startup is not None:
        return groups | {"startup"} if startup else groups - {"startup"}
    if quick and not only:  # a group asked for by name is measured, --quick or not
        groups.discard("startup")
    return groups


def measure(quick: bool = False, startup: bool | None = None, full_solve: bool = False,
            only: Sequence[str] | None = None, *, min_seconds: float = MIN_REPEAT_SECONDS) -> list[Figure]:
    """One run of ``donuts-ai bench`` in this process: every figure, after a warm-up each.

    Args:
        quick: :data:`QUICK_REPEATS` repeats a figure and smaller workloads, else
            :data:`FULL_REPEATS`.
        startup: whether to time start-ups (None: unless ``quick``, where ``only`` does not
            name them).
        full_solve: whether to time full solves of the empty boards too.
        only: the groups to measure (from :data:`GROUPS`; None: all).
        min_seconds: the least time a repeat lasts
            (:func:`~donuts_ai.bench.record.measure_work`).

    Returns:
        The figures.
    """
    groups = measured_groups(quick, startup, only)
    repeats = QUICK_REPEATS if quick else FULL_REPEATS
    layout = Layout.standard()
    random_playouts(layout, 10, seed=0)
    random_playouts(layout, 10, seed=0, parallel=True)
    perft(Board(layout), 3)
    figures: list[Figure] = []
    if "playouts" in groups:
        n_games = 100_000 if quick else 1_000_000
        cores = os.cpu_count() or 1
        figures.append(measure_work(PLAYOUTS_1, "playout", lambda: random_playouts(layout, n_games, seed=1).n_games,
                                    repeats, {"games": n_games}, min_seconds=min_seconds))
        figures.append(measure_work(PLAYOUTS_ALL, "playout",
                                    lambda: random_playouts(layout, n_games, seed=1, parallel=True).n_games,
                                    repeats, {"games": n_games, "cores": cores}, threads=cores,
                                    min_seconds=min_seconds))
    if "perft" in groups:
        depth = 6 if quick else 8
        leaves = perft(Board(layout), depth)
        figures.append(measure_work(perft_name(depth), "leaf", lambda: perft(Board(layout), depth), repeats,
                                    {"leaves": leaves}, min_seconds=min_seconds))
    if "reference" in groups:
        ref_games = 20 if quick else 300

        def reference_games() -> int:
            ref.random_playouts(layout, ref_games, seed=1)
            return ref_games

        figures.append(measure_work(REFERENCE_PLAYOUTS, "playout", reference_games, repeats, {"games": ref_games},
                                    min_seconds=min_seconds))
    if "alphabeta" in groups:
        figures.append(alphabeta_speed(9 if quick else 14, repeats, min_seconds))
    if "mcts" in groups:
        for workers in (1, os.cpu_count() or 1):
            figures.append(mcts_speed(20_000 if quick else 200_000, workers, repeats, min_seconds))
    if "solver" in groups:
        figures += solver_speed(SOLVER_LAYOUTS[:2] if quick else SOLVER_LAYOUTS, False, repeats, min_seconds)
        if full_solve:
            figures += solver_speed(SOLVER_LAYOUTS, True, 1, min_seconds)
    if "vector_env" in groups:
        figures += vector_env_speed(VECTOR_ENV_GAMES, 50 if quick else 250, repeats, min_seconds)
    if "pettingzoo" in groups:
        figures += pettingzoo_figures(repeats, min_seconds)
    if "boxes" in groups:
        from . import boxes as boxes_bench  # the second game: random games/s, ISMCTS iterations/s

        figures += boxes_bench.figures(quick, min_seconds)
    if "startup" in groups:
        figures += startup_times()
    return figures


def settings_text(quick: bool, full_solve: bool, only: Sequence[str] | None) -> str:
    """The settings of a run as the record keeps them."""
    parts = ["quick" if quick else "full"]
    if full_solve:
        parts.append("full-solve")
    if only:
        parts.append("only " + "+".join(only))
    return ", ".join(parts)


def run(quick: bool = False, full_solve: bool = False, runs: int = DEFAULT_RUNS, only: Sequence[str] | None = None,
        progress: Callable[[str], None] | None = None) -> Any:
    """``donuts-ai bench``: the figures of :func:`measure` in independent processes.

    Args:
        quick: the quick settings (see :func:`measure`).
        full_solve: whether to time full solves of the empty boards too.
        runs: the processes, one after the other.
        only: the groups to measure (None: all).
        progress: called with a line of progress (None: silent).

    Returns:
        The record, a pyperf suite (:mod:`donuts_ai.bench.record`).
    """
    runs = check_int("runs", runs, minimum=1)
    argv = [*(["--quick"] if quick else []), *(["--full-solve"] if full_solve else []),
            *[f"--only={group}" for group in only or ()]]
    return record.run_processes("donuts_ai.bench", argv, runs, progress)


def report(suite: Any) -> str:
    """A record of ``donuts-ai bench`` as a table.

    Args:
        suite: the record (a pyperf suite).

    Returns:
        Each figure's rate over all runs, with its 95% interval over the runs, and the
        ratios derived from the stored times.
    """
    return tables.record_text(suite, tables.derived_ratios(suite))


def _parser(prog: str) -> argparse.ArgumentParser:
    parser = OneLineParser(prog=prog, description=__doc__.splitlines()[0],
                                     epilog=f"{prog} compare OLD NEW: see {prog} compare --help")
    parser.add_argument("--quick", action="store_true", help="small sizes, 3 repeats a run: about a minute and a half")
    parser.add_argument("--full-solve", action="store_true", help="also solve the exact distances (slow)")
    parser.add_argument("--only", metavar="GROUP", action="append", choices=GROUPS,
                        help=f"measure this group of figures only (repeatable): {', '.join(GROUPS)}")
    parser.add_argument("--agent", metavar="SPEC", action="append",
                        help="measure this agent (repeatable) beside our alpha-beta and MCTS, instead of the engine figures")
    parser.add_argument("--time", type=float, default=None,
                        help=f"with --agent: seconds a move for specs that set none (default {DEFAULT_TIME:g})")
    parser.add_argument("--positions", type=int, default=None, help=f"with --agent: positions to measure on (default {DEFAULT_POSITIONS})")
    parser.add_argument("--seed", type=int, default=None, help=f"with --agent: the seed of the positions (default {DEFAULT_SEED})")
    parser.add_argument("--game", metavar="GAME", default=None,
                        help="with --agent: measure on this game's positions (default donuts), the agents built for it: a "
                             "registered game (donuts, boxes, connect-four) or module:name of a game of your own, whose module is "
                             "imported first (examples.connect_four:connect-four-python); the engine figures and their options "
                             "(--quick, --full-solve, --only) are Donuts'")
    runs.add_record_options(parser, DEFAULT_RUNS)
    return parser


#: The options that choose the engine figures: they are Donuts' (the kernels, searches and
#: environments of Donuts, Donut Boxes' figures among them), never another game's, and no
#: agent's (``--agent`` measures agents instead).
DONUTS_ONLY = ("--quick", "--full-solve", "--only")


def _checked_game(args: argparse.Namespace, argv: list[str]) -> tuple[str, list[str]]:
    """The game of ``--game`` (its module imported: ``module:name``), and ``argv`` with the
    game named so that every run's process finds it (a game of one's own by the
    ``module:name`` that imports it). A game other than Donuts with no ``--agent`` is
    refused with one line (any game's ``--agent`` with an option of :data:`DONUTS_ONLY`, by
    :func:`main`)."""
    if args.game is None:
        return GAME, argv
    game = get_game(args.game)
    if game.name == GAME:
        return GAME, argv
    if not args.agent:
        raise DonutsError(f"--game {game.name} measures agents on its positions: give --agent SPEC (without --agent, "
                          "bench measures the engine figures, which are Donuts' own)")
    named = game_source(game, args.game) or args.game
    return game.name, [*runs.without_options(argv, ("--game",)), f"--game={named}"]


def main(argv: list[str] | None = None, prog: str = "donuts-ai bench") -> int:
    """``donuts-ai bench [...]`` and ``donuts-ai bench compare OLD NEW``.

    Args:
        argv: the arguments (default: the command line's).
        prog: the command's name in messages.

    Returns:
        The exit status.
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["compare"]:
        return compare.main(argv[1:], prog=f"{prog} compare")
    parser = _parser(prog)
    args = parser.parse_args(argv)
    try:  # checked here, before any process starts
        game, argv = _checked_game(args, argv)
        if args.agent:
            engine_options = [o for o, v in zip(DONUTS_ONLY, (args.quick, args.full_solve, args.only), strict=True) if v]
            if engine_options:
                one = len(engine_options) == 1
                raise DonutsError(f"{', '.join(engine_options)} {'is' if one else 'are'} Donuts' engine figures' "
                                  f"{'option' if one else 'options'}, not for --agent: leave {'it' if one else 'them'} out")
            for spec in args.agent:
                resolve(spec, game)
            check_seconds("time", args.time, allow_none=True)
            check_int("positions", args.positions, minimum=1, allow_none=True)
        else:
            agent_options = [o for o, v in (("--time", args.time), ("--positions", args.positions), ("--seed", args.seed))
                             if v is not None]
            if agent_options:
                raise DonutsError(f"{', '.join(agent_options)} {'goes' if len(agent_options) == 1 else 'go'} with --agent "
                                  "(without it, bench measures the engine figures)")
    except DonutsError as exc:
        parser.exit(2, f"{prog}: error: {exc}\n")

    def measure_once() -> tuple[list[record.Figure], str]:
        if args.agent:
            bench = agent_speed(args.agent, DEFAULT_TIME if args.time is None else args.time,
                                DEFAULT_POSITIONS if args.positions is None else args.positions,
                                DEFAULT_SEED if args.seed is None else args.seed, game=game)
            return agent_figures(bench), agent_settings(bench)
        return (measure(args.quick, full_solve=args.full_solve, only=args.only),
                settings_text(args.quick, args.full_solve, args.only))

    return runs.record_main(parser, args, argv, "donuts_ai.bench", measure_once,
                              agent_report_of if args.agent else report)
