"""Private Numba engine: the rules as bitboard kernels, and nothing but the rules.

- :mod:`.bits` (bit intrinsics, the RNG), :mod:`.tables` (the bit layout);
- :mod:`.core`: the rule kernels on bitboards, and ``play`` by colour for the Board;
- :mod:`.position`: the kernel contract, ``Position`` (from the side to move) and
  ``Game``, with the rule helpers every kernel asks (``place``, ``is_over_after``,
  ``next_position``, ``plies_left``, ...) and ``position_of``, the one conversion
  from the Board's by-colour state;
- :mod:`.playouts` (random games), :mod:`.tree` (perft) and :mod:`.batch` (many games
  stepped at once, behind :class:`donuts_ai.VectorEnv`).

The search algorithms that build on these live in :mod:`donuts_ai.search`. Public
kernels are ``@njit(cache=True)``: a typed position and plain arrays in and out,
never raising.

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
from .position import Game, Position, game_of, position_of
from .tree import perft

__all__ = [
    "DRAW",
    "Game",
    "ONGOING",
    "Position",
    "REASON_FIVE",
    "REASON_GROUP",
    "REASON_MAJORITY",
    "final_result",
    "game_of",
    "flips",
    "has_five",
    "largest_group",
    "legal_mask",
    "next_turn",
    "nth_bit",
    "perft",
    "play",
    "position_of",
    "playout",
    "random_playouts",
    "random_playouts_parallel",
]
