"""Interoperability: our MCTS beside OpenSpiel's ``MCTSBot`` at equal settings (search
speed), a match against ``MCTSBot`` given 10x the time, and the PettingZoo environment's
steps/s.

    python -m benchmarks.interop [--quick] [--simulations N] [--games N] [--time S] [--ratio R] [--seed N] [--runs N] [--json FILE]

Needs the ``rl`` and ``spiel`` extras (``pip install 'donuts_ai[rl,spiel]'``); a part whose
dependency is missing is skipped with a note. Speeds are on one core, after a warm-up.
Every bot (:data:`SEARCHERS`) searches from the same positions (:data:`PLIES`) with the
same budget (:data:`SIMULATIONS`), the same UCT policy, one random rollout a leaf and
MCTS-Solver backups (:func:`search_figures`); the ratios are derived from the stored times
(:func:`search_ratios`, runs paired). The figures, and the PettingZoo environment's steps,
are measured in ``--runs`` independent processes and ``--json FILE`` writes them as a
pyperf record (:mod:`donuts_ai.bench.record`). The match is not a time: it is played once,
after the runs, and printed, not stored (``--games 0`` leaves it out).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypedDict

import numpy as np

from donuts_ai.bench import compare, record, runs, tables
from donuts_ai.bench.engine import pettingzoo_figures
from donuts_ai.bench.record import MIN_REPEAT_SECONDS, Figure
from donuts_ai.donuts.agents import MCTSAgent
from donuts_ai.donuts.agents.mcts import DEFAULT_PROOF_SHARE
from donuts_ai.donuts.board import Board
from donuts_ai.donuts.layout import Layout

#: Simulations a search, (full, quick), the same for every bot: the slowest bot's search
#: (OpenSpiel's Python ``MCTSBot`` on ``python_donuts``, about 2,300 simulations/s on a
#: shared 2-core EPYC) lasts about 0.9 s (full) or 0.2 s (quick).
SIMULATIONS = (2000, 500)
#: Repeats of each figure (pyperf's values), each of as many searches as last
#: :data:`REPEAT_SECONDS` or more (:func:`~donuts_ai.bench.record.measure_work`: one search of
#: the slowest bots, OpenSpiel's on the Python game, a few dozen of ours).
REPEATS = 3
#: The least wall time of a repeat (pyperf's 100 ms).
REPEAT_SECONDS = record.MIN_REPEAT_SECONDS
#: Seconds of PettingZoo steps in all, (full, quick), in :data:`ENV_REPEATS` samples.
ENV_SECONDS, ENV_REPEATS = (5.0, 1.0), (5, 2)
#: UCT's exploration constant for every bot, on rewards in [-1, 1] (OpenSpiel's ``uct_c``,
#: its default). Ours counts rewards in [0, 1], half the range, so it gets half the
#: constant (:data:`OUR_EXPLORATION`): the same UCT scores.
UCT_C = 2.0
#: Uniformly random rollouts a leaf, every bot (ours plays one playout a leaf).
ROLLOUTS = 1
#: Plies of random moves from the empty board to the positions the searches are timed on
#: (after 10 plies our MCTS's prover proves the game's value within
#: :func:`_position`'s probe from every position it tries, so that no position is found).
PLIES = (0, 6)
#: Megabytes of tree the C++ ``MCTSBot`` may use (its ``max_memory_mb``): far more than a search here takes.
CPP_MAX_MEMORY_MB = 1000

#: The bots, each a parameter ``bot`` of its figures.
OURS, OPENSPIEL_PYTHON, OPENSPIEL_CPP = "ours", "openspiel-python", "openspiel-cpp"
#: The games, each a parameter ``game``: ours (compiled), our Python game for OpenSpiel, OpenSpiel's C++ game.
DONUTS, PYTHON_DONUTS, CONNECT_FOUR = "donuts", "python_donuts", "connect_four"


def our_exploration(uct_c: float) -> float:
    """Our MCTS's ``exploration`` for OpenSpiel's ``uct_c``: half of it, since our rewards
    lie in [0, 1] and OpenSpiel's in [-1, 1] (the same UCT scores)."""
    return uct_c / 2


#: Our MCTS's exploration constant at :data:`UCT_C` (its own default, 1).
OUR_EXPLORATION = our_exploration(UCT_C)


@dataclass(frozen=True)
class Searcher:
    """One bot on one game, as the figures name it: ``bot`` (:data:`OURS`,
    :data:`OPENSPIEL_PYTHON`, :data:`OPENSPIEL_CPP`), ``game`` and, for ours, ``prover``."""

    bot: str
    game: str
    prover: bool = False

    @property
    def label(self) -> str:
        if self.bot == OURS:
            return f"our MCTS, prover {'on' if self.prover else 'off'}"
        language = "Python" if self.bot == OPENSPIEL_PYTHON else "C++"
        return f"OpenSpiel {language} MCTSBot, {self.game}"


#: The searchers timed from each position of the standard layout, the main line (ours,
#: prover off) first; then :data:`CONNECT_FOUR_SEARCHER` from connect_four's empty board.
# The bots, at equal settings: UCT with UCT_C = 2 on rewards in [-1, 1] (OpenSpiel's uct_c
# and its default; ours counts rewards in [0, 1], so it gets exploration = UCT_C / 2 = 1, its
# own default: the same scores), one uniformly random rollout a leaf, MCTS-Solver backups
# (MCTSBot's solve=True; ours always backs up proven values):
# - our MCTSAgent with its root prover off (proof_share=0): the main line, pure MCTS. Its
#   tactical pass has no switch: the positions are chosen where it decides nothing;
# - the same with the prover on (proof_share 0.2, its default), the agent as it plays;
# - OpenSpiel's Python MCTSBot on our Python game python_donuts;
# - OpenSpiel's C++ pyspiel.MCTSBot on python_donuts: a compiled search that calls the
#   Python game through pybind11 for every clone, move and legal-move list, so the ratio
#   against it measures a compiled game against a Python one behind a binding, far more
#   than one compiled search against another;
# - OpenSpiel's C++ MCTSBot on its C++ connect_four from the empty board: a compiled search
#   on a compiled game, another game, so a scale for what a C++ game gives, not a ratio.
# Each figure is the seconds a simulation took (record.measure_work: a warm-up search, then
# REPEATS repeats of as many searches as last 100 ms or more), its settings in its name.
SEARCHERS = (Searcher(OURS, DONUTS), Searcher(OURS, DONUTS, prover=True), Searcher(OPENSPIEL_PYTHON, PYTHON_DONUTS),
             Searcher(OPENSPIEL_CPP, PYTHON_DONUTS))
CONNECT_FOUR_SEARCHER = Searcher(OPENSPIEL_CPP, CONNECT_FOUR)
#: The ratios derived per position (:func:`search_ratios`): (name, the faster searcher, the slower).
RATIOS = (("our MCTS / OpenSpiel Python MCTSBot", SEARCHERS[0], SEARCHERS[2]),
          ("our MCTS / OpenSpiel C++ MCTSBot (Python game)", SEARCHERS[0], SEARCHERS[3]),
          ("OpenSpiel C++ MCTSBot / OpenSpiel Python MCTSBot (Python game)", SEARCHERS[3], SEARCHERS[2]))


def settings_text(simulations: int, uct_c: float = UCT_C, rollouts: int = ROLLOUTS, ours: bool = False) -> str:
    """The settings every bot searched with, as the figures' names say them (``ours``: with
    the exploration constant our MCTS was given for ``uct_c``)."""
    given = f" (our exploration {our_exploration(uct_c):g}, rewards in [0, 1])" if ours else ""
    return f"{simulations:,} simulations, uct_c {uct_c:g}{given}, {rollouts} random rollout{'s' if rollouts != 1 else ''} a leaf"


def _where(plies: int) -> str:
    return "standard layout, empty board" if plies == 0 else f"standard layout after {plies} random plies"


def figure_name(searcher: Searcher, plies: int, simulations: int, uct_c: float = UCT_C, rollouts: int = ROLLOUTS) -> str:
    """The record's name of ``searcher``'s figure from the position after ``plies`` (of the
    standard layout; connect_four's empty board for :data:`CONNECT_FOUR`)."""
    where = "empty board" if searcher.game == CONNECT_FOUR else _where(plies)
    return f"{searcher.label}, {where}: {settings_text(simulations, uct_c, rollouts, ours=searcher.bot == OURS)}"


def figure_params(searcher: Searcher, plies: int, simulations: int, uct_c: float = UCT_C,
                  rollouts: int = ROLLOUTS) -> dict[str, int | float | str]:
    """The parameters of ``searcher``'s figure: the bot, the game, the position's plies, and
    every setting of the search (``simulations``, ``uct_c``, ``rollouts``, ``prover``;
    ours also its own ``exploration`` and ``proof_share``)."""
    params: dict[str, int | float | str] = {"bot": searcher.bot, "game": searcher.game, "plies": plies,
                                            "simulations": simulations, "uct_c": uct_c, "rollouts": rollouts,
                                            "prover": "on" if searcher.prover else "off", "solver_backups": "on"}
    if searcher.bot == OURS:
        params |= {"exploration": our_exploration(uct_c), "proof_share": DEFAULT_PROOF_SHARE if searcher.prover else 0.0}
    else:
        params["open_spiel"] = openspiel_version()
    return params


def has_openspiel() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def openspiel_version() -> str:
    """The installed open_spiel's version ("?" when its metadata is missing)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("open_spiel")
    except PackageNotFoundError:
        return "?"


def _position(plies: int) -> Board:
    """The standard layout after ``plies`` seeded random moves (0: the empty board), from
    the first seed whose position neither ends the game nor leaves our MCTS a move
    forced by its tactical pass or proven within a short search with its prover on
    (every bot then runs its whole budget)."""
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


def _search(searcher: Searcher, board: Board | None, simulations: int, uct_c: float) -> tuple[Callable[[], int], Callable[[], None] | None]:
    """``searcher``'s search from ``board`` (connect_four's empty board for
    :data:`CONNECT_FOUR`) of ``simulations`` simulations at ``uct_c``, as a call that runs
    one and returns the simulations it ran, and the call to make before it, off the clock
    (None: none)."""
    if searcher.bot == OURS:
        assert board is not None  # our searchers play Donuts
        agent = MCTSAgent(simulations=simulations, exploration=our_exploration(uct_c), reuse=False, seed=1,
                          proof_share=DEFAULT_PROOF_SHARE if searcher.prover else 0.0)

        def ours() -> int:
            agent.select_move(board)
            return agent.last_info["iterations"]

        return ours, agent.reset  # the same search each time: the prover's table cleared, off the clock
    import pyspiel

    if searcher.game == CONNECT_FOUR:
        game = pyspiel.load_game("connect_four")
        state = game.new_initial_state()
    else:
        from donuts_ai.interop.openspiel import load, state_from_board

        assert board is not None  # python_donuts: a position of ours
        game = load(board.layout, board.rules)
        state = state_from_board(board, game)
    if searcher.bot == OPENSPIEL_CPP:
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(ROLLOUTS, 1), uct_c, simulations, CPP_MAX_MEMORY_MB,
                              True, 1, False)
    else:
        from open_spiel.python.algorithms import mcts

        random_state = np.random.RandomState(1)
        bot = mcts.MCTSBot(game, uct_c, simulations, mcts.RandomRolloutEvaluator(ROLLOUTS, random_state), solve=True,
                           random_state=random_state)

    def theirs() -> int:
        return int(bot.mcts_search(state).explore_count)  # each search builds a fresh tree from the state

    return theirs, None


def search_figures(simulations: int, repeats: int = REPEATS, uct_c: float = UCT_C) -> list[Figure]:
    """The search-speed figures at equal settings (see the module doc): each searcher of
    :data:`SEARCHERS` from each position of :data:`PLIES`, then OpenSpiel's C++ ``MCTSBot``
    on connect_four's empty board; each search ``simulations`` simulations at ``uct_c``,
    one random rollout a leaf; ``repeats`` repeats of :data:`REPEAT_SECONDS` or more
    (:func:`~donuts_ai.bench.record.measure_work`). None without OpenSpiel."""
    if not has_openspiel():
        return []
    out = []

    def measure(searcher: Searcher, board: Board | None, plies: int) -> None:
        search, prepare = _search(searcher, board, simulations, uct_c)
        params = figure_params(searcher, plies, simulations, uct_c)
        figure = record.measure_work(figure_name(searcher, plies, simulations, uct_c), "simulation", search, repeats,
                                     params if board is None else {**params, "fen": board.fen()},
                                     min_seconds=REPEAT_SECONDS, prepare=prepare)
        out.append(figure)
        print(f"   {figure.name}: {1 / statistics.median(figure.values):,.0f} simulations/s", flush=True)

    for plies in PLIES:
        board = _position(plies)
        for searcher in SEARCHERS:
            measure(searcher, board, plies)
    measure(CONNECT_FOUR_SEARCHER, None, 0)
    return out


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


def match(games: int, our_time: float, ratio: float, seed: int) -> MatchFigures:
    """``mcts:time=our_time`` against ``openspiel-mcts:time=ratio*our_time`` through the
    tournament harness: colour-swapped pairs, a fresh random tile arrangement per pair,
    each agent in a process of its own, one game at a time."""
    from donuts_ai import tournament

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


def figures(quick: bool = False, simulations: int | None = None, env_seconds: float | None = None) -> list[Figure]:
    """The timed figures of this benchmark, measured in this process, for its record: the
    search-speed figures at equal settings (:func:`search_figures`: ``simulations`` a
    search, default :data:`SIMULATIONS`), and the seconds a step of the PettingZoo
    environment, wrapped and raw (``env_seconds`` of steps in all, in :data:`ENV_REPEATS`
    samples: :func:`pettingzoo_figures`). A part whose dependency is missing gives no figure."""
    size = 1 if quick else 0
    out = search_figures(SIMULATIONS[size] if simulations is None else simulations)
    seconds = ENV_SECONDS[size] if env_seconds is None else env_seconds
    out += pettingzoo_figures(ENV_REPEATS[size], max(MIN_REPEAT_SECONDS, seconds / ENV_REPEATS[size]))
    return out


def _param(benchmark: Any, key: str) -> Any:
    return benchmark.get_runs()[0].get_metadata().get(f"param_{key}")


def _searcher_of(benchmark: Any) -> Searcher | None:
    """The searcher a figure of this benchmark's record was measured with (None: another figure)."""
    bot, game = _param(benchmark, "bot"), _param(benchmark, "game")
    if not isinstance(bot, str) or not isinstance(game, str):
        return None
    return Searcher(bot, game, _param(benchmark, "prover") == "on")


def search_ratios(suite: Any) -> list[tuple[str, float, float, float]]:
    """(name, ratio, low, high): the ratios of :data:`RATIOS` (one search's simulations a
    second over another's) from each position, derived from the record's stored times
    (each run measured both, so the runs are paired); only between figures of the same
    settings (simulations, ``uct_c``, rollouts)."""
    found: dict[tuple[Searcher, int, int, float, int], Any] = {}
    for benchmark in suite:
        searcher = _searcher_of(benchmark)
        if searcher is not None:
            key = (searcher, _param(benchmark, "plies"), _param(benchmark, "simulations"), _param(benchmark, "uct_c"),
                   _param(benchmark, "rollouts"))
            found[key] = benchmark
    out = []
    for (searcher, plies, simulations, uct_c, rollouts), fast in found.items():
        for name, faster, slower in RATIOS:
            slow = found.get((slower, plies, simulations, uct_c, rollouts))
            if searcher == faster and slow is not None:
                out.append((f"{name}, {_where(plies)}, {simulations:,} simulations", *compare.speed_within(slow, fast)))
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
    the ratios of :func:`search_ratios` derived from the stored times), the notes of the
    parts skipped, then the match, when given."""
    lines = [tables.record_text(suite, search_ratios(suite))]
    if not has_openspiel():
        lines.append("OpenSpiel: skipped: OpenSpiel is not installed (pip install 'donuts_ai[spiel]')")
    if not any(b.get_name().startswith("PettingZoo ") for b in suite):
        lines.append("PettingZoo: skipped: PettingZoo is not installed (pip install 'donuts_ai[rl]')")
    if match_figures is not None:
        lines.append(match_line(match_figures))
    return "\n".join(lines)


def main(argv: list[str] | None = None, prog: str = "python -m benchmarks.interop") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"{SIMULATIONS[1]:,} simulations a search, 2 games, {ENV_SECONDS[1]:g} s of environment steps")
    parser.add_argument("--games", type=int, default=None,
                        help="games of the match (colour-swapped pairs; default 10, quick 2; 0: no match)")
    parser.add_argument("--time", type=float, default=0.1, help="our MCTS's seconds a move in the match (default 0.1)")
    parser.add_argument("--ratio", type=float, default=10.0, help="MCTSBot's time as a multiple of ours in the match (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="the match's seed (its layouts; default 1)")
    parser.add_argument("--simulations", type=int, metavar="N",
                        help=f"simulations a timed search, every bot the same (default {SIMULATIONS[0]:,}, quick {SIMULATIONS[1]:,})")
    parser.add_argument("--env-seconds", type=float, metavar="S",
                        help=f"seconds of PettingZoo steps in all (default {ENV_SECONDS[0]:g}, quick {ENV_SECONDS[1]:g})")
    runs.add_record_options(parser, printed_only="the match is")
    args = parser.parse_args(argv)
    games = args.games if args.games is not None else 2 if args.quick else 10
    if games < 0 or (args.simulations is not None and args.simulations < 2) \
            or (args.env_seconds is not None and not args.env_seconds > 0):
        parser.error("--games must be at least 0, --simulations at least 2 (MCTSBot expands its root on the second), "
                     "--env-seconds above 0")

    def report_all(suite: Any) -> str:
        played = None
        if games and has_openspiel():
            print(f"match: {games} games", flush=True)
            played = match(games, args.time, args.ratio, args.seed)
        return record_report(suite, played)

    size = 1 if args.quick else 0
    simulations = args.simulations or SIMULATIONS[size]
    settings = (f"simulations={simulations} uct_c={UCT_C:g} rollouts={ROLLOUTS} repeats={REPEATS} "
                f"env_seconds={args.env_seconds or ENV_SECONDS[size]:g}")
    return runs.record_main(parser, args, argv, "benchmarks.interop",
                            lambda: (figures(args.quick, simulations, args.env_seconds), settings), report_all)


if __name__ == "__main__":
    sys.exit(main())
