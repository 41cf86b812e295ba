"""One agent contract, one registry type and one set of move errors for both games.

Everything here goes through the calls both games share (the harness's game adapters,
``make_agent``, ``register_agent``), never a game's own verbs, so that the same lines
check Donuts and Donut Boxes."""

from __future__ import annotations

import math
import random

import pytest

from donuts_ai import tournament
from donuts_ai.agents import LazyRegistry
from donuts_ai.agents.base import Agent, check_time_left
from donuts_ai.boxes.agents import AGENTS as BOXES_AGENTS
from donuts_ai.donuts.agents import AGENTS
from donuts_ai.errors import AgentError, DonutsError, GameOverError, IllegalMoveError, InvalidMoveError
from donuts_ai.game import get_game, legal_move

GAMES = ["donuts", "boxes"]
#: The seed of every game and agent here.
SEED = 3
#: A move each game can read but that is never legal on the first turn after the opening
#: move: Donuts replays the square just taken (occupied), Donut Boxes places a card far
#: from every other (not adjacent).
FAR_PLACEMENT = "CCCC@50,50"
#: Clocks that are not a number of seconds >= 0.
BAD_CLOCKS = [-1, -0.5, math.nan, math.inf, -math.inf, True, False, "soon", "1.0", [1.0]]
#: Clocks both games take (0: the harness hands an exhausted clock of exactly 0).
GOOD_CLOCKS = [None, 0, 0.0, 5, 2.5]


def _new_state(name: str):
    game = get_game(name)
    return game, game.new_state(game.draw_setup("random", SEED), game.rules_dict(None))


@pytest.fixture(scope="module")
def finished() -> dict[str, tuple[object, object]]:
    """(adapter, finished state) of each game, played to the end by a seeded random stream."""
    out = {}
    for name in GAMES:
        game, state = _new_state(name)
        rng = random.Random(SEED)
        while state.turn is not None:
            state.push(rng.choice(state.legal_moves()))
        out[name] = (game, state)
    return out


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("clock", BAD_CLOCKS, ids=repr)
def test_both_games_refuse_the_same_bad_clock_with_the_same_error(name, clock):
    game, state = _new_state(name)
    agent = tournament.make_agent("random", SEED, game=name)
    view = game.player_view(state, state.turn)
    with pytest.raises(AgentError, match="time_left must be None or a finite number of seconds >= 0") as caught:
        agent.select_move(view, clock)
    assert type(caught.value) is AgentError and isinstance(caught.value, ValueError)


@pytest.mark.parametrize("clock", BAD_CLOCKS, ids=repr)
def test_the_one_clock_check_refuses_what_the_agents_refuse(clock):
    with pytest.raises(AgentError):
        check_time_left(clock)


@pytest.mark.parametrize("name", GAMES)
def test_both_games_take_the_same_good_clocks(name):
    game, state = _new_state(name)
    agent = tournament.make_agent("random", SEED, game=name)
    view = game.player_view(state, state.turn)
    for clock in GOOD_CLOCKS:
        assert legal_move(game, state, agent.select_move(view, clock)) is not None
        assert check_time_left(clock) == (None if clock is None else float(clock))


@pytest.mark.parametrize("name", GAMES)
def test_a_move_after_the_end_is_the_same_game_over_error(name, finished):
    game, state = finished[name]
    with pytest.raises(GameOverError) as caught:
        state.push("a1" if name == "donuts" else "box@0,0")
    assert type(caught.value) is GameOverError
    # No move is legal once the game is over: a GameOverError is an IllegalMoveError.
    assert isinstance(caught.value, IllegalMoveError) and isinstance(caught.value, ValueError)
    agent = tournament.make_agent("random", SEED, game=name)
    with pytest.raises(GameOverError, match="the game is over"):
        agent.select_move(game.player_view(state, 0))


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_and_an_unreadable_move_are_the_same_errors(name):
    game, state = _new_state(name)
    first = state.legal_moves()[0]
    state.push(first)
    illegal = first if name == "donuts" else FAR_PLACEMENT
    before = list(state.move_stack)
    with pytest.raises(IllegalMoveError, match="illegal move") as caught:
        state.push(illegal)
    assert type(caught.value) is IllegalMoveError and list(state.move_stack) == before
    with pytest.raises(InvalidMoveError) as unreadable:
        state.push("zz9")
    assert type(unreadable.value) is InvalidMoveError and list(state.move_stack) == before


def test_both_registries_are_lazy_registries():
    assert type(AGENTS) is LazyRegistry and type(BOXES_AGENTS) is LazyRegistry
    for name, registry in (("donuts", AGENTS), ("boxes", BOXES_AGENTS)):
        assert get_game(name).agent_registry() is registry
        for kind in ("random", "greedy"):
            assert issubclass(registry[kind], Agent) and registry[kind].kind == kind


class FirstLegal:
    """A user's agent written once for both games: the first legal move of the view the
    game's adapter hands it (``state`` is set by the test, not read from the view)."""

    game: object = None
    state: object = None

    def __init__(self, seed: int | None = None):
        self.seed = seed

    def select_move(self, view, time_left=None):
        return self.state.legal_moves()[0]


@pytest.mark.parametrize("name", GAMES)
def test_agents_of_both_games_are_made_and_entered_through_the_same_calls(name):
    game, state = _new_state(name)
    built = tournament.make_agent("greedy:seed=4", game=name)
    assert isinstance(built, game.agent_registry()["greedy"]) and built.spec == "greedy:seed=4"
    tournament.register_agent("first_legal", FirstLegal, game=name)
    mine = tournament.make_agent("first_legal", SEED, game=name)
    assert isinstance(mine, FirstLegal) and mine.seed == SEED
    mine.game, mine.state = game, state
    assert mine.select_move(game.player_view(state, state.turn)) == state.legal_moves()[0]
    with pytest.raises(DonutsError, match="built-in agent"):
        tournament.register_agent("greedy", FirstLegal, game=name)
