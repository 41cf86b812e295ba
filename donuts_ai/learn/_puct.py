"""PUCT search for many games at once, in preallocated arrays: AlphaZero's search with the
tree and the rules compiled, and the network called by the Python driver on a batch.

A :class:`Tree` holds one search tree per game (``G`` games, ``N`` nodes each), as mctx's
``Tree`` holds a batch. A node is one :data:`NODE` record: its position from the side to
move (the kernel contract, :mod:`donuts_ai._engine.position`), that side's ``color``, its
legal squares, its visits and summed value, and, for a node where the game is over, its
outcome. Children are dense, as in mctx: ``children[g, node, square]`` is the child's
index (-1 while not created) and ``prior[g, node, square]`` the network's probability of
that square. Values are kept **for Chocolate** (colour 0), so a side that moves twice in a
row (the opponent's pool is empty) needs no special case: the side to move of a node reads
``+value`` if it is Chocolate, ``-value`` if Vanilla.

One round of the search, for every game at once::

    simulate          descend by PUCT from the root to a square not yet tried; create that
                      child (the transition, apply); a finished game backs its outcome up
                      at once, else the child becomes the game's leaf
    write_leaf_planes the observation planes of every leaf               (Python: one
    expand            the network's priors (softmax over the legal        network call on
                      squares) and value for each leaf, backed up         the whole batch)

:func:`start` makes each root a leaf, so the first round evaluates the roots (and mixes
the root's Dirichlet noise into its priors). A tree of ``N`` nodes takes ``N - 1``
simulations: each adds at most one node.

Kernels take plain arrays and ints and never raise: the Python layer (:mod:`.search`)
checks everything first.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from .._engine.batch import _write_planes, mover_view
from .._engine.bits import ctz
from .._engine.core import forced_line, legal_mask
from .._engine.position import MOVES_AGAIN, Position, apply, is_over, placer_value
from ..squares import FULL_BOARD, NUM_SQUARES

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_FULL = np.uint64(FULL_BOARD)

#: ``children`` of a square not tried yet; ``leaf`` of a game with nothing to evaluate.
NONE = -1
#: Longest path from a root: a game has at most 2 * 36 placements, plus room.
MAX_DEPTH = 80
#: Below every PUCT score.
NO_SCORE = -1e30

#: One node of a tree.
NODE = np.dtype(
    [
        ("own", np.uint64),  # the side to move's donuts (for a finished game: the last placer's)
        ("opp", np.uint64),
        ("legal", np.uint64),  # the side to move's legal squares (0 once the game is over)
        ("last", np.int64),
        ("placed_own", np.int64),
        ("placed_opp", np.int64),
        ("color", np.int64),  # the side to move (for a finished game: the last placer)
        ("over", np.bool_),  # the game is over at this node
        ("outcome", np.float32),  # a finished game's result for Chocolate: +1, 0, -1
        ("visits", np.int32),
        ("value", np.float32),  # summed values backed up through the node, for Chocolate
    ],
    align=True,
)


class Tree(NamedTuple):
    """The search trees of ``G`` games, ``N`` nodes each (node 0 is the root)."""

    nodes: np.ndarray  # NODE (G, N)
    children: np.ndarray  # int32 (G, N, 36): child index of each square, NONE if not created
    prior: np.ndarray  # float32 (G, N, 36): the network's probabilities (0 off the legal squares)
    node_count: np.ndarray  # int32 (G,): nodes in use
    path: np.ndarray  # int32 (G, MAX_DEPTH): the nodes of the last descent, root first
    path_length: np.ndarray  # int32 (G,)
    leaf: np.ndarray  # int32 (G,): the node to evaluate this round, NONE if none


def new_tree(games: int, nodes: int) -> Tree:
    """Arrays for ``games`` trees of ``nodes`` nodes."""
    return Tree(
        np.zeros((games, nodes), dtype=NODE),
        np.full((games, nodes, NUM_SQUARES), NONE, dtype=np.int32),
        np.zeros((games, nodes, NUM_SQUARES), dtype=np.float32),
        np.zeros(games, dtype=np.int32),
        np.zeros((games, MAX_DEPTH), dtype=np.int32),
        np.zeros(games, dtype=np.int32),
        np.full(games, NONE, dtype=np.int32),
    )


@njit(cache=True)
def _clear_node(tree: Tree, g: int, index: int) -> None:
    tree.children[g, index, :] = NONE
    tree.prior[g, index, :] = 0.0
    node = tree.nodes[g, index]
    node.visits = 0
    node.value = 0.0
    node.over = False
    node.outcome = 0.0


@njit(cache=True)
def start(tree: Tree, roots: np.ndarray, active: npt.NDArray[np.bool_]) -> None:
    """A new search in every active game ``g`` (``active[g]``) from ``roots[g]`` (records
    with the fields ``own opp last placed_own placed_opp color line_masks``, such as the
    batch environment's games, :data:`donuts_ai._engine.batch.GAME`; never a finished game):
    the root is its game's leaf, to be evaluated first. Inactive games get no leaf."""
    for g in range(roots.shape[0]):
        tree.leaf[g] = NONE
        tree.node_count[g] = 0
        if not active[g]:
            continue
        root = roots[g]
        _clear_node(tree, g, 0)
        node = tree.nodes[g, 0]
        node.own = root.own
        node.opp = root.opp
        node.last = root.last
        node.placed_own = root.placed_own
        node.placed_opp = root.placed_opp
        node.color = root.color
        node.legal = legal_mask(root.own, root.opp, root.last, root.line_masks)
        tree.node_count[g] = 1
        tree.path[g, 0] = 0
        tree.path_length[g] = 1
        tree.leaf[g] = 0


@njit(cache=True)
def _backup(tree: Tree, g: int, value: float) -> None:
    """Add one visit and ``value`` (for Chocolate) to every node on game ``g``'s path."""
    for i in range(tree.path_length[g]):
        node = tree.nodes[g, tree.path[g, i]]
        node.visits += 1
        node.value += value


@njit(cache=True)
def _select(tree: Tree, g: int, index: int, c_puct: float) -> int:
    """The square PUCT picks at node ``index`` of game ``g``: the legal square with the
    largest ``Q + c_puct * P * sqrt(N) / (1 + n)``, ``Q`` the child's mean value for the
    side to move (0 for a child not visited yet, a draw's value)."""
    node = tree.nodes[g, index]
    sign = 1.0 if node.color == 0 else -1.0
    explore = c_puct * math.sqrt(max(node.visits, 1))
    legal = node.legal
    best, best_score = NONE, NO_SCORE
    while legal != _ZERO:
        sq = int(ctz(legal))
        legal &= legal - _ONE
        child = tree.children[g, index, sq]
        q, n = 0.0, 0
        if child != NONE:
            n = tree.nodes[g, child].visits
            if n > 0:
                q = sign * tree.nodes[g, child].value / n
        score = q + explore * tree.prior[g, index, sq] / (1 + n)
        if score > best_score:
            best, best_score = sq, score
    return best


@njit(cache=True)
def simulate(tree: Tree, line_masks: npt.NDArray[np.uint64], donuts: int, single: bool, c_puct: float) -> None:
    """One descent in every game that has a root: to a square not tried yet, whose child is
    created; a finished game's outcome is backed up at once (the game has no leaf this
    round), any other child becomes the game's leaf. ``line_masks`` ``uint64[G, 36]``."""
    for g in range(tree.nodes.shape[0]):
        tree.leaf[g] = NONE
        if tree.node_count[g] == 0:
            continue
        index = 0
        length = 1
        tree.path[g, 0] = 0
        while True:
            node = tree.nodes[g, index]
            if node.over:
                tree.path_length[g] = length
                _backup(tree, g, node.outcome)
                break
            sq = _select(tree, g, index, c_puct)
            child = tree.children[g, index, sq]
            if child != NONE and length < MAX_DEPTH:
                index = child
                tree.path[g, length] = index
                length += 1
                continue
            # A new child (the tree has room: N - 1 simulations add at most N - 1 nodes).
            pos = Position(node.own, node.opp, node.last, node.placed_own, node.placed_opp)
            after, status = apply(donuts, single, pos, sq)
            child = tree.node_count[g]
            tree.node_count[g] = child + 1
            _clear_node(tree, g, child)
            tree.children[g, index, sq] = child
            new = tree.nodes[g, child]
            new.own = after.own
            new.opp = after.opp
            new.last = after.last
            new.placed_own = after.placed_own
            new.placed_opp = after.placed_opp
            tree.path[g, length] = child
            length += 1
            tree.path_length[g] = length
            if is_over(status):
                new.color = node.color
                new.over = True
                new.legal = _ZERO
                value = placer_value(status)
                new.outcome = value if node.color == 0 else -value
                _backup(tree, g, new.outcome)
            else:
                new.color = node.color if status == MOVES_AGAIN else 1 - node.color
                new.legal = legal_mask(after.own, after.opp, after.last, line_masks[g])
                tree.leaf[g] = child
            break


@njit(cache=True)
def write_leaf_planes(tree: Tree, line_masks: npt.NDArray[np.uint64], directions: npt.NDArray[np.int8], donuts: int,
                      out: npt.NDArray[np.float32]) -> None:
    """The observation planes of every game's leaf, seen by its side to move, into ``out``
    (``float32[G, 36, NUM_PLANES]``, a view of ``(G, 6, 6, NUM_PLANES)``); zeros for a game
    without a leaf (its row is evaluated and ignored: the batch keeps one shape)."""
    for g in range(tree.nodes.shape[0]):
        leaf = tree.leaf[g]
        if leaf == NONE:
            out[g] = 0.0
            continue
        node = tree.nodes[g, leaf]
        forced = forced_line(_FULL & ~(node.own | node.opp), node.last, line_masks[g])
        seen = mover_view(node.own, node.opp, node.last, forced, node.placed_own, node.placed_opp, node.color, donuts)
        _write_planes(out[g], seen, directions[g])


@njit(cache=True)
def expand(tree: Tree, logits: npt.NDArray[np.float32], values: npt.NDArray[np.float32], noise: npt.NDArray[np.float32],
           noise_fraction: float) -> None:
    """Give every game's leaf the network's answer: its priors, the softmax of ``logits[g]``
    (``float32[G, 36]``) over the leaf's legal squares, mixed with ``noise[g]`` (a
    distribution over the legal squares) as ``(1 - noise_fraction) * P + noise_fraction *
    noise`` when the leaf is the root; and its value ``values[g]`` (for the leaf's side to
    move), backed up along the path."""
    for g in range(tree.nodes.shape[0]):
        leaf = tree.leaf[g]
        if leaf == NONE:
            continue
        node = tree.nodes[g, leaf]
        legal = node.legal
        top = NO_SCORE
        for sq in range(NUM_SQUARES):
            if (legal >> np.uint64(sq)) & _ONE and logits[g, sq] > top:
                top = logits[g, sq]
        total = 0.0
        for sq in range(NUM_SQUARES):
            if (legal >> np.uint64(sq)) & _ONE:
                p = math.exp(logits[g, sq] - top)
                tree.prior[g, leaf, sq] = p
                total += p
        for sq in range(NUM_SQUARES):
            p = tree.prior[g, leaf, sq] / total
            if leaf == 0 and noise_fraction > 0.0:
                p = (1.0 - noise_fraction) * p + noise_fraction * noise[g, sq]
            tree.prior[g, leaf, sq] = p
        value = values[g] if node.color == 0 else -values[g]
        _backup(tree, g, value)
        tree.leaf[g] = NONE


@njit(cache=True)
def root_visits(tree: Tree, out: npt.NDArray[np.float32]) -> None:
    """The visits of each root child into ``out`` (``float32[G, 36]``; zeros for a game
    without a root)."""
    for g in range(tree.nodes.shape[0]):
        for sq in range(NUM_SQUARES):
            child = tree.children[g, 0, sq]
            out[g, sq] = 0.0 if child == NONE or tree.node_count[g] == 0 else tree.nodes[g, child].visits


@njit(cache=True)
def root_values(tree: Tree, out: npt.NDArray[np.float32]) -> None:
    """The mean value of each visited root child for the root's side to move into ``out``
    (``float32[G, 36]``; NaN for a child not visited)."""
    for g in range(tree.nodes.shape[0]):
        sign = 1.0 if tree.nodes[g, 0].color == 0 else -1.0
        for sq in range(NUM_SQUARES):
            child = tree.children[g, 0, sq]
            out[g, sq] = np.nan
            if child != NONE and tree.node_count[g] > 0:
                n = tree.nodes[g, child].visits
                if n > 0:
                    out[g, sq] = sign * tree.nodes[g, child].value / n


@njit(cache=True)
def write_root_planes(roots: np.ndarray, donuts: int, out: npt.NDArray[np.float32]) -> None:
    """The observation planes of every root record (see :func:`start`), seen by its side to
    move, into ``out`` (``float32[G, 36, NUM_PLANES]``)."""
    for g in range(roots.shape[0]):
        root = roots[g]
        forced = forced_line(_FULL & ~(root.own | root.opp), root.last, root.line_masks)
        seen = mover_view(root.own, root.opp, root.last, forced, root.placed_own, root.placed_opp, root.color, donuts)
        _write_planes(out[g], seen, root.directions)
