"""Strength against thinking time: each searching agent at ``T`` seconds a move against
itself at ``T/4``, and how often its moves keep the solver's value.

    python -m benchmarks.strength [--pairs N] [--times 0.1,0.4,1.6] [--agents mcts,alphabeta]
                                  [--positions N] [--agreement-time S] [--skip-matches] [--skip-agreement]
                                  [--results-dir DIR] [--isolation none|process] [--seeds S,S] [--json FILE]

Matches (:func:`match`): ``kind:time=T`` against ``kind:time=T/4`` in ``--pairs``
colour-swapped pairs a seed through :func:`donuts_ai.tournament.run`, each pair on a fresh
random tile arrangement; the score with a 95% interval from the pairs, the Elo it implies,
the first player's wins and the seconds a move. With ``--results-dir`` every match is
written there and resumed when run again. Agreement (:func:`agreement`): on the
``middlegame`` suite's positions, the share of moves at ``--agreement-time`` that keep the
solver's value, with a 95% Wilson interval, for alpha-beta, MCTS (prover on and off) and
greedy, by :func:`donuts_ai.evaluate`. One process at a time, one core an agent. Not a
test: nothing here asserts a strength; each run prints its machine.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections.abc import Iterable
from typing import NotRequired, TypedDict

from donuts_ai import tournament
from donuts_ai.bench.reporting import Machine, machine, print_and_save
from donuts_ai.donuts.agents import AlphaBetaAgent, GreedyAgent, MCTSAgent
from donuts_ai.donuts.agents.donuts_agent import DonutsAgent
from donuts_ai.donuts.board import Board
from donuts_ai.donuts.layout import Layout
from donuts_ai.suites.evaluation import EvaluationSettings, evaluate
from donuts_ai.suites.report import Z_95, wilson
from donuts_ai.tournament.match import ISOLATIONS, score_of
from donuts_ai.tournament.records import GameRecord

#: The thinking times of the issue (seconds a move) and the ratio of the weaker side.
TIMES = (0.1, 0.4, 1.6)
RATIO = 4
KINDS = ("mcts", "alphabeta")
#: The suite of the agreement figures (its first positions).
AGREEMENT_SUITE = "middlegame"
#: Positions of uniformly random games (:func:`agreement_positions`, for the tests of the
#: MCTS root prover): the generator's seed and plies.
AGREEMENT_SEED = 7
AGREEMENT_PLIES = (6, 24)  # randrange: ply 6 to 23


class PairStats(TypedDict):
    """A's score per game from pentanomial counts (:func:`pair_stats`); only ``pairs`` when there were none."""

    pairs: int
    pentanomial: NotRequired[list[int]]
    score: NotRequired[float]
    ci95: NotRequired[list[float]]
    elo: NotRequired[float]
    elo_ci95: NotRequired[list[float]]


class StrengthMatch(PairStats):
    """An agent at T against itself at T/:data:`RATIO` (:func:`match`)."""

    kind: str
    time: float
    weak_time: float
    strong: str
    weak: str
    seeds: list[int]
    wall_s: float
    games: int
    wins: int
    draws: int
    losses: int
    first_player_wins: float
    strong_s_per_move: float
    weak_s_per_move: float
    events: int


class MissedMove(TypedDict):
    """A position where an agent's move lost the solver's value."""

    fen: str
    value: int
    move: str


class AgentAgreement(TypedDict):
    """An agent's moves keeping the solver's value (:func:`agreement`)."""

    kept: int
    share: float
    ci95: list[float]
    missed: list[MissedMove]


class AgreementFigures(TypedDict):
    """Every agent's agreement with the solver (:func:`agreement`)."""

    positions: int
    time_limit: float
    values: dict[str, int]
    agents: dict[str, AgentAgreement]


class StrengthBench(TypedDict):
    """Every figure of this benchmark (:func:`run`)."""

    machine: Machine
    pairs_per_seed: int
    seeds: list[int]
    ratio: int
    matches: list[StrengthMatch]
    agreement: NotRequired[AgreementFigures]


def pair_stats(pentanomial: list[int]) -> PairStats:
    """Score per game of A from pentanomial counts (pairs scoring 0, 1/2, 1, 3/2, 2): the
    mean, its 95% interval (normal, on pair scores, sample variance; [0, 1] below two
    pairs), and the Elo difference of the mean and of the interval's ends (logistic;
    infinite at 0 or 1)."""
    n = sum(pentanomial)
    if n == 0:
        return {"pairs": 0}
    scores = [k / 4 for k in range(5)]  # a pair's score per game
    mean = sum(c * s for c, s in zip(pentanomial, scores, strict=True)) / n
    if n > 1:
        var = sum(c * (s - mean) ** 2 for c, s in zip(pentanomial, scores, strict=True)) / (n - 1)
        half = Z_95 * math.sqrt(var / n)
        lo, hi = max(0.0, mean - half), min(1.0, mean + half)
    else:
        lo, hi = 0.0, 1.0
    return {"pairs": n, "pentanomial": list(pentanomial), "score": mean, "ci95": [lo, hi], "elo": elo(mean),
            "elo_ci95": [elo(lo), elo(hi)]}


def elo(score: float) -> float:
    """Logistic Elo difference of an expected score."""
    if math.isnan(score):
        return math.nan
    if score <= 0 or score >= 1:
        return math.copysign(math.inf, score - 0.5)
    return -400 * math.log10(1 / score - 1) + 0.0  # + 0.0: no "-0"


def match(kind: str, t: float, pairs: int, seeds: list[int], results_dir: str | None, isolation: str) -> StrengthMatch:
    """``kind:time=t`` against ``kind:time=t/RATIO``: ``pairs`` colour-swapped pairs per
    seed (one tournament, and with ``results_dir`` one resumable results file, each), the
    counts summed over the seeds."""
    strong, weak = f"{kind}:time={t:g}", f"{kind}:time={t / RATIO:g}"
    started = time.perf_counter()
    pentanomial: list[int] = [0] * 5
    games: list[GameRecord] = []
    events = 0
    for seed in seeds:
        path = None if results_dir is None else os.path.join(results_dir, f"strength_{kind}_{t:g}_seed{seed}_pairs{pairs}.jsonl")
        results = tournament.run([strong, weak], game="donuts", games=2 * pairs, seed=seed, workers=1, isolation=isolation,
                                 results_path=path,
                                 config=tournament.HarnessConfig(resume=path is not None and os.path.exists(path)))
        pentanomial = [x + y for x, y in zip(pentanomial, results.pentanomial(strong, weak), strict=True)]
        games += results.two_player_games()
        events += len(results.events())
    # wall_s: this run's seconds (a resumed match counts only the games it had left to play)
    wall_s = time.perf_counter() - started
    scores = [score_of(g, g.names.index(strong)) for g in games]
    per_move = []
    for name in (strong, weak):
        seconds = sum(g.times[g.names.index(name)] for g in games)
        turns = sum(g.turns[g.names.index(name)] for g in games)
        per_move.append(seconds / max(1, turns))
    return {"kind": kind, "time": t, "weak_time": t / RATIO, "strong": strong, "weak": weak, "seeds": list(seeds),
            "wall_s": wall_s, "games": len(games), **pair_stats(pentanomial),
            "wins": scores.count(1.0), "draws": scores.count(0.5), "losses": scores.count(0.0),
            "first_player_wins": sum(g.winner == 0 for g in games) / max(1, len(games)),
            "strong_s_per_move": per_move[0], "weak_s_per_move": per_move[1], "events": events}


def agreement_positions(n: int, seed: int = AGREEMENT_SEED, plies: tuple[int, int] = AGREEMENT_PLIES) -> list[Board]:
    """``n`` positions of uniformly random games on random direction grids, at a ply drawn
    uniformly from ``range(*plies)`` (by default 6 to 23), not over, all from ``seed``
    (unlabelled: the agreement figures use the ``middlegame`` suite instead)."""
    rng = random.Random(seed)
    positions: list[Board] = []
    while len(positions) < n:
        board = Board(Layout.random_grid(rng.randrange(10**6)))
        target = rng.randrange(*plies)
        while not board.is_game_over() and board.ply < target:
            board.push(rng.choice(board.legal_moves()))
        if not board.is_game_over():
            positions.append(board)
    return positions


def agreement_agents(time_limit: float) -> dict[str, DonutsAgent]:
    """Name: a fresh agent at ``time_limit`` seconds a move (built once, used on every position)."""
    return {
        "alphabeta": AlphaBetaAgent(time_limit=time_limit),
        "mcts": MCTSAgent(time_limit=time_limit, seed=1),
        "mcts_tree_only": MCTSAgent(time_limit=time_limit, seed=1, proof_share=0),
        "greedy": GreedyAgent(seed=1),
    }


def agreement(n_positions: int, time_limit: float, names: list[str] | None = None) -> AgreementFigures:
    """Per agent: moves keeping the solver's value (``kept`` of ``positions``, the first
    ``n_positions`` of the :data:`AGREEMENT_SUITE` suite), the share with its 95% Wilson
    interval, and the positions (FEN) where the move lost the value."""
    agents = {name: agent for name, agent in agreement_agents(time_limit).items() if names is None or name in names}
    result = evaluate(list(agents.values()), suite=AGREEMENT_SUITE, limit=n_positions, settings=EvaluationSettings(isolation="none"))
    suite = result.suites[AGREEMENT_SUITE]
    values = [p.value for p in suite.positions]
    out: AgreementFigures = {"positions": len(suite), "time_limit": time_limit,
                             "values": {str(v): values.count(v) for v in (-1, 0, 1)}, "agents": {}}
    scores = result.scores()
    for name, shown in zip(agents, result.agents, strict=True):
        kept = scores[shown][AGREEMENT_SUITE]["kept"]
        missed: list[MissedMove] = [
            {"fen": suite.positions[a["index"]].board().fen(), "value": suite.positions[a["index"]].value, "move": str(a["move"])}
            for a in result.answers[shown][AGREEMENT_SUITE]
            if a["event"] is not None or not suite.positions[a["index"]].keeps(str(a["move"]))]
        out["agents"][name] = {"kept": kept, "share": kept / len(suite), "ci95": wilson(kept, len(suite)), "missed": missed}
        print(f"  agreement {name}: {kept}/{len(suite)}", flush=True)
    return out


def run(kinds: Iterable[str], times: Iterable[float], *, pairs: int, seeds: list[int], n_positions: int, agreement_time: float,
        results_dir: str | None, isolation: str) -> StrengthBench:
    """The matches of each kind at each time against itself at a quarter of it, then the
    agreement with the solver.

    Args:
        kinds: agent kinds to match (none: no matches).
        times: the times T, seconds a move.
        pairs: colour-swapped pairs per match and seed.
        seeds: tournament seeds; each adds ``pairs`` pairs.
        n_positions: agreement positions (0: no agreement).
        agreement_time: seconds a move for the agreement.
        results_dir: where each match's results file goes (and resumes), or None.
        isolation: the tournament's isolation.

    Returns:
        The figures, as :func:`report` prints them.
    """
    res: StrengthBench = {"machine": machine(), "pairs_per_seed": pairs, "seeds": list(seeds), "ratio": RATIO, "matches": []}
    for kind in kinds:
        for t in times:
            print(f"{kind}: time={t:g} vs {t / RATIO:g}, {pairs} pairs x {len(seeds)} seeds", flush=True)
            m = match(kind, t, pairs, seeds, results_dir, isolation)
            print(f"  score {m['score']:.3f} {m['ci95']} in {m['wall_s']:.0f} s", flush=True)
            res["matches"].append(m)
    if n_positions:
        print(f"agreement: {n_positions} positions, {agreement_time:g} s a move", flush=True)
        res["agreement"] = agreement(n_positions, agreement_time)
    return res


def report(r: StrengthBench) -> str:
    m = r["machine"]
    lines = [f"machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, Numba {m['numba']}", ""]
    if r["matches"]:
        lines += [f"agent at T against itself at T/{r['ratio']}: colour-swapped pairs on random tile arrangements "
                  f"(seeds {', '.join(map(str, r['seeds']))})",
                  "| agent | T (s) | pairs | W-D-L (at T) | score at T [95%] | Elo [95%] | first player won | "
                  "s/move at T, T/4 |",
                  "|---|---|---|---|---|---|---|---|"]
        for x in r["matches"]:
            lo, hi = x["ci95"]
            elo_lo, elo_hi = x["elo_ci95"]
            lines.append(f"| {x['kind']} | {x['time']:g} | {x['pairs']} | {x['wins']}-{x['draws']}-{x['losses']} | "
                         f"{x['score']:.1%} [{lo:.1%}, {hi:.1%}] | {x['elo']:+.0f} [{elo_lo:+.0f}, {elo_hi:+.0f}] | "
                         f"{x['first_player_wins']:.0%} | {x['strong_s_per_move']:.3f}, {x['weak_s_per_move']:.3f} |")
        lines.append("")
    ag = r.get("agreement")
    if ag:
        lines.append(f"moves keeping the solver's value: {ag['positions']} positions of the {AGREEMENT_SUITE} suite "
                     f"({ag['values']['1']} won, {ag['values']['0']} drawn, {ag['values']['-1']} lost for the side to "
                     f"move), {ag['time_limit']:g} s a move")
        for name, a in ag["agents"].items():
            lo, hi = a["ci95"]
            lines.append(f"  {name:15s} {a['kept']:4d}/{ag['positions']} = {a['share']:.1%} [95%: {lo:.1%}, {hi:.1%}]")
    return "\n".join(lines)


def _floats(text: str) -> list[float]:
    try:
        values = [float(x) for x in text.split(",") if x]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds separated by commas, got {text!r}") from None
    if not values or any(not 0 < v < math.inf for v in values):
        raise argparse.ArgumentTypeError(f"expected positive seconds separated by commas, got {text!r}")
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.strength", description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20, help="colour-swapped pairs per match and seed (default 20)")
    parser.add_argument("--times", type=_floats, default=list(TIMES), help="T values, seconds (default 0.1,0.4,1.6)")
    parser.add_argument("--agents", default=",".join(KINDS), help="agent kinds (default mcts,alphabeta)")
    parser.add_argument("--positions", type=int, default=300, help="agreement positions (default 300; 0: none)")
    parser.add_argument("--agreement-time", type=float, default=0.1, help="seconds a move for the agreement (0.1)")
    parser.add_argument("--skip-matches", action="store_true")
    parser.add_argument("--skip-agreement", action="store_true")
    parser.add_argument("--results-dir", help="write (and resume) each match's results file here")
    parser.add_argument("--isolation", choices=ISOLATIONS, default="none")
    parser.add_argument("--seeds", default="0", help="tournament seeds, comma-separated: each adds --pairs pairs (default 0)")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    kinds = [k for k in args.agents.split(",") if k]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        parser.error(f"unknown agent kind {unknown[0]!r}; expected some of {', '.join(KINDS)}")
    if args.pairs < 1 or args.positions < 0:
        parser.error("--pairs must be at least 1 and --positions at least 0")
    if args.results_dir:
        os.makedirs(args.results_dir, exist_ok=True)
    try:
        seeds = [int(x) for x in args.seeds.split(",") if x]
    except ValueError:
        parser.error(f"--seeds: expected ints separated by commas, got {args.seeds!r}")
    if not seeds:
        parser.error("--seeds: give at least one seed")
    results = run([] if args.skip_matches else kinds, args.times, pairs=args.pairs, seeds=seeds,
                  n_positions=0 if args.skip_agreement else args.positions, agreement_time=args.agreement_time,
                  results_dir=args.results_dir, isolation=args.isolation)
    return print_and_save(results, report, args.json)


if __name__ == "__main__":
    sys.exit(main())
