"""GreedyAgent: a one-ply player (take a win, avoid handing one over, prefer flips and long lines)."""

from __future__ import annotations

import numpy as np

from .. import _engine as E
from .._engine.search import can_win_now
from ..board import Board
from ..squares import DIRECTION_VECTORS, SIZE, SQUARE_NAMES
from .base import Agent


def run_length(bb: int, sq: int) -> int:
    """Longest straight run of ``bb`` through ``sq`` (any of the 4 axes)."""
    best = 0
    x0, y0 = sq % SIZE, sq // SIZE
    for dx, dy in DIRECTION_VECTORS:
        length = 1
        for sign in (1, -1):
            x, y = x0 + sign * dx, y0 + sign * dy
            while 0 <= x < SIZE and 0 <= y < SIZE and bb >> (y * SIZE + x) & 1:
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
        b0, b1, turn, last, p0, p1 = board.kernel_state()
        rules = board.rules
        lm = board.layout.line_masks
        best_key, best_sq = None, None
        for sq in board.legal_squares():
            c0, c1, nxt, _, _, flipped, winner, _ = E.play(b0, b1, turn, p0, p1, sq, rules.donuts, rules.single)
            own, opp = (int(c0), int(c1)) if turn == 0 else (int(c1), int(c0))
            if winner == turn:
                return SQUARE_NAMES[sq]
            if winner != E.ONGOING:
                safe = 1 if winner == E.DRAW else -1  # a draw beats a loss, not a game going on
            elif nxt == turn:
                safe = 1
            else:
                replies = E.legal_mask(np.uint64(own), np.uint64(opp), sq, lm)
                safe = 0 if can_win_now(np.uint64(opp), np.uint64(own), np.uint64(replies), rules.single) else 2
            key = (safe, int(flipped).bit_count(), run_length(own, sq), self.rng.random())
            if best_key is None or key > best_key:
                best_key, best_sq = key, sq
        return SQUARE_NAMES[best_sq]
