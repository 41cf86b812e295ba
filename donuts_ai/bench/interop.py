"""Interoperability: our MCTS against OpenSpiel's MCTSBot on the same game (speed, and a
match with MCTSBot given 10x the time), and the PettingZoo environment's steps/s.

    python -m donuts_ai.bench.interop [--quick] [--games N] [--time S] [--ratio R] [--seed N] [--runs N] [--json FILE]

Needs the ``rl`` and ``spiel`` extras (``pip install 'donuts_ai[rl,spiel]'``); a part
whose dependency is missing is skipped with a note. Speeds are on one core, after a
warm-up call.

The timed figures (:func:`figures`: the seconds an iteration of our MCTS and a
simulation of OpenSpiel's MCTSBot took from each position, and a step of the PettingZoo
environment, wrapped and raw) are measured in ``--runs`` independent processes (3 by
default), and ``--json FILE`` writes them as a pyperf record made of those processes
(:mod:`donuts_ai.bench.record`; ``python -m pyperf stats FILE`` reads it); the ratio of
the two searches' rates is derived in the table from the stored times, not stored. The
match is not a time: it is played once, in this process, after the runs, and printed
with the record's table, not stored in it (``--games 0`` leaves it out).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import time
from typing import Any, NotRequired, TypedDict

import numpy as np

from .._checks import add_renamed_option
from ..donuts.agents import MCTSAgent
from ..donuts.board import Board
from ..donuts.layout import Layout
from . import compare, record, runs, tables
from ._report import Machine, machine
from .record import Figure, pettingzoo_name

#: Sizes, (full, quick): our MCTS's simulations (iterations) a search, MCTSBot's simulations a
#: search, repeats of each search, and seconds of PettingZoo steps in all, in :data:`ENV_REPEATS` samples.
OUR_SIMULATIONS, THEIR_SIMULATIONS, SPEED_REPEATS, ENV_SECONDS = (200_000, 50_000), (2000, 500), (3, 2), (5.0, 1.0)
ENV_REPEATS = (5, 2)
#: Plies of random moves from the empty board to the positions the two searches are timed on
#: (after 10 plies, as before 0.5.0, our MCTS's prover now proves the game's value within
#: :func:`_position`'s probe from every position it tries, so that no position is found).
PLIES = (0, 6)


class Rates(TypedDict):
    """A rate over repeats: median, least, most, and each repeat's (``rates``)."""

    median: float
    min: float
    max: float
    rates: list[float]


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
    probe = MCTSAgent(simulations=20_000, reuse=False, seed=1)
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
    return {"median": statistics.median(rates), "min": min(rates), "max": max(rates), "rates": rates}


def search_speeds(our_simulations: int, their_simulations: int, repeats: int) -> list[SearchSpeed]:
    """Our MCTS iterations/s and OpenSpiel's MCTSBot simulations/s from the same
    positions of the same game (the standard layout after each of :data:`PLIES` random plies)."""
    from ..interop.openspiel import OpenSpielMCTSAgent

    rows: list[SearchSpeed] = []
    for plies in PLIES:
        board = _position(plies)
        ours = _median_rate(MCTSAgent(simulations=our_simulations, reuse=False, seed=1), board, "iterations", repeats)
        theirs = _median_rate(OpenSpielMCTSAgent(simulations=their_simulations, seed=1), board, "sims", repeats)
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


def _where(plies: int) -> str:
    return "standard layout, empty board" if plies == 0 else f"standard layout after {plies} random plies"


def ours_name(plies: int, iterations: int) -> str:
    """The record's name of our MCTS's figure from the position after ``plies``."""
    return f"our MCTS, {_where(plies)}, {iterations:,} iterations a search"


def theirs_name(plies: int, sims: int) -> str:
    """The record's name of OpenSpiel's MCTSBot's figure from the position after ``plies``."""
    return f"OpenSpiel MCTSBot, {_where(plies)}, {sims:,} simulations a search"


def has_openspiel() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def figures(quick: bool = False, our_simulations: int | None = None, their_simulations: int | None = None,
            env_seconds: float | None = None) -> list[Figure]:
    """The timed figures of this benchmark, measured in this process, for its record: the
    seconds an iteration of our MCTS and a simulation of OpenSpiel's MCTSBot (a value per
    repeat, from each position of :func:`search_speeds`), and the seconds a step of the
    PettingZoo environment, wrapped and raw (``env_seconds`` of steps in all, in
    :data:`ENV_REPEATS` samples: :func:`pettingzoo_figures`). A part whose dependency is
    missing gives no figure."""
    size = 1 if quick else 0
    # The records' names and parameters keep the words of 0.4 (iterations, sims): they are compared across versions.
    iterations = OUR_SIMULATIONS[size] if our_simulations is None else our_simulations
    sims = THEIR_SIMULATIONS[size] if their_simulations is None else their_simulations
    out: list[Figure] = []
    if has_openspiel():
        for row in search_speeds(iterations, sims, SPEED_REPEATS[size]):
            params: dict[str, int | float | str] = {"plies": row["plies"], "fen": row["fen"]}
            out.append(Figure(ours_name(row["plies"], iterations), "iteration", [1 / r for r in row["ours"]["rates"]],
                              {**params, "iterations": iterations}))
            out.append(Figure(theirs_name(row["plies"], sims), "simulation", [1 / r for r in row["openspiel"]["rates"]],
                              {**params, "sims": sims}))
    seconds = ENV_SECONDS[size] if env_seconds is None else env_seconds
    out += pettingzoo_figures(seconds / ENV_REPEATS[size], ENV_REPEATS[size])
    return out


def pettingzoo_figures(seconds: float, repeats: int) -> list[Figure]:
    """Seconds a step of the PettingZoo environment, wrapped and raw (:func:`pettingzoo_speed`),
    ``repeats`` samples of ``seconds`` each after a shorter warm-up (the first steps import
    and check more than a step does), as the record's figures named as ``donuts-ai
    bench``'s; none when PettingZoo is not installed."""
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # its progress lines: the report says it all
            pettingzoo_speed(seconds / 4)
            samples = [pettingzoo_speed(seconds, seed=r) for r in range(repeats)]
    except ImportError:
        return []
    return [Figure(pettingzoo_name(env), "step", [1 / s[env]["steps_per_s"] for s in samples]) for env in samples[0]]


def search_ratios(suite: Any) -> list[tuple[str, float, float, float]]:
    """(name, ratio, low, high): our MCTS's iterations a second over MCTSBot's simulations
    a second from each position, derived from the record's stored times (each run
    measured both, so the runs are paired)."""
    by_name = record.figures_of(suite)
    out = []
    for ours in by_name.values():
        plies = ours.get_runs()[0].get_metadata().get("param_plies")
        if not ours.get_name().startswith("our MCTS, ") or not isinstance(plies, int):
            continue
        for theirs in by_name.values():
            if (theirs.get_name().startswith("OpenSpiel MCTSBot, ")
                    and theirs.get_runs()[0].get_metadata().get("param_plies") == plies):
                out.append((f"our MCTS / OpenSpiel MCTSBot, {_where(plies)}", *compare.speed_within(theirs, ours)))
    return out


def match_line(mt: MatchFigures) -> str:
    """The match of :func:`match` in one line."""
    spm = mt["seconds_per_move"]
    return (f"{mt['ours']} against {mt['theirs']}: {mt['wins']} wins, {mt['draws']} draws, {mt['losses']} losses "
            f"({mt['losses_as_first']} as first player) in {mt['games']} games (score {mt['score']:.0%}); "
            f"first player won {mt['first_player_wins']}; "
            f"endings {mt['reasons']}; plies {mt['plies_min']}–{mt['plies_max']} (mean {mt['plies_mean']:.1f}); "
            f"seconds per move: ours {spm[mt['ours']]:.3f}, "
            f"OpenSpiel's {spm[mt['theirs']]:.3f}; wall {mt['wall_s']:.0f} s")


def record_report(suite: Any, match_figures: MatchFigures | None = None) -> str:
    """A record of this benchmark as a table (each figure with its interval over the runs,
    the ratios of the two searches' rates derived from the stored times), the notes of
    the parts skipped, then the match, when given."""
    lines = [tables.record_text(suite, search_ratios(suite))]
    if not has_openspiel():
        lines.append("OpenSpiel: skipped: OpenSpiel is not installed (pip install 'donuts_ai[spiel]')")
    if not any(b.get_name().startswith("PettingZoo ") for b in suite):
        lines.append("PettingZoo: skipped: PettingZoo is not installed (pip install 'donuts_ai[rl]')")
    if match_figures is not None:
        lines.append(match_line(match_figures))
    return "\n".join(lines)


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
        lines.append(match_line(r["match"]))
    pz = r.get("pettingzoo")
    if isinstance(pz, str):
        lines.append(pz)
    elif pz:
        for name, env_figures in pz.items():
            lines.append(f"PettingZoo {name}: {env_figures['steps_per_s']:,.0f} steps/s ({env_figures['us_per_step']:.1f} µs "
                         f"a step, random legal actions, {env_figures['games']:,} games)")
    return "\n".join(lines)


def main(argv: list[str] | None = None, prog: str = "python -m donuts_ai.bench.interop") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller searches, 2 games, 1 s of environment steps")
    parser.add_argument("--games", type=int, default=None,
                        help="games of the match (colour-swapped pairs; default 10, quick 2; 0: no match)")
    parser.add_argument("--time", type=float, default=0.1, help="our MCTS's seconds a move (default 0.1)")
    parser.add_argument("--ratio", type=float, default=10.0, help="MCTSBot's time as a multiple of ours (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="the match's seed (its layouts; default 1)")
    parser.add_argument("--simulations", type=int, metavar="N",
                        help=f"our MCTS's simulations a timed search (default {OUR_SIMULATIONS[0]:,}, "
                             f"quick {OUR_SIMULATIONS[1]:,})")
    parser.add_argument("--openspiel-simulations", type=int, metavar="N",
                        help=f"MCTSBot's simulations a timed search (default {THEIR_SIMULATIONS[0]:,}, "
                             f"quick {THEIR_SIMULATIONS[1]:,})")
    # Their names before 0.5.0.
    add_renamed_option(parser, "--iterations", "--simulations", type=int, metavar="N")
    add_renamed_option(parser, "--sims", "--openspiel-simulations", type=int, metavar="N")
    parser.add_argument("--env-seconds", type=float, metavar="S",
                        help=f"seconds of PettingZoo steps in all (default {ENV_SECONDS[0]:g}, quick {ENV_SECONDS[1]:g})")
    runs.add_record_options(parser, printed_only="the match is")
    args = parser.parse_args(argv)
    games = args.games if args.games is not None else 2 if args.quick else 10
    if games < 0 or (args.simulations is not None and args.simulations < 1) \
            or (args.openspiel_simulations is not None and args.openspiel_simulations < 1) \
            or (args.env_seconds is not None and not args.env_seconds > 0):
        parser.error("--games must be at least 0, --simulations and --openspiel-simulations at least 1, --env-seconds above 0")

    def report_all(suite: Any) -> str:
        played = None
        if games and has_openspiel():
            print(f"match: {games} games", flush=True)
            played = match(games, args.time, args.ratio, args.seed)
        return record_report(suite, played)

    size = 1 if args.quick else 0
    settings = (f"simulations={args.simulations or OUR_SIMULATIONS[size]} "
                f"openspiel_simulations={args.openspiel_simulations or THEIR_SIMULATIONS[size]} "
                f"env_seconds={args.env_seconds or ENV_SECONDS[size]:g}")
    return runs.record_main(parser, args, argv, "donuts_ai.bench.interop",
                              lambda: (figures(args.quick, args.simulations, args.openspiel_simulations, args.env_seconds), settings),
                              report_all)


if __name__ == "__main__":
    sys.exit(main())
