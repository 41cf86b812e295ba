"""Private Numba engine: bitboard tables and kernels. Search code calls these directly.

Public kernels (all ``@njit(cache=True)``; plain ints/arrays in and out, never raising):
``legal_mask``, ``flips``, ``has_five``, ``largest_group``, ``next_turn``,
``final_result``, ``play``, ``playout``, ``random_playouts``,
``random_playouts_parallel``, ``perft``.

Pass bitboards and RNG states as ``np.uint64``: Numba boxes a returned ``uint64`` as
a Python int, and a Python int passed back in compiles an ``int64`` specialization
whose shifts sign-extend. (The bit layout is drawn in :mod:`.tables`.)
"""

from .core import (
    DRAW,
    ONGOING,
    REASON_FIVE,
    REASON_GROUP,
    REASON_MAJORITY,
    final_result,
    flips,
    has_five,
    largest_group,
    legal_mask,
    next_turn,
    nth_bit,
    play,
)
from .playouts import playout, random_playouts, random_playouts_parallel
from .tree import perft

__all__ = [
    "DRAW",
    "ONGOING",
    "REASON_FIVE",
    "REASON_GROUP",
    "REASON_MAJORITY",
    "final_result",
    "flips",
    "has_five",
    "largest_group",
    "legal_mask",
    "next_turn",
    "nth_bit",
    "perft",
    "play",
    "playout",
    "random_playouts",
    "random_playouts_parallel",
]
