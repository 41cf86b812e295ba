"""Exceptions raised by the Python layer of donuts_ai.

Every error the library raises for bad input subclasses :class:`DonutsError`,
which subclasses :class:`ValueError`, so ``except ValueError`` catches them all.
The Numba kernels never raise: the Python layer checks input before calling them.
This module holds the errors both games share; Donuts' own (layouts, positions, rules,
symmetries) are :mod:`donuts_ai.donuts.errors`, Donut Boxes' :mod:`donuts_ai.boxes.errors`.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any


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


class SearchStopped(RuntimeError):
    """A search was stopped from another thread (:meth:`donuts_ai.Solver.stop`): not bad
    input, so not a :class:`DonutsError`; the background analysis that owns the solver
    ends quietly on it."""


#: Donuts' errors, here before 0.5.0: still importable from this module, with a
#: :class:`DeprecationWarning`, until 0.6 (their home is :mod:`donuts_ai.donuts.errors`).
_MOVED_TO_DONUTS = ("LayoutError", "PositionError", "RulesError", "SymmetryError")


def __getattr__(name: str) -> Any:
    if name in _MOVED_TO_DONUTS:
        warnings.warn(f"donuts_ai.errors.{name} is deprecated since 0.5.0: import it from donuts_ai or "
                      f"donuts_ai.donuts.errors", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module("donuts_ai.donuts.errors"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
