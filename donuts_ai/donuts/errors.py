"""The errors of Donuts' own vocabulary: layouts, positions, rules and symmetries (each a
:class:`~donuts_ai.errors.DonutsError`, so a ``ValueError``). The errors every game shares
are :mod:`donuts_ai.errors`'s; the package root re-exports these
(``from donuts_ai import LayoutError``)."""

from __future__ import annotations

from ..errors import DonutsError


class LayoutError(DonutsError):
    """A layout (direction grid, layout text or tile arrangement) is malformed."""


class PositionError(DonutsError):
    """A position string (``Board.fen()``) is malformed or describes an impossible position."""


class RulesError(DonutsError):
    """A :class:`~donuts_ai.Rules` value has an unknown or out-of-range setting."""


class SymmetryError(DonutsError):
    """An unknown symmetry name (see :data:`donuts_ai.donuts.symmetry.SYMMETRY_NAMES`)."""


__all__ = ["LayoutError", "PositionError", "RulesError", "SymmetryError"]
