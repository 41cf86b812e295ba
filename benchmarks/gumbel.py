"""``python -m benchmarks.gumbel``: Gumbel's search against PUCT for the self-play.

Four measurements, each printed as a Markdown table (figures in ``benchmarks/RESULTS.md``, "Gumbel search"):

- ``speed``: simulations per second of ``BatchSearch.run`` (PUCT) and ``run_gumbel``
  (with and without the positions settled in one ply, with and without the evaluation
  cache) on ``--games`` roots of the ``middlegame`` suite, with a dummy evaluator (no
  network: the search's own cost) and with the shipped network;
- ``cache``: the evaluation cache's hit rate within one search, and over ``--moves``
  self-play moves of ``--games`` games (the network fixed, as between training steps);
- ``targets``: on the decided positions of the ``middlegame`` suite (``--positions``),
  how often the most probable square of each policy target keeps the solver's value:
  the raw policy, PUCT's visit distribution and Gumbel's completed-Q target, at each of
  ``--sims``; and how often the square Gumbel plays keeps it;
- ``settled``: what treating the positions settled in one ply as terminal costs and buys.

    python -m benchmarks.gumbel --positions 100 --sims 16 32
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from donuts_ai.donuts.squares import NUM_SQUARES, SQUARE_NAMES
from donuts_ai.donuts.vector_env import VectorEnv
from donuts_ai.learn.agent import cached_network, root_record
from donuts_ai.learn.batched_search import BatchSearch, Evaluator, best_squares, masked_policy, network_evaluator
from donuts_ai.learn.buffer import legal_flags
from donuts_ai.learn.eval_cache import EvaluationCache
from donuts_ai.outcomes import DRAW
from donuts_ai.suites.format import SuitePosition, load_suite


def dummy(planes: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Equal logits, value 0: the search's cost without a network."""
    n = len(planes)
    return np.zeros((n, NUM_SQUARES), dtype=np.float32), np.zeros(n, dtype=np.float32)


class Counted:
    """An evaluator that counts its seconds and positions."""

    def __init__(self, evaluator: Evaluator):
        self.evaluator, self.seconds, self.positions = evaluator, 0.0, 0

    def __call__(self, planes: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        start = time.perf_counter()
        out = self.evaluator(planes)
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


def run_one(kind: str, evaluator: Evaluator, roots: np.ndarray, sims: int, seed: int = 0, **kwargs: Any) -> Any:
    """One search of every root: ``kind`` "puct" or "gumbel"."""
    g = len(roots)
    search = BatchSearch(g, sims)
    args = (evaluator, roots, np.ones(g, dtype=np.bool_), np.ascontiguousarray(roots["directions"]), 15, False)
    if kind == "puct":
        return search.run(*args)
    return search.run_gumbel(*args, rng=np.random.default_rng(seed), **kwargs)


def speed(roots: np.ndarray, sims: int, network: Evaluator, repeats: int) -> None:
    print(f"\n### speed: {len(roots)} games x {sims} simulations, best of {repeats}\n")
    print("| search | evaluator | simulations/s | network share |")
    print("|---|---|---|---|")
    variants: list[tuple[str, str, dict[str, Any]]] = [
        ("PUCT", "puct", {}),
        ("Gumbel", "gumbel", {"solve": False}),
        ("Gumbel + settled in one ply", "gumbel", {"solve_plies": 0}),
        ("Gumbel + exact solves (<= 10 plies, 2000 nodes: the default)", "gumbel", {}),
        ("Gumbel + exact solves + cache", "gumbel", {"cache": True}),
        ("Gumbel + exact solves, first phase in rounds", "gumbel", {"batch_first_phase": False}),
    ]
    for label, evaluator, tries in (("dummy", dummy, 3 * repeats), ("shipped network", network, repeats)):
        for name, kind, kwargs in variants:
            best, share = float("inf"), 0.0
            for _ in range(tries):
                counted = Counted(evaluator)
                extra = dict(kwargs)
                if extra.pop("cache", False):
                    extra["cache"] = EvaluationCache(1 << 16)  # a fresh one: hits within the search only
                start = time.perf_counter()
                run_one(kind, counted, roots, sims, **extra)
                seconds = time.perf_counter() - start
                if seconds < best:
                    best, share = seconds, counted.seconds / seconds
            print(f"| {name} | {label} | {len(roots) * sims / best:,.0f} | {share:.0%} |")


def cache_rates(network: Evaluator, games: int, sims: int, moves: int, seed: int) -> None:
    print(f"\n### cache: {games} self-play games, {sims} simulations a move, {moves} moves, the network fixed\n")
    env = VectorEnv(games, layout="random", seed=seed)
    search = BatchSearch(games, sims)
    rng = np.random.default_rng(seed)
    per_search = EvaluationCache()
    across = EvaluationCache()
    plain_seconds = cached_seconds = 0.0
    for _ in range(moves):
        games_now = env._games
        directions = np.ascontiguousarray(games_now["directions"])
        gumbel = rng.gumbel(size=(games, NUM_SQUARES)).astype(np.float32)
        args = (network, games_now, np.ones(games, dtype=np.bool_), directions, 15, False)
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


def targets(positions: list[SuitePosition], network: Evaluator, sims_list: list[int], seeds: int, suite: str) -> None:
    roots = roots_of(positions)
    legal = legal_flags(roots)
    critical = np.array([p.critical for p in positions])
    logits, _ = network(_planes(roots))
    rows: list[tuple[str, npt.NDArray[np.bool_]]] = [("raw policy", keeps(positions, masked_policy(logits, legal).argmax(1)))]
    for sims in sims_list:
        puct = run_one("puct", network, roots, sims)
        rows.append((f"PUCT {sims}: visits' argmax (ties: prior)", keeps(positions, best_squares(puct, legal))))
        for label, kwargs in (("Gumbel (min-max, c_scale 0.1)", {}), ("Gumbel, nothing settled", {"solve": False}),
                              ("Gumbel ([-1, 1], c_scale 1.0)", {"rescale": False, "c_scale": 1.0}),
                              ("Gumbel ([-1, 1], c_scale 0.3)", {"rescale": False, "c_scale": 0.3})):
            target, played = [], []
            for seed in range(seeds):
                result = run_one("gumbel", network, roots, sims, seed=seed, **kwargs)
                target.append(keeps(positions, result.policy.argmax(1)))
                played.append(keeps(positions, result.actions))
            rows.append((f"{label} {sims}: target's argmax", np.mean(target, axis=0)))
            rows.append((f"{label} {sims}: action played", np.mean(played, axis=0)))
    print(f"\n### targets: {len(positions)} decided {suite} positions ({int(critical.sum())} critical), "
          f"Gumbel averaged over {seeds} seeds\n")
    print("| policy | keeps the value | on critical positions |")
    print("|---|---|---|")
    for name, flags in rows:
        print(f"| {name} | {np.mean(flags):.1%} | {np.mean(flags[critical]):.1%} |")


def settled(suites: list[str], count: int, network: Evaluator, sims: int) -> None:
    print(f"\n### settled: what the terminal nodes the game or the solver settles cost and buy ({sims} simulations)\n")
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
            search = BatchSearch(g, sims)
            start = time.perf_counter()
            result = search.run_gumbel(network, roots, np.ones(g, dtype=np.bool_), np.ascontiguousarray(roots["directions"]),
                                       15, False, rng=np.random.default_rng(0), **kwargs)
            seconds = time.perf_counter() - start
            target, played = keeps(positions, result.policy.argmax(1)), keeps(positions, result.actions)
            tried, done, nodes = search.solves.sum(axis=0)
            print(f"| {suite} | {name} | {target.mean():.1%} | {target[critical].mean():.1%} | {played.mean():.1%} | "
                  f"{seconds:.2f} | {tried} / {done} / {nodes:,} |")


def _planes(roots: np.ndarray) -> npt.NDArray[np.float32]:
    from donuts_ai.learn.batched_search import root_planes

    return root_planes(roots, 15)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.gumbel", description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--games", type=int, default=128)
    parser.add_argument("--sims", type=int, nargs="+", default=[16, 32])
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--suites", nargs="+", default=["middlegame"], help="suites of the targets' positions")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--only", choices=["speed", "cache", "targets", "settled"], nargs="*", default=None)
    args = parser.parse_args(argv)
    network: Callable[..., Any] = network_evaluator(cached_network(None))
    # The network compiles one program per batch size: every size the searches use, first.
    size = 1
    while size <= 16 * max(args.games, args.positions):
        network(np.zeros((size, 6, 6, 13), dtype=np.float32))
        size *= 2
    for games in (args.games, args.positions):
        network(np.zeros((games, 6, 6, 13), dtype=np.float32))
    only = set(args.only or ["speed", "cache", "targets", "settled"])
    positions = decided(max(args.positions, args.games))
    if "speed" in only:
        roots = roots_of(positions[:args.games])
        run_one("gumbel", network, roots[:args.games], 2)  # compile everything first
        run_one("puct", network, roots[:args.games], 2)
        speed(roots, max(args.sims), network, args.repeats)
    if "cache" in only:
        cache_rates(network, args.games, max(args.sims), args.moves, seed=1)
    if "targets" in only:
        for suite in args.suites:
            targets(decided(args.positions, suite), network, args.sims, args.seeds, suite)
    if "settled" in only:
        settled(["middlegame", "endgame"], args.positions, network, max(args.sims))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
