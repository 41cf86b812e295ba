"""The exact solver: game-theoretic values of Donuts positions, with distances.

    >>> from donuts_ai import Board, solve
    >>> solve(Board()).value          # the first player to move wins the standard layout
    1

:func:`solve` gives the value for the side to move (+1 win, 0 draw, -1 loss), a best
move and the distance to the end under best play (the winner wins as fast as
possible, the loser loses as slowly as possible). :func:`analyze` gives the value of
every legal move. Both run the Numba negamax of :mod:`donuts_ai._engine.search`
with a transposition table, first with the null window around 0 (who wins), then
with null windows that narrow the distance.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ._engine import play
from ._engine import search as S
from .board import Board
from .errors import DonutsError
from .layout import Layout
from .rules import Rules
from .squares import SQUARE_NAMES

WIN, LOSS, DRAW = 1, -1, 0
_VALUE_NAMES = {WIN: "win", DRAW: "draw", LOSS: "loss"}


@dataclass(frozen=True)
class Solution:
    """The solved value of a position for the side to move.

    ``value`` +1 (win), 0 (draw) or -1 (loss); ``best_move`` a square name (``None``
    only from :func:`analyze`'s per-move entries, where ``move`` says which);
    ``distance`` plies to the end of the game under best play; ``nodes`` searched and
    ``seconds`` taken (cumulative for this call)."""

    value: int
    distance: int
    best_move: str | None
    nodes: int
    seconds: float

    @property
    def result(self) -> str:
        return _VALUE_NAMES[self.value]

    @property
    def score(self) -> int:
        """One number ordering outcomes: wins sooner > wins later > draw > losses later > sooner."""
        return 0 if self.value == 0 else self.value * (S.WIN - self.distance)


@dataclass(frozen=True)
class MoveValue:
    """Value of one legal move for the player making it (see :func:`analyze`)."""

    move: str
    value: int
    distance: int

    @property
    def result(self) -> str:
        return _VALUE_NAMES[self.value]

    @property
    def score(self) -> int:
        return 0 if self.value == 0 else self.value * (S.WIN - self.distance)


def _score_to_value(score: int, remaining: int) -> tuple[int, int]:
    """(value, distance) of a root-relative score; draws last ``remaining`` plies."""
    if score > S.MATE_BOUND:
        return WIN, S.WIN - score
    if score < -S.MATE_BOUND:
        return LOSS, S.WIN + score
    return DRAW, remaining


def _remaining_plies(board_state, n: int) -> int:
    """Plies until a drawn game ends: both pools empty, or the board full."""
    b0, b1, _, _, p0, p1 = board_state
    return min(2 * n - p0 - p1, 36 - (int(b0) | int(b1)).bit_count())


class Solver:
    """An exact solver with its own transposition table (``2**tt_bits`` entries of 22
    bytes; the default 2**22 takes 92 MB). The table is kept between calls on the same
    layout and rules, and cleared when they change. Not thread-safe: one per thread."""

    def __init__(self, tt_bits: int = 22):
        if isinstance(tt_bits, bool) or not isinstance(tt_bits, int) or not 10 <= tt_bits <= 30:
            raise DonutsError(f"tt_bits must be an int in 10..30, got {tt_bits!r}")
        self.tt_bits = tt_bits
        self._tt = None
        self._ctx = S.new_context()
        self._game: tuple[Layout, Rules] | None = None
        self.nodes = 0

    def _prepare(self, board: Board) -> None:
        if not isinstance(board, Board):
            raise TypeError(f"expected a Board, got {type(board).__name__}")
        if board.is_game_over():
            raise DonutsError("cannot solve: the game is over")
        game = (board.layout, board.rules)
        if self._tt is None or self._game != game:
            self._tt = S.new_table(self.tt_bits)
            self._ctx = S.new_context()
            self._game = game

    def clear(self) -> None:
        """Forget everything in the transposition table."""
        self._tt = None
        self._game = None

    # --- kernel calls on raw states ---------------------------------------------------
    def _search(self, lm, state, n, single, alpha, beta) -> int:
        own, opp, last, p_own, p_opp = state
        score, nodes, _ = S.search_root(
            lm, own, opp, last, p_own, p_opp, n, single, S.EXACT_DEPTH, alpha, beta, self._tt, self._ctx, 1 << 62
        )
        self.nodes += int(nodes)
        return int(score)

    def _exact(self, lm, state, n, single) -> int:
        """Exact root-relative score of a position that is not over (own to move)."""
        score = self._search(lm, state, n, single, -1, 1)
        if score == 0:
            return 0
        # Narrow the distance with null windows; fail-soft results jump ahead.
        own, opp, _, p_own, p_opp = state
        longest = 2 * n - p_own - p_opp
        if score > 0:
            lo, hi = max(score, S.WIN - longest), S.WIN - 1
        else:
            lo, hi = -(S.WIN - 1), min(score, -(S.WIN - longest))
        while lo < hi:
            med = lo + (hi - lo) // 2
            r = self._search(lm, state, n, single, med, med + 1)
            if r > med:
                lo = r
            else:
                hi = r
        return lo

    def _move_score(self, lm, state, sq, n, single) -> int:
        """Exact root-relative score, for the mover, of playing ``sq`` from ``state``."""
        own, opp, last, p_own, p_opp = state
        # play() works in colours; here colour 0 is "own".
        b_own, b_opp, nxt, q_own, q_opp, _, winner, _ = play(own, opp, 0, p_own, p_opp, sq, n, single)
        if winner != -1:
            return 0 if winner == 2 else (S.WIN - 1 if winner == 0 else -(S.WIN - 1))
        # Kernels return uint64 boxed as Python ints: re-wrap, or Numba compiles int64 shifts.
        b_own, b_opp = np.uint64(b_own), np.uint64(b_opp)
        if nxt == 1:
            child = self._exact(lm, (b_opp, b_own, sq, q_opp, q_own), n, single)
            sign = -1
        else:
            child = self._exact(lm, (b_own, b_opp, sq, q_own, q_opp), n, single)
            sign = 1
        score = sign * child
        # One ply further from this root than from the child's.
        if score > S.MATE_BOUND:
            score -= 1
        elif score < -S.MATE_BOUND:
            score += 1
        return score

    @staticmethod
    def _root(board: Board):
        b0, b1, turn, last, p0, p1 = board.kernel_state()
        if turn == 0:
            return (b0, b1, last, p0, p1)
        return (b1, b0, last, p1, p0)

    # --- public ------------------------------------------------------------------------
    def solve(self, board: Board) -> Solution:
        """Value, best move and distance for the side to move of ``board`` (not over)."""
        self._prepare(board)
        t, nodes0 = time.perf_counter(), self.nodes
        lm, n, single = board.layout.line_masks, board.rules.donuts, board.rules.single
        state = self._root(board)
        score = self._exact(lm, state, n, single)
        own, opp, last, p_own, p_opp = state
        candidates = board.legal_squares()
        first = int(S.tt_move(self._tt, own, opp, last, p_own, p_opp))
        if first in candidates:
            candidates.remove(first)
            candidates.insert(0, first)
        best = None
        for sq in candidates:
            if self._move_score(lm, state, sq, n, single) == score:
                best = sq
                break
        assert best is not None, "a move must achieve the position's value"
        value, distance = _score_to_value(score, _remaining_plies(board.kernel_state(), n))
        return Solution(value, distance, SQUARE_NAMES[best], self.nodes - nodes0, time.perf_counter() - t)

    def analyze(self, board: Board) -> list[MoveValue]:
        """The exact value of every legal move for the side to move, best first
        (ties in square order)."""
        self._prepare(board)
        lm, n, single = board.layout.line_masks, board.rules.donuts, board.rules.single
        state = self._root(board)
        out = []
        for sq in board.legal_squares():
            score = self._move_score(lm, state, sq, n, single)
            after = board.copy(stack=False)
            after.push(sq)
            remaining = 1 + (0 if after.is_game_over() else _remaining_plies(after.kernel_state(), n))
            value, distance = _score_to_value(score, remaining)
            out.append(MoveValue(SQUARE_NAMES[sq], value, distance))
        out.sort(key=lambda mv: -mv.score)
        return out


_default: Solver | None = None


def _default_solver() -> Solver:
    global _default
    if _default is None:
        _default = Solver()
    return _default


def solve(board: Board) -> Solution:
    """Solve ``board`` exactly (see :class:`Solver`); uses a shared default solver."""
    return _default_solver().solve(board)


def analyze(board: Board) -> list[MoveValue]:
    """Exact value of every legal move of ``board``, best first (shared default solver)."""
    return _default_solver().analyze(board)


__all__ = ["MoveValue", "Solution", "Solver", "analyze", "solve"]
