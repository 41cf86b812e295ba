"""Worked examples of the rules as literal board diagrams (rank 6 on top, c/v/. cells).

Unless a test says otherwise every square shows "-", so the side to move must play on
the rank of the last square, and Chocolate (c) is to move.
"""

from __future__ import annotations

import pytest

from donuts_ai import Board, Layout, Rules, Termination
from donuts_ai.donuts.reference import ReferenceGame

from ..helpers import assert_same_position, example, play_both


def after(board: Board, ref: ReferenceGame, move: str) -> tuple[list[str], Board]:
    """Push ``move`` and replay it in the reference game, which was read from the same
    diagram without the engine: cells, flips, turn, last square, placed counts, outcome
    and legal moves must agree before and after. The example's own assertions follow."""
    return play_both(board, ref, move), board


def cells(board: Board) -> str:
    rows = []
    for rank in range(5, -1, -1):
        rows.append("".join({0: "c", 1: "v", None: "."}[board.color_at(rank * 6 + f)] for f in range(6)))
    return "\n".join(rows)


def test_single_insertion():
    board, ref = example("""
        ......
        ......
        ......
        ......
        ......
        .v.v..""", last="b1")
    flipped, board = after(board, ref, "c1")
    assert flipped == ["b1", "d1"]
    assert cells(board).splitlines()[-1] == ".ccc.."


def test_group_insertion_fills_the_gap():
    # o X X _ o : Chocolate fills the gap, the run c1..d1 is inserted between a1 and e1.
    board, ref = example("""
        ......
        ......
        ......
        ......
        ......
        vcc.v.""", last="e1")
    flipped, board = after(board, ref, "d1")
    assert flipped == ["a1", "e1"]
    assert cells(board).splitlines()[-1] == "ccccc."
    assert board.outcome().reason is Termination.FIVE and board.outcome().winner == 0


def test_insertion_in_two_axes_at_once():
    board, ref = example("""
        ......
        ......
        ..v...
        .v.v..
        ..v...
        ......""", last="b3")
    flipped, _ = after(board, ref, "c3")
    assert flipped == ["c2", "b3", "d3", "c4"]


def test_surrounding_flips_nothing():
    # Othello-style: c v v _ filled by c surrounds v v, but the new c's run (just d1)
    # has an empty square beyond its right end: nothing flips.
    board, ref = example("""
        ......
        ......
        ......
        ......
        ......
        cvv...""", last="c1", placed=(2, 1))
    flipped, board = after(board, ref, "d1")
    assert flipped == []
    assert cells(board).splitlines()[-1] == "cvvc.."


def test_only_the_two_adjacent_donuts_flip_when_the_opponent_run_is_longer():
    board, ref = example("""
        ......
        ......
        ......
        ......
        ......
        vv.vv.""", last="a1", placed=(0, 4))
    flipped, board = after(board, ref, "c1")
    assert flipped == ["b1", "d1"]
    assert cells(board).splitlines()[-1] == "vcccv."


def test_single_variant_needs_single_opponents():
    rules = Rules(insertion="single")
    board, ref = example("""
        ......
        ......
        ......
        ......
        ......
        vv.v..""", last="a1", rules=rules, placed=(0, 3))
    assert after(board, ref, "c1")[0] == []  # the left opponent run is two long
    board, ref = example("""
        ......
        ......
        ......
        ......
        ......
        cv.v..""", last="a1", rules=rules, placed=(1, 2))
    assert after(board, ref, "c1")[0] == ["b1", "d1"]
    board, ref = example("""
        ......
        ......
        ......
        ......
        ......
        vc.v..""", last="a1", rules=rules, placed=(1, 2))
    assert after(board, ref, "c1")[0] == []  # the official rule would insert the run b1-c1


def test_open_pick_when_the_line_is_full():
    board, ref = example("""
        ......
        ......
        ......
        ......
        ......
        cvcvcv""", turn="c", last="f1", placed=(3, 3))
    assert board.is_open_pick()
    assert len(board.legal_moves()) == 30
    assert after(board, ref, "d4")[0] == []  # any empty square, far from the full line
    assert not board.is_open_pick() and board.legal_moves() == ["a4", "b4", "c4", "e4", "f4"]
    board, ref = example("""
        ......
        ......
        ......
        ......
        ......
        cvcvc.""", turn="v", last="e1", placed=(3, 2))
    assert board.legal_moves() == ["f1"]
    assert after(board, ref, "f1")[0] == []  # the run f1 ends at the board's edge: no insertion
    assert board.is_open_pick()  # Vanilla filled the line: Chocolate may play anywhere


def test_five_made_by_a_flip():
    # Chocolate on c2 inserts itself vertically between c1 and c3; c1 turning
    # Chocolate completes a1..e1.
    board, ref = example("""
        ......
        ......
        ......
        ..v...
        ......
        ccvcc.""", last="c3", layout="\n".join(["------"] * 3 + ["||||||"] * 3), placed=(4, 2))
    flipped, board = after(board, ref, "c2")
    assert flipped == ["c1", "c3"]
    o = board.outcome()
    assert (o.winner, o.reason) == (0, Termination.FIVE)


def test_largest_group_decides_at_the_end():
    # Four donuts each. Vanilla's last donut d2 joins d1-e1 (group 3, no flip);
    # Chocolate's 2x2 block is larger: Chocolate wins 4-3.
    board, ref = example("""
        .....v
        ......
        ......
        ......
        cc....
        cc.vv.""", turn="v", last="b2", rules=Rules(donuts=4))
    assert board.placed == (4, 3)
    flipped, board = after(board, ref, "d2")
    assert flipped == []
    o = board.outcome()
    assert (o.winner, o.reason, o.scores) == (0, Termination.LARGEST_GROUP, (4, 3))
    assert o.result() == "1-0"


def test_draw_on_equal_groups():
    board, ref = example("""
        ......
        ......
        ......
        ......
        v.....
        cc.vv.""", turn="c", last="a2", rules=Rules(donuts=3))
    assert board.legal_moves() == ["b2", "c2", "d2", "e2", "f2"]
    flipped, board = after(board, ref, "f2")
    assert flipped == []
    o = board.outcome()
    assert (o.winner, o.reason, o.scores) == (None, Termination.LARGEST_GROUP, (2, 2))
    assert o.result() == "1/2-1/2"


def test_majority_on_a_full_board_with_18_donuts():
    # Earlier flips left Chocolate 20 donuts on the board to Vanilla's 15 (18 + 17
    # placed). Vanilla's 18th donut fills the board without a flip or a five:
    # Chocolate wins on the count, 20-16.
    rules = Rules(donuts=18)
    board, ref = example("""
        ccvvcc
        vvcccv
        ccvvcc
        cvccvv
        ccvvcc
        vvcc.v""", turn="v", last="d1", rules=rules, placed=(18, 17))
    assert board.outcome() is None
    flipped, board = after(board, ref, "e1")
    assert flipped == []
    o = board.outcome()
    assert (o.winner, o.reason, o.scores) == (0, Termination.MAJORITY, (20, 16))


def test_full_board_with_equal_counts_is_a_draw():
    board, ref = example("""
        ccvvcc
        vvccvv
        ccvvcc
        vvccvv
        ccvvcc
        vvcc.v""", turn="v", last="d1", rules=Rules(donuts=18))
    assert after(board, ref, "e1")[0] == []
    o = board.outcome()
    assert (o.winner, o.reason, o.scores) == (None, Termination.MAJORITY, (18, 18))


def test_a_forfeit_keeps_the_donut_and_the_line():
    board = Board(Layout.from_text(ALL_H := "\n".join(["------"] * 6)))
    ref = ReferenceGame(Layout.from_text(ALL_H))
    after(board, ref, "c3")
    board.forfeit()  # Vanilla forfeits: Chocolate again, on the line through c3
    ref.forfeit()
    assert_same_position(board, ref)
    assert board.turn == 0 and board.placed == (1, 0)
    assert board.legal_moves() == ["a3", "b3", "d3", "e3", "f3"]
    assert Layout.from_text(ALL_H) == board.layout
    assert after(board, ref, "d3")[0] == []  # Chocolate's run c3-d3 has empty squares at both ends


def test_the_reference_comparison_can_fail():
    # Guard for this file: a reference that plays by other rules (here the single-insertion
    # variant, where c1 between the runs vv and v flips nothing) must make after() fail.
    diagram = """
        ......
        ......
        ......
        ......
        ......
        vv.v.."""
    board, _ = example(diagram, last="a1", placed=(0, 3))
    _, single_ref = example(diagram, last="a1", placed=(0, 3), rules=Rules(insertion="single"))
    with pytest.raises(AssertionError, match="flips"):
        after(board, single_ref, "c1")
    # And a reference read from another diagram fails before the move is played.
    board, _ = example(diagram, last="a1", placed=(0, 3))
    _, other_ref = example(diagram.replace("vv.v..", "vv.v.v"), last="a1", placed=(0, 4))
    with pytest.raises(AssertionError, match="cells"):
        after(board, other_ref, "c1")
