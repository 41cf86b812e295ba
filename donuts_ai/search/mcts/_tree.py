"""UCT Monte-Carlo tree search with MCTS-Solver backups, in preallocated arrays, for any
two-player game that gives its kernels.

An :class:`MCTSTree` holds ``T`` trees (root parallelism: one tree per worker, the roots'
visit counts summed at the end) as a named structure of arrays (the convention of
:mod:`donuts_ai.search`), every node field of shape ``(trees, nodes)``. The game comes in
as a :class:`~donuts_ai.search.compiled_game.CompiledGame` record of its compiled
functions (``legal``, ``play``, ``playout``), with its ``rules`` passed through to them; a
game's result is a winner code of :mod:`donuts_ai.outcomes`. Numba compiles the kernels
once per game; the game's module binds them in cached kernels of its own (Donuts:
:mod:`donuts_ai.donuts.agents._mcts_bound`).

:func:`new_tree` makes the arrays, :func:`run_tree` runs iterations on one tree,
:func:`root_stats` reads its root, and :func:`grown` and :func:`compact` make room when
the tree is full.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..._bits import ONE, ZERO, ctz, popcount, rng_below, rng_seed
from ..._numba_types import Bool, Int64
from ...outcomes import NO_WINNER_YET, UNKNOWN, WINNER_DRAW
from .._nodes import NONE, ROOT
from .._selection import ucb1
from ..compiled_game import DRAWN, LOST, MOVES_AGAIN, WON, CompiledGame, hook_given

# A node's ``proven``: -1 / 0 / +1 (lost / drawn / won) for its mover, or outcomes.UNKNOWN
# while not proven.
#: UCB value of an unvisited child, minus its index: unvisited children come first, in square order.
UNVISITED = 1e200
#: Below every UCB value.
NO_VALUE = -1e300
#: Most moves of a game: legal moves are the bits of a uint64.
MAX_ACTIONS = 64
#: Node indices are int32 (``first_child``): the most nodes a tree can have.
MAX_TREE_NODES = (1 << 31) - 1
#: :func:`compact` counts nodes by visits in a histogram: one bucket per count below this,
#: one per power of two from it up (visits are int32: 2**31 at most).
EXACT_VISIT_BUCKETS = 1 << 12
VISIT_BUCKETS = EXACT_VISIT_BUCKETS + 32 - 12
#: Bits of a node index in the keys :func:`compact` sorts (indices are below 2**31).
INDEX_BITS = 32


# A node stores the move that led to it and its ``mover`` (the player who made that move),
# its visits and ``value_sum`` (the rewards backed up through it, for its mover), its first
# child and child count (children are contiguous), and a proven value. A node's position is
# not stored: each iteration replays the path from the root (the last descent's nodes are
# left in ``path``, as long as the game's longest path, given to new_tree), which costs less
# than storing 40 bytes per node.
class MCTSTree(NamedTuple):
    """``T`` search trees (see the module doc). Node 0 of each tree is its first root; the
    nodes' second dimension is the capacity (nodes per tree)."""

    visits: NDArray[np.int32]  # int32[trees, nodes]: iterations through the node
    value_sum: NDArray[np.float64]  # float64[trees, nodes]: summed rewards for the node's mover (1 win, 0.5 draw, 0 loss)
    first_child: NDArray[np.int32]  # int32[trees, nodes]: index of the first child, NONE while not expanded
    child_count: NDArray[np.int8]  # int8[trees, nodes]: number of children (contiguous from first_child)
    move: NDArray[np.int8]  # int8[trees, nodes]: the move (a bit index) played into the node, NONE at a first root
    mover: NDArray[np.int8]  # int8[trees, nodes]: the player who played it (at a root: the one who moved into it)
    proven: NDArray[np.int8]  # int8[trees, nodes]: proven value for the mover, or UNKNOWN
    path: NDArray[np.int64]  # int64[trees, path_nodes]: the nodes of the last iteration's descent, root first
    root: NDArray[np.int64]  # int64[trees]: the current root (moves down the tree as the game goes on)
    node_count: NDArray[np.int64]  # int64[trees]: nodes in use (the next unused node)
    rng: NDArray[np.int64]  # int64[trees]: the xorshift state, shifted right once (fits int64; kept odd on use)
    iterations: NDArray[np.int64]  # int64[trees]: iterations run since the tree was reset


#: The fields of :class:`MCTSTree` with one entry per node.
NODE_FIELDS = ("visits", "value_sum", "first_child", "child_count", "move", "mover", "proven")
#: Bytes of one node (its fields in :class:`MCTSTree`).
NODE_BYTES = 4 + 8 + 4 + 1 + 1 + 1 + 1


class MCTSSettings(NamedTuple):
    """How :func:`run_tree` searches (two scalars, passed by value)."""

    exploration: float  # UCB1's constant c: a child's mean reward plus c * sqrt(ln N / n)
    solver: bool  # MCTS-Solver: prove nodes from finished games and back proofs up (False: plain UCT)


def new_tree(trees: int, max_nodes: int, path_nodes: int) -> MCTSTree:
    """Room for ``trees`` trees of ``max_nodes`` nodes (:data:`NODE_BYTES` a node).

    Args:
        trees: the trees (one per root-parallel worker).
        max_nodes: the nodes per tree.
        path_nodes: the nodes of the game's longest path from a root (the root and a node a
            move: the game's most moves plus one).
    """
    shape = (trees, max_nodes)
    return MCTSTree(
        visits=np.zeros(shape, dtype=np.int32),
        value_sum=np.zeros(shape, dtype=np.float64),
        first_child=np.full(shape, NONE, dtype=np.int32),
        child_count=np.zeros(shape, dtype=np.int8),
        move=np.full(shape, NONE, dtype=np.int8),
        mover=np.zeros(shape, dtype=np.int8),
        proven=np.full(shape, UNKNOWN, dtype=np.int8),
        path=np.zeros((trees, path_nodes), dtype=np.int64),
        root=np.zeros(trees, dtype=np.int64),
        node_count=np.zeros(trees, dtype=np.int64),
        rng=np.zeros(trees, dtype=np.int64),
        iterations=np.zeros(trees, dtype=np.int64),
    )


@njit(cache=True, inline="always")
def _init_node(tree: MCTSTree, t: Int64, node: Int64, sq: Int64, mover: Int64) -> None:
    """A fresh node: ``mover`` played ``sq`` into it (NONE: a root)."""
    tree.visits[t, node] = 0
    tree.value_sum[t, node] = 0.0
    tree.first_child[t, node] = NONE
    tree.child_count[t, node] = 0
    tree.move[t, node] = sq
    tree.mover[t, node] = mover
    tree.proven[t, node] = UNKNOWN


# The kernels of one iteration read each node field once into a local and pass the
# helpers the arrays they use, inlined: Numba counts a reference on every read of an
# array from a tuple and on every array argument of a call.


@njit(cache=True)
def reset_tree(tree: MCTSTree, t: Int64, root_mover: Int64, seed: int) -> None:
    """Empty tree ``t``: a lone root.

    Args:
        tree: the trees.
        t: the tree emptied.
        root_mover: the player who moved into the root.
        seed: the tree's random stream's seed.
    """
    root = ROOT
    _init_node(tree, t, root, NONE, root_mover)
    tree.root[t] = root
    tree.node_count[t] = root + 1
    tree.rng[t] = np.int64(rng_seed(np.uint64(seed), np.uint64(t)) >> np.uint64(1))
    tree.iterations[t] = 0


@njit(cache=True)
def _reward(winner: Int64, player: Int64) -> float:
    if winner == WINNER_DRAW:
        return 0.5
    return 1.0 if winner == player else 0.0


@njit(cache=True, inline="always")
def _update_proof(first_child: NDArray[np.int32], child_count: NDArray[np.int8], mover: NDArray[np.int8],
                  proven: NDArray[np.int8], t: Int64, node: Int64) -> None:
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
    # The children's mover is the player choosing at ``node``.
    chooser = mover[t, c0]
    if best == 1 or (all_proven and best > -2):
        proven[t, node] = best if mover[t, node] == chooser else -best


@njit(cache=True, inline="always")
def _winner(status: Int64, mover: Int64) -> Int64:
    """The winner code after ``mover`` played a move of ``status``."""
    if status == WON:
        return mover
    if status == LOST:
        return 1 - mover
    if status == DRAWN:
        return np.int64(WINNER_DRAW)
    return np.int64(NO_WINNER_YET)


@njit(cache=True, inline="always")
def _step(game: CompiledGame, rules: Any, pos: Any, to_move: Int64, move: Int64) -> tuple[Any, Int64, Int64]:
    """``move`` played: ``(position, player to move, winner code)``."""
    child, status = game.play(rules, pos, move)
    return child, to_move if status == MOVES_AGAIN else 1 - to_move, _winner(status, to_move)


@njit(cache=True)
def _playout(game: CompiledGame, rules: Any, pos: Any, to_move: Int64, rng: np.uint64) -> tuple[Int64, np.uint64]:
    """A random game from ``pos`` (``to_move`` to move) to its end: ``(winner code, rng)``;
    the game's own ``playout`` where it has one, else uniformly random legal moves."""
    if hook_given(game.playout):
        value, rng = game.playout(rules, pos, rng)
        return (to_move if value > 0 else (1 - to_move if value < 0 else np.int64(WINNER_DRAW))), rng
    while True:
        moves = game.legal(rules, pos)
        if moves == ZERO:
            return np.int64(WINNER_DRAW), rng  # no move in a game that goes on: a draw, as the solver scores it
        rng, n = rng_below(rng, popcount(moves))
        for _ in range(n):
            moves &= moves - ONE
        pos, to_move, winner = _step(game, rules, pos, to_move, ctz(moves))
        if winner != NO_WINNER_YET:
            return winner, rng


@njit(cache=True)
def _proof(winner: Int64, mover: Int64) -> int:
    """The proven value, for ``mover``, of a node where the game ended with ``winner``."""
    if winner == WINNER_DRAW:
        return 0
    return 1 if winner == mover else -1


@njit(cache=True, inline="always")
def _select_child(visits: NDArray[np.int32], value_sum: NDArray[np.float64], first_child: NDArray[np.int32],
                  child_count: NDArray[np.int8], proven: NDArray[np.int8], t: Int64, node: Int64, exploration: float) -> Int64:
    """UCB1 choice among the children of expanded ``node``: a proven win for the chooser at
    once, never a proven loss (unless all are), unvisited children first."""
    c_first = first_child[t, node]
    log_n = math.log(visits[t, node] + 1.0)
    best_child = NONE
    best_value = NO_VALUE
    for c in range(c_first, c_first + child_count[t, node]):
        proof = proven[t, c]
        if proof == 1:
            return c
        if proof == -1:
            continue
        v = visits[t, c]
        value = UNVISITED - c if v == 0 else ucb1(value_sum[t, c], v, log_n, exploration)
        if value > best_value:
            best_value = value
            best_child = c
    return best_child if best_child >= 0 else c_first  # all children lost: any will do


# One iteration: descend by UCB1 from the root (skipping children proven lost for the player
# choosing); expand a visited leaf with all its legal moves; play one game from the new node
# (the game's ``playout``, or uniformly random moves through ``legal`` and ``play``); back the
# result up the path. The player to move is kept beside the position (a move's status
# MOVES_AGAIN keeps it). MCTS-Solver: a node whose mover has a proven-winning child is proven
# won for that mover; a node all of whose children are proven is proven with the best of
# them; proven values replace averages in the backups, so proven wins are found and played at
# once. Without the proofs (MCTSSettings) a finished game reached in a descent is scored
# afresh at each visit, and every move keeps being sampled by UCB1 alone, as in plain UCT.
@njit(cache=True)
def run_tree(
    game: CompiledGame, rules: Any, tree: MCTSTree, t: Int64, pos: Any, to_move: Int64, iterations: Int64,
    settings: MCTSSettings, stop_when_full: Bool,
) -> tuple[Int64, bool]:
    """Up to ``iterations`` MCTS iterations on tree ``t`` from the position at its root; returns
    ``(iterations run, full)``, ``full`` when a leaf could not be expanded for want of room.

    Args:
        game: the game's functions.
        rules: what the game's functions are passed, unchanged.
        tree: the trees.
        t: the tree searched.
        pos: the root's position, from the side to move.
        to_move: the player to move at the root (0 or 1).
        iterations: the most to run (fewer once the root is proven or, with ``stop_when_full``, the tree full).
        settings: UCB1's constant and whether MCTS-Solver proves.
        stop_when_full: return once the tree is full (else each iteration plays out from the leaf).
    """
    exploration, solver = settings
    visits, value_sum, first_child, child_count = tree.visits, tree.value_sum, tree.first_child, tree.child_count
    move, mover, proven, node_count = tree.move, tree.mover, tree.proven, tree.node_count
    max_nodes = visits.shape[1]
    root = tree.root[t]
    rng = np.uint64(tree.rng[t]) | np.uint64(1)
    # The descents write a fresh array, copied to the tree's row once at the end: Numba knows
    # it aliases no field of the tree (writing tree.path itself, the search ran about 5% slower).
    path = np.empty(tree.path.shape[1], dtype=np.int64)
    path[0] = root
    depth = 0
    iterations_run = 0
    full = False
    for _ in range(iterations):
        if proven[t, root] != UNKNOWN:
            break
        node = root
        p, c = pos, to_move
        depth = 0
        path[0] = node
        winner: Int64 = NO_WINNER_YET
        # Selection.
        while first_child[t, node] >= 0 and proven[t, node] == UNKNOWN:
            node = _select_child(visits, value_sum, first_child, child_count, proven, t, node, exploration)
            p, c, winner = _step(game, rules, p, c, np.int64(move[t, node]))
            depth += 1
            path[depth] = node
            if winner != NO_WINNER_YET:
                if solver:
                    proven[t, node] = _proof(winner, mover[t, node])
                break
        if winner == NO_WINNER_YET and proven[t, node] == UNKNOWN:
            # Expansion: a leaf visited before gets all its children, then the first is
            # played (unvisited children come first in square order, so every child is
            # tried once before UCB compares them).
            if visits[t, node] > 0 or node == root:
                moves = game.legal(rules, p)
                k = popcount(moves)
                free = node_count[t]
                if free + k <= max_nodes:
                    first_child[t, node] = free
                    child_count[t, node] = k
                    for ch in range(free, free + k):
                        sq = ctz(moves)
                        moves &= moves - np.uint64(1)
                        visits[t, ch] = 0
                        value_sum[t, ch] = 0.0
                        first_child[t, ch] = NONE
                        child_count[t, ch] = 0
                        move[t, ch] = sq
                        mover[t, ch] = c
                        proven[t, ch] = UNKNOWN
                    node_count[t] = free + k
                    node = free
                    p, c, winner = _step(game, rules, p, c, np.int64(move[t, node]))
                    depth += 1
                    path[depth] = node
                    if winner != NO_WINNER_YET and solver:
                        proven[t, node] = _proof(winner, mover[t, node])
                else:
                    full = True
            if winner == NO_WINNER_YET:
                winner, rng = _playout(game, rules, p, c, rng)
        elif winner == NO_WINNER_YET:
            # A proven node reached in selection: its proven value is the result.
            pv = proven[t, node]
            pm = mover[t, node]
            winner = WINNER_DRAW if pv == 0 else (pm if pv == 1 else 1 - pm)
        # Backup, leaf to root, proving what can be proven.
        for d in range(depth, -1, -1):
            n = path[d]
            visits[t, n] += 1
            value_sum[t, n] += _reward(winner, mover[t, n])
            if d < depth and solver:
                _update_proof(first_child, child_count, mover, proven, t, path[d])
        iterations_run += 1
        if full and stop_when_full:
            break
    tree.iterations[t] += iterations_run
    tree.rng[t] = np.int64(rng >> np.uint64(1))
    tree.path[t, :depth + 1] = path[:depth + 1]
    return iterations_run, full


@njit(cache=True)
def root_stats(tree: MCTSTree, t: Int64) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64], NDArray[np.int64]]:
    """The root's children of tree ``t``.

    Args:
        tree: the trees.
        t: the tree.

    Returns:
        ``(moves, visits, mean rewards, proven)``.
    """
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
        mean[i] = tree.value_sum[t, c] / vis[i] if vis[i] > 0 else 0.0
        prov[i] = tree.proven[t, c]
    return moves, vis, mean, prov


@njit(cache=True)
def descend(tree: MCTSTree, t: Int64, path_moves: NDArray[np.int64]) -> bool:
    """Move tree ``t``'s root down along ``path_moves``.

    Args:
        tree: the trees.
        t: the tree.
        path_moves: the moves (squares) from the root.

    Returns:
        True if every move was found among expanded children, else False (the tree is then
        unchanged).
    """
    node = tree.root[t]
    for sq in path_moves:
        c0 = tree.first_child[t, node]
        if c0 < 0:
            return False
        found = NONE
        for c in range(c0, c0 + tree.child_count[t, node]):
            if tree.move[t, c] == sq:
                found = c
                break
        if found < 0:
            return False
        node = found
    tree.root[t] = node
    return True


# Memory: the arrays have a fixed number of nodes; the driver (the agent) keeps the tree
# growing past it between calls of run_tree. A call that meets a leaf it cannot expand for
# want of room finishes that iteration with a playout from the leaf and, with
# ``stop_when_full``, returns at once, saying the tree is full. The driver then either copies
# the trees into larger arrays (grown) or recycles the least-visited subtrees in place
# (compact): the nodes with the fewest visits lose their children (they keep their own visits
# and rewards, and are expanded afresh when next reached), and the nodes left slide down to
# the front of the arrays.
def grown(tree: MCTSTree, nodes: int) -> MCTSTree:
    """A copy of ``tree`` with more room: the used nodes are copied, the rest left unwritten
    (every node is written when it is made). The old arrays are garbage once the caller drops
    them.

    Args:
        tree: the trees.
        nodes: the nodes per tree, at least the tree's capacity.
    """
    used = int(tree.node_count.max())
    fields = {}
    for name in NODE_FIELDS:
        old = getattr(tree, name)
        new = np.empty((old.shape[0], nodes), dtype=old.dtype)
        new[:, :used] = old[:, :used]
        fields[name] = new
    return tree._replace(**fields)


@njit(cache=True)
def _bucket(v: Int64) -> Int64:
    """The :func:`compact` histogram bucket of a visit count."""
    if v < EXACT_VISIT_BUCKETS:
        return v
    log2 = 0
    while v >> (log2 + 1):
        log2 += 1
    return EXACT_VISIT_BUCKETS + log2 - 12


@njit(cache=True)
def _bucket_floor(b: Int64) -> Int64:
    """The fewest visits of bucket ``b``."""
    return b if b < EXACT_VISIT_BUCKETS else 1 << (b - EXACT_VISIT_BUCKETS + 12)


@njit(cache=True)
def _keeps_children(tree: MCTSTree, t: Int64, node: Int64, threshold: Int64) -> Bool:
    """Whether a node below the root keeps its children in :func:`compact`: it has some, is
    not proven (a proven node ends every descent: its children are never read again) and
    has at least ``threshold`` visits."""
    keeps: Bool = tree.first_child[t, node] >= 0 and tree.proven[t, node] == UNKNOWN and tree.visits[t, node] >= threshold
    return keeps


@njit(cache=True)
def _new_start(keys: NDArray[np.int64], n_keys: Int64, old_start: Int64) -> Int64:
    """Where the kept block of children that started at ``old_start`` starts after
    :func:`compact`: ``keys`` holds ``old << INDEX_BITS | new``, sorted."""
    lo: Int64
    lo, hi = 0, n_keys
    while lo < hi:
        mid = (lo + hi) // 2
        if (keys[mid] >> INDEX_BITS) < old_start:
            lo = mid + 1
        else:
            hi = mid
    start: Int64 = keys[lo] & ((np.int64(1) << INDEX_BITS) - 1)
    return start


# Which nodes lose their children: the proven ones below the root, and those with fewer
# visits than a threshold, the lowest (to a power of two above 4096 visits) that keeps the
# count within target. A child never has more visits than its parent, so what is kept is
# a subtree.
# How: the root moves to node 0, then the kept blocks of children slide down, in the order
# of their old places, each to just after the one before. A block is always made after
# its parent, so no block lands on one not moved yet, and a parent has moved before its
# children: its pointer is rewritten by a binary search among the blocks' sorted old
# places. Memory beyond the tree: 8 bytes per kept block, and fixed-size buffers (the
# walk's stack, the histogram).
@njit(cache=True)
def compact(tree: MCTSTree, t: Int64, target: Int64) -> Int64:
    """Recycle tree ``t`` in place so that it holds at most ``target`` nodes (never fewer than
    the root and its children): the nodes reachable from the root, less the children of the
    least-visited ones.

    A node that loses its children keeps its own visits, value sum and proof; its next visit
    expands it afresh.

    Args:
        tree: the trees.
        t: the tree recycled.
        target: the most nodes kept.

    Returns:
        The nodes kept.
    """
    root = tree.root[t]
    # A depth-first walk pushes all children of a node: at most this many wait.
    stack = np.empty(tree.path.shape[1] * MAX_ACTIONS, dtype=np.int64)
    root_block = tree.child_count[t, root] if tree.first_child[t, root] >= 0 else 0
    # 1. Blocks and their nodes by the visits of their parent, over the subtree below the root's children.
    block_nodes = np.zeros(VISIT_BUCKETS, dtype=np.int64)
    blocks = np.zeros(VISIT_BUCKETS, dtype=np.int64)
    sp = 0
    if root_block > 0:
        for c in range(tree.first_child[t, root], tree.first_child[t, root] + root_block):
            stack[sp] = c
            sp += 1
    while sp > 0:
        sp -= 1
        node = stack[sp]
        if _keeps_children(tree, t, node, 0):
            b = _bucket(tree.visits[t, node])
            block_nodes[b] += tree.child_count[t, node]
            blocks[b] += 1
            for c in range(tree.first_child[t, node], tree.first_child[t, node] + tree.child_count[t, node]):
                stack[sp] = c
                sp += 1
    # 2. The threshold: buckets from the most visited down, while they fit.
    kept = 1 + root_block
    n_blocks = 1 if root_block > 0 else 0
    threshold: Int64 = np.int64(MAX_TREE_NODES) + 1  # above every visit count: no block below the root's
    for b in range(VISIT_BUCKETS - 1, -1, -1):
        if block_nodes[b] == 0:
            continue
        if kept + block_nodes[b] > target:
            break
        kept += block_nodes[b]
        n_blocks += blocks[b]
        threshold = _bucket_floor(b)
    # 3. The kept blocks, keyed by their old place.
    keys = np.empty(n_blocks, dtype=np.int64)
    nk = 0
    if root_block > 0:
        keys[nk] = np.int64(tree.first_child[t, root]) << INDEX_BITS | root_block
        nk += 1
        for c in range(tree.first_child[t, root], tree.first_child[t, root] + root_block):
            stack[sp] = c
            sp += 1
    while sp > 0:
        sp -= 1
        node = stack[sp]
        if _keeps_children(tree, t, node, threshold):
            keys[nk] = np.int64(tree.first_child[t, node]) << INDEX_BITS | tree.child_count[t, node]
            nk += 1
            for c in range(tree.first_child[t, node], tree.first_child[t, node] + tree.child_count[t, node]):
                stack[sp] = c
                sp += 1
    keys.sort()
    # 4. New places: each block right after the one before, after the root.
    end = np.int64(1)
    low = (np.int64(1) << INDEX_BITS) - 1
    for i in range(nk):
        size = keys[i] & low
        keys[i] = (keys[i] >> INDEX_BITS) << INDEX_BITS | end
        end += size
    # 5. Move the root, then each block, rewriting child pointers.
    _move_node(tree, t, root, 0)
    if root_block > 0:
        tree.first_child[t, 0] = _new_start(keys, nk, tree.first_child[t, 0])
    for i in range(nk):
        old = keys[i] >> INDEX_BITS
        new = keys[i] & low
        size = (keys[i + 1] & low if i + 1 < nk else end) - new
        for j in range(size):
            dst = new + j
            _move_node(tree, t, old + j, dst)
            if _keeps_children(tree, t, dst, threshold):
                tree.first_child[t, dst] = _new_start(keys, nk, tree.first_child[t, dst])
            else:
                tree.first_child[t, dst] = NONE
                tree.child_count[t, dst] = 0
    tree.root[t] = ROOT
    tree.node_count[t] = end
    return end


@njit(cache=True)
def _move_node(tree: MCTSTree, t: Int64, src: Int64, dst: Int64) -> None:
    """Copy node ``src`` of tree ``t`` to ``dst``."""
    tree.visits[t, dst] = tree.visits[t, src]
    tree.value_sum[t, dst] = tree.value_sum[t, src]
    tree.first_child[t, dst] = tree.first_child[t, src]
    tree.child_count[t, dst] = tree.child_count[t, src]
    tree.move[t, dst] = tree.move[t, src]
    tree.mover[t, dst] = tree.mover[t, src]
    tree.proven[t, dst] = tree.proven[t, src]
