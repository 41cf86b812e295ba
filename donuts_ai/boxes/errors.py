"""Errors of the Donut Boxes game: every one a :class:`~donuts_ai.errors.DonutsError` (a ``ValueError``).

:class:`BoxesIllegalMoveError` and :class:`BoxesInvalidMoveError` also subclass the board
game's :class:`~donuts_ai.errors.IllegalMoveError` / :class:`~donuts_ai.errors.InvalidMoveError`,
so code written against either game catches both.
"""

from __future__ import annotations

from ..errors import DonutsError
from ..errors import IllegalMoveError as _BoardIllegalMoveError
from ..errors import InvalidMoveError as _BoardInvalidMoveError


class BoxesError(DonutsError):
    """Base class of every bad-input error of :mod:`donuts_ai.boxes`."""


class BoxesRulesError(BoxesError):
    """A :class:`~donuts_ai.boxes.BoxesRules` value has an unknown or out-of-range setting."""


class BoxesInvalidMoveError(BoxesError, _BoardInvalidMoveError):
    """A move text that does not follow the move grammar (see :mod:`donuts_ai.boxes.moves`)."""


class BoxesIllegalMoveError(BoxesError, _BoardIllegalMoveError):
    """A well-formed move that is not legal in the current state (the state is unchanged)."""


class ObservationError(BoxesError):
    """An observation (``BoxesState.observation``) or state dictionary that is malformed or impossible."""


class GameOverError(BoxesError):
    """A move was asked of a game that is over."""


#: The short names: ``from donuts_ai.boxes import IllegalMoveError`` catches an illegal Donut Boxes move.
IllegalMoveError = BoxesIllegalMoveError
InvalidMoveError = BoxesInvalidMoveError
