"""The solver's search: negamax with alpha-beta and a transposition table, driven by
null-window searches that find the exact score by bisection (Pons' Connect Four solver,
over any :class:`~donuts_ai.search.compiled_game.CompiledGame`).

Inside the search a score is counted from the root (a win at ply ``ply + d`` scores
``WIN_SCORE - ply - d``), so that it negates from ply to ply; :mod:`._table` shifts the
bounds it stores to the position's own count. :func:`solve` bisects the scores the root
can have with null windows, the table kept between them. A node budget stops the search:
past it, every node returns at once, nothing more is stored (the table keeps only true
bounds), and the result is :data:`UNKNOWN_SCORE`. What prunes at a node is the comment
above ``_negamax``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..._bits import ONE, ZERO, ctz
from ..._numba_types import Int64
from ..compiled_game import DRAWN, LOST, MAX_MOVES, MOVES_AGAIN, WON, CompiledGame, hook_given
from ._scores import NOT_LEGAL, UNKNOWN_SCORE, WIN_SCORE, score_again, score_before
from ._sorter import MoveSorter, new_sorter, sort_moves
from ._table import SolverTable, bounds_at, store

#: ``counts[NODES]``: the positions explored (Pons' figure: one per call of the search).
NODES = 0
#: ``counts[BUDGET]``: the most positions to explore; past it the search stops.
BUDGET = 1
#: A node budget that never runs out.
NO_NODE_LIMIT = 1 << 62
#: The quickest win when no move wins at once: our next move but one.
FIRST_WIN_WITHOUT_WIN_NOW = 3
#: ... in a game that does not alternate: the next ply, when the mover moves again.
FIRST_WIN_WITHOUT_WIN_NOW_ANY_TURNS = 2
#: The quickest loss when every move searched is safe: the opponent's second move.
FIRST_LOSS_WHEN_SAFE = 4
#: The quickest loss otherwise: the opponent's first move; in a game that does not
#: alternate, our own move (status LOST).
FIRST_LOSS = 2
FIRST_LOSS_ANY_TURNS = 1


# A node's window is fail-hard below (it returns ``alpha`` when every move fails low: the score
# is at most that) and returns the move's score on a cutoff (the score is at least that).
# What prunes, in order, at a node ``ply`` plies below the root with ``plies`` plies left at
# most (the least of the parent's count less one and the game's ``plies_left``):
# 1. a move that wins at once (``winning``): the best score there is, returned at once;
# 2. ``safe`` (with ``winning``): only the moves that do not lose at once are searched; with
#    none, the position is lost in 2;
# 3. the bounds of the distance (Pons' bound from the moves left): with no winning move the
#    quickest win is 3 plies away (2 in a game that does not alternate: the mover may move
#    again), with a safe move the quickest loss 4, and no win or loss comes after ``plies``
#    plies: the window shrinks to them, and closes when empty;
# 4. the table's bounds for the position, likewise;
# 5. the moves in ``order``'s order, cut off at the first that reaches ``beta``.
@njit(cache=True)
def _negamax(game: CompiledGame, rules: Any, pos: Any, where: tuple[np.int64, np.int64], alpha: np.int64, beta: np.int64,
             table: SolverTable, counts: NDArray[np.int64], sorter: MoveSorter) -> np.int64:
    """The score of ``pos``, ``ply`` plies below the root, counted from the root, within
    ``(alpha, beta)``: at most ``alpha`` when it returns ``alpha`` or less, at least ``beta``
    when it returns ``beta`` or more, exact between. ``plies``: at most this many plies
    remain. Every argument is a non-literal integer: a literal one would compile a second
    version of this recursive kernel, and Numba's cache cannot load that pair (it crashes).
    ``where`` is ``(ply, plies)``, one argument (two plain integers, passed by value) so that
    the kernel keeps to nine parameters."""
    ply, plies = where
    counts[NODES] += 1
    if counts[NODES] > counts[BUDGET]:
        return np.int64(0)  # out of budget: the callers see the count and store nothing
    legal = game.legal(rules, pos)
    plies = min(plies, np.int64(game.plies_left(rules, pos)))
    if legal == ZERO or plies <= 0:
        return np.int64(0)  # no move or no ply left: the game cannot go on, call it drawn
    use_winning = hook_given(game.winning)
    if use_winning and game.winning(rules, pos) & legal != ZERO:
        return np.int64(WIN_SCORE - ply - 1)  # a win now: no score is higher
    moves = legal
    use_safe = use_winning and hook_given(game.safe)
    if use_safe:
        moves &= game.safe(rules, pos)
        if moves == ZERO:
            return np.int64(-(WIN_SCORE - ply - 2))  # every move lets the opponent win at once
    # The distance bounds the score: no win sooner than the first ply one can come at, none
    # (nor a loss) after the last ply left.
    alternating = game.alternating
    if use_winning:
        first_win = FIRST_WIN_WITHOUT_WIN_NOW if alternating else FIRST_WIN_WITHOUT_WIN_NOW_ANY_TURNS
    else:
        first_win = 1
    if use_safe:
        first_loss = FIRST_LOSS_WHEN_SAFE
    else:
        first_loss = FIRST_LOSS if alternating else FIRST_LOSS_ANY_TURNS
    high = np.int64(WIN_SCORE - ply - first_win) if plies >= first_win else np.int64(0)
    low = np.int64(-(WIN_SCORE - ply - first_loss)) if plies >= first_loss else np.int64(0)
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta  # the window lies above every score possible here
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha  # ... or below every one
    key = game.key(rules, pos)
    lower, upper = bounds_at(table, key, ply)
    if beta > upper:
        beta = upper
        if alpha >= beta:
            return beta  # the table's upper bound fails the window low
    if alpha < lower:
        alpha = lower
        if alpha >= beta:
            return alpha  # its lower bound fails it high
    alpha_in = alpha
    count = sort_moves(game, rules, pos, moves, sorter, ply)
    for i in range(count):
        child, status = game.play(rules, pos, sorter.moves[ply, i])
        if status == WON:
            score = np.int64(WIN_SCORE - ply - 1)
        elif status == DRAWN:
            score = np.int64(0)
        elif status == LOST:
            score = np.int64(-(WIN_SCORE - ply - 1))
        else:
            if status == MOVES_AGAIN:  # the same player, the same window
                score = _negamax(game, rules, child, (ply + 1, plies - 1), alpha, beta, table, counts, sorter)
            else:
                score = -_negamax(game, rules, child, (ply + 1, plies - 1), -beta, -alpha, table, counts, sorter)
            if counts[NODES] > counts[BUDGET]:
                return np.int64(0)  # the budget ran out below: nothing found here is sure
        if score >= beta:
            store(table, key, ply, score, WIN_SCORE)  # at least this: a lower bound
            return score  # a move reaches beta: the others cannot matter
        if score > alpha:
            alpha = score
    # Every move fails low (an upper bound), or one scored within the window (exact).
    store(table, key, ply, alpha if alpha > alpha_in else -WIN_SCORE, alpha)
    return alpha


# solve bisects the scores the root can have (0, and in a game that alternates the wins at
# odd distances and the losses at even ones, any distance in one that does not, within its
# ``plies``) with null windows, the table kept between them; each answer's bound moves the
# bisection past every score it rules out.
@njit(cache=True)
def _root_scores(plies: Int64, alternating: bool) -> NDArray[np.int64]:
    """The scores a position with at most ``plies`` plies left can have, ascending: the
    losses (the quickest first), the draw, the wins (the slowest first); in a game that
    alternates, the losses at even distances 2 to ``plies`` and the wins at odd ones, in
    one that does not, every distance 1 to ``plies``."""
    step = 2 if alternating else 1
    first_loss = 2 if alternating else 1
    losses = (plies - first_loss) // step + 1 if plies >= first_loss else 0
    wins = (plies - 1) // step + 1 if plies >= 1 else 0
    scores = np.empty(losses + 1 + wins, dtype=np.int64)
    for i in range(losses):
        scores[i] = -(WIN_SCORE - (first_loss + step * i))
    scores[losses] = 0
    for j in range(wins):
        scores[losses + 1 + j] = WIN_SCORE - (1 + step * (wins - 1 - j))
    return scores


@njit(cache=True)
def _solve(game: CompiledGame, rules: Any, pos: Any, plies: Int64, table: SolverTable, counts: NDArray[np.int64],
           sorter: MoveSorter) -> np.int64:
    """The exact score of ``pos`` (at most ``plies`` plies left), or :data:`UNKNOWN_SCORE`
    once ``counts`` passes its budget: null-window searches bisecting the scores possible."""
    plies = min(np.int64(plies), np.int64(game.plies_left(rules, pos)))
    if plies <= 0 or game.legal(rules, pos) == ZERO:
        return np.int64(0)
    scores = _root_scores(plies, game.alternating)
    lo = np.int64(0)
    hi = np.int64(scores.shape[0] - 1)
    ply = np.int64(0)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        target = scores[mid]
        # Is the score at least ``target``? The window (target - 1, target).
        value = _negamax(game, rules, pos, (ply, plies), target - 1, target, table, counts, sorter)
        if counts[NODES] > counts[BUDGET]:
            return np.int64(UNKNOWN_SCORE)
        if value >= target:
            # At least ``value``: every score below it is ruled out.
            lo = min(max(mid, np.int64(np.searchsorted(scores, value, side="left"))), hi)
        else:
            # At most ``value``: every score above it is ruled out.
            hi = max(min(mid - 1, np.int64(np.searchsorted(scores, value, side="right")) - 1), lo)
    result: np.int64 = scores[lo]
    return result


@njit(cache=True)
def _new_counts(max_nodes: Int64) -> NDArray[np.int64]:
    """The search's counters: no node explored yet, a budget of ``max_nodes``."""
    counts = np.zeros(2, dtype=np.int64)
    counts[BUDGET] = max_nodes
    return counts


@njit(cache=True)
def _search_plies(game: CompiledGame, rules: Any, pos: Any) -> np.int64:
    """At most this many plies remain from ``pos``: the game's bound and its hook's."""
    return min(np.int64(game.max_plies), np.int64(game.plies_left(rules, pos)))


@njit(cache=True)
def solve(game: CompiledGame, rules: Any, pos: Any, table: SolverTable, max_nodes: Int64) -> tuple[np.int64, np.int64]:
    """The exact score of ``pos`` for the side to move (a win ``d`` plies away:
    ``WIN_SCORE - d``; a loss: ``-(WIN_SCORE - d)``; a draw: 0).

    Args:
        game: the game's functions.
        rules: passed to them unchanged.
        pos: a position whose game goes on, from the side to move.
        table: the transposition table; what it holds is kept and used (a table may serve
            many positions of one game and ``rules``, never two games).
        max_nodes: the most positions to explore (:data:`NO_NODE_LIMIT`: no limit).

    Returns:
        ``(score, nodes)``: the score, or :data:`UNKNOWN_SCORE` when the budget ran out;
        the positions explored (over ``max_nodes`` when it ran out).
    """
    plies = _search_plies(game, rules, pos)
    counts = _new_counts(max_nodes)
    sorter = new_sorter(plies)
    score = _solve(game, rules, pos, plies, table, counts, sorter)
    return score, counts[NODES]


@njit(cache=True)
def analyze(game: CompiledGame, rules: Any, pos: Any, table: SolverTable, max_nodes: Int64) -> tuple[NDArray[np.int64], np.int64]:
    """The exact score of every legal move of ``pos``, for the side to move (Pons'
    ``move_scores``: the best of them is :func:`solve`'s score).

    Args:
        game: the game's functions.
        rules: passed to them unchanged.
        pos: a position whose game goes on, from the side to move.
        table: the transposition table, shared by the moves' searches.
        max_nodes: the most positions to explore in all.

    Returns:
        ``(scores, nodes)``: ``scores[move]`` for each move 0 to 63 (``int64[MAX_MOVES]``):
        its score, :data:`NOT_LEGAL` for a move not legal, :data:`UNKNOWN_SCORE` for one
        not settled when the budget ran out; the positions explored.
    """
    return _analyze(game, rules, pos, table, max_nodes, _search_plies(game, rules, pos))


@njit(cache=True)
def analyze_within(game: CompiledGame, rules: Any, pos: Any, table: SolverTable, max_nodes: Int64,
                   horizon: Int64) -> tuple[NDArray[np.int64], np.int64]:
    """:func:`analyze` looking ``horizon`` plies ahead at most: the move's own ply and the
    plies after it. A position the horizon reaches before the game ends scores 0, as a
    draw does, so a win or a loss it finds is exact (every line the loser could try ends
    within the horizon), and 0 is "a draw, or not decided within the horizon". This is a
    depth-limited alpha-beta with a null evaluation, which an agent deepens as its time
    allows (iterative deepening; clear the table between horizons: its bounds hold for
    the horizon they were found at).

    Args:
        game: as :func:`analyze`.
        rules: as :func:`analyze`.
        pos: as :func:`analyze`.
        table: as :func:`analyze`.
        max_nodes: as :func:`analyze`.
        horizon: the plies looked ahead, 1 or more.

    Returns:
        ``(scores, nodes)``, as :func:`analyze`.
    """
    return _analyze(game, rules, pos, table, max_nodes, min(_search_plies(game, rules, pos), np.int64(horizon)))


@njit(cache=True)
def _analyze(game: CompiledGame, rules: Any, pos: Any, table: SolverTable, max_nodes: Int64,
             plies: Int64) -> tuple[NDArray[np.int64], np.int64]:
    """Every move's score, ``plies`` plies looked ahead at most (the move's own included)."""
    counts = _new_counts(max_nodes)
    sorter = new_sorter(plies)
    scores = np.full(MAX_MOVES, NOT_LEGAL, dtype=np.int64)
    moves = game.legal(rules, pos)
    while moves != ZERO:
        move = ctz(moves)
        moves &= moves - ONE
        if counts[NODES] > counts[BUDGET]:
            scores[move] = UNKNOWN_SCORE  # the budget ran out on an earlier move
            continue
        child, status = game.play(rules, pos, move)
        if status == WON:
            scores[move] = WIN_SCORE - 1
        elif status == DRAWN:
            scores[move] = 0
        elif status == LOST:
            scores[move] = -(WIN_SCORE - 1)
        else:
            score = _solve(game, rules, child, plies - 1, table, counts, sorter)
            if score == UNKNOWN_SCORE:
                scores[move] = UNKNOWN_SCORE
            else:
                scores[move] = score_again(score) if status == MOVES_AGAIN else score_before(score)
    return scores, counts[NODES]
