"""Donuts' private Numba engine: the rules as bitboard kernels, and nothing but the rules.

- :mod:`.tables` (the bit layout); the bit intrinsics and the RNG are
  :mod:`donuts_ai._bits`, the winner and end-reason codes :mod:`donuts_ai.outcomes`'s;
- :mod:`.core`: the rule kernels on bitboards;
- :mod:`.position`: the kernel contract, ``Position`` (from the side to move) and
  ``Rulebook`` (the layout's lines and the rules), the transition ``apply`` that every
  kernel calls, the rule helpers beside it, and the conversions from the Board's
  by-colour state (``position_of``, ``play``);
- :mod:`.playouts` (random games), :mod:`.perft` (perft) and :mod:`.batch` (many games
  stepped at once, behind :class:`donuts_ai.VectorEnv`).

The searches that build on these live beside it in :mod:`donuts_ai.donuts`. Public kernels
are ``@njit(cache=True)``: a typed position and plain arrays in and out, never raising.
Pass bitboards and RNG states as ``np.uint64``: Numba boxes a returned ``uint64`` as a
Python int, and a Python int passed back in compiles an ``int64`` specialization whose
shifts sign-extend.
"""

from ...outcomes import NO_WINNER_YET, WINNER_DRAW
from ..outcomes import REASON_FIVE, REASON_GROUP, REASON_MAJORITY
from .core import (
    final_result,
    flips,
    forced_line,
    has_five,
    largest_group,
    legal_mask,
    next_turn,
    nth_bit,
)
from .perft import perft
from .playouts import playout, random_playouts, random_playouts_parallel
from .position import Position, Rulebook, apply, play, position_of, rulebook_of

__all__ = [
    "NO_WINNER_YET",
    "Position",
    "REASON_FIVE",
    "REASON_GROUP",
    "REASON_MAJORITY",
    "Rulebook",
    "WINNER_DRAW",
    "apply",
    "final_result",
    "flips",
    "forced_line",
    "has_five",
    "largest_group",
    "legal_mask",
    "next_turn",
    "nth_bit",
    "perft",
    "play",
    "playout",
    "position_of",
    "random_playouts",
    "random_playouts_parallel",
    "rulebook_of",
]
