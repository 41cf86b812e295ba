"""The compiled MCTS (:mod:`donuts_ai.search.mcts`) over the compiled-game interface: on the
tiny games of ``_tiny_compiled_game``, MCTS-Solver proves what minimax says, through every
status (MOVES_AGAIN, LOST and DRAWN included, with the search's own random playouts); with
the proofs off, no node is ever proven and every iteration runs."""

from __future__ import annotations

import numpy as np
import pytest

from donuts_ai.outcomes import UNKNOWN
from donuts_ai.search import mcts

from . import _tiny_compiled_game as tiny
from .test_compiled_solver import _turns_minimax

#: Iterations enough to prove the value of every pile of the tests (a few hundred a pile).
PROVING_ITERATIONS = 20_000
#: Piles whose value the MCTS proves in the tests.
PILES = range(1, 13)
#: The first player; the root's mover is the other, as if it had moved into the start.
FIRST = 0


def _fresh_tree(seed: int, path_nodes: int) -> mcts.MCTSTree:
    tree = mcts.new_tree(1, 1 << 16, path_nodes)
    mcts.reset_tree(tree, 0, 1 - FIRST, seed)
    return tree


@pytest.mark.parametrize("pile", PILES)
def test_mcts_solver_proves_minimax_values_when_turns_repeat(pile: int) -> None:
    """The root's proof is minimax's value (for the root's mover: the other player), and a
    proven child's proof agrees with minimax's value of that move."""
    (value, _), moves = _turns_minimax(pile)
    tree = _fresh_tree(pile, tiny.MAX_PILE + 1)
    tiny.mcts_turns(tree, (np.int64(pile),), FIRST, PROVING_ITERATIONS, mcts.MCTSSettings(1.0, True))
    assert tree.proven[0, tree.root[0]] == -value
    children, _, _, proven = mcts.root_stats(tree, 0)
    for move, proof in zip(children, proven, strict=True):
        if proof != UNKNOWN:
            # A child's proof is for its mover, the first player, whoever moves next.
            assert proof == moves[int(move)][0], (pile, move)


@pytest.mark.parametrize("pile", [5, 9])
def test_mcts_without_the_solver_proves_nothing_and_runs_every_iteration(pile: int) -> None:
    tree = _fresh_tree(pile, tiny.MAX_PILE + 1)
    ran, _ = tiny.mcts_turns(tree, (np.int64(pile),), FIRST, 3_000, mcts.MCTSSettings(1.0, False))
    assert ran == 3_000 and tree.visits[0, tree.root[0]] == 3_000
    used = int(tree.node_count[0])
    assert (tree.proven[0, :used] == UNKNOWN).all()
    _, visits, _, _ = mcts.root_stats(tree, 0)
    assert visits.sum() == 3_000


def test_mcts_finds_a_forced_win_of_tic_tac_toe() -> None:
    """x on the centre, o on an edge: x wins (the solver's tests prove it). The MCTS, with
    the game's hooks and its own playouts, proves the win with the proofs on, and with them
    off still spends most visits on a winning move."""
    height = tiny.TIC_TAC_TOE[1]
    centre, edge = 1 << (1 * (height + 1) + 1), 1 << (1 * (height + 1) + 0)  # bit column * (height + 1) + row
    after = tiny.position(centre, centre | edge, 2)  # x played the centre, o an edge: x to move
    tree = _fresh_tree(0, 10)
    tiny.mcts_grid(tiny.TIC_TAC_TOE, tree, after, FIRST, PROVING_ITERATIONS, mcts.MCTSSettings(1.0, True))
    assert tree.proven[0, tree.root[0]] == -1  # lost for the root's mover, o
    assert 1 in mcts.root_stats(tree, 0)[3]
