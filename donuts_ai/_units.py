"""Quantities as text for tables, written once for every table of the package."""

from __future__ import annotations

import math


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
