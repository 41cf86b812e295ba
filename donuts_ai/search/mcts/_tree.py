"""UCT Monte-Carlo tree search with MCTS-Solver backups, in preallocated arrays.

A :class:`Tree` holds ``T`` trees (root parallelism: one tree per worker, the roots'
visit counts summed at the end), as mctx's ``Tree`` holds a batch: every node field is
an array of shape ``(trees, nodes)``, every per-tree field one of shape ``(trees,)``;
no Python object exists per node. A node stores the move that led to it and the colour
who made it, its visits and summed reward (from the point of view of that colour), its
first child and child count (children are contiguous), and a proven value. The
position of a node is not stored: each iteration replays the path from the root
(:func:`_step`), which costs less than storing 40 bytes per node.

One iteration: descend by UCB1 from the root (skipping children proven lost for the
player choosing); expand a visited leaf with all its legal moves; play one uniformly
random game from the new node; back the result up the path. MCTS-Solver: a node whose
mover has a proven-winning child is proven won for that mover; a node all of whose
children are proven is proven with the best of them; proven values replace averages
in the backups, so proven wins are found and played at once.

Positions are the kernels' ``Position`` (from the side to move) with that side's
``colour`` beside it, since rewards and proofs are kept by colour.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit, prange

from ..._engine.bits import ctz, popcount, rng_seed
from ..._engine.core import DRAW, ONGOING, flips, has_five, legal_mask
from ..._engine.playouts import playout
from ..._engine.position import end_result, is_over_after, next_position, place, winner_colour

#: ``proven`` of a node not proven; else -1 / 0 / +1 (lost / drawn / won) for its mover.
UNKNOWN = 2
#: Longest path from a root: a game has at most 2 * 36 placements, plus room.
MAX_DEPTH = 80
#: UCB value of an unvisited child, minus its index: unvisited children come first, in square order.
UNVISITED = 1e200
#: Below every UCB value.
NO_VALUE = -1e300


class Tree(NamedTuple):
    """``T`` search trees in arrays (see the module doc). Node 0 of each tree is its first root."""

    visits: np.ndarray  # int32 (trees, nodes): iterations through the node
    reward: np.ndarray  # float64 (trees, nodes): summed rewards for the node's mover (1 win, 0.5 draw)
    first_child: np.ndarray  # int32 (trees, nodes): index of the first child, -1 while not expanded
    child_count: np.ndarray  # int8 (trees, nodes): number of children (contiguous from first_child)
    move: np.ndarray  # int8 (trees, nodes): the square played into the node, -1 at a first root
    mover: np.ndarray  # int8 (trees, nodes): the colour who played it
    proven: np.ndarray  # int8 (trees, nodes): proven value for the mover, or UNKNOWN
    root: np.ndarray  # int64 (trees,): the current root (moves down the tree as the game goes on)
    next_free: np.ndarray  # int64 (trees,): the next unused node
    rng: np.ndarray  # int64 (trees,): the xorshift state, shifted right once (fits int64; kept odd on use)
    iterations: np.ndarray  # int64 (trees,): iterations run since the tree was reset


def new_tree(trees: int, max_nodes: int) -> Tree:
    """Arrays for ``trees`` trees of ``max_nodes`` nodes (~20 bytes a node)."""
    nodes = (trees, max_nodes)
    return Tree(
        visits=np.zeros(nodes, dtype=np.int32),
        reward=np.zeros(nodes, dtype=np.float64),
        first_child=np.full(nodes, -1, dtype=np.int32),
        child_count=np.zeros(nodes, dtype=np.int8),
        move=np.full(nodes, -1, dtype=np.int8),
        mover=np.zeros(nodes, dtype=np.int8),
        proven=np.full(nodes, UNKNOWN, dtype=np.int8),
        root=np.zeros(trees, dtype=np.int64),
        next_free=np.zeros(trees, dtype=np.int64),
        rng=np.zeros(trees, dtype=np.int64),
        iterations=np.zeros(trees, dtype=np.int64),
    )


@njit(cache=True)
def _init_node(visits, reward, first_child, child_count, move, mover, proven, t, node, sq, colour):
    """A fresh node: ``colour`` played ``sq`` into it (-1: a root)."""
    visits[t, node] = 0
    reward[t, node] = 0.0
    first_child[t, node] = -1
    child_count[t, node] = 0
    move[t, node] = sq
    mover[t, node] = colour
    proven[t, node] = UNKNOWN


@njit(cache=True)
def reset_tree(tree, t, root_mover, seed):
    """Empty tree ``t``: a lone root whose 'mover' is the colour that moved into it."""
    root = 0
    _init_node(tree.visits, tree.reward, tree.first_child, tree.child_count, tree.move, tree.mover, tree.proven, t, root, -1,
               root_mover)
    tree.root[t] = root
    tree.next_free[t] = root + 1
    tree.rng[t] = np.int64(rng_seed(np.uint64(seed), np.uint64(t)) >> np.uint64(1))
    tree.iterations[t] = 0


@njit(cache=True)
def _reward(winner, colour):
    if winner == DRAW:
        return 0.5
    return 1.0 if winner == colour else 0.0


@njit(cache=True)
def _update_proof(first_child, child_count, mover, proven, t, node):
    """MCTS-Solver: prove ``node`` from its children when possible."""
    c0 = first_child[t, node]
    if c0 < 0:
        return
    best = -2
    all_proven = True
    for c in range(c0, c0 + child_count[t, node]):
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
def _step(donuts, single, pos, colour, sq):
    """Play ``sq`` from ``pos`` (``colour`` to move): ``(position, colour to move, winner or
    ONGOING)``. Scalars only: a call that takes arrays pays for counting references to them."""
    after = place(pos, sq, flips(pos.own, pos.opp, sq, single))
    if has_five(after.own):
        return after, colour, colour
    if is_over_after(after, donuts):
        return after, colour, winner_colour(end_result(after, donuts)[0], colour)
    pos, passed = next_position(after, donuts)
    return pos, (1 - colour) if passed else colour, ONGOING


@njit(cache=True)
def _proof(winner, mover):
    """The proven value, for ``mover``, of a node where the game ended with ``winner``."""
    if winner == DRAW:
        return 0
    return 1 if winner == mover else -1


@njit(cache=True)
def _select_child(visits, reward, first_child, child_count, proven, t, node, c_uct):
    """UCB1 choice among the children of expanded ``node``: a proven win for the chooser at
    once, never a proven loss (unless all are), unvisited children first."""
    c_first = first_child[t, node]
    log_n = math.log(visits[t, node] + 1.0)
    best_child = -1
    best_value = NO_VALUE
    for c in range(c_first, c_first + child_count[t, node]):
        proof = proven[t, c]
        if proof == 1:
            return c
        if proof == -1:
            continue
        v = visits[t, c]
        value = UNVISITED - c if v == 0 else reward[t, c] / v + c_uct * math.sqrt(log_n / v)
        if value > best_value:
            best_value = value
            best_child = c
    return best_child if best_child >= 0 else c_first  # all children lost: any will do


@njit(cache=True)
def run_tree(tree, t, game, pos, colour, iterations, c_uct):
    """``iterations`` MCTS iterations on tree ``t`` from the position at its root
    (``pos``, ``colour`` to move)."""
    # Each field read once, and helpers get the arrays they use, not the tree: Numba
    # counts a reference on every read of an array from a tuple and on every array argument.
    visits, reward, first_child, child_count, move, mover, proven = (
        tree.visits, tree.reward, tree.first_child, tree.child_count, tree.move, tree.mover, tree.proven
    )
    line_masks, donuts, single = game
    next_free = tree.next_free
    max_nodes = visits.shape[1]
    root = tree.root[t]
    rng = np.uint64(tree.rng[t]) | np.uint64(1)
    path = np.empty(MAX_DEPTH, dtype=np.int64)
    iterations_run = 0
    for _ in range(iterations):
        if proven[t, root] != UNKNOWN:
            break
        node = root
        p, c = pos, colour
        depth = 0
        path[0] = node
        winner = ONGOING
        # Selection.
        while first_child[t, node] >= 0 and proven[t, node] == UNKNOWN:
            node = _select_child(visits, reward, first_child, child_count, proven, t, node, c_uct)
            p, c, winner = _step(donuts, single, p, c, np.int64(move[t, node]))
            depth += 1
            path[depth] = node
            if winner != ONGOING:
                proven[t, node] = _proof(winner, mover[t, node])
                break
        if winner == ONGOING and proven[t, node] == UNKNOWN:
            # Expansion: a leaf visited before gets all its children, then the first is
            # played (unvisited children come first in square order, so every child is
            # tried once before UCB compares them).
            if visits[t, node] > 0 or node == root:
                moves = legal_mask(p.own, p.opp, p.last, line_masks)
                k = popcount(moves)
                free = next_free[t]
                if free + k <= max_nodes:
                    first_child[t, node] = free
                    child_count[t, node] = k
                    for ch in range(free, free + k):
                        sq = ctz(moves)
                        moves &= moves - np.uint64(1)
                        _init_node(visits, reward, first_child, child_count, move, mover, proven, t, ch, sq, c)
                    next_free[t] = free + k
                    node = free
                    p, c, winner = _step(donuts, single, p, c, np.int64(move[t, node]))
                    depth += 1
                    path[depth] = node
                    if winner != ONGOING:
                        proven[t, node] = _proof(winner, mover[t, node])
            if winner == ONGOING:
                winner, _, _, rng = playout(game, p, c, rng)
        elif winner == ONGOING:
            # A proven node reached in selection: its proven value is the result.
            pv = proven[t, node]
            pm = mover[t, node]
            winner = DRAW if pv == 0 else (pm if pv == 1 else 1 - pm)
        # Backup, leaf to root, proving what can be proven.
        for d in range(depth, -1, -1):
            nd = path[d]
            visits[t, nd] += 1
            reward[t, nd] += _reward(winner, mover[t, nd])
            if d < depth:
                _update_proof(first_child, child_count, mover, proven, t, nd)
        iterations_run += 1
    tree.iterations[t] += iterations_run
    tree.rng[t] = np.int64(rng >> np.uint64(1))


@njit(cache=True, parallel=True)
def run_trees(tree, game, pos, colour, iterations, c_uct):
    """``iterations`` iterations on every tree, one tree per thread."""
    for t in prange(tree.visits.shape[0]):
        run_tree(tree, t, game, pos, colour, iterations, c_uct)


@njit(cache=True)
def root_stats(tree, t):
    """(moves, visits, mean rewards, proven) of the root's children of tree ``t``."""
    root = tree.root[t]
    c0 = tree.first_child[t, root]
    k = tree.child_count[t, root] if c0 >= 0 else 0
    moves = np.empty(k, dtype=np.int64)
    vis = np.empty(k, dtype=np.int64)
    mean = np.empty(k, dtype=np.float64)
    prov = np.empty(k, dtype=np.int64)
    for i in range(k):
        c = c0 + i
        moves[i] = tree.move[t, c]
        vis[i] = tree.visits[t, c]
        mean[i] = tree.reward[t, c] / tree.visits[t, c] if tree.visits[t, c] > 0 else 0.0
        prov[i] = tree.proven[t, c]
    return moves, vis, mean, prov


@njit(cache=True)
def descend(tree, t, path_moves):
    """Move tree ``t``'s root down along ``path_moves`` (squares); True if every move was
    found among expanded children, else False (the tree is then unchanged)."""
    node = tree.root[t]
    for sq in path_moves:
        c0 = tree.first_child[t, node]
        if c0 < 0:
            return False
        found = -1
        for c in range(c0, c0 + tree.child_count[t, node]):
            if tree.move[t, c] == sq:
                found = c
                break
        if found < 0:
            return False
        node = found
    tree.root[t] = node
    return True
