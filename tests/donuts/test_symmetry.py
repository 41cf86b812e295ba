"""A game and its image under each of the 8 board symmetries are the same game."""

from __future__ import annotations

import random

import pytest

from donuts_ai import SYMMETRY_NAMES, Board, Layout, Rules
from donuts_ai.donuts.squares import SQUARE_NAMES, parse_square
from donuts_ai.donuts.symmetry import inverse, transform_bitboard, transform_square


def test_square_maps_are_permutations():
    for sym in SYMMETRY_NAMES:
        image = [transform_square(sq, sym) for sq in range(36)]
        assert sorted(image) == list(range(36))
        assert [transform_square(transform_square(sq, sym), inverse(sym)) for sq in range(36)] == list(range(36))
    assert transform_square(parse_square("a1"), "rot90") == parse_square("f1")  # counter-clockwise
    assert transform_square(parse_square("a1"), "mirror") == parse_square("f1")
    assert transform_square(parse_square("b1"), "transpose") == parse_square("a2")


@pytest.mark.parametrize("sym", SYMMETRY_NAMES)
@pytest.mark.parametrize("rules", [Rules(), Rules(insertion="single"), Rules(donuts=18)], ids=repr)
def test_transformed_games_give_transformed_results(sym, rules):
    rng = random.Random(f"{sym} {rules!r}")
    for g in range(15):
        layout = Layout.random(g) if g % 2 else Layout.random_grid(g)
        board, image = Board(layout, rules), Board(layout.transform(sym), rules)
        while not board.is_game_over():
            assert sorted(transform_square(s, sym) for s in board.legal_squares()) == image.legal_squares()
            if rng.random() < 0.03:
                board.forfeit()
                image.forfeit()
                continue
            move = rng.choice(board.legal_squares())
            flipped = board.push(move)
            flipped_image = image.push(transform_square(move, sym))
            assert sorted(transform_square(parse_square(s), sym) for s in flipped) == [parse_square(s) for s in flipped_image]
            assert image.bitboards == tuple(transform_bitboard(b, sym) for b in board.bitboards)
            assert image.turn == board.turn
        assert image.outcome() == board.outcome()
        assert board.transform(sym) == image
        assert board.transform(sym).move_stack == image.move_stack
        assert board.transform(sym).transform(inverse(sym)).move_stack == board.move_stack


def test_transform_keeps_history_so_pop_works():
    board = Board(Layout.standard())
    for move in ("c3", "a3", "a5"):
        board.push(move)
    image = board.transform("rot180")
    assert image.move_stack == [SQUARE_NAMES[transform_square(parse_square(m), "rot180")] for m in board.move_stack]
    image.pop()
    board.pop()
    assert image == board.transform("rot180")
