"""The tactical pass every searching agent runs before its timed search: the moves that
win at once and the moves after which the opponent wins at once, without a node limit,
so that an agent whose clock stops its search early still takes a five and blocks the
only one."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..._bits import ONE, ZERO, ctz
from ..._numba_types import Bool
from .._kernels.core import can_win_now
from .._kernels.position import ENDED_LOST, ENDED_WON, PASSES, WON_BY_FIVE, Position, Rulebook, apply, legal_moves, placement_ends_game


@njit(cache=True)
def _wins_at_once(rulebook: Rulebook, pos: Position) -> Bool:
    """True when the side to move, in a position that is not over, has a placement that
    wins at once: a five, or a placement that ends the game (board full, pools empty) won."""
    moves = legal_moves(rulebook, pos)
    if can_win_now(pos.own, pos.opp, moves, rulebook.single):
        return True
    if not placement_ends_game(pos, rulebook.donuts):
        return False
    m = moves
    while m != ZERO:
        sq = ctz(m)
        m &= m - ONE
        if apply(rulebook.donuts, rulebook.single, pos, sq)[1] == ENDED_WON:
            return True
    return False


@njit(cache=True)
def tactics(rulebook: Rulebook, pos: Position) -> tuple[np.uint64, np.uint64]:
    """The two plies no agent may get wrong, for the side to move in a position that is not
    over. Not node-limited: at most 36 placements, each with at most 36 replies.

    Returns ``(wins, losing)``, bitboards of legal moves. ``wins``: the move wins at once
    (a five, or it ends the game won). ``losing``: it ends the game lost, or the opponent
    moves next and has a placement that wins at once. Moves in neither draw at once or
    have their outcome further ahead. (When the opponent's pool is empty, the side to move
    moves again: no such move loses at once.)"""
    wins = ZERO
    losing = ZERO
    m = legal_moves(rulebook, pos)
    while m != ZERO:
        sq = ctz(m)
        m &= m - ONE
        bit = ONE << np.uint64(sq)
        child, status = apply(rulebook.donuts, rulebook.single, pos, sq)
        if status == WON_BY_FIVE or status == ENDED_WON:
            wins |= bit
        elif status == ENDED_LOST:
            losing |= bit
        elif status == PASSES and _wins_at_once(rulebook, child):
            losing |= bit
    return wins, losing
