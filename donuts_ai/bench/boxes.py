"""``python -m donuts_ai.bench.boxes``: the Donut Boxes engine and agents on this machine.

Measures random 2-player games per second on one core (the target is 10,000: deal and
play to the end with uniformly random legal moves, one compiled call,
:func:`random_games`), the same for 4 players, ISMCTS iterations per
second (2 and 4 players, early, middle and late positions; iterations over the time
spent in the tree, and over the whole move with the determinisation and the greedy
ordering of the root), and how long timed ISMCTS moves really take against their
limit. Each speed is measured by :func:`~donuts_ai.bench.record.measure_work` (warm-up
calls keep compilation out; repeats of at least 100 ms) in ``--runs`` processes.
``--quick`` finishes in well under a minute; ``--json FILE`` writes the record. Benchmarks are not tests: nothing here asserts a speed.
"""

from __future__ import annotations

import dataclasses
import itertools
import statistics
import time
from collections.abc import Callable
from typing import TypedDict

from .._argparse import OneLineParser
from .._checks import check_int
from ..boxes import BoxesError, BoxesRules, BoxesState, playouts
from ..boxes.agents import ISMCTSAgent, warm_up
from . import runs
from .record import MIN_REPEAT_SECONDS, Figure, boxes_games_name, ismcts_name, measure_work
from .reporting import RateStats, rate_stats

#: Random moves played from a fresh deal to reach the positions ISMCTS is timed on, as a
#: share of a random game's length (early, middle, late).
PHASES = (0.0, 0.4, 0.75)
#: Deals the speed figures are averaged over.
DEALS = (1, 2, 3)
#: Games played (untimed) first so that compilation and caches are out of the measure.
WARM_UP_GAMES = 20


class RandomGames(TypedDict):
    """One compiled call of random games (:func:`random_games`)."""

    rules: str
    games: int
    seconds: float
    games_per_second: float
    mean_turns: float


class RandomGameSpeed(RateStats):
    """Random games per second over repeats (:func:`random_game_speed`)."""

    games: int
    mean_turns: float


class MoveTimes(TypedDict):
    """Seconds timed moves took against one limit (:func:`time_use`)."""

    median: float
    max: float
    moves: int
    seconds: list[float]  # each move's


def random_games(games: int = 5000, rules: BoxesRules | None = None, seed: int = 0) -> RandomGames:
    """Deal and play ``games`` random games (uniformly random legal moves) in one compiled
    call on one core, after a warm-up. Returns ``games``, ``seconds``, ``games_per_second``,
    ``mean_turns`` and the ``rules`` (default: 2 players, Squared Away, One Good Match)."""
    games = check_int("games", games, minimum=1, error=BoxesError)
    seed = check_int("seed", seed, minimum=0, error=BoxesError)
    rules = BoxesRules() if rules is None else rules
    scratch = playouts.playout_tables(rules)
    playouts.random_games(scratch, WARM_UP_GAMES, seed + 1)
    start = time.perf_counter()
    _scores, _places, turns = playouts.random_games(scratch, games, seed)
    seconds = time.perf_counter() - start
    return {"rules": str(rules), "games": games, "seconds": seconds, "games_per_second": games / seconds,
            "mean_turns": float(turns.mean())}





def random_game_speed(players: int, games: int, repeats: int) -> RandomGameSpeed:
    """Random games per second on one core (one compiled call per repeat)."""
    rates, turns = [], []
    for r in range(repeats):
        out = random_games(games, BoxesRules(players=players), seed=r)
        rates.append(out["games_per_second"])
        turns.append(out["mean_turns"])
    return {**rate_stats(rates), "games": games, "mean_turns": statistics.mean(turns)}


def _positions(players: int) -> list[tuple[str, BoxesState]]:
    """(phase, state) for every deal and phase: a random game's moves replayed to that point."""
    out: list[tuple[str, BoxesState]] = []
    for deal in DEALS:
        full = BoxesState(BoxesRules(players=players), deal)
        moves: list[int] = []
        while not full.is_game_over():
            code = full.random_move_id(deal * 1000 + len(moves))
            moves.append(code)
            full.push_id(code)
        for phase in PHASES:
            state = BoxesState(BoxesRules(players=players), deal)
            for code in moves[: int(phase * len(moves))]:
                state.push_id(code)
            out.append((f"{phase:.0%}", state))
    return out


def time_use(players: int, limits: tuple[float, ...], moves: int) -> dict[str, MoveTimes]:
    """Seconds timed ISMCTS moves take against ``limits``: median and most, over the first
    ``moves`` moves of a game of ISMCTS players (every move searched, none forced)."""
    out: dict[str, MoveTimes] = {}
    for limit in limits:
        agents = [ISMCTSAgent(time_limit=limit, seed=p) for p in range(players)]
        state = BoxesState(BoxesRules(players=players), 5)
        taken: list[float] = []
        while not state.is_game_over() and len(taken) < moves:
            player = state.turn
            assert player is not None  # the game is not over
            agent = agents[player]
            start = time.perf_counter()
            move = agent.select_move(state.observation(player))
            taken.append(time.perf_counter() - start)
            state.push(move)
        out[str(limit)] = {"median": statistics.median(taken), "max": max(taken), "moves": len(taken), "seconds": taken}
    return out


def _games_played(games: int, rules: BoxesRules) -> Callable[[], int]:
    """A call of ``games`` random games, each call from the next seed: the work of a figure."""
    seeds = itertools.count()
    return lambda: random_games(games, rules, next(seeds))["games"]


#: The time limits of the timed ISMCTS moves in ``donuts-ai bench``'s record (a limit of
#: 1 ms gives raw times under pyperf's 1 ms floor: ``python -m benchmarks.time_use`` covers it).
RECORD_LIMITS = (0.01, 0.1)


def figures(quick: bool = False, min_seconds: float = MIN_REPEAT_SECONDS) -> list[Figure]:
    """The figures of :func:`run` for ``donuts-ai bench``'s record, each measured by
    :func:`~donuts_ai.bench.record.measure_work` (repeats of at least ``min_seconds``, CPU time,
    the yardstick): seconds a random game, an ISMCTS iteration (over the whole move, and
    over the time in the compiled tree alone, from the same moves), and a timed move."""
    warm_up()
    random_games(WARM_UP_GAMES)
    repeats = 3 if quick else 5
    games = 2000 if quick else 10000
    iterations = 200 if quick else 1000
    out = []
    for players in (2, 4):
        n = games if players == 2 else games // 2
        out.append(measure_work(boxes_games_name(players), "game", _games_played(n, BoxesRules(players=players)),
                                repeats, {"games": n}, min_seconds=min_seconds))
    for players in (2, 4):
        positions = _positions(players)
        tree_log: list[tuple[int, float]] = []  # (iterations, seconds in the tree) of every call

        def whole_moves(positions: list[tuple[str, BoxesState]] = positions,
                        tree_log: list[tuple[int, float]] = tree_log) -> int:
            done, tree_seconds = 0, 0.0
            for _phase, state in positions:
                agent = ISMCTSAgent(simulations=iterations, seed=len(tree_log))
                agent.select_move(state)
                done += agent.last_info["iterations"]
                tree_seconds += agent.last_info["search_seconds"]
            tree_log.append((done, tree_seconds))
            return done

        move = measure_work(ismcts_name(players, whole_move=True), "iteration", whole_moves, repeats,
                            {"iterations": iterations}, min_seconds=min_seconds)
        timed = tree_log[move.warmup_calls:]  # the repeats' calls, ``move.calls`` a repeat
        tree_values = []
        for r in range(repeats):
            calls = timed[r * move.calls:(r + 1) * move.calls]
            tree_values.append(sum(s for _, s in calls) / sum(i for i, _ in calls))
        # The same calls, timed in the tree alone: the machine's readings are the move's, and
        # the wall time is shared between the two figures, so that pyperf adds it up once.
        move.duration = None if move.duration is None else move.duration / 2
        out.append(dataclasses.replace(move, name=ismcts_name(players, whole_move=False), values=tree_values))
        out.append(move)
    for limit, times in time_use(4, RECORD_LIMITS, 12 if quick else 40).items():
        out.append(Figure(f"Donut Boxes timed ISMCTS move, 4 players, limit {limit} s", "move", times["seconds"],
                          {"limit": float(limit)}, duration=sum(times["seconds"]), time_limited=True))
    return out


def main(argv: list[str] | None = None, prog: str = "python -m donuts_ai.bench.boxes") -> int:
    parser = OneLineParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, few repeats: well under a minute")
    runs.add_record_options(parser)
    args = parser.parse_args(argv)
    return runs.record_main(parser, args, argv, "donuts_ai.bench.boxes",
                              lambda: (figures(args.quick), "quick" if args.quick else "full"))


if __name__ == "__main__":
    raise SystemExit(main())
