"""The kernel contract (donuts_ai.donuts._kernels.position): the transition every kernel calls and
the rule helpers beside it agree with the Board, move by move, under every variant and
after forfeits."""

from __future__ import annotations

import random

import numpy as np
import pytest

from donuts_ai import Board, Layout, Rules
from donuts_ai.donuts._kernels.core import WINNER_DRAW, flips, has_five
from donuts_ai.donuts._kernels.position import (
    ENDED_DRAWN,
    ENDED_LOST,
    ENDED_WON,
    MOVES_AGAIN,
    PASSES,
    WON_BY_FIVE,
    Position,
    apply,
    end_reason,
    is_over,
    legal_moves,
    place,
    placer_value,
    placer_view,
    plies_left,
    position_of,
    rulebook_of,
    swap,
    typed_position,
    winner_of,
)
from donuts_ai.donuts.outcomes import REASON_NAMES
from donuts_ai.donuts.squares import NUM_SQUARES


def _placed(rulebook, pos: Position, sq: int) -> Position:
    """``sq`` placed with the donuts it flips, before five and the end are looked at: what
    :func:`placer_view` must give back of the transition's child, built from its parts."""
    return place(pos, sq, flips(pos.own, pos.opp, sq, rulebook.single))


@pytest.mark.parametrize("rules", [Rules(), Rules(insertion="single"), Rules(donuts=20), Rules(donuts=4)],
                         ids=["standard", "single", "20-donuts", "4-donuts"])
def test_helpers_follow_the_board(rules):
    rng = random.Random(3)
    for game_no in range(30):
        board = Board(Layout.random_grid(game_no), rules)
        rulebook = rulebook_of(board.layout, board.rules)
        while not board.is_game_over():
            if rng.random() < 0.05:
                board.forfeit()
                continue
            pos, colour = position_of(*board.kernel_state()), board.turn
            assert int(legal_moves(rulebook, pos)) == board.legal_mask()
            left = int(plies_left(pos, rules.donuts))
            b0, b1 = board.bitboards
            assert left == min(2 * rules.donuts - sum(board.placed), NUM_SQUARES - (b0 | b1).bit_count())
            sq = rng.choice(board.legal_squares())
            after = typed_position(_placed(rulebook, pos, sq))
            child, status = apply(rulebook.donuts, rulebook.single, pos, sq)
            child = typed_position(child)
            assert typed_position(placer_view(child, status)) == after
            board.push(sq)
            outcome = board.outcome()
            assert bool(is_over(status)) == (outcome is not None)
            if outcome is not None:
                assert (status == WON_BY_FIVE) == bool(has_five(after.own))
                assert status in (WON_BY_FIVE, ENDED_WON, ENDED_DRAWN, ENDED_LOST)
                winner = int(winner_of(status, colour))
                assert outcome.winner == (None if winner == WINNER_DRAW else winner)
                assert placer_value(status) == (0 if outcome.winner is None else 1 if outcome.winner == colour else -1)
                assert REASON_NAMES[int(end_reason(status, child))] == outcome.reason
            else:
                assert status in (PASSES, MOVES_AGAIN)
                assert child == position_of(*board.kernel_state())
                assert (status == PASSES) == (board.turn != colour)


def test_position_of_is_from_the_side_to_move():
    board = Board()
    for move in ("c3", "e3"):
        board.push(move)
    b0, b1, turn, last, p0, p1 = board.kernel_state()
    assert position_of(*board.kernel_state()) == Position(np.uint64(b0), np.uint64(b1), last, p0, p1)
    board.push(board.legal_moves()[0])
    pos = position_of(*board.kernel_state())
    assert typed_position(swap(pos)) == position_of(*board.kernel_state()[:2], 0, *board.kernel_state()[3:])
