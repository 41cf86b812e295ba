"""PUCT search for many games at once, in preallocated arrays: AlphaZero's search with the
tree compiled, the game's rules passed in, and the network called by the Python driver
on a batch (``donuts_ai.learn.batched_search``).

A :class:`PUCTTree` holds one search tree per game, a named structure of arrays (the
convention of :mod:`donuts_ai.search`); values are kept for player 0. The game comes in as
a :class:`PUCTGame` record of its compiled functions, its ``rules`` passed through to them;
an action is a bit index of the ``uint64`` legal mask (at most 64 actions). Numba compiles
the kernels once per game; the game's module binds them in cached kernels of its own.

One round of the search, for every game at once::

    simulate          descend by PUCT from the root to an action not yet tried; create
                      that child (game.step); a finished game backs its outcome up at
                      once, else the child becomes the game's leaf
    (the driver)      the leaves' observations, one network call on the whole batch
    expand            the network's priors and value for each leaf, backed up

:func:`start` makes each root a leaf, so the first round evaluates the roots. Kernels never
raise: the driver checks first. Gumbel's search (:mod:`._gumbel`) runs the same rounds.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from ..._bits import ONE, ZERO, ctz
from .._nodes import NONE, ROOT
from .._selection import masked_softmax_terms

# NONE: ``children`` of an action not tried yet; ``leaf`` of a game with nothing to evaluate.
#: Below every PUCT score.
NO_SCORE = -1e30


# A node keeps its game state (``states``, a record array of the game's own dtype, never read
# here), the player to move at it (``to_move``, 0 or 1), its legal actions as bits, its
# visits and ``value_sum``, its own evaluation (``raw_value``: the network's, or the outcome;
# Gumbel's mixed value reads it), and, for a node where the game is over (or that the game
# settles exactly, if its ``step`` says so), its outcome. Children are dense, as in mctx:
# ``children[g, node, action]`` is the child's index (-1 while not created) and
# ``prior[g, node, action]`` the network's probability of that action. Values are kept for
# player 0, so a player who moves twice in a row needs no special case: the player to move at
# a node reads ``+value`` if it is player 0, ``-value`` else. The game and the network give a
# node's values for its player to move; the tree turns them to player 0's (_for_player0). A
# tree of N nodes takes N - 1 simulations: each adds at most one node, and the longest descent
# is the game's (``path`` is as long as new_tree is told).
class PUCTTree(NamedTuple):
    """The search trees of ``games`` games, ``nodes`` nodes each (node 0 is the root), over
    ``actions`` actions (at most 64: legal actions are bits)."""

    states: np.ndarray  # game's dtype [games, nodes]: each node's game state (written and read by the game only)
    to_move: npt.NDArray[np.int64]  # int64[games, nodes]: the player to move (for a finished game: the last mover)
    legal: npt.NDArray[np.uint64]  # uint64[games, nodes]: bit a set when action a is legal (0 once the game is over)
    over: npt.NDArray[np.bool_]  # bool[games, nodes]: the game is over at this node
    outcome: npt.NDArray[np.float32]  # float32[games, nodes]: a finished game's result for player 0: +1, 0, -1
    visits: npt.NDArray[np.int32]  # int32[games, nodes]: simulations through the node
    value_sum: npt.NDArray[np.float32]  # float32[games, nodes]: summed values backed up through the node, for player 0
    raw_value: npt.NDArray[np.float32]  # float32[games, nodes]: the node's own evaluation (the network's, or its exact value) for player 0
    children: npt.NDArray[np.int32]  # int32[games, nodes, actions]: child index of each action, NONE if not created
    prior: npt.NDArray[np.float32]  # float32[games, nodes, actions]: the network's probabilities (0 off the legal actions)
    node_count: npt.NDArray[np.int32]  # int32[games]: nodes in use
    path: npt.NDArray[np.int32]  # int32[games, path_nodes]: the nodes of the last descent, root first
    path_length: npt.NDArray[np.int32]  # int32[games]: nodes on path
    leaf: npt.NDArray[np.int32]  # int32[games]: the node to evaluate this round, NONE if none


class PUCTGame(NamedTuple):
    """A game's compiled functions (Numba ``@njit`` functions); ``rules`` is whatever the
    caller passes to :func:`start` and :func:`simulate`. An action is a bit index of the
    legal bits; a value (an outcome) is for the player to move at the node it is of."""

    # (rules, roots, g, states, node) -> (to_move, legal bits): root g's state into states[node]
    root: Callable[..., Any]
    # (rules, g, states, parent, child, to_move, action) -> (over, to_move, legal bits, outcome):
    # the state after ``to_move`` plays ``action`` at states[parent], into states[child]; the
    # player to move after it (when over: the one who moved), its legal bits (0 when over),
    # and when over the result for that player: +1, 0, -1 (0.0 while the game goes on)
    step: Callable[..., Any]


def new_tree(games: int, nodes: int, actions: int, path_nodes: int, state_dtype: np.dtype[Any]) -> PUCTTree:
    """Arrays for ``games`` trees of ``nodes`` nodes.

    Args:
        games: the trees, one per game.
        nodes: the nodes per tree.
        actions: the actions (at most 64).
        path_nodes: the nodes of the game's longest path from a root (the root and a node a
            move: the game's most moves plus one).
        state_dtype: the dtype of the game states' records.
    """
    shape = (games, nodes)
    return PUCTTree(
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
        np.zeros((games, path_nodes), dtype=np.int32),
        np.zeros(games, dtype=np.int32),
        np.full(games, NONE, dtype=np.int32),
    )


@njit(cache=True, inline="always")
def _for_player0(value: float, to_move: int) -> float:
    """A value for the player ``to_move`` (0 or 1) as the tree keeps it, for player 0."""
    return value if to_move == 0 else -value


@njit(cache=True)
def _clear_node(tree: PUCTTree, g: int, index: int) -> None:
    tree.children[g, index, :] = NONE
    tree.prior[g, index, :] = 0.0
    tree.visits[g, index] = 0
    tree.value_sum[g, index] = 0.0
    tree.raw_value[g, index] = 0.0
    tree.over[g, index] = False
    tree.outcome[g, index] = 0.0


@njit(cache=True)
def start(game: PUCTGame, rules: Any, tree: PUCTTree, roots: Any, active: npt.NDArray[np.bool_]) -> None:
    """A new search in every active game: the root is its game's leaf, to be evaluated first.
    Inactive games get no leaf.

    Args:
        game: the game's compiled functions.
        rules: what they are passed, unchanged.
        tree: the trees.
        roots: game ``g``'s root is ``roots[g]`` (read by ``game.root`` only; never a finished
            game).
        active: the games searched.
    """
    for g in range(active.shape[0]):
        tree.leaf[g] = NONE
        tree.node_count[g] = 0
        if not active[g]:
            continue
        _clear_node(tree, g, ROOT)
        tree.to_move[g, ROOT], tree.legal[g, ROOT] = game.root(rules, roots, g, tree.states[g], ROOT)
        tree.node_count[g] = 1
        tree.path[g, 0] = ROOT
        tree.path_length[g] = 1
        tree.leaf[g] = ROOT


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
def _select(to_move: npt.NDArray[np.int64], legal_bits: npt.NDArray[np.uint64], visits: npt.NDArray[np.int32],
            total: npt.NDArray[np.float32], children: npt.NDArray[np.int32], prior: npt.NDArray[np.float32], g: int, index: int,
            exploration: float) -> int:
    """The action PUCT picks at node ``index`` of game ``g``: the legal action with the
    largest ``Q + exploration * P * sqrt(N) / (1 + n)`` (``exploration``: AlphaZero's
    ``c_puct``), ``Q`` the child's mean value for the player to move (0 for a child not
    visited yet, a draw's value)."""
    sign = 1.0 if to_move[g, index] == 0 else -1.0
    explore = exploration * math.sqrt(max(visits[g, index], 1))
    legal = legal_bits[g, index]
    best, best_score = NONE, NO_SCORE
    while legal != ZERO:
        action = int(ctz(legal))
        legal &= legal - ONE
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
def simulate(game: PUCTGame, rules: Any, tree: PUCTTree, exploration: float) -> None:
    """One descent in every game that has a root, by PUCT, to an action not tried yet, whose
    child is created: a finished game's outcome is backed up at once (the game has no leaf
    this round), any other child becomes the game's leaf.

    Args:
        game: the game's compiled functions.
        rules: what they are passed, unchanged.
        tree: the trees.
        exploration: PUCT's constant.
    """
    to_move, legal_bits, over_at, outcome_at = tree.to_move, tree.legal, tree.over, tree.outcome
    visits, total, children, prior = tree.visits, tree.value_sum, tree.children, tree.prior
    node_count, path, path_length, leaf = tree.node_count, tree.path, tree.path_length, tree.leaf
    path_nodes = path.shape[1]
    for g in range(visits.shape[0]):
        leaf[g] = NONE
        if node_count[g] == 0:
            continue
        index = 0
        length = 1
        path[g, 0] = ROOT
        while True:
            if over_at[g, index]:
                path_length[g] = length
                _backup(path, length, visits, total, g, outcome_at[g, index])
                break
            action = _select(to_move, legal_bits, visits, total, children, prior, g, index, exploration)
            child = children[g, index, action]
            if child != NONE and length < path_nodes:
                index = child
                path[g, length] = index
                length += 1
                continue
            _new_child(game, rules, tree, g, index, action, length)
            break


@njit(cache=True, inline="always")
def _new_child(game: PUCTGame, rules: Any, tree: PUCTTree, g: int, index: int, action: int, length: int) -> None:
    """Create the child of ``action`` at node ``index`` of game ``g`` (the tree has room:
    ``N - 1`` simulations add at most ``N - 1`` nodes), at depth ``length`` of the path; a
    finished game backs its outcome up at once, any other child becomes the game's leaf."""
    states, to_move, legal_bits, over_at, outcome_at = tree.states, tree.to_move, tree.legal, tree.over, tree.outcome
    visits, total, raw_value, children, prior = tree.visits, tree.value_sum, tree.raw_value, tree.children, tree.prior
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
    over, next_to_move, legal, result = game.step(rules, g, states[g], index, child, to_move[g, index], action)
    to_move[g, child] = next_to_move
    legal_bits[g, child] = legal
    path[g, length] = child
    length += 1
    path_length[g] = length
    if over:
        outcome = _for_player0(result, next_to_move)
        over_at[g, child] = True
        outcome_at[g, child] = outcome
        raw_value[g, child] = outcome
        _backup(path, length, visits, total, g, outcome)
    else:
        leaf[g] = child


@njit(cache=True)
def expand(tree: PUCTTree, logits: npt.NDArray[np.float32], values: npt.NDArray[np.float32], noise: npt.NDArray[np.float32],
           noise_fraction: float) -> None:
    """Give every game's leaf the network's answer, backed up along the path: its priors and
    its value.

    Args:
        tree: the trees.
        logits: ``float32[games, actions]``: the priors are their softmax over the leaf's legal
            actions.
        values: each leaf's value, for its player to move.
        noise: a distribution over the legal actions per game, mixed in at a root.
        noise_fraction: a root's priors are ``(1 - noise_fraction) * P + noise_fraction * noise``.
    """
    prior = tree.prior
    actions = prior.shape[2]
    terms = np.zeros(actions, dtype=np.float64)
    for g in range(tree.visits.shape[0]):
        leaf = tree.leaf[g]
        if leaf == NONE:
            continue
        legal = tree.legal[g, leaf]
        norm = _softmax_terms(logits[g], legal, terms)
        for a in range(actions):
            p = _prior(terms, legal, a, norm)
            if leaf == 0 and noise_fraction > 0.0:
                p = (1.0 - noise_fraction) * p + noise_fraction * noise[g, a]
            prior[g, leaf, a] = p
        value = _for_player0(values[g], tree.to_move[g, leaf])
        tree.raw_value[g, leaf] = value
        _backup(tree.path, tree.path_length[g], tree.visits, tree.value_sum, g, value)
        tree.leaf[g] = NONE


@njit(cache=True, inline="always")
def _softmax_terms(logits: npt.NDArray[np.float32], legal: np.uint64, terms: npt.NDArray[np.float64]) -> float:
    """The masked softmax's terms of ``logits`` (one row) over the ``legal`` actions into
    ``terms`` (:func:`~.._selection.masked_softmax_terms`); returns their normaliser."""
    top = NO_SCORE
    bits = legal
    while bits != ZERO:
        a = int(ctz(bits))
        bits &= bits - ONE
        terms[a] = logits[a]
        top = max(top, terms[a])
    return masked_softmax_terms(terms, legal, top)


@njit(cache=True, inline="always")
def _prior(terms: npt.NDArray[np.float64], legal: np.uint64, a: int, norm: float) -> float:
    """The prior of action ``a`` from :func:`_softmax_terms`: 0 off the legal actions. The
    term is rounded to float32 before the division, as the priors were when they were
    stored in the tree first (seeded searches stay byte-identical)."""
    if (legal >> np.uint64(a)) & ONE:
        p: float = float(np.float32(terms[a])) / norm
        return p
    return 0.0


@njit(cache=True)
def expand_root_children(tree: PUCTTree, games: npt.NDArray[np.int64], nodes: npt.NDArray[np.int64], count: int,
                         logits: npt.NDArray[np.float32], values: npt.NDArray[np.float32]) -> None:
    """:func:`expand` (no noise) of ``count`` children of roots at once, each backed up to itself
    and its root.

    Args:
        tree: the trees.
        games: the game of each child.
        nodes: the node of each child.
        count: the children.
        logits: row ``i`` answers child ``i``.
        values: row ``i`` answers child ``i``.
    """
    prior = tree.prior
    actions = prior.shape[2]
    terms = np.zeros(actions, dtype=np.float64)
    for i in range(count):
        g, node = games[i], nodes[i]
        legal = tree.legal[g, node]
        norm = _softmax_terms(logits[i], legal, terms)
        for a in range(actions):
            prior[g, node, a] = _prior(terms, legal, a, norm)
        value = _for_player0(values[i], tree.to_move[g, node])
        tree.raw_value[g, node] = value
        for index in (node, ROOT):
            tree.visits[g, index] += 1
            tree.value_sum[g, index] += value


@njit(cache=True)
def root_visits(tree: PUCTTree, out: npt.NDArray[np.float32]) -> None:
    """The visits of each root child.

    Args:
        tree: the trees.
        out: ``float32[games, actions]``, written (zeros for a game without a root).
    """
    for g in range(tree.visits.shape[0]):
        for a in range(tree.children.shape[2]):
            child = tree.children[g, 0, a]
            out[g, a] = 0.0 if child == NONE or tree.node_count[g] == 0 else tree.visits[g, child]


@njit(cache=True)
def root_values(tree: PUCTTree, out: npt.NDArray[np.float32]) -> None:
    """The mean value of each visited root child for the root's player to move.

    Args:
        tree: the trees.
        out: ``float32[games, actions]``, written (NaN for a child not visited).
    """
    for g in range(tree.visits.shape[0]):
        sign = 1.0 if tree.to_move[g, ROOT] == 0 else -1.0
        for a in range(tree.children.shape[2]):
            child = tree.children[g, 0, a]
            out[g, a] = np.nan
            if child != NONE and tree.node_count[g] > 0:
                n = tree.visits[g, child]
                if n > 0:
                    out[g, a] = sign * tree.value_sum[g, child] / n
