"""AlphaZero's search over many games at once, batched: the compiled PUCT trees of
:mod:`donuts_ai.search.puct` with Donuts passed in (:mod:`._puct_donuts`), their leaves
evaluated by the network in one batch a round (never one position a call).

``BatchSearch(games, sims)`` owns the arrays; :meth:`BatchSearch.run` searches every
active game from its root and returns the root children's visit counts, the policy the
self-play learns from and the agent plays by.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit

from .._engine.planes import NUM_PLANES
from ..search import puct
from ..squares import NUM_SQUARES, SIZE
from . import _puct_donuts as D
from .errors import LearnError
from .network import Network, evaluate

#: AlphaZero's exploration constant (its c_puct, for values in [-1, 1]).
C_PUCT = 1.5
#: Dirichlet noise at a self-play root: its concentration, and its share of the priors.
#: AlphaZero used alpha = 0.3 for chess (about 35 moves); Donuts has up to 36 legal squares
#: on an open pick and one to five on a forced line.
DIRICHLET_ALPHA = 0.3
NOISE_FRACTION = 0.25

#: The network's answer to a batch of planes: ``(logits float32[n, 36], values float32[n])``.
Evaluator = Callable[[npt.NDArray[np.float32]], tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]


# The search bound to Donuts: the game's functions read as attributes of their module (a
# function named as a global here would be compiled in as its address, and never cached).
# Each round is one call, the leaves' planes written in it: a call costs the unboxing of
# every array of the tree.
@njit(cache=True)
def _start(rules: D.Rules, tree: puct.Tree, roots: np.ndarray, active: npt.NDArray[np.bool_], directions: npt.NDArray[np.int8],
           planes: npt.NDArray[np.float32]) -> None:
    """New searches from ``roots`` (:func:`donuts_ai.search.puct.start`), the roots' planes into ``planes``."""
    puct.start(puct.Game(D.root, D.step), rules, tree, roots, active)
    D.write_leaf_planes(tree, rules[0], directions, rules[1], planes)


@njit(cache=True)
def _simulate(rules: D.Rules, tree: puct.Tree, c_puct: float, directions: npt.NDArray[np.int8],
              planes: npt.NDArray[np.float32]) -> bool:
    """One round's descents (:func:`donuts_ai.search.puct.simulate`); when a game has a leaf,
    the leaves' planes into ``planes`` and True."""
    puct.simulate(puct.Game(D.root, D.step), rules, tree, c_puct)
    for g in range(tree.leaf.shape[0]):
        if tree.leaf[g] != puct.NONE:
            D.write_leaf_planes(tree, rules[0], directions, rules[1], planes)
            return True
    return False


def network_evaluator(network: Network) -> Evaluator:
    """The evaluator of ``network`` (:func:`~.network.evaluate`)."""
    return lambda planes: evaluate(network, planes)


@dataclass(frozen=True)
class SearchResult:
    """What :meth:`BatchSearch.run` found, one row per game."""

    visits: npt.NDArray[np.float32]  # (G, 36): visits of each root child (0 off the legal squares)
    values: npt.NDArray[np.float32]  # (G, 36): mean value of each visited root child for the side to move, NaN if unvisited
    root_logits: npt.NDArray[np.float32]  # (G, 36): the network's policy logits at the root
    root_value: npt.NDArray[np.float32]  # (G,): the network's value of the root for its side to move
    simulations: int  # simulations run (each adds one visit to every active root)


class BatchSearch:
    """PUCT trees for ``games`` games of up to ``sims`` simulations each."""

    def __init__(self, games: int, sims: int, c_puct: float = C_PUCT):
        if games < 1 or sims < 0:
            raise LearnError(f"BatchSearch needs games >= 1 and sims >= 0, got {games} and {sims}")
        self.games, self.sims, self.c_puct = games, sims, float(c_puct)
        self.tree = puct.new_tree(games, sims + 1, NUM_SQUARES, D.STATE)
        self._planes = np.zeros((games, SIZE, SIZE, NUM_PLANES), dtype=np.float32)
        self._no_noise = np.zeros((games, NUM_SQUARES), dtype=np.float32)

    def run(
        self,
        evaluator: Evaluator,
        roots: np.ndarray,
        active: npt.NDArray[np.bool_],
        directions: npt.NDArray[np.int8],
        donuts: int,
        single: bool,
        noise: npt.NDArray[np.float32] | None = None,
        sims: int | None = None,
        deadline: Callable[[], bool] | None = None,
    ) -> SearchResult:
        """Search every active game from its root and return the root statistics.

        ``roots``: records with the fields ``own opp last placed_own placed_opp color
        line_masks`` (:data:`donuts_ai._engine.batch.GAME`), one per game, none finished;
        ``directions`` ``int8[G, 36]`` their layouts' printed lines; ``noise``: Dirichlet
        noise to mix into the root priors (``float32[G, 36]``, see :func:`dirichlet_noise`),
        or ``None``. ``sims`` (at most the constructor's) simulations, fewer when
        ``deadline()`` turns true (checked between rounds; at least one round is run)."""
        sims = self.sims if sims is None else sims
        if not 0 <= sims <= self.sims:
            raise LearnError(f"sims must be in 0..{self.sims}, got {sims}")
        tree, flat = self.tree, self._planes.reshape(self.games, NUM_SQUARES, NUM_PLANES)
        line_masks = np.ascontiguousarray(roots["line_masks"])
        rules = (line_masks, donuts, single)
        _start(rules, tree, roots, active, directions, flat)
        root_logits, root_value = evaluator(self._planes)
        fraction = 0.0 if noise is None else NOISE_FRACTION
        puct.expand(tree, root_logits, root_value, self._no_noise if noise is None else noise, fraction)
        done = 0
        while done < sims:
            done += 1
            if _simulate(rules, tree, self.c_puct, directions, flat):
                logits, values = evaluator(self._planes)
                puct.expand(tree, logits, values, self._no_noise, 0.0)
            if deadline is not None and deadline():
                break
        visits = np.zeros((self.games, NUM_SQUARES), dtype=np.float32)
        values = np.zeros((self.games, NUM_SQUARES), dtype=np.float32)
        puct.root_visits(tree, visits)
        puct.root_values(tree, values)
        return SearchResult(visits, values, root_logits.copy(), root_value.copy(), done)


def root_planes(roots: np.ndarray, donuts: int) -> npt.NDArray[np.float32]:
    """``float32[G, 6, 6, 13]``: the planes of each root record, seen by its side to move."""
    out = np.empty((len(roots), SIZE, SIZE, NUM_PLANES), dtype=np.float32)
    D.write_root_planes(roots, donuts, out.reshape(len(roots), NUM_SQUARES, NUM_PLANES))
    return out


def evaluate_roots(evaluator: Evaluator, roots: np.ndarray, donuts: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The network's ``(logits [G, 36], values [G])`` of the root records (no search)."""
    return evaluator(root_planes(roots, donuts))


def best_squares(result: SearchResult, legal: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """Each game's move after a search: the most visited legal square, ties going to the
    higher prior (the network's policy at the root)."""
    prior = masked_policy(result.root_logits, legal)
    # Visits are whole numbers and a prior is below 1: twice the visits plus the prior orders by visits, then prior.
    key = np.where(legal, result.visits * 2.0 + prior, -1.0)
    best: npt.NDArray[np.int64] = key.argmax(axis=1)
    return best


def dirichlet_noise(rng: np.random.Generator, legal: npt.NDArray[np.bool_], alpha: float = DIRICHLET_ALPHA) -> npt.NDArray[np.float32]:
    """``float32[G, 36]``: a Dirichlet(``alpha``) draw over each row's legal squares (0 elsewhere)."""
    gamma = rng.standard_gamma(alpha, size=legal.shape) * legal
    total = gamma.sum(axis=1, keepdims=True)
    # A draw can underflow to all zeros when alpha is small and few squares are legal: uniform then.
    uniform = legal / np.maximum(legal.sum(axis=1, keepdims=True), 1)
    noise = np.where(total > 0, gamma / np.where(total > 0, total, 1.0), uniform)
    return noise.astype(np.float32)


def masked_policy(logits: npt.NDArray[np.float32], legal: npt.NDArray[np.bool_]) -> npt.NDArray[np.float32]:
    """The softmax of ``logits`` over the ``legal`` squares, row by row (0 elsewhere)."""
    masked = np.where(legal, logits, -np.inf)
    top = masked.max(axis=-1, keepdims=True)
    e = np.where(legal, np.exp(masked - np.where(np.isfinite(top), top, 0.0)), 0.0)
    policy: npt.NDArray[np.float32] = (e / np.maximum(e.sum(axis=-1, keepdims=True), 1e-30)).astype(np.float32)
    return policy
