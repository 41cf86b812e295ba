"""Negamax alpha-beta over bitboards: the exact solver and the alpha-beta agent's search.

One kernel serves both. With ``depth`` larger than the plies left in the game it
never evaluates a leaf, so its values are exact game-theoretic values; with a small
``depth`` it stops at the horizon and calls :func:`evaluate`.

Scores are from the side to move's point of view and *root-relative*, as chess
engines keep mate scores: a win whose last move is played at ply ``p`` (root = ply 0)
scores ``WIN - p``, a loss ``-(WIN - p)``, a draw 0. Winning sooner and losing later
therefore score higher. The transposition table stores them node-relative (shifted
by the node's ply) so an entry is valid wherever the position recurs.

:func:`tactics` is apart from the search: the moves that win at once and the moves
after which the opponent wins at once, without a node limit, so that an agent whose
clock stops its search before depth 1 still takes a five and blocks the only one.

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

The transposition table is one ``uint64[size, 3]`` array (an entry per index, always
replaced, bounds merged when the same position is stored again at the same depth):
``key_a`` = own | (last + 1) << 36 | placed_own << 43, ``key_b`` = opp | placed_opp <<
36, and a data word packing the lower and upper bounds, the best move and the depth.
The two keys hold the whole position, so there are no false hits.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import ctz, popcount
from .core import final_result, flips, has_five, largest_group, legal_mask, threats
from .tables import FIVE_WINDOWS, FULL

WIN = 10_000
INF = 32_000  # beyond every score; int16 holds it
MATE_BOUND = WIN - 1_000  # |score| above this is a win/loss, not an evaluation
MAX_PLY = 80
EXACT_DEPTH = 100  # a depth beyond any game's remaining plies: exact solving

# Workspace layout (see new_context); stats slots are offsets from _STATS.
_HIST = 0
_KILL = _HIST + 36
_MOVES = _KILL + 2 * MAX_PLY
_KEYS = _MOVES + 36 * MAX_PLY
_FLIPS = _KEYS + 36 * MAX_PLY
_STATS = _FLIPS + 36 * MAX_PLY
NODES, NODE_LIMIT, ABORTED = _STATS, _STATS + 1, _STATS + 2
_WS_SIZE = _STATS + 3

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_FULL = np.uint64(FULL)
_S36 = np.uint64(36)
_S43 = np.uint64(43)
_HASH_MULT_A = np.uint64(0x9E3779B97F4A7C15)
_HASH_MULT_B = np.uint64(0xC2B2AE3D27D4EB4F)

_EVAL_WEIGHTS = np.array([0, 1, 4, 16, 64, 0], dtype=np.int64)  # by own donuts in an open window


def new_table(bits: int):
    """A transposition table of ``2**bits`` entries, ``uint64[size, 3]`` (24 bytes each,
    one cache line per probe): key_a, key_b, and the packed data word."""
    return np.zeros((1 << bits, 3), dtype=np.uint64)


def new_context():
    """Per-search scratch space: one int64 array (passing one array down the recursion
    instead of several keeps each call cheap). Regions: history[36] of cut-offs per
    square, killers[MAX_PLY, 2], and per ply the candidate moves, their ordering keys
    and the flips of each legal move ([MAX_PLY, 36] each), then the stats."""
    ws = np.zeros(_WS_SIZE, dtype=np.int64)
    ws[_KILL : _KILL + 2 * MAX_PLY] = -1
    return ws


@njit(cache=True)
def _shift_mate(score, plies):
    """Move a win/loss score ``plies`` further from 0 (root-relative -> node-relative with
    ``plies = ply``, back with ``-ply``); draws, evaluations and the INF bounds stay."""
    if score >= INF or score <= -INF:
        return score
    if score > MATE_BOUND:
        return score + plies
    if score < -MATE_BOUND:
        return score - plies
    return score


@njit(cache=True)
def _index(key_a, key_b, mask):
    h = key_a * _HASH_MULT_A ^ key_b * _HASH_MULT_B
    return np.int64((h ^ (h >> np.uint64(29))) & np.uint64(mask))


@njit(cache=True)
def _pack(lower, upper, move, depth):
    # data word: lower + 2**15 (16 bits) | upper + 2**15 (16) | move + 1 (8) | depth + 1 (8)
    return (
        np.uint64(lower + 32768)
        | (np.uint64(upper + 32768) << np.uint64(16))
        | (np.uint64(move + 1) << np.uint64(32))
        | (np.uint64(depth + 1) << np.uint64(40))
    )


@njit(cache=True)
def _lower(data):
    return np.int64(data & np.uint64(0xFFFF)) - 32768


@njit(cache=True)
def _upper(data):
    return np.int64((data >> np.uint64(16)) & np.uint64(0xFFFF)) - 32768


@njit(cache=True)
def _move(data):
    return np.int64((data >> np.uint64(32)) & np.uint64(0xFF)) - 1


@njit(cache=True)
def _depth(data):
    return np.int64((data >> np.uint64(40)) & np.uint64(0xFF)) - 1


@njit(cache=True)
def _store(tt, idx, key_a, key_b, lower, upper, move, depth, ply):
    lo = _shift_mate(lower, ply)
    hi = _shift_mate(upper, ply)
    depth = min(depth, 127)
    if tt[idx, 0] == key_a and tt[idx, 1] == key_b:
        old = tt[idx, 2]
        if _depth(old) == depth:
            # Same position, same depth: both searches' bounds hold, keep the tighter.
            lo = max(lo, _lower(old))
            hi = min(hi, _upper(old))
        if move < 0:
            move = _move(old)
    tt[idx, 0] = key_a
    tt[idx, 1] = key_b
    tt[idx, 2] = _pack(lo, hi, move, depth)


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
def _wins_at_once(lm, own, opp, last, p_own, p_opp, n, single):
    """True when ``own``, to move in a position that is not over, has a placement that wins
    at once: a five, or a placement that ends the game (board full, pools empty) won."""
    moves = legal_mask(own, opp, last, lm)
    if can_win_now(own, opp, moves, single):
        return True
    if popcount(own | opp) + 1 < 36 and not (p_own + 1 >= n and p_opp >= n):
        return False  # no placement ends the game
    m = moves
    while m != _ZERO:
        sq = ctz(m)
        m &= m - _ONE
        f = flips(own, opp, sq, single)
        if end_score(own | (_ONE << np.uint64(sq)) | f, opp & ~f, p_own + 1, p_opp, n, 1) > 0:
            return True
    return False


@njit(cache=True)
def tactics(lm, own, opp, last, p_own, p_opp, n, single):
    """The two plies no agent may get wrong, for ``own`` to move in a position that is not
    over. Not node-limited: at most 36 placements, each with at most 36 replies.

    Returns ``(wins, losing)``, bitboards of legal moves. ``wins``: the move wins at once
    (a five, or it ends the game won). ``losing``: it ends the game lost, or the opponent
    moves next and has a placement that wins at once. Moves in neither draw at once or
    have their outcome further ahead. (When the opponent's pool is empty, ``own`` moves
    again: no such move loses at once.)"""
    moves = legal_mask(own, opp, last, lm)
    wins = _ZERO
    losing = _ZERO
    m = moves
    while m != _ZERO:
        sq = ctz(m)
        m &= m - _ONE
        bit = _ONE << np.uint64(sq)
        f = flips(own, opp, sq, single)
        new_own = own | bit | f
        new_opp = opp & ~f
        q_own = p_own + 1
        if has_five(new_own):
            wins |= bit
        elif (new_own | new_opp) == _FULL or (q_own >= n and p_opp >= n):
            score = end_score(new_own, new_opp, q_own, p_opp, n, 1)
            if score > 0:
                wins |= bit
            elif score < 0:
                losing |= bit
        elif p_opp < n and _wins_at_once(lm, new_opp, new_own, sq, p_opp, q_own, n, single):
            losing |= bit
    return wins, losing


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
    ws = ctx
    ws[NODES] += 1
    if ws[NODES] >= ws[NODE_LIMIT]:
        ws[ABORTED] = 1
        return 0
    row = ply * 36  # this ply's slots in the move/key/flip regions

    # Mate-distance pruning. Nothing scores better than a five with our next move. We
    # can lose no sooner than to the opponent's next move, or on our own placement if
    # it ends the game. In a null-window test "win by ply d?" this cuts every node
    # past the horizon at once.
    stones = popcount(own | opp)
    own_move_ends = (p_own + 1 >= n and p_opp >= n) or stones + 1 >= 36
    if beta > WIN - (ply + 1):
        beta = WIN - (ply + 1)
        if alpha >= beta:
            return beta
    worst_possible = -(WIN - (ply + 1)) if own_move_ends else -(WIN - (ply + 2))
    if alpha < worst_possible:
        alpha = worst_possible
        if alpha >= beta:
            return alpha

    key_a = own | (np.uint64(last + 1) << _S36) | (np.uint64(p_own) << _S43)
    key_b = opp | (np.uint64(p_opp) << _S36)
    idx = _index(key_a, key_b, tt.shape[0] - 1)
    tt_move = -1
    if tt[idx, 0] == key_a and tt[idx, 1] == key_b:
        data = tt[idx, 2]
        tt_move = _move(data)
        if _depth(data) >= depth:
            lo = _shift_mate(_lower(data), -ply)
            hi = _shift_mate(_upper(data), -ply)
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

    moves = legal_mask(own, opp, last, lm)
    empty = _FULL & ~(own | opp)
    # A five with our next move? Squares completing one without flips come from one
    # bit-parallel pass; flips only ever add donuts to the mover, so those are wins.
    # Moves that flip are checked one by one. Flips are kept for the passes below.
    wins = moves & threats(own, empty)
    if wins != _ZERO:
        score = WIN - (ply + 1)
        _store(tt, idx, key_a, key_b, score, score, ctz(wins), 127, ply)
        return score
    n_moves = 0
    m = moves
    while m != _ZERO:
        sq = ctz(m)
        m &= m - _ONE
        f = flips(own, opp, sq, single)
        if f != _ZERO and has_five(own | (_ONE << np.uint64(sq)) | f):
            score = WIN - (ply + 1)
            _store(tt, idx, key_a, key_b, score, score, sq, 127, ply)
            return score
        ws[_FLIPS + row + n_moves] = np.int64(f)
        n_moves += 1

    if depth <= 0:
        # Horizon of a depth-limited search: no five now, so a heuristic value stands in
        # for the rest, unless every move ends the game (then the exact best of them).
        if not own_move_ends:
            return evaluate(own, opp, p_own, p_opp, n)
        best = -INF
        m = moves
        i = 0
        while m != _ZERO:
            sq = ctz(m)
            m &= m - _ONE
            f = np.uint64(ws[_FLIPS + row + i])
            i += 1
            score = end_score(own | (_ONE << np.uint64(sq)) | f, opp & ~f, p_own + 1, p_opp, n, ply + 1)
            if score > best:
                best = score
        return best

    # No five now: the best left is a five with our move after next, unless the game
    # ends sooner (our placement or the opponent's reply empties the pools or fills
    # the board) or the opponent's pool is empty (we move again at once). If even that
    # cannot reach alpha, skip the rest (fail low).
    if own_move_ends:
        best_possible = WIN - (ply + 1)
    elif p_opp >= n or stones + 2 >= 36 or (p_own + 1 >= n and p_opp + 1 >= n):
        best_possible = WIN - (ply + 2)
    else:
        best_possible = WIN - (ply + 3)
    if best_possible <= alpha:
        return best_possible
    if beta > best_possible:
        beta = best_possible
    alpha0 = alpha

    opp_threats = threats(opp, empty)
    best = -INF
    best_move = -1
    n_open = 0
    m = moves
    i = 0
    # Pass 1: moves that end the game and moves that hand the opponent a five have
    # exact values; the rest are "open" and get an ordering key.
    while m != _ZERO:
        sq = ctz(m)
        m &= m - _ONE
        f = np.uint64(ws[_FLIPS + row + i])
        i += 1
        new_own = own | (_ONE << np.uint64(sq)) | f
        new_opp = opp & ~f
        q_own = p_own + 1
        if (new_own | new_opp) == _FULL or (q_own >= n and p_opp >= n):
            score = end_score(new_own, new_opp, q_own, p_opp, n, ply + 1)
        elif p_opp < n:
            replies = legal_mask(new_opp, new_own, sq, lm)
            hits = replies & opp_threats
            if hits != _ZERO and can_win_now(new_opp, new_own, hits, single):
                score = -(WIN - (ply + 2))
            else:
                # Fewer opponent replies first (a narrow line is refuted or proved
                # fast); history of cut-offs; the TT move and killers on top.
                key = ws[_HIST + sq] - 64 * popcount(replies)
                if sq == tt_move:
                    key += 1 << 40
                elif sq == ws[_KILL + 2 * ply] or sq == ws[_KILL + 2 * ply + 1]:
                    key += 1 << 30
                ws[_MOVES + row + n_open] = sq
                ws[_KEYS + row + n_open] = key
                n_open += 1
                continue
        else:
            # The opponent's pool is empty: we move again. Always searched.
            ws[_MOVES + row + n_open] = sq
            ws[_KEYS + row + n_open] = (1 << 40) if sq == tt_move else ws[_HIST + sq]
            n_open += 1
            continue
        if score > best:
            best = score
            best_move = sq

    if n_open == 0:
        _store(tt, idx, key_a, key_b, best, best, best_move, 127, ply)
        return best
    if best >= beta:
        _store(tt, idx, key_a, key_b, best, INF, best_move, depth, ply)
        return best
    if best > alpha:
        alpha = best

    # One ply deeper mate-distance bound: after a move that leaves the opponent no five
    # at all, we cannot lose before ply + 4 (if we still hold a donut for ply + 3 and the
    # game cannot end sooner). When that alone reaches beta, one such move proves the
    # cut-off without searching it: the horizon of every "win by ply d?" test moves in.
    if p_opp < n and p_own + 1 < n and 2 * n - p_own - p_opp > 3 and stones + 3 < 36:
        survive = -(WIN - (ply + 4))
        if survive >= beta:
            for i in range(n_open):
                sq = ws[_MOVES + row + i]
                f = flips(own, opp, sq, single)
                new_own = own | (_ONE << np.uint64(sq)) | f
                new_opp = opp & ~f
                if not can_win_now(new_opp, new_own, legal_mask(new_opp, new_own, sq, lm), single):
                    _store(tt, idx, key_a, key_b, survive, INF, sq, depth, ply)
                    return survive

    # Insertion sort of the open moves by key, descending (at most 36 of them).
    for i in range(1, n_open):
        ks = ws[_KEYS + row + i]
        ms = ws[_MOVES + row + i]
        j = i - 1
        while j >= 0 and ws[_KEYS + row + j] < ks:
            ws[_KEYS + row + j + 1] = ws[_KEYS + row + j]
            ws[_MOVES + row + j + 1] = ws[_MOVES + row + j]
            j -= 1
        ws[_KEYS + row + j + 1] = ks
        ws[_MOVES + row + j + 1] = ms

    for i in range(n_open):
        sq = ws[_MOVES + row + i]
        f = flips(own, opp, sq, single)
        new_own = own | (_ONE << np.uint64(sq)) | f
        new_opp = opp & ~f
        if p_opp < n:
            score = -negamax(lm, new_opp, new_own, sq, p_opp, p_own + 1, n, single, depth - 1, ply + 1, -beta, -alpha, tt, ctx)
        else:
            score = negamax(lm, new_own, new_opp, sq, p_own + 1, p_opp, n, single, depth - 1, ply + 1, alpha, beta, tt, ctx)
        if ws[ABORTED]:
            return 0
        if score > best:
            best = score
            best_move = sq
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    # Cut-off: remember the refutation for sibling positions.
                    if ws[_KILL + 2 * ply] != sq:
                        ws[_KILL + 2 * ply + 1] = ws[_KILL + 2 * ply]
                        ws[_KILL + 2 * ply] = sq
                    ws[_HIST + sq] += depth * depth if depth < 40 else 1600
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
    ctx[NODES] = 0
    ctx[NODE_LIMIT] = node_limit
    ctx[ABORTED] = 0
    # A literal 0 would compile a second specialization of negamax (ply: Literal[int]),
    # and Numba's on-disk cache mishandles recursion across specializations (segfault,
    # numba issue #6061/#6713). Every argument must have the recursive call's types.
    root_ply = np.int64(0)
    score = negamax(lm, own, opp, np.int64(last), np.int64(p_own), np.int64(p_opp), np.int64(n), single, np.int64(depth),
                    root_ply, np.int64(alpha), np.int64(beta), tt, ctx)
    return score, ctx[NODES], ctx[ABORTED] != 0


@njit(cache=True)
def tt_move(tt, own, opp, last, p_own, p_opp):
    """The best move stored for a position, or -1."""
    key_a = own | (np.uint64(last + 1) << _S36) | (np.uint64(p_own) << _S43)
    key_b = opp | (np.uint64(p_opp) << _S36)
    idx = _index(key_a, key_b, tt.shape[0] - 1)
    if tt[idx, 0] == key_a and tt[idx, 1] == key_b:
        return _move(tt[idx, 2])
    return -1


@njit(cache=True)
def search_moves(lm, own, opp, last, p_own, p_opp, n, single, depth, tt, ctx, node_limit, first_move):
    """Depth-limited search of every root move (``first_move`` first, if legal), full
    window. Returns (best_move, best_score, nodes, aborted); after an abort the result
    covers only the moves finished before it."""
    ctx[NODES] = 0
    ctx[NODE_LIMIT] = node_limit
    ctx[ABORTED] = 0
    moves = legal_mask(own, opp, last, lm)
    best = -INF
    best_move = -1
    alpha = np.int64(-INF)
    beta = np.int64(INF)
    n = np.int64(n)
    depth = np.int64(depth)
    order = moves
    if first_move >= 0 and (moves >> np.uint64(first_move)) & _ONE:
        order = moves & ~(_ONE << np.uint64(first_move))
    k = -1 if order != moves else 0
    while True:
        if k == -1:
            sq = np.int64(first_move)
        else:
            if order == _ZERO:
                break
            sq = ctz(order)
            order &= order - _ONE
        k += 1
        f = flips(own, opp, sq, single)
        new_own = own | (_ONE << np.uint64(sq)) | f
        new_opp = opp & ~f
        q_own = np.int64(p_own + 1)
        if has_five(new_own):
            score = WIN - 1
        elif (new_own | new_opp) == _FULL or (q_own >= n and p_opp >= n):
            score = end_score(new_own, new_opp, q_own, p_opp, n, 1)
        elif p_opp < n:
            score = -negamax(lm, new_opp, new_own, sq, np.int64(p_opp), q_own, n, single, depth - 1, np.int64(1), -beta, -alpha, tt, ctx)
        else:
            score = negamax(lm, new_own, new_opp, sq, q_own, np.int64(p_opp), n, single, depth - 1, np.int64(1), alpha, beta, tt, ctx)
        if ctx[ABORTED]:
            break
        if score > best:
            best = score
            best_move = sq
            if score > alpha:
                alpha = score
    return best_move, best, ctx[NODES], ctx[ABORTED] != 0
