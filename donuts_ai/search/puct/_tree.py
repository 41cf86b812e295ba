"""PUCT search for many games at once, in preallocated arrays: AlphaZero's search with the
tree compiled, the game's rules passed in, and the network called by the Python driver
on a batch (``donuts_ai.learn.batched_search``).

A :class:`Tree` holds one search tree per game (``games`` trees of ``nodes`` nodes), as
mctx's ``Tree`` holds a batch: a named structure of arrays (the convention of
:mod:`donuts_ai.search`). A node keeps its game state (``states``, a record array of
the game's own dtype, never read here), the player to move (0 or 1), its legal actions
as bits, its visits and summed value, its own evaluation (``raw_value``: the network's,
or the outcome; Gumbel's mixed value reads it, :mod:`._gumbel`), and, for a node where
the game is over (or that the game settles exactly, if its ``step`` says so), its
outcome. Children are dense, as in mctx: ``children[g, node, action]`` is the child's
index (-1 while not created) and ``prior[g, node, action]`` the network's probability of
that action. Values are kept **for player 0**, so a player who moves twice in a row needs
no special case: the player to move at a node reads ``+value`` if it is player 0,
``-value`` else.

The game comes in as a :class:`Game` record of its compiled functions; its ``rules`` (any
value, such as per-game tables) are passed through to them. Numba compiles the kernels
once per game; the game's module binds them in kernels of its own, which are cached.

One round of the search, for every game at once::

    simulate          descend by PUCT from the root to an action not yet tried; create
                      that child (game.step); a finished game backs its outcome up at
                      once, else the child becomes the game's leaf
    (the driver)      the leaves' observations, one network call on the whole batch
    expand            the network's priors (softmax over the legal actions) and value
                      for each leaf, backed up

:func:`start` makes each root a leaf, so the first round evaluates the roots (and mixes
the root's Dirichlet noise into its priors). A tree of ``N`` nodes takes ``N - 1``
simulations: each adds at most one node. Kernels never raise: the driver checks first.
Gumbel's search (:mod:`._gumbel`) runs the same rounds on the same trees with other
rules of selection.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from ..._bits import ctz

_ZERO = np.uint64(0)
_ONE = np.uint64(1)

#: ``children`` of an action not tried yet; ``leaf`` of a game with nothing to evaluate.
NONE = -1
#: Longest path from a root: a game has at most 2 * 36 placements, plus room.
MAX_DEPTH = 80
#: Below every PUCT score.
NO_SCORE = -1e30


class Tree(NamedTuple):
    """The search trees of ``games`` games, ``nodes`` nodes each (node 0 is the root), over
    ``actions`` actions (at most 64: legal actions are bits)."""

    states: np.ndarray  # game's dtype [games, nodes]: each node's game state (written and read by the game only)
    player: npt.NDArray[np.int64]  # int64[games, nodes]: the player to move (for a finished game: the last mover)
    legal: npt.NDArray[np.uint64]  # uint64[games, nodes]: bit a set when action a is legal (0 once the game is over)
    over: npt.NDArray[np.bool_]  # bool[games, nodes]: the game is over at this node
    outcome: npt.NDArray[np.float32]  # float32[games, nodes]: a finished game's result for player 0: +1, 0, -1
    visits: npt.NDArray[np.int32]  # int32[games, nodes]
    value: npt.NDArray[np.float32]  # float32[games, nodes]: summed values backed up through the node, for player 0
    raw_value: npt.NDArray[np.float32]  # float32[games, nodes]: the node's own evaluation (the network's, or its exact value) for player 0
    children: npt.NDArray[np.int32]  # int32[games, nodes, actions]: child index of each action, NONE if not created
    prior: npt.NDArray[np.float32]  # float32[games, nodes, actions]: the network's probabilities (0 off the legal actions)
    node_count: npt.NDArray[np.int32]  # int32[games]: nodes in use
    path: npt.NDArray[np.int32]  # int32[games, MAX_DEPTH]: the nodes of the last descent, root first
    path_length: npt.NDArray[np.int32]  # int32[games]
    leaf: npt.NDArray[np.int32]  # int32[games]: the node to evaluate this round, NONE if none


class Game(NamedTuple):
    """A game's compiled functions (Numba ``@njit`` functions); ``rules`` is whatever the
    caller passes to :func:`start` and :func:`simulate`."""

    # (rules, roots, g, states, node) -> (player, legal bits): root g's state into states[node]
    root: Callable[..., Any]
    # (rules, g, states, parent, child, player, action) -> (over, player, legal bits, outcome for
    # player 0): the state after ``player`` plays ``action`` at states[parent] into states[child];
    # the player to move after it (when over: the one who moved), legal: 0 and outcome: the
    # result when over
    step: Callable[..., Any]


def new_tree(games: int, nodes: int, actions: int, state_dtype: np.dtype[Any]) -> Tree:
    """Arrays for ``games`` trees of ``nodes`` nodes over ``actions`` actions (at most 64),
    the game states records of ``state_dtype``."""
    shape = (games, nodes)
    return Tree(
        np.zeros(shape, dtype=state_dtype),
        np.zeros(shape, dtype=np.int64),
        np.zeros(shape, dtype=np.uint64),
        np.zeros(shape, dtype=np.bool_),
        np.zeros(shape, dtype=np.float32),
        np.zeros(shape, dtype=np.int32),
        np.zeros(shape, dtype=np.float32),
        np.zeros(shape, dtype=np.float32),
        np.full((games, nodes, actions), NONE, dtype=np.int32),
        np.zeros((games, nodes, actions), dtype=np.float32),
        np.zeros(games, dtype=np.int32),
        np.zeros((games, MAX_DEPTH), dtype=np.int32),
        np.zeros(games, dtype=np.int32),
        np.full(games, NONE, dtype=np.int32),
    )


@njit(cache=True)
def _clear_node(tree: Tree, g: int, index: int) -> None:
    tree.children[g, index, :] = NONE
    tree.prior[g, index, :] = 0.0
    tree.visits[g, index] = 0
    tree.value[g, index] = 0.0
    tree.raw_value[g, index] = 0.0
    tree.over[g, index] = False
    tree.outcome[g, index] = 0.0


@njit(cache=True)
def start(game: Game, rules: Any, tree: Tree, roots: Any, active: npt.NDArray[np.bool_]) -> None:
    """A new search in every active game ``g`` (``active[g]``) from root ``g`` of ``roots``
    (read by ``game.root`` only; never a finished game): the root is its game's leaf, to
    be evaluated first. Inactive games get no leaf."""
    for g in range(active.shape[0]):
        tree.leaf[g] = NONE
        tree.node_count[g] = 0
        if not active[g]:
            continue
        _clear_node(tree, g, 0)
        tree.player[g, 0], tree.legal[g, 0] = game.root(rules, roots, g, tree.states[g], 0)
        tree.node_count[g] = 1
        tree.path[g, 0] = 0
        tree.path_length[g] = 1
        tree.leaf[g] = 0


# The hot kernels read each field of the tree once and pass the helpers the arrays they
# use, inlined: Numba counts a reference on every read of an array from a tuple.
@njit(cache=True, inline="always")
def _backup(path: npt.NDArray[np.int32], length: int, visits: npt.NDArray[np.int32], total: npt.NDArray[np.float32], g: int,
            value: float) -> None:
    """Add one visit and ``value`` (for player 0) to every node on game ``g``'s path."""
    for i in range(length):
        node = path[g, i]
        visits[g, node] += 1
        total[g, node] += value


@njit(cache=True, inline="always")
def _select(player: npt.NDArray[np.int64], legal_bits: npt.NDArray[np.uint64], visits: npt.NDArray[np.int32],
            total: npt.NDArray[np.float32], children: npt.NDArray[np.int32], prior: npt.NDArray[np.float32], g: int, index: int,
            c_puct: float) -> int:
    """The action PUCT picks at node ``index`` of game ``g``: the legal action with the
    largest ``Q + c_puct * P * sqrt(N) / (1 + n)``, ``Q`` the child's mean value for the
    player to move (0 for a child not visited yet, a draw's value)."""
    sign = 1.0 if player[g, index] == 0 else -1.0
    explore = c_puct * math.sqrt(max(visits[g, index], 1))
    legal = legal_bits[g, index]
    best, best_score = NONE, NO_SCORE
    while legal != _ZERO:
        action = int(ctz(legal))
        legal &= legal - _ONE
        child = children[g, index, action]
        q, n = 0.0, 0
        if child != NONE:
            n = visits[g, child]
            if n > 0:
                q = sign * total[g, child] / n
        score = q + explore * prior[g, index, action] / (1 + n)
        if score > best_score:
            best, best_score = action, score
    return best


@njit(cache=True)
def simulate(game: Game, rules: Any, tree: Tree, c_puct: float) -> None:
    """One descent in every game that has a root: to an action not tried yet, whose child
    is created; a finished game's outcome is backed up at once (the game has no leaf this
    round), any other child becomes the game's leaf."""
    players, legal_bits, over_at, outcome_at = tree.player, tree.legal, tree.over, tree.outcome
    visits, total, children, prior = tree.visits, tree.value, tree.children, tree.prior
    node_count, path, path_length, leaf = tree.node_count, tree.path, tree.path_length, tree.leaf
    for g in range(visits.shape[0]):
        leaf[g] = NONE
        if node_count[g] == 0:
            continue
        index = 0
        length = 1
        path[g, 0] = 0
        while True:
            if over_at[g, index]:
                path_length[g] = length
                _backup(path, length, visits, total, g, outcome_at[g, index])
                break
            action = _select(players, legal_bits, visits, total, children, prior, g, index, c_puct)
            child = children[g, index, action]
            if child != NONE and length < MAX_DEPTH:
                index = child
                path[g, length] = index
                length += 1
                continue
            _new_child(game, rules, tree, g, index, action, length)
            break


@njit(cache=True, inline="always")
def _new_child(game: Game, rules: Any, tree: Tree, g: int, index: int, action: int, length: int) -> None:
    """Create the child of ``action`` at node ``index`` of game ``g`` (the tree has room:
    ``N - 1`` simulations add at most ``N - 1`` nodes), at depth ``length`` of the path; a
    finished game backs its outcome up at once, any other child becomes the game's leaf."""
    states, players, legal_bits, over_at, outcome_at = tree.states, tree.player, tree.legal, tree.over, tree.outcome
    visits, total, raw_value, children, prior = tree.visits, tree.value, tree.raw_value, tree.children, tree.prior
    node_count, path, path_length, leaf = tree.node_count, tree.path, tree.path_length, tree.leaf
    child = node_count[g]
    node_count[g] = child + 1
    children[g, child, :] = NONE
    prior[g, child, :] = 0.0
    visits[g, child] = 0
    total[g, child] = 0.0
    raw_value[g, child] = 0.0
    over_at[g, child] = False
    outcome_at[g, child] = 0.0
    children[g, index, action] = child
    over, player, legal, outcome = game.step(rules, g, states[g], index, child, players[g, index], action)
    players[g, child] = player
    legal_bits[g, child] = legal
    path[g, length] = child
    length += 1
    path_length[g] = length
    if over:
        over_at[g, child] = True
        outcome_at[g, child] = outcome
        raw_value[g, child] = outcome
        _backup(path, length, visits, total, g, outcome)
    else:
        leaf[g] = child


@njit(cache=True)
def expand(tree: Tree, logits: npt.NDArray[np.float32], values: npt.NDArray[np.float32], noise: npt.NDArray[np.float32],
           noise_fraction: float) -> None:
    """Give every game's leaf the network's answer: its priors, the softmax of ``logits[g]``
    (``float32[games, actions]``) over the leaf's legal actions, mixed with ``noise[g]`` (a
    distribution over the legal actions) as ``(1 - noise_fraction) * P + noise_fraction *
    noise`` when the leaf is the root; and its value ``values[g]`` (for the leaf's player
    to move), backed up along the path."""
    prior = tree.prior
    actions = prior.shape[2]
    for g in range(tree.visits.shape[0]):
        leaf = tree.leaf[g]
        if leaf == NONE:
            continue
        legal = tree.legal[g, leaf]
        top = NO_SCORE
        for a in range(actions):
            if (legal >> np.uint64(a)) & _ONE and logits[g, a] > top:
                top = logits[g, a]
        total = 0.0
        for a in range(actions):
            if (legal >> np.uint64(a)) & _ONE:
                p = math.exp(logits[g, a] - top)
                prior[g, leaf, a] = p
                total += p
        for a in range(actions):
            p = prior[g, leaf, a] / total
            if leaf == 0 and noise_fraction > 0.0:
                p = (1.0 - noise_fraction) * p + noise_fraction * noise[g, a]
            prior[g, leaf, a] = p
        value = values[g] if tree.player[g, leaf] == 0 else -values[g]
        tree.raw_value[g, leaf] = value
        _backup(tree.path, tree.path_length[g], tree.visits, tree.value, g, value)
        tree.leaf[g] = NONE


@njit(cache=True)
def expand_root_children(tree: Tree, games: npt.NDArray[np.int64], nodes: npt.NDArray[np.int64], count: int,
                         logits: npt.NDArray[np.float32], values: npt.NDArray[np.float32]) -> None:
    """:func:`expand` (no noise) of ``count`` children of roots at once: node ``nodes[i]`` of
    game ``games[i]`` gets the answer of row ``i`` of ``logits`` and ``values``, backed up to
    itself and its root."""
    prior = tree.prior
    actions = prior.shape[2]
    for i in range(count):
        g, node = games[i], nodes[i]
        legal = tree.legal[g, node]
        top = NO_SCORE
        for a in range(actions):
            if (legal >> np.uint64(a)) & _ONE and logits[i, a] > top:
                top = logits[i, a]
        total = 0.0
        for a in range(actions):
            if (legal >> np.uint64(a)) & _ONE:
                p = math.exp(logits[i, a] - top)
                prior[g, node, a] = p
                total += p
        for a in range(actions):
            prior[g, node, a] = prior[g, node, a] / total
        value = values[i] if tree.player[g, node] == 0 else -values[i]
        tree.raw_value[g, node] = value
        for index in (node, 0):
            tree.visits[g, index] += 1
            tree.value[g, index] += value


@njit(cache=True)
def root_visits(tree: Tree, out: npt.NDArray[np.float32]) -> None:
    """The visits of each root child into ``out`` (``float32[games, actions]``; zeros for a
    game without a root)."""
    for g in range(tree.visits.shape[0]):
        for a in range(tree.children.shape[2]):
            child = tree.children[g, 0, a]
            out[g, a] = 0.0 if child == NONE or tree.node_count[g] == 0 else tree.visits[g, child]


@njit(cache=True)
def root_values(tree: Tree, out: npt.NDArray[np.float32]) -> None:
    """The mean value of each visited root child for the root's player to move into ``out``
    (``float32[games, actions]``; NaN for a child not visited)."""
    for g in range(tree.visits.shape[0]):
        sign = 1.0 if tree.player[g, 0] == 0 else -1.0
        for a in range(tree.children.shape[2]):
            child = tree.children[g, 0, a]
            out[g, a] = np.nan
            if child != NONE and tree.node_count[g] > 0:
                n = tree.visits[g, child]
                if n > 0:
                    out[g, a] = sign * tree.value[g, child] / n
