"""The solver's move sorter: a node's moves, best first by the game's ``order`` hook, in
one preallocated row per ply (Pons' ``MoveSorter``, which keeps its few entries on the
stack: a Numba kernel allocates arrays on the heap, so the rows are made once a search).

Moves scoring the same keep their bit order (lowest first), and without an ``order`` hook
every move scores 0: the game's bit order is the search order. A generic solver knows no
"centre" of the board; a game that wants one first says so in ``order``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..._bits import ONE, ZERO, ctz
from ..._numba_types import Int64
from ..compiled_game import MAX_MOVES, CompiledGame, hook_given


class MoveSorter(NamedTuple):
    """The moves of the node at each ply of a search, sorted; row ``ply`` is the node's."""

    moves: NDArray[np.int64]  # int64[plies, MAX_MOVES]: the node's moves (bit indices), best first
    scores: NDArray[np.int64]  # int64[plies, MAX_MOVES]: their order scores, in the same places


@njit(cache=True)
def new_sorter(plies: Int64) -> MoveSorter:
    """Rows for a search ``plies`` plies deep at most (16 bytes a move, 1 KiB a ply)."""
    rows = max(np.int64(plies), np.int64(0)) + 1
    return MoveSorter(np.zeros((rows, MAX_MOVES), dtype=np.int64), np.zeros((rows, MAX_MOVES), dtype=np.int64))


@njit(cache=True)
def sort_moves(game: CompiledGame, rules: Any, pos: Any, moves: np.uint64, sorter: MoveSorter, ply: Int64) -> np.int64:
    """Write ``moves`` (a mask) into row ``ply`` of ``sorter``, highest ``order`` score
    first; returns their count."""
    row_moves, row_scores = sorter.moves, sorter.scores
    use_order = hook_given(game.order)
    count = np.int64(0)
    while moves != ZERO:
        move = ctz(moves)
        moves &= moves - ONE
        score = np.int64(game.order(rules, pos, move)) if use_order else np.int64(0)
        # Insertion sort: a move goes after every move scoring as much (ties keep bit order).
        i = count
        while i > 0 and row_scores[ply, i - 1] < score:
            row_moves[ply, i] = row_moves[ply, i - 1]
            row_scores[ply, i] = row_scores[ply, i - 1]
            i -= 1
        row_moves[ply, i] = move
        row_scores[ply, i] = score
        count += 1
    return count
