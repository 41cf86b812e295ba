"""SolverAgent: perfect play from the exact solver."""

from __future__ import annotations

from ..board import Board
from ..solver import Solver
from .base import Agent, warm_up


class SolverAgent(Agent):
    """Plays a move that keeps the game-theoretic value of the position.

    ``fastest=True`` also wins as fast as possible and loses as slowly as possible (the
    exact distance costs far more search). The transposition table (``tt_bits``) is
    kept between moves of a game on one layout."""

    kind = "solver"

    def __init__(self, fastest: bool = False, tt_bits: int = 22, seed: int | None = None, name: str | None = None):
        super().__init__(seed, name)
        self.fastest = bool(fastest)
        self.tt_bits = tt_bits
        warm_up("search")
        self.solver = Solver(tt_bits)

    def params(self) -> dict:
        p = {}
        if self.fastest:
            p["fastest"] = True
        if self.tt_bits != 22:
            p["tt_bits"] = self.tt_bits
        return p | super().params()

    def _select(self, board: Board, time_left: float | None) -> str:
        return self.solver.solve(board, distance=self.fastest).best_move
