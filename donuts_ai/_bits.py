"""Bit and memory intrinsics and the random-number generator the kernels share: Donuts'
engine and searches, and the game-agnostic tree searches of :mod:`donuts_ai.search` (so it
sits at the package root, below the games).

``popcount``/``ctz``/``clz`` compile to single instructions (LLVM ``ctpop``/``cttz``/
``ctlz``) rather than loops; ``prefetch`` asks for a table row ahead of its read, and
``cache_aligned_zeros`` makes tables whose buckets each fill one cache line. The RNG is our
own xorshift64* seeded through splitmix64, carried as a plain ``uint64`` state through the
kernels: it is
independent of NumPy's and of Numba's per-thread generators, so a seed gives the
same games on any number of threads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]  # llvmlite ships no type information
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numpy.typing import NDArray

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


#: ``@njit`` options of a kernel that allocates no array and keeps none: Numba's reference
#: counting left out (its private ``_nrt`` option), so that a call does not count its array
#: arguments in and out (an atomic add on a count that threads sharing the array contend for).
WITHOUT_REFCOUNTS: dict[str, Any] = {"_nrt": False}

#: Bytes of a cache line on the machines the library runs on (x86-64, and ARM64 but Apple's).
CACHE_LINE_BYTES = 64
# llvm.prefetch's arguments: a read (not a write), kept in every cache level (the highest
# temporal locality: the row is read again while its node is open), data (not instructions).
_PREFETCH_READ, _PREFETCH_KEEP, _PREFETCH_DATA = 0, 3, 1


def _prefetch_typer(typingctx: Any, table: Any, row: Any) -> Any:
    if not isinstance(table, types.Array) or table.ndim != 2 or not isinstance(row, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        array_type = signature.args[0]
        array = context.make_array(array_type)(context, builder, args[0])
        first_word = cgutils.get_item_pointer(context, builder, array_type, array, [args[1], context.get_constant(types.intp, 0)])
        i8_pointer, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [i8_pointer, i32, i32, i32]), "llvm.prefetch.p0i8")
        flags = [ir.Constant(i32, flag) for flag in (_PREFETCH_READ, _PREFETCH_KEEP, _PREFETCH_DATA)]
        builder.call(function, [builder.bitcast(first_word, i8_pointer), *flags])
        return context.get_dummy_value()

    return types.void(table, row), codegen


_prefetch_typer.__name__ = _prefetch_typer.__qualname__ = "prefetch"
_prefetch_typer.__doc__ = """``prefetch(table, row)``: start loading the cache line of ``table[row, 0]`` (a 2-D array)
without waiting for it, so that a read of the row a little later finds it in the cache. A
hint: no effect on any value, no fault on any address; the row is not bounds-checked."""
prefetch = cast("Callable[[Any, Any], None]", intrinsic(_prefetch_typer))


def cache_aligned_zeros(rows: int, words: int) -> NDArray[np.uint64]:
    """A zeroed C-contiguous ``uint64[rows, words]`` whose first word starts a cache line:
    with ``words * 8`` dividing :data:`CACHE_LINE_BYTES` (or a multiple of it), no row
    straddles two lines (NumPy aligns to 16 bytes only)."""
    line_words = CACHE_LINE_BYTES // 8
    raw = np.zeros(rows * words + line_words, dtype=np.uint64)
    skip = (-raw.ctypes.data % CACHE_LINE_BYTES) // 8
    return raw[skip:skip + rows * words].reshape(rows, words)


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
