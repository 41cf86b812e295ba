"""Tournament harness speed: overhead per game, and speed-up with worker processes.

    python -m benchmarks.harness [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TypedDict

from .. import tournament
from ._report import machine


class Overhead(TypedDict):
    """The harness's cost per game (:func:`overhead`)."""

    games: int
    per_game_ms: float
    agents_ms: float
    plies: float


class Speedup(TypedDict):
    """Wall time of one tournament with 1 and 2 workers (:func:`speedup`)."""

    move_time: float
    games: int
    seconds_1: float
    seconds_2: float
    speedup: float


def overhead(n_games: int, isolation: str = "process") -> Overhead:
    """Seconds per game of Random vs Random with one worker, all included (agents, board,
    records; with ``isolation="process"`` also starting the two agent processes and a pipe
    round trip per move), and the share of it the agents' answers took on the harness clock."""
    tournament.run(["random", "random:seed=1"], game="donuts", games=2, workers=1, isolation=isolation)  # warm-up
    t = time.perf_counter()
    results = tournament.run(["random", "random:seed=1"], game="donuts", games=n_games, workers=1, isolation=isolation)
    total = time.perf_counter() - t
    games = len(results.games)
    thinking = sum(sum(g["times"]) for g in results.games)
    return {"games": games, "per_game_ms": 1000 * total / games, "agents_ms": 1000 * thinking / games,
            "plies": sum(g["plies"] for g in results.games) / games}


def speedup(units: int, move_time: float) -> Speedup:
    agents = [f"alphabeta:time={move_time}", f"mcts:time={move_time}"]
    seconds = {}
    for workers in (1, 2):
        tournament.run(agents, game="donuts", games=2, workers=workers)  # warm-up (and process start-up for 2)
        t = time.perf_counter()
        tournament.run(agents, game="donuts", games=2 * units, layouts="random:0:4", workers=workers)
        seconds[workers] = time.perf_counter() - t
    return {"move_time": move_time, "games": 2 * units, "seconds_1": seconds[1], "seconds_2": seconds[2],
            "speedup": seconds[1] / seconds[2]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.harness")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    m = machine()
    print(f"machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, Numba {m['numba']}")
    for isolation in ("process", "none"):
        o = overhead(200 if args.quick else 2000, isolation)
        print(f"overhead, isolation={isolation}: {o['per_game_ms']:.2f} ms per game of Random vs Random ({o['games']} games, "
              f"{o['plies']:.1f} plies; answers {o['agents_ms']:.2f} ms of it)")
    s = speedup(4 if args.quick else 24, 0.05)
    print(f"workers: {s['games']} games of alphabeta vs mcts at {s['move_time']} s/move: 1 worker {s['seconds_1']:.1f} s, "
          f"2 workers {s['seconds_2']:.1f} s, speed-up {s['speedup']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
