"""How much of its per-move budget each searching agent spends in the middle game.

    python -m benchmarks.time_use [--quick] [--games N] [--time-limit SECONDS] [--from-ply PLY] [--runs N] [--json FILE]

Plays alpha-beta and MCTS at ``time_limit`` seconds a move against a greedy and a random
opponent and against each other, on random tile arrangements, both colours, each game from
a random opening of :data:`OPENING_PLIES` plies. Every move of a timed agent from ply
``--from-ply`` on is timed from outside, as a tournament sees it, and reported as a
fraction of ``time_limit`` (mean, median, p10, p90, max), over all those moves and over the
"searched" ones: not moves its tactical pass chose without searching (``forced``), nor
moves whose search proved the game's value (``proven``). The games are played in
``--runs`` independent processes, and ``--json FILE`` writes a pyperf record of them
(:mod:`donuts_ai.bench.record`): the seconds each counted move took (:func:`figures`), the
kind of each move beside them. Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any, Literal, NotRequired, TypedDict

from donuts_ai.bench import record, runs, tables
from donuts_ai.bench.record import Figure
from donuts_ai.bench.reporting import Machine, machine
from donuts_ai.donuts.agents import AlphaBetaAgent, GreedyAgent, MCTSAgent, RandomAgent
from donuts_ai.donuts.agents.donuts_agent import DonutsAgent
from donuts_ai.donuts.board import Board
from donuts_ai.donuts.layout import Layout

#: Random plies before the agents take over: every game a different middle game.
OPENING_PLIES = 2
#: Moves before this ply are openings: not counted (``--from-ply``). At 0.1 s a move
#: alpha-beta proves most positions of the standard game from about ply 6 on.
FROM_PLY = 6
#: The searching agents and the opponents they meet.
PAIRINGS = [("alphabeta", "greedy"), ("alphabeta", "random"), ("mcts", "greedy"), ("mcts", "random"), ("alphabeta", "mcts")]
TIMED = ("alphabeta", "mcts")
#: Games per pairing: (full, quick).
GAMES = (16, 4)
#: The kind of a counted move, as the record's ``kinds`` parameter spells it: searched
#: until the budget stopped it, chosen by the tactical pass without a search, or proven.
SEARCHED, FORCED, PROVEN = "s", "f", "p"


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


class TimedMoves(TypedDict):
    """Every counted move of one timed agent against one opponent: the seconds each took,
    and its kind (``kinds``: a letter a move, :data:`SEARCHED`, :data:`FORCED` or :data:`PROVEN`)."""

    agent: str
    opponent: str
    pairing: str
    seconds: list[float]
    kinds: str


class TimeUseBench(TypedDict):
    """Every figure of this benchmark (:func:`run`); ``moves`` keeps every counted move."""

    machine: Machine
    time_limit: float
    games_per_pairing: int
    from_ply: int
    rows: list[TimeUseRow]
    moves: list[TimedMoves]


def _quantile(sorted_xs: list[float], q: float) -> float:
    """Nearest-rank quantile of an ascending list."""
    return sorted_xs[min(len(sorted_xs) - 1, max(0, round(q * (len(sorted_xs) - 1))))]


def summary(fractions: list[float]) -> MoveShares:
    xs = sorted(fractions)
    if not xs:
        return {"moves": 0}
    return {"moves": len(xs), "mean": statistics.fmean(xs), "median": statistics.median(xs), "p10": _quantile(xs, 0.1),
            "p90": _quantile(xs, 0.9), "max": xs[-1]}


def play(seats: dict[int, DonutsAgent], timed: dict[int, str], layout: Layout, *, opening_seed: int, time_limit: float,
         from_ply: int, out: dict[str, list[tuple[float, str]]]) -> None:
    """One game from a random opening; appends ``(seconds, kind)`` of every counted move
    of a timed seat to ``out[timed[seat]]`` (``time_limit``: the agents' own)."""
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
            kind = FORCED if info["forced"] else PROVEN if info["proven"] else SEARCHED
            out.setdefault(timed[seat], []).append((seconds, kind))
        board.push(move)


def run(games_per_pairing: int, time_limit: float, from_ply: int = FROM_PLY) -> TimeUseBench:
    makers: dict[str, Callable[[int], DonutsAgent]] = {
        "alphabeta": lambda s: AlphaBetaAgent(time_limit=time_limit),
        "mcts": lambda s: MCTSAgent(time_limit=time_limit, seed=s),
        "greedy": lambda s: GreedyAgent(seed=s),
        "random": lambda s: RandomAgent(seed=s),
    }
    rows: list[TimeUseRow] = []
    timed_moves: list[TimedMoves] = []
    every: dict[str, list[tuple[float, str]]] = {kind: [] for kind in TIMED}
    for a, b in PAIRINGS:
        moves: dict[str, list[tuple[float, str]]] = {}
        agent_a, agent_b = makers[a](1), makers[b](2)  # built (and warmed up) before any timed move
        for g in range(games_per_pairing):
            a_seat = g % 2
            seats = {a_seat: agent_a, 1 - a_seat: agent_b}
            timed = {seat: kind for seat, kind in ((a_seat, a), (1 - a_seat, b)) if kind in TIMED}
            play(seats, timed, Layout.random(g // 2), opening_seed=g // 2, time_limit=time_limit, from_ply=from_ply, out=moves)
        for kind, recs in moves.items():
            every[kind] += recs
            rows.append(_row(kind, f"{a} vs {b}", recs, time_limit))
            timed_moves.append({"agent": kind, "opponent": b if kind == a else a, "pairing": f"{a} vs {b}",
                                "seconds": [t for t, _ in recs], "kinds": "".join(k for _, k in recs)})
        print(f"  {a} vs {b}: {games_per_pairing} games", flush=True)
    rows += [_row(kind, "all", recs, time_limit) for kind, recs in every.items()]
    return {"machine": machine(), "time_limit": time_limit, "games_per_pairing": games_per_pairing, "from_ply": from_ply,
            "rows": rows, "moves": timed_moves}


def _row(kind: str, pairing: str, recs: list[tuple[float, str]], time_limit: float) -> TimeUseRow:
    return {"agent": kind, "pairing": pairing, "all": summary([t / time_limit for t, _ in recs]),
            "searched": summary([t / time_limit for t, k in recs if k == SEARCHED])}


def figure_name(agent: str, opponent: str, time_limit: float, from_ply: int) -> str:
    """The record's name of the moves of ``agent`` against ``opponent``."""
    return f"{agent} move at {time_limit:g} s against {opponent}, from ply {from_ply}"


def figures(games_per_pairing: int, time_limit: float, from_ply: int = FROM_PLY) -> list[Figure]:
    """The moves of :func:`run` as record figures: for each timed agent and opponent, the
    seconds each counted move took (a value a move, in the order played), the kind of
    each as the parameter ``kinds`` (a letter a move: ``s`` searched, ``f`` forced, ``p``
    proven); an agent and opponent without a counted move give no figure."""
    r = run(games_per_pairing, time_limit, from_ply)
    return [Figure(figure_name(m["agent"], m["opponent"], time_limit, from_ply), "move", m["seconds"],
                   {"agent": m["agent"], "pairing": m["pairing"], "time_limit": time_limit, "from_ply": from_ply,
                    "games": games_per_pairing, "kinds": m["kinds"]}, time_limited=True)
            for m in r["moves"] if m["seconds"]]


def rows_of(suite: Any) -> tuple[list[TimeUseRow], float | None]:
    """The rows of :func:`report`'s tables from a record of this benchmark, over all its
    runs (every agent against every opponent, then each agent against all), and the time
    limit (``None`` when the runs disagree)."""
    recs: dict[tuple[str, str], list[tuple[float, str]]] = {}
    limits = set()
    for benchmark in suite:
        for run_ in benchmark.get_runs():
            meta = run_.get_metadata()
            kinds = str(meta.get("param_kinds", ""))
            if len(kinds) != len(run_.values):  # not a record of this benchmark's: every move counted as searched
                kinds = SEARCHED * len(run_.values)
            key = (str(meta.get("param_agent", benchmark.get_name())), str(meta.get("param_pairing", "")))
            recs.setdefault(key, []).extend(zip(run_.values, kinds, strict=True))
            limits.add(float(meta.get("param_time_limit", 0.0)))
    limit = limits.pop() if len(limits) == 1 else None
    scale = limit if limit else 1.0
    rows = [_row(agent, pairing, moves, scale) for (agent, pairing), moves in recs.items()]
    agents = list(dict.fromkeys(agent for agent, _ in recs))
    rows += [_row(agent, "all", [m for (a, _), ms in recs.items() if a == agent for m in ms], scale) for agent in agents]
    return rows, limit


def report(r: TimeUseBench) -> str:
    m = r["machine"]
    lines = [f"machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, Numba {m['numba']}",
             f"time per move / time_limit ({r['time_limit']} s), moves from ply {r['from_ply']} on, "
             f"{r['games_per_pairing']} games per pairing"]
    return "\n".join(lines + _tables(r["rows"]))


def record_report(suite: Any) -> str:
    """A record of this benchmark: each figure's time a move with its interval over the
    runs, then the tables of :func:`report` over every run's moves."""
    rows, limit = rows_of(suite)
    settings = ", ".join(str(v) for v in record.metadata_values(suite, record.SETTINGS_KEY))
    title = (f"time per move / time_limit ({limit:g} s), {settings}, over all runs" if limit else
             "seconds per move (the runs' time limits differ), over all runs")
    return "\n".join([tables.record_text(suite), "", title, *_tables(rows)])


def _tables(rows: list[TimeUseRow]) -> list[str]:
    lines: list[str] = []
    sections: tuple[tuple[Literal["all", "searched"], str], ...] = (
        ("all", "all moves"), ("searched", "searched moves (not forced, not proven)"))
    for key, title in sections:
        lines += ["", title, "",
                  "| agent | pairing | moves | mean | median | p10 | p90 | max |", "|---|---|---|---|---|---|---|---|"]
        for row in rows:
            s = row[key]
            if s["moves"]:
                lines.append(f"| {row['agent']} | {row['pairing']} | {s['moves']} | {s['mean']:.3f} | {s['median']:.3f} | "
                             f"{s['p10']:.3f} | {s['p90']:.3f} | {s['max']:.3f} |")
            else:
                lines.append(f"| {row['agent']} | {row['pairing']} | 0 | | | | | |")
    return lines


def main(argv: list[str] | None = None, prog: str = "python -m benchmarks.time_use") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{GAMES[1]} games per pairing (default {GAMES[0]})")
    parser.add_argument("--games", type=int, metavar="N", help="games per pairing (overrides --quick's)")
    parser.add_argument("--time-limit", type=float, default=0.1, metavar="SECONDS", help="seconds a move (default 0.1)")
    parser.add_argument("--from-ply", type=int, default=FROM_PLY, metavar="PLY",
                        help=f"count the moves from this ply on (default {FROM_PLY})")
    runs.add_record_options(parser)
    args = parser.parse_args(argv)
    games = args.games if args.games is not None else GAMES[args.quick]
    if games < 1 or not args.time_limit > 0 or args.from_ply < 0:
        parser.error("--games must be at least 1, --time-limit above 0 and --from-ply at least 0")
    settings = f"{games} games per pairing, moves from ply {args.from_ply} on"
    return runs.record_main(parser, args, argv, "benchmarks.time_use",
                              lambda: (figures(games, args.time_limit, args.from_ply), settings), record_report)


if __name__ == "__main__":
    sys.exit(main())
