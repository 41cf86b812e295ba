"""Exact values of Connect Four positions: the generic compiled solver
(:mod:`donuts_ai.search.solver`) bound to the engine's kernels (:mod:`.kernels`), every
hook given, in cached kernels of this module (the game's functions read as attributes of
their module: :mod:`donuts_ai.search.compiled_game` says why).

:func:`solve` gives a position's value, distance and a best move; :func:`analyze` every
move's. Scores are also given as Pascal Pons' (blog.gamesolver.org): positive, the side
to move wins, ``22 - (stones the winner has played at the end)``; 0, a draw; negative, it
loses, ``(the winner's stones) - 22``; so his test sets and ours compare score for score.

    >>> from donuts_ai.connect_four import ConnectFourState
    >>> from donuts_ai.connect_four.solve import solve
    >>> solution = solve(ConnectFourState.from_moves("256174416734665724465317"))
    >>> solution.value, solution.distance, solution.score
    (-1, 2, -9)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..search import compiled_game as cg
from ..search import solver
from . import kernels as K
from .errors import ConnectFourError
from .rules import RULES
from .state import COLUMN_NAMES, ConnectFourState

#: Entries of a solver's table by default: 2**22 (12 bytes each, about 48 MB).
DEFAULT_TABLE_BITS = 22
#: The most table bits a call may ask for (2**30 entries: 12 GiB).
MAX_TABLE_BITS = 30
#: Pons' scores count from here: a win with the winner's ``s``-th stone scores ``22 - s``
#: (half the cells, plus one, so that a win with the last possible stone still scores 1).
PONS_STONES = K.CELLS // 2 + 1


@njit(cache=True)
def _solve(rules: np.int64, pos: Any, table: solver.SolverTable, max_nodes: np.int64) -> tuple[np.int64, np.int64]:
    """:func:`donuts_ai.search.solver.solve` on Connect Four, every hook given."""
    game = cg.CompiledGame(K.legal, K.play, K.key, K.CELLS, True, K.winning, K.safe, K.plies_left, K.order,
                           cg.default_playout)
    return solver.solve(game, rules, pos, table, max_nodes)


@njit(cache=True)
def _analyze(rules: np.int64, pos: Any, table: solver.SolverTable,
             max_nodes: np.int64) -> tuple[NDArray[np.int64], np.int64]:
    """:func:`donuts_ai.search.solver.analyze` on Connect Four, every hook given."""
    game = cg.CompiledGame(K.legal, K.play, K.key, K.CELLS, True, K.winning, K.safe, K.plies_left, K.order,
                           cg.default_playout)
    return solver.analyze(game, rules, pos, table, max_nodes)


@njit(cache=True)
def _analyze_within(rules: np.int64, pos: Any, table: solver.SolverTable, max_nodes: np.int64,
                    horizon: np.int64) -> tuple[NDArray[np.int64], np.int64]:
    """:func:`donuts_ai.search.solver.analyze_within` on Connect Four, every hook given."""
    game = cg.CompiledGame(K.legal, K.play, K.key, K.CELLS, True, K.winning, K.safe, K.plies_left, K.order,
                           cg.default_playout)
    return solver.analyze_within(game, rules, pos, table, max_nodes, horizon)


def pons_score(score: int, stones: int) -> int | None:
    """Pons' score of the solver's ``score`` (:mod:`donuts_ai.search.solver`). A win ``d``
    plies away ends with ``stones + d`` on the board, the winner's ``(stones + d + 1) // 2``
    of them (the winner plays the last); a loss likewise, negated.

    Args:
        score: the solver's score.
        stones: the stones on the board.

    Returns:
        Pons' score, or ``None`` for a score not known.
    """
    if score == solver.UNKNOWN_SCORE:
        return None
    if score == 0:
        return 0
    winner_stones = (stones + int(solver.plies_to_end(score)) + 1) // 2
    return PONS_STONES - winner_stones if score > 0 else winner_stones - PONS_STONES


@dataclass(frozen=True)
class Solution:
    """A position's exact value for the side to move (:func:`solve`): ``value`` +1 / 0 /
    -1, ``distance`` the plies to the end under perfect play (the winning move included;
    to the full board for a draw), ``score`` Pons' score, ``best_move`` a column letter
    that keeps the value (the first from the centre out), the positions explored
    (``nodes``) and the seconds. Every figure is ``None`` when the node budget ran out."""

    value: int | None
    distance: int | None
    score: int | None
    best_move: str | None
    nodes: int
    seconds: float


@dataclass(frozen=True)
class MoveScore:
    """A move of :func:`analyze`: its column letter and Pons' score for the side to move
    after it (``None`` when the budget ran out before it was settled)."""

    move: str
    score: int | None


@dataclass(frozen=True)
class Analysis:
    """Every legal move's score (:func:`analyze`), left to right, the position's own
    (their best, Pons' score; ``None`` when not every move was settled), the positions
    explored and the seconds."""

    score: int | None
    moves: tuple[MoveScore, ...]
    nodes: int
    seconds: float


def _checked_bits(table_bits: object) -> int:
    """``table_bits``, checked: an int from 1 to :data:`MAX_TABLE_BITS`."""
    if isinstance(table_bits, bool) or not isinstance(table_bits, int) or not 1 <= table_bits <= MAX_TABLE_BITS:
        raise ConnectFourError(f"table_bits must be an int from 1 to {MAX_TABLE_BITS}, got {table_bits!r}")
    return table_bits


def new_table(table_bits: int = DEFAULT_TABLE_BITS) -> solver.SolverTable:
    """A solver's table, to reuse across calls of :func:`solve` and :func:`analyze`
    (``table=``): what it learnt of one position serves the next.

    Args:
        table_bits: the table holds ``2**table_bits`` entries (12 bytes each).

    Returns:
        The table.
    """
    return solver.new_table(_checked_bits(table_bits))


def _checked(board: object, max_nodes: int | None, table_bits: int,
             table: solver.SolverTable | None) -> tuple[Any, int, solver.SolverTable]:
    """(the position, the node budget, the table to search with: ``table``, else a fresh
    one of ``table_bits``), checked before any work."""
    if not isinstance(board, ConnectFourState):
        raise ConnectFourError(f"solve and analyze take a ConnectFourState, got {type(board).__name__}")
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1):
        raise ConnectFourError(f"max_nodes must be None or an int >= 1, got {max_nodes!r}")
    bits = _checked_bits(table_bits)
    position = K.position(board)
    return position, solver.NO_NODE_LIMIT if max_nodes is None else max_nodes, solver.new_table(bits) if table is None else table


def _centre_first(columns: list[int]) -> int:
    """The column of ``columns`` nearest the centre (the left one between two)."""
    centre = K.WIDTH // 2
    return min(columns, key=lambda c: (abs(c - centre), c))


def analyze(board: ConnectFourState, *, max_nodes: int | None = None, table_bits: int = DEFAULT_TABLE_BITS,
            table: solver.SolverTable | None = None) -> Analysis:
    """Every legal move's exact score in ``board`` (a game that goes on), Pons' scores.

    Args:
        board: the position; unchanged.
        max_nodes: the most positions explored (``None``: no limit).
        table_bits: the solver's table holds ``2**table_bits`` entries (12 bytes each).
        table: a table of :func:`new_table` to use (and keep what it learns), instead of a
            fresh one of ``table_bits``.

    Returns:
        The :class:`Analysis`.

    Raises:
        ConnectFourError: a finished game, or a bad argument.
    """
    pos, budget, table = _checked(board, max_nodes, table_bits, table)
    start = time.perf_counter()
    scores, nodes = _analyze(np.int64(RULES), pos, table, np.int64(budget))
    stones = int(pos[2])
    moves = tuple(MoveScore(COLUMN_NAMES[c], pons_score(int(scores[c]), stones))
                  for c in range(K.WIDTH) if scores[c] != solver.NOT_LEGAL)
    known = [m.score for m in moves if m.score is not None]
    best = max(known) if len(known) == len(moves) else None
    return Analysis(best, moves, int(nodes), time.perf_counter() - start)


def solve(board: ConnectFourState, *, max_nodes: int | None = None, table_bits: int = DEFAULT_TABLE_BITS,
          table: solver.SolverTable | None = None, best_move: bool = True) -> Solution:
    """The exact value of ``board`` (a game that goes on) for the side to move, its
    distance to the end, Pons' score and a best move.

    Args:
        board: the position; unchanged.
        max_nodes: the most positions explored (``None``: no limit).
        table_bits: the solver's table holds ``2**table_bits`` entries (12 bytes each).
        table: a table of :func:`new_table` to use (and keep what it learns), instead of a
            fresh one of ``table_bits``.
        best_move: find a best move (each move's position solved after the position's own,
            on the same table); ``False``: the value alone, as Pons' solver gives it.

    Returns:
        The :class:`Solution` (``best_move`` ``None`` when not asked for).

    Raises:
        ConnectFourError: a finished game, or a bad argument.
    """
    pos, budget, table = _checked(board, max_nodes, table_bits, table)
    start = time.perf_counter()
    found, explored = _solve(np.int64(RULES), pos, table, np.int64(budget))
    score, nodes, stones = int(found), int(explored), int(pos[2])
    if score == solver.UNKNOWN_SCORE:
        return Solution(None, None, None, None, nodes, time.perf_counter() - start)
    keeping: list[int] = []
    if best_move:
        # A best move: one whose score is the position's, by the analysis of every move (the
        # table now holds their bounds, so each costs few nodes).
        scores, more = _analyze(np.int64(RULES), pos, table, np.int64(solver.NO_NODE_LIMIT))
        nodes += int(more)
        keeping = [column for column in range(K.WIDTH) if scores[column] == score]
    value = 1 if score > 0 else -1 if score < 0 else 0
    distance = int(solver.plies_to_end(score)) if score != 0 else K.CELLS - stones
    best = COLUMN_NAMES[_centre_first(keeping)] if keeping else None
    return Solution(value, distance, pons_score(score, stones), best, nodes, time.perf_counter() - start)


__all__ = ["DEFAULT_TABLE_BITS", "PONS_STONES", "Analysis", "MoveScore", "Solution", "analyze", "new_table", "pons_score",
           "solve"]
