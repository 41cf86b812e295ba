"""What every benchmark shares: the machine it ran on, and printing and saving its figures
(times as text: :func:`seconds_text`, also used by ``donuts-ai evaluate``'s table).

Kept apart from the benchmarks themselves so that each (engine, interop, boxes, harness)
imports it without importing another benchmark.
"""

from __future__ import annotations

import json
import math
import os
import platform
from collections.abc import Callable, Mapping
from typing import NotRequired, TypedDict, TypeVar

_R = TypeVar("_R", bound=Mapping[str, object])


class Machine(TypedDict):
    """The machine a benchmark ran on (:func:`machine`); the interop benchmark adds the
    versions of the libraries it measured against."""

    cpu: str
    cores: int | None
    python: str
    numba: str
    numpy: str
    open_spiel: NotRequired[str]
    pettingzoo: NotRequired[str]


class Stats(TypedDict):
    """A figure measured over repeats: the median, the least and the most, and how many."""

    median: float
    min: float
    max: float
    repeats: int


def machine() -> Machine:
    """The machine a benchmark ran on: processor, cores, Python, Numba and NumPy versions."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    import numba
    import numpy

    numba_version: str = numba.__version__
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(), "numba": numba_version,
            "numpy": numpy.__version__}


def seconds_text(seconds: float | None) -> str:
    """A time as text in the unit that keeps its digits: ``1.20 s``, ``420 ms``,
    ``0.42 ms`` (from 0.1 ms), ``37.0 µs``, ``3.00 ns``; three significant digits (two
    from 0.1 to 1 ms); ``0 s`` for zero, ``-`` for ``None`` or NaN."""
    if seconds is None or math.isnan(seconds):
        return "-"
    if seconds == 0 or math.isinf(seconds):
        return f"{seconds:g} s"
    rounded = float(f"{seconds:.3g}")  # first to three digits, so that 0.9996 s reads 1.00 s, not 1000 ms
    size = abs(rounded)
    value, unit = ((rounded, "s") if size >= 1 else (rounded * 1e3, "ms") if size >= 1e-4
                   else (rounded * 1e6, "µs") if size >= 1e-6 else (rounded * 1e9, "ns"))
    digits = 0 if abs(value) >= 100 else 1 if abs(value) >= 10 else 2
    return f"{value:.{digits}f} {unit}"


def print_and_save(results: _R, report_of: Callable[[_R], str], json_path: str | None) -> int:
    """Print a benchmark's report and, when ``json_path`` is given, write its figures there
    (NumPy numbers as floats); the exit status of a benchmark's ``main``."""
    print(report_of(results))
    if json_path:
        with open(json_path, "w") as fh:
            json.dump(results, fh, indent=1, default=float)
    return 0
