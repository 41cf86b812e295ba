"""Monte-Carlo tree search (UCT, uniformly random playouts) for a time limit, only against donuts_ai.donuts.kernels; the tree is a few
arrays. ``PYTHONPATH=. donuts-ai tournament examples.compiled_mcts:Agent:time=0.5 greedy`` from the repository root."""

import time

import numpy as np
from numba import njit

from donuts_ai import Board, square_name
from donuts_ai import kernels as K

# A node's columns: first child, next sibling, the square played into it, visits, SIGN (-1: that move passed the turn, +1: the
# same side moves again) and END (the game value for whoever moved into the node, or GOES_ON). BATCH: iterations a kernel call.
FIRST, NEXT, SQUARE, VISITS, SIGN, END = range(6)
GOES_ON, BATCH = 9, 256


@njit(cache=True)
def reseed(seed):
    np.random.seed(seed)  # Numba's own generator, the one its kernels draw from


@njit(cache=True)
def iterate(rb, root, tree, score, untried, size, exploration, iterations):
    """``iterations`` times: select by UCT, expand one move, play out at random, back the value up. Returns the tree's size."""
    path = np.zeros(K.NUM_SQUARES + 1, np.int64)
    for _ in range(iterations):
        node, pos, depth = 0, root, 0
        while tree[node, END] == GOES_ON and untried[node] == 0:  # select: the child of best upper confidence bound
            child, best, parent = tree[node, FIRST], -np.inf, node
            while child >= 0:
                bound = score[child] / tree[child, VISITS] + exploration * np.sqrt(np.log(tree[parent, VISITS]) / tree[child, VISITS])
                node, best = (child, bound) if bound > best else (node, best)
                child = tree[child, NEXT]
            path[depth + 1], pos, depth = node, K.apply(rb.donuts, rb.single, pos, tree[node, SQUARE])[0], depth + 1
        if tree[node, END] == GOES_ON and size < tree.shape[0]:  # expand: one untried move, drawn at random
            square = K.nth_square(untried[node], np.random.randint(K.popcount(untried[node])))
            untried[node] &= ~K.square_bit(square)
            pos, status = K.apply(rb.donuts, rb.single, pos, square)
            tree[size, FIRST], tree[size, NEXT], tree[size, SQUARE], tree[size, VISITS] = -1, tree[node, FIRST], square, 0
            tree[size, SIGN], tree[size, END] = -1 if status == K.PASSES else 1, K.game_value(status) if K.is_over(status) else GOES_ON
            untried[size] = np.uint64(0) if K.is_over(status) else K.legal_moves(rb, pos)
            score[size], tree[node, FIRST], path[depth + 1], node, depth, size = 0.0, size, size, size, depth + 1, size + 1
        value, sign = tree[node, END], tree[node, SIGN]  # sign: from the mover's value to the value for the node's mover
        while value == GOES_ON:  # play out: uniformly random moves to the end of the game
            moves = K.legal_moves(rb, pos)
            pos, status = K.apply(rb.donuts, rb.single, pos, K.nth_square(moves, np.random.randint(K.popcount(moves))))
            value, sign = sign * K.game_value(status) if K.is_over(status) else GOES_ON, -sign if status == K.PASSES else sign
        for d in range(depth, -1, -1):  # back up: the value for whoever moved into each node
            tree[path[d], VISITS] += 1
            score[path[d]] += value
            value *= tree[path[d - 1], SIGN] if d > 0 else 1
    return size


class Agent:
    """``time_limit`` seconds a move (default 1.0); ``exploration`` the exploration constant; at most ``max_nodes`` tree nodes."""

    def __init__(self, time_limit=1.0, exploration=1.0, max_nodes=1 << 19, seed=0):
        self.time_limit, self.exploration, self.seed, self.last_info = time_limit, float(exploration), seed, {}
        self.tree, self.score, self.untried = np.zeros((max_nodes, 6), np.int64), np.zeros(max_nodes), np.zeros(max_nodes, np.uint64)
        self.reset()  # and compile the kernels (or load them from the cache) now, not in the first move:
        iterate(K.rulebook(Board()), K.position(Board()), self.tree, self.score, self.untried, 1, self.exploration, 0)

    def reset(self, seed=None):
        reseed(self.seed if seed is None else seed)

    def select_move(self, board, time_left=None):
        start, limit = time.perf_counter(), self.time_limit if time_left is None else min(self.time_limit, time_left / 20)
        rb, root, size, iterations = K.rulebook(board), K.position(board), 1, 0
        self.tree[0], self.score[0], self.untried[0] = (-1, -1, -1, 0, 1, GOES_ON), 0.0, K.legal_moves(rb, root)
        while iterations == 0 or time.perf_counter() - start < limit:
            size, iterations = iterate(rb, root, self.tree, self.score, self.untried, size, self.exploration, BATCH), iterations + BATCH
        best, child = -1, self.tree[0, FIRST]
        while child >= 0:  # the most visited move
            best = child if best < 0 or self.tree[child, VISITS] > self.tree[best, VISITS] else best
            child = self.tree[child, NEXT]
        self.last_info = {"nodes": int(size), "iterations": iterations, "seconds": time.perf_counter() - start}
        return square_name(self.tree[best, SQUARE])
