"""The search workspace: per-search scratch arrays, named, allocated once per searcher.

It is one NumPy record (a structured dtype whose fields are fixed-size arrays), passed
to the kernels as a one-element array and to the recursion as the record itself.
Numba passes a record by reference and its field arrays carry no reference count, so
handing it down the recursion costs one pointer. (A ``NamedTuple`` of six such
arrays made the alpha-beta search about three times slower: Numba counts references
to every array of a tuple on every call.)

Nothing here outlives a search's meaning except the move-ordering memory (history and
killers), which the solver and the agent keep from search to search on one game.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..squares import NUM_SQUARES
from ._scores import MAX_PLY

#: Killer moves remembered per ply.
KILLERS_PER_PLY = 2
#: Entries of the ``stats`` field: nodes searched, the node limit, 1 once aborted.
NODES, NODE_LIMIT, ABORTED = 0, 1, 2
NUM_STATS = 3

WORKSPACE = np.dtype(
    [
        ("history", np.int64, (NUM_SQUARES,)),  # cut-off weight per square, see _ordering.history_bonus
        ("counter", np.int64, (NUM_SQUARES + 1, NUM_SQUARES)),  # cut-off weight per (last square + 1, square)
        ("killers", np.int64, (MAX_PLY, KILLERS_PER_PLY)),  # the last cut-off moves per ply, -1 none
        ("moves", np.int64, (MAX_PLY, NUM_SQUARES)),  # the open moves of the node at each ply, then sorted
        ("keys", np.int64, (MAX_PLY, NUM_SQUARES)),  # their ordering keys
        ("flips", np.uint64, (MAX_PLY, NUM_SQUARES)),  # what each legal move flips, legal moves in square order
        ("stats", np.int64, (NUM_STATS,)),  # NODES, NODE_LIMIT, ABORTED
        ("line_masks", np.uint64, (NUM_SQUARES,)),  # the game's lines, copied in by negamax at a search's root
    ]
)


def new_workspace() -> NDArray[np.void]:
    """A fresh workspace: a one-element array of :data:`WORKSPACE` (kernels take ``ws[0]``)."""
    ws = np.zeros(1, dtype=WORKSPACE)
    ws["killers"] = -1
    return ws
