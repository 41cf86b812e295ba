"""Interoperability: our MCTS against OpenSpiel's MCTSBot on the same game (speed, and a
match with MCTSBot given 10x the time), and the PettingZoo environment's steps/s.

    python -m donuts_ai.bench.interop [--quick] [--games N] [--time S] [--ratio R] [--seed N] [--json FILE]

Needs the ``rl`` and ``spiel`` extras (``pip install 'donuts_ai[rl,spiel]'``); a part
whose dependency is missing is skipped with a note. Speeds are on one core, after a
warm-up call.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any, NotRequired, TypedDict

import numpy as np

from ..donuts.agents import MCTSAgent
from ..donuts.board import Board
from ..donuts.layout import Layout
from ._report import Machine, machine, print_and_save


class Rates(TypedDict):
    """A rate over repeats: median, least, most."""

    median: float
    min: float
    max: float


class SearchSpeed(TypedDict):
    """Our MCTS and OpenSpiel's MCTSBot from one position (:func:`search_speeds`)."""

    plies: int
    fen: str
    ours: Rates
    openspiel: Rates
    ratio: float


class MatchFigures(TypedDict):
    """Our MCTS against OpenSpiel's MCTSBot (:func:`match`)."""

    ours: str
    theirs: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    losses_as_first: int
    losses_as_second: int
    first_player_wins: int
    reasons: dict[str, int]
    plies_mean: float
    plies_min: int
    plies_max: int
    seconds_per_move: dict[str, float]
    wall_s: float


class PettingZooFigures(TypedDict):
    """The PettingZoo environment's speed (:func:`pettingzoo_speed`)."""

    steps_per_s: float
    us_per_step: float
    steps: int
    games: int


class InteropBench(TypedDict):
    """Every figure of this benchmark (:func:`run`); a part whose dependency is missing
    holds the note that says so instead."""

    machine: Machine
    quick: bool
    openspiel: NotRequired[str]
    speed: NotRequired[list[SearchSpeed]]
    match: NotRequired[MatchFigures]
    pettingzoo: NotRequired[dict[str, PettingZooFigures] | str]


def _position(plies: int) -> Board:
    """The standard layout after ``plies`` seeded random moves (0: the empty board), from
    the first seed whose position neither ends the game nor leaves our MCTS a move
    forced by its tactical pass or proven within a short search (both searches then
    run their whole budget)."""
    probe = MCTSAgent(iterations=20_000, reuse=False, seed=1)
    for seed in range(1000):
        rng = np.random.default_rng(seed)
        board = Board(Layout.standard())
        while board.ply < plies and not board.is_game_over():
            board.push(int(rng.choice(board.legal_squares())))
        if board.is_game_over():
            continue
        probe.select_move(board)
        if not probe.last_info["forced"] and not probe.last_info["proven"]:
            return board
    raise RuntimeError(f"no searched position after {plies} plies")


def _median_rate(agent: Any, board: Board, key: str, repeats: int) -> Rates:
    agent.select_move(board)  # warm-up (compilation, caches)
    rates = []
    for _ in range(repeats):
        agent.reset()
        agent.select_move(board)
        rates.append(agent.last_info[key] / agent.last_info["seconds"])
    return {"median": statistics.median(rates), "min": min(rates), "max": max(rates)}


def search_speeds(our_iterations: int, their_sims: int, repeats: int) -> list[SearchSpeed]:
    """Our MCTS iterations/s and OpenSpiel's MCTSBot simulations/s from the same
    positions of the same game (the standard layout, empty and after 10 plies)."""
    from ..interop.openspiel import OpenSpielMCTSAgent

    rows: list[SearchSpeed] = []
    for plies in (0, 10):
        board = _position(plies)
        ours = _median_rate(MCTSAgent(iterations=our_iterations, reuse=False, seed=1), board, "iterations", repeats)
        theirs = _median_rate(OpenSpielMCTSAgent(sims=their_sims, seed=1), board, "sims", repeats)
        rows.append({"plies": plies, "fen": board.fen(), "ours": ours, "openspiel": theirs, "ratio": ours["median"] / theirs["median"]})
        print("  ", rows[-1], flush=True)
    return rows


def match(games: int, our_time: float, ratio: float, seed: int) -> MatchFigures:
    """``mcts:time=our_time`` against ``openspiel-mcts:time=ratio*our_time`` through the
    tournament harness: colour-swapped pairs, a fresh random tile arrangement per pair,
    each agent in a process of its own, one game at a time."""
    from .. import tournament

    ours, theirs = f"mcts:time={our_time:g}", f"openspiel-mcts:time={our_time * ratio:g}"
    t = time.perf_counter()
    results = tournament.run([ours, theirs], game="donuts", games=games, seed=seed, workers=1)
    wall = time.perf_counter() - t
    wins = draws = losses = 0
    lost_as = [0, 0]  # our losses as Chocolate (first player), as Vanilla
    seconds = {ours: [0.0, 0], theirs: [0.0, 0]}
    reasons: dict[str, int] = {}
    for g in results.games:
        our_seat = g.names.index(ours)
        if g.winner is None:
            draws += 1
        elif g.winner == our_seat:
            wins += 1
        else:
            losses += 1
            lost_as[our_seat] += 1
        reasons[g.reason] = reasons.get(g.reason, 0) + 1
        for seat, name in enumerate(g.names):
            seconds[name][0] += g.times[seat]
            seconds[name][1] += g.turns[seat]
    n = len(results.games)
    first_wins = sum(1 for g in results.games if g.winner == 0)
    plies = [g.plies for g in results.games]
    return {"ours": ours, "theirs": theirs, "games": n, "wins": wins, "draws": draws, "losses": losses,
            "score": (wins + draws / 2) / n, "losses_as_first": lost_as[0], "losses_as_second": lost_as[1],
            "first_player_wins": first_wins, "reasons": reasons,
            "plies_mean": statistics.mean(plies), "plies_min": min(plies), "plies_max": max(plies),
            "seconds_per_move": {k: s / max(m, 1) for k, (s, m) in seconds.items()}, "wall_s": wall}


def pettingzoo_speed(seconds: float, seed: int = 0) -> dict[str, PettingZooFigures]:
    """Environment steps/s with uniformly random legal actions (drawn from the action
    mask), wrapped as :func:`~donuts_ai.interop.pettingzoo.env` gives it and unwrapped,
    on a fresh random tile arrangement every game."""
    from ..interop.pettingzoo import env, raw_env

    out: dict[str, PettingZooFigures] = {}
    for name, make in (("env", env), ("raw_env", raw_env)):
        e = make(layout="random")
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        steps = games = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            e.reset()
            games += 1
            for _agent in e.agent_iter():
                obs, _, termination, truncation, _ = e.last()
                if termination or truncation:
                    action = None
                else:
                    action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
                    steps += 1
                e.step(action)
        dt = time.perf_counter() - start
        out[name] = {"steps_per_s": steps / dt, "us_per_step": dt / steps * 1e6, "steps": steps, "games": games}
        print("  ", name, out[name], flush=True)
    return out


def run(quick: bool, games: int, our_time: float, ratio: float, seed: int = 1) -> InteropBench:
    res: InteropBench = {"machine": machine(), "quick": quick}
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        res["openspiel"] = "skipped: OpenSpiel is not installed (pip install 'donuts_ai[spiel]')"
    else:
        from importlib.metadata import PackageNotFoundError, version

        try:
            res["machine"]["open_spiel"] = version("open_spiel")
        except PackageNotFoundError:
            res["machine"]["open_spiel"] = "?"
        print("search speed, ours and OpenSpiel's", flush=True)
        res["speed"] = search_speeds(50_000 if quick else 200_000, 500 if quick else 2000, 2 if quick else 3)
        print(f"match: {games} games", flush=True)
        res["match"] = match(games, our_time, ratio, seed)
    try:
        import pettingzoo
    except ImportError:
        res["pettingzoo"] = "skipped: PettingZoo is not installed (pip install 'donuts_ai[rl]')"
    else:
        res["machine"]["pettingzoo"] = pettingzoo.__version__
        print("PettingZoo environment", flush=True)
        res["pettingzoo"] = pettingzoo_speed(1.0 if quick else 5.0)
    return res


def report(r: InteropBench) -> str:
    m = r["machine"]
    versions = ", ".join(f"{k} {m[k]}" for k in ("open_spiel", "pettingzoo") if k in m)
    lines = [f"machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, Numba {m['numba']}" + (f", {versions}" if versions else ""),
             ""]
    if isinstance(r.get("openspiel"), str):
        lines.append(r["openspiel"])
    if "speed" in r:
        lines += ["| position (standard layout) | our MCTS iterations/s | OpenSpiel MCTSBot simulations/s | ratio |",
                  "|---|---|---|---|"]
        for row in r["speed"]:
            where = "empty board" if row["plies"] == 0 else f"after {row['plies']} random plies"
            lines.append(f"| {where} | {row['ours']['median']:,.0f} | {row['openspiel']['median']:,.0f} | {row['ratio']:,.0f}× |")
        lines.append("")
    if "match" in r:
        mt = r["match"]
        spm = mt["seconds_per_move"]
        lines.append(f"{mt['ours']} against {mt['theirs']}: {mt['wins']} wins, {mt['draws']} draws, {mt['losses']} losses "
                     f"({mt['losses_as_first']} as first player) in {mt['games']} games (score {mt['score']:.0%}); "
                     f"first player won {mt['first_player_wins']}; "
                     f"endings {mt['reasons']}; plies {mt['plies_min']}–{mt['plies_max']} (mean {mt['plies_mean']:.1f}); "
                     f"seconds per move: ours {spm[mt['ours']]:.3f}, "
                     f"OpenSpiel's {spm[mt['theirs']]:.3f}; wall {mt['wall_s']:.0f} s")
    pz = r.get("pettingzoo")
    if isinstance(pz, str):
        lines.append(pz)
    elif pz:
        for name, env_figures in pz.items():
            lines.append(f"PettingZoo {name}: {env_figures['steps_per_s']:,.0f} steps/s ({env_figures['us_per_step']:.1f} µs "
                         f"a step, random legal actions, {env_figures['games']:,} games)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m donuts_ai.bench.interop", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller searches, 2 games, 1 s of environment steps")
    parser.add_argument("--games", type=int, default=None, help="games of the match (colour-swapped pairs; default 10, quick 2)")
    parser.add_argument("--time", type=float, default=0.1, help="our MCTS's seconds a move (default 0.1)")
    parser.add_argument("--ratio", type=float, default=10.0, help="MCTSBot's time as a multiple of ours (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="the match's seed (its layouts; default 1)")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    games = args.games if args.games is not None else 2 if args.quick else 10
    results = run(args.quick, games, args.time, args.ratio, args.seed)
    return print_and_save(results, report, args.json)


if __name__ == "__main__":
    sys.exit(main())
