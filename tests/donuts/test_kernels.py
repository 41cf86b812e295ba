"""The public compiled API (:mod:`donuts_ai.donuts.kernels`): its names, its agreement with the Board
and the solver, its keys, and the two examples written only against it (``examples/``)."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import numpy as np
import pytest

import donuts_ai
from donuts_ai import Board, Layout, PositionError, Rules, analyze, solve
from donuts_ai import kernels as K
from donuts_ai import tournament as T
from examples import compiled_mcts, compiled_negamax

ROOT = Path(__file__).parents[2]
EXAMPLES = [ROOT / "examples" / "compiled_negamax.py", ROOT / "examples" / "compiled_mcts.py"]
#: What the examples may import besides donuts_ai's public names.
EXAMPLE_LIBRARIES = {"time", "math", "numpy", "numba"}
#: A grid with four symmetries (identity, rot180, mirror, flip): every line "-".
ALL_HORIZONTAL = Layout.from_text("\n".join(["------"] * 6))


def _random_game_boards(seed: int, games: int, layout: Layout | None = None, forfeit_every: int = 0,
                        rules: Rules | None = None) -> list[Board]:
    """Every position (not over) of ``games`` seeded random games; a forfeit every ``forfeit_every`` plies."""
    rng, boards = random.Random(seed), []
    for game in range(games):
        board = Board(layout or Layout.random_grid(seed * 100 + game), rules)
        while not board.is_game_over():
            boards.append(board.copy(stack=False))
            if forfeit_every and board.ply % forfeit_every == forfeit_every - 1:
                board.forfeit()
            else:
                board.push(rng.choice(board.legal_moves()))
    return boards


# --- the names --------------------------------------------------------------------------------


def test_every_name_in_all_exists_and_nothing_private_leaks():
    assert len(set(K.__all__)) == len(K.__all__)
    for name in K.__all__:
        assert not name.startswith("_") and hasattr(K, name), name
    for name in dir(K):
        if name.startswith("_") or name in K.__all__:
            continue
        module = getattr(getattr(K, name), "__module__", "") or ""
        assert not (module.startswith("donuts_ai") and "._" in module), f"kernels.{name} comes from private {module}"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_use_only_the_public_api(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert {a.name.split(".")[0] for a in node.names} <= EXAMPLE_LIBRARIES
        elif isinstance(node, ast.ImportFrom):
            if node.module == "donuts_ai":
                assert all(a.name == "kernels" or a.name in donuts_ai.__all__ for a in node.names), ast.unparse(node)
            else:
                assert node.module.split(".")[0] in EXAMPLE_LIBRARIES, ast.unparse(node)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "K":
            assert node.attr in K.__all__, f"{path.name} uses K.{node.attr}"
    assert len(path.read_text().splitlines()) < 80


def test_python_side_refuses_what_it_cannot_convert():
    for convert, what in ((K.position, "c3"), (K.rulebook, None), (K.symmetries, Layout.standard())):
        with pytest.raises(TypeError, match="needs a Board"):
            convert(what)
    board, rng = Board(), random.Random(1)
    while not board.is_game_over():
        board.push(rng.choice(board.legal_moves()))
    with pytest.raises(PositionError, match="game is over"):
        K.position(board)


def test_bit_helpers_agree_with_python_ints():
    rng = random.Random(5)
    for _ in range(200):
        bits = rng.getrandbits(36) or 1
        bb = np.uint64(bits)
        squares = [i for i in range(36) if bits >> i & 1]
        assert K.popcount(bb) == len(squares)
        assert K.lowest_square(bb) == squares[0]
        assert int(K.without_lowest(bb)) == bits & (bits - 1)
        n = rng.randrange(len(squares))
        assert K.nth_square(bb, n) == squares[n]
        assert int(K.square_bit(squares[-1])) == 1 << squares[-1]


def test_statuses_and_game_values():
    assert [K.is_over(s) for s in (K.PASSES, K.MOVES_AGAIN)] == [False, False]
    ended = (K.WON_BY_FIVE, K.ENDED_WON, K.ENDED_DRAWN, K.ENDED_LOST)
    assert all(K.is_over(s) for s in ended)
    assert [K.game_value(s) for s in ended] == [1, 1, 0, -1]
    assert len({K.PASSES, K.MOVES_AGAIN, *ended}) == 6


# --- agreement with the Board ------------------------------------------------------------------


def test_legal_moves_and_apply_agree_with_the_board():
    # Small pools and forfeits: one pool empties first, and the other side moves again.
    boards = _random_game_boards(2, 6) + _random_game_boards(3, 6, forfeit_every=4, rules=Rules(donuts=6))
    statuses = set()
    for board in boards:
        rb, pos = K.rulebook(board), K.position(board)
        assert int(K.legal_moves(rb, pos)) == board.legal_mask()
        assert K.plies_left(pos, rb.donuts) == board.plies_left()
        mover = board.turn
        square = random.Random(board.ply).choice(board.legal_squares())
        child, status = K.apply(rb.donuts, rb.single, pos, square)
        statuses.add(status)
        board.push(square)
        if K.is_over(status):
            outcome = board.outcome()
            assert outcome is not None
            expected = 0 if outcome.winner is None else (1 if outcome.winner == mover else -1)
            assert K.game_value(status) == expected
            assert (status == K.WON_BY_FIVE) == (outcome.reason == "five")
        else:
            assert not board.is_game_over()
            assert (board.turn == mover) == (status == K.MOVES_AGAIN)
            after = K.position(board)
            assert (int(child.own), int(child.opp), child.last, child.placed_own, child.placed_opp) == \
                   (int(after.own), int(after.opp), after.last, after.placed_own, after.placed_opp)
    assert {K.PASSES, K.MOVES_AGAIN, K.WON_BY_FIVE} <= statuses


def test_the_rulebook_is_the_boards_rules():
    board = Board(Layout.random_grid(4), Rules(insertion="single", donuts=18))
    rb = K.rulebook(board)
    assert (rb.donuts, rb.single) == (18, True)
    assert np.array_equal(rb.line_masks, board.layout.line_masks)


# --- keys -------------------------------------------------------------------------------------


def test_standard_layout_has_the_identity_alone_and_its_canonical_key_is_the_key():
    board = _random_game_boards(4, 1, Layout.standard())[10]
    syms = K.symmetries(board)
    assert syms.shape == (1, 36) and list(syms[0]) == list(range(36))
    pos = K.position(board)
    assert K.canonical_key(pos, syms) == K.key(pos)


def test_canonical_key_is_equal_exactly_for_symmetric_positions():
    boards = _random_game_boards(5, 8, ALL_HORIZONTAL)[::2]
    names = ALL_HORIZONTAL.symmetries()
    assert len(names) == 4
    classes, keys, moved = {}, {}, False
    for board in boards:
        images = [board.transform(name) for name in names]
        # The class of a position: the least position string among its images (same layout, so comparable).
        cls = min(image.fen() for image in images)
        canonical = {K.canonical_key(K.position(image), K.symmetries(image)) for image in images}
        assert len(canonical) == 1, board.fen()
        moved |= len({K.key(K.position(image)) for image in images}) > 1
        key = canonical.pop()
        assert classes.setdefault(key, cls) == cls, "two classes share a canonical key"
        assert keys.setdefault(cls, key) == key
    assert moved, "no position had images with different plain keys: the test would not see a broken canonical key"
    assert len(keys) >= 30


def test_key_is_the_whole_position():
    boards = _random_game_boards(6, 3)
    seen = {}
    for board in boards:
        pos = K.position(board)
        state = (int(pos.own), int(pos.opp), pos.last, pos.placed_own, pos.placed_opp)
        assert seen.setdefault(K.key(pos), state) == state


# --- the examples --------------------------------------------------------------------------------


#: Rule sets of the late positions (8 official, 3 single-insertion, 3 with 18 donuts each).
LATE_RULES = [Rules()] * 8 + [Rules(insertion="single")] * 3 + [Rules(donuts=18)] * 3


@pytest.fixture(scope="module")
def late_positions() -> list[Board]:
    """Positions with few plies left (quick to solve) of seeded random games, one per rule set of
    LATE_RULES; every third after a forfeit (so that one pool empties first and, in the search,
    the same side moves again)."""
    rng, boards, layout_seed = random.Random(7), [], 700
    for i, rules in enumerate(LATE_RULES):
        while len(boards) == i:  # random games often end early in a five: draw games until one lasts
            board, target, layout_seed = Board(Layout.random_grid(layout_seed), rules), rng.randint(19, 25), layout_seed + 1
            while board.ply < target and not board.is_game_over():
                if i % 3 == 2 and board.ply == target - 3:
                    board.forfeit()
                else:
                    board.push(rng.choice(board.legal_moves()))
            if not board.is_game_over():
                boards.append(board)
    return boards


@pytest.mark.parametrize("tt_bits", [14, 0])
def test_compiled_negamax_gives_the_solvers_values(late_positions, tt_bits):
    agent = compiled_negamax.Agent(depth=36, tt_bits=tt_bits)
    for board in late_positions:
        move = agent.select_move(board)
        info = agent.last_info
        assert info["exact"] and info["nodes"] > 0
        assert info["value"] == solve(board).value, board.fen()
        assert {m.move: m.value for m in analyze(board)}[move] == info["value"], board.fen()


def test_compiled_negamax_is_exact_only_where_it_says(late_positions):
    agent = compiled_negamax.Agent(depth=2, tt_bits=12)
    for board in late_positions:
        agent.select_move(board)
        if agent.last_info["exact"]:
            assert agent.last_info["value"] == solve(board).value
        else:
            assert agent.last_info["value"] == 0 and agent.last_info["depth"] == 2


def test_both_examples_play_a_game_with_legal_moves():
    players = {0: compiled_negamax.Agent(time_limit=0.02), 1: compiled_mcts.Agent(time_limit=0.02, seed=1)}
    board = Board(Layout.random_grid(9))
    while not board.is_game_over():
        agent = players[board.turn]
        board.push(agent.select_move(board))  # an illegal move raises here
        assert isinstance(agent.last_info["nodes"], int) and agent.last_info["nodes"] > 0


def test_the_examples_play_in_a_tournament_by_spec():
    specs = ["examples.compiled_negamax:Agent:time=0.01", "examples.compiled_mcts:Agent:time=0.01,seed=3"]
    results = T.run(specs, game="donuts", games=2, seed=1, workers=1, isolation="none")
    assert len(results.games) == 2
    for game in results.games:
        assert game["reason"] in ("five", "largest group", "majority")
        assert game["forfeits"] == [0, 0] and not game["events"]
