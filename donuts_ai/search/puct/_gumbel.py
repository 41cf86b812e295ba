"""Gumbel search on the PUCT trees (Danihelka et al., "Policy improvement by planning with
Gumbel", ICLR 2022; mctx's ``gumbel_muzero_policy`` is the reference design): the same
:class:`~._tree.PUCTTree`, game record and rounds as :func:`~._tree.simulate`, with two other
rules of selection and a policy target that needs few simulations.

- **At the root**, the ``m`` considered actions are the top ``m`` of ``g + logits`` (``g``
  Gumbel noise, one draw per action and search; ``m = min(max_considered, legal)``), and
  Sequential Halving shares the simulations among them: the budget is cut into about
  ``log2 m`` phases, each visiting every survivor equally, and each phase keeps the
  better half by ``g + logits + sigma(completed Q)`` (:func:`considered_visits`).
- **Below the root** the action is deterministic: the largest ``pi'(a) - N(a) / (1 +
  sum N)``, ``pi' = softmax(logits + sigma(completed Q))`` the improved policy.
- **The results**: the action to play is the best survivor (the most visited actions)
  by ``g + logits + sigma(completed Q)``; the **policy target** is ``softmax(logits +
  sigma(completed Q))`` over the legal actions.

``completed Q`` and ``sigma`` are mctx's ``qtransform_completed_by_mix_value`` (the comment
above ``_complete`` says how). The caller makes two records once a search: :class:`Sigma`,
the constants of ``sigma``, and :class:`Halving`, every root's noise and Sequential
Halving's tables.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from ..._bits import ONE, ZERO, ctz
from .._nodes import NONE, ROOT
from .._selection import masked_softmax_terms
from ._tree import NO_SCORE, PUCTGame, PUCTTree, _backup, _new_child

#: The paper's and mctx's constants of ``sigma``: ``(C_VISIT + max N) * C_SCALE * q`` for a
#: completed value ``q`` normalized to [0, 1].
C_VISIT = 50.0
C_SCALE = 0.1
#: The smallest spread of completed values that is normalized (mctx's epsilon).
SPREAD_EPSILON = 1e-8
#: The log of a prior that underflowed to 0 (a legal action stays a candidate).
TINY_PRIOR = 1e-30


class Sigma(NamedTuple):
    """The constants of ``sigma`` (see the module), one record a search: how the completed
    Q-values are scaled before they are added to the logits."""

    c_visit: float  # sigma(q) = (c_visit + max N) * c_scale * q
    c_scale: float
    spread: float  # 0: q normalized by the min and max at each node; > 0: q read as a value of [-spread / 2, spread / 2]


class Halving(NamedTuple):
    """Sequential Halving at every game's root (see the module), one record a search made by
    the caller: the root's noise, its budget, and the visit counts its picks must have."""

    gumbel: npt.NDArray[np.float32]  # float32[games, actions]: the root's Gumbel noise, one draw per action
    tables: npt.NDArray[np.int32]  # int32[budgets, max_considered + 1, columns]: considered_visits of each budget
    table_of: npt.NDArray[np.int64]  # int64[games]: the game's table in tables (the one of its budget)
    considered: npt.NDArray[np.int64]  # int64[games]: actions considered at the root, its table's row (considered_counts)
    budget: npt.NDArray[np.int64]  # int64[games]: simulations of the game's search


@lru_cache(maxsize=64)
def _sequence(considered: int, sims: int) -> tuple[int, ...]:
    """Visit counts the root's pick must have at each simulation with ``considered`` actions."""
    if considered <= 1:
        return tuple(range(sims))
    phases = math.ceil(math.log2(considered))
    sequence: list[int] = []
    visits = [0] * considered
    alive = considered
    while len(sequence) < sims:
        rounds = max(1, sims // (phases * alive))
        for _ in range(rounds):
            sequence.extend(visits[:alive])
            for i in range(alive):
                visits[i] += 1
        alive = max(2, alive // 2)
    return tuple(sequence[:sims])


# As in mctx the survivors of Sequential Halving are not kept in a list: simulation ``i`` may
# only pick an action whose visit count is ``table[m, i]``, and picks the best of those by
# the score.
def considered_visits(max_considered: int, sims: int) -> npt.NDArray[np.int32]:
    """Sequential Halving's table (mctx's): the visit count the root's action must have to be
    picked by simulation ``i`` when ``m`` actions are considered.

    Args:
        max_considered: the most actions considered.
        sims: the simulations.

    Returns:
        ``int32[max_considered + 1, max(sims, 1)]``, indexed ``[m, i]``.
    """
    table = np.zeros((max_considered + 1, max(sims, 1)), dtype=np.int32)
    for m in range(1, max_considered + 1):
        table[m, :sims] = _sequence(m, sims)
    return table


class _Node(NamedTuple):
    """The node a step of a descent chooses at, and what the helpers read of it."""

    g: int  # the game
    node_index: int  # the node's index in the game's tree
    sign: float  # 1.0 when player 0 is to move at the node, else -1.0 (values are kept for player 0)
    legal: np.uint64  # its legal actions, as bits
    raw_value: np.float32  # its own evaluation, for player 0


# The hot kernels read each field of the tree once and pass the helpers, inlined, the arrays
# they use and the node's scalars in a _Node: Numba counts a reference on every read of an
# array from a tuple (reading the tree's arrays in the helpers made the descents about 40%
# slower).
@njit(cache=True, inline="always")
def _node(to_move: npt.NDArray[np.int64], legal_bits: npt.NDArray[np.uint64], raw_value: npt.NDArray[np.float32], g: int,
          index: int) -> _Node:
    """Node ``index`` of game ``g``, as the helpers read it."""
    return _Node(g, index, 1.0 if to_move[g, index] == 0 else -1.0, legal_bits[g, index], raw_value[g, index])


# ``completed Q`` is the child's mean value for the player to move at the node where it was
# visited, else the node's mixed value (its own evaluation mixed with the visited children's
# values weighted by their priors); completed values are min-max normalized over the node's
# legal actions (or, with ``spread`` > 0, read as values of the known range
# [-spread / 2, spread / 2]) and scaled by sigma(q) = (c_visit + max N) * c_scale * q
# (``spread`` 0 is mctx's default). Values are the tree's, kept for player 0; each is read
# with the sign of the node's player to move, so a player who moves twice in a row needs no
# special case. Logits are the logs of the tree's priors (a softmax's log differs from its
# logits by a constant, which no rule here sees).
@njit(cache=True, inline="always")
def _complete(node: _Node, visits: npt.NDArray[np.int32], total: npt.NDArray[np.float32], children: npt.NDArray[np.int32],
              prior: npt.NDArray[np.float32], out: npt.NDArray[np.float64]) -> tuple[int, int]:
    """The completed Q-values of the legal actions at ``node``, for its player to move, into
    ``out[a]`` (other entries untouched): a visited child's mean value, else the node's
    mixed value. Returns ``(summed visits, most visits)`` of the children."""
    g, index, sign, legal, raw_value = node
    summed, most = 0, 0
    weight, weighted = 0.0, 0.0
    bits = legal
    while bits != ZERO:
        a = int(ctz(bits))
        bits &= bits - ONE
        child = children[g, index, a]
        n = 0 if child == NONE else visits[g, child]
        if n > 0:
            q = sign * total[g, child] / n
            out[a] = q
            p = max(prior[g, index, a], TINY_PRIOR)
            weight += p
            weighted += p * q
            summed += n
            most = max(most, n)
    mixed = sign * raw_value
    if summed > 0:
        mixed = (mixed + summed * weighted / weight) / (summed + 1)
    bits = legal
    while bits != ZERO:
        a = int(ctz(bits))
        bits &= bits - ONE
        child = children[g, index, a]
        if child == NONE or visits[g, child] == 0:
            out[a] = mixed
    return summed, most


@njit(cache=True, inline="always")
def _sigma(legal: np.uint64, most: int, sigma: Sigma, values: npt.NDArray[np.float64]) -> None:
    """``sigma`` of the completed values of the ``legal`` actions, in place: normalized to
    [0, 1], by their minimum and maximum when ``sigma.spread`` is 0, else as values of the
    range ``[-spread / 2, spread / 2]``; times ``(c_visit + most) * c_scale``."""
    spread = sigma.spread
    low, high = -0.5 * spread, 0.5 * spread
    if spread <= 0.0:
        low, high = math.inf, -math.inf
        bits = legal
        while bits != ZERO:
            a = int(ctz(bits))
            bits &= bits - ONE
            low = min(low, values[a])
            high = max(high, values[a])
    scale = (sigma.c_visit + most) * sigma.c_scale / max(high - low, SPREAD_EPSILON)
    bits = legal
    while bits != ZERO:
        a = int(ctz(bits))
        bits &= bits - ONE
        values[a] = (values[a] - low) * scale


@njit(cache=True, inline="always")
def _completed(node: _Node, visits: npt.NDArray[np.int32], total: npt.NDArray[np.float32], children: npt.NDArray[np.int32],
               prior: npt.NDArray[np.float32], sigma: Sigma, out: npt.NDArray[np.float64]) -> int:
    """``sigma(completed Q)`` of each legal action at ``node`` into ``out[a]`` (other entries
    untouched); returns the children's summed visits."""
    summed, most = _complete(node, visits, total, children, prior, out)
    _sigma(node.legal, most, sigma, out)
    return summed


@njit(cache=True, inline="always")
def _log_prior(prior: npt.NDArray[np.float32], g: int, index: int, a: int) -> float:
    return math.log(max(prior[g, index, a], TINY_PRIOR))


@njit(cache=True, inline="always")
def _select_inside(node: _Node, visits: npt.NDArray[np.int32], total: npt.NDArray[np.float32], children: npt.NDArray[np.int32],
                   prior: npt.NDArray[np.float32], sigma: Sigma, scores: npt.NDArray[np.float64]) -> int:
    """Below the root: the legal action with the largest ``pi'(a) - N(a) / (1 + sum N)``
    (``scores`` ``float64[actions]``, scratch)."""
    summed = _completed(node, visits, total, children, prior, sigma, scores)
    g, index, legal = node.g, node.node_index, node.legal
    top = NO_SCORE
    bits = legal
    while bits != ZERO:
        a = int(ctz(bits))
        bits &= bits - ONE
        scores[a] += _log_prior(prior, g, index, a)
        top = max(top, scores[a])
    norm = masked_softmax_terms(scores, legal, top)
    best, best_score = NONE, NO_SCORE
    bits = legal
    while bits != ZERO:
        a = int(ctz(bits))
        bits &= bits - ONE
        child = children[g, index, a]
        n = 0 if child == NONE else visits[g, child]
        score = scores[a] / norm - n / (1.0 + summed)
        if score > best_score:
            best, best_score = a, score
    return best


@njit(cache=True, inline="always")
def _select_root(root: _Node, visits: npt.NDArray[np.int32], total: npt.NDArray[np.float32], children: npt.NDArray[np.int32],
                 prior: npt.NDArray[np.float32], gumbel: npt.NDArray[np.float32], considered_visit: int, sigma: Sigma,
                 scores: npt.NDArray[np.float64]) -> int:
    """At the root: the best action by ``g + logits + sigma(completed Q)`` among those with
    ``considered_visit`` visits (any legal action if none has: never, by the table);
    ``scores`` ``float64[actions]``, scratch."""
    _completed(root, visits, total, children, prior, sigma, scores)
    g = root.g
    best, best_score = NONE, NO_SCORE
    fallback, fallback_score = NONE, NO_SCORE
    bits = root.legal
    while bits != ZERO:
        a = int(ctz(bits))
        bits &= bits - ONE
        child = children[g, 0, a]
        n = 0 if child == NONE else visits[g, child]
        score = gumbel[g, a] + _log_prior(prior, g, 0, a) + scores[a]
        if n == considered_visit and score > best_score:
            best, best_score = a, score
        if score > fallback_score:
            fallback, fallback_score = a, score
    return best if best != NONE else fallback


@njit(cache=True)
def considered_counts(tree: PUCTTree, max_considered: int, out: npt.NDArray[np.int64]) -> None:
    """``min(max_considered, legal actions at the root)`` of every game.

    Args:
        tree: the trees.
        max_considered: the most actions considered.
        out: written, 0 for a game without a root.
    """
    for g in range(tree.node_count.shape[0]):
        out[g] = 0
        if tree.node_count[g] > 0:
            legal = tree.legal[g, ROOT]
            count = 0
            while legal != ZERO:
                legal &= legal - ONE
                count += 1
            out[g] = min(count, max_considered)


@njit(cache=True)
def gumbel_simulate(game: PUCTGame, rules: Any, tree: PUCTTree, halving: Halving, sigma: Sigma) -> None:
    """One descent in every game that has a root and has run fewer than ``halving.budget[g]``
    simulations, as :func:`~._tree.simulate` but choosing by Gumbel's rules. Simulation ``i``
    of a search is the one that finds ``i`` visits below its root, so a search of ``n``
    simulations follows ``table[m, :n]``.

    Args:
        game: the game's compiled functions.
        rules: what they are passed, unchanged.
        tree: the trees.
        halving: the roots' noise and Sequential Halving's tables: ``tables[table_of[g]]`` is
            game ``g``'s :func:`considered_visits`, ``considered[g]`` its row
            (:func:`considered_counts`).
        sigma: the constants of ``sigma`` (:class:`Sigma`).
    """
    to_move, legal_bits, over_at, outcome_at = tree.to_move, tree.legal, tree.over, tree.outcome
    visits, total, raw_value, children, prior = tree.visits, tree.value_sum, tree.raw_value, tree.children, tree.prior
    node_count, path, path_length, leaf = tree.node_count, tree.path, tree.path_length, tree.leaf
    path_nodes = path.shape[1]
    gumbel, tables, table_of, considered, budget = halving
    scores = np.zeros(children.shape[2], dtype=np.float64)
    for g in range(visits.shape[0]):
        leaf[g] = NONE
        done = visits[g, ROOT] - 1
        if node_count[g] == 0 or done >= budget[g]:
            continue
        index = 0
        length = 1
        path[g, 0] = ROOT
        while True:
            if over_at[g, index]:
                path_length[g] = length
                _backup(path, length, visits, total, g, outcome_at[g, index])
                break
            if index == 0:
                wanted = tables[table_of[g], considered[g], min(done, tables.shape[2] - 1)]
                root = _node(to_move, legal_bits, raw_value, g, ROOT)
                action = _select_root(root, visits, total, children, prior, gumbel, wanted, sigma, scores)
            else:
                node = _node(to_move, legal_bits, raw_value, g, index)
                action = _select_inside(node, visits, total, children, prior, sigma, scores)
            child = children[g, index, action]
            if child != NONE and length < path_nodes:
                index = child
                path[g, length] = index
                length += 1
                continue
            _new_child(game, rules, tree, g, index, action, length)
            break


@njit(cache=True)
def gumbel_results(tree: PUCTTree, gumbel: npt.NDArray[np.float32], sigma: Sigma, policy: npt.NDArray[np.float32],
                   actions: npt.NDArray[np.int64], completed: npt.NDArray[np.float32]) -> None:
    """Every game's results after its search. A game without a root gets action -1, zeros and
    NaNs.

    Args:
        tree: the trees.
        gumbel: the roots' noise (:attr:`Halving.gumbel`).
        sigma: the search's :class:`Sigma`.
        policy: written: the target ``softmax(logits + sigma(completed Q))`` over the legal
            actions (0 elsewhere).
        actions: written: the action to play, the best of the most visited by
            ``g + logits + sigma(completed Q)``.
        completed: written: the completed Q-values for the root's player to move before
            ``sigma`` (NaN off the legal actions).
    """
    to_move, legal_bits, visits, total, raw_value = tree.to_move, tree.legal, tree.visits, tree.value_sum, tree.raw_value
    children, prior = tree.children, tree.prior
    logits = np.zeros(children.shape[2], dtype=np.float64)
    for g in range(visits.shape[0]):
        actions[g] = NONE
        policy[g, :] = 0.0
        completed[g, :] = np.nan
        if tree.node_count[g] == 0:
            continue
        legal = legal_bits[g, ROOT]
        _, most = _complete(_node(to_move, legal_bits, raw_value, g, ROOT), visits, total, children, prior, logits)
        bits = legal
        while bits != ZERO:
            a = int(ctz(bits))
            bits &= bits - ONE
            completed[g, a] = logits[a]
        _sigma(legal, most, sigma, logits)
        top = NO_SCORE
        best, best_score = NONE, NO_SCORE
        bits = legal
        while bits != ZERO:
            a = int(ctz(bits))
            bits &= bits - ONE
            logits[a] += _log_prior(prior, g, 0, a)
            top = max(top, logits[a])
            child = children[g, 0, a]
            n = 0 if child == NONE else visits[g, child]
            if n == most and gumbel[g, a] + logits[a] > best_score:
                best, best_score = a, gumbel[g, a] + logits[a]
        actions[g] = best
        norm = masked_softmax_terms(logits, legal, top)
        bits = legal
        while bits != ZERO:
            a = int(ctz(bits))
            bits &= bits - ONE
            policy[g, a] = logits[a] / norm


@njit(cache=True)
def gumbel_first_phase(game: PUCTGame, rules: Any, tree: PUCTTree, halving: Halving, leaf_games: npt.NDArray[np.int64],
                       leaf_nodes: npt.NDArray[np.int64]) -> int:
    """The first ``min(considered[g], budget[g])`` simulations of every game that has a root and
    no visit below it, at once: the children of its top actions by ``g + logits`` (the ones
    Sequential Halving's first simulations visit, whatever their values: every action not
    visited yet has the same completed Q) are created. A finished child is backed up at once;
    the others are listed to be evaluated together (:func:`~._tree.expand_root_children`).
    Each game's ``leaf`` is left NONE.

    Args:
        game: the game's compiled functions.
        rules: what they are passed, unchanged.
        tree: the trees.
        halving: the roots' noise and Sequential Halving's tables (:class:`Halving`).
        leaf_games: ``int64[games * max_considered]``: the listed children's games.
        leaf_nodes: the listed children's nodes.

    Returns:
        How many children are listed.
    """
    children, prior, legal_bits = tree.children, tree.prior, tree.legal
    gumbel, considered, budget = halving.gumbel, halving.considered, halving.budget
    count = 0
    for g in range(tree.visits.shape[0]):
        if tree.node_count[g] == 0 or tree.visits[g, ROOT] != 1:
            continue
        for _ in range(min(considered[g], budget[g])):
            best, best_score = NONE, NO_SCORE
            bits = legal_bits[g, ROOT]
            while bits != ZERO:
                a = int(ctz(bits))
                bits &= bits - ONE
                score = gumbel[g, a] + _log_prior(prior, g, 0, a)
                if children[g, 0, a] == NONE and score > best_score:
                    best, best_score = a, score
            tree.path[g, 0] = ROOT
            _new_child(game, rules, tree, g, 0, best, 1)
            if tree.leaf[g] != NONE:
                leaf_games[count] = g
                leaf_nodes[count] = tree.leaf[g]
                count += 1
                tree.leaf[g] = NONE
    return count
