"""Connect Four as the Monte-Carlo tree search of :mod:`donuts_ai.search.mcts` sees it
(private): the game's functions of its :class:`~donuts_ai.search.mcts.MCTSGame` record on
the engine's kernels (:mod:`.kernels`), and the search's kernels bound to them, cached.

A position is the engine's ``(current, mask, moves)`` from the side to move, with the
player to move (``moves % 2``) beside it; a move is a column, a bit of :func:`.kernels.legal`'s
mask; the engine's statuses become winner codes of :mod:`donuts_ai.outcomes` (``WON``: the
mover ``to_move`` won; ``DRAWN``: a draw). ``rules`` is 0 (the engine ignores it).

The game's functions are read as attributes of this module's own namespace object
(``_self``): a function named as a global in a kernel would be compiled in as its address,
and the kernel never cached (see :mod:`donuts_ai.donuts.agents._mcts_bound`). Not inlined
by Numba for the same reason.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from .._numba_types import Bool, Int64
from ..outcomes import NO_WINNER_YET, WINNER_DRAW
from ..search import mcts as _tree  # its kernels read as attributes, as the game's are
from ..search.mcts import MCTSGame, MCTSTree
from . import kernels as K
from ._kernels import CELLS, DRAWN, WON, Position

#: The most nodes on a path from a root: the root and one a ply (a game has at most 42 plies).
PATH_NODES = CELLS + 1


@njit(cache=True)
def step(rules: Int64, pos: Position, to_move: Int64, move: Int64) -> tuple[Position, Int64, Int64]:
    """Play column ``move`` from ``pos`` (``to_move`` to move): ``(position, player to move,
    winner code)``."""
    child, status = K.play(rules, pos, move)
    winner = to_move if status == WON else (WINNER_DRAW if status == DRAWN else NO_WINNER_YET)
    return child, 1 - to_move, np.int64(winner)


@njit(cache=True)
def legal(rules: Int64, pos: Position) -> np.uint64:
    """The playable columns of ``pos`` as bits."""
    moves: np.uint64 = K.legal(rules, pos)
    return moves


@njit(cache=True)
def playout(rules: Int64, pos: Position, to_move: Int64, rng: np.uint64) -> tuple[Int64, np.uint64]:
    """A uniformly random game from ``pos`` (``to_move`` to move) to its end: ``(winner, rng)``."""
    value, _, state = K.playout(rules, pos, rng)
    winner = to_move if value > 0 else (1 - to_move if value < 0 else WINNER_DRAW)
    return np.int64(winner), state


#: This module, whose functions the bound kernels read as attributes.
_self = sys.modules[__name__]


def new_tree(trees: int, max_nodes: int) -> MCTSTree:
    """:func:`donuts_ai.search.mcts.new_tree` for Connect Four: room for ``trees`` trees of
    ``max_nodes`` nodes, their paths as long as a game's."""
    return _tree.new_tree(trees, max_nodes, PATH_NODES)


@njit(cache=True)
def run_tree(
    tree: MCTSTree, t: Int64, pos: Position, to_move: Int64, iterations: Int64, exploration: float, stop_when_full: Bool,
) -> tuple[Int64, bool]:
    """:func:`donuts_ai.search.mcts.run_tree` on Connect Four: up to ``iterations``
    iterations on tree ``t`` from ``pos`` (``to_move`` to move); ``(iterations run, full)``."""
    result: tuple[Int64, bool] = _tree.run_tree(MCTSGame(_self.step, _self.legal, _self.playout), 0, tree, t, pos,
                                                to_move, iterations, exploration, stop_when_full)
    return result
