"""Exceptions raised by the Python layer of donuts_ai.

A game's bad input (a move, a set-up, a state's text) is a :class:`GameError`, a
:class:`ValueError`: a game from outside the package raises it (or a subclass), and the
harness and the searches catch it. Every error the library itself raises for bad input
subclasses :class:`DonutsError`, a :class:`GameError`, so ``except ValueError`` catches them all.
The Numba kernels never raise: the Python layer checks input before calling them.
This module holds the errors every game shares; each game's own are in its folder's
``errors`` module (:mod:`donuts_ai.donuts.errors`, :mod:`donuts_ai.boxes.errors`,
:mod:`donuts_ai.connect_four.errors`), each under :class:`DonutsError`.
"""

from __future__ import annotations


class GameError(ValueError):
    """Bad input to a game: what a game of one's own raises (see :mod:`donuts_ai.game`),
    and the base of :class:`DonutsError`."""


class DonutsError(GameError):
    """Base class of every bad-input error raised by donuts_ai (every game of the
    package and the library around them)."""


class InvalidMoveError(DonutsError):
    """A move that could not be parsed, in any game: for Donuts not a square name like
    ``"c3"`` nor an index 0..35; for Donut Boxes a text outside the move grammar
    (:mod:`donuts_ai.boxes.moves`)."""


class IllegalMoveError(DonutsError):
    """A well-formed move that is not legal in the current position (the
    position is unchanged), in any game."""


class GameOverError(IllegalMoveError):
    """A move asked of a finished game, in any game: a move played
    (``Board.push``, ``BoxesState`` moves), a move asked of an agent
    (``select_move``) or of a play session. It is an :class:`IllegalMoveError` (no move
    is legal once the game is over), so ``except IllegalMoveError`` catches it too."""


class AgentError(DonutsError):
    """A bad argument to an agent of any game: a constructor option, or a ``time_left``
    that is not ``None`` nor a finite number of seconds >= 0
    (:func:`donuts_ai.agents.base.check_time_left`)."""


class SearchStopped(RuntimeError):
    """A search was stopped from another thread (:meth:`donuts_ai.Solver.stop`): not bad
    input, so not a :class:`DonutsError`; the background analysis that owns the solver
    ends quietly on it."""
