"""The kernel contract (donuts_ai._engine.position): the rule helpers every kernel asks
agree with the Board, move by move, under every variant and after forfeits."""

from __future__ import annotations

import random

import numpy as np
import pytest

from donuts_ai import Board, Layout, Rules
from donuts_ai._engine.core import DRAW, has_five
from donuts_ai._engine.position import (
    Position,
    end_result,
    game_of,
    is_over_after,
    legal_moves,
    make_move,
    next_position,
    plies_left,
    position_of,
    swap,
    typed_position,
    winner_colour,
)
from donuts_ai.squares import NUM_SQUARES


@pytest.mark.parametrize("rules", [Rules(), Rules(insertion="single"), Rules(donuts=20), Rules(donuts=4)],
                         ids=["standard", "single", "20-donuts", "4-donuts"])
def test_helpers_follow_the_board(rules):
    rng = random.Random(3)
    for game_no in range(30):
        board = Board(Layout.random_grid(game_no), rules)
        game = game_of(board.layout, board.rules)
        while not board.is_game_over():
            if rng.random() < 0.05:
                board.forfeit()
                continue
            pos, colour = position_of(*board.kernel_state()), board.turn
            assert int(legal_moves(game, pos)) == board.legal_mask()
            left = int(plies_left(pos, rules.donuts))
            b0, b1 = board.bitboards
            assert left == min(2 * rules.donuts - sum(board.placed), NUM_SQUARES - (b0 | b1).bit_count())
            sq = rng.choice(board.legal_squares())
            after = typed_position(make_move(game, pos, sq))
            board.push(sq)
            outcome = board.outcome()
            if has_five(after.own):
                assert outcome is not None and outcome.winner == colour
            elif is_over_after(after, rules.donuts):
                winner = int(winner_colour(end_result(after, rules.donuts)[0], colour))
                assert outcome is not None and outcome.winner == (None if winner == DRAW else winner)
            else:
                assert outcome is None
                child, passed = next_position(after, rules.donuts)
                assert typed_position(child) == position_of(*board.kernel_state())
                assert bool(passed) == (board.turn != colour)


def test_position_of_is_from_the_side_to_move():
    board = Board()
    for move in ("c3", "e3"):
        board.push(move)
    b0, b1, turn, last, p0, p1 = board.kernel_state()
    assert position_of(*board.kernel_state()) == Position(np.uint64(b0), np.uint64(b1), last, p0, p1)
    board.push(board.legal_moves()[0])
    pos = position_of(*board.kernel_state())
    assert typed_position(swap(pos)) == position_of(*board.kernel_state()[:2], 0, *board.kernel_state()[3:])
