"""The Numba engine (through Board) against the pure-Python reference, move by move."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from donuts_ai import Board, Layout, Rules
from donuts_ai.donuts.reference import ReferenceGame
from donuts_ai.donuts.squares import SQUARE_NAMES

from ..helpers import board_outcome, reference_outcome

VARIANTS = [
    Rules(),
    Rules(insertion="single"),
    Rules(donuts=18),
    Rules(insertion="single", donuts=20),
    Rules(donuts=8),
    Rules(donuts=36),
]


def assert_same(board: Board, game: ReferenceGame) -> None:
    assert board.legal_squares() == game.legal_moves()
    assert board_outcome(board) == reference_outcome(game)
    assert board.turn == game.turn
    assert board.placed == tuple(game.placed)
    assert [board.color_at(sq) for sq in range(36)] == game.cells


def play_both(board: Board, game: ReferenceGame, choices, forfeit_every: int = 0) -> int:
    """Play both sides through ``choices`` (indices into the legal moves; -1 = forfeit)."""
    plies = 0
    for choice in choices:
        if board.is_game_over():
            break
        if choice < 0:
            board.forfeit()
            game.forfeit()
        else:
            legal = board.legal_squares()
            sq = legal[choice % len(legal)]
            flipped = board.push(SQUARE_NAMES[sq])
            assert flipped == [SQUARE_NAMES[s] for s in game.play(sq)]
        assert_same(board, game)
        plies += 1
    return plies


@pytest.mark.parametrize("rules", VARIANTS, ids=repr)
def test_random_games_agree(rules):
    rng = random.Random(f"differential {rules!r}")
    for g in range(60):
        layout = Layout.random_grid(rng.randrange(10**9)) if g % 2 else Layout.random(rng.randrange(10**9))
        board, game = Board(layout, rules), ReferenceGame(layout, rules)
        assert_same(board, game)
        # About one forfeit in 25 turns, so forfeits, skipped players and uneven pools all occur.
        choices = [-1 if rng.random() < 0.04 else rng.randrange(36) for _ in range(200)]
        play_both(board, game, choices)
        assert board.is_game_over() and game.over


directions = st.lists(st.integers(0, 3), min_size=36, max_size=36)
rules_strategy = st.builds(Rules, insertion=st.sampled_from(["group", "single"]), donuts=st.sampled_from([15, 15, 18, 5, 36]))
choice_lists = st.lists(st.one_of(st.integers(0, 35), st.just(-1)), min_size=1, max_size=80)


@settings(max_examples=300)
@given(directions, rules_strategy, choice_lists)
def test_hypothesis_sequences_agree(dirs, rules, choices):
    layout = Layout(dirs)
    board, game = Board(layout, rules), ReferenceGame(layout, rules)
    play_both(board, game, choices)


@settings(max_examples=100)
@given(directions, rules_strategy, choice_lists)
def test_push_pop_restores_exactly(dirs, rules, choices):
    board = Board(Layout(dirs), rules)
    snapshots = [(board.fen(), board.legal_moves(), board.outcome())]
    for choice in choices:
        if board.is_game_over():
            break
        if choice < 0:
            board.forfeit()
        else:
            moves = board.legal_moves()
            board.push(moves[choice % len(moves)])
        snapshots.append((board.fen(), board.legal_moves(), board.outcome()))
    while board.move_stack:
        snapshots.pop()
        board.pop()
        assert (board.fen(), board.legal_moves(), board.outcome()) == snapshots[-1]
    assert board == Board(Layout(dirs), rules)
