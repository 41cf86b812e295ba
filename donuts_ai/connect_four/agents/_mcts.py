"""Connect Four as the Monte-Carlo tree search of :mod:`donuts_ai.search.mcts` sees it
(private): the game's :class:`~donuts_ai.search.compiled_game.CompiledGame` record on the
engine's kernels (:mod:`donuts_ai.connect_four.kernels`), and the search's kernel bound to it, cached.

A position is the engine's ``(current, mask, moves)`` from the side to move; a move is a
column, a bit of :func:`.kernels.legal`'s mask. ``rules`` is 0 (the engine ignores it).

The game's functions are read as attributes of their modules: a function named as a
global in a kernel would be compiled in as its address, and the kernel never cached (see
:mod:`donuts_ai.search.compiled_game`). Not inlined by Numba for the same reason.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from ..._numba_types import Bool, Int64
from ...search import compiled_game as cg
from ...search import mcts as _tree  # its kernels read as attributes, as the game's are
from ...search.mcts import MCTSSettings, MCTSTree
from .. import kernels as K
from .._kernels import CELLS, Position

#: The most nodes on a path from a root: the root and one a ply (a game has at most 42 plies).
PATH_NODES = CELLS + 1


@njit(cache=True)
def playout(rules: Int64, pos: Position, rng: np.uint64) -> tuple[np.int64, np.uint64]:
    """The engine's random game from ``pos`` to its end, as the interface's ``playout``:
    ``(value for the side to move, rng)``."""
    value, _, state = K.playout(rules, pos, rng)
    return value, state


#: This module, whose functions the bound kernels read as attributes.
_self = sys.modules[__name__]


def new_tree(trees: int, max_nodes: int) -> MCTSTree:
    """:func:`donuts_ai.search.mcts.new_tree` for Connect Four: room for ``trees`` trees of
    ``max_nodes`` nodes, their paths as long as a game's."""
    return _tree.new_tree(trees, max_nodes, PATH_NODES)


@njit(cache=True)
def run_tree(
    tree: MCTSTree, t: Int64, pos: Position, to_move: Int64, iterations: Int64, settings: MCTSSettings, stop_when_full: Bool,
) -> tuple[Int64, bool]:
    """:func:`donuts_ai.search.mcts.run_tree` on Connect Four: up to ``iterations``
    iterations on tree ``t`` from ``pos`` (``to_move`` to move); ``(iterations run, full)``."""
    # The record is built here, in the cached kernel: one a cached kernel returned would carry
    # its functions' addresses in the process that compiled it.
    game = cg.CompiledGame(K.legal, K.play, K.key, K.CELLS, True, K.winning, K.safe, K.plies_left, K.order, _self.playout)
    result: tuple[Int64, bool] = _tree.run_tree(game, 0, tree, t, pos, to_move, iterations, settings, stop_when_full)
    return result
