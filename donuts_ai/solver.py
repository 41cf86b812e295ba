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
from .errors import DonutsError, IllegalMoveError
from .layout import Layout
from .rules import Rules
from .squares import SQUARE_NAMES, parse_square, squares_of

WIN, LOSS, DRAW = 1, -1, 0
_VALUE_NAMES = {WIN: "win", DRAW: "draw", LOSS: "loss"}


def _score(value: int, distance: int | None) -> int:
    if value == 0 or distance is None:
        return value
    return value * (S.WIN - distance)


@dataclass(frozen=True)
class Solution:
    """The solved value of a position for the side to move.

    ``value`` +1 (win), 0 (draw) or -1 (loss); ``best_move`` a square name;
    ``distance`` plies to the end of the game under best play (``None`` when solved
    with ``distance=False``); ``nodes`` searched and ``seconds`` taken by this call."""

    value: int
    distance: int | None
    best_move: str
    nodes: int
    seconds: float

    @property
    def result(self) -> str:
        return _VALUE_NAMES[self.value]

    @property
    def score(self) -> int:
        """One number ordering outcomes: wins sooner > wins later > draw > losses later > sooner."""
        return _score(self.value, self.distance)


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
        return _score(self.value, self.distance)


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


def _candidate_scores(state, n: int, winning: bool) -> list[int]:
    """Every score a won (``winning``) or lost game could have from ``state``, ascending.

    The players alternate while both have donuts, then the one with donuts left moves
    on. Own wins come on own placements (a five) or at the last ply; losses on the
    opponent's placements, or at the last ply, or on our own last placement when it
    ends the game."""
    own, opp, _, p_own, p_opp = state
    left = [n - p_own, n - p_opp]
    end = min(left[0] + left[1], 36 - (int(own) | int(opp)).bit_count())
    mover, scores = 0, []  # 0 = the side to move in ``state``
    for ply in range(1, end + 1):
        left[mover] -= 1
        if (mover == 0) == winning or ply == end:
            scores.append(S.WIN - ply if winning else -(S.WIN - ply))
        if left[1 - mover] > 0:
            mover = 1 - mover
    return sorted(scores)


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
    def _search(self, lm, state, n, single, alpha, beta, node_limit: int = 1 << 62) -> int | None:
        """Root-relative score (fail-soft in the window), or None when ``node_limit`` hit."""
        own, opp, last, p_own, p_opp = state
        score, nodes, aborted = S.search_root(
            lm, own, opp, last, p_own, p_opp, n, single, S.EXACT_DEPTH, alpha, beta, self._tt, self._ctx, node_limit
        )
        self.nodes += int(nodes)
        return None if aborted else int(score)

    def _wdl_root(self, lm, state, n, single) -> tuple[int, int]:
        """(value, a move keeping it) of a position that is not over (own to move)."""
        score = self._search(lm, state, n, single, -1, 1)
        value = (score > 0) - (score < 0)
        own, opp, last, p_own, p_opp = state
        moves = squares_of(int(S.legal_mask(own, opp, last, lm)))
        first = int(S.tt_move(self._tt, own, opp, last, p_own, p_opp))
        moves.sort(key=lambda sq: sq != first)  # the table's move proved the value: try it first
        for sq in moves:
            final, child, sign = self._child(state, sq, n, single)
            if final is None:
                child_score = self._search(lm, child, n, single, -1, 1)
                v = sign * ((child_score > 0) - (child_score < 0))
            else:
                v = (final > 0) - (final < 0)
            if v == value:
                return value, sq
        raise AssertionError("a move must keep the position's value")

    def _exact(self, lm, state, n, single, value: int | None = None) -> int:
        """Exact root-relative score of a position that is not over (own to move);
        ``value`` is its sign when already known."""
        if value is None:
            score = self._search(lm, state, n, single, -1, 1)
            value = (score > 0) - (score < 0)
        else:
            score = value
        if value == 0:
            return 0
        # Only some distances are possible: the winner's own placements (a five) and the
        # game's last ply (largest group or majority). Binary-search those with null
        # windows; each fail-soft result also discards every candidate it passes.
        candidates = _candidate_scores(state, n, winning=value > 0)
        if value > 0:
            candidates = [c for c in candidates if c >= score]
        else:
            candidates = [c for c in candidates if c <= score]
        while len(candidates) > 1:
            v = candidates[len(candidates) // 2]  # test "score >= v"
            r = self._search(lm, state, n, single, v - 1, v)
            if r >= v:
                candidates = [c for c in candidates if c >= max(r, v)]
            else:
                candidates = [c for c in candidates if c <= r]
        return candidates[0]

    @staticmethod
    def _child(state, sq, n, single):
        """After ``sq``: (final score or None, child state, sign of the child's score for us)."""
        own, opp, last, p_own, p_opp = state
        # play() works in colours; here colour 0 is "own".
        b_own, b_opp, nxt, q_own, q_opp, _, winner, _ = play(own, opp, 0, p_own, p_opp, sq, n, single)
        if winner != -1:
            return (0 if winner == 2 else (S.WIN - 1 if winner == 0 else -(S.WIN - 1))), None, 0
        # Kernels return uint64 boxed as Python ints: re-wrap, or Numba compiles int64 shifts.
        b_own, b_opp = np.uint64(b_own), np.uint64(b_opp)
        if nxt == 1:
            return None, (b_opp, b_own, sq, q_opp, q_own), -1
        return None, (b_own, b_opp, sq, q_own, q_opp), 1

    def _move_score(self, lm, state, sq, n, single) -> int:
        """Exact root-relative score, for the mover, of playing ``sq`` from ``state``."""
        final, child, sign = self._child(state, sq, n, single)
        if final is not None:
            return final
        score = sign * self._exact(lm, child, n, single)
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
    def solve(self, board: Board, distance: bool = True) -> Solution:
        """Value, best move and distance for the side to move of ``board`` (not over).

        With ``distance=False`` only the value is proved, and ``best_move`` is a move
        that keeps it (not necessarily the fastest win); ``distance`` is then ``None``.
        Raises :class:`~donuts_ai.errors.DonutsError` when the game is over."""
        self._prepare(board)
        t, nodes0 = time.perf_counter(), self.nodes
        lm, n, single = board.layout.line_masks, board.rules.donuts, board.rules.single
        state = self._root(board)
        value, move = self._wdl_root(lm, state, n, single)
        if not distance:
            return Solution(value, None, SQUARE_NAMES[move], self.nodes - nodes0, time.perf_counter() - t)
        target = self._exact(lm, state, n, single, value)
        own, opp, last, p_own, p_opp = state
        candidates = board.legal_squares()
        first = int(S.tt_move(self._tt, own, opp, last, p_own, p_opp))
        for sq in (move, first):  # the likeliest fastest moves first
            if sq in candidates:
                candidates.remove(sq)
                candidates.insert(0, sq)
        best = next(sq for sq in candidates if self._move_score(lm, state, sq, n, single) == target)
        value, dist = _score_to_value(target, _remaining_plies(board.kernel_state(), n))
        return Solution(value, dist, SQUARE_NAMES[best], self.nodes - nodes0, time.perf_counter() - t)

    def move_value(self, board: Board, move) -> int:
        """+1, 0 or -1: the game-theoretic value, for the side to move, of playing ``move``
        (a legal square name or index) — equal to ``solve(board).value`` exactly when
        the move keeps the value."""
        self._prepare(board)
        if not board.is_legal(move):
            raise IllegalMoveError(f"illegal move {move!r} (legal: {', '.join(board.legal_moves())})")
        lm, n, single = board.layout.line_masks, board.rules.donuts, board.rules.single
        final, child, sign = self._child(self._root(board), parse_square(move), n, single)
        if final is None:
            score = self._search(lm, child, n, single, -1, 1)
            return sign * ((score > 0) - (score < 0))
        return (final > 0) - (final < 0)

    def analyze(self, board: Board) -> list[MoveValue]:
        """The exact value and distance of every legal move for the side to move, best
        first (ties in square order)."""
        self._prepare(board)
        lm, n, single = board.layout.line_masks, board.rules.donuts, board.rules.single
        state = self._root(board)
        out = []
        for sq in board.legal_squares():
            score = self._move_score(lm, state, sq, n, single)
            after = board.copy(stack=False)
            after.push(sq)
            remaining = 1 + (0 if after.is_game_over() else _remaining_plies(after.kernel_state(), n))
            value, dist = _score_to_value(score, remaining)
            out.append(MoveValue(SQUARE_NAMES[sq], value, dist))
        out.sort(key=lambda mv: -mv.score)
        return out


_default: Solver | None = None


def _default_solver() -> Solver:
    global _default
    if _default is None:
        _default = Solver()
    return _default


def solve(board: Board, distance: bool = True) -> Solution:
    """Solve ``board`` exactly (see :meth:`Solver.solve`); uses a shared default solver."""
    return _default_solver().solve(board, distance)


def analyze(board: Board) -> list[MoveValue]:
    """Exact value of every legal move of ``board``, best first (shared default solver)."""
    return _default_solver().analyze(board)


__all__ = ["MoveValue", "Solution", "Solver", "analyze", "solve"]
