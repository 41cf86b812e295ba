"""Tournament harness speed: overhead per game, and speed-up with worker processes.

    python -m benchmarks.harness [--quick] [--games N] [--pairs N] [--move-time S] [--runs N] [--json FILE]

The overhead is the wall time a game of Random against Random takes with one worker, all
included (agents, board, records; with ``isolation=process`` also starting the two agent
processes and a pipe round trip per move), once with each isolation. The speed-up is the
wall time of one tournament of alpha-beta against MCTS at ``--move-time`` seconds a move
with 1 worker over that with 2 workers.

The figures are measured in ``--runs`` independent processes (3 by default), and
``--json FILE`` writes them as a pyperf record (:mod:`donuts_ai.bench.record`; ``python -m
pyperf stats FILE`` reads it): the seconds a game of the harness took (work unit
``game``, a value per repeat) and the seconds each tournament took (work unit
``tournament``, one value a run); the speed-up is derived in the table from the two
stored times, not stored. Benchmarks are not tests: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, TypedDict

from donuts_ai import tournament
from donuts_ai.bench import compare, record, runs, tables
from donuts_ai.bench.record import Figure

#: Games of Random vs Random timed for the overhead, and colour-swapped pairs of the
#: tournament timed with 1 and 2 workers: (full, quick).
OVERHEAD_GAMES, PAIRS = (2000, 200), (24, 4)
#: Seconds a move of the two agents of the speed-up's tournament.
MOVE_TIME = 0.05
#: Tournaments the overhead's games are split into: its values in a run.
OVERHEAD_REPEATS = 3
ISOLATIONS = ("process", "none")


class Overhead(TypedDict):
    """The harness's cost per game (:func:`overhead`): ``seconds_per_game`` holds each
    repeat's (a tournament of ``games / repeats`` games)."""

    games: int
    per_game_ms: float
    agents_ms: float
    plies: float
    seconds_per_game: list[float]


class Speedup(TypedDict):
    """Wall time of one tournament with 1 and 2 workers (:func:`speedup`)."""

    move_time: float
    games: int
    seconds_1: float
    seconds_2: float
    speedup: float


def overhead(n_games: int, isolation: str = "process", repeats: int = 1) -> Overhead:
    """Seconds per game of Random vs Random with one worker, all included (agents, board,
    records; with ``isolation="process"`` also starting the two agent processes and a pipe
    round trip per move), and the share of it the agents' answers took on the harness clock.
    The games are played in ``repeats`` tournaments (of ``n_games // repeats`` games, at
    least 2; fewer tournaments when there are not 2 games for each), each timed apart
    (``seconds_per_game``)."""
    tournament.run(["random", "random:seed=1"], game="donuts", games=2, workers=1, isolation=isolation)  # warm-up
    repeats = max(1, min(repeats, n_games // 2))
    each = max(2, n_games // repeats)
    total, games, thinking, plies, per_game = 0.0, 0, 0.0, 0, []
    for r in range(repeats):
        t = time.perf_counter()
        results = tournament.run(["random", "random:seed=1"], game="donuts", games=each, seed=r, workers=1,
                                 isolation=isolation)
        seconds = time.perf_counter() - t
        total += seconds
        games += len(results.games)
        per_game.append(seconds / len(results.games))
        thinking += sum(sum(g["times"]) for g in results.games)
        plies += sum(g["plies"] for g in results.games)
    return {"games": games, "per_game_ms": 1000 * total / games, "agents_ms": 1000 * thinking / games,
            "plies": plies / games, "seconds_per_game": per_game}


def speedup(units: int, move_time: float) -> Speedup:
    """Wall time of one tournament of ``2 * units`` games (alpha-beta against MCTS at
    ``move_time`` seconds a move, on four random direction grids) with 1 and with 2 workers."""
    agents = [f"alphabeta:time={move_time}", f"mcts:time={move_time}"]
    seconds = {}
    for workers in (1, 2):
        tournament.run(agents, game="donuts", games=2, workers=workers)  # warm-up (and process start-up for 2)
        t = time.perf_counter()
        tournament.run(agents, game="donuts", games=2 * units, setups="random:0:4", workers=workers)
        seconds[workers] = time.perf_counter() - t
    return {"move_time": move_time, "games": 2 * units, "seconds_1": seconds[1], "seconds_2": seconds[2],
            "speedup": seconds[1] / seconds[2]}


def overhead_name(isolation: str) -> str:
    """The record's name of the overhead figure with ``isolation``."""
    return f"harness, random vs random, isolation={isolation}"


def tournament_name(move_time: float, games: int, workers: int) -> str:
    """The record's name of the tournament figure with ``workers`` workers."""
    return f"tournament, alphabeta vs mcts at {move_time:g} s a move, {games} games, {workers} worker{'s' * (workers > 1)}"


def figures(overhead_games: int = OVERHEAD_GAMES[0], pairs: int = PAIRS[0], move_time: float = MOVE_TIME) -> list[Figure]:
    """The figures of one run: seconds a game of the harness with each isolation (a value
    per repeat of :func:`overhead`; the games, the mean plies and the agents' share in
    milliseconds as parameters), and, unless ``pairs`` is 0, the seconds of the tournament
    of :func:`speedup` with 1 and with 2 workers (one value each)."""
    out = []
    for isolation in ISOLATIONS:
        o = overhead(overhead_games, isolation, OVERHEAD_REPEATS)
        out.append(Figure(overhead_name(isolation), "game", o["seconds_per_game"],
                          {"games": o["games"], "plies": round(o["plies"], 2), "answers_ms": round(o["agents_ms"], 4)}))
    if pairs:
        s = speedup(pairs, move_time)
        for workers, seconds in ((1, s["seconds_1"]), (2, s["seconds_2"])):
            out.append(Figure(tournament_name(move_time, s["games"], workers), "tournament", [seconds],
                              {"games": s["games"], "move_time": move_time, "workers": workers}))
    return out


def speedups(suite: Any) -> list[tuple[str, float, float, float]]:
    """(name, speed-up, low, high) of each tournament of the record: the time with 1 worker
    over that with 2, derived from the two stored times (each run measured both, so the
    runs are paired)."""
    by_name = record.figures_of(suite)
    out = []
    for name, one in by_name.items():
        two = by_name.get(name.replace(", 1 worker", ", 2 workers"))
        if not name.startswith("tournament, ") or not name.endswith(", 1 worker") or two is None:
            continue
        out.append(("speed-up, 2 workers / 1 worker (" + name.removeprefix("tournament, ").removesuffix(", 1 worker") + ")",
                    *compare.speed_within(one, two)))
    return out


def report(suite: Any) -> str:
    """A record of this benchmark as a table: each figure with its interval over the runs,
    the speed-up derived from the tournaments' times, and the agents' share of a game."""
    lines = [tables.record_text(suite, speedups(suite))]
    for name, benchmark in record.figures_of(suite).items():
        answers = [run.get_metadata().get("param_answers_ms") for run in benchmark.get_runs()]
        known = [float(a) for a in answers if isinstance(a, int | float)]
        if known:
            lines.append(f"{name}: the agents' answers took {sum(known) / len(known):.3f} ms of a game (mean over runs)")
    return "\n".join(lines)


def main(argv: list[str] | None = None, prog: str = "python -m benchmarks.harness") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"{OVERHEAD_GAMES[1]} games of overhead, {PAIRS[1]} pairs of the tournament "
                             f"(default {OVERHEAD_GAMES[0]} and {PAIRS[0]})")
    parser.add_argument("--games", type=int, metavar="N", help="games of Random vs Random timed (overrides --quick's)")
    parser.add_argument("--pairs", type=int, metavar="N",
                        help="colour-swapped pairs of the tournament timed with 1 and 2 workers; 0: no tournament "
                             "(overrides --quick's)")
    parser.add_argument("--move-time", type=float, default=MOVE_TIME, metavar="S",
                        help=f"the tournament's seconds a move (default {MOVE_TIME})")
    runs.add_record_options(parser)
    args = parser.parse_args(argv)
    games = args.games if args.games is not None else OVERHEAD_GAMES[args.quick]
    pairs = args.pairs if args.pairs is not None else PAIRS[args.quick]
    if games < 2 or pairs < 0 or not args.move_time > 0:
        parser.error("--games must be at least 2, --pairs at least 0 and --move-time above 0")
    settings = f"games={games} pairs={pairs} move_time={args.move_time:g}"
    return runs.record_main(parser, args, argv, "benchmarks.harness",
                              lambda: (figures(games, pairs, args.move_time), settings), report)


if __name__ == "__main__":
    sys.exit(main())
