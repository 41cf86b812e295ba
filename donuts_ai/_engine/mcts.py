"""UCT Monte-Carlo tree search with MCTS-Solver backups, in preallocated arrays.

A forest of ``T`` trees (root parallelism: one tree per worker, the roots' visit
counts summed at the end) lives in arrays of shape ``(T, max_nodes)``; no Python
object exists per node. A node stores the move that led to it and who made it, its
visits and summed reward (from the point of view of the player who moved into it),
its first child and child count (children are contiguous), and a proven value. The
position of a node is not stored: each iteration replays the path from the root with
the ``play`` kernel, which costs less than storing 40 bytes per node.

One iteration: descend by UCB1 from the root (skipping children proven lost for the
player choosing); expand a visited leaf with all its legal moves; play one uniformly
random game from the new node; back the result up the path. MCTS-Solver: a node whose
mover has a proven-winning child is proven won for that mover; a node all of whose
children are proven is proven with the best of them; proven values replace averages
in the backups, so proven wins are found and played at once.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from .bits import ctz, popcount, rng_seed
from .core import DRAW, ONGOING, legal_mask, play
from .playouts import playout

UNKNOWN = 2  # proven[] value when not proven; else -1 / 0 / +1 for the node's mover
MAX_DEPTH = 80

# Columns of the per-tree state array ``meta[T, ...]`` (int64).
M_ROOT, M_FREE, M_RNG, M_ITERS = 0, 1, 2, 3
NUM_META = 4


def new_forest(trees: int, max_nodes: int):
    """Arrays for ``trees`` trees of ``max_nodes`` nodes (~20 bytes a node)."""
    return (
        np.zeros((trees, max_nodes), dtype=np.int32),  # visits
        np.zeros((trees, max_nodes), dtype=np.float64),  # reward sum for the node's mover
        np.full((trees, max_nodes), -1, dtype=np.int32),  # first child (-1: not expanded)
        np.zeros((trees, max_nodes), dtype=np.int8),  # number of children
        np.full((trees, max_nodes), -1, dtype=np.int8),  # move into the node (-1 root)
        np.zeros((trees, max_nodes), dtype=np.int8),  # colour who moved into the node
        np.full((trees, max_nodes), UNKNOWN, dtype=np.int8),  # proven value for that colour
        np.zeros((trees, NUM_META), dtype=np.int64),  # root index, next free node, rng state, iterations
    )


@njit(cache=True)
def reset_tree(forest, t, root_mover, seed):
    """Empty tree ``t``: a lone root whose 'mover' is the colour that moved into it."""
    visits, reward, first, count, move, mover, proven, meta = forest
    visits[t, 0] = 0
    reward[t, 0] = 0.0
    first[t, 0] = -1
    count[t, 0] = 0
    move[t, 0] = -1
    mover[t, 0] = root_mover
    proven[t, 0] = UNKNOWN
    meta[t, M_ROOT] = 0
    meta[t, M_FREE] = 1
    meta[t, M_RNG] = np.int64(rng_seed(np.uint64(seed), np.uint64(t)) >> np.uint64(1))
    meta[t, M_ITERS] = 0


@njit(cache=True)
def _reward(winner, colour):
    if winner == DRAW:
        return 0.5
    return 1.0 if winner == colour else 0.0


@njit(cache=True)
def _update_proof(forest, t, node):
    """MCTS-Solver: prove ``node`` from its children when possible."""
    visits, reward, first, count, move, mover, proven, meta = forest
    c0 = first[t, node]
    if c0 < 0:
        return
    best = -2
    all_proven = True
    for c in range(c0, c0 + count[t, node]):
        p = proven[t, c]
        if p == UNKNOWN:
            all_proven = False
        elif p > best:
            best = p
    # The children's mover is the colour choosing at ``node``.
    chooser = mover[t, c0]
    if best == 1 or (all_proven and best > -2):
        proven[t, node] = best if mover[t, node] == chooser else -best


@njit(cache=True)
def _enter(forest, t, node, b0, b1, turn, p0, p1, n, single):
    """Play the move into ``node``; the node is proven when the game ends there."""
    move, mover, proven = forest[4], forest[5], forest[6]
    b0, b1, turn, p0, p1, _, winner, _ = play(b0, b1, turn, p0, p1, move[t, node], n, single)
    if winner != ONGOING:
        proven[t, node] = 0 if winner == DRAW else (1 if winner == mover[t, node] else -1)
    return b0, b1, turn, p0, p1, winner


@njit(cache=True)
def run_tree(forest, t, lm, b0, b1, turn, last, p0, p1, n, single, iterations, c_uct):
    """``iterations`` MCTS iterations on tree ``t`` from the position at its root."""
    visits, reward, first, count, move, mover, proven, meta = forest
    max_nodes = visits.shape[1]
    root = meta[t, M_ROOT]
    rng = np.uint64(meta[t, M_RNG]) | np.uint64(1)
    path = np.empty(MAX_DEPTH, dtype=np.int64)
    for _ in range(iterations):
        if proven[t, root] != UNKNOWN:
            break
        node = root
        c0_, c1_, tn, ls, q0, q1 = b0, b1, turn, last, p0, p1
        depth = 0
        path[0] = node
        winner = ONGOING
        # Selection.
        while first[t, node] >= 0 and proven[t, node] == UNKNOWN:
            c_first = first[t, node]
            c_count = count[t, node]
            log_n = math.log(visits[t, node] + 1.0)
            best_child = -1
            best_value = -1e300
            for c in range(c_first, c_first + c_count):
                p = proven[t, c]
                if p == 1:
                    best_child = c  # a proven win for the chooser: take it
                    break
                if p == -1:
                    continue  # never walk into a proven loss
                v = visits[t, c]
                if v == 0:
                    value = 1e200 - c  # unvisited first, in square order
                else:
                    value = reward[t, c] / v + c_uct * math.sqrt(log_n / v)
                if value > best_value:
                    best_value = value
                    best_child = c
            if best_child < 0:
                best_child = c_first  # all children lost: any will do
            node = best_child
            c0_, c1_, tn, q0, q1, winner = _enter(forest, t, node, c0_, c1_, tn, q0, q1, n, single)
            ls = move[t, node]
            depth += 1
            path[depth] = node
            if winner != ONGOING:
                break
        if winner == ONGOING and proven[t, node] == UNKNOWN:
            # Expansion: a leaf visited before gets all its children, then one is played.
            if visits[t, node] > 0 or node == root:
                moves = legal_mask(c0_, c1_, ls, lm)
                k = popcount(moves)
                free = meta[t, M_FREE]
                if free + k <= max_nodes:
                    first[t, node] = free
                    count[t, node] = k
                    m = moves
                    for i in range(k):
                        sq = ctz(m)
                        m &= m - np.uint64(1)
                        c = free + i
                        visits[t, c] = 0
                        reward[t, c] = 0.0
                        first[t, c] = -1
                        count[t, c] = 0
                        move[t, c] = sq
                        mover[t, c] = tn
                        proven[t, c] = UNKNOWN
                    meta[t, M_FREE] = free + k
                    # Play the first child (unvisited children come first in square order,
                    # so every child is tried once before UCB compares them).
                    node = free
                    c0_, c1_, tn, q0, q1, winner = _enter(forest, t, node, c0_, c1_, tn, q0, q1, n, single)
                    ls = move[t, node]
                    depth += 1
                    path[depth] = node
            if winner == ONGOING:
                winner, _, _, rng = playout(lm, c0_, c1_, tn, ls, q0, q1, n, single, rng)
        elif winner == ONGOING:
            # A proven node reached in selection: its proven value is the result.
            pv = proven[t, node]
            pm = mover[t, node]
            winner = DRAW if pv == 0 else (pm if pv == 1 else 1 - pm)
        # Backup, leaf to root, with solver updates.
        for d in range(depth, -1, -1):
            nd = path[d]
            visits[t, nd] += 1
            reward[t, nd] += _reward(winner, mover[t, nd])
            if d < depth:
                _update_proof(forest, t, nd)
        meta[t, M_ITERS] += 1
    meta[t, M_RNG] = np.int64(rng >> np.uint64(1))


@njit(cache=True, parallel=True)
def run_forest(forest, lm, b0, b1, turn, last, p0, p1, n, single, iterations, c_uct):
    """``iterations`` iterations on every tree of the forest, one tree per thread."""
    trees = forest[0].shape[0]
    for t in prange(trees):
        run_tree(forest, t, lm, b0, b1, turn, last, p0, p1, n, single, iterations, c_uct)


@njit(cache=True)
def root_stats(forest, t):
    """(moves, visits, mean rewards, proven) of the root's children of tree ``t``."""
    visits, reward, first, count, move, mover, proven, meta = forest
    root = meta[t, M_ROOT]
    c0 = first[t, root]
    k = count[t, root] if c0 >= 0 else 0
    moves = np.empty(k, dtype=np.int64)
    vis = np.empty(k, dtype=np.int64)
    mean = np.empty(k, dtype=np.float64)
    prov = np.empty(k, dtype=np.int64)
    for i in range(k):
        c = c0 + i
        moves[i] = move[t, c]
        vis[i] = visits[t, c]
        mean[i] = reward[t, c] / visits[t, c] if visits[t, c] > 0 else 0.0
        prov[i] = proven[t, c]
    return moves, vis, mean, prov


@njit(cache=True)
def descend(forest, t, path_moves):
    """Move tree ``t``'s root down along ``path_moves`` (squares); True if every move was
    found among expanded children, else False (the tree is then unchanged)."""
    visits, reward, first, count, move, mover, proven, meta = forest
    node = meta[t, M_ROOT]
    for sq in path_moves:
        c0 = first[t, node]
        if c0 < 0:
            return False
        found = -1
        for c in range(c0, c0 + count[t, node]):
            if move[t, c] == sq:
                found = c
                break
        if found < 0:
            return False
        node = found
    meta[t, M_ROOT] = node
    return True
