"""The errors of Connect Four alone: a :class:`~donuts_ai.errors.DonutsError` (a ``ValueError``).

The errors every game raises live in :mod:`donuts_ai.errors`: an illegal move is an
:class:`~donuts_ai.errors.IllegalMoveError` (naming the legal ones) and a move after the
end a :class:`~donuts_ai.errors.GameOverError`, in Connect Four as in Donuts. What only
Connect Four reads (a set-up, a list of moves, a state's text or dict) raises
:class:`ConnectFourError`.
"""

from __future__ import annotations

from ..errors import DonutsError


class ConnectFourError(DonutsError):
    """Connect Four text that cannot be read: a set-up or list of moves with a character
    that names no column, a move into a full column or after the game ended, a state's
    text or dict of the wrong form, a position handed to the kernels whose game is over."""


__all__ = ["ConnectFourError"]
