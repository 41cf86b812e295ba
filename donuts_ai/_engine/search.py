"""Negamax alpha-beta over bitboards: the exact solver and the alpha-beta agent's search.

One kernel serves both. With ``depth`` larger than the plies left in the game it
never evaluates a leaf, so its values are exact game-theoretic values; with a small
``depth`` it stops at the horizon and calls :func:`evaluate`.

Scores are from the side to move's point of view and *root-relative*, as chess
engines keep mate scores: a win whose last move is played at ply ``p`` (root = ply 0)
scores ``WIN - p``, a loss ``-(WIN - p)``, a draw 0. Winning sooner and losing later
therefore score higher. The transposition table stores them node-relative (shifted
by the node's ply) so an entry is valid wherever the position recurs.

Node order within a position (why each step prunes):

1. Play every legal move once. A move that makes five wins now: return at once,
   nothing can score higher.
2. A move that ends the game (pools empty, board full) has an exact value: no search.
3. After our move the opponent must play on the line through it. If one of those
   squares gives the opponent five, the move loses in 2 plies: exact, no search.
   When every move is like that, the position is lost without a recursive call.
4. The remaining ("open") moves are searched: the transposition-table move first,
   then the two killer moves of this ply, then by history score, with a bonus for
   moves that leave the opponent few replies (a narrow reply line is refuted or
   proved fast) and for our own five-threats.

The transposition table is a tuple of arrays (one entry per index, always replaced,
bounds merged when the same position is stored again at the same depth):
``key_a`` = own | (last + 1) << 36 | placed_own << 43 (uint64), ``key_b`` = opp |
placed_opp << 36 (uint64), ``lower``/``upper`` (int16 bounds), ``move`` (int8),
``depth`` (int8). The two keys hold the whole position, so there are no false hits.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import ctz, popcount
from .core import final_result, flips, has_five, largest_group, legal_mask
from .tables import FIVE_WINDOWS, FULL

WIN = 10_000
INF = 32_000  # beyond every score; int16 holds it
MATE_BOUND = WIN - 1_000  # |score| above this is a win/loss, not an evaluation
MAX_PLY = 80
EXACT_DEPTH = 100  # a depth beyond any game's remaining plies: exact solving

# stats array slots
NODES, NODE_LIMIT, ABORTED = 0, 1, 2
NUM_STATS = 3

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_FULL = np.uint64(FULL)
_S36 = np.uint64(36)
_S43 = np.uint64(43)
_HASH_MULT_A = np.uint64(0x9E3779B97F4A7C15)
_HASH_MULT_B = np.uint64(0xC2B2AE3D27D4EB4F)

_EVAL_WEIGHTS = np.array([0, 1, 4, 16, 64, 0], dtype=np.int64)  # by own donuts in an open window


def new_table(bits: int):
    """A transposition table of ``2**bits`` entries (about 22 bytes each)."""
    size = 1 << bits
    return (
        np.zeros(size, dtype=np.uint64),  # key_a
        np.zeros(size, dtype=np.uint64),  # key_b
        np.zeros(size, dtype=np.int16),  # lower bound
        np.zeros(size, dtype=np.int16),  # upper bound
        np.full(size, -1, dtype=np.int8),  # best move
        np.full(size, -1, dtype=np.int8),  # depth (-1 = empty)
    )


def new_context():
    """Per-search scratch: (history[36], killers[MAX_PLY, 2], move buffer, key buffer, stats)."""
    return (
        np.zeros(36, dtype=np.int64),
        np.full((MAX_PLY, 2), -1, dtype=np.int64),
        np.zeros((MAX_PLY, 36), dtype=np.int64),  # (ply, slot) candidate squares
        np.zeros((MAX_PLY, 36), dtype=np.int64),  # (ply, slot) ordering keys
        np.zeros(NUM_STATS, dtype=np.int64),
    )


@njit(cache=True)
def _to_tt(score, ply):
    if score >= INF or score <= -INF:
        return score
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


@njit(cache=True)
def _from_tt(score, ply):
    if score >= INF or score <= -INF:
        return score
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


@njit(cache=True)
def _index(key_a, key_b, mask):
    h = key_a * _HASH_MULT_A ^ key_b * _HASH_MULT_B
    return np.int64((h ^ (h >> np.uint64(29))) & np.uint64(mask))


@njit(cache=True)
def _store(tt, idx, key_a, key_b, lower, upper, move, depth, ply):
    k_a, k_b, t_lo, t_hi, t_mv, t_dp = tt
    lo = _to_tt(lower, ply)
    hi = _to_tt(upper, ply)
    if k_a[idx] == key_a and k_b[idx] == key_b and t_dp[idx] == depth:
        # Same position, same depth: both searches' bounds hold, keep the tighter.
        lo = max(lo, np.int64(t_lo[idx]))
        hi = min(hi, np.int64(t_hi[idx]))
        if move < 0:
            move = t_mv[idx]
    k_a[idx] = key_a
    k_b[idx] = key_b
    t_lo[idx] = lo
    t_hi[idx] = hi
    t_mv[idx] = move
    t_dp[idx] = min(depth, 127)


@njit(cache=True)
def can_win_now(me, other, squares, single):
    """True when ``me`` makes five (flips included) by placing on one of ``squares``."""
    s = squares
    while s != _ZERO:
        sq = ctz(s)
        s &= s - _ONE
        f = flips(me, other, sq, single)
        if has_five(me | (_ONE << np.uint64(sq)) | f):
            return True
    return False


@njit(cache=True)
def end_score(own, opp, p_own, p_opp, n, ply_end):
    """Score for the player ``own`` of a game that ended (no five) at ``ply_end``."""
    winner, _ = final_result(own, opp, p_own, p_opp, n)
    if winner == 0:
        return WIN - ply_end
    if winner == 1:
        return -(WIN - ply_end)
    return 0


@njit(cache=True)
def evaluate(own, opp, p_own, p_opp, n):
    """Heuristic score of a quiet position for the side to move (|score| < 5000).

    Open five-windows (no opposing donut) weighted by how full they are, for both
    sides, and largest groups weighted more as the pools run out."""
    score = 0
    for w in range(FIVE_WINDOWS.shape[0]):
        window = FIVE_WINDOWS[w]
        a = popcount(own & window)
        b = popcount(opp & window)
        if b == 0:
            score += _EVAL_WEIGHTS[a]
        elif a == 0:
            score -= _EVAL_WEIGHTS[b]
    placed = p_own + p_opp
    group_weight = 1 + (8 * placed) // (2 * n)
    score += group_weight * (largest_group(own) - largest_group(opp))
    return max(-4000, min(4000, score))


@njit(cache=True)
def negamax(lm, own, opp, last, p_own, p_opp, n, single, depth, ply, alpha, beta, tt, ctx):
    """Score of a position that is not over, with ``own`` to move (see the module doc).

    Fail-soft: a result <= alpha is an upper bound, >= beta a lower bound. Sets
    ``stats[ABORTED]`` and returns 0 once ``stats[NODES]`` reaches ``stats[NODE_LIMIT]``.
    """
    history, killers, move_buf, key_buf, stats = ctx
    stats[NODES] += 1
    if stats[NODES] >= stats[NODE_LIMIT]:
        stats[ABORTED] = 1
        return 0

    # Nothing scores better than winning with the next move.
    best_possible = WIN - (ply + 1)
    if beta > best_possible:
        beta = best_possible
        if alpha >= beta:
            return beta

    k_a, k_b, t_lo, t_hi, t_mv, t_dp = tt
    key_a = own | (np.uint64(last + 1) << _S36) | (np.uint64(p_own) << _S43)
    key_b = opp | (np.uint64(p_opp) << _S36)
    idx = _index(key_a, key_b, k_a.shape[0] - 1)
    tt_move = -1
    if k_a[idx] == key_a and k_b[idx] == key_b:
        tt_move = t_mv[idx]
        if t_dp[idx] >= depth:
            lo = _from_tt(np.int64(t_lo[idx]), ply)
            hi = _from_tt(np.int64(t_hi[idx]), ply)
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
    alpha0 = alpha

    moves = legal_mask(own, opp, last, lm)
    best = -INF
    best_move = -1
    n_open = 0
    m = moves
    # Pass 1: wins now, game-ending moves and moves that hand the opponent a five.
    while m != _ZERO:
        sq = ctz(m)
        m &= m - _ONE
        bit = _ONE << np.uint64(sq)
        f = flips(own, opp, sq, single)
        new_own = own | bit | f
        new_opp = opp & ~f
        if has_five(new_own):
            score = WIN - (ply + 1)
            _store(tt, idx, key_a, key_b, score, score, sq, 127, ply)
            return score
        q_own = p_own + 1
        if (new_own | new_opp) == _FULL or (q_own >= n and p_opp >= n):
            score = end_score(new_own, new_opp, q_own, p_opp, n, ply + 1)
        elif p_opp < n:
            replies = legal_mask(new_opp, new_own, sq, lm)
            if can_win_now(new_opp, new_own, replies, single):
                score = -(WIN - (ply + 2))
            else:
                # Open move: ordering key. Fewer opponent replies first; history; TT and killers on top.
                key = history[sq] - 64 * popcount(replies)
                if sq == tt_move:
                    key += 1 << 40
                elif sq == killers[ply, 0] or sq == killers[ply, 1]:
                    key += 1 << 30
                move_buf[ply, n_open] = sq
                key_buf[ply, n_open] = key
                n_open += 1
                continue
        else:
            # The opponent's pool is empty: we move again. Always searched.
            move_buf[ply, n_open] = sq
            key_buf[ply, n_open] = (1 << 40) if sq == tt_move else history[sq]
            n_open += 1
            continue
        if score > best:
            best = score
            best_move = sq

    if best >= beta or n_open == 0:
        if n_open == 0:
            _store(tt, idx, key_a, key_b, best, best, best_move, 127, ply)
        else:
            _store(tt, idx, key_a, key_b, best, INF, best_move, depth, ply)
        return best
    if best > alpha:
        alpha = best

    if depth <= 0:
        # Horizon: the open moves are not searched; a heuristic value stands in for them.
        score = evaluate(own, opp, p_own, p_opp, n)
        if score > best:
            best = score
        return best

    # Insertion sort of the open moves by key, descending (at most 36 of them).
    for i in range(1, n_open):
        ks = key_buf[ply, i]
        ms = move_buf[ply, i]
        j = i - 1
        while j >= 0 and key_buf[ply, j] < ks:
            key_buf[ply, j + 1] = key_buf[ply, j]
            move_buf[ply, j + 1] = move_buf[ply, j]
            j -= 1
        key_buf[ply, j + 1] = ks
        move_buf[ply, j + 1] = ms

    for i in range(n_open):
        sq = move_buf[ply, i]
        bit = _ONE << np.uint64(sq)
        f = flips(own, opp, sq, single)
        new_own = own | bit | f
        new_opp = opp & ~f
        if p_opp < n:
            score = -negamax(lm, new_opp, new_own, sq, p_opp, p_own + 1, n, single, depth - 1, ply + 1, -beta, -alpha, tt, ctx)
        else:
            score = negamax(lm, new_own, new_opp, sq, p_own + 1, p_opp, n, single, depth - 1, ply + 1, alpha, beta, tt, ctx)
        if stats[ABORTED]:
            return 0
        if score > best:
            best = score
            best_move = sq
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    # Cut-off: remember the refutation for sibling positions.
                    if killers[ply, 0] != sq:
                        killers[ply, 1] = killers[ply, 0]
                        killers[ply, 0] = sq
                    history[sq] += depth * depth if depth < 40 else 1600
                    break

    if best <= alpha0:
        _store(tt, idx, key_a, key_b, -INF, best, best_move, depth, ply)
    elif best >= beta:
        _store(tt, idx, key_a, key_b, best, INF, best_move, depth, ply)
    else:
        _store(tt, idx, key_a, key_b, best, best, best_move, depth, ply)
    return best


@njit(cache=True)
def search_root(lm, own, opp, last, p_own, p_opp, n, single, depth, alpha, beta, tt, ctx, node_limit):
    """Negamax at the root (ply 0) with a fresh node count: returns (score, nodes, aborted)."""
    stats = ctx[4]
    stats[NODES] = 0
    stats[NODE_LIMIT] = node_limit
    stats[ABORTED] = 0
    score = negamax(lm, own, opp, last, p_own, p_opp, n, single, depth, 0, alpha, beta, tt, ctx)
    return score, stats[NODES], stats[ABORTED] != 0


@njit(cache=True)
def tt_move(tt, own, opp, last, p_own, p_opp):
    """The best move stored for a position, or -1."""
    k_a, k_b, _, _, t_mv, _ = tt
    key_a = own | (np.uint64(last + 1) << _S36) | (np.uint64(p_own) << _S43)
    key_b = opp | (np.uint64(p_opp) << _S36)
    idx = _index(key_a, key_b, k_a.shape[0] - 1)
    if k_a[idx] == key_a and k_b[idx] == key_b:
        return np.int64(t_mv[idx])
    return -1
