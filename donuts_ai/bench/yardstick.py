"""The yardstick: a fixed compiled workload whose speed stands for the machine's.

Every ``donuts-ai bench`` run measures the yardstick beside its figures, interleaved with
them (just before each figure), and keeps its rate in the record (run metadata
:data:`RATE_KEY`, with :data:`VERSION_KEY`). A figure divided by the yardstick's rate of
the same run no longer says how fast the machine is, only how fast the code is on it: so
figures measured on two machines compare (fishtest scales its time control by each
worker's ``bench`` speed; Fhourstones names a machine by one fixed workload). The tables
show each figure as measured and *normalised*: as it would read on a machine whose
yardstick runs at :data:`REFERENCE_RATE` steps a second.

The workload is the kind of work the engine does, on one core: a xorshift64 walk that
reads and writes a table of 4,096 words (32 KiB, L1-resident), counts bits, and takes a
branch the predictor cannot learn. It is self-contained (no helper of the library that
could change), and it never changes: a change would be a new :data:`VERSION`, and
records of two versions are not normalised against each other. ``tests`` pin its
fingerprint (:func:`fingerprint`).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

#: The yardstick's version: records normalise against each other only at the same version.
VERSION = 1
#: The rate normalised figures are scaled to (yardstick steps a second): of the order of the
#: 2-core VMs the committed records come from, so that normalised figures read like rates.
#: Fixed for good, as the workload is.
REFERENCE_RATE = 100e6
#: Run metadata: the yardstick's rate (steps a second) measured just before the figure, and its version.
RATE_KEY, VERSION_KEY = "yardstick_rate", "yardstick_version"
#: Steps of one call, and the least wall time a measurement lasts (pyperf's 100 ms a value).
STEPS, MIN_SECONDS = 2_000_000, 0.1
#: Table size (a power of two) and the seed of the walk.
TABLE_WORDS, SEED = 4096, 0x9E3779B97F4A7C15

# SWAR popcount masks: written out so that the workload depends on nothing else of the library.
_M1, _M2, _M4, _H01 = (np.uint64(0x5555555555555555), np.uint64(0x3333333333333333),
                       np.uint64(0x0F0F0F0F0F0F0F0F), np.uint64(0x0101010101010101))


@njit(cache=True)
def _walk(steps: int, seed: np.uint64) -> np.uint64:
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


def fingerprint(steps: int = 1000) -> int:
    """The checksum of ``steps`` steps: pinned by the tests, so the workload cannot change unnoticed."""
    return int(_walk(steps, np.uint64(SEED)))


def rate(min_seconds: float = MIN_SECONDS) -> float:
    """The yardstick's steps a second on this machine now: calls of :data:`STEPS` steps
    for at least ``min_seconds`` of wall time, after one call that compiles or loads it."""
    _walk(1000, np.uint64(SEED))
    steps, start = 0, time.perf_counter()
    while True:
        _walk(STEPS, np.uint64(SEED))
        steps += STEPS
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return steps / elapsed
