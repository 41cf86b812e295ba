"""RandomAgent: a uniformly random legal move."""

from __future__ import annotations

from ..board import Board
from .donuts_agent import DonutsAgent


class RandomAgent(DonutsAgent):
    """Plays a uniformly random legal move, drawn from its seeded stream."""

    kind = "random"

    def _select(self, board: Board, time_left: float | None) -> str:
        return self.rng.choice(board.legal_moves())
