"""UCT Monte-Carlo tree search with MCTS-Solver backups, in preallocated arrays.

A :class:`Tree` holds ``T`` trees (root parallelism: one tree per worker, the roots'
visit counts summed at the end), as mctx's ``Tree`` holds a batch: the nodes are one
array of :data:`NODE` records of shape ``(trees, nodes)``, every per-tree field an array
of shape ``(trees,)``; no Python object exists per node. A node stores the move that led to it and the color
who made it, its visits and summed reward (from the point of view of that color), its
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
``color`` beside it, since rewards and proofs are kept by color.

Memory: the arrays have a fixed number of nodes (their capacity); the driver (the agent)
keeps the tree growing past it between calls of :func:`run_tree`. A call that meets a
leaf it cannot expand for want of room finishes that iteration with a playout from the
leaf and, when asked to (``stop_when_full``), returns at once, saying the tree is full.
The driver then either copies the trees into larger arrays (:func:`grown`) or recycles
the least-visited subtrees in place (:func:`compact`): the nodes with the fewest visits
lose their children (they keep their own visits and rewards, and are expanded afresh
when next reached), and the nodes left slide down to the front of the arrays.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit, prange
from numpy.typing import NDArray

from ..._engine._types import Bool, Int64
from ..._engine.bits import ctz, popcount, rng_seed
from ..._engine.core import NO_WINNER_YET, WINNER_DRAW, legal_mask
from ..._engine.playouts import playout
from ..._engine.position import PASSES, Position, Rulebook, apply, winner_of
from ...squares import NUM_SQUARES

#: ``proven`` of a node not proven; else -1 / 0 / +1 (lost / drawn / won) for its mover.
UNKNOWN = 2
#: Longest path from a root: a game has at most 2 * 36 placements, plus room.
MAX_DEPTH = 80
#: UCB value of an unvisited child, minus its index: unvisited children come first, in square order.
UNVISITED = 1e200
#: Below every UCB value.
NO_VALUE = -1e300
#: One node of a tree (packed: 20 bytes).
NODE = np.dtype(
    [
        ("visits", np.int32),  # iterations through the node
        ("reward", np.float64),  # summed rewards for the node's mover (1 win, 0.5 draw)
        ("first_child", np.int32),  # index of the first child, -1 while not expanded
        ("child_count", np.int8),  # number of children (contiguous from first_child)
        ("move", np.int8),  # the square played into the node, -1 at a first root
        ("mover", np.int8),  # the color who played it
        ("proven", np.int8),  # proven value for the mover, or UNKNOWN
    ]
)
#: Bytes of one node.
NODE_BYTES = NODE.itemsize
#: Most children of one node (one per square): the room an expansion may need.
MAX_CHILDREN = NUM_SQUARES
#: Node indices are int32 (``first_child``): the most nodes a tree can have.
MAX_TREE_NODES = (1 << 31) - 1
#: Depth-first walks of :func:`compact` push all children of a node: at most this many wait.
WALK_STACK = MAX_DEPTH * MAX_CHILDREN
#: :func:`compact` counts nodes by visits in a histogram: one bucket per count below this,
#: one per power of two from it up (visits are int32: 2**31 at most).
EXACT_VISIT_BUCKETS = 1 << 12
VISIT_BUCKETS = EXACT_VISIT_BUCKETS + 32 - 12
#: Bits of a node index in the keys :func:`compact` sorts (indices are below 2**31).
INDEX_BITS = 32


class Tree(NamedTuple):
    """``T`` search trees (see the module doc). Node 0 of each tree is its first root. The
    nodes' second dimension is the capacity (nodes per tree). The Python layer reads a
    node field of every node as ``tree.visits`` (a view of ``tree.nodes["visits"]``), etc."""

    nodes: NDArray[np.void]  # NODE (trees, nodes)
    root: NDArray[np.int64]  # int64 (trees,): the current root (moves down the tree as the game goes on)
    next_free: NDArray[np.int64]  # int64 (trees,): the next unused node
    rng: NDArray[np.int64]  # int64 (trees,): the xorshift state, shifted right once (fits int64; kept odd on use)
    iterations: NDArray[np.int64]  # int64 (trees,): iterations run since the tree was reset

    @property
    def visits(self) -> NDArray[np.int32]:
        return self.nodes["visits"]

    @property
    def reward(self) -> NDArray[np.float64]:
        return self.nodes["reward"]

    @property
    def first_child(self) -> NDArray[np.int32]:
        return self.nodes["first_child"]

    @property
    def child_count(self) -> NDArray[np.int8]:
        return self.nodes["child_count"]

    @property
    def move(self) -> NDArray[np.int8]:
        return self.nodes["move"]

    @property
    def mover(self) -> NDArray[np.int8]:
        return self.nodes["mover"]

    @property
    def proven(self) -> NDArray[np.int8]:
        return self.nodes["proven"]


def new_tree(trees: int, max_nodes: int) -> Tree:
    """Room for ``trees`` trees of ``max_nodes`` nodes (:data:`NODE_BYTES` a node)."""
    nodes = np.zeros((trees, max_nodes), dtype=NODE)
    nodes["first_child"] = -1
    nodes["move"] = -1
    nodes["proven"] = UNKNOWN
    return Tree(
        nodes=nodes,
        root=np.zeros(trees, dtype=np.int64),
        next_free=np.zeros(trees, dtype=np.int64),
        rng=np.zeros(trees, dtype=np.int64),
        iterations=np.zeros(trees, dtype=np.int64),
    )


@njit(cache=True)
def _init_node(nodes: NDArray[np.void], t: Int64, node: Int64, sq: Int64, color: Int64) -> None:
    """A fresh node: ``color`` played ``sq`` into it (-1: a root)."""
    n = nodes[t, node]
    n.visits = 0
    n.reward = 0.0
    n.first_child = -1
    n.child_count = 0
    n.move = sq
    n.mover = color
    n.proven = UNKNOWN


@njit(cache=True)
def reset_tree(tree: Tree, t: Int64, root_mover: Int64, seed: int) -> None:
    """Empty tree ``t``: a lone root whose 'mover' is the color that moved into it."""
    root = 0
    _init_node(tree.nodes, t, root, -1, root_mover)
    tree.root[t] = root
    tree.next_free[t] = root + 1
    tree.rng[t] = np.int64(rng_seed(np.uint64(seed), np.uint64(t)) >> np.uint64(1))
    tree.iterations[t] = 0


@njit(cache=True)
def _reward(winner: Int64, color: Int64) -> float:
    if winner == WINNER_DRAW:
        return 0.5
    return 1.0 if winner == color else 0.0


@njit(cache=True)
def _update_proof(nodes: NDArray[np.void], t: Int64, node: Int64) -> None:
    """MCTS-Solver: prove ``node`` from its children when possible."""
    n = nodes[t, node]
    c0 = n.first_child
    if c0 < 0:
        return
    best = -2
    all_proven = True
    for c in range(c0, c0 + n.child_count):
        p = nodes[t, c].proven
        if p == UNKNOWN:
            all_proven = False
        elif p > best:
            best = p
    # The children's mover is the color choosing at ``node``.
    chooser = nodes[t, c0].mover
    if best == 1 or (all_proven and best > -2):
        n.proven = best if n.mover == chooser else -best


@njit(cache=True)
def _step(donuts: Int64, single: bool, pos: Position, color: Int64, sq: Int64) -> tuple[Position, Int64, Int64]:
    """Play ``sq`` from ``pos`` (``color`` to move): ``(position, color to move, winner code)``.
    Scalars only: a call that takes arrays pays for counting references to them."""
    child, status = apply(donuts, single, pos, sq)
    return child, (1 - color) if status == PASSES else color, winner_of(status, color)


@njit(cache=True)
def _proof(winner: Int64, mover: Int64) -> int:
    """The proven value, for ``mover``, of a node where the game ended with ``winner``."""
    if winner == WINNER_DRAW:
        return 0
    return 1 if winner == mover else -1


@njit(cache=True)
def _select_child(nodes: NDArray[np.void], t: Int64, node: Int64, c_uct: float) -> Int64:
    """UCB1 choice among the children of expanded ``node``: a proven win for the chooser at
    once, never a proven loss (unless all are), unvisited children first."""
    parent = nodes[t, node]
    c_first = parent.first_child
    log_n = math.log(parent.visits + 1.0)
    best_child = -1
    best_value = NO_VALUE
    for c in range(c_first, c_first + parent.child_count):
        child = nodes[t, c]
        proof = child.proven
        if proof == 1:
            return c
        if proof == -1:
            continue
        v = child.visits
        value = UNVISITED - c if v == 0 else child.reward / v + c_uct * math.sqrt(log_n / v)
        if value > best_value:
            best_value = value
            best_child = c
    return best_child if best_child >= 0 else c_first  # all children lost: any will do


@njit(cache=True)
def run_tree(
    tree: Tree, t: Int64, rulebook: Rulebook, pos: Position, color: Int64, iterations: Int64, c_uct: float, stop_when_full: Bool,
) -> tuple[Int64, bool]:
    """Up to ``iterations`` MCTS iterations on tree ``t`` from the position at its root
    (``pos``, ``color`` to move); fewer when the root is proven, or when the tree is full
    and ``stop_when_full``. Returns ``(iterations run, full)``: ``full`` when a leaf could
    not be expanded for want of room (that iteration played out from the leaf, as every
    later one does while the tree stays full and ``stop_when_full`` is False)."""
    # Each field read once, and helpers get the node array, not the tree: Numba counts a
    # reference on every read of an array from a tuple and on every array argument.
    nodes = tree.nodes
    line_masks, donuts, single = rulebook
    next_free = tree.next_free
    max_nodes = nodes.shape[1]
    root = tree.root[t]
    rng = np.uint64(tree.rng[t]) | np.uint64(1)
    path = np.empty(MAX_DEPTH, dtype=np.int64)
    iterations_run = 0
    full = False
    for _ in range(iterations):
        if nodes[t, root].proven != UNKNOWN:
            break
        node = root
        p, c = pos, color
        depth = 0
        path[0] = node
        winner: Int64 = NO_WINNER_YET
        # Selection.
        while nodes[t, node].first_child >= 0 and nodes[t, node].proven == UNKNOWN:
            node = _select_child(nodes, t, node, c_uct)
            p, c, winner = _step(donuts, single, p, c, np.int64(nodes[t, node].move))
            depth += 1
            path[depth] = node
            if winner != NO_WINNER_YET:
                nodes[t, node].proven = _proof(winner, nodes[t, node].mover)
                break
        if winner == NO_WINNER_YET and nodes[t, node].proven == UNKNOWN:
            # Expansion: a leaf visited before gets all its children, then the first is
            # played (unvisited children come first in square order, so every child is
            # tried once before UCB compares them).
            if nodes[t, node].visits > 0 or node == root:
                moves = legal_mask(p.own, p.opp, p.last, line_masks)
                k = popcount(moves)
                free = next_free[t]
                if free + k <= max_nodes:
                    nodes[t, node].first_child = free
                    nodes[t, node].child_count = k
                    for ch in range(free, free + k):
                        sq = ctz(moves)
                        moves &= moves - np.uint64(1)
                        _init_node(nodes, t, ch, sq, c)
                    next_free[t] = free + k
                    node = free
                    p, c, winner = _step(donuts, single, p, c, np.int64(nodes[t, node].move))
                    depth += 1
                    path[depth] = node
                    if winner != NO_WINNER_YET:
                        nodes[t, node].proven = _proof(winner, nodes[t, node].mover)
                else:
                    full = True
            if winner == NO_WINNER_YET:
                winner, _, _, rng = playout(rulebook, p, c, rng)
        elif winner == NO_WINNER_YET:
            # A proven node reached in selection: its proven value is the result.
            pv = nodes[t, node].proven
            pm = nodes[t, node].mover
            winner = WINNER_DRAW if pv == 0 else (pm if pv == 1 else 1 - pm)
        # Backup, leaf to root, proving what can be proven.
        for d in range(depth, -1, -1):
            n = nodes[t, path[d]]
            n.visits += 1
            n.reward += _reward(winner, n.mover)
            if d < depth:
                _update_proof(nodes, t, path[d])
        iterations_run += 1
        if full and stop_when_full:
            break
    tree.iterations[t] += iterations_run
    tree.rng[t] = np.int64(rng >> np.uint64(1))
    return iterations_run, full


@njit(cache=True, parallel=True)
def run_trees(
    tree: Tree, rulebook: Rulebook, pos: Position, color: Int64, todo: NDArray[np.int64], stop_when_full: NDArray[np.bool],
    c_uct: float, done: NDArray[np.int64], full: NDArray[np.bool],
) -> None:
    """:func:`run_tree` on every tree ``t``, one tree per thread: ``todo[t]`` iterations,
    stopping when full if ``stop_when_full[t]``; writes ``done[t]`` and ``full[t]``."""
    for t in prange(tree.nodes.shape[0]):
        done[t], full[t] = run_tree(tree, t, rulebook, pos, color, todo[t], c_uct, stop_when_full[t])


@njit(cache=True)
def root_stats(tree: Tree, t: Int64) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64], NDArray[np.int64]]:
    """(moves, visits, mean rewards, proven) of the root's children of tree ``t``."""
    nodes = tree.nodes
    root = tree.root[t]
    c0 = nodes[t, root].first_child
    k = nodes[t, root].child_count if c0 >= 0 else 0
    moves = np.empty(k, dtype=np.int64)
    vis = np.empty(k, dtype=np.int64)
    mean = np.empty(k, dtype=np.float64)
    prov = np.empty(k, dtype=np.int64)
    for i in range(k):
        child = nodes[t, c0 + i]
        moves[i] = child.move
        vis[i] = child.visits
        mean[i] = child.reward / child.visits if child.visits > 0 else 0.0
        prov[i] = child.proven
    return moves, vis, mean, prov


@njit(cache=True)
def descend(tree: Tree, t: Int64, path_moves: NDArray[np.int64]) -> bool:
    """Move tree ``t``'s root down along ``path_moves`` (squares); True if every move was
    found among expanded children, else False (the tree is then unchanged)."""
    nodes = tree.nodes
    node = tree.root[t]
    for sq in path_moves:
        c0 = nodes[t, node].first_child
        if c0 < 0:
            return False
        found = -1
        for c in range(c0, c0 + nodes[t, node].child_count):
            if nodes[t, c].move == sq:
                found = c
                break
        if found < 0:
            return False
        node = found
    tree.root[t] = node
    return True


def grown(tree: Tree, nodes: int) -> Tree:
    """A copy of ``tree`` with room for ``nodes`` nodes per tree (at least its capacity):
    the used nodes are copied, the rest left unwritten (every node is written when it is
    made). The old arrays are garbage once the caller drops them."""
    used = int(tree.next_free.max())
    old = tree.nodes
    new = np.empty((old.shape[0], nodes), dtype=NODE)
    new[:, :used] = old[:, :used]
    return tree._replace(nodes=new)


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
def _keeps_children(nodes: NDArray[np.void], t: Int64, node: Int64, threshold: Int64) -> Bool:
    """Whether a node below the root keeps its children in :func:`compact`: it has some, is
    not proven (a proven node ends every descent: its children are never read again) and
    has at least ``threshold`` visits."""
    n = nodes[t, node]
    keeps: Bool = n.first_child >= 0 and n.proven == UNKNOWN and n.visits >= threshold
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


@njit(cache=True)
def compact(tree: Tree, t: Int64, target: Int64) -> Int64:
    """Recycle tree ``t`` in place so that it holds at most ``target`` nodes (never fewer
    than the root and its children): the nodes reachable from the root, less the children
    of the least-visited ones. Returns the nodes kept.

    Which nodes lose their children: the proven ones below the root, and those with fewer
    visits than a threshold, the lowest (to a power of two above 4096 visits) that keeps
    the count within ``target``. A child never has more visits than its parent, so what is
    kept is a subtree. A node that loses its children keeps its own visits, reward and
    proof; its next visit expands it afresh.

    How: the root moves to node 0, then the kept blocks of children slide down, in the
    order of their old places, each to just after the one before. A block is always made
    after its parent, so no block lands on one not moved yet, and a parent has moved
    before its children: its pointer is rewritten by a binary search among the blocks'
    sorted old places. Memory beyond the tree: 8 bytes per kept block, and fixed-size
    buffers (the walk's stack, the histogram)."""
    nodes = tree.nodes
    root = tree.root[t]
    stack = np.empty(WALK_STACK, dtype=np.int64)
    root_block = nodes[t, root].child_count if nodes[t, root].first_child >= 0 else 0
    # 1. Blocks and their nodes by the visits of their parent, over the subtree below the root's children.
    block_nodes = np.zeros(VISIT_BUCKETS, dtype=np.int64)
    blocks = np.zeros(VISIT_BUCKETS, dtype=np.int64)
    sp = 0
    if root_block > 0:
        for c in range(nodes[t, root].first_child, nodes[t, root].first_child + root_block):
            stack[sp] = c
            sp += 1
    while sp > 0:
        sp -= 1
        node = stack[sp]
        if _keeps_children(nodes, t, node, 0):
            b = _bucket(nodes[t, node].visits)
            block_nodes[b] += nodes[t, node].child_count
            blocks[b] += 1
            for c in range(nodes[t, node].first_child, nodes[t, node].first_child + nodes[t, node].child_count):
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
        keys[nk] = np.int64(nodes[t, root].first_child) << INDEX_BITS | root_block
        nk += 1
        for c in range(nodes[t, root].first_child, nodes[t, root].first_child + root_block):
            stack[sp] = c
            sp += 1
    while sp > 0:
        sp -= 1
        node = stack[sp]
        if _keeps_children(nodes, t, node, threshold):
            keys[nk] = np.int64(nodes[t, node].first_child) << INDEX_BITS | nodes[t, node].child_count
            nk += 1
            for c in range(nodes[t, node].first_child, nodes[t, node].first_child + nodes[t, node].child_count):
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
    _move_node(nodes, t, root, 0)
    if root_block > 0:
        nodes[t, 0].first_child = _new_start(keys, nk, nodes[t, 0].first_child)
    for i in range(nk):
        old = keys[i] >> INDEX_BITS
        new = keys[i] & low
        size = (keys[i + 1] & low if i + 1 < nk else end) - new
        for j in range(size):
            dst = new + j
            _move_node(nodes, t, old + j, dst)
            if _keeps_children(nodes, t, dst, threshold):
                nodes[t, dst].first_child = _new_start(keys, nk, nodes[t, dst].first_child)
            else:
                nodes[t, dst].first_child = -1
                nodes[t, dst].child_count = 0
    tree.root[t] = 0
    tree.next_free[t] = end
    return end


@njit(cache=True)
def _move_node(nodes: NDArray[np.void], t: Int64, src: Int64, dst: Int64) -> None:
    """Copy node ``src`` of tree ``t`` to ``dst``."""
    a = nodes[t, src]
    b = nodes[t, dst]
    b.visits = a.visits
    b.reward = a.reward
    b.first_child = a.first_child
    b.child_count = a.child_count
    b.move = a.move
    b.mover = a.mover
    b.proven = a.proven
