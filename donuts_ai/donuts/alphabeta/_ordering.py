"""Move ordering: which open move the search tries first (cut-offs come sooner the
better the order; the order never changes a value).

Each open move gets an integer key, highest first: the table's best move, then this
ply's killer moves (moves that refuted a sibling), then by history (cut-offs this move
caused anywhere, deeper ones weighted more) plus its counter-move history (cut-offs it
caused right after the same last move) minus a penalty per opponent reply (a narrow
reply line is refuted or proved fast).

The comments above :func:`history_bonus` and :func:`order_key` give the measurements behind
these choices.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..._numba_types import Int64

#: Key bonus of the table's best move: above any killer and history key, so it goes first.
TABLE_MOVE_BONUS = 1 << 54
#: Key bonus of a killer move: above any history key, below the table move.
KILLER_BONUS = 1 << 52
#: History never exceeds this: past it, every square's history is halved (aging), so it
#: stays below the killer bonus and never overflows.
HISTORY_CAP = 1 << 50
#: Key penalty per legal reply the move leaves the opponent (at most 36 replies).
REPLY_PENALTY = 64
#: History weighs a cut-off by the sixth power of the depth left (see the module doc);
#: from this depth on the weight stays ``HISTORY_MAX_DEPTH ** 6`` (about 4.1e9).
HISTORY_MAX_DEPTH = 40


# History weighs a cut-off by the sixth power of the plies left below it (the search's
# depth, or the plies left in the game when fewer: the solver's nominal depth of 100
# says nothing). The usual square weighed the many cut-offs near the leaves about as
# much as the few near the root; on the empty board of random_grid(0..63) the sixth
# power needs 116 M nodes in all (median 0.37 M, most 24 M) where the square of the
# nominal depth capped at 40 (one weight for every cut-off of the solver) needed 227 M
# (median 0.58 M, most 55 M). On the 8 slowest layouts the square of the plies left
# needed 138 M, the cube 112 M, the fourth power 96 M, the sixth 81 M, the eighth 79 M,
# 2**(depth / 2) 88 M and 2**depth 89 M.
@njit(cache=True)
def history_bonus(depth: Int64) -> Int64:
    """What a cut-off at ``depth`` adds to its move's history."""
    if depth > HISTORY_MAX_DEPTH:
        depth = HISTORY_MAX_DEPTH
    d3 = depth * depth * depth
    return d3 * d3


# Why a counter-move history: the legal moves are the empty squares on the line through
# the last move, so a move's worth depends on the last move far more than on the ply; on
# the empty board of random_grid(0..63) (2**20 table) it cut the nodes from 112.5 M to
# 103.8 M. Counter-move weighted 4 times the history: 21% more nodes on 18 layouts, a
# quarter or a half: 1-2% more, the counter-move alone (history / 16): 56% more; killers
# kept per last move instead of per ply: 59% more. Sorting the root's remaining moves
# again after each one searched (`resort_rest`): 103.8 M -> 94.3 M, the slowest
# layout 20.6 M -> 18.2 M (random_grid(8) 20.6 M -> 6.2 M, but random_grid(26) 6.3 M ->
# 9.9 M); at ply 1 as well: no better; the previous root move's refutation first: 32% more.
@njit(cache=True)
def order_key(ws: np.record, ply: Int64, last: Int64, sq: Int64, table_move: Int64, replies: Int64) -> Int64:
    """Ordering key of open move ``sq`` at ``ply`` (the last move was ``last``) after which
    the opponent has ``replies`` legal moves."""
    key: Int64 = ws.history[sq] + ws.counter[last + 1, sq] - REPLY_PENALTY * replies
    if sq == table_move:
        key += TABLE_MOVE_BONUS
    elif sq == ws.killers[ply, 0] or sq == ws.killers[ply, 1]:
        key += KILLER_BONUS
    return key


@njit(cache=True)
def order_key_moving_again(ws: np.record, sq: Int64, table_move: Int64) -> Int64:
    """Ordering key of open move ``sq`` when the opponent's pool is empty and the same side
    moves again (no replies to count, and killers are for the opponent's refutations)."""
    if sq == table_move:
        return TABLE_MOVE_BONUS
    history: Int64 = ws.history[sq]
    return history


@njit(cache=True)
def add_open_move(ws: np.record, ply: Int64, n_open: Int64, sq: Int64, key: Int64) -> Int64:
    """Append open move ``sq`` with ``key`` to this ply's list; returns the new count."""
    ws.moves[ply, n_open] = sq
    ws.keys[ply, n_open] = key
    return n_open + 1


@njit(cache=True)
def sort_open_moves(ws: np.record, ply: Int64, n_open: Int64) -> None:
    """Sort this ply's open moves by key, highest first."""
    _sort_from(ws, ply, 0, n_open)


@njit(cache=True)
def resort_rest(ws: np.record, ply: Int64, last: Int64, start: Int64, n_open: Int64) -> None:
    """Sort this ply's open moves from index ``start`` on again, by their history now (the
    table move and killers went first already; the count of replies is left out)."""
    for j in range(start, n_open):
        sq = ws.moves[ply, j]
        ws.keys[ply, j] = ws.history[sq] + ws.counter[last + 1, sq]
    _sort_from(ws, ply, start, n_open)


@njit(cache=True)
def _sort_from(ws: np.record, ply: Int64, start: Int64, n_open: Int64) -> None:
    """Sort this ply's open moves ``start..n_open`` by key, highest first (a stable
    insertion sort: at most 36)."""
    moves, keys = ws.moves, ws.keys
    for i in range(start + 1, n_open):
        key = keys[ply, i]
        sq = moves[ply, i]
        j = i - 1
        while j >= start and keys[ply, j] < key:
            keys[ply, j + 1] = keys[ply, j]
            moves[ply, j + 1] = moves[ply, j]
            j -= 1
        keys[ply, j + 1] = key
        moves[ply, j + 1] = sq


@njit(cache=True)
def remember_cutoff(ws: np.record, ply: Int64, last: Int64, sq: Int64, depth: Int64) -> None:
    """``sq`` refuted the node at ``ply`` after ``last``: make it this ply's first killer and
    add to its history and to its counter-move history after ``last``."""
    if ws.killers[ply, 0] != sq:
        ws.killers[ply, 1] = ws.killers[ply, 0]
        ws.killers[ply, 0] = sq
    bonus = history_bonus(depth)
    ws.history[sq] += bonus
    if ws.history[sq] > HISTORY_CAP:
        for i in range(ws.history.shape[0]):
            ws.history[i] >>= 1
    ws.counter[last + 1, sq] += bonus
    if ws.counter[last + 1, sq] > HISTORY_CAP:
        for i in range(ws.counter.shape[0]):
            for j in range(ws.counter.shape[1]):
                ws.counter[i, j] >>= 1
