"""``python -m benchmarks.gumbel``: Gumbel's search against PUCT for the self-play.

Four measurements, each printed as a Markdown table (figures in ``benchmarks/RESULTS.md``, "Gumbel search"):

- ``speed``: simulations per second of ``BatchSearch.run`` (PUCT) and ``run_gumbel``
  (with and without the positions settled in one ply, with and without the prediction
  cache) on ``--games`` roots of the ``middlegame`` suite, with a dummy predictor (no
  network: the search's own cost) and with the shipped network (``--predictors``);
- ``cache``: the prediction cache's hit rate within one search, and over ``--moves``
  self-play moves of ``--games`` games (the network fixed, as between training steps);
- ``targets``: on the decided positions of the ``middlegame`` suite (``--positions``),
  how often the most probable square of each policy target keeps the solver's value:
  the raw policy, PUCT's visit distribution and Gumbel's completed-Q target, at each of
  ``--simulations``; and how often the square Gumbel plays keeps it;
- ``settled``: what treating the positions settled in one ply as terminal costs and buys.

    python -m benchmarks.gumbel --positions 100 --simulations 16 32
    python -m benchmarks.gumbel --only speed --runs 3 --json gumbel-speed.json

The speed measurement is made in ``--runs`` independent processes (3 by default), and
``--json FILE`` writes it as a pyperf record (:mod:`donuts_ai.bench.record`; ``python -m
pyperf stats FILE`` reads it): for each predictor and search, the seconds a simulation took
in each timed search of every root (work unit ``simulation``, a value a search:
:func:`speed_figures`), the network's share of the search time kept beside them as a
parameter; its table gives each search's simulations a second over all runs (each run's
median search; the table before the records gave the best search of one process). The
other measurements (hit rates, shares of positions, and the seconds they print beside
them) are not speed figures: printed only, in this process. Benchmarks are not tests:
nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from donuts_ai.bench import runs, tables
from donuts_ai.bench.record import Figure
from donuts_ai.donuts.rules import Rules
from donuts_ai.donuts.squares import NUM_SQUARES, SQUARE_NAMES
from donuts_ai.donuts.vector_env import VectorEnv
from donuts_ai.learn.agent import cached_network, root_record
from donuts_ai.learn.batched_search import (
    SOLVE_NODES,
    SOLVE_PLIES,
    BatchSearch,
    GumbelSettings,
    Predictor,
    SolveSettings,
    best_squares,
    masked_policy,
    network_predictor,
)
from donuts_ai.learn.buffer import legal_flags
from donuts_ai.learn.prediction_cache import PredictionCache
from donuts_ai.outcomes import DRAW
from donuts_ai.suites.format import SuitePosition, load_suite

#: The module the record's runs are started as.
MODULE = "benchmarks.gumbel"
#: The measurements, in the order they run (``--only`` picks some).
MEASUREMENTS = ["speed", "cache", "targets", "settled"]


def dummy(planes: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Equal logits, value 0: the search's cost without a network."""
    n = len(planes)
    return np.zeros((n, NUM_SQUARES), dtype=np.float32), np.zeros(n, dtype=np.float32)


class Counted:
    """A predictor that counts its seconds and positions."""

    def __init__(self, predictor: Predictor):
        self.predictor, self.seconds, self.positions = predictor, 0.0, 0

    def __call__(self, planes: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        start = time.perf_counter()
        out = self.predictor(planes)
        self.seconds += time.perf_counter() - start
        self.positions += len(planes)
        return out


def decided(count: int, suite: str = "middlegame") -> list[SuitePosition]:
    """``count`` decided positions of ``suite``, evenly spaced through it (a suite is ordered
    by ply: the first ones would all be of its first plies)."""
    found = [p for p in load_suite(suite).positions if p.value != DRAW]
    step = max(1, len(found) // max(count, 1))
    return found[::step][:count]


def roots_of(positions: list[SuitePosition]) -> np.ndarray:
    return np.concatenate([root_record(p.board()) for p in positions])


def run_one(kind: str, predictor: Predictor, roots: np.ndarray, simulations: int, seed: int = 0, **kwargs: Any) -> Any:
    """One search of every root: ``kind`` "puct" or "gumbel"."""
    g = len(roots)
    search = BatchSearch(g, simulations)
    args = (predictor, roots, np.ones(g, dtype=np.bool_), Rules())
    if kind == "puct":
        return search.run(*args)
    cache = kwargs.pop("cache", None)
    return search.run_gumbel(*args, gumbel=np.random.default_rng(seed), cache=cache, settings=gumbel_settings(**kwargs))


def gumbel_settings(solve: bool = True, solve_plies: int = SOLVE_PLIES, solve_nodes: int = SOLVE_NODES,
                    **kwargs: Any) -> GumbelSettings:
    """The settings of a variant: ``solve`` False for no exact solves, else theirs by
    ``solve_plies`` and ``solve_nodes``; the others :class:`GumbelSettings`' own."""
    return GumbelSettings(solve=SolveSettings(solve_plies, solve_nodes) if solve else None, **kwargs)


#: The searches the speed measurement times: (name, kind of :func:`run_one`, its keywords).
VARIANTS: list[tuple[str, str, dict[str, Any]]] = [
    ("PUCT", "puct", {}),
    ("Gumbel", "gumbel", {"solve": False}),
    ("Gumbel + settled in one ply", "gumbel", {"solve_plies": 0}),
    ("Gumbel + exact solves (<= 10 plies, 2000 nodes: the default)", "gumbel", {}),
    ("Gumbel + exact solves + cache", "gumbel", {"cache": True}),
    ("Gumbel + exact solves, first phase in rounds", "gumbel", {"batch_first_phase": False}),
]
#: The predictors the speed measurement times the searches with, by ``--predictors`` name:
#: their name in the tables, and the searches a run times each variant with (times ``--repeats``).
PREDICTORS = {"dummy": ("dummy", 3), "network": ("shipped network", 1)}


def speed_name(variant: str, predictor: str, games: int, simulations: int) -> str:
    """The record's name of the speed figure of ``variant`` with ``predictor`` (its table name)."""
    return f"{variant}, {predictor}, {games} games x {simulations} simulations"


def speed_figures(roots: np.ndarray, simulations: int, predictors: dict[str, Predictor], repeats: int) -> list[Figure]:
    """The speed figures of one run: for each predictor (by its table name: ``"dummy"`` is
    searched ``3 * repeats`` times, any other ``repeats`` times) and each of :data:`VARIANTS`,
    the seconds a simulation took in each search of every root (work unit ``simulation``, a
    value a search); the network's share of the search time (the mean over the searches),
    the games and the simulations as parameters."""
    out = []
    for label, predictor in predictors.items():
        tries = (3 if label == "dummy" else 1) * repeats
        for name, kind, kwargs in VARIANTS:
            values, shares = [], []
            for _ in range(tries):
                counted = Counted(predictor)
                extra = dict(kwargs)
                if extra.pop("cache", False):
                    extra["cache"] = PredictionCache(1 << 16)  # a fresh one: hits within the search only
                start = time.perf_counter()
                run_one(kind, counted, roots, simulations, **extra)
                seconds = time.perf_counter() - start
                values.append(seconds / (len(roots) * simulations))
                shares.append(counted.seconds / seconds)
            out.append(Figure(speed_name(name, label, len(roots), simulations), "simulation", values,
                              {"variant": name, "predictor": label, "games": len(roots), "simulations": simulations,
                               "network_share": round(float(np.mean(shares)), 4)}))
    return out


def measure_speed(games: int, simulations: int, repeats: int, predictors: list[str]) -> list[Figure]:
    """One run of the speed measurement (:func:`speed_figures`) on ``games`` roots of the
    ``middlegame`` suite with the predictors of ``predictors`` (:data:`PREDICTORS`' names),
    after compiling everything (the network at every batch size the searches use)."""
    chosen: dict[str, Predictor] = {}
    for key in PREDICTORS:
        if key in predictors:
            chosen[PREDICTORS[key][0]] = dummy if key == "dummy" else compiled_network(games)
    roots = roots_of(decided(games))
    for predictor in chosen.values():  # compile everything first
        run_one("gumbel", predictor, roots, 2)
        run_one("puct", predictor, roots, 2)
    return speed_figures(roots, simulations, chosen, repeats)


def speed_table(suite: Any) -> str:
    """The speed table of a record of this benchmark (Markdown): each search's simulations
    a second over all runs, and the network's share of its time (the mean over the runs)."""
    lines: list[str] = []
    for benchmark in suite:
        metas = [run.get_metadata() for run in benchmark.get_runs()]
        meta = metas[0]
        if not lines:
            lines = [f"### speed: {meta.get('param_games')} games x {meta.get('param_simulations')} simulations, "
                     f"{benchmark.get_nrun()} runs (a run: the median of its searches)", "",
                     "| search | predictor | simulations/s | network share |", "|---|---|---|---|"]
        share = np.mean([float(m.get("param_network_share", 0.0)) for m in metas])
        lines.append(f"| {meta.get('param_variant', benchmark.get_name())} | {meta.get('param_predictor', '')} | "
                     f"{tables.rate_interval(benchmark)[0]:,.0f} | {share:.0%} |")
    return "\n".join(lines)


def speed_report(suite: Any) -> str:
    """A record of the speed measurement: each figure's rate with its interval over the
    runs, then :func:`speed_table`."""
    return f"{tables.record_text(suite)}\n\n{speed_table(suite)}"


def cache_rates(network: Predictor, games: int, simulations: int, moves: int, seed: int) -> None:
    print(f"\n### cache: {games} self-play games, {simulations} simulations a move, {moves} moves, the network fixed\n")
    env = VectorEnv(games, layout="random", seed=seed)
    search = BatchSearch(games, simulations)
    rng = np.random.default_rng(seed)
    per_search = PredictionCache()
    across = PredictionCache()
    plain_seconds = cached_seconds = 0.0
    for _ in range(moves):
        games_now = env._games
        gumbel = rng.gumbel(size=(games, NUM_SQUARES)).astype(np.float32)
        args = (network, games_now, np.ones(games, dtype=np.bool_), Rules())
        per_search.clear()
        start = time.perf_counter()
        search.run_gumbel(*args, gumbel=gumbel, cache=per_search)
        plain_seconds += time.perf_counter() - start
        start = time.perf_counter()
        result = search.run_gumbel(*args, gumbel=gumbel, cache=across)
        cached_seconds += time.perf_counter() - start
        env.step(result.actions)
    print("| cache | hit rate | seconds (sum of the moves) |")
    print("|---|---|---|")
    print(f"| within each search (cleared every move) | {per_search.hit_rate:.1%} | {plain_seconds:.1f} |")
    print(f"| across moves (kept, {len(across)} positions at the end) | {across.hit_rate:.1%} | {cached_seconds:.1f} |")


def keeps(positions: list[SuitePosition], squares: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    return np.array([p.keeps(SQUARE_NAMES[int(s)]) for p, s in zip(positions, squares, strict=True)])


def targets(positions: list[SuitePosition], network: Predictor, simulations_list: list[int], seeds: int, suite: str) -> None:
    roots = roots_of(positions)
    legal = legal_flags(roots)
    critical = np.array([p.critical for p in positions])
    logits, _ = network(_planes(roots))
    rows: list[tuple[str, npt.NDArray[np.bool_]]] = [("raw policy", keeps(positions, masked_policy(logits, legal).argmax(1)))]
    for simulations in simulations_list:
        puct = run_one("puct", network, roots, simulations)
        rows.append((f"PUCT {simulations}: visits' argmax (ties: prior)", keeps(positions, best_squares(puct, legal))))
        for label, kwargs in (("Gumbel (min-max, c_scale 0.1)", {}), ("Gumbel, nothing settled", {"solve": False}),
                              ("Gumbel ([-1, 1], c_scale 1.0)", {"rescale": False, "c_scale": 1.0}),
                              ("Gumbel ([-1, 1], c_scale 0.3)", {"rescale": False, "c_scale": 0.3})):
            target, played = [], []
            for seed in range(seeds):
                result = run_one("gumbel", network, roots, simulations, seed=seed, **kwargs)
                target.append(keeps(positions, result.policy.argmax(1)))
                played.append(keeps(positions, result.actions))
            rows.append((f"{label} {simulations}: target's argmax", np.mean(target, axis=0)))
            rows.append((f"{label} {simulations}: action played", np.mean(played, axis=0)))
    print(f"\n### targets: {len(positions)} decided {suite} positions ({int(critical.sum())} critical), "
          f"Gumbel averaged over {seeds} seeds\n")
    print("| policy | keeps the value | on critical positions |")
    print("|---|---|---|")
    for name, flags in rows:
        print(f"| {name} | {np.mean(flags):.1%} | {np.mean(flags[critical]):.1%} |")


def settled(suites: list[str], count: int, network: Predictor, simulations: int) -> None:
    print(f"\n### settled: what the terminal nodes the game or the solver settles cost and buy ({simulations} simulations)\n")
    print("| suite | settled | target keeps | critical | action keeps | seconds | solves tried / settled / nodes |")
    print("|---|---|---|---|---|---|---|")
    variants: list[tuple[str, dict[str, Any]]] = [
        ("none", {"solve": False}), ("one ply", {"solve_plies": 0}),
        ("exact, <= 6 plies, 256 nodes", {"solve_plies": 6, "solve_nodes": 256}),
        ("exact, <= 10 plies, 2000 nodes", {"solve_plies": 10, "solve_nodes": 2000}),
    ]
    for suite in suites:
        positions = decided(count, suite)
        roots = roots_of(positions)
        critical = np.array([p.critical for p in positions])
        for name, kwargs in variants:
            g = len(roots)
            search = BatchSearch(g, simulations)
            start = time.perf_counter()
            result = search.run_gumbel(network, roots, np.ones(g, dtype=np.bool_), Rules(), gumbel=np.random.default_rng(0),
                                       settings=gumbel_settings(**kwargs))
            seconds = time.perf_counter() - start
            target, played = keeps(positions, result.policy.argmax(1)), keeps(positions, result.actions)
            tried, done, nodes = search.solves.sum(axis=0)
            print(f"| {suite} | {name} | {target.mean():.1%} | {target[critical].mean():.1%} | {played.mean():.1%} | "
                  f"{seconds:.2f} | {tried} / {done} / {nodes:,} |")


def _planes(roots: np.ndarray) -> npt.NDArray[np.float32]:
    from donuts_ai.learn.batched_search import root_planes

    return root_planes(roots, 15)


def compiled_network(*batches: int) -> Predictor:
    """The shipped network's predictor, compiled for every batch size the searches of
    ``batches`` games use (it compiles one program per batch size)."""
    network: Predictor = network_predictor(cached_network(None))
    size = 1
    while size <= 16 * max(batches):
        network(np.zeros((size, 6, 6, 13), dtype=np.float32))
        size *= 2
    for games in batches:
        network(np.zeros((games, 6, 6, 13), dtype=np.float32))
    return network


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.gumbel", description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--games", type=int, default=128)
    parser.add_argument("--simulations", type=int, nargs="+", default=[16, 32])
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--suites", nargs="+", default=["middlegame"], help="suites of the targets' positions")
    parser.add_argument("--repeats", type=int, default=2,
                        help="speed: searches a run times each variant with the network (3x that with the dummy)")
    parser.add_argument("--predictors", choices=list(PREDICTORS), nargs="+", default=list(PREDICTORS),
                        help="speed: the predictors the searches are timed with (default both)")
    parser.add_argument("--only", choices=MEASUREMENTS, nargs="*", default=None)
    runs.add_record_options(parser, printed_only="the network's share of each search (shown in the speed table) and the "
                                                 "cache, targets and settled measurements are")
    args = parser.parse_args(argv)
    only = set(args.only or MEASUREMENTS)
    if args.games < 1 or args.repeats < 1 or min(args.simulations) < 1:
        parser.error("--games, --repeats and --simulations must be at least 1")
    if args.json and "speed" not in only:
        parser.error("--json writes the record of the speed measurement: add speed to --only")
    simulations = max(args.simulations)
    if "speed" in only or args.record_run:
        settings = f"games={args.games} simulations={simulations} repeats={args.repeats} predictors={','.join(args.predictors)}"
        status = runs.record_main(parser, args, argv, MODULE,
                                  lambda: (measure_speed(args.games, simulations, args.repeats, args.predictors), settings),
                                  speed_report)
        if status or args.record_run:
            return status
        only.discard("speed")
    if not only:
        return 0
    network = compiled_network(args.games, args.positions)
    if "cache" in only:
        cache_rates(network, args.games, simulations, args.moves, seed=1)
    if "targets" in only:
        for suite in args.suites:
            targets(decided(args.positions, suite), network, args.simulations, args.seeds, suite)
    if "settled" in only:
        settled(["middlegame", "endgame"], args.positions, network, simulations)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
