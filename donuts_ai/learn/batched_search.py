"""AlphaZero's search over many games at once, batched: the compiled PUCT trees of
:mod:`donuts_ai.search.puct` with Donuts passed in (:mod:`donuts_ai.donuts.agents.puct_game`), the
network asked about their leaves in one batch a round (never one position a call): a
:data:`Predictor`, the network's forward pass (:func:`network_predictor`).

``BatchSearch(games, simulations)`` owns the arrays; :meth:`BatchSearch.run` searches every
active game from its root by PUCT and returns the root children's visit counts.
:meth:`BatchSearch.run_gumbel` searches by Gumbel's rules (Sequential Halving among
Gumbel-sampled root actions, settings in :class:`GumbelSettings`) and returns the action
to play and the completed-Q policy target; it can settle positions exactly
(:class:`SolveSettings`), keep the network's predictions in a
:class:`~.prediction_cache.PredictionCache`, and give each game its own simulation budget
(:func:`playout_cap`: KataGo's playout-cap randomization).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt
from numba import njit

from ..donuts.agents import puct_game as D
from ..donuts.alphabeta import ENTRY_WORDS, WORKSPACE
from ..donuts.planes import NUM_PLANES
from ..donuts.rules import Rules
from ..donuts.squares import NUM_SQUARES, SIZE
from ..search import puct
from .errors import LearnError
from .network import Network, predict
from .prediction_cache import KEY_WORDS, PredictionCache, leaf_keys, node_keys, predict_rows, root_keys
from .prediction_cache import Predictor as Predictor

#: AlphaZero's exploration constant (its c_puct, for values in [-1, 1]).
C_PUCT = 1.5
#: Dirichlet noise at a self-play root: its concentration, and its share of the priors.
#: AlphaZero used alpha = 0.3 for chess (about 35 moves); Donuts has up to 36 legal squares
#: on an open pick and one to five on a forced line.
DIRICHLET_ALPHA = 0.3
NOISE_FRACTION = 0.25
#: Gumbel's search: the most root actions considered (the paper's and mctx's 16).
MAX_CONSIDERED = 16
#: The width of the range of values, [-1, 1], for Gumbel's ``sigma`` without rescaling.
VALUE_SPREAD = 2.0
#: Playout-cap randomization (KataGo): the share of moves searched in full (policy targets).
FULL_SEARCH_FRACTION = 0.25
#: The exact solves inside the tree: positions with at most this many plies left, searched
#: within this many nodes each (measured: every endgame position of 10 plies or fewer that
#: the searches met settled, in 6 nodes on average), on each game's table of 2**bits rows.
SOLVE_PLIES = 10
SOLVE_NODES = 2000
SOLVER_TABLE_BITS = 10


# The search bound to Donuts: the game's functions read as attributes of their module (a
# function named as a global here would be compiled in as its address, and never cached).
# Each round is one call, the leaves' planes written in it: a call costs the unboxing of
# every array of the tree.
@njit(cache=True)
def _start(rules: D.Rulebooks, tree: puct.PUCTTree, roots: np.ndarray, active: npt.NDArray[np.bool_],
           directions: npt.NDArray[np.int8], planes: npt.NDArray[np.float32]) -> None:
    """New searches from ``roots`` (:func:`donuts_ai.search.puct.start`), the roots' planes into ``planes``."""
    puct.start(puct.PUCTGame(D.root, D.step), rules, tree, roots, active)
    D.write_leaf_planes(tree, rules.line_masks, directions, rules.donuts, planes)


@njit(cache=True, inline="always")
def _leaf_planes(tree: puct.PUCTTree, line_masks: npt.NDArray[np.uint64], donuts: int, directions: npt.NDArray[np.int8],
                 planes: npt.NDArray[np.float32]) -> bool:
    """After a round of descents: when a game has a leaf, the leaves' planes into ``planes``
    and True; False when no game has one (nothing to ask the network about)."""
    for g in range(tree.leaf.shape[0]):
        if tree.leaf[g] != puct.NONE:
            D.write_leaf_planes(tree, line_masks, directions, donuts, planes)
            return True
    return False


@njit(cache=True)
def _simulate(rules: D.Rulebooks, tree: puct.PUCTTree, exploration: float, directions: npt.NDArray[np.int8],
              planes: npt.NDArray[np.float32]) -> bool:
    """One round's descents (:func:`donuts_ai.search.puct.simulate`); when a game has a leaf,
    the leaves' planes into ``planes`` and True."""
    puct.simulate(puct.PUCTGame(D.root, D.step), rules, tree, exploration)
    return _leaf_planes(tree, rules.line_masks, rules.donuts, directions, planes)


@njit(cache=True)
def _start_solving(rules: D.SolvingRulebooks, tree: puct.PUCTTree, roots: np.ndarray, active: npt.NDArray[np.bool_],
                   directions: npt.NDArray[np.int8], planes: npt.NDArray[np.float32]) -> None:
    """:func:`_start` with the game's step that settles positions (:func:`~donuts_ai.donuts.agents.puct_game.step_solving`)."""
    puct.start(puct.PUCTGame(D.root, D.step_solving), rules, tree, roots, active)
    D.write_leaf_planes(tree, rules.rulebooks.line_masks, directions, rules.rulebooks.donuts, planes)


@njit(cache=True)
def _simulate_solving(rules: D.SolvingRulebooks, tree: puct.PUCTTree, exploration: float, directions: npt.NDArray[np.int8],
                      planes: npt.NDArray[np.float32]) -> bool:
    """:func:`_simulate` with the game's step that settles positions."""
    puct.simulate(puct.PUCTGame(D.root, D.step_solving), rules, tree, exploration)
    return _leaf_planes(tree, rules.rulebooks.line_masks, rules.rulebooks.donuts, directions, planes)


@njit(cache=True)
def _gumbel_simulate(rules: D.SolvingRulebooks, tree: puct.PUCTTree, halving: puct.Halving, sigma: puct.Sigma,
                     directions: npt.NDArray[np.int8], planes: npt.NDArray[np.float32]) -> bool:
    """One round of Gumbel's descents (:func:`donuts_ai.search.puct.gumbel_simulate`); when a
    game has a leaf, the leaves' planes into ``planes`` and True."""
    puct.gumbel_simulate(puct.PUCTGame(D.root, D.step_solving), rules, tree, halving, sigma)
    return _leaf_planes(tree, rules.rulebooks.line_masks, rules.rulebooks.donuts, directions, planes)


@njit(cache=True)
def _gumbel_first_phase(rules: D.SolvingRulebooks, tree: puct.PUCTTree, halving: puct.Halving, games: npt.NDArray[np.int64],
                        nodes: npt.NDArray[np.int64], directions: npt.NDArray[np.int8], planes: npt.NDArray[np.float32]) -> int:
    """Sequential Halving's first visits at once (:func:`donuts_ai.search.puct.gumbel_first_phase`),
    the new leaves' planes into ``planes``; returns how many."""
    count = puct.gumbel_first_phase(puct.PUCTGame(D.root, D.step_solving), rules, tree, halving, games, nodes)
    D.write_node_planes(tree, rules.rulebooks.line_masks, directions, rules.rulebooks.donuts, games, nodes, count, planes)
    return count


def network_predictor(network: Network) -> Predictor:
    """The predictor of ``network``: its forward pass over a batch (:func:`~.network.predict`)."""
    return lambda planes: predict(network, planes)


@dataclass(frozen=True)
class SolveSettings:
    """Exact solves inside the tree: a position the game settles in one ply (a five to make,
    or a last move) is a terminal node with its exact value, and so is one with at most
    ``plies`` plies left that the exact solver settles within ``nodes`` nodes (counted in
    :attr:`BatchSearch.solves`).

    Attributes:
        plies: positions with at most this many plies left are tried (0: the one-ply ones alone).
        nodes: the solver's node limit for each of them.
    """

    plies: int = SOLVE_PLIES
    nodes: int = SOLVE_NODES


@dataclass(frozen=True)
class GumbelSettings:
    """How :meth:`BatchSearch.run_gumbel` searches.

    Attributes:
        max_considered: the most root actions that go into Sequential Halving.
        c_visit: ``sigma``'s visit constant.
        c_scale: ``sigma``'s scale constant.
        rescale: ``sigma`` normalizes the completed values by their minimum and maximum at
            each node (mctx's default); False: as values of [-1, 1] (try ``c_scale=1.0``).
        solve: exact solves inside the tree (:class:`SolveSettings`); ``None``: none.
        batch_first_phase: the first phase of Sequential Halving (one visit to each
            considered action) asked about in one batch of up to ``games * max_considered``
            positions: the same search in fewer, larger batches (root sums differ in rounding only).
    """

    max_considered: int = MAX_CONSIDERED
    c_visit: float = puct.C_VISIT
    c_scale: float = puct.C_SCALE
    rescale: bool = True
    solve: SolveSettings | None = SolveSettings()
    batch_first_phase: bool = True


@dataclass(frozen=True)
class SearchResult:
    """What :meth:`BatchSearch.run` found, one row per game."""

    visits: npt.NDArray[np.float32]  # (G, 36): visits of each root child (0 off the legal squares)
    values: npt.NDArray[np.float32]  # (G, 36): mean value of each visited root child for the side to move, NaN if unvisited
    root_logits: npt.NDArray[np.float32]  # (G, 36): the network's policy logits at the root
    root_value: npt.NDArray[np.float32]  # (G,): the network's value of the root for its side to move
    simulations: int  # simulations run (each adds one visit to every active root)


class BatchSearch:
    """PUCT trees for ``games`` games of up to ``simulations`` simulations each."""

    def __init__(self, games: int, simulations: int, c_puct: float = C_PUCT):
        if games < 1 or simulations < 0:
            raise LearnError(f"BatchSearch needs games >= 1 and simulations >= 0, got {games} and {simulations}")
        self.games, self.simulations, self.c_puct = games, simulations, float(c_puct)
        self.tree = D.new_tree(games, simulations + 1)
        self._planes = np.zeros((games, SIZE, SIZE, NUM_PLANES), dtype=np.float32)
        self._directions = np.zeros((games, NUM_SQUARES), dtype=np.int8)
        self._no_noise = np.zeros((games, NUM_SQUARES), dtype=np.float32)
        self._solver_tables: npt.NDArray[np.uint64] | None = None
        self._solver_workspaces = np.zeros(0, dtype=WORKSPACE)
        self._no_tables, self._no_workspaces = np.zeros((1, 2, ENTRY_WORDS), dtype=np.uint64), np.zeros(1, dtype=WORKSPACE)
        #: The exact solves of each game's last Gumbel search: tried, settled, nodes (``int64[G, 3]``).
        self.solves = np.zeros((games, 3), dtype=np.int64)

    def _directions_of(self, roots: np.ndarray) -> npt.NDArray[np.int8]:
        """The printed directions of ``roots``' layouts, ``int8[G, 36]``, in one contiguous array."""
        np.copyto(self._directions, roots["directions"])
        return self._directions

    def run(
        self,
        predictor: Predictor,
        roots: np.ndarray,
        active: npt.NDArray[np.bool_],
        rules: Rules,
        *,
        noise: npt.NDArray[np.float32] | None = None,
        simulations: int | None = None,
        deadline: Callable[[], bool] | None = None,
        solve: SolveSettings | None = None,
    ) -> SearchResult:
        """Search every active game from its root by PUCT and return the root statistics.

        Args:
            predictor: the network's forward pass over a batch of planes (:data:`Predictor`).
            roots: one record per game, none finished (:data:`donuts_ai.donuts._kernels.batch.GAME`:
                ``own opp last placed_own placed_opp color line_masks directions``).
            active: ``bool[G]``, the games to search.
            rules: the rules every game is played under (their donuts and insertion rule).
            noise: Dirichlet noise mixed into the root priors (``float32[G, 36]``, see
                :func:`dirichlet_noise`), or ``None``.
            simulations: at most the constructor's; ``None``: the constructor's.
            deadline: checked between rounds (at least one round is run); the search stops
                when it returns True.
            solve: the positions the game settles exactly are terminal nodes, as in
                :meth:`run_gumbel`; ``None`` (the default): off.

        Returns:
            The root children's visits and values, and the network's view of the roots.
        """
        budget = self.simulations if simulations is None else simulations
        if not 0 <= budget <= self.simulations:
            raise LearnError(f"simulations must be in 0..{self.simulations}, got {budget}")
        tree, flat = self.tree, self._planes.reshape(self.games, NUM_SQUARES, NUM_PLANES)
        directions = self._directions_of(roots)
        simulate: Callable[[], bool]
        if solve is not None:
            solving = self._solving_rules(roots, rules, solve)
            _start_solving(solving, tree, roots, active, directions, flat)
            simulate = lambda: _simulate_solving(solving, tree, self.c_puct, directions, flat)  # noqa: E731
        else:
            plain = _rulebooks(roots, rules.donuts, rules.single)
            _start(plain, tree, roots, active, directions, flat)
            simulate = lambda: _simulate(plain, tree, self.c_puct, directions, flat)  # noqa: E731
        root_logits, root_value = predictor(self._planes)
        fraction = 0.0 if noise is None else NOISE_FRACTION
        puct.expand(tree, root_logits, root_value, self._no_noise if noise is None else noise, fraction)
        done = 0
        while done < budget:
            done += 1
            if simulate():
                logits, values = predictor(self._planes)
                puct.expand(tree, logits, values, self._no_noise, 0.0)
            if deadline is not None and deadline():
                break
        visits = np.zeros((self.games, NUM_SQUARES), dtype=np.float32)
        values = np.zeros((self.games, NUM_SQUARES), dtype=np.float32)
        puct.root_visits(tree, visits)
        puct.root_values(tree, values)
        return SearchResult(visits, values, root_logits.copy(), root_value.copy(), done)

    def run_gumbel(
        self,
        predictor: Predictor,
        roots: np.ndarray,
        active: npt.NDArray[np.bool_],
        rules: Rules,
        *,
        gumbel: npt.NDArray[np.float32] | np.random.Generator | None = None,
        simulations: int | npt.NDArray[np.int64] | None = None,
        cache: PredictionCache | None = None,
        deadline: Callable[[], bool] | None = None,
        settings: GumbelSettings | None = None,
    ) -> GumbelResult:
        """Search every active game from its root by Gumbel's rules (Sequential Halving among
        Gumbel-sampled root actions).

        Args:
            predictor: the network's forward pass over a batch of planes (:data:`Predictor`).
            roots: one record per game, none finished, as :meth:`run`.
            active: ``bool[G]``, the games to search.
            rules: the rules every game is played under.
            gumbel: the root's Gumbel noise: ``float32[G, 36]`` standard Gumbel draws, or a
                generator to draw them from (one ``rng.gumbel(size=(G, 36))``), or ``None``
                (zeros: the top actions by prior are considered, deterministically).
            simulations: the simulations of every game, or ``int64[G]`` one budget per game
                (:func:`playout_budgets`), at most the constructor's; ``None``: the constructor's.
            cache: the network's predictions are asked of it
                (:class:`~.prediction_cache.PredictionCache`); without one the network is asked
                about the leaves alone, padded to a power of two.
            deadline: checked between the rounds after the first phase; a search stopped early
                still returns a policy target and an action among the most visited.
            settings: how the search runs (:class:`GumbelSettings`); ``None``: the defaults.

        Returns:
            The actions to play and the completed-Q policy targets (:class:`GumbelResult`).

        Raises:
            LearnError: a setting, a budget or the noise's shape is out of range.
        """
        settings = GumbelSettings() if settings is None else settings
        max_considered = settings.max_considered
        budget = self._budgets(simulations, active)
        if not 1 <= max_considered <= NUM_SQUARES:
            raise LearnError(f"max_considered must be in 1..{NUM_SQUARES}, got {max_considered}")
        if not (settings.c_visit >= 0 and settings.c_scale > 0):
            raise LearnError(f"c_visit must be >= 0 and c_scale > 0, got {settings.c_visit} and {settings.c_scale}")
        if gumbel is None:
            gumbel = np.zeros((self.games, NUM_SQUARES), dtype=np.float32)
        elif isinstance(gumbel, np.random.Generator):
            gumbel = gumbel.gumbel(size=(self.games, NUM_SQUARES)).astype(np.float32)
        elif gumbel.shape != (self.games, NUM_SQUARES):
            raise LearnError(f"gumbel must have the shape {(self.games, NUM_SQUARES)}, got {gumbel.shape}")
        gumbel = np.ascontiguousarray(gumbel, dtype=np.float32)
        sigma = puct.Sigma(float(settings.c_visit), float(settings.c_scale), 0.0 if settings.rescale else VALUE_SPREAD)
        tree, flat = self.tree, self._planes.reshape(self.games, NUM_SQUARES, NUM_PLANES)
        directions = self._directions_of(roots)
        solving = self._solving_rules(roots, rules, settings.solve)
        _start_solving(solving, tree, roots, active, directions, flat)
        root_logits, root_value = self._ask(predictor, cache, directions, rules.donuts, roots, active)
        puct.expand(tree, root_logits, root_value, self._no_noise, 0.0)
        considered = np.zeros(self.games, dtype=np.int64)
        puct.considered_counts(tree, max_considered, considered)
        budgets, table_of = np.unique(budget, return_inverse=True)
        tables = np.stack([_tables(max_considered, int(b), int(budgets.max())) for b in budgets])
        halving = puct.Halving(gumbel, tables, table_of.astype(np.int64), considered, budget)
        rounds, remaining = 0, int(budget.max())
        if settings.batch_first_phase:
            self._first_phase(solving, halving, directions, rules.donuts, predictor, cache)
            remaining = int((budget - np.minimum(considered, budget)).max())
        while rounds < remaining:
            rounds += 1
            if _gumbel_simulate(solving, tree, halving, sigma, directions, flat):
                logits, values = self._ask(predictor, cache, directions, rules.donuts)
                puct.expand(tree, logits, values, self._no_noise, 0.0)
            if deadline is not None and deadline():
                break
        return self._gumbel_result(gumbel, sigma, root_logits, root_value, active)

    def _first_phase(self, rules: D.SolvingRulebooks, halving: puct.Halving, directions: npt.NDArray[np.int8], donuts: int,
                     predictor: Predictor, cache: PredictionCache | None) -> None:
        """The first visit to every considered root action of every game, predicted in one batch."""
        rows = self.games * int(halving.considered.max(initial=1))
        games, nodes = np.zeros(rows, dtype=np.int64), np.zeros(rows, dtype=np.int64)
        planes = np.zeros((rows, SIZE, SIZE, NUM_PLANES), dtype=np.float32)
        count = _gumbel_first_phase(rules, self.tree, halving, games, nodes, directions,
                                    planes.reshape(rows, NUM_SQUARES, NUM_PLANES))
        if count == 0:
            return
        if cache is None:
            logits, values = predict_rows(predictor, planes, np.arange(rows) < count)
        else:
            keys = np.zeros((rows, KEY_WORDS), dtype=np.uint64)
            symmetries = np.full(rows, -1, dtype=np.int64)
            node_keys(self.tree, games[:count], nodes[:count], directions, donuts, cache.images, keys, symmetries)
            logits, values = cache.predict(predictor, planes, keys, symmetries)
        puct.expand_root_children(self.tree, games, nodes, count, logits, values)

    def _ask(self, predictor: Predictor, cache: PredictionCache | None, directions: npt.NDArray[np.int8], donuts: int,
             roots: np.ndarray | None = None, active: npt.NDArray[np.bool_] | None = None,
             ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The predictions of the active ``roots`` (their planes written), else of every game's
        leaf: from ``cache``, or the network's of the rows alone (:func:`~.prediction_cache.predict_rows`)."""
        asked = active if roots is not None else self.tree.leaf != puct.NONE
        assert asked is not None
        if cache is None:
            return predict_rows(predictor, self._planes, asked)
        keys = np.zeros((self.games, KEY_WORDS), dtype=np.uint64)
        symmetries = np.full(self.games, -1, dtype=np.int64)
        if roots is not None:
            root_keys(roots, donuts, cache.images, keys, symmetries)
        else:
            leaf_keys(self.tree, directions, donuts, cache.images, keys, symmetries)
        symmetries[~asked] = -1
        return cache.predict(predictor, self._planes, keys, symmetries)

    def _solving_rules(self, roots: np.ndarray, rules: Rules, solve: SolveSettings | None) -> D.SolvingRulebooks:
        """The rules of :func:`~donuts_ai.donuts.agents.puct_game.step_solving`; each game's solver table cleared."""
        plies, nodes = (0, SOLVE_NODES) if solve is None else (solve.plies, solve.nodes)
        if plies < 0 or nodes < 1:
            raise LearnError(f"solve plies must be >= 0 and nodes >= 1, got {plies} and {nodes}")
        level = D.SOLVE_NONE if solve is None else D.SOLVE_EXACT if plies > 0 else D.SOLVE_ONE_PLY
        if level == D.SOLVE_EXACT:
            if self._solver_tables is None:
                self._solver_tables = np.zeros((self.games, 1 << SOLVER_TABLE_BITS, ENTRY_WORDS), dtype=np.uint64)
                self._solver_workspaces = np.zeros(self.games, dtype=WORKSPACE)
            # Every search starts from empty tables and move-ordering memories: a game's layout
            # may have changed, and what a search settles within its node limit depends on them
            # (seeded searches repeat, a game searched alone equals it searched in a batch).
            tables, workspaces = self._solver_tables, self._solver_workspaces
            tables[:] = 0
            workspaces["history"] = 0
            workspaces["counter"] = 0
            workspaces["killers"] = -1
        else:  # never read: one game's worth, of the types the kernel is compiled for
            tables, workspaces = self._no_tables, self._no_workspaces
        self.solves[:] = 0
        return D.SolvingRulebooks(_rulebooks(roots, rules.donuts, rules.single), level, plies, nodes, tables, workspaces,
                                  self.solves)

    def _budgets(self, simulations: int | npt.NDArray[np.int64] | None, active: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        """Each game's simulations (0 for an inactive game), checked."""
        budget = np.broadcast_to(np.asarray(self.simulations if simulations is None else simulations, dtype=np.int64),
                                 (self.games,))
        if budget.size and not ((budget >= 0).all() and (budget <= self.simulations).all()):
            raise LearnError(f"simulations must be in 0..{self.simulations}, got {simulations}")
        budget_active: npt.NDArray[np.int64] = np.where(active, budget, 0).astype(np.int64)
        return budget_active

    def _gumbel_result(self, gumbel: npt.NDArray[np.float32], sigma: puct.Sigma, root_logits: npt.NDArray[np.float32],
                       root_value: npt.NDArray[np.float32], active: npt.NDArray[np.bool_]) -> GumbelResult:
        tree = self.tree
        policy = np.zeros((self.games, NUM_SQUARES), dtype=np.float32)
        actions = np.zeros(self.games, dtype=np.int64)
        completed = np.zeros((self.games, NUM_SQUARES), dtype=np.float32)
        puct.gumbel_results(tree, gumbel, sigma, policy, actions, completed)
        visits = np.zeros((self.games, NUM_SQUARES), dtype=np.float32)
        puct.root_visits(tree, visits)
        runs = np.where(active, tree.visits[:, 0] - 1, 0).astype(np.int64)
        sign = np.where(tree.to_move[:, 0] == 0, 1.0, -1.0)
        root_values = np.where(active, sign * tree.value_sum[:, 0] / np.maximum(tree.visits[:, 0], 1), np.nan).astype(np.float32)
        nan = np.float32(np.nan)
        return GumbelResult(actions, policy, visits, completed, root_values, np.where(active[:, None], root_logits, nan),
                            np.where(active, root_value, nan).astype(np.float32), runs)


def _rulebooks(roots: np.ndarray, donuts: int, single: bool) -> D.Rulebooks:
    """The rules of every game of ``roots`` (their lines), played with ``donuts`` and ``single``."""
    return D.Rulebooks(np.ascontiguousarray(roots["line_masks"]), int(donuts), bool(single))


@dataclass(frozen=True)
class GumbelResult:
    """What :meth:`BatchSearch.run_gumbel` found, one row per game (a game not searched:
    action -1, zeros, NaNs)."""

    actions: npt.NDArray[np.int64]  # (G,): the square to play: the best survivor of Sequential Halving
    policy: npt.NDArray[np.float32]  # (G, 36): the target softmax(logits + sigma(completed Q)), 0 off the legal squares
    visits: npt.NDArray[np.float32]  # (G, 36): visits of each root child
    completed_q: npt.NDArray[np.float32]  # (G, 36): completed Q of each legal square for the side to move, NaN elsewhere
    root_values: npt.NDArray[np.float32]  # (G,): the search's value of the root for its side to move (mean of its backups)
    root_logits: npt.NDArray[np.float32]  # (G, 36): the network's policy logits at the root
    root_value: npt.NDArray[np.float32]  # (G,): the network's value of the root for its side to move
    simulations: npt.NDArray[np.int64]  # (G,): simulations run in each game


def playout_cap(rng: np.random.Generator, games: int, full_fraction: float = FULL_SEARCH_FRACTION) -> npt.NDArray[np.bool_]:
    """Playout-cap randomization (KataGo): ``bool[games]``, True for the games whose move is
    searched in full this move (with probability ``full_fraction`` each, drawn from
    ``rng``): those positions become policy targets; the others are searched fast, played
    and not trained on. One draw of ``rng.random(games)`` a call."""
    if not 0.0 <= full_fraction <= 1.0:
        raise LearnError(f"full_fraction must be in [0, 1], got {full_fraction!r}")
    full: npt.NDArray[np.bool_] = rng.random(games) < full_fraction
    return full


def playout_budgets(full: npt.NDArray[np.bool_], full_simulations: int, fast_simulations: int) -> npt.NDArray[np.int64]:
    """``int64[games]``: ``full_simulations`` for the games searched in full (:func:`playout_cap`),
    ``fast_simulations`` for the others."""
    budgets: npt.NDArray[np.int64] = np.where(full, full_simulations, fast_simulations).astype(np.int64)
    return budgets


@lru_cache(maxsize=32)
def _tables(max_considered: int, simulations: int, width: int) -> npt.NDArray[np.int32]:
    """:func:`donuts_ai.search.puct.considered_visits` for ``simulations`` simulations, ``width``
    columns (made once: an agent searching by time asks for 100 000 columns every move)."""
    table = np.zeros((max_considered + 1, max(width, 1)), dtype=np.int32)
    found = puct.considered_visits(max_considered, simulations)
    table[:, :found.shape[1]] = found
    table.flags.writeable = False
    return table


def root_planes(roots: np.ndarray, donuts: int) -> npt.NDArray[np.float32]:
    """``float32[G, 6, 6, 13]``: the planes of each root record, seen by its side to move."""
    out = np.empty((len(roots), SIZE, SIZE, NUM_PLANES), dtype=np.float32)
    D.write_root_planes(roots, donuts, out.reshape(len(roots), NUM_SQUARES, NUM_PLANES))
    return out


def predict_roots(predictor: Predictor, roots: np.ndarray, donuts: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The network's ``(logits [G, 36], values [G])`` of the root records (no search)."""
    return predictor(root_planes(roots, donuts))


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
