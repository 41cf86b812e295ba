from __future__ import annotations

import pytest

from donuts_ai import Board, DonutsError, Layout, Rules, random_playouts
from donuts_ai.donuts import reference as ref


def test_totals_add_up_and_are_plausible():
    stats = random_playouts(Layout.standard(), 20_000, seed=1)
    assert stats.chocolate_wins + stats.vanilla_wins + stats.draws == stats.n_games == 20_000
    assert stats.ends_by_five + stats.ends_by_group + stats.ends_by_majority == 20_000
    assert stats.ends_by_majority == 0  # 15 donuts each cannot fill 36 squares
    assert 9 <= stats.mean_plies <= 30  # a five needs >= 9 plies; 30 is both pools


def test_same_seed_same_games_serial_or_parallel():
    a = random_playouts(Layout.random(4), 10_000, seed=42)
    b = random_playouts(Layout.random(4), 10_000, seed=42)
    c = random_playouts(Layout.random(4), 10_000, seed=42, parallel=True)
    d = random_playouts(Layout.random(4), 10_000, seed=43)
    assert a == b == c
    assert a != d
    e = random_playouts(Layout.random(4), 10_000, seed=None)
    assert e.seed is not None and random_playouts(Layout.random(4), 10_000, seed=e.seed) == e


def test_playouts_from_a_board_and_variants():
    board = Board(Layout.standard(), Rules(donuts=18))
    board.push("c3")
    stats = random_playouts(board, 2_000, seed=7)
    assert stats.n_games == 2_000 and stats.mean_plies >= 9
    single = random_playouts(Layout.standard(), 2_000, seed=7, rules=Rules(insertion="single"))
    assert single.n_games == 2_000


def test_engine_and_reference_agree_on_the_statistics():
    """Different random streams, same game: win rates agree within sampling error."""
    layout = Layout.random_grid(9)
    fast = random_playouts(layout, 200_000, seed=3)
    slow = ref.random_playouts(layout, 1_000, seed=3)
    p_fast = fast.chocolate_wins / fast.n_games
    p_slow = slow["wins"][0] / 1_000
    assert abs(p_fast - p_slow) < 5 * (0.25 / 1_000) ** 0.5
    assert abs(fast.mean_plies - slow["mean_plies"]) < 1.5


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"n_games": -1}, "n_games must be an int >= 0"),
        ({"n_games": 1.5}, "n_games must be an int"),
        ({"n_games": 10, "seed": "x"}, "seed must be an int or None"),
    ],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises(DonutsError, match=message):
        random_playouts(Layout.standard(), **kwargs)


def test_bad_sources():
    with pytest.raises(ValueError, match="needs a Layout or a Board"):
        random_playouts("standard", 10, seed=1)
    finished = Board.from_fen("------,------,------,------,------,------ ....../....../....../....../....../ccccc. - a1 5 0")
    with pytest.raises(DonutsError, match="already over"):
        random_playouts(finished, 10, seed=1)
    with pytest.raises(DonutsError, match="rules given twice"):
        random_playouts(Board(), 10, seed=1, rules=Rules(donuts=18))


def test_zero_games():
    stats = random_playouts(Layout.standard(), 0, seed=1)
    assert stats.n_games == 0 and stats.mean_plies == 0.0


@pytest.mark.parametrize("rules", [Rules(), Rules(insertion="single"), Rules(donuts=18), Rules(donuts=36)], ids=repr)
@pytest.mark.parametrize("with_forfeit", [False, True])
def test_playout_kernel_plays_the_same_games_as_the_board(rules, with_forfeit):
    """The unrolled playout kernel, replayed move by move through Board.push with the
    same random stream: identical games, so identical totals."""
    import numpy as np

    from donuts_ai._bits import rng_below, rng_seed
    from donuts_ai.donuts._kernels.core import nth_bit

    start = Board(Layout.random_grid(21), rules)
    if with_forfeit:  # uneven pools: the player with donuts left moves again at the end
        start.push("c3")
        start.forfeit()
    n_games, seed = 300, 99
    wins, draws, plies = [0, 0], 0, 0
    rng = rng_seed(np.uint64(seed), np.uint64(0))
    for _ in range(n_games):
        board = start.copy(stack=False)
        while not board.is_game_over():
            mask = board.legal_mask()
            rng, k = rng_below(np.uint64(rng), mask.bit_count())  # a Python int would compile int64 shifts
            board.push(int(nth_bit(np.uint64(mask), k)))
            plies += 1
        winner = board.outcome().winner
        if winner is None:
            draws += 1
        else:
            wins[winner] += 1
    stats = random_playouts(start, n_games, seed=seed)
    assert (stats.chocolate_wins, stats.vanilla_wins, stats.draws) == (wins[0], wins[1], draws)
    assert stats.mean_plies == plies / n_games
