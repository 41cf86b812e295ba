"""Donuts as a compiled game (:mod:`donuts_ai.search.compiled_game`): the functions of its
:class:`~donuts_ai.search.compiled_game.CompiledGame` record on the rule kernels, the
record (:func:`game`), and the generic compiled solver bound to it (:func:`generic_solve`).

Donuts' own searches (the MCTS agent, :mod:`donuts_ai.donuts.alphabeta`) are faster where
they know the game; this binding is how the generic searches run on Donuts, side by side
with them (``benchmarks/generic_on_donuts.py``). The MCTS agent runs the generic MCTS
kernel on this very record (:mod:`donuts_ai.donuts.agents._mcts_bound`).

A position is the kernels' ``Position``, from the side to move; the rules are the
``Rulebook``; a move is a square, a bit of the legal mask. Donuts does not alternate: a
player whose opponent's pool is empty places again
(:data:`~donuts_ai.search.compiled_game.MOVES_AGAIN`), and a placement that ends the game
can lose it for its placer (:data:`~donuts_ai.search.compiled_game.LOST`): the record says
``alternating=False``. Its ``key`` is a 64-bit hash (two 36-bit boards and three counts do
not fit one word), so two positions may share a key, about once in 2**64 pairs.

Not inlined by Numba: a function passed as a value must not be (it would be compiled in
as an address, and the kernel calling it never cached).
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from .._bits import popcount, splitmix64
from .._numba_types import Int64
from ..errors import GameOverError
from ..outcomes import WINNER_DRAW
from ..search import compiled_game as cg
from ..search import solver
from ..search.compiled_game import CompiledGame
from ._kernels.core import legal_mask
from ._kernels.playouts import playout as _playout
from ._kernels.position import (
    ENDED_DRAWN,
    ENDED_LOST,
    ENDED_WON,
    MOVES_AGAIN,
    WON_BY_FIVE,
    Position,
    Rulebook,
    apply,
    position_of,
    rulebook_of,
)
from .board import Board
from .squares import NUM_SQUARES

#: The most plies of a game: each placement fills a square.
MAX_PLIES = NUM_SQUARES
#: The most nodes on a path from a root: the root and one a ply. The tree searches'
#: paths are this long.
PATH_NODES = MAX_PLIES + 1
#: The colour :func:`playout` plays the side to move as (the result is read for it).
_MOVER = 0
#: Bits of the key's last word that hold ``last`` (-1 to 35, shifted by one) and each pool count.
_FIELD_BITS = 8


@njit(cache=True)
def legal(rules: Rulebook, pos: Position) -> np.uint64:
    """The legal squares of ``pos`` as bits.

    Args:
        rules: the rulebook.
        pos: a game not over.
    """
    return legal_mask(pos.own, pos.opp, pos.last, rules[0])


@njit(cache=True)
def play(rules: Rulebook, pos: Position, sq: Int64) -> tuple[Position, np.int64]:
    """Place on ``sq``. Scalars only: a call that takes arrays pays for counting references to them.

    Args:
        rules: the rulebook.
        pos: a game not over.
        sq: a legal square.

    Returns:
        ``(position, status)``, the engine's status as the interface's.
    """
    child, status = apply(rules[1], rules[2], pos, sq)
    if status == MOVES_AGAIN:
        return child, np.int64(cg.MOVES_AGAIN)
    if status == WON_BY_FIVE or status == ENDED_WON:
        return child, np.int64(cg.WON)
    if status == ENDED_DRAWN:
        return child, np.int64(cg.DRAWN)
    if status == ENDED_LOST:
        return child, np.int64(cg.LOST)
    return child, np.int64(cg.GOES_ON)


@njit(cache=True)
def key(rules: Rulebook, pos: Position) -> np.uint64:
    """A 64-bit hash of ``pos`` (two 36-bit boards and three counts do not fit one word):
    splitmix64 chained over the words.

    Args:
        rules: the rulebook (unused).
        pos: the position.
    """
    counts = np.uint64(pos.last + 1) | np.uint64(pos.placed_own) << np.uint64(_FIELD_BITS) \
        | np.uint64(pos.placed_opp) << np.uint64(2 * _FIELD_BITS)
    return splitmix64(pos.own ^ splitmix64(pos.opp ^ splitmix64(counts)))


@njit(cache=True)
def plies_left(rules: Rulebook, pos: Position) -> np.int64:
    """At most this many placements remain: the empty squares, and the donuts left in both pools.

    Args:
        rules: the rulebook.
        pos: the position.
    """
    empty = NUM_SQUARES - popcount(pos.own | pos.opp)
    pools = 2 * rules[1] - pos.placed_own - pos.placed_opp
    return np.int64(min(empty, pools))


@njit(cache=True)
def playout(rules: Rulebook, pos: Position, rng: np.uint64) -> tuple[np.int64, np.uint64]:
    """The engine's random game from ``pos`` to its end.

    Args:
        rules: the rulebook.
        pos: the position.
        rng: the random stream's state.

    Returns:
        ``(value, rng)``: +1 / 0 / -1 for the side to move at ``pos``, and the stream's state.
    """
    winner, _, _, rng = _playout(rules, pos, _MOVER, rng)
    if winner == WINNER_DRAW:
        return np.int64(0), rng
    return np.int64(1 if winner == _MOVER else -1), rng


#: This module, whose functions the bound kernels read as attributes.
_self = sys.modules[__name__]


def game() -> CompiledGame:
    """Donuts' record (its own ``plies_left`` and ``playout``, no tactical hooks), for the
    compiled searches called from Python. A cached kernel of one's own builds the record
    inside itself, as :func:`_solve` does: a record a cached kernel returns carries the
    addresses of its functions in the process that compiled it."""
    return cg.compiled_game(legal=legal, play=play, key=key, max_plies=MAX_PLIES, alternating=False,
                            hooks=cg.GameHooks(plies_left=plies_left, playout=playout))


@njit(cache=True)
def _solve(rules: Rulebook, pos: Position, table: solver.SolverTable, max_nodes: Int64) -> tuple[np.int64, np.int64]:
    """:func:`donuts_ai.search.solver.solve` on Donuts."""
    game = cg.CompiledGame(_self.legal, _self.play, _self.key, MAX_PLIES, False, cg.default_winning, cg.default_safe,
                           _self.plies_left, cg.default_order, _self.playout)
    return solver.solve(game, rules, pos, table, max_nodes)


def generic_solve(board: Board, table: solver.SolverTable, max_nodes: int = solver.NO_NODE_LIMIT) -> tuple[int, int]:
    """The generic compiled solver's exact score of ``board`` for the side to move.

    Args:
        board: a Donuts board whose game goes on.
        table: the solver's table (:func:`donuts_ai.search.solver.new_table`), for one
            layout and rules at a time.
        max_nodes: the most positions to explore.

    Returns:
        ``(score, nodes)``: the score (:mod:`donuts_ai.search.solver`: a win ``d`` plies
        away scores ``WIN_SCORE - d``), or ``UNKNOWN_SCORE`` past ``max_nodes``; the
        positions explored.

    Raises:
        GameOverError: the game is over.
    """
    if board.outcome() is not None:
        raise GameOverError("the game is over: there is nothing to solve")
    b0, b1, turn, last, p0, p1 = board.kernel_state()
    pos = position_of(b0, b1, turn, last, p0, p1)
    score, nodes = _solve(rulebook_of(board.layout, board.rules), pos, table, np.int64(max_nodes))
    return int(score), int(nodes)


__all__ = ["MAX_PLIES", "PATH_NODES", "game", "generic_solve", "key", "legal", "play", "playout", "plies_left"]
