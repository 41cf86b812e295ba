"""The generic searching agents (:mod:`donuts_ai.agents.generic`) over the state API: exact
on tic-tac-toe, never beaten by a random player, MCTS-Solver's proofs, seeds, views left
unchanged, refusals of the games they cannot search, and a move on Donuts and Connect Four."""

from __future__ import annotations

import importlib
import random

import pytest

import donuts_ai
import examples.connect_four  # noqa: F401 - registers "connect-four-python"
import examples.tic_tac_toe  # noqa: F401 - registers "tic-tac-toe"
from donuts_ai import BaseState, Game, GameEnd, register_game
from donuts_ai.agents.generic import (
    GenericAlphaBetaAgent,
    GenericMCTSAgent,
    GenericRandomAgent,
    GenericSolverAgent,
)
from donuts_ai.errors import AgentError, GameOverError
from donuts_ai.search.negamax import MATE_BOUND, WIN, NegamaxSearch
from donuts_ai.search.uct import rewards_of
from donuts_ai.tournament.specs import GENERIC_AGENTS

TIC_TAC_TOE = "tic-tac-toe"
#: Games against the random player, per seat.
GAMES_PER_SEAT = 12
#: X (b2 next) makes two threats at once: a won position, not a win in one.
FORK_IN_ONE = ("c3", "b3", "a2", "a3")
#: X to move wins at c1 at once (O threatens c2).
WIN_IN_ONE = ("a1", "a2", "b1", "b2")


def _position(moves: tuple[str, ...], game: str = TIC_TAC_TOE) -> object:
    state = donuts_ai.make(game)
    for move in moves:
        state.push(move)
    return state


def _play(agents: dict[int, object], seed: int, game: str = TIC_TAC_TOE) -> object:
    """One game, the agents by seat (a missing seat plays uniformly random moves); its outcome."""
    state, rng = donuts_ai.make(game), random.Random(seed)
    while state.outcome() is None:
        agent = agents.get(state.turn)
        state.push(agent.select_move(state.copy()) if agent is not None else rng.choice(state.legal_moves()))
    return state.outcome()


# --- a tiny free-for-all game of perfect information, three players -----------------------

#: The total that ends the race.
RACE_TARGET = 6


class RaceState(BaseState):
    """Three players in turn add 1 or 2 to a total; who reaches :data:`RACE_TARGET` wins."""

    def __init__(self, setup: str = "") -> None:
        super().__init__(setup)
        self.total = 0

    @property
    def turn(self) -> int | None:
        return None if self.outcome() is not None else len(self.move_stack) % 3

    def legal_moves(self) -> list[str]:
        return [] if self.outcome() is not None else ["1", "2"]

    def apply(self, move: str) -> None:
        self.total += int(move)

    def undo(self, move: str) -> None:
        self.total -= int(move)

    def outcome(self) -> GameEnd | None:
        return GameEnd.win((len(self.move_stack) - 1) % 3, players=3) if self.total >= RACE_TARGET else None


class Race(Game[RaceState]):
    name = "test-generic-search-race"
    FREE_FOR_ALL = True

    def new_state(self, setup: str, rules: dict[str, object]) -> RaceState:
        return RaceState(setup)

    def num_players(self, rules: dict[str, object]) -> int:
        return 3


RACE = register_game(Race())


# --- exact play ---------------------------------------------------------------------------


def test_the_solver_proves_the_empty_grid_a_draw():
    solver = GenericSolverAgent(game=TIC_TAC_TOE)
    move = solver.select_move(donuts_ai.make(TIC_TAC_TOE))
    assert move in donuts_ai.make(TIC_TAC_TOE).legal_moves()
    assert solver.last_info["proven"] and solver.last_info["value"] == 0 and solver.last_info["score"] == 0
    # From the state alone (no key of the game's, no heuristic): the same value.
    alone = GenericSolverAgent()
    alone.select_move(donuts_ai.make(TIC_TAC_TOE))
    assert alone.last_info["proven"] and alone.last_info["value"] == 0


@pytest.mark.parametrize("make", [
    lambda: GenericSolverAgent(game=TIC_TAC_TOE),
    lambda: GenericAlphaBetaAgent(depth=9, game=donuts_ai.get_game(TIC_TAC_TOE)),
    lambda: GenericAlphaBetaAgent(depth=9),  # game=None: from the state alone, to the end
], ids=["solver", "alphabeta", "alphabeta-without-game"])
def test_exact_agents_never_lose_to_a_random_player(make):
    agent = make()
    for seat in (0, 1):
        for game in range(GAMES_PER_SEAT):
            outcome = _play({seat: agent}, seed=100 * seat + game)
            assert outcome.winner in (seat, None), (seat, game, outcome)


def _true_value(cells: tuple[int, ...], mover: int, memo: dict[tuple[tuple[int, ...], int], int]) -> int:
    """Tic-tac-toe's exact value for ``mover`` by plain minimax over the grid, written apart
    from the library (+1 win, 0 draw, -1 loss)."""
    key = (cells, mover)
    if key not in memo:
        lines = examples.tic_tac_toe.LINES
        if any(cells[a] == cells[b] == cells[c] == 1 - mover for a, b, c in lines):
            memo[key] = -1  # the previous mover made three in a row
        elif -1 not in cells:
            memo[key] = 0
        else:
            memo[key] = max(-_true_value(cells[:i] + (mover,) + cells[i + 1:], 1 - mover, memo)
                            for i, cell in enumerate(cells) if cell == -1)
    return memo[key]


@pytest.mark.parametrize("make", [
    lambda: GenericSolverAgent(game=TIC_TAC_TOE),
    lambda: GenericAlphaBetaAgent(depth=9),
], ids=["solver", "alphabeta-to-the-end"])
def test_exact_agents_keep_the_true_value_in_every_position_met(make):
    # Every position of 40 random games: the agent's move keeps the position's value, by a
    # minimax written here, apart from the library's search.
    agent, memo, squares = make(), {}, examples.tic_tac_toe.SQUARES
    for seed in range(40):
        state, rng = donuts_ai.make(TIC_TAC_TOE), random.Random(seed)
        while state.outcome() is None:
            cells, mover = tuple(state.cells), state.turn
            move = agent.select_move(state.copy())
            after = cells[:squares.index(move)] + (mover,) + cells[squares.index(move) + 1:]
            assert -_true_value(after, 1 - mover, memo) == _true_value(cells, mover, memo), (state.move_stack, move)
            state.push(rng.choice(state.legal_moves()))


def test_solver_against_solver_is_a_draw():
    outcome = _play({0: GenericSolverAgent(game=TIC_TAC_TOE), 1: GenericSolverAgent(game=TIC_TAC_TOE)}, seed=0)
    assert outcome.winner is None


def test_alphabeta_takes_the_quickest_win_and_says_it_is_proven():
    agent = GenericAlphaBetaAgent(depth=4, game=TIC_TAC_TOE)
    assert agent.select_move(_position(WIN_IN_ONE)) == "c1"
    assert agent.last_info["proven"] and agent.last_info["score"] == WIN - 1


def test_the_heuristic_scores_the_horizon_and_its_absence_is_reported():
    with_heuristic = GenericAlphaBetaAgent(depth=2, game=TIC_TAC_TOE)
    with_heuristic.select_move(donuts_ai.make(TIC_TAC_TOE))
    info = with_heuristic.last_info
    assert info["heuristic"] and not info["proven"] and info["depth"] == 2 and 0 < abs(info["score"]) < MATE_BOUND
    # Connect Four gives no heuristic: the leaves score 0, and the agent says so.
    blind = GenericAlphaBetaAgent(depth=3, game="connect-four-python")
    assert blind.select_move(donuts_ai.make("connect-four-python")) in donuts_ai.make("connect-four-python").legal_moves()
    assert blind.last_info["heuristic"] is False and blind.last_info["unscored_leaves"] > 0
    assert blind.last_info["score"] == 0 and not blind.last_info["proven"]


def test_a_node_budget_stops_the_solver_with_a_legal_move_not_proven():
    solver = GenericSolverAgent(nodes=50, game=TIC_TAC_TOE)
    state = donuts_ai.make(TIC_TAC_TOE)
    assert solver.select_move(state) in state.legal_moves()
    assert not solver.last_info["proven"] and solver.last_info["value"] is None


def test_negamax_entries_found_at_the_end_of_every_line_serve_any_depth():
    # The empty grid is proven a draw only at depth 9; searched again, its children's
    # entries (every line to the end) are exact at any depth: proven at depth 2.
    game = donuts_ai.get_game(TIC_TAC_TOE)
    search = NegamaxSearch(game.heuristic, game.state_key)
    state = donuts_ai.make(TIC_TAC_TOE)
    first, again = search.search(state), search.search(state)
    assert first.proven and first.score == 0 and first.depth == 9
    assert again.proven and again.score == 0 and again.depth == 2 and again.nodes < first.nodes // 10
    # A forced win is proven at its depth, before every line ends.
    won = search.search(_position(FORK_IN_ONE))
    assert won.proven and won.score == WIN - 3 and won.move == "b2" and won.depth == 3


# --- MCTS ---------------------------------------------------------------------------------


def test_mcts_never_loses_to_a_random_player():
    agent = GenericMCTSAgent(1000, seed=1, game=TIC_TAC_TOE)
    for seat in (0, 1):
        for game in range(3):
            outcome = _play({seat: agent}, seed=10 * seat + game)
            assert outcome.winner in (seat, None), (seat, game, outcome)


@pytest.mark.parametrize("moves", [WIN_IN_ONE, FORK_IN_ONE], ids=["win-in-one", "forced-win"])
def test_mcts_solver_proves_a_won_position_and_plays_a_winning_move(moves):
    agent = GenericMCTSAgent(3000, seed=2, game=TIC_TAC_TOE)
    state = _position(moves)
    move = agent.select_move(state)
    assert agent.last_info["proven"] and agent.last_info["value"] == 1.0
    assert agent.last_info["simulations"] < 3000  # a proven root stops the search
    state.push(move)
    game = donuts_ai.get_game(TIC_TAC_TOE)
    if state.outcome() is None:  # the opponent's every reply loses
        assert NegamaxSearch(game.heuristic, game.state_key).search(state).score < -MATE_BOUND
    else:
        assert state.outcome().winner == 0


def test_the_same_seed_gives_the_same_move():
    state = _position(("b2",))
    first, second = GenericMCTSAgent(200, seed=7), GenericMCTSAgent(200, seed=7)
    assert first.select_move(state) == second.select_move(state)
    assert first.last_info["value"] == second.last_info["value"] and first.last_info["nodes"] == second.last_info["nodes"]
    # reset() restarts the agent's stream from its seed: the same moves again.
    values = [(first.select_move(state), first.last_info["value"]) for _ in range(3)]
    first.reset()
    first.select_move(state)
    assert [(first.select_move(state), first.last_info["value"]) for _ in range(3)] == values


@pytest.mark.parametrize("agent", [
    GenericMCTSAgent(300, seed=3), GenericAlphaBetaAgent(depth=3, game=TIC_TAC_TOE), GenericSolverAgent(),
    GenericRandomAgent(seed=1),
], ids=["mcts", "alphabeta", "solver", "random"])
def test_the_view_is_unchanged(agent):
    state = _position(("a1", "b2"))
    before, stack = state.to_text(), list(state.move_stack)
    agent.select_move(state)
    assert state.to_text() == before and list(state.move_stack) == stack and state.cells == _position(("a1", "b2")).cells


def test_rewards_are_the_share_of_players_finished_below():
    assert rewards_of((0, 1)) == (1.0, 0.0)
    assert rewards_of((0, 0)) == (0.5, 0.5)
    assert rewards_of((0, 1, 1)) == (1.0, 0.25, 0.25)
    assert rewards_of((0, 0, 2)) == (0.75, 0.75, 0.0)


# --- games of other kinds -----------------------------------------------------------------


def test_a_free_for_all_game_is_searched_by_mcts_and_refused_by_alphabeta():
    state = RACE.new_state("", {})
    for move in ("2", "1", "1"):  # total 4: player 0 to move wins with 2
        state.push(move)
    agent = GenericMCTSAgent(300, seed=1, game=RACE)
    assert agent.select_move(state) == "2" and agent.last_info["value"] == 1.0
    assert GenericMCTSAgent(50, seed=1).select_move(RACE.new_state("", {})) in ("1", "2")
    for cls in (GenericAlphaBetaAgent, GenericSolverAgent):
        with pytest.raises(AgentError, match="free-for-all"):
            cls(game=RACE)
        assert "free-for-all" in cls.refusal(RACE)
        # Without the game, the third player is met in the search.
        with pytest.raises(AgentError, match="two-sided"):
            cls(nodes=1000).select_move(RACE.new_state("", {}))


def test_a_game_of_hidden_information_is_refused():
    boxes = donuts_ai.get_game("boxes")
    for cls in (GenericMCTSAgent, GenericAlphaBetaAgent, GenericSolverAgent, GenericRandomAgent):
        with pytest.raises(AgentError, match="hidden information"):
            cls(game="boxes")
        assert "hidden information" in cls.refusal(boxes)
    # Without the game: the observation a player of Donut Boxes is handed is no state.
    state = donuts_ai.make("boxes", players=3, seed=1)
    with pytest.raises(AgentError, match="hidden information"):
        GenericMCTSAgent(10).select_move(boxes.player_view(state, state.turn))
    assert GenericMCTSAgent.refusal(donuts_ai.get_game(TIC_TAC_TOE)) is None


def test_donuts_is_searched_through_its_state():
    board = donuts_ai.make("donuts")
    assert GenericMCTSAgent(20, seed=1, game="donuts").select_move(board) in board.legal_moves()
    agent = GenericAlphaBetaAgent(depth=2, game="donuts")
    assert agent.select_move(board) in board.legal_moves()
    assert agent.last_info["depth"] == 2 and agent.last_info["heuristic"] is False  # Donuts gives no heuristic


def test_a_finished_game_and_a_bad_game_are_refused():
    finished = _position(("a1", "a2", "b1", "b2", "c1"))
    for agent in (GenericMCTSAgent(10), GenericAlphaBetaAgent(depth=1), GenericSolverAgent(), GenericRandomAgent()):
        with pytest.raises(GameOverError):
            agent.select_move(finished)
    with pytest.raises(AgentError, match="unknown game"):
        GenericMCTSAgent(game="no-such-game")


def test_the_table_of_generic_agents_names_their_classes():
    for short, path in GENERIC_AGENTS.items():
        module, _, name = path.partition(":")
        cls = getattr(importlib.import_module(module), name)
        assert cls.kind == f"generic-{short}"
    one_move = _position(("a1", "b2", "c3", "a3", "c1", "b1", "a2", "c2"))  # b3 is left
    agent = GenericMCTSAgent(100)
    assert agent.select_move(one_move) == "b3" and agent.last_info["forced"]
