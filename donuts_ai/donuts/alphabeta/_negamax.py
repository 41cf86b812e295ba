"""Negamax alpha-beta over bitboards: the exact solver and the alpha-beta agent's search.

One kernel serves both. With ``depth`` larger than the plies left in the game its values
are exact; with a small ``depth`` it stops at the horizon (:mod:`._heuristic`). Scores are
root-relative (:mod:`._scores`); the table is :mod:`._table`, the move order :mod:`._ordering`.

Node order within a position (why each step prunes):

1. Mate-distance bounds: nothing can score better than a five with our next move, nor
   worse than a loss on the opponent's next one (:func:`_mate_distance_window`).
2. The transposition table: its bounds may decide the node, its move goes first.
3. A move that makes five wins now: return at once, nothing can score higher
   (:func:`_five_now`).
4. A move that ends the game, or after which the opponent makes five on the line it must
   play (a loss in 2), has an exact value without a search; when every move is like that,
   the position is decided without a recursive call (:func:`_classify_moves`).
5. The remaining ("open") moves are searched in the order of :mod:`._ordering`; at the
   root, the moves not yet searched are sorted again after each one, by the history it
   taught (:func:`~._ordering.resort_rest`).
Every kernel takes the position from the side to move and the ``Rulebook`` (:mod:`.._kernels.position`).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..._bits import ONE, ZERO, ctz, popcount
from ..._numba_types import Bool, Int64
from .._kernels.core import can_win_now, flips, has_five, legal_mask, threats
from .._kernels.position import (
    MOVES_AGAIN,
    PASSES,
    Position,
    Rulebook,
    apply,
    as_position,
    is_over,
    legal_moves,
    place,
    placement_ends_game,
    plies_left,
    settle_without_five,
)
from .._kernels.tables import FULL_BOARD_BITS
from ..squares import NUM_SQUARES
from ._heuristic import horizon_value
from ._ordering import add_open_move, order_key, order_key_moving_again, remember_cutoff, resort_rest, sort_open_moves
from ._scores import INF, end_score, win_at
from ._table import ANY_DEPTH, entry_index, position_keys, probe, store, store_result
from ._workspace import ABORTED, NODE_LIMIT, NODES


@njit(cache=True)
def _node_limit_reached(ws: np.record) -> bool:
    """Count a node; True (and the search marked aborted) once the node limit is reached."""
    ws.stats[NODES] += 1
    if ws.stats[NODES] >= ws.stats[NODE_LIMIT]:
        ws.stats[ABORTED] = 1
        return True
    return False


@njit(cache=True)
def _mate_distance_window(ply: Int64, own_move_ends: Bool, alpha: Int64, beta: Int64) -> tuple[Int64, Int64, bool, Int64]:
    """Mate-distance pruning: nothing scores better than a five with our next move; we can
    lose no sooner than to the opponent's next move, or on our own placement if it ends
    the game. In a null-window test "win by ply d?" this cuts every node past the horizon
    at once. Returns ``(alpha, beta, cutoff, value)``."""
    if beta > win_at(ply + 1):
        beta = win_at(ply + 1)
        if alpha >= beta:
            return alpha, beta, True, beta
    worst_possible = -win_at(ply + 1) if own_move_ends else -win_at(ply + 2)
    if alpha < worst_possible:
        alpha = worst_possible
        if alpha >= beta:
            return alpha, beta, True, alpha
    return alpha, beta, False, alpha


@njit(cache=True)
def _five_now(single: bool, pos: Position, ply: Int64, ws: np.record) -> Int64:
    """The square of a five the side to move makes at once, or -1; on -1, ``ws.flips[ply]``
    holds the flips of every legal move in square order.

    Squares completing a five without flips come from one bit-parallel pass; flips only
    ever add donuts to the mover, so those are wins. Moves that flip are checked one by one."""
    moves = legal_mask(pos.own, pos.opp, pos.last, ws.line_masks)
    wins = moves & threats(pos.own, FULL_BOARD_BITS & ~(pos.own | pos.opp))
    if wins != ZERO:
        return ctz(wins)
    i = 0
    while moves != ZERO:
        sq = ctz(moves)
        moves &= moves - ONE
        f = flips(pos.own, pos.opp, sq, single)
        if f != ZERO and has_five(pos.own | (ONE << np.uint64(sq)) | f):
            return sq
        ws.flips[ply, i] = f
        i += 1
    return np.int64(-1)


@njit(cache=True)
def _best_possible(pos: Position, donuts: Int64, ply: Int64, own_move_ends: Bool) -> Int64:
    """With no five now, the best left is a five with our move after next, unless the game
    ends sooner (our placement or the opponent's reply empties the pools or fills the
    board) or the opponent's pool is empty (we move again at once)."""
    if own_move_ends:
        return win_at(ply + 1)
    if (
        pos.placed_opp >= donuts
        or popcount(pos.own | pos.opp) + 2 >= NUM_SQUARES
        or (pos.placed_own + 1 >= donuts and pos.placed_opp + 1 >= donuts)
    ):
        return win_at(ply + 2)
    return win_at(ply + 3)


@njit(cache=True)
def _classify_moves(
    donuts: Int64, single: bool, pos: Position, ply: Int64, table_move: Int64, ws: np.record,
) -> tuple[Int64, Int64, Int64]:
    """Pass over the legal moves (flips from ``ws.flips[ply]``): moves that end the game and
    moves that hand the opponent a five have exact values; the rest are "open" and go to
    this ply's list with an ordering key. Returns ``(best exact score, its move, open count)``."""
    opp_threats = threats(pos.opp, FULL_BOARD_BITS & ~(pos.own | pos.opp))
    best: Int64 = -INF
    best_move: Int64 = -1
    n_open: Int64 = 0
    line_masks = ws.line_masks
    m = legal_mask(pos.own, pos.opp, pos.last, line_masks)
    i = 0
    while m != ZERO:
        sq = ctz(m)
        m &= m - ONE
        child, status = settle_without_five(place(pos, sq, ws.flips[ply, i]), donuts)  # _five_now found none
        i += 1
        if status == PASSES:
            replies = legal_mask(child.own, child.opp, sq, line_masks)
            hits = replies & opp_threats
            if hits != ZERO and can_win_now(child.own, child.opp, hits, single):
                score = -win_at(ply + 2)
            else:
                n_open = add_open_move(ws, ply, n_open, sq, order_key(ws, ply, pos.last, sq, table_move, popcount(replies)))
                continue
        elif status == MOVES_AGAIN:
            # The opponent's pool is empty: we move again. Always searched.
            n_open = add_open_move(ws, ply, n_open, sq, order_key_moving_again(ws, sq, table_move))
            continue
        else:
            score = end_score(status, ply + 1)
        if score > best:
            best = score
            best_move = sq
    return best, best_move, n_open


@njit(cache=True)
def _survival_move(donuts: Int64, single: bool, pos: Position, ply: Int64, beta: Int64, n_open: Int64, ws: np.record) -> Int64:
    """One ply deeper mate-distance bound: after a move that leaves the opponent no five at
    all, we cannot lose before ply + 4 (if we still hold a donut for ply + 3 and the game
    cannot end sooner). When that alone reaches beta, one such open move proves the
    cut-off without searching it: the horizon of every "win by ply d?" test moves in.
    Returns that move, or -1."""
    p_own, p_opp = pos.placed_own, pos.placed_opp
    if not (
        p_opp < donuts
        and p_own + 1 < donuts
        and 2 * donuts - p_own - p_opp > 3
        and popcount(pos.own | pos.opp) + 3 < NUM_SQUARES
    ):
        return -1
    if -win_at(ply + 4) < beta:
        return -1
    for i in range(n_open):
        sq: Int64 = ws.moves[ply, i]
        after = place(pos, sq, flips(pos.own, pos.opp, sq, single))
        if not can_win_now(after.opp, after.own, legal_mask(after.opp, after.own, sq, ws.line_masks), single):
            return sq
    return -1


@njit(cache=True)
def negamax(
    rulebook: Rulebook, pos: Position, depth: Int64, ply: Int64, alpha: Int64, beta: Int64, tt: NDArray[np.uint64], ws: np.record,
) -> Int64:
    """Score of a position that is not over, for its side to move (see the module doc).

    Fail-soft: a result <= alpha is an upper bound, >= beta a lower bound. Sets
    ``ws.stats[ABORTED]`` and returns 0 once the node limit is reached. ``ws`` is the
    workspace record (``workspace[0]``)."""
    # The recursion passes no rulebook: Numba counts references to every array argument and
    # to every array read from a tuple, on every call (6% of the search's speed). The
    # lines go into the workspace record, which is passed by reference without counting.
    ws.line_masks[:] = rulebook.line_masks
    return _negamax(rulebook.donuts, rulebook.single, as_position(pos), np.int64(depth), np.int64(ply), np.int64(alpha),
                    np.int64(beta), tt, ws)


@njit(cache=True)
def _negamax(
    donuts: Int64, single: bool, pos: Position, depth: Int64, ply: Int64, alpha: Int64, beta: Int64, tt: NDArray[np.uint64], ws: np.record,
) -> Int64:
    """:func:`negamax` on the game's fields. Recursive: every call passes the same argument
    types (``int64`` scalars, a ``Position`` of :func:`as_position`'s types), or the
    on-disk cache breaks (numba #6061/#6713)."""
    if _node_limit_reached(ws):
        return 0
    own_move_ends = placement_ends_game(pos, donuts)
    alpha, beta, cutoff, value = _mate_distance_window(ply, own_move_ends, alpha, beta)
    if cutoff:
        return value
    key = position_keys(pos)
    idx = entry_index(tt, key)
    table_move, alpha, beta, cutoff, value = probe(tt, idx, key, depth, ply, alpha, beta)
    if cutoff:
        return value

    five = _five_now(single, pos, ply, ws)
    if five >= 0:
        store(tt, idx, key, win_at(ply + 1), win_at(ply + 1), five, ANY_DEPTH, ply)
        return win_at(ply + 1)
    if depth <= 0:
        return horizon_value(donuts, pos, ply, own_move_ends, ws)
    # If even the best still possible cannot reach alpha, skip the rest (fail low).
    best_possible = _best_possible(pos, donuts, ply, own_move_ends)
    if best_possible <= alpha:
        return best_possible
    if beta > best_possible:
        beta = best_possible
    alpha0 = alpha

    best, best_move, n_open = _classify_moves(donuts, single, pos, ply, table_move, ws)
    if n_open == 0:
        store(tt, idx, key, best, best, best_move, ANY_DEPTH, ply)
        return best
    if best >= beta:
        store(tt, idx, key, best, INF, best_move, depth, ply)
        return best
    if best > alpha:
        alpha = best
    survivor = _survival_move(donuts, single, pos, ply, beta, n_open, ws)
    if survivor >= 0:
        store(tt, idx, key, -win_at(ply + 4), INF, survivor, depth, ply)
        return -win_at(ply + 4)

    sort_open_moves(ws, ply, n_open)
    for i in range(n_open):
        sq = ws.moves[ply, i]
        # An open move: no five (_five_now found none) and the game goes on.
        child, status = settle_without_five(place(pos, sq, flips(pos.own, pos.opp, sq, single)), donuts)
        if status == PASSES:
            score = -_negamax(donuts, single, child, depth - 1, ply + 1, -beta, -alpha, tt, ws)
        else:
            score = _negamax(donuts, single, child, depth - 1, ply + 1, alpha, beta, tt, ws)
        if ws.stats[ABORTED]:
            return 0
        if score > best:
            best = score
            best_move = sq
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    # The refutation, for sibling positions; weighed by the plies really left (the
                    # solver's nominal depth says nothing about them).
                    remember_cutoff(ws, ply, pos.last, sq, min(depth, plies_left(pos, donuts)))
                    break
        if ply == 0:
            # The root's moves were sorted before any search, on an empty history: each
            # first move searched teaches the history more than the whole order knew.
            resort_rest(ws, ply, pos.last, i + 1, n_open)
    store_result(tt, idx, key, best, alpha0, beta, best_move, depth, ply)
    return best


@njit(cache=True)
def _start(workspace: NDArray[np.void], node_limit: Int64) -> np.record:
    """The workspace record of a one-element workspace array, its node count reset."""
    ws: np.record = workspace[0]
    ws.stats[NODES] = 0
    ws.stats[NODE_LIMIT] = node_limit
    ws.stats[ABORTED] = 0
    return ws


@njit(cache=True, nogil=True)
def search_root(
    rulebook: Rulebook, pos: Position, depth: Int64, alpha: Int64, beta: Int64, tt: NDArray[np.uint64], workspace: NDArray[np.void],
    node_limit: Int64,
) -> tuple[Int64, Int64, Bool]:
    """Negamax at the root (ply 0) with a fresh node count: returns (score, nodes, aborted).

    Releases the GIL: the parallel solver's threads each run one on their own workspace and
    the one shared table, and are stopped by setting ``stats[NODE_LIMIT]`` to 0 in their
    workspaces."""
    ws = _start(workspace, node_limit)
    score = negamax(rulebook, pos, depth, 0, alpha, beta, tt, ws)
    return score, ws.stats[NODES], ws.stats[ABORTED] != 0


@njit(cache=True)
def root_child(rulebook: Rulebook, pos: Position, sq: Int64) -> tuple[bool, Int64, Position, Bool]:
    """After root move ``sq``: ``(ended, score, child, passed)``. When the move ends the
    game, ``ended`` is True and ``score`` its root-relative score; else ``child`` is the
    next position and ``passed`` True when the opponent moves in it."""
    child, status = apply(rulebook.donuts, rulebook.single, pos, sq)
    if is_over(status):
        return True, end_score(status, 1), child, False
    return False, np.int64(0), child, status == PASSES


@njit(cache=True)
def _move_score(
    rulebook: Rulebook, pos: Position, sq: Int64, depth: Int64, alpha: Int64, beta: Int64, tt: NDArray[np.uint64], ws: np.record,
) -> Int64:
    """Score, for the side to move at the root, of root move ``sq`` searched to ``depth``."""
    ended, score, child, passed = root_child(rulebook, pos, sq)
    if ended:
        return score
    if passed:
        return -negamax(rulebook, child, depth - 1, 1, -beta, -alpha, tt, ws)
    return negamax(rulebook, child, depth - 1, 1, alpha, beta, tt, ws)


@njit(cache=True)
def search_moves(
    rulebook: Rulebook, pos: Position, depth: Int64, tt: NDArray[np.uint64], workspace: NDArray[np.void], node_limit: Int64,
    first_move: Int64,
) -> tuple[Int64, Int64, Int64, Bool]:
    """Depth-limited search of every root move (``first_move`` first, if legal), full
    window. Returns (best_move, best_score, nodes, aborted); after an abort the result
    covers only the moves finished before it."""
    ws = _start(workspace, node_limit)
    pos = as_position(pos)
    depth = np.int64(depth)
    moves = legal_moves(rulebook, pos)
    best: Int64 = -INF
    best_move: Int64 = -1
    alpha: Int64 = np.int64(-INF)
    beta = np.int64(INF)
    rest = moves
    first = first_move >= 0 and ((moves >> np.uint64(first_move)) & ONE) != ZERO
    if first:
        rest = moves & ~(ONE << np.uint64(first_move))
    while first or rest != ZERO:
        if first:
            sq = np.int64(first_move)
            first = False
        else:
            sq = ctz(rest)
            rest &= rest - ONE
        score = _move_score(rulebook, pos, sq, depth, alpha, beta, tt, ws)
        if ws.stats[ABORTED]:
            break
        if score > best:
            best = score
            best_move = sq
            if score > alpha:
                alpha = score
    return best_move, best, ws.stats[NODES], ws.stats[ABORTED] != 0
