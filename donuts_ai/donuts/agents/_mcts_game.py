"""Donuts as the Monte-Carlo tree search sees it (private): the game's functions of its
:class:`~donuts_ai.search.mcts._tree.Game` record, on the rule kernels of :mod:`donuts_ai.donuts._engine` (a position
is the kernels' ``Position``, from the side to move, with its color beside it; the rules
are the ``Rulebook``). :mod:`._mcts_bound` binds the search to them.

Not inlined by Numba: a function passed as a value must not be (it would be compiled in
as an address, and the kernel calling it never cached).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..._numba_types import Int64
from ...outcomes import NO_WINNER_YET, WINNER_DRAW
from ...search.mcts._tree import DRAW, NOT_OVER
from .._engine.core import legal_mask
from .._engine.playouts import playout as _playout
from .._engine.position import PASSES, Position, Rulebook, apply, winner_of

# The search's winner codes are the engine's: its kernels' answers pass through unchanged.
assert (NOT_OVER, DRAW) == (NO_WINNER_YET, WINNER_DRAW)


@njit(cache=True)
def step(rules: Rulebook, pos: Position, color: Int64, sq: Int64) -> tuple[Position, Int64, Int64]:
    """Play ``sq`` from ``pos`` (``color`` to move): ``(position, color to move, winner code)``.
    Scalars only: a call that takes arrays pays for counting references to them."""
    child, status = apply(rules[1], rules[2], pos, sq)
    return child, (1 - color) if status == PASSES else color, winner_of(status, color)


@njit(cache=True)
def legal(rules: Rulebook, pos: Position) -> np.uint64:
    """The legal squares of ``pos`` as bits."""
    return legal_mask(pos.own, pos.opp, pos.last, rules[0])


@njit(cache=True)
def playout(rules: Rulebook, pos: Position, color: Int64, rng: np.uint64) -> tuple[Int64, np.uint64]:
    """A uniformly random game from ``pos`` to its end: ``(winner, rng)``."""
    winner, _, _, rng = _playout(rules, pos, color, rng)
    return winner, rng
