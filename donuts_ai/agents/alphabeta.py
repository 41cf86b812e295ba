"""AlphaBetaAgent: iterative-deepening negamax with the solver's table and move order."""

from __future__ import annotations

import numpy as np

from .._engine import search as S
from ..board import Board
from ..errors import DonutsError
from ..squares import SQUARE_NAMES
from .base import Agent, budget, check_time_limit, now, warm_up


def _positive_int(name: str, value, allow_none: bool = True):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise DonutsError(f"{name} must be a positive int, got {value!r}")
    return int(value)


class AlphaBetaAgent(Agent):
    """Iterative deepening negamax (the kernel of :mod:`donuts_ai._engine.search`) with an
    evaluation at the horizon.

    Limits: ``depth`` (plies), ``nodes`` (per move) and ``time_limit`` (seconds per move);
    with none given, ``time_limit=1.0``. It returns the best move of the deepest finished
    iteration when a limit stops it, and it is exact (a solver) once the depth reaches the
    end of the game, which happens of itself when ``exact_plies`` or fewer plies remain.
    The transposition table has ``2**tt_bits`` entries and is kept for a game's layout.
    """

    kind = "alphabeta"

    def __init__(
        self,
        depth: int | None = None,
        time_limit: float | None = None,
        nodes: int | None = None,
        exact_plies: int = 14,
        tt_bits: int = 20,
        seed: int | None = None,
        name: str | None = None,
    ):
        super().__init__(seed, name)
        self.depth = _positive_int("depth", depth)
        self.nodes = _positive_int("nodes", nodes)
        self.time_limit = check_time_limit(time_limit)
        if self.depth is None and self.nodes is None and self.time_limit is None:
            self.time_limit = 1.0
        self.exact_plies = _positive_int("exact_plies", exact_plies)
        self.tt_bits = _positive_int("tt_bits", tt_bits)
        warm_up("search")
        self._tt = S.new_table(self.tt_bits)
        self._ctx = S.new_context()
        self._game = None
        #: Figures from the last search: depth reached, nodes, seconds, score.
        self.last_info: dict = {}

    def params(self) -> dict:
        p = {}
        for key in ("depth", "time_limit", "nodes"):
            if getattr(self, key) is not None:
                p[key] = getattr(self, key)
        if self.exact_plies != 14:
            p["exact_plies"] = self.exact_plies
        if self.tt_bits != 20:
            p["tt_bits"] = self.tt_bits
        return p | super().params()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._tt[:] = 0
        self._ctx = S.new_context()
        self._game = None

    def _select(self, board: Board, time_left: float | None) -> str:
        start = now()
        seconds = budget(self.time_limit, time_left)
        deadline = None if seconds is None else start + seconds
        game = (board.layout, board.rules)
        if game != self._game:  # the table's entries belong to one layout and rules
            self._tt[:] = 0
            self._game = game
        b0, b1, turn, last, p0, p1 = board.kernel_state()
        own, opp, p_own, p_opp = (b0, b1, p0, p1) if turn == 0 else (b1, b0, p1, p0)
        n, single = board.rules.donuts, board.rules.single
        remaining = min(2 * n - p0 - p1, 36 - (int(b0) | int(b1)).bit_count())
        max_depth = remaining if self.depth is None else min(self.depth, remaining)
        if remaining <= self.exact_plies:
            max_depth = remaining  # few enough plies left: solve exactly
        legal = board.legal_squares()
        best_move, best_score, total_nodes, reached = legal[0], None, 0, 0
        nps = 2e6  # nodes/s until measured
        for depth in range(1, max_depth + 1):
            limit = 1 << 62
            if self.nodes is not None:
                limit = self.nodes - total_nodes
            if deadline is not None:
                left = deadline - now()
                limit = min(limit, int(left * nps * 0.9))
            if limit <= 0:
                break
            t = now()
            move, score, nodes, aborted = S.search_moves(
                board.layout.line_masks, own, opp, last, p_own, p_opp, n, single, depth, self._tt, self._ctx, limit,
                -1 if best_move is None else best_move,
            )
            elapsed = now() - t
            total_nodes += int(nodes)
            if nodes > 20_000 and elapsed > 0:
                nps = nodes / elapsed
            if aborted:
                break
            best_move, best_score, reached = int(move), int(score), depth
            if abs(best_score) > S.MATE_BOUND:
                break  # proved: deeper search cannot change the outcome
        self.last_info = {"depth": reached, "nodes": total_nodes, "seconds": now() - start, "score": best_score}
        return SQUARE_NAMES[best_move]
