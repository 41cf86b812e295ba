"""The game contract, both halves. The game (:mod:`donuts_ai.game`): every game in the one
table (Donuts, Donut Boxes, and two games from outside the package, Connect Four and
tic-tac-toe, ``examples/``) passes :func:`donuts_ai.testing.check_game`, the conformance
check a researcher runs on a game of their own, and so do rule variants of the package's
games; broken games fail it naming the check. The state API (:class:`donuts_ai.state.GameState`):
what the check cannot know of Donuts and Donut Boxes (their constructors, their arrays and
random draws, their texts' errors, forfeits, the architecture page's function)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import examples.connect_four  # noqa: F401  (registers connect-four-python, as a user's own module would)
from donuts_ai import Game, get_game, make, register_game
from donuts_ai.boxes import BoxesRules, BoxesState
from donuts_ai.boxes.game import BoxesGame
from donuts_ai.donuts.board import Board
from donuts_ai.donuts.errors import PositionError
from donuts_ai.donuts.game import DonutsGame
from donuts_ai.donuts.layout import Layout
from donuts_ai.donuts.rules import Rules
from donuts_ai.errors import DonutsError, GameError
from donuts_ai.game import game_names
from donuts_ai.state import GameState
from donuts_ai.testing import GameCheckError, check_game
from examples.tic_tac_toe import TicTacToe, TicTacToeState  # registers tic-tac-toe, likewise


def test_make_builds_each_game_as_its_own_constructor_does():
    assert make("donuts").to_dict() == Board().to_dict()
    assert make("donuts", layout="random:3").to_dict() == Board(Layout.from_spec("random:3")).to_dict()
    assert make("donuts", rules={"insertion": "single", "donuts": 18}).to_dict() == Board(Layout.standard(), Rules("single", 18)).to_dict()
    assert make("boxes", players=3, seed=1).to_dict() == BoxesState(BoxesRules(players=3), seed=1).to_dict()
    assert make("boxes", rules=BoxesRules(players=4), seed=2).to_dict() == BoxesState(BoxesRules(players=4), seed=2).to_dict()


@pytest.mark.parametrize(("call", "says"), [
    (lambda: make("chess"), "unknown game 'chess'; expected one of donuts, boxes"),
    (lambda: make("donuts", rules="single", insertion="group"), "not both"),
    (lambda: make("boxes", players=1), "players"),
    (lambda: make("donuts", layout="nowhere"), "nowhere"),
])
def test_make_refuses_what_it_does_not_know_naming_it(call, says):
    # An unknown setting, refused naming it, is check_game's (every game); these are the games' own values.
    with pytest.raises(DonutsError, match=says):
        call()


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


@pytest.mark.parametrize("players", [2, 3, 4])
def test_boxes_outcome_names_places_winners_scores_and_why(players):
    # Places, winner and scores agreeing with one another are check_game's; these are Donut Boxes' own words.
    state = BoxesState(BoxesRules(players=players), seed=4)
    assert state.outcome() is None
    while not state.is_game_over():
        state.push_id(state.random_move_id(seed=len(state.move_stack)))
    outcome = state.outcome()
    assert outcome is not None
    assert list(outcome.places) == state.ranking() and list(outcome.winners) == state.winners()
    assert list(outcome.scores) == state.scores and list(outcome.boxes) == state.boxes_delivered
    assert outcome.winner == (outcome.winners[0] if len(outcome.winners) == 1 else None)
    assert outcome.reason == ("shared win" if outcome.winner is None else
                              "score" if list(outcome.scores).count(max(outcome.scores)) == 1 else "boxes")


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


def snapshot(state: GameState) -> tuple[object, ...]:
    return state.to_dict(), state.to_text(), list(state.legal_moves()), state.turn, list(state.move_stack)


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


# --- the game: every game in the table ----------------------------------------------------

#: The games of the table: the package's and the examples'. (Tests elsewhere register toy
#: games that speak only what the harness needs; they are not games a user plays.)
GAMES = ("donuts", "boxes", "connect-four", "connect-four-python", "tic-tac-toe")
assert set(GAMES) <= set(game_names())
#: The checks of check_game, in the order it runs them: the names its messages use.
CHECKS = [
    "make() builds a state to move and refuses an unknown setting",
    "set-ups and rules are text and JSON the game reads back",
    "random games end with an outcome",
    "pop restores the state",
    "an illegal move or a move after the end raises a GameError and changes nothing",
    "a copy is independent and keeps the history",
    "to_dict and to_text read back through JSON",
    "what an agent sees is JSON and a view of its own",
    "an answer reads as a legal move or None, and never raises",
    "the ledger gives every player a number",
    "a small tournament of random agents verifies",
]


def test_the_table_holds_the_package_s_games_and_the_examples():
    assert {"donuts", "boxes", "connect-four", "connect-four-python", "tic-tac-toe"} <= set(GAMES)
    assert all(isinstance(get_game(name), Game) and get_game(name).name == name for name in GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_in_the_table_passes_check_game(name):
    assert check_game(name) == CHECKS


def test_check_game_takes_a_module_and_name_and_checks_its_arguments():
    assert check_game("examples.connect_four:connect-four-python", seed=5, games=1) == CHECKS
    with pytest.raises(DonutsError, match="games"):
        check_game("connect-four-python", games=0)
    with pytest.raises(DonutsError, match="unknown game 'chess'"):
        check_game("chess")


class DonutsGridSingle18(DonutsGame):
    """Donuts on a random direction grid, single insertion, 18 donuts."""

    name = "test-donuts-grid-single-18"
    FRESH_SETUP = "grid"

    def rules_dict(self, rules):
        return super().rules_dict({"insertion": "single", "donuts": 18} if rules is None else rules)


class Boxes3Splitzkies(BoxesGame):
    """Donut Boxes of 3 players on the splitzkies grid."""

    name = "test-boxes-3-splitzkies"

    def rules_dict(self, rules):
        return super().rules_dict({"players": 3, "grid": "splitzkies"} if rules is None else rules)


class Boxes4(BoxesGame):
    """Donut Boxes of 4 players."""

    name = "test-boxes-4"

    def rules_dict(self, rules):
        return super().rules_dict({"players": 4} if rules is None else rules)


@pytest.mark.parametrize("variant", [DonutsGridSingle18, Boxes3Splitzkies, Boxes4], ids=lambda v: v.name)
def test_rule_variants_pass_check_game(variant):
    # The package's games under other official rules and set-ups: registered, for the tournament,
    # under a test-only name (the same class again changes nothing).
    assert check_game(register_game(variant()), seed=2) == CHECKS


class ForgetfulState(TicTacToeState):
    """Tic-tac-toe whose undo leaves the cell filled."""

    def undo(self, move):
        pass


class Forgetful(TicTacToe):
    """Tic-tac-toe on a :class:`ForgetfulState`."""

    name = "tic-tac-toe-forgetful"

    def new_state(self, setup, rules):
        return ForgetfulState(setup)


class LossyTextState(TicTacToeState):
    """Tic-tac-toe whose text leaves out the last move."""

    def to_text(self):
        data = self.to_dict()
        return json.dumps({**data, "moves": data["moves"][:-1]})


class LossyText(TicTacToe):
    """Tic-tac-toe on a :class:`LossyTextState`."""

    name = "tic-tac-toe-lossy-text"

    def new_state(self, setup, rules):
        return LossyTextState(setup)


class Blind(TicTacToe):
    """Tic-tac-toe whose observation raises."""

    name = "tic-tac-toe-blind"

    def observation(self, state, player):
        raise RuntimeError(f"player {player} sees\nnothing")


def test_check_game_names_a_broken_undo():
    with pytest.raises(GameCheckError, match=r"^tic-tac-toe-forgetful: pop restores the state: after pop\(\) of '[a-c][1-3]' "
                                             r"at ply \d, legal_moves\(\) differs: \[.*\] != \[.*\]$") as raised:
        check_game(Forgetful())  # a Game object, not registered: the checks before the tournament need no table
    assert (raised.value.game_name, raised.value.check) == ("tic-tac-toe-forgetful", "pop restores the state")
    assert isinstance(raised.value, GameError) and isinstance(raised.value, ValueError)


def test_check_game_names_a_text_that_loses_a_move():
    with pytest.raises(GameCheckError, match=r"^tic-tac-toe-lossy-text: to_dict and to_text read back through JSON: "
                                             r"from_text\(to_text\(\)\) in random game 0 at ply \d, to_dict\(\) differs: "):
        check_game(LossyText())


def test_a_games_exception_inside_a_check_is_a_game_check_error_naming_it():
    with pytest.raises(GameCheckError) as raised:
        check_game(Blind())
    error = raised.value
    assert error.check == "what an agent sees is JSON and a view of its own"
    assert str(error).startswith("tic-tac-toe-blind: what an agent sees is JSON and a view of its own: "
                                 "RuntimeError: player 0 sees nothing (in observation, test_game_contract.py:")
    assert "\n" not in str(error) and isinstance(error.__cause__, RuntimeError)


def test_an_unregistered_game_fails_only_the_tournament():
    class Unregistered(TicTacToe):
        name = "tic-tac-toe-unregistered"

    with pytest.raises(GameCheckError, match="'tic-tac-toe-unregistered' names none in the table: register_game"
                       ) as raised:
        check_game(Unregistered())
    assert raised.value.check == CHECKS[-1]


def test_importing_the_check_loads_no_test_framework():
    code = "import sys, donuts_ai.testing; print(sorted(m for m in sys.modules if m.split('.')[0] in ('pytest', 'hypothesis')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            cwd=Path(__file__).parent.parent).stdout
    assert loaded.strip() == "[]"


def test_a_name_joins_the_table_once():
    connect_four = get_game("connect-four-python")
    assert register_game(type(connect_four)()) is connect_four  # the same game again: nothing changes

    class Impostor(type(connect_four)):
        pass

    with pytest.raises(DonutsError, match="a game named 'connect-four-python' is already registered"):
        register_game(Impostor())
    with pytest.raises(DonutsError, match="register_game takes a Game, got str"):
        register_game("connect-four-python")  # type: ignore[arg-type]
