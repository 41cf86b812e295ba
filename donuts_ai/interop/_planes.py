"""Observation planes shared by the PettingZoo environment and the OpenSpiel game.

A position is seen from one player's point of view (``player`` 0 = Chocolate, 1 =
Vanilla) as :data:`NUM_PLANES` planes of 6×6, each a 0/1 (or, for the pools, 0..1)
``float32`` grid. Plane ``k`` of square ``sq`` is ``planes[k].reshape(36)[sq]``: the row
is the rank (row 0 = rank 1) and the column the file (column 0 = file a), so a plane
reshaped to 36 values lines up with the actions (square indices 0..35, a1 = 0).

====  ==================================================================================
 0    the observer's donuts
 1    the opponent's donuts
 2    the empty squares of the forced line (the legal squares, unless the pick is open)
 3    the square filled last
 4-7  the printed line of each square: ``-``, ``|``, ``/``, ``\\`` (one-hot)
 8    all ones on an open pick (the side to move may place on any empty square)
 9    all equal: the observer's donuts left in the pool / donuts per player
 10   all equal: the opponent's donuts left in the pool / donuts per player
 11   all ones when the observer is to move
 12   all ones when the observer plays Vanilla (the second player)
====  ==================================================================================

The plane indices and names are the engine's (``donuts_ai/_engine/planes.py``): the
batched environment's kernels write the same planes.

The position is all a player needs (Donuts has perfect information and no repetition),
so these planes are a complete observation; both players' planes of one position hold
the same information.
"""

from __future__ import annotations

from typing import Any, TypeVar, overload

import numpy as np
from numpy.typing import DTypeLike, NDArray

from .._engine.planes import (
    LAST,
    LINE_DIRECTIONS,
    NUM_DIRECTIONS,
    NUM_PLANES,
    OPEN_PICK,
    OPPONENT_POOL,
    OWN,
    OWN_POOL,
    PLANE_NAMES,
    TO_MOVE,
    VANILLA,
)
from ..board import Board
from ..layout import Layout
from ..squares import NUM_SQUARES, SIZE

__all__ = ["NUM_PLANES", "PLANE_NAMES", "action_mask", "bits", "direction_planes", "planes", "write_planes"]

#: The four square-set planes (own, opponent, forced line, last: consecutive), written in one NumPy call.
_SQUARE_SETS = slice(OWN, LAST + 1)

_SHIFTS = np.arange(NUM_SQUARES, dtype=np.uint64)
_ONE = np.uint64(1)
_DIRECTION_CACHE: dict[tuple[int, ...], NDArray[np.float32]] = {}

_Scalar = TypeVar("_Scalar", bound=np.generic)


def bits(mask: int) -> NDArray[np.float32]:
    """The 36 bits of a bitboard as a ``float32`` vector (square ``i`` at index ``i``)."""
    return ((np.uint64(mask) >> _SHIFTS) & _ONE).astype(np.float32)


def direction_planes(layout: Layout) -> NDArray[np.float32]:
    """``float32[NUM_DIRECTIONS, 36]``: one-hot printed line of each square (cached per layout, read-only)."""
    key = layout.directions
    planes = _DIRECTION_CACHE.get(key)
    if planes is None:
        planes = np.zeros((NUM_DIRECTIONS, NUM_SQUARES), dtype=np.float32)
        planes[np.asarray(key), np.arange(NUM_SQUARES)] = 1.0
        planes.setflags(write=False)
        if len(_DIRECTION_CACHE) > 4096:  # many drawn layouts: keep the cache bounded
            _DIRECTION_CACHE.clear()
        _DIRECTION_CACHE[key] = planes
    return planes


def write_planes(board: Board, player: int, out: NDArray[np.float32]) -> NDArray[np.float32]:
    """Write the planes of ``board`` seen by ``player`` into ``out`` (any array of
    :data:`NUM_PLANES` × 36 values, e.g. shape ``(13, 6, 6)``, ``float32``) and return it."""
    flat = out.reshape(NUM_PLANES, NUM_SQUARES)
    b = board.bitboards
    turn, last = board.turn, board.last
    open_pick = board.is_open_pick()
    forced = 0 if turn is None or open_pick else board.legal_mask()
    masks = np.array([b[player], b[1 - player], forced, 0 if last is None else 1 << last], dtype=np.uint64)
    flat[_SQUARE_SETS] = (masks[:, None] >> _SHIFTS) & _ONE  # own, opponent, forced line, last
    flat[LINE_DIRECTIONS:LINE_DIRECTIONS + NUM_DIRECTIONS] = direction_planes(board.layout)
    n = board.rules.donuts
    placed = board.placed
    flat[OPEN_PICK] = 1.0 if open_pick else 0.0
    flat[OWN_POOL] = (n - placed[player]) / n
    flat[OPPONENT_POOL] = (n - placed[1 - player]) / n
    flat[TO_MOVE] = 1.0 if turn == player else 0.0
    flat[VANILLA] = float(player)
    return out


def planes(board: Board, player: int) -> NDArray[np.float32]:
    """``float32[13, 6, 6]``: the planes of ``board`` seen by ``player`` (channels first)."""
    return write_planes(board, player, np.empty((NUM_PLANES, SIZE, SIZE), dtype=np.float32))


@overload
def action_mask(board: Board) -> NDArray[np.int8]: ...
@overload
def action_mask(board: Board, dtype: type[_Scalar]) -> NDArray[_Scalar]: ...
@overload
def action_mask(board: Board, dtype: DTypeLike) -> NDArray[Any]: ...
def action_mask(board: Board, dtype: DTypeLike = np.int8) -> NDArray[Any]:
    """The 36 legal-square flags of ``board`` (all zero once the game is over)."""
    return bits(board.legal_mask()).astype(dtype)
