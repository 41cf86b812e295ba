"""The game contract (:mod:`donuts_ai.game`), checked over every game in the one table:
Donuts, Donut Boxes, and Connect Four, a game from outside the package
(``examples/connect_four.py``). A game that joins the table gets these checks for free."""

from __future__ import annotations

import json
import random

import pytest

import examples.connect_four  # noqa: F401  (registers connect-four, as a user's own module would)
from donuts_ai import DonutsError, Game, get_game, make, register_game
from donuts_ai import tournament as T
from donuts_ai.game import Ending, game_names, legal_move
from donuts_ai.state import GameOutcome, GameState

GAMES = game_names()


def test_the_table_holds_the_package_s_games_and_the_example():
    assert {"donuts", "boxes", "connect-four"} <= set(GAMES)
    assert all(isinstance(get_game(name), Game) and get_game(name).name == name for name in GAMES)


def _random_game(game: Game, seed: int) -> tuple[GameState, list[str]]:
    rules = game.rules_dict(None)
    state = game.new_state(game.draw_setup(game.FRESH_SETUP, seed), rules)
    rng, starts = random.Random(seed), []
    while not state.is_game_over():
        starts.append(list(state.legal_moves()))
        state.push(rng.choice(state.legal_moves()))
    return state, starts


@pytest.mark.parametrize("name", GAMES)
def test_make_builds_a_state_and_names_its_settings(name):
    game = get_game(name)
    state = make(name, seed=3) if "seed" in game.SETTINGS else make(name)
    assert isinstance(state, GameState) and state.turn == 0 and state.legal_moves()
    with pytest.raises(DonutsError, match=f"make\\('{name}'\\): unknown setting 'colour'; accepted: "):
        make(name, colour=1)


@pytest.mark.parametrize("name", GAMES)
def test_set_ups_and_rules_are_text_and_json_the_game_reads_back(name):
    game = get_game(name)
    setup = game.draw_setup(game.FRESH_SETUP, 7)
    assert setup == game.draw_setup(game.FRESH_SETUP, 7)  # from the seed alone
    assert game.setup_text(setup) == setup
    rules = game.rules_dict(None)
    assert json.loads(json.dumps(rules)) == rules and game.rules_dict(rules) == rules
    assert game.num_players(rules) >= 2
    assert isinstance(game.parse_setups(game.FRESH_SETUP), str)  # the word for a fresh draw per unit
    assert game.LEDGERS and all(game.ledger_text(ledger) for ledger in game.LEDGERS)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_random_game_ends_with_an_outcome_and_undoes_exactly(name, seed):
    game = get_game(name)
    state, starts = _random_game(game, seed)
    outcome = state.outcome()
    players = game.num_players(game.rules_dict(None))
    assert isinstance(outcome, GameOutcome) and state.turn is None and not state.legal_moves()
    assert len(outcome.places) == players and min(outcome.places) == 0
    if outcome.winner is not None:  # the winner is alone in first place
        assert [p for p in range(players) if outcome.places[p] == 0] == [outcome.winner]
    for legal in reversed(starts):
        state.pop()
        assert list(state.legal_moves()) == legal
    with pytest.raises(IndexError):
        state.pop()


@pytest.mark.parametrize("name", GAMES)
def test_what_an_agent_sees_is_json_and_a_view_of_its_own(name):
    game = get_game(name)
    state = game.new_state(game.draw_setup(game.FRESH_SETUP, 5), game.rules_dict(None))
    state.push(state.legal_moves()[0])
    player = state.turn
    observation = game.observation(state, player)
    assert json.loads(json.dumps(observation)) == observation
    game.agent_view(observation)  # an agent process reads it
    before = state.to_text()
    view = game.player_view(state, player)
    if isinstance(view, GameState):  # a copy the agent may change: the game's state is untouched
        view.push(view.legal_moves()[0])
    assert state.to_text() == before


@pytest.mark.parametrize("name", GAMES)
def test_an_answer_is_a_legal_move_or_none_and_never_raises(name):
    game = get_game(name)
    state = game.new_state(game.draw_setup(game.FRESH_SETUP, 2), game.rules_dict(None))
    assert all(legal_move(game, state, move) == move for move in state.legal_moves())
    for junk in (None, object(), "", "zz9", 10**9, b"a1", float("nan")):
        assert legal_move(game, state, junk) is None


@pytest.mark.parametrize("name", GAMES)
def test_the_ledger_gives_every_player_a_number(name):
    game = get_game(name)
    players = game.num_players(game.rules_dict(None))
    ending = Ending(0, tuple([0] + [1] * (players - 1)), tuple(range(players, 0, -1)) if game.FREE_FOR_ALL else None, "test")
    for ledger in game.LEDGERS:
        points = [game.ledger_points(ending, p, dict.fromkeys(game.STATS, 0), ledger) for p in range(players)]
        assert all(isinstance(x, int | float) for x in points)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_plays_a_small_tournament_that_verifies(name, tmp_path):
    game = get_game(name)
    path = tmp_path / "results.jsonl"
    results = T.run(["random", "random:seed=9"], game=name, games=2, seed=4, workers=1, isolation="none",
                    results_path=str(path))
    assert len(results.games) == 2 and all(g.game == name for g in results.games)
    assert T.verify_file(str(path)).ok
    assert game.FREE_FOR_ALL == results.free_for_all


def test_a_name_joins_the_table_once():
    connect_four = get_game("connect-four")
    assert register_game(type(connect_four)()) is connect_four  # the same game again: nothing changes

    class Impostor(type(connect_four)):
        pass

    with pytest.raises(DonutsError, match="a game named 'connect-four' is already registered"):
        register_game(Impostor())
    with pytest.raises(DonutsError, match="register_game takes a Game, got str"):
        register_game("connect-four")  # type: ignore[arg-type]
