"""GreedyAgent: a one-ply player (take a win, avoid handing one over, prefer flips and long lines)."""

from __future__ import annotations

import numpy as np

from .._kernels.core import can_win_now, flips
from .._kernels.position import (
    ENDED_DRAWN,
    ENDED_WON,
    MOVES_AGAIN,
    PASSES,
    WON_BY_FIVE,
    apply,
    legal_moves,
    position_of,
    rulebook_of,
    typed_position,
)
from ..board import Board
from ..squares import DIRECTION_VECTORS, SIZE, SQUARE_NAMES, square, square_file, square_rank
from .donuts_agent import DonutsAgent


def run_length(bb: int, sq: int) -> int:
    """The longest straight run of ``bb`` through ``sq`` (any of the 4 axes).

    Args:
        bb: the donuts of one colour.
        sq: the square.
    """
    best = 0
    x0, y0 = square_file(sq), square_rank(sq)
    for dx, dy in DIRECTION_VECTORS:
        length = 1
        for sign in (1, -1):
            x, y = x0 + sign * dx, y0 + sign * dy
            while 0 <= x < SIZE and 0 <= y < SIZE and bb >> square(x, y) & 1:
                length += 1
                x, y = x + sign * dx, y + sign * dy
        best = max(best, length)
    return best


class GreedyAgent(DonutsAgent):
    """Looks one ply ahead. In order of preference: a move that makes five (or wins the
    game outright); a move after which the opponent has no five on the line it must
    play (flips included); more flips; a longer own line through the new donut; then a
    seeded random tie-break."""

    kind = "greedy"

    def _select(self, board: Board, time_left: float | None) -> str:
        rulebook, pos = rulebook_of(board.layout, board.rules), position_of(*board.kernel_state())
        best_key, best_sq = None, None
        for sq in board.legal_squares():
            flipped = int(flips(pos.own, pos.opp, sq, rulebook.single))
            child, status = apply(rulebook.donuts, rulebook.single, pos, sq)
            if status in (WON_BY_FIVE, ENDED_WON):
                return SQUARE_NAMES[sq]
            if status == PASSES:
                child = typed_position(child)
                replies = np.uint64(legal_moves(rulebook, child))
                safe = 0 if can_win_now(child.own, child.opp, replies, rulebook.single) else 2
            elif status == MOVES_AGAIN:
                safe = 1
            else:
                safe = 1 if status == ENDED_DRAWN else -1  # a draw beats a loss, not a game going on
            own = int(pos.own) | 1 << sq | flipped
            key = (safe, flipped.bit_count(), run_length(own, sq), self.rng.random())
            if best_key is None or key > best_key:
                best_key, best_sq = key, sq
        assert best_sq is not None  # a game that goes on has a legal move
        return SQUARE_NAMES[best_sq]
