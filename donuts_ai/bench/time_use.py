"""How much of its per-move budget each searching agent spends in the middle game.

    python -m benchmarks.time_use [--quick] [--time-limit SECONDS] [--from-ply PLY] [--json FILE]

Plays alpha-beta and MCTS at ``time_limit`` seconds a move against a greedy and a
random opponent and against each other, on random tile arrangements, both colours,
each game from its own random opening of :data:`OPENING_PLIES` plies. Every move of a
timed agent from ply ``--from-ply`` on (while the game is still running) is timed
from outside, as a tournament sees it, and reported as a fraction of ``time_limit``:
mean, median, p10, p90 and max, per agent and opponent. Twice: over all those moves,
and over the "searched" ones, where the budget is what stopped the agent — not moves
its tactical pass chose without searching (``forced``: a win at once, the only move
that does not lose at once), nor moves whose search proved the game's value
(``proven``), which end early by design. Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Literal, NotRequired, TypedDict

from ..donuts.agents import AlphaBetaAgent, GreedyAgent, MCTSAgent, RandomAgent
from ..donuts.agents.board_agent import BoardAgent
from ..donuts.board import Board
from ..donuts.layout import Layout
from ._report import Machine, machine, print_and_save

#: Random plies before the agents take over: every game a different middle game.
OPENING_PLIES = 2
#: Moves before this ply are openings: not counted (``--from-ply``). At 0.1 s a move
#: alpha-beta proves most positions of the standard game from about ply 6 on.
FROM_PLY = 6
#: The searching agents and the opponents they meet.
PAIRINGS = [("alphabeta", "greedy"), ("alphabeta", "random"), ("mcts", "greedy"), ("mcts", "random"), ("alphabeta", "mcts")]
TIMED = ("alphabeta", "mcts")


class MoveShares(TypedDict):
    """Time per move over the limit (:func:`summary`): how many ``moves``, and when there
    were any, their mean, median, p10, p90 and max."""

    moves: int
    mean: NotRequired[float]
    median: NotRequired[float]
    p10: NotRequired[float]
    p90: NotRequired[float]
    max: NotRequired[float]


class TimeUseRow(TypedDict):
    """One timed agent against one opponent (or ``"all"``): every counted move, and the searched ones."""

    agent: str
    pairing: str
    all: MoveShares
    searched: MoveShares


class TimeUseBench(TypedDict):
    """Every figure of this benchmark (:func:`run`)."""

    machine: Machine
    time_limit: float
    games_per_pairing: int
    from_ply: int
    rows: list[TimeUseRow]


def _quantile(sorted_xs: list[float], q: float) -> float:
    """Nearest-rank quantile of an ascending list."""
    return sorted_xs[min(len(sorted_xs) - 1, max(0, round(q * (len(sorted_xs) - 1))))]


def summary(fractions: list[float]) -> MoveShares:
    xs = sorted(fractions)
    if not xs:
        return {"moves": 0}
    return {"moves": len(xs), "mean": statistics.fmean(xs), "median": statistics.median(xs), "p10": _quantile(xs, 0.1),
            "p90": _quantile(xs, 0.9), "max": xs[-1]}


def play(seats: dict[int, BoardAgent], timed: dict[int, str], layout: Layout, *, opening_seed: int, time_limit: float,
         from_ply: int, out: dict[str, list[tuple[float, bool]]]) -> None:
    """One game from a random opening; appends ``(fraction, searched)`` of every counted
    move of a timed seat to ``out[timed[seat]]``."""
    board = Board(layout)
    rng = random.Random(opening_seed)
    for _ in range(OPENING_PLIES):
        board.push(rng.choice(board.legal_moves()))
    for agent in seats.values():
        agent.reset()
    while not board.is_game_over():
        seat = board.turn
        assert seat is not None  # the game is not over
        agent = seats[seat]
        t = time.perf_counter()
        move = agent.select_move(board)
        seconds = time.perf_counter() - t
        if seat in timed and board.ply >= from_ply:
            assert isinstance(agent, (AlphaBetaAgent, MCTSAgent))  # the timed kinds
            info = agent.last_info
            out.setdefault(timed[seat], []).append((seconds / time_limit, not (info["forced"] or info["proven"])))
        board.push(move)


def run(games_per_pairing: int, time_limit: float, from_ply: int = FROM_PLY) -> TimeUseBench:
    makers: dict[str, Callable[[int], BoardAgent]] = {
        "alphabeta": lambda s: AlphaBetaAgent(time_limit=time_limit),
        "mcts": lambda s: MCTSAgent(time_limit=time_limit, seed=s),
        "greedy": lambda s: GreedyAgent(seed=s),
        "random": lambda s: RandomAgent(seed=s),
    }
    rows: list[TimeUseRow] = []
    every: dict[str, list[tuple[float, bool]]] = {kind: [] for kind in TIMED}
    for a, b in PAIRINGS:
        moves: dict[str, list[tuple[float, bool]]] = {}
        agent_a, agent_b = makers[a](1), makers[b](2)  # built (and warmed up) before any timed move
        for g in range(games_per_pairing):
            a_seat = g % 2
            seats = {a_seat: agent_a, 1 - a_seat: agent_b}
            timed = {seat: kind for seat, kind in ((a_seat, a), (1 - a_seat, b)) if kind in TIMED}
            play(seats, timed, Layout.random(g // 2), opening_seed=g // 2, time_limit=time_limit, from_ply=from_ply, out=moves)
        for kind, recs in moves.items():
            every[kind] += recs
            rows.append(_row(kind, f"{a} vs {b}", recs))
        print(f"  {a} vs {b}: {games_per_pairing} games", flush=True)
    rows += [_row(kind, "all", recs) for kind, recs in every.items()]
    return {"machine": machine(), "time_limit": time_limit, "games_per_pairing": games_per_pairing, "from_ply": from_ply,
            "rows": rows}


def _row(kind: str, pairing: str, recs: list[tuple[float, bool]]) -> TimeUseRow:
    return {"agent": kind, "pairing": pairing, "all": summary([f for f, _ in recs]), "searched": summary([f for f, s in recs if s])}


def report(r: TimeUseBench) -> str:
    m = r["machine"]
    lines = [f"machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, Numba {m['numba']}",
             f"time per move / time_limit ({r['time_limit']} s), moves from ply {r['from_ply']} on, "
             f"{r['games_per_pairing']} games per pairing"]
    sections: tuple[tuple[Literal["all", "searched"], str], ...] = (
        ("all", "all moves"), ("searched", "searched moves (not forced, not proven)"))
    for key, title in sections:
        lines += ["", title, "",
                  "| agent | pairing | moves | mean | median | p10 | p90 | max |", "|---|---|---|---|---|---|---|---|"]
        for row in r["rows"]:
            s = row[key]
            if s["moves"]:
                lines.append(f"| {row['agent']} | {row['pairing']} | {s['moves']} | {s['mean']:.3f} | {s['median']:.3f} | "
                             f"{s['p10']:.3f} | {s['p90']:.3f} | {s['max']:.3f} |")
            else:
                lines.append(f"| {row['agent']} | {row['pairing']} | 0 | | | | | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.time_use", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--time-limit", type=float, default=0.1, metavar="SECONDS")
    parser.add_argument("--from-ply", type=int, default=FROM_PLY, metavar="PLY")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    results = run(4 if args.quick else 16, args.time_limit, args.from_ply)
    return print_and_save(results, report, args.json)


if __name__ == "__main__":
    sys.exit(main())
