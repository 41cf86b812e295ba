"""The score scale of the alpha-beta search and the solver.

Scores are from the side to move's point of view and *root-relative*, as chess
engines keep mate scores: a win whose last move is played at ply ``p`` (root = ply 0)
scores ``WIN - p``, a loss ``-(WIN - p)``, a draw 0, a heuristic score less than
:data:`MATE_BOUND` in size. Winning sooner and losing later therefore score higher.
The transposition table stores them node-relative (:func:`shift_mate`), so an entry
is valid wherever the position recurs.
"""

from __future__ import annotations

from numba import njit

from ..._numba_types import Int64
from .._kernels.position import ENDED_DRAWN, ENDED_LOST

#: A win at the root itself; a win at ply ``p`` scores ``WIN - p``.
WIN = 10_000
#: Beyond every score, as the open bounds of a window; a 16-bit table field holds it.
INF = 32_000
#: ``|score|`` above this is a win or a loss: no game lasts 1,000 plies, and heuristic scores stay far below.
MATE_BOUND = WIN - 1_000
#: Plies a search can go below its root: a game has at most 2 * 36 placements, plus room.
MAX_PLY = 80
#: A depth beyond any game's remaining plies: a search this deep never reaches its
#: horizon, so its values are exact (the solver's depth).
EXACT_DEPTH = 100


@njit(cache=True)
def win_at(ply: Int64) -> Int64:
    """Score of a win whose last move is played at ``ply``."""
    return WIN - ply


@njit(cache=True)
def shift_mate(score: Int64, plies: Int64) -> Int64:
    """Move a win/loss score ``plies`` further from 0 (root-relative -> node-relative with
    ``plies = ply``, back with ``-ply``); draws, heuristic scores and the INF bounds stay."""
    if score >= INF or score <= -INF:
        return score
    if score > MATE_BOUND:
        return score + plies
    if score < -MATE_BOUND:
        return score - plies
    return score


@njit(cache=True)
def end_score(status: Int64, ply_end: Int64) -> Int64:
    """Score, for the side that placed, of a placement played at ``ply_end`` that ended the
    game with ``status`` (:func:`~donuts_ai.donuts._kernels.position.apply`)."""
    if status == ENDED_DRAWN:
        return 0
    if status == ENDED_LOST:
        return -win_at(ply_end)
    return win_at(ply_end)
