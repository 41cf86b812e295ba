"""Single-observer information-set MCTS, compiled, for any game that gives its kernels.

One tree per move, for the player to move (the *observer*), over the moves every player
makes (Cowling, Powley and Whitehouse 2012, SO-ISMCTS). Every iteration deals a world
consistent with the observer's observation (``game.deal``), selects down the tree among
the children legal in that world by UCB1 with availability counts, expands one legal move,
plays out to the end (``game.playout``) and backs up every player's reward
(``game.rewards``), so the tree serves a free-for-all of any size (the steps in detail are
the comment above :func:`search`).

The game comes in as an :class:`ISMCTSGame` record of its compiled functions (Numba
compiles :func:`search` once per game; the game's module binds it in a cached kernel of its
own), so this module imports no game. Moves are the game's integer codes, which must name
a move the same way in every world. The tree is one :class:`ISMCTSTree` record of plain
arrays (the convention of :mod:`donuts_ai.search`) the Python side sizes (one node per
iteration at most), a call's settings one :class:`ISMCTSSettings` record; the kernels never
raise. Random draws use ``np.random``, seeded by :func:`search`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from .._nodes import NONE, ROOT
from .._selection import ucb1


class ISMCTSTree(NamedTuple):
    """The search tree: ``nodes`` nodes (the capacity), the root at :data:`ROOT`, children
    linked as a list from ``first_child`` through ``sibling`` (newest first)."""

    move: NDArray[np.int64]  # int64[nodes]: the game's code of the move into the node (NONE at the root)
    parent: NDArray[np.int64]  # int64[nodes]: NONE at the root
    first_child: NDArray[np.int64]  # int64[nodes]: the newest child, NONE if none
    sibling: NDArray[np.int64]  # int64[nodes]: the next older child of the same parent, NONE if none
    visits: NDArray[np.int64]  # int64[nodes]: iterations through the node
    availability: NDArray[np.int64]  # int64[nodes]: iterations in which its move was legal at its parent
    mover: NDArray[np.int64]  # int64[nodes]: the player who made the move into the node (NONE at the root)
    child_count: NDArray[np.int64]  # int64[nodes]: children so far
    value_sum: NDArray[np.float64]  # float64[nodes, players]: every player's rewards summed through the node
    node_count: NDArray[np.int64]  # int64[1]: nodes in use


class ISMCTSSettings(NamedTuple):
    """What one :func:`search` call does (see the module doc)."""

    observer: int  # the player to move at the root, who sees their own cards
    iterations: int
    seed: int  # np.random is seeded from it
    exploration: float  # UCB1's constant
    reward_kind: int  # passed to game.rewards
    widen_base: float  # the root holds widen_base + widen_factor * sqrt(visits) children at most,
    widen_factor: float  # all of them when widen_factor < 0


class ISMCTSGame(NamedTuple):
    """A game's compiled functions (Numba ``@njit`` functions). ``world`` is the base world
    :func:`search` gets (opaque here), ``state`` a determinised world the game's functions
    pass along (``step`` and ``playout`` may return a new one). A move is the game's
    integer code (the same move in every world), not a bit."""

    deal: Callable[..., Any]  # (world, scratch, observer) -> state: a determinisation, drawn with np.random
    to_move: Callable[..., Any]  # (state) -> int: the player to move, NONE once the game is over
    legal: Callable[..., Any]  # (state) -> int64[k]: the legal moves' codes, ascending
    step: Callable[..., Any]  # (state, code) -> state: the move played
    playout: Callable[..., Any]  # (state) -> state: played to the end
    rewards: Callable[..., Any]  # (state, reward_kind, out float64[players]) -> None: a finished game's rewards


def new_tree(capacity: int, players: int) -> ISMCTSTree:
    """A tree of ``capacity`` nodes holding only the root.

    Args:
        capacity: the nodes it has room for.
        players: the players whose rewards each node sums.
    """
    tree = _zeros(capacity, players, 1)
    clear(tree)
    return tree


#: The integer node fields of :class:`ISMCTSTree`.
INT_FIELDS = 8


def _zeros(capacity: int, players: int, node_count: int) -> ISMCTSTree:
    # The integer fields are the columns of one (capacity, INT_FIELDS) block: a node's fields
    # share a cache line, and separate arrays of the same size would sit at addresses 4 KiB
    # apart, whose same index the cache maps to the same set (measured: some processes ran
    # the search a quarter slower).
    block = np.zeros((capacity, INT_FIELDS), np.int64)
    c = [block[:, k] for k in range(INT_FIELDS)]
    return ISMCTSTree(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], np.zeros((capacity, players), np.float64),
                np.full(1, node_count, np.int64))


@njit(cache=True)
def clear(tree: ISMCTSTree) -> None:
    """Empty the tree down to a fresh root.

    Args:
        tree: the tree.
    """
    tree.move[ROOT] = NONE
    tree.parent[ROOT] = NONE
    tree.first_child[ROOT] = NONE
    tree.sibling[ROOT] = NONE
    tree.visits[ROOT] = 0
    tree.availability[ROOT] = 0
    tree.mover[ROOT] = NONE
    tree.child_count[ROOT] = 0
    tree.value_sum[ROOT, :] = 0.0
    tree.node_count[0] = 1


def capacity(tree: ISMCTSTree) -> int:
    """The nodes the tree has room for.

    Args:
        tree: the tree.
    """
    return int(tree.visits.shape[0])


def grow(tree: ISMCTSTree, nodes: int) -> ISMCTSTree:
    """The tree copied into arrays of ``nodes`` nodes (itself when it has as many).

    Args:
        tree: the tree.
        nodes: the room wanted.
    """
    if nodes <= capacity(tree):
        return tree
    new = _zeros(nodes, tree.value_sum.shape[1], int(tree.node_count[0]))
    for old_field, new_field in zip(tree[:-1], new[:-1], strict=True):
        new_field[: old_field.shape[0]] = old_field
    return new


@njit(cache=True, inline="always")
def _add_child(tree: ISMCTSTree, parent: int, code: int, mover: int) -> int:
    child: int = tree.node_count[0]
    tree.node_count[0] = child + 1
    tree.move[child] = code
    tree.parent[child] = parent
    tree.first_child[child] = NONE
    tree.sibling[child] = tree.first_child[parent]
    tree.visits[child] = 0
    tree.availability[child] = 1
    tree.mover[child] = mover
    tree.child_count[child] = 0
    tree.value_sum[child, :] = 0.0
    tree.first_child[parent] = child
    tree.child_count[parent] += 1
    return child


# The selection reads the node fields it uses from the tree once a step and passes them
# on, inlined: Numba counts a reference on every read of an array from a tuple.
@njit(cache=True, inline="always")
def _ucb(visits: NDArray[np.int64], value_sum: NDArray[np.float64], mover: NDArray[np.int64], availability: NDArray[np.int64],
         child: int, exploration: float) -> float:
    return ucb1(value_sum[child, mover[child]], visits[child], math.log(availability[child]), exploration)


@njit(cache=True, inline="always")
def _select_root(tree: ISMCTSTree, root_moves: NDArray[np.int64], settings: ISMCTSSettings) -> tuple[int, int]:
    """``(best child, move to expand)`` at the root, one of them NONE: the next root move
    while widening allows one more child, else the UCB1 pick (every root move is legal in
    every world)."""
    n_root = root_moves.size
    if settings.widen_factor < 0:
        allowed: float = n_root
    else:
        allowed = settings.widen_base + settings.widen_factor * math.sqrt(tree.visits[ROOT])
    have = tree.child_count[ROOT]
    if have < n_root and have < allowed:
        return NONE, root_moves[have]
    visits, value_sum, mover, availability, sibling = tree.visits, tree.value_sum, tree.mover, tree.availability, tree.sibling
    best, best_value = NONE, -np.inf
    child = tree.first_child[ROOT]
    while child != NONE:
        availability[child] += 1
        value = _ucb(visits, value_sum, mover, availability, child, settings.exploration)
        if value > best_value:
            best, best_value = child, value
        child = sibling[child]
    return best, NONE


@njit(cache=True, inline="always")
def _select_below(tree: ISMCTSTree, node: int, legal: NDArray[np.int64], exploration: float) -> tuple[int, int]:
    """``(best child, move to expand)`` below the root among the ``legal`` moves of this
    world: the UCB1 pick among the children, and a move with no child yet drawn uniformly
    (NONE when every legal move has one)."""
    visits, value_sum, mover, availability, sibling, move = (tree.visits, tree.value_sum, tree.mover, tree.availability,
                                                             tree.sibling, tree.move)
    seen = np.zeros(legal.size, np.bool_)
    n_seen = 0
    best, best_value = NONE, -np.inf
    child = tree.first_child[node]
    while child != NONE:
        k = np.searchsorted(legal, move[child])
        if k < legal.size and legal[k] == move[child]:
            seen[k] = True
            n_seen += 1
            availability[child] += 1
            value = _ucb(visits, value_sum, mover, availability, child, exploration)
            if value > best_value:
                best, best_value = child, value
        child = sibling[child]
    untried = legal.size - n_seen
    if untried > 0:
        pick = np.random.randint(0, untried)
        for k in range(legal.size):
            if not seen[k]:
                if pick == 0:
                    return best, legal[k]
                pick -= 1
    return best, NONE


# Every iteration:
# 1. Determinise: the game deals a world consistent with the observer's observation
#    (game.deal: a copy of the base world with every card the observer cannot see dealt
#    afresh).
# 2. Select down the tree among the children whose move is legal in this world, by UCB1 with
#    the child's availability (how often it could have been chosen) in place of the parent's
#    visits, on the mover's own mean reward; every such child's availability grows by one.
# 3. Expand one move legal in this world with no child yet: at the root the next of the root
#    moves in the order given (the agent orders them; progressive widening lets the root hold
#    widen_base + widen_factor * sqrt(visits) children at most, all of them when widen_factor
#    is negative), below it one drawn uniformly.
# 4. Play out to the end (game.playout).
# 5. Back up the vector of every player's reward (game.rewards) along the path: each node
#    keeps the sum for every player (value_sum), and the node's mover (the player who moved
#    into it) reads their own entry.
# Moves are codes that name a move the same way in every world, so that a child found in one
# determinisation is the same move in the next.
@njit(cache=True)
def search(game: ISMCTSGame, tree: ISMCTSTree, world: Any, scratch: Any, root_moves: NDArray[np.int64],
           settings: ISMCTSSettings) -> None:
    """Run ``settings.iterations`` iterations on the tree (the comment above says what one does).

    Args:
        game: the game's compiled functions.
        tree: the tree, with room for ``settings.iterations`` more nodes.
        world: the base world, where ``settings.observer`` is to move; unchanged.
        scratch: what ``game.deal`` deals into.
        root_moves: the observer's legal moves, in the order the root expands them.
        settings: the iterations, the observer, UCB1's constant and the widening.
    """
    np.random.seed(settings.seed)
    value_sum, visits = tree.value_sum, tree.visits
    players = value_sum.shape[1]
    reward = np.empty(players, np.float64)
    path = np.empty(tree.node_count[0] + settings.iterations + 1, np.int64)  # a path holds nodes, old or new
    for _ in range(settings.iterations):
        state = game.deal(world, scratch, settings.observer)
        node = ROOT
        depth = 0
        path[0] = ROOT
        expanded = False
        mover = game.to_move(state)
        while mover != NONE and not expanded:
            if node == ROOT:
                best, code = _select_root(tree, root_moves, settings)
            else:
                best, code = _select_below(tree, node, game.legal(state), settings.exploration)
            if code != NONE:
                best = _add_child(tree, node, code, mover)
                expanded = True
            state = game.step(state, tree.move[best])
            node = best
            depth += 1
            path[depth] = node
            mover = game.to_move(state)
        state = game.playout(state)
        game.rewards(state, settings.reward_kind, reward)
        for d in range(depth + 1):
            n = path[d]
            visits[n] += 1
            for q in range(players):
                value_sum[n, q] += reward[q]


@njit(cache=True)
def root_stats(tree: ISMCTSTree, observer: int) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
    """The root's children, newest first.

    Args:
        tree: the tree.
        observer: the player whose mean rewards are read.

    Returns:
        ``(moves, visits, mean rewards of the observer)``.
    """
    n = tree.child_count[ROOT]
    moves = np.empty(n, np.int64)
    visits = np.empty(n, np.int64)
    means = np.empty(n, np.float64)
    child = tree.first_child[ROOT]
    k = 0
    while child != NONE:
        moves[k] = tree.move[child]
        visits[k] = tree.visits[child]
        means[k] = tree.value_sum[child, observer] / max(1, visits[k])
        child = tree.sibling[child]
        k += 1
    return moves, visits, means
