"""The observation planes: what a network (and PettingZoo, OpenSpiel and the batched
environment) sees of a Donuts position, named once, in this order, and the compiled
kernels that write them. The public face of the engine's planes, for the learner and the
interop modules; what each plane holds is drawn in ``donuts_ai/interop/_planes.py``.

An observation is ``float32[36, NUM_PLANES]`` (square, plane), seen by one player, the
observer: :func:`mover_view` is the view of the side to move (the batched environment's
and the learner's), :func:`write_planes` writes a view, :func:`write_view` writes any
player's view of a position given as :meth:`~donuts_ai.Board.kernel_state` gives it.
"""

from __future__ import annotations

from ._kernels.batch import GAME, Seen, mover_view, write_view
from ._kernels.batch import _write_planes as write_planes
from ._kernels.planes import (
    FORCED_LINE,
    LAST,
    LINE_DIRECTIONS,
    NUM_DIRECTIONS,
    NUM_PLANES,
    OPEN_PICK,
    OPPONENT,
    OPPONENT_POOL,
    OWN,
    OWN_POOL,
    PLANE_NAMES,
    TO_MOVE,
    VANILLA,
)

__all__ = [
    "FORCED_LINE",
    "LAST",
    "LINE_DIRECTIONS",
    "NUM_DIRECTIONS",
    "NUM_PLANES",
    "OPEN_PICK",
    "OPPONENT",
    "OPPONENT_POOL",
    "OWN",
    "OWN_POOL",
    "PLANE_NAMES",
    "SEARCH_ROOT",
    "TO_MOVE",
    "VANILLA",
    "Seen",
    "mover_view",
    "write_planes",
    "write_view",
]

#: The record of one game of the compiled batch (a NumPy dtype): the batched
#: environment's games, and the roots of the learned agent's batched search (its
#: position, whose turn, the legal squares, the layout's lines and directions).
SEARCH_ROOT = GAME
