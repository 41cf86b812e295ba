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

import statistics
import time

import numpy as np

from .._yardstick import SEED, walk

#: The yardstick's version: records normalise against each other only at the same version.
VERSION = 1
#: The rate normalised figures are scaled to (yardstick steps a second): of the order of the
#: 2-core VMs the committed records come from, so that normalised figures read like rates.
#: Fixed for good, as the workload is.
REFERENCE_RATE = 100e6
#: Run metadata: the yardstick's rate (steps a second) measured just before the figure, and its version.
RATE_KEY, VERSION_KEY = "yardstick_rate", "yardstick_version"
#: Steps of one call, the least wall time a measurement lasts (pyperf's 100 ms a value), and
#: the windows it is measured in (their median is the rate).
STEPS, MIN_SECONDS, WINDOWS = 2_000_000, 0.1, 5
def fingerprint(steps: int = 1000) -> int:
    """The checksum of ``steps`` steps: pinned by the tests, so the workload cannot change unnoticed."""
    return int(walk(steps, np.uint64(SEED)))


def rate(min_seconds: float = MIN_SECONDS) -> float:
    """The yardstick's steps a second on this machine now, after one call that compiles or
    loads it: the median of :data:`WINDOWS` windows of calls of :data:`STEPS` steps, each
    window at least ``min_seconds / WINDOWS`` long, so that a burst of another process
    in one window does not move it."""
    walk(1000, np.uint64(SEED))
    rates = []
    for _ in range(WINDOWS):
        steps, start = 0, time.perf_counter()
        while True:
            walk(STEPS, np.uint64(SEED))
            steps += STEPS
            elapsed = time.perf_counter() - start
            if elapsed >= min_seconds / WINDOWS:
                rates.append(steps / elapsed)
                break
    return statistics.median(rates)
