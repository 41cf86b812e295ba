"""GreedyAgent: a one-ply player (take a win, avoid handing one over, prefer flips and long lines)."""

from __future__ import annotations

import numpy as np

from .._engine.core import DRAW, can_win_now, flips, has_five
from .._engine.position import (
    end_result,
    game_of,
    is_over_after,
    legal_moves,
    opponent_moves_next,
    place,
    position_of,
    swap,
    typed_position,
)
from ..board import Board
from ..search.base import Agent
from ..squares import DIRECTION_VECTORS, SIZE, SQUARE_NAMES, square, square_file, square_rank


def run_length(bb: int, sq: int) -> int:
    """Longest straight run of ``bb`` through ``sq`` (any of the 4 axes)."""
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


class GreedyAgent(Agent):
    """Looks one ply ahead. In order of preference: a move that makes five (or wins the
    game outright); a move after which the opponent has no five on the line it must
    play (flips included); more flips; a longer own line through the new donut; then a
    seeded random tie-break."""

    kind = "greedy"

    def _select(self, board: Board, time_left: float | None) -> str:
        game, pos = game_of(board.layout, board.rules), position_of(*board.kernel_state())
        best_key, best_sq = None, None
        for sq in board.legal_squares():
            flipped = int(flips(pos.own, pos.opp, sq, game.single))
            after = typed_position(place(pos, sq, np.uint64(flipped)))
            own = int(after.own)
            if has_five(after.own):
                return SQUARE_NAMES[sq]
            if is_over_after(after, game.donuts):
                winner, _ = end_result(after, game.donuts)
                if winner == 0:
                    return SQUARE_NAMES[sq]
                safe = 1 if winner == DRAW else -1  # a draw beats a loss, not a game going on
            elif not opponent_moves_next(after, game.donuts):
                safe = 1
            else:
                replies = np.uint64(legal_moves(game, swap(after)))
                safe = 0 if can_win_now(after.opp, after.own, replies, game.single) else 2
            key = (safe, flipped.bit_count(), run_length(own, sq), self.rng.random())
            if best_key is None or key > best_key:
                best_key, best_sq = key, sq
        return SQUARE_NAMES[best_sq]
