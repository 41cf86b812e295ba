"""Bit intrinsics and the random-number generator the kernels share: Donuts' engine and
searches, and the game-agnostic tree searches of :mod:`donuts_ai.search` (so it sits at
the package root, below the games).

``popcount``/``ctz``/``clz`` compile to single instructions (LLVM ``ctpop``/``cttz``/
``ctlz``) rather than loops. The RNG is our own xorshift64* seeded through
splitmix64, carried as a plain ``uint64`` state through the kernels: it is
independent of NumPy's and of Numba's per-thread generators, so a seed gives the
same games on any number of threads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]  # llvmlite ships no type information
from numba import njit, types
from numba.extending import intrinsic

from ._numba_types import Int64

#: The ``is_zero_poison`` flag of LLVM's ``cttz``/``ctlz``: false, a zero input gives a defined result.
_ZERO_IS_DEFINED = ir.Constant(ir.IntType(1), 0)

#: ``uint64`` zero and one, for the kernels' bitboard arithmetic (``bits & (bits - ONE)``):
#: a Python int beside a ``uint64`` makes Numba widen both to float64.
ZERO = np.uint64(0)
ONE = np.uint64(1)


def _uint64_intrinsic(name: str, doc: str, build: Callable[[Any, Any], Any]) -> Callable[[np.uint64], np.int64]:
    """A Numba intrinsic from ``uint64`` to ``int64`` emitting ``build(builder, x)``."""

    # Numba's typing and LLVM builder objects carry no type information: ``Any`` here.
    def typer(typingctx: Any, x: Any) -> Any:
        if x != types.uint64:
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return build(builder, args[0])

        return types.int64(types.uint64), codegen

    typer.__name__ = typer.__qualname__ = name
    typer.__doc__ = doc
    # An intrinsic can only be called inside kernels, where it is this ``uint64 -> int64`` function
    # (numba's stubs type a call from Python, which raises, as ``Never``).
    return cast("Callable[[np.uint64], np.int64]", intrinsic(typer))


popcount = _uint64_intrinsic("popcount", "Number of set bits of a ``uint64`` (as ``int64``).", lambda b, x: b.ctpop(x))
ctz = _uint64_intrinsic("ctz", "Index of the lowest set bit of a non-zero ``uint64``.",
                        lambda b, x: b.cttz(x, _ZERO_IS_DEFINED))
clz = _uint64_intrinsic("clz", "Number of leading zero bits of a non-zero ``uint64``.",
                        lambda b, x: b.ctlz(x, _ZERO_IS_DEFINED))


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_XS_MULT = np.uint64(0x2545F4914F6CDD1D)


@njit(cache=True)
def splitmix64(x: np.uint64) -> np.uint64:
    """One splitmix64 step: a well-mixed ``uint64`` of ``x`` (used to derive seeds)."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def rng_seed(seed: np.uint64, stream: np.uint64) -> np.uint64:
    """Non-zero xorshift state for game stream ``stream`` of ``seed`` (both ``uint64``)."""
    s = splitmix64(seed ^ splitmix64(stream))
    if s == np.uint64(0):
        s = _GOLDEN
    return s


@njit(cache=True)
def rng_next(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Advance a xorshift64* state; returns (new_state, 64 random bits)."""
    state ^= state >> np.uint64(12)
    state ^= state << np.uint64(25)
    state ^= state >> np.uint64(27)
    return state, state * _XS_MULT


@njit(cache=True)
def rng_below(state: np.uint64, n: Int64) -> tuple[np.uint64, np.int64]:
    """Advance ``state``; returns (new_state, a random int in [0, n)) for 0 < n < 2**32.

    Lemire's multiply-shift on the top 32 bits: no division, bias below 2**-26.
    """
    state, r = rng_next(state)
    return state, np.int64(((r >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))
