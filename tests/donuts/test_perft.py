"""Perft counts: recorded data made by the reference, and live engine-vs-reference checks."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from donuts_ai import Board, DonutsError, Layout, Rules, perft
from donuts_ai.donuts import reference as ref

from ..helpers import reference_of

DATA = json.loads((Path(__file__).parents[1] / "data" / "perft.json").read_text())
CASES = DATA["cases"]


def test_data_was_made_by_the_reference():
    assert DATA["generated_by"] == "donuts_ai.donuts.reference.perft"
    assert all(len(case["perft"]) >= 6 for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_engine_matches_recorded_counts(case):
    board = Board(Layout.from_text(case["layout"]), Rules(insertion=case["insertion"], donuts=case["donuts"]))
    assert [perft(board, d) for d in range(1, len(case["perft"]) + 1)] == case["perft"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_reference_still_matches_recorded_counts(case):
    game = ref.ReferenceGame(Layout.from_text(case["layout"]), Rules(insertion=case["insertion"], donuts=case["donuts"]))
    assert [ref.perft(game, d) for d in range(1, 4)] == case["perft"][:3]


# 15 examples: the pure-Python reference's perft(3) takes a third of a second each, and
# test_differential.py and test_fuzz.py compare the two move by move over many more games.
@settings(max_examples=15)
@given(st.integers(0, 10**9), st.integers(0, 25), st.sampled_from([Rules(), Rules(insertion="single"), Rules(donuts=12)]))
def test_engine_and_reference_perft_agree_from_random_positions(seed, plies, rules):
    rng = random.Random(seed)
    board = Board(Layout.random_grid(seed), rules)
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_moves()))
    assert perft(board, 3) == ref.perft(reference_of(board), 3)


def test_depth_zero_finished_games_and_bad_depths():
    assert perft(Board(), 0) == 1
    finished = Board.from_fen("------,------,------,------,------,------ ....../....../....../....../....../ccccc. - a1 5 0")
    assert perft(finished, 5) == 1
    for bad in (-1, 1.5, "3", True):
        with pytest.raises(DonutsError, match="perft depth"):
            perft(Board(), bad)
