"""Random playouts: uniformly random legal moves to the end of the game, in Numba.

Games are dealt to fixed chunks of :data:`CHUNK` games, and chunk ``c`` draws its
random numbers from stream ``c`` of the seed. The serial and the parallel kernel
therefore play exactly the same games and return the same totals, on any number of
threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .bits import popcount, rng_below, rng_seed
from .core import DRAW, REASON_FIVE, REASON_GROUP, REASON_MAJORITY, final_result, flips, has_five, legal_mask, nth_bit
from .tables import FULL

CHUNK = 4096
_ONE = np.uint64(1)
_FULL = np.uint64(FULL)
# Columns of the totals array the kernels return.
WINS0, WINS1, DRAWS, PLIES, ENDS_FIVE, ENDS_GROUP, ENDS_MAJORITY = range(7)
NUM_TOTALS = 7


@njit(cache=True)
def playout(line_masks, b0, b1, turn, last, p0, p1, n, single, rng):
    """Play random moves from a position that is not over.

    Returns ``(winner, reason, plies, rng)`` with ``winner`` 0, 1 or DRAW.

    The loop keeps the mover's and the opponent's bitboards (``own``/``opp``) and swaps
    them when the turn passes, rather than branching on the colour every ply: it is
    :func:`core.play` unrolled for speed, and the tests hold the two to the same games.
    """
    if turn == 0:
        own, opp, p_own, p_opp = b0, b1, p0, p1
    else:
        own, opp, p_own, p_opp = b1, b0, p1, p0
    side = turn
    plies = 0
    while True:
        moves = legal_mask(own, opp, last, line_masks)
        rng, k = rng_below(rng, popcount(moves))
        sq = nth_bit(moves, k)
        f = flips(own, opp, sq, single)
        own |= (_ONE << np.uint64(sq)) | f
        opp &= ~f
        p_own += 1
        last = sq
        plies += 1
        if has_five(own):
            return side, REASON_FIVE, plies, rng
        if (own | opp) == _FULL or (p_own >= n and p_opp >= n):
            if side == 0:
                winner, reason = final_result(own, opp, p_own, p_opp, n)
            else:
                winner, reason = final_result(opp, own, p_opp, p_own, n)
            return winner, reason, plies, rng
        if p_opp < n:  # the opponent moves next; otherwise their pool is empty and we go again
            own, opp = opp, own
            p_own, p_opp = p_opp, p_own
            side = 1 - side


@njit(cache=True)
def _play_chunk(line_masks, b0, b1, turn, last, p0, p1, n, single, n_games, seed, chunk, totals):
    rng = rng_seed(seed, np.uint64(chunk))
    for _ in range(n_games):
        winner, reason, plies, rng = playout(line_masks, b0, b1, turn, last, p0, p1, n, single, rng)
        if winner == DRAW:
            totals[DRAWS] += 1
        else:
            totals[winner] += 1
        totals[PLIES] += plies
        if reason == REASON_FIVE:
            totals[ENDS_FIVE] += 1
        elif reason == REASON_GROUP:
            totals[ENDS_GROUP] += 1
        elif reason == REASON_MAJORITY:
            totals[ENDS_MAJORITY] += 1


@njit(cache=True)
def random_playouts(line_masks, b0, b1, turn, last, p0, p1, n, single, n_games, seed):
    """Totals (``int64[NUM_TOTALS]``) of ``n_games`` random games from one position, one thread."""
    totals = np.zeros(NUM_TOTALS, dtype=np.int64)
    n_chunks = (n_games + CHUNK - 1) // CHUNK
    for c in range(n_chunks):
        games = min(CHUNK, n_games - c * CHUNK)
        _play_chunk(line_masks, b0, b1, turn, last, p0, p1, n, single, games, seed, c, totals)
    return totals


@njit(cache=True, parallel=True)
def random_playouts_parallel(line_masks, b0, b1, turn, last, p0, p1, n, single, n_games, seed):
    """Same games and totals as :func:`random_playouts`, chunks spread over all threads."""
    n_chunks = (n_games + CHUNK - 1) // CHUNK
    per_chunk = np.zeros((n_chunks, NUM_TOTALS), dtype=np.int64)  # (chunk, total)
    for c in prange(n_chunks):
        games = min(CHUNK, n_games - c * CHUNK)
        _play_chunk(line_masks, b0, b1, turn, last, p0, p1, n, single, games, seed, c, per_chunk[c])
    return per_chunk.sum(axis=0)
