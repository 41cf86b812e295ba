"""Donuts as a compiled game (:mod:`donuts_ai.donuts.compiled`): its record's functions
agree with the Board move by move over random games (placements that pass the turn, and
endings won, lost and drawn for the placer; the same player placing again is the Board's
call too, where it comes), and the generic compiled solver bound to it
gives Donuts' own solver's value and distance (pools of 4 donuts: short games, every
status early)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from donuts_ai import Board, Layout, Rules, Solver
from donuts_ai.donuts import compiled
from donuts_ai.donuts._kernels.position import position_of, rulebook_of
from donuts_ai.donuts.squares import parse_square
from donuts_ai.search import compiled_game as cg
from donuts_ai.search import solver

#: Random games played against the Board.
GAMES = 60
#: Small pools: short games, which end on every kind of ending.
SMALL_POOLS = 4
#: Positions the two solvers are compared on.
SOLVED = 8


def _kernel_position(board: Board) -> tuple[object, object]:
    return rulebook_of(board.layout, board.rules), position_of(*board.kernel_state())


def _status(before: Board, after: Board) -> int:
    """The interface's status of the move from ``before`` to ``after``, from the Board alone."""
    outcome = after.outcome()
    if outcome is None:
        return cg.MOVES_AGAIN if after.turn == before.turn else cg.GOES_ON
    if outcome.winner is None:
        return cg.DRAWN
    return cg.WON if outcome.winner == before.turn else cg.LOST


@pytest.mark.parametrize("donuts", [SMALL_POOLS, None])
def test_the_record_agrees_with_the_board(donuts: int | None) -> None:
    seen = set()
    for seed in range(GAMES):
        rng = random.Random(seed)
        rules = Rules() if donuts is None else Rules(donuts=donuts)
        board = Board(Layout.random_grid(seed), rules=rules)
        while board.outcome() is None:
            rulebook, pos = _kernel_position(board)
            moves = board.legal_moves()
            assert int(compiled.legal(rulebook, pos)) == sum(1 << parse_square(m) for m in moves)
            assert 0 < compiled.plies_left(rulebook, pos) <= compiled.MAX_PLIES
            move = rng.choice(moves)
            before = board.copy()
            board.push(move)
            _, status = compiled.play(rulebook, pos, parse_square(move))
            assert status == _status(before, board), (seed, move)
            seen.add(int(status))
            assert compiled.plies_left(rulebook, pos) >= 1
    assert seen >= {cg.GOES_ON, cg.WON, cg.LOST} if donuts == SMALL_POOLS else seen >= {cg.GOES_ON, cg.WON}


def test_the_generic_solver_gives_donuts_own_value_and_distance() -> None:
    own = Solver(16, threads=1, book=False)
    table = solver.new_table(16)
    compared = 0
    for seed in range(40):
        rng = random.Random(seed)
        board = Board(Layout.random_grid(seed), rules=Rules(donuts=6))
        for _ in range(4):
            board.push(rng.choice(board.legal_moves()))
        if board.outcome() is not None:
            continue
        own.clear()
        solver.clear_table(table)
        expected = own.solve(board, distance=True)
        score, nodes = compiled.generic_solve(board, table)
        assert nodes > 0
        assert np.sign(score) == expected.value, seed
        if expected.value != 0:
            assert solver.plies_to_end(score) == expected.distance, seed
        compared += 1
        if compared == SOLVED:
            break
    assert compared == SOLVED


def test_generic_solve_refuses_a_finished_game() -> None:
    board = Board(Layout.random_grid(0), rules=Rules(donuts=SMALL_POOLS))
    rng = random.Random(0)
    while board.outcome() is None:
        board.push(rng.choice(board.legal_moves()))
    with pytest.raises(ValueError, match="the game is over"):
        compiled.generic_solve(board, solver.new_table(4))
