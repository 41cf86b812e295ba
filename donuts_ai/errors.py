"""Exceptions raised by the Python layer of donuts_ai.

Every error the library raises for bad input subclasses :class:`DonutsError`,
which subclasses :class:`ValueError`, so ``except ValueError`` catches them all.
The Numba kernels never raise: the Python layer checks input before calling them.
"""

from __future__ import annotations


class DonutsError(ValueError):
    """Base class of every bad-input error raised by donuts_ai."""


class InvalidMoveError(DonutsError):
    """A move that could not be parsed, in either game: for Donuts not a square name like
    ``"c3"`` nor an index 0..35; for Donut Boxes a text outside the move grammar
    (:mod:`donuts_ai.boxes.moves`)."""


class IllegalMoveError(DonutsError):
    """A well-formed move that is not legal in the current position (either game; the
    position is unchanged)."""


class GameOverError(IllegalMoveError):
    """A move asked of a finished game, in either game: a move played
    (``Board.push``, ``BoxesState`` moves), a move asked of an agent
    (``select_move``) or of a play session. It is an :class:`IllegalMoveError` (no move
    is legal once the game is over), so ``except IllegalMoveError`` catches it too."""


class AgentError(DonutsError):
    """A bad argument to an agent of either game: a constructor option, or a ``time_left``
    that is not ``None`` nor a finite number of seconds >= 0
    (:func:`donuts_ai.agents.base.check_time_left`)."""


class LayoutError(DonutsError):
    """A layout (direction grid, layout text or tile arrangement) is malformed."""


class PositionError(DonutsError):
    """A position string (``Board.fen()``) is malformed or describes an impossible position."""


class RulesError(DonutsError):
    """A :class:`~donuts_ai.Rules` value has an unknown or out-of-range setting."""


class SymmetryError(DonutsError):
    """An unknown symmetry name (see :data:`donuts_ai.donuts.symmetry.SYMMETRY_NAMES`)."""


class SearchStopped(RuntimeError):
    """A search was stopped from another thread (:meth:`donuts_ai.Solver.stop`): not bad
    input, so not a :class:`DonutsError`; the background analysis that owns the solver
    ends quietly on it."""
