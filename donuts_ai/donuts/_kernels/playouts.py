"""Random playouts: uniformly random legal moves to the end of the game, in Numba.

Games are dealt to fixed chunks of :data:`CHUNK` games, and chunk ``c`` draws its
random numbers from stream ``c`` of the seed. The serial and the parallel kernel
therefore play exactly the same games and return the same totals, on any number of
threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange
from numpy.typing import NDArray

from ..._bits import popcount, rng_below, rng_seed
from ..._numba_types import Int64
from ...outcomes import WINNER_DRAW
from ..outcomes import REASON_FIVE, REASON_GROUP, REASON_MAJORITY
from .core import legal_mask, nth_bit
from .position import PASSES, Position, Rulebook, apply, end_reason, is_over, winner_of

CHUNK = 4096
# Columns of the totals array the kernels return.
WINS0, WINS1, DRAWS, PLIES, ENDS_FIVE, ENDS_GROUP, ENDS_MAJORITY = range(7)
NUM_TOTALS = 7


@njit(cache=True)
def playout(rulebook: Rulebook, pos: Position, color: Int64, rng: np.uint64) -> tuple[Int64, int, int, np.uint64]:
    """Play random moves from a position (:class:`.position.Position`) that is not over,
    ``color`` (0/1) to move.

    Returns ``(winner, reason, plies, rng)`` with ``winner`` 0, 1 or WINNER_DRAW.

    The loop works from the mover's side (the kernel contract) and only keeps the
    color beside it; the tests hold it to the Board, game by game.
    """
    line_masks, donuts, single = rulebook  # once: each read of an array field costs a reference count
    plies = 0
    while True:
        moves = legal_mask(pos.own, pos.opp, pos.last, line_masks)
        rng, k = rng_below(rng, popcount(moves))
        pos, status = apply(donuts, single, pos, nth_bit(moves, k))
        plies += 1
        if is_over(status):
            return winner_of(status, color), end_reason(status, pos), plies, rng
        if status == PASSES:
            color = 1 - color


@njit(cache=True)
def _play_chunk(
    rulebook: Rulebook, pos: Position, color: Int64, n_games: Int64, seed: np.uint64, chunk: Int64, totals: NDArray[np.int64]
) -> None:
    rng = rng_seed(seed, np.uint64(chunk))
    for _ in range(n_games):
        winner, reason, plies, rng = playout(rulebook, pos, color, rng)
        if winner == WINNER_DRAW:
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
def random_playouts(rulebook: Rulebook, pos: Position, color: Int64, n_games: Int64, seed: np.uint64) -> NDArray[np.int64]:
    """Totals (``int64[NUM_TOTALS]``) of ``n_games`` random games from one position
    (``color`` to move), one thread."""
    totals = np.zeros(NUM_TOTALS, dtype=np.int64)
    n_chunks = (n_games + CHUNK - 1) // CHUNK
    for c in range(n_chunks):
        games = min(CHUNK, n_games - c * CHUNK)
        _play_chunk(rulebook, pos, color, games, seed, c, totals)
    return totals


@njit(cache=True, parallel=True)
def random_playouts_parallel(
    rulebook: Rulebook, pos: Position, color: Int64, n_games: Int64, seed: np.uint64
) -> NDArray[np.int64]:
    """Same games and totals as :func:`random_playouts`, chunks spread over all threads."""
    n_chunks = (n_games + CHUNK - 1) // CHUNK
    per_chunk = np.zeros((n_chunks, NUM_TOTALS), dtype=np.int64)  # (chunk, total)
    for c in prange(n_chunks):
        games = min(CHUNK, n_games - c * CHUNK)
        _play_chunk(rulebook, pos, color, games, seed, c, per_chunk[c])
    totals: NDArray[np.int64] = per_chunk.sum(axis=0)
    return totals
