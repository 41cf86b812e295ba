"""Connect Four's own agents, on the compiled engine (:mod:`.kernels`): :class:`GreedyAgent`
(a win at once, else a move that does not lose at once) and :class:`SolverAgent` (perfect
play, by the generic compiled solver of :mod:`donuts_ai.search.solver`). The game's other
kinds (``random``, ``mcts``, ``alphabeta``) are the generic agents of every game
(:mod:`donuts_ai.agents.generic`). :data:`AGENTS` names the classes by dotted path."""

from __future__ import annotations

from typing import Any, TypedDict

from ..agents.base import Agent, now, positive_int
from ..agents.registry import LazyRegistry
from ..errors import AgentError, GameOverError
from .board import COLUMN_NAMES, ConnectFourBoard
from .kernels import legal, position, safe, winning

#: The agent kinds of Connect Four's own, by spec name (dotted paths, imported when first used).
AGENTS: LazyRegistry[type[Agent]] = LazyRegistry({
    "greedy": "donuts_ai.connect_four.agents:GreedyAgent",
    "solver": "donuts_ai.connect_four.agents:SolverAgent",
})


def _columns(mask: int) -> list[str]:
    """The letters of the columns whose bits are set in ``mask``, left to right."""
    return [name for column, name in enumerate(COLUMN_NAMES) if mask >> column & 1]


def _board(view: Any, who: str) -> ConnectFourBoard:
    """``view`` checked: a Connect Four board of a game that goes on."""
    if not isinstance(view, ConnectFourBoard):
        raise AgentError(f"{who}.select_move needs a ConnectFourBoard, got {type(view).__name__}")
    if view.is_game_over():
        raise GameOverError(f"{who}.select_move: the game is over")
    return view


class GreedyAgent(Agent):
    """One ply, exact: a move that wins at once, else a seeded random move among those after
    which the opponent cannot win at once, else (every move loses) a random legal one."""

    kind = "greedy"

    def select_move(self, view: Any, time_left: float | None = None) -> str:
        pos = position(_board(view, type(self).__name__))
        for mask in (winning(0, pos), safe(0, pos), legal(0, pos)):
            if mask:
                return str(self.rng.choice(_columns(int(mask))))
        raise AgentError("no legal move")  # never: a game that goes on has a legal move


class SolverInfo(TypedDict, total=False):
    """:attr:`SolverAgent.last_info`: figures of the last move (empty before the first)."""

    score: int | None  # Pons' score of the position for the side to move (None when the budget ran out)
    nodes: int  # positions explored
    seconds: float
    proven: bool


class SolverAgent(Agent):
    """Perfect play: a move of the best Pons score (:func:`donuts_ai.connect_four.solve`),
    the first such column from the centre out; ``nodes`` caps the positions explored a move
    (then the best move found so far is played, ``proven`` False)."""

    kind = "solver"

    def __init__(self, *, nodes: int | None = None, table_bits: int = 22, seed: int | None = None,
                 name: str | None = None) -> None:
        super().__init__(seed, name)
        self.nodes = positive_int("nodes", nodes)
        self.table_bits = positive_int("table_bits", table_bits, allow_none=False)
        self.last_info: SolverInfo = {}

    def select_move(self, view: Any, time_left: float | None = None) -> str:
        from .solve import analyze

        board = _board(view, type(self).__name__)
        start = now()
        analysis = analyze(board, max_nodes=self.nodes, table_bits=self.table_bits)
        known = [m for m in analysis.moves if m.score is not None]
        best = max(known, key=lambda m: (m.score, -abs(COLUMN_NAMES.index(m.move) - 3))) if known else None
        move = best.move if best is not None else self.rng.choice(board.legal_moves())
        self.last_info = {"score": analysis.score, "nodes": analysis.nodes, "seconds": now() - start,
                          "proven": analysis.score is not None}
        return move


__all__ = ["AGENTS", "GreedyAgent", "SolverAgent", "SolverInfo"]
