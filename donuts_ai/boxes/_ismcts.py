"""Single-observer information-set MCTS for Donut Boxes, compiled (private).

One tree per move, for the player to move (the *observer*), over the moves every player
makes (Cowling, Powley and Whitehouse 2012, SO-ISMCTS). Every iteration:

1. **Determinise**: copy the base world (a sample consistent with the observer's
   observation) and deal every card the observer cannot see afresh
   (:func:`~._search.redeal_hidden`).
2. **Select** down the tree among the children whose move is legal in this world, by
   UCB1 with the child's *availability* (how often it could have been chosen) in place
   of the parent's visits, on the mover's own mean reward; every such child's
   availability grows by one.
3. **Expand** one move legal in this world with no child yet: at the root the next of
   the root moves in the order given (the agent orders them; progressive widening lets
   the root hold ``widen_base + widen_factor * sqrt(visits)`` children at most, all of
   them when ``widen_factor`` is negative), below
   it one drawn uniformly.
4. **Play out** to the end with uniformly random legal moves (the engine's compiled
   :func:`~._engine.random_move`).
5. **Back up** the vector of every player's reward (:func:`~._search.rewards`) along the
   path: each node keeps the sum for every player, and the player who moves into a child
   reads their own entry, so the tree serves a free-for-all of any size.

Moves are the engine's codes, which name a move the same way in every world, so a child
found in one determinisation is the same move in the next. The tree is one :class:`Tree`
record of plain arrays the Python side sizes (one node per iteration at most), a call's
settings one :class:`Settings` record; the kernels never raise.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from . import _engine as E
from ._engine.tables import Codes, Grid, Tables
from ._search import copy_into, redeal_hidden, rewards

# The columns of Tree.nodes: the move into the node, its parent, first child, next sibling,
# visits, availability, the player who made the move, children so far.
N_MOVE, N_PARENT, N_CHILD, N_SIBLING, N_VISITS, N_AVAIL, N_MOVER, N_NCHILD = range(8)
NFIELDS = 8
NONE = -1
ROOT = 0
#: Tree.used index of the count of nodes in use.
USED = 0


class Tree(NamedTuple):
    """The search tree: ``capacity`` nodes, the root at :data:`ROOT`, children linked as a
    list from ``N_CHILD`` through ``N_SIBLING`` (newest first)."""

    nodes: NDArray[np.int64]  # int64[capacity, NFIELDS]: N_MOVE .. N_NCHILD of every node
    values: NDArray[np.float64]  # float64[capacity, players]: every player's reward summed through the node
    used: NDArray[np.int64]  # int64[1]: nodes in use, at USED


class Settings(NamedTuple):
    """What one :func:`search` call does (see the module doc)."""

    observer: int  # the player to move at the root, who sees their own cards
    iterations: int
    seed: int  # np.random is seeded from it
    exploration: float  # UCB1's constant
    reward_kind: int  # REWARD_RANK or REWARD_SCORE (:mod:`._search`)
    widen_base: float  # the root holds widen_base + widen_factor * sqrt(visits) children at most,
    widen_factor: float  # all of them when widen_factor < 0


def new_tree(capacity: int, players: int) -> Tree:
    """A tree of ``capacity`` nodes holding only the root."""
    tree = Tree(np.zeros((capacity, NFIELDS), np.int64), np.zeros((capacity, players), np.float64),
                np.zeros(1, np.int64))
    clear(tree)
    return tree


@njit(cache=True)
def clear(tree: Tree) -> None:
    """Empty the tree down to a fresh root."""
    nodes = tree.nodes
    nodes[ROOT, :] = 0
    nodes[ROOT, N_MOVE] = NONE
    nodes[ROOT, N_PARENT] = NONE
    nodes[ROOT, N_CHILD] = NONE
    nodes[ROOT, N_SIBLING] = NONE
    nodes[ROOT, N_MOVER] = NONE
    tree.values[ROOT, :] = 0.0
    tree.used[USED] = 1


def grow(tree: Tree, capacity: int) -> Tree:
    """The tree copied into arrays of ``capacity`` nodes (itself when it has as many)."""
    nodes, values = tree.nodes, tree.values
    if capacity <= nodes.shape[0]:
        return tree
    new_nodes = np.zeros((capacity, NFIELDS), np.int64)
    new_values = np.zeros((capacity, values.shape[1]), np.float64)
    new_nodes[: nodes.shape[0]] = nodes
    new_values[: values.shape[0]] = values
    return Tree(new_nodes, new_values, tree.used)


@njit(cache=True, inline="always")
def _add_child(tree: Tree, parent: int, code: int, mover: int) -> int:
    nodes = tree.nodes
    child: int = tree.used[USED]
    tree.used[USED] = child + 1
    nodes[child, N_MOVE] = code
    nodes[child, N_PARENT] = parent
    nodes[child, N_CHILD] = NONE
    nodes[child, N_SIBLING] = nodes[parent, N_CHILD]
    nodes[child, N_VISITS] = 0
    nodes[child, N_AVAIL] = 1
    nodes[child, N_MOVER] = mover
    nodes[child, N_NCHILD] = 0
    tree.values[child, :] = 0.0
    nodes[parent, N_CHILD] = child
    nodes[parent, N_NCHILD] += 1
    return child


@njit(cache=True, inline="always")
def _ucb(nodes: NDArray[np.int64], values: NDArray[np.float64], child: int, exploration: float) -> float:
    visits = nodes[child, N_VISITS]
    mean: float = values[child, nodes[child, N_MOVER]] / visits
    return mean + exploration * math.sqrt(math.log(nodes[child, N_AVAIL]) / visits)


@njit(cache=True, inline="always")
def _select_root(tree: Tree, root_moves: Codes, settings: Settings) -> tuple[int, int]:
    """``(best child, move to expand)`` at the root, one of them NONE: the next root move
    while widening allows one more child, else the UCB1 pick (every root move is legal in
    every world)."""
    nodes, values = tree.nodes, tree.values
    n_root = root_moves.size
    if settings.widen_factor < 0:
        allowed: float = n_root
    else:
        allowed = settings.widen_base + settings.widen_factor * math.sqrt(nodes[ROOT, N_VISITS])
    have = nodes[ROOT, N_NCHILD]
    if have < n_root and have < allowed:
        return NONE, root_moves[have]
    best, best_value = NONE, -np.inf
    child = nodes[ROOT, N_CHILD]
    while child != NONE:
        nodes[child, N_AVAIL] += 1
        value = _ucb(nodes, values, child, settings.exploration)
        if value > best_value:
            best, best_value = child, value
        child = nodes[child, N_SIBLING]
    return best, NONE


@njit(cache=True, inline="always")
def _select_below(tree: Tree, node: int, work: Tables, wgrid: Grid, exploration: float) -> tuple[int, int]:
    """``(best child, move to expand)`` below the root among the moves legal in this world:
    the UCB1 pick among the children, and a move with no child yet drawn uniformly (NONE
    when every legal move has one)."""
    nodes, values = tree.nodes, tree.values
    legal = E.legal_codes(work, wgrid)
    seen = np.zeros(legal.size, np.bool_)
    n_seen = 0
    best, best_value = NONE, -np.inf
    child = nodes[node, N_CHILD]
    while child != NONE:
        k = np.searchsorted(legal, nodes[child, N_MOVE])
        if k < legal.size and legal[k] == nodes[child, N_MOVE]:
            seen[k] = True
            n_seen += 1
            nodes[child, N_AVAIL] += 1
            value = _ucb(nodes, values, child, exploration)
            if value > best_value:
                best, best_value = child, value
        child = nodes[child, N_SIBLING]
    untried = legal.size - n_seen
    if untried > 0:
        pick = np.random.randint(0, untried)
        for k in range(legal.size):
            if not seen[k]:
                if pick == 0:
                    return best, legal[k]
                pick -= 1
    return best, NONE


@njit(cache=True)
def search(tree: Tree, t: Tables, grid: Grid, work: Tables, root_moves: Codes, settings: Settings) -> None:
    """Run ``settings.iterations`` iterations (see the module doc) on the tree, from the base
    world ``(t, grid)`` where ``settings.observer`` is to move and ``root_moves`` (the
    observer's legal moves, in the order the root expands them) are legal. ``work`` is
    scratch tables for the same players; ``t`` and ``grid`` are unchanged. The tree must
    have room for ``settings.iterations`` more nodes."""
    np.random.seed(settings.seed)
    nodes, values = tree.nodes, tree.values
    players = t.meta[0].players
    reward = np.empty(players, np.float64)
    path = np.empty(tree.used[USED] + settings.iterations + 1, np.int64)  # a path holds nodes, old or new
    for _ in range(settings.iterations):
        copy_into(work, t)
        wgrid = grid.copy()
        redeal_hidden(work, settings.observer)
        node = ROOT
        depth = 0
        path[0] = ROOT
        expanded = False
        while work.meta[0].over == 0 and not expanded:
            mover = work.meta[0].to_move
            if node == ROOT:
                best, code = _select_root(tree, root_moves, settings)
            else:
                best, code = _select_below(tree, node, work, wgrid, settings.exploration)
            if code != NONE:
                best = _add_child(tree, node, code, mover)
                expanded = True
            wgrid, _, _ = E.apply_move(work, wgrid, nodes[best, N_MOVE])
            node = best
            depth += 1
            path[depth] = node
        while work.meta[0].over == 0:
            wgrid, _, _ = E.apply_move(work, wgrid, E.random_move(work, wgrid))
        rewards(work.pinfo, players, settings.reward_kind, reward)
        for d in range(depth + 1):
            n = path[d]
            nodes[n, N_VISITS] += 1
            for q in range(players):
                values[n, q] += reward[q]


@njit(cache=True)
def root_stats(tree: Tree, observer: int) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
    """``(moves, visits, mean rewards of the observer)`` of the root's children."""
    nodes, values = tree.nodes, tree.values
    n = nodes[ROOT, N_NCHILD]
    moves = np.empty(n, np.int64)
    visits = np.empty(n, np.int64)
    means = np.empty(n, np.float64)
    child = nodes[ROOT, N_CHILD]
    k = 0
    while child != NONE:
        moves[k] = nodes[child, N_MOVE]
        visits[k] = nodes[child, N_VISITS]
        means[k] = values[child, observer] / max(1, visits[k])
        child = nodes[child, N_SIBLING]
        k += 1
    return moves, visits, means
