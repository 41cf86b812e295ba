"""The argument checks every public function shares: one wording for every error.

Each returns the value, converted (``int``, ``float``), or raises a ``DonutsError``
subclass (``error``) naming the argument, what it must be, and what it got. ``bool`` is
never taken for a number, and NumPy integers count as ints.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Callable
from typing import Literal, TypeGuard, overload

from .errors import DonutsError


def is_int(value: object) -> TypeGuard[numbers.Integral]:
    """An integer that is not a bool (NumPy integers included)."""
    # A plain int first: the ABC's isinstance is slow, and observations are checked square by square.
    return type(value) is int or (isinstance(value, numbers.Integral) and not isinstance(value, bool))


@overload
def check_int(name: str, value: int, minimum: int | None = None, maximum: int | None = None, allow_none: bool = False,
              error: type[DonutsError] = DonutsError) -> int: ...
@overload
def check_int(name: str, value: object, minimum: int | None = None, maximum: int | None = None,
              allow_none: Literal[False] = False, error: type[DonutsError] = DonutsError) -> int: ...
@overload
def check_int(name: str, value: object, minimum: int | None = None, maximum: int | None = None, allow_none: bool = False,
              error: type[DonutsError] = DonutsError) -> int | None: ...
def check_int(name: str, value: object, minimum: int | None = None, maximum: int | None = None, allow_none: bool = False,
              error: type[DonutsError] = DonutsError) -> int | None:
    """``value`` as an int within ``minimum..maximum`` (either may be open)."""
    if value is None and allow_none:
        return None
    # ``not value <= maximum`` is ``value > maximum`` for an integer: ``numbers.Integral`` types only ``<``/``<=``.
    if not is_int(value) or (minimum is not None and value < minimum) or (maximum is not None and not value <= maximum):
        if minimum == 1 and maximum is None:
            what = "a positive int"
        elif minimum is not None and maximum is not None:
            what = f"an int in {minimum}..{maximum}"
        elif minimum is not None:
            what = f"an int >= {minimum}"
        else:
            what = "an int"
        raise error(f"{name} must be {what}{' or None' if allow_none else ''}, got {value!r}")
    return int(value)


#: The largest seed: seeds are 64-bit words (NumPy's SeedSequence takes any int >= 0; the
#: compiled kernels take a uint64, so a larger seed would be folded and collide).
MAX_SEED = 2**64 - 1


@overload
def check_seed(name: str, value: object, allow_none: Literal[False], error: type[DonutsError] = DonutsError) -> int: ...
@overload
def check_seed(name: str, value: object, allow_none: bool = True, error: type[DonutsError] = DonutsError) -> int | None: ...
def check_seed(name: str, value: object, allow_none: bool = True, error: type[DonutsError] = DonutsError) -> int | None:
    """``value`` as a seed, Gymnasium's rule: a Python or NumPy integer (not a bool) in
    ``0..``:data:`MAX_SEED`; ``None`` (a fresh draw) unless said otherwise. Strings,
    floats, bools, negative and larger values are refused, naming what was given."""
    if value is None and allow_none:
        return None
    if not is_int(value) or value < 0 or not value <= MAX_SEED:
        got = f"{type(value).__name__} {value!r}" if not is_int(value) else repr(value)
        raise error(f"{name} must be an int in 0..2**64-1{' or None' if allow_none else ''} "
                    f"(a Python or NumPy integer), got {got}")
    return int(value)


@overload
def check_seconds(name: str, value: float, allow_none: bool = True, error: type[DonutsError] = DonutsError) -> float: ...
@overload
def check_seconds(name: str, value: object, allow_none: Literal[False], error: type[DonutsError] = DonutsError) -> float: ...
@overload
def check_seconds(name: str, value: object, allow_none: bool = True, error: type[DonutsError] = DonutsError) -> float | None: ...
def check_seconds(name: str, value: object, allow_none: bool = True, error: type[DonutsError] = DonutsError) -> float | None:
    """``value`` as a positive, finite number of seconds (``None`` allowed unless said otherwise)."""
    if value is None and allow_none:
        return None
    # ``not value <= 0`` is ``0 < value`` here (NaN fails ``value < math.inf``): ``numbers.Real`` types only ``<``/``<=``.
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not (value < math.inf and not value <= 0):
        raise error(f"{name} must be a positive number of seconds, got {value!r}")
    return float(value)


def check_nonnegative(name: str, value: object, error: type[DonutsError] = DonutsError) -> float:
    """``value`` (an int or a float, not a bool) as a float >= 0 (NaN is refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
        raise error(f"{name} must be a number >= 0, got {value!r}")
    return float(value)


def check_output_file(name: str, path: str | os.PathLike[str], error: type[DonutsError] = DonutsError) -> str:
    """``path`` as a str, where a file can be written: its folder exists and it is not a
    folder itself. Checked before the work whose result it is to hold (an evaluation, a
    benchmark's runs), so that the work is not done for nothing."""
    text = os.fspath(path)
    if os.path.isdir(text):
        raise error(f"{name} {text!r} is a folder, not a file")
    if os.path.exists(text):  # (writing it needs its own permission, not its folder's)
        if not os.access(text, os.W_OK):
            raise error(f"{name} {text!r} cannot be written")
        return text
    folder = os.path.dirname(text) or "."
    if not os.path.isdir(folder):
        raise error(f"{name} {text!r}: no folder {folder!r}")
    if not os.access(folder, os.W_OK):
        raise error(f"{name} {text!r}: the folder {folder!r} cannot be written")
    return text


def reads_as(load: Callable[[str], object], refusal: type[Exception]) -> Callable[[str], bool]:
    """The ``is_own_kind`` of :func:`check_replaceable` for a kind that ``load`` reads: whether
    ``load(path)`` reads the file without raising ``refusal`` (its "not this kind")."""

    def is_own_kind(path: str) -> bool:
        try:
            load(path)
        except refusal:
            return False
        return True

    return is_own_kind


def check_replaceable(name: str, path: str, is_own_kind: Callable[[str], bool], kind: str,
                      error: type[DonutsError] = DonutsError) -> None:
    """Refuse to write over an existing ``path`` unless it holds an output of the same
    ``kind`` (``is_own_kind``): a record replaces a record, but a results file, say, is kept."""
    if os.path.exists(path) and not is_own_kind(path):
        raise error(f"{name} {path!r} exists and is not {kind}: choose another file (it would be replaced)")
