"""Errors of the Donut Boxes game alone: every one a :class:`~donuts_ai.errors.DonutsError` (a ``ValueError``).

The errors every game raises live in :mod:`donuts_ai.errors`, their one home: an unreadable
move text is an :class:`~donuts_ai.errors.InvalidMoveError`, an illegal move an
:class:`~donuts_ai.errors.IllegalMoveError` and a move after the end a
:class:`~donuts_ai.errors.GameOverError`, in Donut Boxes as in Donuts.
"""

from __future__ import annotations

from ..errors import DonutsError


class BoxesError(DonutsError):
    """Base class of the bad-input errors only :mod:`donuts_ai.boxes` raises (rules,
    observations, seeds, agent options)."""


class BoxesRulesError(BoxesError):
    """A :class:`~donuts_ai.boxes.BoxesRules` value has an unknown or out-of-range setting."""


class ObservationError(BoxesError):
    """An observation (``BoxesState.observation``) or state dictionary that is malformed or impossible."""


class EncodingError(BoxesError):
    """A move off the table of an :class:`~donuts_ai.boxes.encoding.ActionEncoding`, an action
    index out of its range, a bad table radius, or a view of another number of players."""
