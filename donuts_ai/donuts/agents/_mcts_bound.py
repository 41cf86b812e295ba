"""The Monte-Carlo tree search of :mod:`donuts_ai.search.mcts` bound to Donuts (its
compiled game, :mod:`donuts_ai.donuts.compiled`, the record built in each kernel: one a
cached kernel returned would carry its functions' addresses in the process that compiled
it): the trees sized for Donuts' longest path, and the
kernels the agent calls, one cached kernel each. The game's functions are read as
attributes of their module: a function named as a global here would be compiled in as its
address, and the kernel never cached."""

from __future__ import annotations

import numpy as np
from numba import njit, prange
from numpy.typing import NDArray

from ..._numba_types import Bool, Int64
from ...search import compiled_game as cg
from ...search import mcts as _tree  # its kernels read as attributes, as the game's are
from ...search.mcts import MCTSSettings, MCTSTree
from .. import compiled as D
from .._kernels.position import Position, Rulebook


def new_tree(trees: int, max_nodes: int) -> MCTSTree:
    """:func:`donuts_ai.search.mcts.new_tree` for Donuts: room for ``trees`` trees of
    ``max_nodes`` nodes, their paths as long as a game's."""
    return _tree.new_tree(trees, max_nodes, D.PATH_NODES)


@njit(cache=True)
def run_tree(
    tree: MCTSTree, t: Int64, rulebook: Rulebook, pos: Position, color: Int64, iterations: Int64, settings: MCTSSettings,
    stop_when_full: Bool,
) -> tuple[Int64, bool]:
    """:func:`donuts_ai.search.mcts.run_tree` on Donuts: up to ``iterations`` iterations on tree ``t`` from
    ``pos`` (``color`` to move) under ``rulebook``; ``(iterations run, full)``."""
    game = cg.CompiledGame(D.legal, D.play, D.key, D.MAX_PLIES, False, cg.default_winning, cg.default_safe, D.plies_left,
                           cg.default_order, D.playout)
    result: tuple[Int64, bool] = _tree.run_tree(game, rulebook, tree, t, pos, color, iterations, settings, stop_when_full)
    return result


@njit(cache=True, parallel=True)
def run_trees(
    tree: MCTSTree, rulebook: Rulebook, pos: Position, color: Int64, todo: NDArray[np.int64], stop_when_full: NDArray[np.bool],
    settings: MCTSSettings, done: NDArray[np.int64], full: NDArray[np.bool],
) -> None:
    """:func:`run_tree` on every tree ``t``, one tree per thread: ``todo[t]`` iterations,
    stopping when full if ``stop_when_full[t]``; writes ``done[t]`` and ``full[t]``."""
    # The record is made in each thread's loop: a parallel loop cannot take it from outside.
    for t in prange(tree.visits.shape[0]):
        game = cg.CompiledGame(D.legal, D.play, D.key, D.MAX_PLIES, False, cg.default_winning, cg.default_safe,
                               D.plies_left, cg.default_order, D.playout)
        done[t], full[t] = _tree.run_tree(game, rulebook, tree, t, pos, color, todo[t], settings, stop_when_full[t])
