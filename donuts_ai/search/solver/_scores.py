"""The solver's scores: a win, a loss or a draw, with its distance to the end.

A score is for the side to move at a position, under best play by both sides: a win
whose winning move is ``d`` plies away (``d = 1``: it wins at once) scores
``WIN_SCORE - d``, a loss ``d`` plies away (the opponent's winning move is ply ``d``)
``-(WIN_SCORE - d)``, a draw 0. A quicker win scores more and a slower loss less badly,
so the best score is the quickest win or the longest resistance, and the exact score
gives the exact distance (:func:`plies_to_end`). Every distance fits: a game lasts at
most :data:`~donuts_ai.search.compiled_game.MAX_PLIES` plies, one less than
:data:`WIN_SCORE`, so every score fits 16 bits with room for the markers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..._numba_types import Int64
from ..compiled_game import MAX_PLIES

#: A win ``d`` plies away scores ``WIN_SCORE - d``: above every other score.
WIN_SCORE = MAX_PLIES + 1
#: The score the solver returns when its node budget ran out: above every score.
UNKNOWN_SCORE = 2 * WIN_SCORE
#: :func:`~donuts_ai.search.solver.analyze`'s score of a move that is not legal: below every score.
NOT_LEGAL = -2 * WIN_SCORE
#: :func:`plies_to_end` of a draw or an unknown score: no distance.
NO_DISTANCE = -1


@njit(cache=True)
def plies_to_end(score: Int64) -> np.int64:
    """The plies from the position to the end of the game, the winning move included, of a
    win or a loss score; :data:`NO_DISTANCE` for a draw (its length is not measured) or a
    marker (:data:`UNKNOWN_SCORE`, :data:`NOT_LEGAL`).

    Args:
        score: a score from the solver.

    Returns:
        The distance ``d`` of ``WIN_SCORE - d`` or ``-(WIN_SCORE - d)``, or :data:`NO_DISTANCE`.
    """
    if score == 0 or score >= WIN_SCORE or score <= -WIN_SCORE:
        return np.int64(NO_DISTANCE)
    return np.int64(WIN_SCORE - (score if score > 0 else -score))


@njit(cache=True)
def score_before(score: Int64) -> np.int64:
    """The score of a move for the player who plays it, from the score of the position it
    leads to (for the next player): the negation, the end one ply further away.

    Args:
        score: the score of the position after the move (not a marker).

    Returns:
        ``-score + 1`` when the next player wins (the mover loses a ply later), ``-score - 1``
        when it loses (the mover wins a ply later), 0 for a draw.
    """
    if score > 0:
        return np.int64(-score + 1)
    if score < 0:
        return np.int64(-score - 1)
    return np.int64(0)


@njit(cache=True)
def score_again(score: Int64) -> np.int64:
    """The score of a move after which the same player moves again (status
    ``MOVES_AGAIN``), from the score of the position it leads to: the same sign, the end one
    ply further away.

    Args:
        score: the score of the position after the move (not a marker).

    Returns:
        ``score - 1`` for a win, ``score + 1`` for a loss, 0 for a draw.
    """
    if score > 0:
        return np.int64(score - 1)
    if score < 0:
        return np.int64(score + 1)
    return np.int64(0)
