"""Donuts as the Monte-Carlo tree search sees it (private): the game's functions of its
:class:`~donuts_ai.search.mcts.MCTSGame` record, on the rule kernels of
:mod:`donuts_ai.donuts._kernels` (a position is the kernels' ``Position``, from the side to
move, with its colour beside it as the player to move; the rules are the ``Rulebook``;
a move is a square, a bit of the legal mask; a winner is the engine's winner code, which
the search reads as it is). :mod:`._mcts_bound` binds the search to them.

Not inlined by Numba: a function passed as a value must not be (it would be compiled in
as an address, and the kernel calling it never cached).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..._numba_types import Int64
from .._kernels.core import legal_mask
from .._kernels.playouts import playout as _playout
from .._kernels.position import PASSES, Position, Rulebook, apply, winner_of
from ..squares import NUM_SQUARES

#: The most nodes on a path from a root: the root and one a ply, and a game of Donuts has
#: at most 36 plies (each fills a square). The tree searches' paths are this long.
PATH_NODES = NUM_SQUARES + 1


@njit(cache=True)
def step(rules: Rulebook, pos: Position, to_move: Int64, sq: Int64) -> tuple[Position, Int64, Int64]:
    """Play ``sq`` from ``pos`` (``to_move``, a colour, to move): ``(position, colour to
    move, winner code)``. Scalars only: a call that takes arrays pays for counting
    references to them."""
    child, status = apply(rules[1], rules[2], pos, sq)
    return child, (1 - to_move) if status == PASSES else to_move, winner_of(status, to_move)


@njit(cache=True)
def legal(rules: Rulebook, pos: Position) -> np.uint64:
    """The legal squares of ``pos`` as bits."""
    return legal_mask(pos.own, pos.opp, pos.last, rules[0])


@njit(cache=True)
def playout(rules: Rulebook, pos: Position, to_move: Int64, rng: np.uint64) -> tuple[Int64, np.uint64]:
    """A uniformly random game from ``pos`` (``to_move`` to move) to its end: ``(winner, rng)``."""
    winner, _, _, rng = _playout(rules, pos, to_move, rng)
    return winner, rng
