"""The base of the board game's agents: ``select_move`` takes a :class:`~donuts_ai.Board`
and answers a square name (the protocol: :mod:`donuts_ai.agents.base`)."""

from __future__ import annotations

from abc import abstractmethod

from ...agents.base import Agent, check_time_left
from ...errors import GameOverError
from ..board import Board


class DonutsAgent(Agent):
    """A Donuts player. Subclasses implement :meth:`_select` and may override :meth:`reset`.

    ``select_move(board, time_left=None)`` returns a legal square name for the side to
    move and never changes ``board``. It refuses a bad ``time_left``
    (:class:`~donuts_ai.errors.AgentError`, :func:`~donuts_ai.agents.base.check_time_left`, as Donut
    Boxes' agents do), anything but a Board (``TypeError``) and a finished game
    (:class:`~donuts_ai.errors.GameOverError`)."""

    def select_move(self, board: Board, time_left: float | None = None) -> str:
        """A legal move (square name) for the side to move of ``board``.

        Args:
            board: the position, unchanged.
            time_left: the player's clock in seconds, or ``None``.
        """
        time_left = check_time_left(time_left)
        if not isinstance(board, Board):
            raise TypeError(f"select_move needs a Board, got {type(board).__name__}")
        if board.is_game_over():
            raise GameOverError("select_move: the game is over")
        return self._select(board, time_left)

    @abstractmethod
    def _select(self, board: Board, time_left: float | None) -> str: ...
