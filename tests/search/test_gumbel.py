"""Gumbel's search on the batched trees (BatchSearch.run_gumbel), the positions the tree
settles in one ply, the prediction cache and playout-cap randomization: properties only,
with small numpy predictors (no network)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("jax")

from donuts_ai import Board, Layout  # noqa: E402
from donuts_ai.donuts._kernels.planes import LAST, NUM_PLANES, OPPONENT, OPPONENT_POOL, OWN, OWN_POOL, VANILLA  # noqa: E402
from donuts_ai.donuts._kernels.position import position_of, rulebook_of  # noqa: E402
from donuts_ai.donuts.agents.puct_game import settled_value  # noqa: E402
from donuts_ai.donuts.alphabeta.solver import Solver  # noqa: E402
from donuts_ai.donuts.rules import Rules  # noqa: E402
from donuts_ai.donuts.squares import COLOR_LETTERS, NUM_SQUARES, SIZE, SQUARE_NAMES, square  # noqa: E402
from donuts_ai.learn import agent as A  # noqa: E402
from donuts_ai.learn.batched_search import (  # noqa: E402
    SOLVE_NODES,
    SOLVE_PLIES,
    BatchSearch,
    GumbelSettings,
    SolveSettings,
    playout_budgets,
    playout_cap,
)
from donuts_ai.learn.errors import LearnError  # noqa: E402
from donuts_ai.learn.prediction_cache import PredictionCache  # noqa: E402
from donuts_ai.search.puct import considered_visits  # noqa: E402

WEIGHTS = np.random.default_rng(7).normal(size=(NUM_SQUARES, 3)).astype(np.float32)


def features(planes):
    return planes.reshape(len(planes), NUM_SQUARES, NUM_PLANES)


def equivariant(planes):
    """Logits of each square from that square's planes, a value from counts: the same
    numbers for a position and its symmetric images (mapped)."""
    f = features(planes)
    logits = 0.7 * f[:, :, OWN] - 0.4 * f[:, :, OPPONENT] + 0.3 * f[:, :, 2]
    value = np.tanh(0.2 * (f[:, :, OWN].sum(axis=1) - f[:, :, OPPONENT].sum(axis=1)))
    return logits.astype(np.float32), value.astype(np.float32)


def skewed(planes):
    """Logits that depend on where a square is (no symmetry): a network is not symmetric either."""
    f = features(planes)
    logits = WEIGHTS[:, 0] * f[:, :, OWN] + WEIGHTS[:, 1] * f[:, :, OPPONENT] + WEIGHTS[:, 2]
    value = np.tanh(0.3 * (f[:, :, OWN] * WEIGHTS[:, 0]).sum(axis=1))
    return logits.astype(np.float32), value.astype(np.float32)


def random_boards(count: int, seed: int, most_plies: int = 20) -> list[Board]:
    rng, boards = random.Random(seed), []
    while len(boards) < count:
        board = Board(Layout.random(rng.randrange(1 << 20)))
        for _ in range(rng.randrange(most_plies)):
            if board.is_game_over():
                break
            board.push(rng.choice(board.legal_moves()))
        if not board.is_game_over():
            boards.append(board)
    return boards


def search(boards, simulations, predictor=equivariant, seed=0, cache=None, gumbel=None, solve_plies=SOLVE_PLIES,
           solve_nodes=SOLVE_NODES, **settings):
    """``run_gumbel`` on ``boards``: its settings (:class:`GumbelSettings`) by keyword, the
    exact solves' by ``solve_plies`` and ``solve_nodes``; Gumbel's noise ``gumbel``, else
    drawn from ``seed``."""
    roots = np.concatenate([A.root_record(b) for b in boards])
    top = int(np.max(simulations))
    return BatchSearch(len(boards), top).run_gumbel(
        predictor, roots, np.ones(len(boards), dtype=np.bool_), boards[0].rules,
        gumbel=np.random.default_rng(seed) if gumbel is None else gumbel, simulations=simulations, cache=cache,
        settings=GumbelSettings(solve=SolveSettings(solve_plies, solve_nodes), **settings))


@pytest.mark.parametrize("sims, rescale", [(0, True), (1, True), (7, False), (40, True), (40, False)])
def test_the_target_is_a_distribution_over_the_legal_squares_and_the_action_is_legal(sims, rescale):
    boards = random_boards(6, seed=sims)
    result = search(boards, sims, rescale=rescale, c_scale=0.1 if rescale else 1.0)
    for g, board in enumerate(boards):
        legal = np.zeros(NUM_SQUARES, dtype=bool)
        legal[board.legal_squares()] = True
        assert result.policy[g].sum() == pytest.approx(1.0, abs=1e-5)
        assert (result.policy[g][~legal] == 0).all() and (result.policy[g][legal] > 0).all()
        assert legal[result.actions[g]]
        assert np.isnan(result.completed_q[g][~legal]).all() and (np.abs(result.completed_q[g][legal]) <= 1).all()


def test_sequential_halving_spends_exactly_the_budget_on_the_considered_squares():
    boards = random_boards(8, seed=3)
    budgets = np.array([0, 1, 3, 16, 17, 40, 64, 5])
    for considered in (1, 4, 16):
        result = search(boards, budgets, max_considered=considered)
        np.testing.assert_array_equal(result.simulations, budgets)
        np.testing.assert_array_equal(result.visits.sum(axis=1), budgets)
        for g, board in enumerate(boards):
            m = min(considered, len(board.legal_squares()))
            assert (result.visits[g] > 0).sum() == min(m, budgets[g])
            if budgets[g]:
                # The action played is one of the most visited.
                assert result.visits[g, result.actions[g]] == result.visits[g].max()


def test_the_table_of_considered_visits_halves_the_survivors():
    table = considered_visits(4, 8)
    assert table[4].tolist() == [0, 0, 0, 0, 1, 1, 2, 2]
    assert table[1].tolist() == list(range(8))
    # Each simulation's wanted count is reachable: every level is filled before the next.
    for m in range(1, 17):
        row = considered_visits(16, 50)[m]
        counts: dict[int, int] = {}
        for wanted in row:
            assert wanted == 0 or counts.get(wanted - 1, 0) > counts.get(wanted, 0)
            counts[wanted] = counts.get(wanted, 0) + 1


def test_seeded_searches_repeat_and_batched_equals_one_by_one():
    boards = random_boards(5, seed=11)
    gumbel = np.random.default_rng(4).gumbel(size=(len(boards), NUM_SQUARES)).astype(np.float32)
    together = search(boards, 24, skewed, gumbel=gumbel)
    again = search(boards, 24, skewed, gumbel=gumbel)
    for field in ("actions", "policy", "visits", "completed_q", "root_values"):
        np.testing.assert_array_equal(getattr(together, field), getattr(again, field))
    for g, board in enumerate(boards):
        alone = search([board], 24, skewed, gumbel=gumbel[g:g + 1])
        assert alone.actions[0] == together.actions[g]
        np.testing.assert_array_equal(alone.visits[0], together.visits[g])
        np.testing.assert_allclose(alone.policy[0], together.policy[g], rtol=1e-6, atol=1e-7)
    a = search(boards, 24, skewed, seed=5)
    b = search(boards, 24, skewed, seed=5)
    np.testing.assert_array_equal(a.policy, b.policy)


def test_the_first_phase_in_one_batch_is_the_same_search():
    boards = random_boards(6, seed=17)
    budgets = np.array([0, 3, 16, 20, 40, 9])
    for considered in (4, 16):
        for cache in (None, PredictionCache):
            one = search(boards, budgets, skewed, max_considered=considered, cache=cache and cache())
            rounds = search(boards, budgets, skewed, max_considered=considered, cache=cache and cache(), batch_first_phase=False)
            for field in ("actions", "policy", "visits", "completed_q", "simulations"):
                np.testing.assert_array_equal(getattr(one, field), getattr(rounds, field))
            np.testing.assert_allclose(one.root_values, rounds.root_values, rtol=1e-5)


def board_of_planes(planes, layout_text: str, donuts: int) -> Board:
    """The board a leaf's planes show (the layout given), for the perfect predictor."""
    own, opp = planes[:, :, OWN].reshape(-1), planes[:, :, OPPONENT].reshape(-1)
    color = int(planes[0, 0, VANILLA])
    placed_own = donuts - round(float(planes[0, 0, OWN_POOL]) * donuts)
    placed_opp = donuts - round(float(planes[0, 0, OPPONENT_POOL]) * donuts)
    last_squares = np.flatnonzero(planes[:, :, LAST].reshape(-1))
    rows = []
    for rank in range(SIZE - 1, -1, -1):
        row = ""
        for f in range(SIZE):
            sq = square(f, rank)
            mine = own[sq] if color == 0 else opp[sq]
            theirs = opp[sq] if color == 0 else own[sq]
            row += "c" if mine else "v" if theirs else "."
        rows.append(row)
    p0, p1 = (placed_own, placed_opp) if color == 0 else (placed_opp, placed_own)
    last = SQUARE_NAMES[last_squares[0]] if len(last_squares) else "-"
    return Board.from_fen(f"{layout_text} {'/'.join(rows)} {COLOR_LETTERS[color]} {last} {p0} {p1}")


def perfect_predictor(board: Board, solver: Solver):
    layout_text = board.fen().split()[0]

    def predict(planes):
        values = np.zeros(len(planes), dtype=np.float32)
        for i, p in enumerate(planes):
            if p.any():
                values[i] = solver.solve(board_of_planes(p, layout_text, board.rules.donuts), distance=False).value
        return np.zeros((len(planes), NUM_SQUARES), dtype=np.float32), values

    return predict


def test_with_a_perfect_predictor_the_action_keeps_the_value():
    rng = random.Random(5)
    solver = Solver(tt_bits=16)
    checked = 0
    while checked < 4:
        board = random_boards(1, seed=rng.randrange(1 << 20), most_plies=30)[0]
        if board.ply < 20:
            continue
        best = solver.solve(board, distance=False).value
        result = search([board], 32, perfect_predictor(board, solver), seed=checked)
        move = SQUARE_NAMES[result.actions[0]]
        kept = [mv.value for mv in solver.analyze(board) if mv.move == move][0]
        assert kept == best, (board.fen(), move)
        checked += 1


def test_positions_settled_in_one_ply_carry_the_solvers_value():
    solver = Solver(tt_bits=16)
    settled_count = 0
    for board in random_boards(80, seed=21, most_plies=32):
        pos = position_of(*board.kernel_state())
        settled, value = settled_value(pos, rulebook_of(board.layout, board.rules))
        fives = any(_wins_at_once(board, m) for m in board.legal_moves())
        assert settled >= fives
        if settled:
            settled_count += 1
            assert value == solver.solve(board, distance=False).value
    assert settled_count > 0


def _wins_at_once(board: Board, move: str) -> bool:
    after = board.copy()
    mover = after.turn
    after.push(move)
    outcome = after.outcome()
    return outcome is not None and outcome.winner == mover and outcome.reason == "five"


def test_the_cache_gives_the_predictions_of_no_cache():
    boards = random_boards(4, seed=8)
    plain = search(boards, 30, skewed)
    exact = PredictionCache(symmetric=False)
    with_exact = search(boards, 30, skewed, cache=exact)
    np.testing.assert_array_equal(plain.policy, with_exact.policy)
    # Symmetric keys: the network is asked about canonical images, with or without entries kept.
    kept, none_kept = PredictionCache(), PredictionCache(0)
    first = search(boards, 30, skewed, cache=kept)
    np.testing.assert_array_equal(first.policy, search(boards, 30, skewed, cache=none_kept).policy)
    assert none_kept.hits <= kept.hits and len(none_kept) == 0
    misses = kept.misses
    second = search(boards, 30, skewed, cache=kept)
    np.testing.assert_array_equal(first.policy, second.policy)
    assert kept.misses == misses  # the same searches again: every position found
    # A predictor that is symmetric gives the same search through canonical images.
    np.testing.assert_allclose(search(boards, 30, equivariant, cache=PredictionCache()).policy,
                               search(boards, 30, equivariant).policy, rtol=1e-5, atol=1e-6)


def test_the_cache_keeps_at_most_its_capacity():
    cache = PredictionCache(5)
    assert cache.capacity == 8
    search(random_boards(3, seed=2), 20, skewed, cache=cache)
    assert 0 < len(cache) <= 8 < cache.misses


def test_playout_cap_draws_full_searches_from_the_seed():
    full = playout_cap(np.random.default_rng(3), 1000, 0.25)
    np.testing.assert_array_equal(full, playout_cap(np.random.default_rng(3), 1000, 0.25))
    assert 150 < full.sum() < 350
    assert not playout_cap(np.random.default_rng(3), 10, 0.0).any() and playout_cap(np.random.default_rng(3), 10, 1.0).all()
    np.testing.assert_array_equal(playout_budgets(np.array([True, False]), 64, 8), [64, 8])
    with pytest.raises(LearnError):
        playout_cap(np.random.default_rng(3), 10, 1.5)


def test_bad_gumbel_settings_are_refused():
    boards = random_boards(1, seed=1)
    for kwargs in ({"max_considered": 0}, {"c_scale": 0.0}, {"gumbel": np.zeros((2, NUM_SQUARES), dtype=np.float32)}):
        with pytest.raises(LearnError):
            search(boards, 4, **kwargs)
    root = A.root_record(boards[0])
    with pytest.raises(LearnError):
        BatchSearch(1, 4).run_gumbel(equivariant, root, np.ones(1, dtype=np.bool_), Rules(), simulations=5)


def test_positions_the_solver_settles_make_a_uniform_search_keep_the_value():
    solver = Solver(tt_bits=16)
    boards = [b for b in random_boards(40, seed=13, most_plies=36) if b.ply >= 24][:6]
    roots = np.concatenate([A.root_record(b) for b in boards])
    search_ = BatchSearch(len(boards), 40)
    result = search_.run_gumbel(equivariant, roots, np.ones(len(boards), dtype=np.bool_), Rules(),
                                gumbel=np.random.default_rng(0), settings=GumbelSettings(solve=SolveSettings(8, 100_000)))
    assert (search_.solves[:, 0] > 0).any() and (search_.solves[:, 1] == search_.solves[:, 0]).all()
    for board, action in zip(boards, result.actions, strict=True):
        best = solver.solve(board, distance=False).value
        assert [mv.value for mv in solver.analyze(board) if mv.move == SQUARE_NAMES[action]] == [best]


def test_puct_with_settled_positions_counts_every_simulation_on_legal_squares():
    boards = random_boards(5, seed=23, most_plies=30)
    roots = np.concatenate([A.root_record(b) for b in boards])
    args = (skewed, roots, np.ones(len(boards), dtype=np.bool_), Rules())
    plain = BatchSearch(len(boards), 30).run(*args)
    for solve in (SolveSettings(), SolveSettings(plies=8)):
        result = BatchSearch(len(boards), 30).run(*args, solve=solve)
        assert (result.visits.sum(axis=1) == 30).all()
        for board, visits in zip(boards, result.visits, strict=True):
            assert set(np.flatnonzero(visits)) <= set(board.legal_squares())
    np.testing.assert_array_equal(plain.visits, BatchSearch(len(boards), 30).run(*args, solve=None).visits)


def test_searches_with_node_limited_solves_repeat_and_batched_equals_one_by_one():
    boards = [b for b in random_boards(40, seed=29, most_plies=36) if b.ply >= 20][:5]
    gumbel = np.random.default_rng(6).gumbel(size=(len(boards), NUM_SQUARES)).astype(np.float32)
    kwargs = {"solve_plies": 16, "solve_nodes": 8}  # some solves settle, some stop at the limit
    together = search(boards, 24, skewed, gumbel=gumbel, **kwargs)
    np.testing.assert_array_equal(together.policy, search(boards, 24, skewed, gumbel=gumbel, **kwargs).policy)
    for g, board in enumerate(boards):
        alone = search([board], 24, skewed, gumbel=gumbel[g:g + 1], **kwargs)
        np.testing.assert_array_equal(alone.visits[0], together.visits[g])
        np.testing.assert_allclose(alone.policy[0], together.policy[g], rtol=1e-6, atol=1e-7)
