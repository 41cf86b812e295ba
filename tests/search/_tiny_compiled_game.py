"""Tiny compiled games for the solver's tests, as a user's games give their functions
(:class:`~donuts_ai.search.compiled_game.CompiledGame`), and the solver bound to them in
cached kernels, as a user's game binds it (the functions read as attributes of this
module): k in a row on a small board, with or without gravity (tic-tac-toe is 3x3, k = 3,
no gravity; Connect-3 on 4x3 is 4 columns of 3, k = 3, with gravity), and a take-away
game (below).

``rules = (width, height, k, gravity)`` (int64s). Bitboards in Pons' layout: column ``c``
holds bits ``c * (height + 1)`` up, one bit a row from the bottom, and one empty bit above
its top, so that no line wraps. ``pos = (current, mask, moves)``: the side to move's
stones, all stones (``uint64``), the stones played (``int64``). A move is a column with
gravity, a cell's bit without.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

from donuts_ai._numba_types import Int64
from donuts_ai.search import compiled_game as cg
from donuts_ai.search import mcts, solver

from . import _kernel_caches
from . import _tiny_compiled_game as T

_kernel_caches.refresh(Path(__file__).parent)  # before any kernel here runs

TIC_TAC_TOE = (3, 3, 3, 0)
CONNECT_3 = (4, 3, 3, 1)
#: The longest game on any board of these tests: a 32-bit board holds at most 32 cells.
MAX_PLIES = 32
ONE = np.uint64(1)
ZERO = np.uint64(0)


def position(current: int, mask: int, moves: int) -> tuple[np.uint64, np.uint64, np.int64]:
    """A position as the kernels take it: ``uint64`` boards (a kernel returns them to Python
    as ``int``, which Numba would type ``int64``)."""
    return np.uint64(current), np.uint64(mask), np.int64(moves)


@njit(cache=True)
def _column(rules: Any, c: Int64) -> np.uint64:
    """The cells of column ``c``."""
    height = rules[1]
    return ((ONE << np.uint64(height)) - ONE) << np.uint64(c * (height + 1))


@njit(cache=True)
def _cell(rules: Any, mask: np.uint64, move: Int64) -> np.uint64:
    """The cell a move fills: the lowest empty one of its column with gravity."""
    if rules[3]:
        return (mask + (ONE << np.uint64(move * (rules[1] + 1)))) & _column(rules, move)
    return ONE << np.uint64(move)


@njit(cache=True)
def _wins(rules: Any, stones: np.uint64) -> bool:
    """Whether ``stones`` hold ``k`` in a row: vertical, horizontal and both diagonals."""
    height, k = rules[1], rules[2]
    for step in (1, height + 1, height, height + 2):
        line = stones
        for i in range(1, k):
            line &= stones >> np.uint64(i * step)
        if line != ZERO:
            return True
    return False


@njit(cache=True)
def legal(rules: Any, pos: Any) -> np.uint64:
    """The columns not full (gravity), or the empty cells."""
    width = rules[0]
    mask = pos[1]
    moves = ZERO
    for c in range(width):
        column = _column(rules, c)
        if rules[3]:
            if mask & column != column:
                moves |= ONE << np.uint64(c)
        else:
            moves |= column & ~mask
    return moves


@njit(cache=True)
def play(rules: Any, pos: Any, move: Int64) -> tuple[tuple[np.uint64, np.uint64, np.int64], np.int64]:
    """The move played; the position from the opponent's side, and the status."""
    current, mask, moves = pos
    cell = _cell(rules, mask, move)
    status = cg.GOES_ON
    if _wins(rules, current | cell):
        status = cg.WON
    elif moves + 1 == rules[0] * rules[1]:
        status = cg.DRAWN
    return (current ^ mask, mask | cell, moves + 1), np.int64(status)


@njit(cache=True)
def key(rules: Any, pos: Any) -> np.uint64:
    """All stones above, the side to move's below: boards of 32 bits at most."""
    board_key: np.uint64 = (pos[1] << np.uint64(32)) | pos[0]
    return board_key


@njit(cache=True)
def winning(rules: Any, pos: Any) -> np.uint64:
    """Every move that completes ``k`` in a row."""
    moves = legal(rules, pos)
    wins = ZERO
    for move in range(64):
        if moves >> np.uint64(move) & ONE and _wins(rules, pos[0] | _cell(rules, pos[1], move)):
            wins |= ONE << np.uint64(move)
    return wins


@njit(cache=True)
def safe(rules: Any, pos: Any) -> np.uint64:
    """Every move after which the opponent has no winning move."""
    moves = legal(rules, pos)
    safe_moves = ZERO
    for move in range(64):
        if moves >> np.uint64(move) & ONE:
            child, status = play(rules, pos, move)
            if status != cg.GOES_ON or winning(rules, child) == ZERO:
                safe_moves |= ONE << np.uint64(move)
    return safe_moves


@njit(cache=True)
def plies_left(rules: Any, pos: Any) -> np.int64:
    """The empty cells."""
    return np.int64(rules[0] * rules[1] - pos[2])


@njit(cache=True)
def order(rules: Any, pos: Any, move: Int64) -> np.int64:
    """Nearer the centre first: a column's distance from the middle (a cell's column and row)."""
    width, height = rules[0], rules[1]
    c, r = (move, 0) if rules[3] else (move // (height + 1), move % (height + 1))
    return -np.int64(abs(2 * c - (width - 1)) + abs(2 * r - (height - 1)))


@njit(cache=True)
def solve_full(rules: Any, pos: Any, table: solver.SolverTable, max_nodes: Int64) -> tuple[np.int64, np.int64]:
    """:func:`donuts_ai.search.solver.solve` with every hook."""
    game = cg.CompiledGame(T.legal, T.play, T.key, T.MAX_PLIES, True, T.winning, T.safe, T.plies_left,
                           T.order, cg.default_playout)
    return solver.solve(game, rules, pos, table, max_nodes)


@njit(cache=True)
def solve_bare(rules: Any, pos: Any, table: solver.SolverTable, max_nodes: Int64) -> tuple[np.int64, np.int64]:
    """:func:`donuts_ai.search.solver.solve` with the required functions alone."""
    game = cg.CompiledGame(T.legal, T.play, T.key, T.MAX_PLIES, True, cg.default_winning, cg.default_safe,
                           cg.default_plies_left, cg.default_order, cg.default_playout)
    return solver.solve(game, rules, pos, table, max_nodes)


@njit(cache=True)
def analyze_full(rules: Any, pos: Any, table: solver.SolverTable, max_nodes: Int64) -> tuple[NDArray[np.int64], np.int64]:
    """:func:`donuts_ai.search.solver.analyze` with every hook."""
    game = cg.CompiledGame(T.legal, T.play, T.key, T.MAX_PLIES, True, T.winning, T.safe, T.plies_left,
                           T.order, cg.default_playout)
    return solver.analyze(game, rules, pos, table, max_nodes)


@njit(cache=True)
def analyze_bare(rules: Any, pos: Any, table: solver.SolverTable, max_nodes: Int64) -> tuple[NDArray[np.int64], np.int64]:
    """:func:`donuts_ai.search.solver.analyze` with the required functions alone."""
    game = cg.CompiledGame(T.legal, T.play, T.key, T.MAX_PLIES, True, cg.default_winning, cg.default_safe,
                           cg.default_plies_left, cg.default_order, cg.default_playout)
    return solver.analyze(game, rules, pos, table, max_nodes)


# --- a take-away game: one pile, take 1 to ``rules`` stones, who takes the last wins ---------
# Lines of different lengths meet (take 3, or 1 three times), so the table's bounds serve a
# position at other distances from the root than where they were found.

#: The largest pile of the tests.
MAX_PILE = 40


@njit(cache=True)
def pile_legal(rules: Any, pos: Any) -> np.uint64:
    """Take 1 to ``rules`` stones, at most the pile: move ``m`` (bit ``m``) takes ``m``."""
    most = min(np.int64(rules), pos[0])
    return ((ONE << np.uint64(most + 1)) - ONE) & ~ONE


@njit(cache=True)
def pile_play(rules: Any, pos: Any, move: Int64) -> tuple[tuple[np.int64], np.int64]:
    """The stones taken; the last one wins."""
    left = pos[0] - move
    return (np.int64(left),), np.int64(cg.WON if left == 0 else cg.GOES_ON)


@njit(cache=True)
def pile_key(rules: Any, pos: Any) -> np.uint64:
    return np.uint64(pos[0])


@njit(cache=True)
def pile_winning(rules: Any, pos: Any) -> np.uint64:
    """Taking the whole pile, when allowed."""
    return ONE << np.uint64(pos[0]) if pos[0] <= rules else ZERO


@njit(cache=True)
def pile_safe(rules: Any, pos: Any) -> np.uint64:
    """The moves leaving more than the opponent may take."""
    moves = pile_legal(rules, pos)
    safe_moves = ZERO
    for move in range(1, min(np.int64(rules), pos[0]) + 1):
        if pos[0] - move > rules:
            safe_moves |= ONE << np.uint64(move)
    return safe_moves & moves


@njit(cache=True)
def pile_plies_left(rules: Any, pos: Any) -> np.int64:
    """One stone a ply at the slowest."""
    return np.int64(pos[0])


@njit(cache=True)
def pile_order(rules: Any, pos: Any, move: Int64) -> np.int64:
    """Small takes first (the worse ones here: the table has to do the work)."""
    return -np.int64(move)


@njit(cache=True)
def solve_pile(rules: Any, pos: Any, table: solver.SolverTable, max_nodes: Int64) -> tuple[np.int64, np.int64]:
    """:func:`donuts_ai.search.solver.solve` on the take-away game, every hook."""
    game = cg.CompiledGame(T.pile_legal, T.pile_play, T.pile_key, T.MAX_PILE, True, T.pile_winning,
                           T.pile_safe, T.pile_plies_left, T.pile_order, cg.default_playout)
    return solver.solve(game, rules, pos, table, max_nodes)


@njit(cache=True)
def analyze_pile(rules: Any, pos: Any, table: solver.SolverTable, max_nodes: Int64) -> tuple[NDArray[np.int64], np.int64]:
    """:func:`donuts_ai.search.solver.analyze` on the take-away game, every hook."""
    game = cg.CompiledGame(T.pile_legal, T.pile_play, T.pile_key, T.MAX_PILE, True, T.pile_winning,
                           T.pile_safe, T.pile_plies_left, T.pile_order, cg.default_playout)
    return solver.analyze(game, rules, pos, table, max_nodes)


# --- a game whose players do not alternate: one pile, take 1 to 3 stones; taking 2 moves again;
# whoever empties the pile wins by taking 1, loses by taking 2 and draws by taking 3 -----------
# Every status comes up (GOES_ON, MOVES_AGAIN, WON, LOST, DRAWN), so the solver's scores and
# the MCTS's playouts and proofs meet each.

#: The most stones a turn takes.
TURNS_MOST = 3
#: Taking this many moves again.
TURNS_AGAIN = 2


@njit(cache=True)
def turns_legal(rules: Any, pos: Any) -> np.uint64:
    """Take 1 to 3 stones, at most the pile: move ``m`` (bit ``m``) takes ``m``."""
    most = min(np.int64(TURNS_MOST), pos[0])
    return ((ONE << np.uint64(most + 1)) - ONE) & ~ONE


@njit(cache=True)
def turns_play(rules: Any, pos: Any, move: Int64) -> tuple[tuple[np.int64], np.int64]:
    """The stones taken, and the status the rules above give."""
    left = pos[0] - move
    if left == 0:
        status = cg.WON if move == 1 else (cg.LOST if move == TURNS_AGAIN else cg.DRAWN)
    else:
        status = cg.MOVES_AGAIN if move == TURNS_AGAIN else cg.GOES_ON
    return (np.int64(left),), np.int64(status)


@njit(cache=True)
def turns_key(rules: Any, pos: Any) -> np.uint64:
    return np.uint64(pos[0])


@njit(cache=True)
def turns_winning(rules: Any, pos: Any) -> np.uint64:
    """Taking the last stone alone."""
    return ONE << ONE if pos[0] == 1 else ZERO


@njit(cache=True)
def turns_plies_left(rules: Any, pos: Any) -> np.int64:
    """One stone a ply at the slowest."""
    return np.int64(pos[0])


@njit(cache=True)
def solve_turns(rules: Any, pos: Any, table: solver.SolverTable, max_nodes: Int64) -> tuple[np.int64, np.int64]:
    """:func:`donuts_ai.search.solver.solve` on the game whose turns repeat."""
    game = cg.CompiledGame(T.turns_legal, T.turns_play, T.turns_key, T.MAX_PILE, False, T.turns_winning, cg.default_safe,
                           T.turns_plies_left, cg.default_order, cg.default_playout)
    return solver.solve(game, rules, pos, table, max_nodes)


@njit(cache=True)
def analyze_turns(rules: Any, pos: Any, table: solver.SolverTable, max_nodes: Int64) -> tuple[NDArray[np.int64], np.int64]:
    """:func:`donuts_ai.search.solver.analyze` on the game whose turns repeat."""
    game = cg.CompiledGame(T.turns_legal, T.turns_play, T.turns_key, T.MAX_PILE, False, T.turns_winning, cg.default_safe,
                           T.turns_plies_left, cg.default_order, cg.default_playout)
    return solver.analyze(game, rules, pos, table, max_nodes)


@njit(cache=True)
def mcts_turns(tree: Any, pos: Any, to_move: Int64, iterations: Int64, settings: Any) -> tuple[Int64, bool]:
    """:func:`donuts_ai.search.mcts.run_tree` on the game whose turns repeat (its random playouts: the search's own)."""
    game = cg.CompiledGame(T.turns_legal, T.turns_play, T.turns_key, T.MAX_PILE, False, T.turns_winning, cg.default_safe,
                           T.turns_plies_left, cg.default_order, cg.default_playout)
    return mcts.run_tree(game, 0, tree, 0, pos, to_move, iterations, settings, False)


@njit(cache=True)
def mcts_grid(rules: Any, tree: Any, pos: Any, to_move: Int64, iterations: Int64, settings: Any) -> tuple[Int64, bool]:
    """:func:`donuts_ai.search.mcts.run_tree` on a k-in-a-row game, every hook."""
    game = cg.CompiledGame(T.legal, T.play, T.key, T.MAX_PLIES, True, T.winning, T.safe, T.plies_left, T.order,
                           cg.default_playout)
    return mcts.run_tree(game, rules, tree, 0, pos, to_move, iterations, settings, False)
