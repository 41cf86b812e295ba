"""The argument checks every public function shares: one wording for every error.

Each returns the value, converted (``int``, ``float``), or raises a ``DonutsError``
subclass (``error``) naming the argument, what it must be, and what it got. ``bool`` is
never taken for a number, and NumPy integers count as ints.
"""

from __future__ import annotations

import math
import numbers

from .errors import DonutsError


def is_int(value: object) -> bool:
    """An integer that is not a bool (NumPy integers included)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_int(name: str, value, minimum: int | None = None, maximum: int | None = None, allow_none: bool = False,
              error: type[DonutsError] = DonutsError) -> int | None:
    """``value`` as an int within ``minimum..maximum`` (either may be open)."""
    if value is None and allow_none:
        return None
    if not is_int(value) or (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        if minimum == 1 and maximum is None:
            what = "a positive int"
        elif minimum is not None and maximum is not None:
            what = f"an int in {minimum}..{maximum}"
        elif minimum is not None:
            what = f"an int >= {minimum}"
        else:
            what = "an int"
        raise error(f"{name} must be {what}, got {value!r}")
    return int(value)


def check_seconds(name: str, value, allow_none: bool = True, error: type[DonutsError] = DonutsError) -> float | None:
    """``value`` as a positive, finite number of seconds (``None`` allowed unless said otherwise)."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 < value < math.inf:
        raise error(f"{name} must be a positive number of seconds, got {value!r}")
    return float(value)


def check_nonnegative(name: str, value, error: type[DonutsError] = DonutsError) -> float:
    """``value`` (an int or a float, not a bool) as a float >= 0 (NaN is refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
        raise error(f"{name} must be a number >= 0, got {value!r}")
    return float(value)
