"""Connect Four's ``mcts`` agent (the compiled UCT of :mod:`donuts_ai.search.mcts` on the
engine) beside OpenSpiel's C++ ``MCTSBot`` on its built-in ``connect_four``: simulations a
second, at equal settings.

Both run ``--simulations`` simulations a search (default 20,000), one uniformly random
rollout a leaf, UCT at OpenSpiel's ``uct_c`` = 2 and ours at exploration 1 (our rewards lie
in [0, 1], OpenSpiel's in [-1, 1]: the same scores). Two figures each: the empty board, and
10 middle positions of Pons' set (``tests/data/connect_four/middle.jsonl``, the first ten;
one call searches all ten and counts their simulations). Each search starts a fresh tree.

The solver is off on both: OpenSpiel's ``MCTSBot`` with ``solve=False``, ours with
``MCTSAgent(solver=False)`` (plain UCT: no MCTS-Solver backups, no proven root that stops
a search early), so both run every simulation of every search. Ours is timed through the
agent (``MCTSAgent.select_move``: calls of 512 iterations from Python, and the choice of a
move), OpenSpiel's through ``mcts_search``.

Each figure is the seconds a simulation took (the record's table shows simulations a
second), measured as every record here is (:func:`donuts_ai.bench.record.measure_work`),
paired in each run, so the ratio ours / OpenSpiel's comes with an interval over the runs.

    python -m benchmarks.connect_four_mcts --runs 3 --json benchmarks/records/connect-four-mcts.json

OpenSpiel is the ``spiel`` extra (``pip install 'donuts_ai[spiel]'``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from donuts_ai.bench import compare, runs, tables
from donuts_ai.bench.record import Figure, measure_work
from donuts_ai.connect_four import ConnectFourState
from donuts_ai.connect_four.agents import MCTSAgent

#: Pons' positions (one JSON object a line: ``moves`` in his digits 1..7).
MIDDLE = Path(__file__).resolve().parent.parent / "tests" / "data" / "connect_four" / "middle.jsonl"
#: Middle positions searched (the first of the file).
POSITIONS = 10
#: OpenSpiel's UCT constant (its default), and ours for the same scores over rewards in [0, 1].
UCT_C, OUR_EXPLORATION = 2.0, 1.0
#: Random rollouts a leaf, both bots.
ROLLOUTS = 1
#: MCTS-Solver on both bots: off (ours ``solver=False``, OpenSpiel's ``solve=False``).
SOLVE = False
#: Simulations a search (full, --quick).
SIMULATIONS = (20_000, 2_000)
#: Repeats of each figure in a run.
REPEATS = 5
#: OpenSpiel's tree memory bound, MiB (far above what a search of 20,000 simulations takes).
CPP_MAX_MEMORY_MB = 1000
#: The bots.
OURS, OPENSPIEL_CPP = "donuts_ai mcts", "OpenSpiel C++ MCTSBot"
#: Where the searches start.
WHERES = ("empty board", f"{POSITIONS} middle positions")


def middle_positions() -> list[str]:
    """The first :data:`POSITIONS` middle positions, as Pons' digit strings."""
    lines = [line for line in MIDDLE.read_text().splitlines() if line.strip()]
    return [str(json.loads(line)["moves"]) for line in lines[:POSITIONS]]


def figure_name(bot: str, where: str, simulations: int) -> str:
    return f"{bot}, connect four, {where}: {simulations:,} simulations a search"


def _search(bot: str, games: list[str], simulations: int) -> Callable[[], int]:
    """One search of ``simulations`` from each position of ``games`` (Pons' digits), as a
    call returning the simulations run."""
    if bot == OURS:
        agent = MCTSAgent(simulations=simulations, exploration=OUR_EXPLORATION, solver=SOLVE, seed=1)
        boards = [ConnectFourState.from_moves(g) for g in games]

        def ours() -> int:
            total = 0
            for board in boards:
                agent.select_move(board)
                total += agent.last_info["simulations"]
            return total

        return ours
    import pyspiel

    game = pyspiel.load_game("connect_four")
    states = []
    for g in games:
        state = game.new_initial_state()
        for digit in g:
            state.apply_action(int(digit) - 1)  # OpenSpiel's actions are columns 0..6
        states.append(state)
    mcts = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(ROLLOUTS, 1), UCT_C, simulations, CPP_MAX_MEMORY_MB,
                           SOLVE, 1, False)  # (..., solve, seed, verbose)

    def theirs() -> int:
        return sum(int(mcts.mcts_search(state).explore_count) for state in states)  # a fresh tree each search

    return theirs


def figures(simulations: int) -> list[Figure]:
    """Each bot from each start of :data:`WHERES`, ours first (paired in the run)."""
    out = []
    for where, games in zip(WHERES, ([""], middle_positions()), strict=True):
        for bot in (OURS, OPENSPIEL_CPP):
            print(f"{bot}, {where}", file=sys.stderr, flush=True)
            out.append(measure_work(figure_name(bot, where, simulations), "simulation", _search(bot, games, simulations),
                                    REPEATS, {"bot": bot, "where": where, "simulations": simulations, "uct_c": UCT_C,
                                              "exploration": OUR_EXPLORATION, "rollouts": ROLLOUTS,
                                              "solve": "off"}))
    return out


def ratios(suite: Any) -> list[tuple[str, float, float, float]]:
    """(name, our simulations a second over OpenSpiel's, low, high), each start (above 1: ours is faster)."""
    by_name = {b.get_name(): b for b in suite}
    out = []
    for where in WHERES:
        for name, ours in by_name.items():
            if not name.startswith(f"{OURS}, connect four, {where}:"):
                continue
            theirs = by_name.get(name.replace(OURS, OPENSPIEL_CPP, 1))
            if theirs is not None:
                out.append((f"ours / OpenSpiel C++ MCTSBot, {where}", *compare.speed_within(theirs, ours)))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.connect_four_mcts", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{SIMULATIONS[1]:,} simulations a search")
    parser.add_argument("--simulations", type=int, metavar="N", help=f"simulations a search (default {SIMULATIONS[0]:,})")
    runs.add_record_options(parser)
    args = parser.parse_args(argv)
    simulations = args.simulations or SIMULATIONS[1 if args.quick else 0]
    if simulations < 2:
        parser.error("--simulations must be at least 2 (MCTSBot expands its root on the second)")
    from importlib.metadata import PackageNotFoundError, version

    try:
        open_spiel = version("open_spiel")  # the anchor's version, in the record beside ours
    except PackageNotFoundError:
        open_spiel = "absent"
    settings = (f"simulations={simulations} uct_c={UCT_C:g} exploration={OUR_EXPLORATION:g} rollouts={ROLLOUTS} "
                f"repeats={REPEATS} solve=off positions={POSITIONS} open_spiel={open_spiel}")
    return runs.record_main(parser, args, argv, "benchmarks.connect_four_mcts", lambda: (figures(simulations), settings),
                            lambda suite: tables.record_text(suite, ratios(suite)))


if __name__ == "__main__":
    sys.exit(main())
