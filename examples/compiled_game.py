"""Tic-tac-toe as compiled kernels, solved by the library's exact solver and searched by its MCTS, with public imports only
(``docs/howto/compile_your_game.md`` walks through it). ``python examples/compiled_game.py`` from the repository root."""

import sys

import numpy as np
from numba import njit

from donuts_ai.search import compiled_game as cg
from donuts_ai.search import mcts, solver

# The board: bit 3 * row + column of a uint64, row 0 at the bottom (bits 9..63 are never set):
#
#     row 2   6  7  8
#     row 1   3  4  5
#     row 0   0  1  2
#
# A position is (mine, theirs), the stones of the side to move and of the other side, so playing a move swaps them:
# (theirs, mine | bit). A move is a cell 0..8, a set of moves a uint64 of cells.
CELLS = 9
BOARD = np.uint64((1 << CELLS) - 1)
LINES = np.array([0b000000111, 0b000111000, 0b111000000,  # the rows
                  0b001001001, 0b010010010, 0b100100100,  # the columns
                  0b100010001, 0b001010100], dtype=np.uint64)  # the diagonals
ORDER = np.array([1, 0, 1, 0, 2, 0, 1, 0, 1], dtype=np.int64)  # the centre first, then the corners
RULES = np.int64(0)  # tic-tac-toe has no variants: every kernel takes rules and ignores it
ONE, ZERO = np.uint64(1), np.uint64(0)


@njit(cache=True)
def has_line(stones):
    """True when ``stones`` hold three in a row."""
    for line in LINES:
        if stones & line == line:
            return True
    return False


@njit(cache=True)
def legal(rules, pos):
    """The empty cells."""
    return BOARD & ~(pos[0] | pos[1])


@njit(cache=True)
def play(rules, pos, move):
    """The side to move plays cell ``move``: the next player's position and the move's status."""
    mine = pos[0] | (ONE << np.uint64(move))
    status = cg.WON if has_line(mine) else (cg.DRAWN if mine | pos[1] == BOARD else cg.GOES_ON)
    return (pos[1], mine), status


@njit(cache=True)
def key(rules, pos):
    """The whole position in one word: equal keys, equal positions (whose turn it is follows from the stones)."""
    return pos[0] | (pos[1] << np.uint64(16))


@njit(cache=True)
def completing(stones, empty):
    """The empty cells that would give ``stones`` three in a row."""
    cells = ZERO
    for line in LINES:
        gap = line & ~stones
        if gap & empty == gap and gap != ZERO and gap & (gap - ONE) == ZERO:  # one cell of the line missing, and empty
            cells |= gap
    return cells


@njit(cache=True)
def winning(rules, pos):
    """Hook: every move that wins at once."""
    return completing(pos[0], legal(rules, pos))


@njit(cache=True)
def safe(rules, pos):
    """Hook, asked where nothing wins at once: the moves after which the opponent cannot win at once. One threat of theirs must
    be blocked; two cannot be."""
    threats = completing(pos[1], legal(rules, pos))
    if threats == ZERO:
        return legal(rules, pos)
    return threats if threats & (threats - ONE) == ZERO else ZERO


@njit(cache=True)
def plies_left(rules, pos):
    """Hook: at most the empty cells remain."""
    moves, left = legal(rules, pos), np.int64(0)
    while moves != ZERO:
        moves &= moves - ONE
        left += 1
    return left


@njit(cache=True)
def order(rules, pos, move):
    """Hook: the centre first, then the corners, then the edges."""
    return ORDER[move]


# The bound kernels read the game's functions as attributes of this module: a function named as a global would be compiled in
# as its address, and the kernel never cached.
GAME = sys.modules[__name__]


@njit(cache=True)
def solve(rules, pos, table, max_nodes):
    """The solver on tic-tac-toe, every hook but ``playout`` given: ``(score, nodes)``."""
    game = cg.CompiledGame(GAME.legal, GAME.play, GAME.key, CELLS, True, GAME.winning, GAME.safe, GAME.plies_left, GAME.order,
                           cg.default_playout)
    return solver.solve(game, rules, pos, table, max_nodes)


@njit(cache=True)
def analyze(rules, pos, table, max_nodes):
    """Every move's score: ``(scores[64], nodes)``."""
    game = cg.CompiledGame(GAME.legal, GAME.play, GAME.key, CELLS, True, GAME.winning, GAME.safe, GAME.plies_left, GAME.order,
                           cg.default_playout)
    return solver.analyze(game, rules, pos, table, max_nodes)


@njit(cache=True)
def run_mcts(tree, pos, to_move, iterations, settings):
    """The MCTS on tic-tac-toe (without a playout of the game's own it plays random moves itself): ``iterations``
    iterations on tree 0; ``(iterations run, full)``."""
    game = cg.CompiledGame(GAME.legal, GAME.play, GAME.key, CELLS, True, GAME.winning, GAME.safe, GAME.plies_left, GAME.order,
                           cg.default_playout)
    return mcts.run_tree(game, RULES, tree, 0, pos, to_move, iterations, settings, False)


# --- checking the kernels against the plain rules (the interface's "how to grade") -------------------------------------------


def plain_winner(board):
    """The plain rules on a list of 9 cells ('x', 'o' or ''): 'x', 'o', 'draw', or None while the game goes on."""
    for a, b, c in [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]:
        if board[a] and board[a] == board[b] == board[c]:
            return board[a]
    return "draw" if all(board) else None


def bits(moves):
    """The cells of a move set."""
    return [m for m in range(CELLS) if int(moves) >> m & 1]


def check_hooks(positions=300, seed=0):
    """The kernels and every hook against the plain rules on ``positions`` random positions; returns how many were checked."""
    rng, seen = np.random.default_rng(seed), {}
    for _ in range(positions):
        board, pos = [""] * CELLS, (ZERO, ZERO)
        for ply in range(int(rng.integers(0, CELLS))):  # a random game, stopped before its end
            if plain_winner(board) is not None:
                break
            move = int(rng.choice([m for m in range(CELLS) if not board[m]]))
            board[move] = "xo"[ply % 2]
            child, _ = play(RULES, pos, move)
            pos = (np.uint64(child[0]), np.uint64(child[1]))
        if plain_winner(board) is not None:
            continue
        me = "xo"[sum(1 for c in board if c) % 2]
        assert bits(legal(RULES, pos)) == [m for m in range(CELLS) if not board[m]], board
        won = []
        for move in bits(legal(RULES, pos)):
            after = board.copy()
            after[move] = me
            _, status = play(RULES, pos, move)
            assert status == {me: cg.WON, "draw": cg.DRAWN, None: cg.GOES_ON}[plain_winner(after)], (board, move)
            won += [move] if status == cg.WON else []
        assert seen.setdefault(int(key(RULES, pos)), board) == board, "two positions share a key"
        assert bits(winning(RULES, pos)) == won, board
        if not won:
            safe_moves = [m for m in bits(legal(RULES, pos)) if play(RULES, pos, m)[1] == cg.DRAWN
                          or not bits(winning(RULES, tuple(np.uint64(x) for x in play(RULES, pos, m)[0])))]
            assert bits(safe(RULES, pos)) == safe_moves, board
        assert plies_left(RULES, pos) == board.count(""), board
    return len(seen)


def describe(score):
    """A solver's score in words: who wins and in how many plies."""
    if score == 0:
        return "a draw"
    return f"{'a win' if score > 0 else 'a loss'} in {solver.plies_to_end(score)} plies"


def main(simulations=20_000):
    start = (ZERO, ZERO)  # typed as play returns positions: np.uint64 words
    table = solver.new_table(16)
    score, nodes = solve(RULES, start, table, solver.NO_NODE_LIMIT)
    print(f"the start: {describe(score)} (score {score}, {nodes} positions explored)")
    scores, _ = analyze(RULES, start, table, solver.NO_NODE_LIMIT)
    print("every first move:", ", ".join(f"{m}: {describe(scores[m])}" for m in range(CELLS)))
    after = (np.uint64(0b000010000), np.uint64(0b000000010))  # x played the centre, o an edge: x to move
    scores, _ = analyze(RULES, after, table, solver.NO_NODE_LIMIT)
    best = max(range(CELLS), key=lambda m: scores[m])
    print(f"after x 4, o 1: x plays {best}, {describe(scores[best])}")
    tree = mcts.new_tree(1, 1 << 18, CELLS + 1)  # one tree, room for 2**18 nodes, paths of 10 nodes at most
    mcts.reset_tree(tree, 0, 1, 0)  # the root's mover: player 1, as if they had moved into the start
    run, _ = run_mcts(tree, start, 0, simulations, mcts.MCTSSettings(exploration=1.0, solver=True))
    moves, visits, _, _ = mcts.root_stats(tree, 0)
    print(f"mcts, {run} simulations from the start: most visited move {moves[np.argmax(visits)]} ({visits.max()} visits)")
    print(f"kernels and hooks agree with the plain rules on {check_hooks()} positions")


if __name__ == "__main__":
    main()
