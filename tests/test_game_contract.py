"""The game contract, both halves. The state API (:class:`donuts_ai.state.GameState`): one
function written against the protocol's verbs runs unchanged on a Donuts
:class:`~donuts_ai.Board` and on a Donut Boxes :class:`~donuts_ai.boxes.BoxesState` of 2, 3
and 4 players. The game (:mod:`donuts_ai.game`), checked over every game in the one table:
Donuts, Donut Boxes, and Connect Four, a game from outside the package
(``examples/connect_four.py``); a game that joins the table gets these checks for free."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import examples.connect_four  # noqa: F401  (registers connect-four, as a user's own module would)
from donuts_ai import Game, get_game, make, register_game
from donuts_ai import tournament as T
from donuts_ai.boxes import BoxesRules, BoxesState
from donuts_ai.donuts.board import Board
from donuts_ai.donuts.errors import PositionError
from donuts_ai.donuts.layout import Layout
from donuts_ai.donuts.rules import Rules
from donuts_ai.errors import DonutsError, IllegalMoveError
from donuts_ai.game import Ending, game_names, legal_move
from donuts_ai.state import GameOutcome, GameState

#: Fresh states of both games, by name (:func:`donuts_ai.make`): each test builds its own.
STATES: dict[str, Callable[[], GameState]] = {
    "donuts": lambda: make("donuts"),
    "donuts-single-18": lambda: make("donuts", layout=Layout.random_grid(3), insertion="single", donuts=18),
    "boxes-2": lambda: make("boxes", players=2, seed=1),
    "boxes-3": lambda: make("boxes", players=3, grid="splitzkies", seed=2),
    "boxes-4": lambda: make("boxes", players=4, seed=3),
}


def test_make_builds_each_game_as_its_own_constructor_does():
    assert make("donuts").to_dict() == Board().to_dict()
    assert make("donuts", layout="random:3").to_dict() == Board(Layout.from_spec("random:3")).to_dict()
    assert make("donuts", rules={"insertion": "single", "donuts": 18}).to_dict() == Board(Layout.standard(), Rules("single", 18)).to_dict()
    assert make("boxes", players=3, seed=1).to_dict() == BoxesState(BoxesRules(players=3), seed=1).to_dict()
    assert make("boxes", rules=BoxesRules(players=4), seed=2).to_dict() == BoxesState(BoxesRules(players=4), seed=2).to_dict()


@pytest.mark.parametrize(("call", "says"), [
    (lambda: make("chess"), "unknown game 'chess'; expected one of donuts, boxes"),
    (lambda: make("donuts", players=3), "unknown setting 'players'"),
    (lambda: make("boxes", layout="standard"), "unknown setting 'layout'"),
    (lambda: make("donuts", rules="single", insertion="group"), "not both"),
    (lambda: make("boxes", players=1), "players"),
    (lambda: make("donuts", layout="nowhere"), "nowhere"),
])
def test_make_refuses_what_it_does_not_know_naming_it(call, says):
    with pytest.raises(DonutsError, match=says):
        call()


def snapshot(state: GameState) -> tuple[object, ...]:
    return state.to_dict(), state.to_text(), list(state.legal_moves()), state.turn, list(state.move_stack)


def play_and_undo(state: GameState, seed: int) -> int:
    """Play a seeded random game to the end with the protocol's verbs only, then undo every
    move: each step back finds the state seen on the way (dict, text, legal moves, turn)."""
    rng = random.Random(seed)
    seen = []
    while not state.is_game_over():
        seen.append(snapshot(state))
        state.push(rng.choice(list(state.legal_moves())))
    outcome = state.outcome()
    assert isinstance(outcome, GameOutcome) and state.turn is None and not state.legal_moves()
    played = list(state.move_stack)
    moves = len(played)
    assert moves == len(seen)
    while seen:
        assert state.pop() == played.pop()
        assert snapshot(state) == seen.pop()
    assert state.outcome() is None and not state.move_stack
    with pytest.raises(IndexError):
        state.pop()
    return moves


@pytest.mark.parametrize("name", STATES)
def test_a_random_game_played_and_undone_finds_the_start_again(name):
    state = STATES[name]()
    assert isinstance(state, GameState)
    start = snapshot(state)
    assert play_and_undo(state, seed=7) > 10
    assert snapshot(state) == start


def _illegal_move(state: GameState) -> str:
    """A well-formed move that is not legal now: one legal in another game of the same kind."""
    legal = set(state.legal_moves())
    if isinstance(state, Board):
        return next(sq for sq in ("a1", "b2", "c3", "d4", "e5", "f6", "a6", "f1") if sq not in legal)
    assert isinstance(state, BoxesState)
    for seed in range(100):
        other = BoxesState(state.rules, seed=seed)
        moves = [m for m in other.legal_moves() if m not in legal and not m.startswith("stuck")]
        if moves:
            return moves[0]
    raise AssertionError("no illegal move found")


@pytest.mark.parametrize("name", STATES)
def test_an_illegal_push_and_a_push_after_the_end_raise_and_change_nothing(name):
    state = STATES[name]()
    state.push(state.legal_moves()[0])
    move = _illegal_move(state)
    before = snapshot(state)
    with pytest.raises(IllegalMoveError):
        state.push(move)
    assert snapshot(state) == before
    rng = random.Random(1)
    while not state.is_game_over():
        state.push(rng.choice(list(state.legal_moves())))
    over = snapshot(state)
    with pytest.raises(DonutsError):
        state.push(move)
    assert snapshot(state) == over


@pytest.mark.parametrize("name", STATES)
def test_a_copy_is_independent_and_keeps_the_history(name):
    state = STATES[name]()
    rng = random.Random(3)
    for _ in range(5):
        state.push(rng.choice(list(state.legal_moves())))
    before = snapshot(state)
    copy = state.copy()
    assert snapshot(copy) == before
    copy.push(copy.legal_moves()[-1])
    assert snapshot(state) == before
    copy.pop()
    copy.pop()
    assert snapshot(state) == before and len(copy.move_stack) == 4
    state.pop()
    assert snapshot(state) == snapshot(copy)


@pytest.mark.parametrize("name", STATES)
def test_dict_and_text_round_trip_through_json(name):
    state = STATES[name]()
    rng = random.Random(5)
    while True:
        kind = type(state)
        for again in (kind.from_dict(json.loads(json.dumps(state.to_dict()))), kind.from_text(state.to_text())):
            assert (again.to_dict(), again.to_text(), again.legal_moves(), again.turn) == (
                state.to_dict(), state.to_text(), state.legal_moves(), state.turn)
            assert again.outcome() == state.outcome()
        if state.is_game_over():
            break
        for _ in range(9):
            if not state.is_game_over():
                state.push(rng.choice(list(state.legal_moves())))


def test_boxes_undo_restores_every_array_and_the_random_draws():
    state = BoxesState(BoxesRules(players=4), seed=11)
    arrays, draws = [], []
    while not state.is_game_over():
        t, grid = state.kernel_state()
        arrays.append([a.copy() for a in (*t, grid)])
        draws.append(state.random_move_id(seed=len(draws)))
        state.push_id(draws[-1])
    assert len(draws) > 64  # past a snapshot: pop replays from the nearest one
    while arrays:
        state.pop()
        t, grid = state.kernel_state()
        assert all(np.array_equal(a, b) for a, b in zip((*t, grid), arrays.pop(), strict=True))
        assert state.random_move_id(seed=len(arrays)) == draws.pop()


def test_boxes_outcome_names_places_winners_and_scores():
    state = BoxesState(BoxesRules(players=3), seed=4)
    assert state.outcome() is None
    while not state.is_game_over():
        state.push_id(state.random_move_id(seed=len(state.move_stack)))
    outcome = state.outcome()
    assert outcome is not None
    assert list(outcome.places) == state.ranking() and list(outcome.winners) == state.winners()
    assert list(outcome.scores) == state.scores and list(outcome.boxes) == state.boxes_delivered
    assert outcome.winner == (outcome.winners[0] if len(outcome.winners) == 1 else None)


def test_a_boxes_state_from_a_dict_or_a_sampled_world_starts_its_own_history():
    state = BoxesState(BoxesRules(players=2), seed=6)
    state.push(state.legal_moves()[0])
    for fresh in (BoxesState.from_dict(state.to_dict()), state.sample_world(0, seed=1)):
        assert fresh.move_stack == state.move_stack
        with pytest.raises(IndexError):
            fresh.pop()


@pytest.mark.parametrize("text, words", [
    ("nonsense", "8 fields"),
    (Board().fen() + " sideways 15", "insertion"),
    (Board().fen() + " group many", "donuts must be an int"),
    (Board().fen() + " group 99", "donuts must be in"),
])
def test_bad_board_text_is_refused_naming_the_field(text, words):
    with pytest.raises(PositionError, match=words):
        Board.from_text(text)


@pytest.mark.parametrize("data, words", [
    ({"fen": Board().fen()}, "keys fen and rules"),
    ({"fen": Board().fen(), "rules": "group"}, "rules must be a mapping"),
    ({"fen": Board().fen(), "rules": {"donuts": 0}}, "donuts"),
])
def test_bad_board_dict_is_refused_naming_the_field(data, words):
    with pytest.raises(PositionError, match=words):
        Board.from_dict(data)


def test_bad_boxes_text_is_refused():
    with pytest.raises(DonutsError, match="not JSON"):
        BoxesState.from_text("{")


def _example(name: str) -> str:
    """The ```python block of docs/architecture.md that defines ``name``."""
    page = (Path(__file__).parent.parent / "docs" / "architecture.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    return next(b for b in blocks if f"def {name}(" in b)


def test_the_architecture_page_s_function_plays_both_games_there_and_back(capsys):
    # The page's one function, written against GameState's verbs, runs each game made by
    # make() to its end and back; what it prints is what the page says it prints.
    block = _example("there_and_back")
    assert len(block.split("def there_and_back(")[1].split("\n\n\n")[0].splitlines()) <= 20
    exec(compile(block, "docs/architecture.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    said = [line.split("# ", 1)[1] for line in block.splitlines() if line.startswith("print(there_and_back(")]
    assert printed == said and len(printed) == 2


def test_a_forfeit_is_none_in_the_move_stack_and_pops_back_or_is_refused():
    board = make("donuts")
    board.push(board.legal_moves()[0])
    before = snapshot(board)
    board.forfeit()
    assert board.move_stack[-1] is None and board.turn == 0  # the forfeiting side's turn passes
    assert board.pop() is None and snapshot(board) == before
    boxes = make("boxes", players=3, seed=1)
    start = snapshot(boxes)
    with pytest.raises(DonutsError, match="no forfeited turn"):
        boxes.forfeit()
    assert snapshot(boxes) == start


@pytest.mark.parametrize("name", STATES)
def test_an_outcome_gives_places_and_a_reason_agreeing_with_its_winner(name):
    state = STATES[name]()
    rng = random.Random(2)
    while not state.is_game_over():
        state.push(rng.choice(state.legal_moves()))
    outcome = state.outcome()
    assert outcome is not None and isinstance(outcome.reason, str) and outcome.reason
    places = list(outcome.places)
    players = 2 if isinstance(state, Board) else state.num_players
    assert len(places) == players and min(places) == 0
    # Competition places: each player's place is the number of players placed above it.
    assert places == [sum(q < p for q in places) for p in places]
    first = [p for p, place in enumerate(places) if place == 0]
    assert outcome.winner == (first[0] if len(first) == 1 else None)
    if isinstance(state, BoxesState):
        assert outcome.reason == ("shared win" if outcome.winner is None else
                                  "score" if list(outcome.scores).count(max(outcome.scores)) == 1 else "boxes")


# --- the game: every game in the table ----------------------------------------------------

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
