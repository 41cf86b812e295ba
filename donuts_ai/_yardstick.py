"""The yardstick's kernel (:mod:`donuts_ai.bench.yardstick` measures and explains it): a
fixed workload, kept in a file of its own at the package root so that it depends on
nothing of the library, and so that editing a benchmark leaves every compiled kernel's
cache alone (``_kernel_cache`` drops the caches when a file of a folder that holds kernels
changes). It never changes: a change is a new ``yardstick.VERSION``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: Table size (a power of two) and the seed of the walk.
TABLE_WORDS, SEED = 4096, 0x9E3779B97F4A7C15

# SWAR popcount masks: written out so that the workload depends on nothing else of the library.
_M1, _M2, _M4, _H01 = (np.uint64(0x5555555555555555), np.uint64(0x3333333333333333),
                       np.uint64(0x0F0F0F0F0F0F0F0F), np.uint64(0x0101010101010101))


@njit(cache=True)
def walk(steps: int, seed: np.uint64) -> np.uint64:
    """``steps`` steps of the walk from ``seed``: a checksum of everything it did."""
    table = np.empty(TABLE_WORDS, dtype=np.uint64)
    x = seed
    for i in range(TABLE_WORDS):  # the table from the walk's own generator
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        table[i] = x
    mask = np.uint64(TABLE_WORDS - 1)
    acc = np.uint64(0)
    for _ in range(steps):
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        b = table[x & mask] ^ (x >> np.uint64(11))
        c = b - ((b >> np.uint64(1)) & _M1)
        c = (c & _M2) + ((c >> np.uint64(2)) & _M2)
        bits = (((c + (c >> np.uint64(4))) & _M4) * _H01) >> np.uint64(56)
        if bits & np.uint64(1):  # half the steps, at random: a branch no predictor learns
            acc += bits * (b & np.uint64(0xFFFF))
        else:
            acc ^= b >> np.uint64(3)
        table[(x >> np.uint64(20)) & mask] = b
    return acc
