"""Search speed and strength: solver table, alpha-beta nodes/s, MCTS iterations/s,
agent matches at 0.1 s a move, and how often the agents keep the solver's value.

    python -m benchmarks.search [--quick] [--skip-naive] [--skip-full] [--skip-matches] [--runs N] [--json FILE]

Speeds are on one core (MCTS also with 2 workers), after a warm-up call (compilation
excluded).

The timed figures (:func:`figures`: the seconds of each solve of the solver's table, of
the naive negamax's search and of the exact distance's solve, and the seconds a node of
alpha-beta and an iteration of MCTS) are measured in ``--runs`` independent processes (3
by default), and ``--json FILE`` writes them as a pyperf record made of those processes
(:mod:`donuts_ai.bench.record`; ``python -m pyperf stats FILE`` reads it); each solve's
value, move and nodes are kept as its parameters. The strength matches and the agreement
with the solver are not times: they are played once, in this process, after the runs,
printed with the record's table and not stored in it (``--skip-matches`` leaves them
out). Benchmarks are not tests: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any, NotRequired, TypedDict

from donuts_ai.bench import compare, record, runs, tables
from donuts_ai.bench.engine import alphabeta_speed, mcts_speed
from donuts_ai.bench.record import Figure, solver_name
from donuts_ai.bench.reporting import Machine, machine
from donuts_ai.donuts import kernels as K
from donuts_ai.donuts.agents import AlphaBetaAgent, GreedyAgent, MCTSAgent, RandomAgent
from donuts_ai.donuts.agents.donuts_agent import DonutsAgent
from donuts_ai.donuts.alphabeta import Solver
from donuts_ai.donuts.baselines import naive_value
from donuts_ai.donuts.board import Board
from donuts_ai.donuts.layout import Layout
from donuts_ai.outcomes import value_name

NAIVE_CAP_NODES = 400_000_000  # about a minute of the naive search


class SolverTableRow(TypedDict):
    """One layout of :func:`solver_table`: its value and best move with the solver's time
    and nodes; with ``full`` the distance and fastest move; with ``naive`` the naive
    negamax's time, nodes and whether it finished."""

    layout: str
    seed: int
    value: str
    move: str
    value_s: float
    value_nodes: int
    distance: NotRequired[int | None]
    fastest_move: NotRequired[str]
    full_s: NotRequired[float]
    full_nodes: NotRequired[int]
    naive_s: NotRequired[float]
    naive_nodes: NotRequired[int]
    naive_finished: NotRequired[bool]


class SolverTimes(TypedDict):
    """The solver on random direction grids (:func:`solver_table`)."""

    rows: list[SolverTableRow]
    value_median_s: float
    value_max_s: float
    full_median_s: NotRequired[float]
    full_max_s: NotRequired[float]
    naive_median_s: NotRequired[float]
    speedup_median: NotRequired[float]


class MatchScore(TypedDict):
    """A's results in :func:`match`."""

    games: int
    wins: int
    draws: int
    losses: int
    score: float


class Agreement(TypedDict):
    """Shares of moves keeping the solver's value (:func:`solver_agreement`): ``positions``,
    ``time_limit``, and per agent kind its share."""

    positions: int
    time_limit: float
    alphabeta: float
    mcts: float
    greedy: float


class SpeedFigures(TypedDict):
    """The timed part of this benchmark (:func:`speeds`): the solver's table, and the
    seconds a node of alpha-beta and an iteration of MCTS (1 and 2 workers) as record figures."""

    solver: SolverTimes
    alphabeta: Figure
    mcts_1: Figure
    mcts_all: Figure


class PlayFigures(TypedDict):
    """The part of this benchmark that is not a time (:func:`play_figures`)."""

    strength: dict[str, MatchScore]
    agreement: Agreement


class SearchBench(SpeedFigures, PlayFigures):
    """Every figure of this benchmark (:func:`run`)."""

    machine: Machine
    quick: bool


def _median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def solver_table(n_layouts: int, naive: bool, full: bool) -> SolverTimes:
    """Solve the empty board of ``n_layouts`` uniformly random direction grids."""
    Solver(tt_bits=12).solve(Board(Layout.random_grid(10**6)), distance=False)  # warm-up
    rows: list[SolverTableRow] = []
    for seed in range(n_layouts):
        board = Board(Layout.random_grid(seed))
        name = f"Layout.random_grid({seed})"
        t = time.perf_counter()
        sol = Solver(book=False).solve(board, distance=False)
        row: SolverTableRow = {"layout": name, "seed": seed, "value": sol.result, "move": sol.best_move, "value_s": time.perf_counter() - t,
                               "value_nodes": sol.nodes}
        if full:
            t = time.perf_counter()
            sol = Solver(book=False).solve(board, distance=True)
            row |= {"distance": sol.distance, "fastest_move": sol.best_move, "full_s": time.perf_counter() - t, "full_nodes": sol.nodes}
        if naive:
            t = time.perf_counter()
            v, nodes, finished = naive_value(K.rulebook(board), K.position(board),
                                             NAIVE_CAP_NODES)
            row |= {"naive_s": time.perf_counter() - t, "naive_nodes": int(nodes), "naive_finished": bool(finished)}
            if finished:
                assert value_name(int(v)) == row["value"]
        rows.append(row)
        print("  ", row, flush=True)
    out: SolverTimes = {"rows": rows,
                        "value_median_s": _median([r["value_s"] for r in rows]), "value_max_s": max(r["value_s"] for r in rows)}
    if full:
        out |= {"full_median_s": _median([r["full_s"] for r in rows]), "full_max_s": max(r["full_s"] for r in rows)}
    if naive:
        out |= {"naive_median_s": _median([r["naive_s"] for r in rows]),
                "speedup_median": _median([r["naive_s"] / r["value_s"] for r in rows])}
    return out


def play(agent_a: DonutsAgent, agent_b: DonutsAgent, layout: Layout) -> int | None:
    """One game, ``agent_a`` as Chocolate: the winner's color or None."""
    board = Board(layout)
    agent_a.reset()
    agent_b.reset()
    while not board.is_game_over():
        board.push((agent_a if board.turn == 0 else agent_b).select_move(board))
    outcome = board.outcome()
    assert outcome is not None  # the game is over
    return outcome.winner


def match(make_a: Callable[[int], DonutsAgent], make_b: Callable[[int], DonutsAgent], n_layouts: int, seed: int = 0
          ) -> MatchScore:
    """Both colours on each of ``n_layouts`` random tile arrangements: A's score."""
    wins = draws = games = 0
    for i in range(n_layouts):
        layout = Layout.random(seed + i)
        for a_first in (True, False):
            a, b = make_a(seed + i), make_b(seed + i)
            w = play(a, b, layout) if a_first else play(b, a, layout)
            a_color = 0 if a_first else 1
            games += 1
            if w is None:
                draws += 1
            elif w == a_color:
                wins += 1
    return {"games": games, "wins": wins, "draws": draws, "losses": games - wins - draws, "score": (wins + draws / 2) / games}


def solver_agreement(n_positions: int, time_limit: float) -> Agreement:
    """Fraction of moves at ``time_limit`` that keep the solver's value, on the first
    ``n_positions`` positions of the ``middlegame`` suite (:func:`donuts_ai.evaluate`,
    as :func:`.strength.agreement`)."""
    from benchmarks.strength import AGREEMENT_SUITE
    from donuts_ai.suites.evaluation import EvaluationSettings, evaluate

    agents = {"alphabeta": f"alphabeta:time={time_limit:g}", "mcts": f"mcts:time={time_limit:g}", "greedy": "greedy"}
    result = evaluate(list(agents.values()), suite=AGREEMENT_SUITE, limit=n_positions, settings=EvaluationSettings(isolation="none"))
    scores = result.scores()
    shares = {name: scores[spec][AGREEMENT_SUITE]["kept_share"] for name, spec in agents.items()}
    return {"positions": len(result.suites[AGREEMENT_SUITE]), "time_limit": time_limit, "alphabeta": shares["alphabeta"],
            "mcts": shares["mcts"], "greedy": shares["greedy"]}


def mcts_name(iterations: int, workers: int) -> str:
    """The record's name of the MCTS figure with ``workers`` workers."""
    return f"MCTS, {workers} worker{'s' * (workers > 1)}, {iterations:,} iterations from the empty board"


def naive_name(seed: int) -> str:
    """The record's name of the naive negamax's search of ``Layout.random_grid(seed)``."""
    return f"naive negamax, value of the empty random_grid({seed})"


def speeds(quick: bool, naive: bool, full: bool) -> SpeedFigures:
    """The timed part of :func:`run`: the solver's table (the naive negamax and the exact
    distances unless ``quick``, as ``naive`` and ``full`` say), alpha-beta's node rate
    and MCTS's iteration rate (1 and 2 workers), three repeats each."""
    print("solver table", flush=True)
    solver = solver_table(4 if quick else 12, naive and not quick, full and not quick)
    print("alpha-beta speed", flush=True)
    alphabeta = alphabeta_speed(10 if quick else 14, 3)
    print("mcts speed", flush=True)
    iterations = 50_000 if quick else 200_000
    mcts_1, mcts_all = mcts_speed(iterations, 1, 3), mcts_speed(iterations, 2, 3)
    mcts_1.name, mcts_all.name = mcts_name(iterations, 1), mcts_name(iterations, 2)
    return {"solver": solver, "alphabeta": alphabeta, "mcts_1": mcts_1, "mcts_all": mcts_all}


def speed_figures(sp: SpeedFigures) -> list[Figure]:
    """The timed part as record figures: a solve of each layout (one value; its value, move
    and nodes as parameters), with the exact distance and by the naive negamax where
    measured, then alpha-beta and MCTS."""
    out: list[Figure] = []
    rows = sp["solver"]["rows"]
    for row in rows:
        out.append(Figure(solver_name(f"random_grid({row['seed']})"), "solve", [row["value_s"]],
                          {"value": row["value"], "move": str(row["move"]), "nodes": row["value_nodes"]}))
    for row in rows:
        if "full_s" in row:
            params: dict[str, int | float | str] = {"move": str(row["fastest_move"]), "nodes": row["full_nodes"]}
            if row.get("distance") is not None:
                params["distance"] = int(row["distance"])  # type: ignore[arg-type]  # not None, checked
            out.append(Figure(solver_name(f"random_grid({row['seed']})", distance=True), "solve", [row["full_s"]], params))
    for row in rows:
        if "naive_s" in row:
            out.append(Figure(naive_name(row["seed"]), "solve", [row["naive_s"]],
                              {"nodes": row["naive_nodes"], "finished": "yes" if row["naive_finished"] else "no",
                               "node_cap": NAIVE_CAP_NODES}))
    return [*out, sp["alphabeta"], sp["mcts_1"], sp["mcts_all"]]


def figures(quick: bool, naive: bool = True, full: bool = True) -> list[Figure]:
    """The timed figures of this benchmark (:func:`speeds`) measured in this process, for its record."""
    return speed_figures(speeds(quick, naive, full))


def play_figures(quick: bool) -> PlayFigures:
    """The part of :func:`run` that is not a time: the strength matches at 0.1 s a move,
    and how often the agents keep the solver's value."""
    print("strength", flush=True)
    n = 2 if quick else 8
    strength = {
        "alphabeta_vs_greedy": match(lambda s: AlphaBetaAgent(time_limit=0.1), lambda s: GreedyAgent(seed=s), n),
        "mcts_vs_greedy": match(lambda s: MCTSAgent(time_limit=0.1, seed=s), lambda s: GreedyAgent(seed=s), n),
        "greedy_vs_random": match(lambda s: GreedyAgent(seed=s), lambda s: RandomAgent(seed=s + 1000), 10 if quick else 100),
    }
    print("solver agreement", flush=True)
    agreement = solver_agreement(10 if quick else 60, 0.1)
    return {"strength": strength, "agreement": agreement}


def run(quick: bool, naive: bool, full: bool) -> SearchBench:
    """Every figure, in this process: :func:`speeds` then :func:`play_figures`."""
    computer = machine()
    sp = speeds(quick, naive, full)
    return {"machine": computer, "quick": quick, **sp, **play_figures(quick)}


def _rate(figure: Figure) -> tuple[float, float, float]:
    """(median, least, most) of a figure's rates (units a second)."""
    rates = sorted(1 / v for v in figure.values)
    return statistics.median(rates), rates[0], rates[-1]


def report(r: SearchBench) -> str:
    m = r["machine"]
    lines = [f"machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, Numba {m['numba']}", ""]
    s = r["solver"]
    head = "| layout | value | move | time (s) | nodes | nodes/s |"
    sep = "|---|---|---|---|---|---|"
    if "full_median_s" in s:
        head += " distance | fastest move | time (s) | nodes |"
        sep += "---|---|---|---|"
    if "naive_median_s" in s:
        head += " naive time (s) | naive nodes | speed-up |"
        sep += "---|---|---|"
    lines += [head, sep]
    for row in s["rows"]:
        line = (f"| {row['layout']} | {row['value']} | {row['move']} | {row['value_s']:.3f} | {row['value_nodes']:,} | "
                f"{row['value_nodes'] / row['value_s'] / 1e6:.2f} M |")
        if "full_s" in row:
            line += f" {row['distance']} | {row['fastest_move']} | {row['full_s']:.2f} | {row['full_nodes']:,} |"
        if "naive_s" in row:
            cap = "" if row["naive_finished"] else " (capped)"
            line += f" {row['naive_s']:.2f}{cap} | {row['naive_nodes']:,} | {row['naive_s'] / row['value_s']:.0f}× |"
        lines.append(line)
    lines.append("")
    lines.append(f"value + a best move: median {s['value_median_s']:.3f} s, slowest {s['value_max_s']:.3f} s")
    if "full_median_s" in s:
        lines.append(f"with exact distance: median {s['full_median_s']:.2f} s, slowest {s['full_max_s']:.2f} s")
    if "naive_median_s" in s:
        lines.append(f"naive negamax: median {s['naive_median_s']:.2f} s; median speed-up {s['speedup_median']:.0f}×")
    a = r["alphabeta"]
    lines.append(f"{a.name}: {_rate(a)[0] / 1e6:.2f} M nodes/s ({a.params['nodes']:,} nodes)")
    for key in ("mcts_1", "mcts_all"):
        mc = r[key]
        median, low, high = _rate(mc)
        lines.append(f"{mc.name}: {median:,.0f} iterations/s ({low:,.0f} – {high:,.0f})")
    return "\n".join(lines + play_lines(r))


def play_lines(r: PlayFigures) -> list[str]:
    """The strength matches and the agreement with the solver, a line each."""
    lines = []
    for name, st in r["strength"].items():
        lines.append(f"{name}: {st['wins']} wins, {st['draws']} draws, {st['losses']} losses in {st['games']} games "
                     f"(score {st['score']:.0%})")
    ag = r["agreement"]
    lines.append(f"moves keeping the solver's value ({ag['positions']} positions, {ag['time_limit']} s a move): "
                 f"alpha-beta {ag['alphabeta']:.0%}, MCTS {ag['mcts']:.0%}, greedy {ag['greedy']:.0%}")
    return lines


def naive_speedups(suite: Any) -> list[tuple[str, float, float, float]]:
    """(name, speed-up, low, high) of each layout the naive negamax searched: its time over
    the solver's, derived from the record's two stored times (each run measured both, so
    the runs are paired). A capped naive search makes the speed-up a lower bound."""
    by_name = record.figures_of(suite)
    out = []
    for name, naive in by_name.items():
        layout = name.removeprefix("naive negamax, value of the empty ")
        solver = by_name.get(solver_name(layout))
        if layout == name or solver is None:
            continue
        capped = any(r.get_metadata().get("param_finished") == "no" for r in naive.get_runs())
        out.append((f"naive negamax / solver, {layout}{' (capped: at least)' if capped else ''}",
                    *compare.speed_within(naive, solver)))
    return out


def record_report(suite: Any, play: PlayFigures | None = None) -> str:
    """A record of this benchmark as a table (each figure with its interval over the runs,
    the naive negamax's speed-ups derived from the stored times), then the lines of the
    matches and the agreement, when given."""
    return "\n".join([tables.record_text(suite, naive_speedups(suite)), *(play_lines(play) if play else [])])


def main(argv: list[str] | None = None, prog: str = "python -m benchmarks.search") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="4 layouts, no naive baseline nor exact distances, smaller searches, fewer games")
    parser.add_argument("--skip-naive", action="store_true", help="do not run the naive baseline")
    parser.add_argument("--skip-full", action="store_true", help="do not solve the exact distances")
    parser.add_argument("--skip-matches", action="store_true",
                        help="do not play the strength matches nor measure the agreement with the solver")
    runs.add_record_options(parser, printed_only="the matches and the agreement are")
    args = parser.parse_args(argv)

    def report_all(suite: Any) -> str:
        return record_report(suite, None if args.skip_matches else play_figures(args.quick))

    settings = ", ".join(["quick" if args.quick else "full", *(["no naive"] if args.skip_naive else []),
                          *(["no exact distances"] if args.skip_full else [])])
    return runs.record_main(parser, args, argv, "benchmarks.search",
                              lambda: (figures(args.quick, not args.skip_naive, not args.skip_full), settings),
                              report_all)


if __name__ == "__main__":
    sys.exit(main())

