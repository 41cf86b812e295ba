"""The generic MCTS (``generic-mcts``: UCT over the state API, any game of the table) beside
OpenSpiel's Python ``MCTSBot`` on the same Python game, at equal settings.

Both search the same rules: each game of ``examples/`` (Connect Four, the 0.5-style
contract; tic-tac-toe, the how-to's game) is also written here as an OpenSpiel Python
game (:class:`SpielGame`) whose state holds one of ours and calls its methods, an action
being a move's index in the game's list of moves. Both run ``--simulations`` simulations
a search from the empty board, UCT at OpenSpiel's ``uct_c`` = 2 (ours at exploration 1:
our rewards lie in [0, 1], OpenSpiel's in [-1, 1]), one random rollout a leaf, and
MCTS-Solver backups (``MCTSBot``'s ``solve=True``). Each figure is the seconds a
simulation took (the record's table shows simulations a second), measured as every
record here is (:func:`donuts_ai.bench.record.measure_work`), paired in each run, so the
ratio ours / OpenSpiel's comes with an interval over the runs.

    python -m benchmarks.generic_search --runs 5 --json benchmarks/records/generic-search.json

Run it from the repository's root (``examples`` must be importable). OpenSpiel is the
``spiel`` extra (``pip install 'donuts_ai[spiel]'``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import examples.connect_four
import examples.tic_tac_toe
from donuts_ai import get_game
from donuts_ai.bench import runs, tables
from donuts_ai.bench.record import Figure, measure_work
from donuts_ai.state import GameState
from donuts_ai.tournament import make_agent

#: The games timed, each with its moves in action order (an OpenSpiel action is an index here).
GAMES: dict[str, tuple[str, ...]] = {
    examples.connect_four.CONNECT_FOUR.name: tuple(examples.connect_four.COLUMN_NAMES),
    examples.tic_tac_toe.TIC_TAC_TOE.name: examples.tic_tac_toe.SQUARES,
}
#: OpenSpiel's UCT constant (its default), and ours for the same scores over rewards in [0, 1].
UCT_C, OUR_EXPLORATION = 2.0, 1.0
#: Random rollouts a leaf, both bots.
ROLLOUTS = 1
#: Simulations a timed search (full, --quick).
SIMULATIONS = (2_000, 400)
#: Repeats of each figure in a run.
REPEATS = 5
#: The bots, each a parameter ``bot`` of its figures (the record's table pairs them: :func:`tables.peer_ratios`).
OURS, OPENSPIEL_PYTHON = tables.GENERIC_MCTS_BOT, tables.PEER_BOT


def spiel_game(name: str) -> Any:
    """The registered game ``name`` as an OpenSpiel Python game (``python_NAME``), loaded."""
    import pyspiel

    game = get_game(name)
    moves = GAMES[name]
    index = {move: action for action, move in enumerate(moves)}
    short_name = "python_" + name.replace("-", "_")
    start = game.new_state(game.draw_setup(game.FRESH_SETUP, 0), game.rules_dict(None))
    game_type = pyspiel.GameType(
        short_name=short_name, long_name=f"{name} (donuts_ai)", dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION, utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL, max_num_players=2, min_num_players=2,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=False, parameter_specification={})

    class SpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type information
        """One of our states, stepped by action index."""

        def __init__(self, spiel: Any, state: GameState) -> None:
            super().__init__(spiel)
            self.state = state

        def current_player(self) -> int:
            turn = self.state.turn
            return pyspiel.PlayerId.TERMINAL if turn is None else turn

        def _legal_actions(self, player: int) -> list[int]:
            return [index[move] for move in self.state.legal_moves()]

        def _apply_action(self, action: int) -> None:
            self.state.push(moves[action])

        def _action_to_string(self, player: int, action: int) -> str:
            return moves[action]

        def is_terminal(self) -> bool:
            return self.state.is_game_over()

        def returns(self) -> list[float]:
            outcome = self.state.outcome()
            if outcome is None or outcome.winner is None:
                return [0.0, 0.0]
            return [1.0 if player == outcome.winner else -1.0 for player in range(2)]

        def __str__(self) -> str:
            return self.state.to_text()

    class SpielGame(pyspiel.Game):  # type: ignore[misc]
        """The game, for OpenSpiel."""

        def __init__(self, params: Any = None) -> None:
            info = pyspiel.GameInfo(num_distinct_actions=len(moves), max_chance_outcomes=0, num_players=2,
                                    min_utility=-1.0, max_utility=1.0, utility_sum=0.0, max_game_length=len(moves) * 6)
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> SpielState:
            return SpielState(self, start.copy())

    if short_name not in pyspiel.registered_names():
        pyspiel.register_game(game_type, SpielGame)
    return pyspiel.load_game(short_name)


def figure_name(bot: str, game: str, simulations: int) -> str:
    return f"{bot}, {game}, empty board: {simulations:,} simulations a search"


def _search(bot: str, game: str, simulations: int) -> Callable[[], int]:
    """One search of ``simulations`` from ``game``'s empty board, returning the simulations run."""
    if bot == OURS:
        agent = make_agent(f"generic-mcts:simulations={simulations},exploration={OUR_EXPLORATION}", 1, game=game)
        start = get_game(game).make()

        def ours() -> int:
            agent.select_move(start)
            return int(agent.last_info["simulations"])

        return ours
    from open_spiel.python.algorithms import mcts

    spiel = spiel_game(game)
    random_state = np.random.RandomState(1)
    bot_ = mcts.MCTSBot(spiel, UCT_C, simulations, mcts.RandomRolloutEvaluator(ROLLOUTS, random_state), solve=True,
                        random_state=random_state)
    state = spiel.new_initial_state()

    def theirs() -> int:
        return int(bot_.mcts_search(state).explore_count)

    return theirs


def figures(simulations: int) -> list[Figure]:
    """Each bot on each game of :data:`GAMES`, ours first (paired in the run)."""
    out = []
    for game in GAMES:
        for bot in (OURS, OPENSPIEL_PYTHON):
            print(f"{bot} on {game}", file=sys.stderr, flush=True)
            out.append(measure_work(figure_name(bot, game, simulations), "simulation", _search(bot, game, simulations),
                                    REPEATS, {"bot": bot, "game": game, "simulations": simulations, "uct_c": UCT_C,
                                              "rollouts": ROLLOUTS}))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.generic_search", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{SIMULATIONS[1]:,} simulations a search")
    parser.add_argument("--simulations", type=int, metavar="N", help=f"simulations a search (default {SIMULATIONS[0]:,})")
    runs.add_record_options(parser)
    args = parser.parse_args(argv)
    simulations = args.simulations or SIMULATIONS[1 if args.quick else 0]
    if simulations < 2:
        parser.error("--simulations must be at least 2 (MCTSBot expands its root on the second)")
    settings = f"simulations={simulations} uct_c={UCT_C:g} rollouts={ROLLOUTS} repeats={REPEATS}"
    return runs.record_main(parser, args, argv, "benchmarks.generic_search", lambda: (figures(simulations), settings),
                            lambda suite: tables.record_text(suite, tables.peer_ratios(suite)))


if __name__ == "__main__":
    sys.exit(main())
