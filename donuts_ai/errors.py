"""Exceptions raised by the Python layer of donuts_ai.

Every error the library raises for bad input subclasses :class:`DonutsError`,
which subclasses :class:`ValueError`, so ``except ValueError`` catches them all.
The Numba kernels never raise: the Python layer checks input before calling them.
"""

from __future__ import annotations


class DonutsError(ValueError):
    """Base class of every bad-input error raised by donuts_ai."""


class InvalidMoveError(DonutsError):
    """A move could not be parsed (not a square name like ``"c3"`` nor an index 0..35)."""


class IllegalMoveError(DonutsError):
    """A well-formed move that is not legal in the current position."""


class LayoutError(DonutsError):
    """A layout (direction grid, layout text or tile arrangement) is malformed."""


class PositionError(DonutsError):
    """A position string (``Board.fen()``) is malformed or describes an impossible position."""


class RulesError(DonutsError):
    """A :class:`~donuts_ai.Rules` value has an unknown or out-of-range setting."""


class SymmetryError(DonutsError):
    """An unknown symmetry name (see :data:`donuts_ai.symmetry.SYMMETRY_NAMES`)."""


class SearchStopped(RuntimeError):
    """A search was stopped from another thread (:meth:`donuts_ai.Solver.stop`): not bad
    input, so not a :class:`DonutsError`; the background analysis that owns the solver
    ends quietly on it."""
