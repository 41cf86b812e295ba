from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from donuts_ai import (
    Board,
    IllegalMoveError,
    InvalidMoveError,
    Layout,
    LayoutError,
    PositionError,
    Rules,
    RulesError,
    Termination,
)
from donuts_ai.donuts.squares import A1, C3, F6, parse_square, square_name


def random_board(seed: int, plies: int, rules: Rules | None = None, forfeits: bool = True) -> Board:
    rng = random.Random(seed)
    board = Board(Layout.random_grid(seed), rules)
    for _ in range(plies):
        if board.is_game_over():
            break
        if forfeits and rng.random() < 0.05:
            board.forfeit()
        else:
            board.push(rng.choice(board.legal_moves()))
    return board


def test_new_board():
    board = Board()
    assert board.turn == 0 and board.last is None and board.placed == (0, 0)
    assert board.layout == Layout.standard() and board.rules == Rules()
    assert board.legal_moves() == [square_name(s) for s in range(36)]
    assert board.outcome() is None and not board.is_game_over() and board.is_open_pick()


def test_square_names_and_indices():
    assert (A1, C3, F6) == (0, 14, 35)
    assert parse_square("c3") == parse_square(14) == 14
    assert square_name(35) == "f6"
    for bad in ("g1", "a7", "", "c 3", 36, -1, 1.0, True, None):
        with pytest.raises(InvalidMoveError):
            parse_square(bad)


def test_push_accepts_names_and_indices_and_returns_flips():
    board = Board()
    assert board.push("c3") == []
    assert board.turn == 1 and board.last == C3 and board.placed == (1, 0)
    assert board.move_stack == ["c3"] and board.peek() == "c3"
    board.push(board.legal_squares()[0])
    assert board.ply == 2


def test_illegal_moves_name_the_square_and_the_legal_moves():
    board = Board()
    board.push("c3")
    with pytest.raises(IllegalMoveError, match=r"illegal move a1: not on the - line through c3 \(legal: a3, b3, d3, e3, f3\)"):
        board.push("a1")
    with pytest.raises(IllegalMoveError, match="c3: square is occupied"):
        board.push("c3")
    with pytest.raises(InvalidMoveError, match="invalid move 'x9'"):
        board.push("x9")
    assert issubclass(IllegalMoveError, ValueError) and issubclass(InvalidMoveError, ValueError)


def test_errors_leave_the_board_untouched():
    board = random_board(5, 9)
    before = (board.fen(), board.move_stack)
    for bad in ("zz", 99, "a1", None):
        if board.is_legal(bad):
            continue
        with pytest.raises(ValueError):
            board.push(bad)
        assert (board.fen(), board.move_stack) == before


def test_game_over_refuses_moves_and_forfeits():
    board = random_board(1, 100)
    assert board.is_game_over() and board.turn is None and board.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="game is over"):
        board.push("a1")
    with pytest.raises(IllegalMoveError, match="game is over"):
        board.forfeit()


def test_pop_on_empty_stack():
    with pytest.raises(IndexError):
        Board().pop()


@given(st.integers(0, 10**6), st.integers(0, 40), st.sampled_from([Rules(), Rules(insertion="single"), Rules(donuts=18)]))
def test_fen_round_trip(seed, plies, rules):
    board = random_board(seed, plies, rules)
    again = Board.from_fen(board.fen(), rules)
    assert again == board and again.fen() == board.fen()
    assert again.legal_moves() == board.legal_moves() and again.outcome() == board.outcome()
    assert eval(repr(board), {"Board": Board, "Rules": Rules}) == board


def test_fen_of_the_start():
    assert Board(Layout([0] * 36)).fen() == "------,------,------,------,------,------ " + "/".join(["......"] * 6) + " c - 0 0"


@pytest.mark.parametrize(
    "fen, message",
    [
        ("nonsense", "needs 6 fields"),
        ("------,------ ....../....../....../....../....../...... c - 0 0", "bad layout field"),
        ("------,------,------,------,------,------ ....../....../....../....../....../..... c - 0 0", "cells field"),
        ("------,------,------,------,------,------ ....../....../....../....../....../.....x c - 0 0", "bad cell 'x' at f1"),
        ("------,------,------,------,------,------ ....../....../....../....../....../...... x - 0 0", "turn must be"),
        ("------,------,------,------,------,------ ....../....../....../....../....../c..... v a1 2 0", "1 donuts on the board"),
        ("------,------,------,------,------,------ ....../....../....../....../....../c..... v - 1 0", "last square '-'"),
        ("------,------,------,------,------,------ ....../....../....../....../....../c..... v b1 1 0", "last square b1 is empty"),
        ("------,------,------,------,------,------ ....../....../....../....../....../c..... v z9 1 0", "last must be a square"),
        ("------,------,------,------,------,------ ....../....../....../....../....../c..... v a1 x 0", "placed count for chocolate"),
        ("------,------,------,------,------,------ ....../....../....../....../....../c..... v a1 16 0", "placed count"),
        ("------,------,------,------,------,------ ....../....../....../....../....../c..... - a1 1 0", "not over"),
        ("------,------,------,------,------,------ ....../....../....../....../vvvvv./ccccc. v a1 5 5", "both colours"),
        ("------,------,------,------,------,------ ....../....../....../....../....../ccccc. v a1 5 0", "game is over"),
    ],
)
def test_bad_position_strings(fen, message):
    with pytest.raises(PositionError, match=message):
        Board.from_fen(fen)


def test_turn_with_an_empty_pool_is_rejected():
    fen = "------,------,------,------,------,------ ....../....../....../....../....../c.v.c. c e1 2 1"
    with pytest.raises(PositionError, match="chocolate to move with an empty pool"):
        Board.from_fen(fen, Rules(donuts=2))


def test_copy_is_independent():
    board = random_board(3, 6)
    clone = board.copy()
    assert clone == board and clone.move_stack == board.move_stack
    clone.push(clone.legal_moves()[0])
    assert clone != board and board.ply == 6
    short = board.copy(stack=False)
    assert short == board and short.move_stack == []
    with pytest.raises(IndexError):
        short.pop()


def test_text_diagram():
    board = Board(Layout([0] * 36))
    board.push("c3")
    text = str(board)
    assert text.splitlines()[3] == "3  -  -  C  -  -  -"
    assert text.splitlines()[-2] == "   a  b  c  d  e  f"
    assert "vanilla to move" in text and "last c3" in text


def test_svg_is_well_formed_and_shows_donuts_and_last_move():
    board = random_board(2, 7, forfeits=False)
    svg = board._repr_svg_()
    root = ET.fromstring(svg)
    circles = [e for e in root.iter() if e.tag.endswith("circle")]
    donuts = sum(1 for e in circles if e.get("fill") in ("#6b3e26", "#f6e7b9"))
    assert donuts == sum(b.bit_count() for b in board.bitboards)
    assert sum(1 for e in circles if e.get("stroke") == "#d62828") == 1
    assert sum(1 for e in root.iter() if e.tag.endswith("line")) == 36
    ET.fromstring(Layout.standard()._repr_svg_())


def test_outcome_object():
    board = random_board(11, 200)
    o = board.outcome()
    assert isinstance(o.reason, Termination) and o.result() in ("1-0", "0-1", "1/2-1/2")
    assert str(Termination.LARGEST_GROUP) == "largest group"


def test_bad_constructor_arguments():
    with pytest.raises(LayoutError):
        Board("standard")
    with pytest.raises(RulesError, match="unknown insertion rule 'double'"):
        Rules(insertion="double")
    with pytest.raises(RulesError, match="donuts must be in 1..36"):
        Rules(donuts=0)
    with pytest.raises(RulesError, match="must be an int"):
        Rules(donuts=15.0)
    for not_a_mapping in (None, "x"):  # (a TypeError, and a ValueError about "update sequences", before)
        with pytest.raises(RulesError, match="rules must be a mapping of insertion, donuts"):
            Rules.from_dict(not_a_mapping)  # type: ignore[arg-type]


def test_forfeit_skips_to_the_opponent_and_pop_restores():
    board = Board()
    board.push("c3")
    fen = board.fen()
    board.forfeit()
    assert board.turn == 0 and board.move_stack == ["c3", None] and board.peek() is None
    assert board.pop() is None and board.fen() == fen


def test_a_player_with_an_empty_pool_is_skipped():
    board = Board(Layout([1] * 36), Rules(donuts=2))
    board.push("a1")
    board.forfeit()  # Vanilla forfeits: Chocolate again
    board.push("a3")  # Chocolate has now placed both donuts
    assert board.turn == 1
    board.push("a2")  # Vanilla: between a1 and a3, flips nothing on the file
    assert board.turn == 1  # Chocolate's pool is empty: Vanilla again
    board.push("a4")
    assert board.is_game_over() and board.outcome().reason is Termination.LARGEST_GROUP


def test_plies_left_counts_down_one_a_ply_to_the_end():
    # Every placement fills a square and spends a donut, so the bound falls by one each
    # ply, and a game that reaches 0 is over (a five may end it sooner).
    rng = random.Random(3)
    for seed in range(20):
        board = Board(Layout.random(seed))
        while not board.is_game_over():
            before = board.plies_left()
            board.push(rng.choice(board.legal_moves()))
            assert board.plies_left() == before - 1
        # Over by majority (board full) or largest group (pools empty): nothing is left;
        # over by a five: the bound may still be positive.
        assert board.plies_left() == 0 or board.outcome().reason == Termination.FIVE
