r"""Observation planes shared by the PettingZoo environment and the OpenSpiel game.

A position is seen from one player's side (``player`` 0 = Chocolate, 1 = Vanilla) as
:data:`NUM_PLANES` ``float32`` planes of 6×6; plane ``k`` of square ``sq`` is
``planes[k].reshape(36)[sq]`` (row = rank, column = file, so it lines up with the actions).

====  ==================================================================================
 0    the observer's donuts
 1    the opponent's donuts
 2    the empty squares of the forced line (the legal squares, unless the pick is open)
 3    the square filled last
 4-7  the printed line of each square: ``-``, ``|``, ``/``, ``\`` (one-hot)
 8    all ones on an open pick (the side to move may place on any empty square)
 9    all equal: the observer's donuts left in the pool / donuts per player
 10   all equal: the opponent's donuts left in the pool / donuts per player
 11   all ones when the observer is to move
 12   all ones when the observer plays Vanilla (the second player)
====  ==================================================================================

The names are the engine's (``donuts/_kernels/planes.py``); one kernel writes them all.
"""

from __future__ import annotations

from typing import Any, TypeVar, overload

import numpy as np
from numpy.typing import DTypeLike, NDArray

from .._bits import ONE
from ..donuts.board import Board
from ..donuts.layout import Layout
from ..donuts.planes import NUM_PLANES, PLANE_NAMES, write_view
from ..donuts.squares import NUM_SQUARES, SIZE

__all__ = ["NUM_PLANES", "PLANE_NAMES", "action_mask", "bits", "planes", "write_planes"]

_SHIFTS = np.arange(NUM_SQUARES, dtype=np.uint64)
#: Most layouts whose direction arrays are kept (many drawn layouts: the cache stays bounded).
_DIRECTION_CACHE_SIZE = 4096
_DIRECTION_CACHE: dict[tuple[int, ...], NDArray[np.int8]] = {}

_Scalar = TypeVar("_Scalar", bound=np.generic)


def bits(mask: int) -> NDArray[np.float32]:
    """The 36 bits of a bitboard as a ``float32`` vector (square ``i`` at index ``i``).

    Args:
        mask: the bitboard.
    """
    return ((np.uint64(mask) >> _SHIFTS) & ONE).astype(np.float32)


def _directions(layout: Layout) -> NDArray[np.int8]:
    """``int8[36]``: the printed line of each square, as the kernels take it (cached per layout, read-only)."""
    key = layout.directions
    directions = _DIRECTION_CACHE.get(key)
    if directions is None:
        directions = np.array(key, dtype=np.int8)
        directions.setflags(write=False)
        if len(_DIRECTION_CACHE) >= _DIRECTION_CACHE_SIZE:
            _DIRECTION_CACHE.clear()
        _DIRECTION_CACHE[key] = directions
    return directions


def write_planes(board: Board, player: int, out: NDArray[np.float32]) -> NDArray[np.float32]:
    """Write the planes of ``board`` seen by ``player`` into ``out`` and return it.

    The batched environment's kernel writes them, so both write the same planes.

    Args:
        board: the position.
        player: 0 Chocolate, 1 Vanilla.
        out: any ``float32`` array of :data:`NUM_PLANES` × 36 values, e.g. shape ``(13, 6, 6)``.
    """
    forced = 0 if board.turn is None or board.is_open_pick() else board.legal_mask()
    channels_last = out.reshape(NUM_PLANES, NUM_SQUARES).T  # the kernel's (square, plane) order, as a view
    write_view(channels_last, board.kernel_state(), player, np.uint64(forced), board.rules.donuts, _directions(board.layout))
    return out


def planes(board: Board, player: int) -> NDArray[np.float32]:
    """``float32[13, 6, 6]``: the planes of ``board`` seen by ``player`` (channels first).

    Args:
        board: the position.
        player: 0 Chocolate, 1 Vanilla.
    """
    return write_planes(board, player, np.empty((NUM_PLANES, SIZE, SIZE), dtype=np.float32))


@overload
def action_mask(board: Board) -> NDArray[np.int8]: ...
@overload
def action_mask(board: Board, dtype: type[_Scalar]) -> NDArray[_Scalar]: ...
@overload
def action_mask(board: Board, dtype: DTypeLike) -> NDArray[Any]: ...
def action_mask(board: Board, dtype: DTypeLike = np.int8) -> NDArray[Any]:
    """The 36 legal-square flags of ``board`` (all zero once the game is over).

    Args:
        board: the position.
        dtype: the flags' dtype.
    """
    return bits(board.legal_mask()).astype(dtype)
