"""Donut Boxes: the compiled engine (through BoxesState) against the pure-Python
reference, move by move, under every variant and player count; its random moves,
playouts and bench.

Each comparison checks, at every step, the legal moves (texts and order), the whole
state dict (layout, frozen quadrants, scores, boxes, trays, piles, the end-of-game
counters) and what each move returns."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from donuts_ai.bench.boxes import random_games
from donuts_ai.boxes import BoxesRules, BoxesState
from donuts_ai.boxes import _kernels as E
from donuts_ai.boxes.deck import deal
from donuts_ai.boxes.moves import move_text
from donuts_ai.boxes.reference import ReferenceGame

from ..helpers import TRAY_C, build

ALL_VARIANTS = [(g, m, c) for g in ("squared", "splitzkies") for m in ("one", "perfect") for c in (False, True)]


def assert_same(state: BoxesState, ref: ReferenceGame) -> list[int]:
    codes = ref.legal_codes()
    assert state.legal_move_ids().tolist() == codes
    # The reference's legal_moves() is these codes' texts: not asked again, as listing the
    # reference's moves is most of what these comparisons cost.
    assert state.legal_moves() == [move_text(code) for code in codes]
    assert state.to_dict() == ref.to_dict()
    assert state.ranking() == ref.ranking()
    return codes


def play_compared(state: BoxesState, ref: ReferenceGame, rnd: random.Random, max_steps: int | None = None,
                  codes_to_play: list[int] | None = None) -> int:
    """Play both side by side (random legal moves, or ``codes_to_play``); returns the steps played."""
    steps, previous = 0, []
    while True:
        codes = assert_same(state, ref)
        # Moves legal a step ago and not now are refused by the engine's own check.
        assert not any(state.is_legal_id(c) for c in set(previous) - set(codes))
        if ref.over or (max_steps is not None and steps >= max_steps):
            return steps
        assert all(state.is_legal_id(c) for c in rnd.sample(codes, min(len(codes), 20)))
        code = codes_to_play[steps] if codes_to_play else rnd.choice(codes)
        assert state.push_id(code) == ref.play_code(code)
        previous = codes
        steps += 1


@pytest.mark.parametrize("grid, matching, closers", ALL_VARIANTS)
def test_whole_two_player_games_match_the_reference(grid, matching, closers):
    rules = BoxesRules(2, grid, matching, closers)
    piles, start = deal(2, 21)
    state, ref = BoxesState(rules, seed=21), ReferenceGame(rules, piles, start)
    steps = play_compared(state, ref, random.Random(5))
    assert state.is_game_over() and steps == len(state.move_stack) > 40


@settings(max_examples=24)
@given(variant=st.sampled_from(ALL_VARIANTS), players=st.integers(2, 10), seed=st.integers(0, 2**31),
       choices=st.integers(0, 2**31))
def test_opening_moves_match_the_reference(variant, players, seed, choices):
    rules = BoxesRules(players, *variant)
    piles, start = deal(players, seed)
    play_compared(BoxesState(rules, seed=seed), ReferenceGame(rules, piles, start), random.Random(choices),
                  max_steps=3 * players + 6)


@pytest.mark.parametrize("players", range(2, 11))
def test_endings_match_the_reference(players):
    """The engine plays alone to two turns before a pile runs out; then the reference,
    built from the engine's state dict, follows it to the end (every player count; the
    variants rotate with it)."""
    rules = BoxesRules(players, *ALL_VARIANTS[players % 8])
    state = BoxesState(rules, seed=100 + players)
    history = [state.copy()]
    while state.to_dict()["trigger"] is None:
        state.push_id(state.random_move_id(len(history)))
        history.append(state.copy())
    start = history[-3]
    ref = ReferenceGame.from_dict(start.to_dict())
    play_compared(start, ref, random.Random(players))  # its own moves: the ending may differ from the engine's
    assert start.is_game_over() and ref.over
    if players >= 6:  # a layout of 160+ cards outgrows the first grid (32 x 32) during the game
        assert start._core.t.meta[0]["wbits"] > E.MIN_WBITS


@settings(max_examples=10)
@given(variant=st.sampled_from(ALL_VARIANTS), players=st.integers(2, 6), seed=st.integers(0, 2**31),
       moves=st.integers(0, 80))
def test_a_state_rebuilt_from_its_dict_plays_on_the_same(variant, players, seed, moves):
    state = BoxesState(BoxesRules(players, *variant), seed=seed)
    for k in range(moves):
        if state.is_game_over():
            break
        state.push_id(state.random_move_id(k))
    rebuilt = BoxesState.from_dict(state.to_dict())
    ref = ReferenceGame.from_dict(state.to_dict())
    rnd = random.Random(seed)
    play_compared(rebuilt, ref, rnd, max_steps=6)


def test_a_long_thin_layout_outgrows_the_grid_without_aliasing():
    # Player 0's cards in one row far to the right (frozen, so nothing joins them): the
    # layout spans 120 columns; the torus grid must still see the start card alone.
    rules = BoxesRules(2, "splitzkies")
    data = BoxesState(rules, seed=1).to_dict()
    row = [t for t in range(30) if t not in data["trays"][0]][:20]
    data["cards"] += [[0, t, 0, 0, 80 + 2 * k, 1 if t >= 26 else 0] for k, t in enumerate(row)]
    data["frozen"] = sorted([r, c, None] for _, _, _, r0, c0, _ in data["cards"][1:] for r in (r0, r0 + 1)
                            for c in (c0, c0 + 1))
    data["piles"][0] = [t for t in data["piles"][0] if t not in row]
    state, ref = BoxesState.from_dict(data), ReferenceGame.from_dict(data)
    assert state._core.t.meta[0]["wbits"] >= 7
    play_compared(state, ref, random.Random(1), max_steps=8)


# ---------------------------------------------------------------------------- random moves
def _chi_square(counts: np.ndarray) -> float:
    expected = counts.sum() / counts.size
    return float(((counts - expected) ** 2 / expected).sum())


@pytest.mark.parametrize("listed", [False, True])
@pytest.mark.parametrize("players, variant, moves", [(2, ALL_VARIANTS[0], 20), (3, ALL_VARIANTS[6], 14),
                                                     (4, ALL_VARIANTS[3], 45)])
def test_random_moves_are_uniform_over_the_legal_moves(players, variant, moves, listed):
    """Random candidates (and, with ``listed``, the counting fall-back alone) draw every
    legal move equally often.

    The counting fall-back walks the legal moves on every draw, and there are 400 draws a
    legal move: its cost grows as the square of their number. So the states are ones of
    about 20 to 130 legal moves (78 for three players, a box early among them), not later
    ones of several hundred."""
    state = BoxesState(BoxesRules(players, *variant), seed=9)
    for k in range(moves):
        state.push_id(state.random_move_id(k))
    legal = state.legal_move_ids()
    assert [c for c in legal if c >> 40 == 1]  # these states offer a box early too
    draws = E.sample_random_moves(state._core.t, state._core.grid, 400 * legal.size, 3, listed)
    assert set(draws.tolist()) == set(legal.tolist())
    counts = np.array([np.count_nonzero(draws == c) for c in legal])
    # Chi-square with len-1 degrees of freedom: mean len-1, sd sqrt(2 (len-1)); 6 sd is
    # beyond any plausible draw (the seed is fixed, so this is a fixed check).
    dof = legal.size - 1
    assert _chi_square(counts) < dof + 6 * np.sqrt(2 * dof)


def test_random_move_when_stuck_draws_among_the_stuck_moves():
    state = BoxesState.from_dict(build(BoxesRules(2), [(-1, "CCCC@0,0")], TRAY_C, frozen_cards=(0,)))
    draws = E.sample_random_moves(state._core.t, state._core.grid, 4000, 1)
    assert sorted(set(draws.tolist())) == state.legal_move_ids().tolist()
    assert _chi_square(np.unique(draws, return_counts=True)[1]) < 3 + 6 * np.sqrt(6)


def test_random_playouts_are_seeded_and_leave_the_state_alone():
    state = BoxesState(BoxesRules(3, "splitzkies"), seed=2)
    before = state.to_dict()
    a = state.random_playouts(20, seed=4)
    b = state.random_playouts(20, seed=4)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert state.to_dict() == before
    assert not np.array_equal(a["scores"], state.random_playouts(20, seed=5)["scores"])
    for scores, boxes, places in zip(a["scores"], a["boxes"], a["places"], strict=True):
        keys = list(zip(scores.tolist(), boxes.tolist(), strict=True))
        assert places.tolist() == [sum(o > m for o in keys) for m in keys]
    assert (a["turns"] >= 78).all()


def test_random_playouts_follow_the_rules_to_the_end():
    """A playout's ending agrees with the last round rule: from just after a pile ran
    out, exactly the other players' final turns remain."""
    state = BoxesState(BoxesRules(4), seed=6)
    while state.to_dict()["trigger"] is None:
        state.push_id(state.random_move_id(len(state.move_stack)))
    out = state.random_playouts(30, seed=1)
    assert (out["turns"] == state.to_dict()["final_turns_left"]).all()
    final = state.copy()
    while not final.is_game_over():
        final.push_id(final.random_move_id(0))
    assert final.is_game_over() and len(final.move_stack) == len(state.move_stack) + 3


def test_random_playouts_agree_with_python_random_play_on_average():
    """Playouts in the kernel and games played move by move through BoxesState with
    random moves follow the same distribution: mean points per player close."""
    state = BoxesState(BoxesRules(2), seed=8)
    kernel = state.random_playouts(400, seed=1)["scores"].sum(axis=1).mean()
    totals = []
    for k in range(40):
        game = state.copy()
        while not game.is_game_over():
            game.push_id(game.random_move_id(k * 1000 + len(game.move_stack)))
        totals.append(sum(game.scores))
    assert abs(np.mean(totals) - kernel) < 5 * np.std(totals) / np.sqrt(len(totals))


def test_random_games_bench_reports_games_per_second():
    out = random_games(games=30, rules=BoxesRules(2, "splitzkies", "perfect", True), seed=3)
    assert out["games"] == 30 and out["games_per_second"] > 0 and out["mean_turns"] > 40
    assert out["rules"] == "2 players, splitzkies, perfect match, closers"
