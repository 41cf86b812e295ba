"""What every benchmark shares: the machine it ran on, statistics of repeated
measurements, and printing and saving its figures.

The ``donuts-ai bench`` command and the scripts of ``benchmarks/`` import it, so that a
record of either names its machine the same way.
"""

from __future__ import annotations

import json
import math
import numbers
import os
import platform
import statistics
from collections.abc import Callable, Mapping
from typing import NotRequired, TypedDict, TypeVar

__all__ = ["Machine", "RateStats", "Stats", "machine", "print_and_save", "rate_stats", "stats", "write_json"]

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


class RateStats(Stats):
    """Rates over repeats, each repeat's kept (``rates``, in the order measured) for the record."""

    rates: list[float]


def stats(values: list[float]) -> Stats:
    """The median, least, most and count of ``values``."""
    v = sorted(values)
    return {"median": statistics.median(v), "min": v[0], "max": v[-1], "repeats": len(v)}


def rate_stats(rates: list[float]) -> RateStats:
    """:func:`stats` of ``rates``, keeping each of them."""
    return {**stats(rates), "rates": list(rates)}


def machine() -> Machine:
    """The machine a benchmark runs on.

    Returns:
        Its processor, cores, Python, Numba and NumPy versions.
    """
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


def _strict_json(value: object) -> object:
    """``value`` with NumPy integers as ints, other NumPy numbers as floats, and every float
    that JSON cannot hold (an Elo of a 100% score is infinite) as ``None``: Python's
    ``Infinity`` is not JSON."""
    if isinstance(value, Mapping):
        return {key: _strict_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strict_json(item) for item in value]
    if isinstance(value, (str, bool, int)) or value is None:
        return value
    if isinstance(value, numbers.Integral):  # NumPy's integers
        return int(value)
    number = float(value)  # type: ignore[arg-type]  # a float or a NumPy number
    return number if math.isfinite(number) else None


def write_json(path: str | os.PathLike[str], figures: object) -> None:
    """Write a benchmark's ``figures`` to ``path`` as strict JSON, indented: NumPy integers
    as ints, its other numbers as floats, and every number JSON cannot hold (infinite or
    undefined, as the Elo of a 100% score) as ``null``.

    Args:
        path: the file, replaced.
        figures: the benchmark's results (mappings, lists, strings, numbers, ``None``).
    """
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(_strict_json(figures), fh, indent=1, allow_nan=False)
        fh.write("\n")


def print_and_save(results: _R, report_of: Callable[[_R], str], json_path: str | None) -> int:
    """Print a benchmark's report and, when ``json_path`` is given, write its figures there
    (:func:`write_json`: infinite or undefined numbers, as the Elo of a 100% score, as
    ``null``); the exit status of a benchmark's ``main``."""
    print(report_of(results))
    if json_path:
        write_json(json_path, results)
    return 0
