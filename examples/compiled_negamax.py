"""Negamax with alpha-beta on the win/draw/loss value, against donuts_ai.donuts.kernels only; the horizon scores 0 (not known): +1 and -1
are proven, 0 exact once the search reaches the end. Run from the root: PYTHONPATH=. donuts-ai tournament examples.compiled_negamax:Agent"""

import time

import numpy as np
from numba import njit

from donuts_ai import Board, square_name
from donuts_ai import kernels as K

NODES, LIMIT, ROOT, MOVE = 0, 1, 2, 3  # the counters: nodes searched, the node limit (past it the search unwinds), root depth, move
STORED = np.uint64(1)  # a table row: [key_a, key_b, STORED | (lower + 1) << 1 | (upper + 1) << 3]
HASH = np.uint64(0x9E3779B97F4A7C15)  # an odd multiplier (the golden ratio) mixing key_a into the row index
MIN_NODES = 20_000  # the least node limit of a timed iteration: long enough to measure the node rate on


@njit(cache=True)
def negamax(rb, pos, depth, alpha, beta, table, syms, counters):
    """The value of ``pos`` for its side to move: +1 / -1 proven; 0 a draw, or not known above the horizon."""
    counters[NODES] += 1
    if depth == 0 or counters[NODES] > counters[LIMIT]:
        return 0
    key_a, key_b = K.canonical_key(pos, syms)  # the table holds proven bounds only: valid at any depth
    row = np.int64((key_a * HASH ^ key_b) % np.uint64(table.shape[0])) if table.shape[0] else -1
    if row >= 0 and depth != counters[ROOT] and table[row, 0] == key_a and table[row, 1] == key_b and table[row, 2] & STORED:
        lower, upper = np.int64((table[row, 2] >> 1) & 3) - 1, np.int64((table[row, 2] >> 3) & 3) - 1
        if lower >= beta or lower == upper or upper <= alpha:
            return lower if lower >= beta or lower == upper else upper
        alpha, beta = max(alpha, lower), min(beta, upper)
    alpha0, best, moves = alpha, -2, K.legal_moves(rb, pos)
    while moves and best < beta:
        square, moves = K.lowest_square(moves), K.without_lowest(moves)
        child, status = K.apply(rb.donuts, rb.single, pos, square)
        if K.is_over(status):
            value = K.game_value(status)
        elif status == K.PASSES:
            value = -negamax(rb, child, depth - 1, -beta, -max(alpha, best), table, syms, counters)
        else:  # the opponent's pool is empty: the same side moves again
            value = negamax(rb, child, depth - 1, max(alpha, best), beta, table, syms, counters)
        counters[MOVE] = square if depth == counters[ROOT] and value > best else counters[MOVE]
        best = max(best, value)
    if row >= 0 and counters[NODES] <= counters[LIMIT] and (best != 0 or K.plies_left(pos, rb.donuts) <= depth):  # proven
        lower, upper = best if best > alpha0 else -1, best if best < beta else 1
        table[row, 0], table[row, 1] = key_a, key_b
        table[row, 2] = STORED | np.uint64(lower + 1) << np.uint64(1) | np.uint64(upper + 1) << np.uint64(3)
    return best


class Agent:
    """``time_limit`` seconds a move (default 1.0 without ``depth``), ``depth`` plies at most; ``tt_bits=0``: no table."""

    def __init__(self, time_limit=None, depth=None, tt_bits=18, seed=None):
        self.time_limit, self.depth = (1.0 if time_limit is None and depth is None else time_limit), depth
        self.table, self.game, self.rate, self.last_info = np.zeros((1 << tt_bits if tt_bits else 0, 3), np.uint64), None, 1e6, {}
        negamax(K.rulebook(Board()), K.position(Board()), 1, -1, 1, self.table, K.symmetries(Board()), np.array([0, 1, 1, -1]))  # compile

    def reset(self, seed=None):
        self.game = None  # the table is cleared before the next move

    def select_move(self, board, time_left=None):
        start, limit = time.perf_counter(), self.time_limit if time_left is None else min(self.time_limit or 1e9, time_left / 20)
        if (board.layout, board.rules) != self.game:  # table entries hold for one layout and rules
            self.table[:], self.game, self.syms = 0, (board.layout, board.rules), K.symmetries(board)
        rb, pos = K.rulebook(board), K.position(board)
        end, nodes, depth, info = K.plies_left(pos, rb.donuts), 0, 1, {}
        while depth <= min(end, self.depth or end) and not info.get("exact"):  # depth 1 always finishes: a move
            left = 1e9 if limit is None else limit - (time.perf_counter() - start)
            budget = 1 << 62 if limit is None or depth == 1 else max(int(self.rate * left), MIN_NODES)
            counters, t = np.array([0, budget, depth, -1]), time.perf_counter()
            value, seconds = negamax(rb, pos, depth, -1, 1, self.table, self.syms, counters), time.perf_counter() - t
            nodes, self.rate = nodes + counters[NODES], counters[NODES] / seconds if seconds > 1e-3 else self.rate
            if counters[NODES] <= counters[LIMIT]:
                info, depth = {"move": square_name(counters[MOVE]), "value": int(value), "depth": depth,
                               "exact": bool(value or depth == end)}, depth + 1
            elif left - seconds < limit / 4:  # out of time; else the same depth again, at the rate just measured
                break
        self.last_info = {**info, "nodes": int(nodes), "seconds": time.perf_counter() - start}
        return info["move"]
