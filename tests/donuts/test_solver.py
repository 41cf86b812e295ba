"""The exact solver against brute-force minimax over the pure-Python reference."""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from donuts_ai import Board, DonutsError, Layout, Rules, Solver, analyze, solve
from donuts_ai.donuts._kernels.position import position_of, rulebook_of
from donuts_ai.donuts.alphabeta._negamax import search_root
from donuts_ai.donuts.alphabeta._scores import EXACT_DEPTH, INF, MATE_BOUND, WIN
from donuts_ai.donuts.alphabeta._table import new_table
from donuts_ai.donuts.alphabeta._workspace import new_workspace
from donuts_ai.donuts.reference import ReferenceGame
from donuts_ai.donuts.squares import SQUARE_NAMES

from ..helpers import reference_of


def minimax(game: ReferenceGame, ply: int = 0) -> int:
    """Root-relative score for the side to move: WIN - p for a win on ply p, -(WIN - p)
    for a loss, 0 for a draw; the best is taken over every legal move."""
    mover = game.turn
    best = None
    for sq in game.legal_moves():
        child = ReferenceGame.from_state(game.layout, game.rules, game.cells, game.turn, game.last, game.placed)
        child.play(sq)
        if child.over:
            score = 0 if child.winner is None else (WIN - (ply + 1)) * (1 if child.winner == mover else -1)
        else:
            score = minimax(child, ply + 1) * (1 if child.turn == mover else -1)
        best = score if best is None else max(best, score)
    return best


def late_position(seed: int, rules: Rules, plies_left: int, forfeits: bool) -> Board | None:
    """A random game stopped ``plies_left`` placements before both pools are empty."""
    rng = random.Random(seed)
    board = Board(Layout.random_grid(seed) if seed % 2 else Layout.random(seed), rules)
    while not board.is_game_over() and 2 * rules.donuts - sum(board.placed) > plies_left:
        if forfeits and rng.random() < 0.1:
            board.forfeit()
        else:
            board.push(rng.choice(board.legal_moves()))
    return None if board.is_game_over() else board.copy(stack=False)


cases = st.tuples(
    st.integers(0, 10**6),
    st.sampled_from([Rules(), Rules(insertion="single"), Rules(donuts=5), Rules(donuts=18)]),
    st.integers(1, 5),
    st.booleans(),
)


@settings(max_examples=60)
@given(cases)
def test_solve_and_analyze_equal_brute_force_minimax(case):
    seed, rules, plies_left, forfeits = case
    board = late_position(seed, rules, plies_left, forfeits)
    if board is None:
        return
    expected = minimax(reference_of(board))
    solver = Solver(tt_bits=16)
    solution = solver.solve(board)
    assert solution.score == expected
    assert solution.value == (expected > 0) - (expected < 0)
    assert solver.solve(board, distance=False).value == solution.value
    moves = solver.analyze(board)
    assert sorted(m.move for m in moves) == sorted(board.legal_moves())
    assert moves[0].score == expected  # analyze's best move has the position's value
    assert solution.best_move in [m.move for m in moves if m.score == expected]
    # Each move's value is the brute-force value of the position after it.
    for mv in moves:
        after = board.copy()
        after.push(mv.move)
        if after.is_game_over():
            o = after.outcome()
            direct = 0 if o.winner is None else (WIN - 1) * (1 if o.winner == board.turn else -1)
        else:
            child = minimax(reference_of(after))
            sign = 1 if after.turn == board.turn else -1
            direct = sign * child
            direct -= (direct > 0) - (direct < 0)  # one ply further from the root
        assert mv.score == direct, mv


def test_solve_the_empty_board_of_one_layout():
    solution = solve(Board(Layout.random_grid(1)), distance=True)
    assert (solution.result, solution.distance) == ("win", 25)
    board = Board(Layout.random_grid(1))
    board.push(solution.best_move)
    reply = solve(board)  # one donut in: the default proves the distance
    assert reply.value == -1 and reply.distance == 24  # the loser goes as long as it can


def test_the_default_gives_the_value_only_on_the_empty_board():
    board = Board(Layout.random_grid(1))
    default = solve(board)
    assert (default.result, default.distance) == ("win", None)
    assert default.score == 1  # no distance: the value alone
    assert Solver(tt_bits=16).move_value(board, default.best_move) == 1  # a move that keeps the win
    assert solve(board, distance=False).distance is None
    board.push(default.best_move)
    assert solve(board).distance is not None


@pytest.mark.parametrize("bad", [1, 0, "yes", 1.0])
def test_distance_must_be_true_false_or_none(bad):
    board = Board(Layout.random_grid(1))
    with pytest.raises(DonutsError, match="distance must be True, False or None"):
        solve(board, distance=bad)


def test_a_win_in_one_and_a_forced_loss():
    # Chocolate to move completes a1..e1.
    fen = "------,------,------,------,------,------ ....../....../....../....../vvvv../cccc.. c d1 4 4"
    solution = solve(Board.from_fen(fen))
    assert (solution.value, solution.distance, solution.best_move) == (1, 1, "e1")
    moves = analyze(Board.from_fen(fen))
    assert moves[0].move == "e1" and moves[0].distance == 1


def test_errors():
    finished = Board.from_fen("------,------,------,------,------,------ ....../....../....../....../....../ccccc. - a1 5 0")
    with pytest.raises(DonutsError, match="game is over"):
        solve(finished)
    with pytest.raises(DonutsError, match="tt_bits"):
        Solver(tt_bits=3)
    with pytest.raises(DonutsError, match="threads"):
        Solver(threads=0)


@pytest.mark.parametrize("seed", range(8))
def test_threads_give_the_same_value_and_a_move_that_keeps_it(seed):
    """Two threads (the portfolio on one shared table) prove the same value and distance as
    one thread, and the move they give keeps the value (checked by a one-thread solver)."""
    rules = [Rules(), Rules(donuts=5), Rules(insertion="single"), Rules(donuts=9)][seed % 4]
    board = late_position(seed, rules, plies_left=12 + seed, forfeits=False) or Board(Layout.random_grid(seed), rules)
    one, two = Solver(tt_bits=16), Solver(tt_bits=16, threads=2)
    expected = one.solve(board, distance=False)
    got = two.solve(board, distance=False)
    assert got.value == expected.value
    assert one.move_value(board, got.best_move) == expected.value
    assert two.solve(board, distance=True).distance == one.solve(board, distance=True).distance


# The solver run twice in fresh processes on an empty Numba cache (the second loading what
# the first compiled: recursive kernels in two specializations) is the first half of
# tests/donuts/test_agents.py::test_tactics_on_the_first_call_in_a_fresh_process_with_a_cold_cache,
# which shares its cold compile with the agents' own.


def test_move_value_agrees_with_analyze():
    board = next(b for b in (late_position(s, Rules(), 5, False) for s in range(10, 40)) if b is not None)
    solver = Solver(tt_bits=16)
    for mv in solver.analyze(board):
        assert solver.move_value(board, mv.move) == mv.value
    with pytest.raises(ValueError, match="illegal move"):
        solver.move_value(board, next(s for s in range(36) if board.color_at(s) is not None))


def test_bounded_move_values_and_distances_are_exact_or_unknown():
    """With a node limit, move_value and move_distance give the exact answer or None,
    never a wrong one; a later call with room resumes to the exact answer."""
    board = Board(Layout.random_grid(3))
    board.push("c3")
    truth = {mv.move: mv for mv in Solver(tt_bits=16).analyze(board)}
    tight, roomy = Solver(tt_bits=16), Solver(tt_bits=16)
    unknown = 0
    for move, exact in truth.items():
        value = tight.move_value(board, move, node_limit=50)
        distance = tight.move_distance(board, move, node_limit=50)
        unknown += value is None
        assert value in (None, exact.value) and distance in (None, exact.distance)
        assert roomy.move_value(board, move, node_limit=1 << 40) == exact.value
        assert roomy.move_distance(board, move, exact.value, node_limit=1 << 40) == exact.distance
    assert unknown > 0  # 50 nodes cannot settle every move one donut in
    with pytest.raises(ValueError, match="node_limit"):
        tight.move_value(board, "c1", node_limit=0)


def test_a_stopped_solver_refuses_every_search():
    from donuts_ai.errors import SearchStopped

    board = Board(Layout.random_grid(8))
    solver = Solver(tt_bits=16)
    stopper = threading.Timer(0.2, solver.stop)
    stopper.start()
    with pytest.raises(SearchStopped):
        solver.solve(board, distance=True)  # seconds of work: stopped long before
    with pytest.raises(SearchStopped):
        solver.move_value(board, "a1", node_limit=10)
    assert not isinstance(SearchStopped(), ValueError)  # not bad input


@settings(max_examples=40)
@given(cases)
def test_the_value_only_solve_equals_brute_force_and_its_move_keeps_it(case):
    """``solve(board, distance=False)`` gives the brute-force value, and its best move keeps
    that value (draws and losses included); so does the proof-number value search under
    every rules variant (``solve`` uses it under the "single" insertion rule)."""
    seed, rules, plies_left, forfeits = case
    board = late_position(seed, rules, plies_left, forfeits)
    if board is None:
        return
    expected = minimax(reference_of(board))
    solution = Solver(tt_bits=12).solve(board, distance=False)
    assert solution.value == (expected > 0) - (expected < 0)
    assert solution.distance is None
    proof_value, proof_move = _proof_numbers(board)
    assert proof_value == solution.value
    for move in (solution.best_move, SQUARE_NAMES[proof_move]):
        assert _value_after(board, move) == solution.value


def _proof_numbers(board: Board) -> tuple[int, int]:
    """(value, move) of the solver's proof-number value search, whatever the rules."""
    return Solver(tt_bits=12)._wdl_proof_numbers(rulebook_of(board.layout, board.rules), position_of(*board.kernel_state()))


def _value_after(board: Board, move: str) -> int:
    """Brute-force value of ``move`` for the side to move of ``board``."""
    after = board.copy()
    after.push(move)
    if after.is_game_over():
        o = after.outcome()
        kept = 0 if o.winner is None else (1 if o.winner == board.turn else -1)
    else:
        child = minimax(reference_of(after))
        kept = ((child > 0) - (child < 0)) * (1 if after.turn == board.turn else -1)
    return kept


@pytest.mark.parametrize("seed", range(24))
def test_proof_numbers_and_alpha_beta_agree_on_the_value(seed):
    """The value search by proof numbers (``solve(distance=False)``) and the alpha-beta
    search (``move_value`` of every move) agree on middle-game positions, too deep for
    brute force, under every rules variant; the proof's move keeps the value."""
    rules = [Rules(), Rules(donuts=5), Rules(insertion="single"), Rules(donuts=9), Rules(donuts=18, insertion="single")][seed % 5]
    board = late_position(seed, rules, plies_left=10 + seed % 7, forfeits=seed % 3 == 0)
    if board is None:
        return
    value, move = _proof_numbers(board)
    alpha_beta = Solver(tt_bits=16)
    assert max(alpha_beta.move_value(board, mv) for mv in board.legal_moves()) == value
    assert alpha_beta.move_value(board, SQUARE_NAMES[move]) == value
    assert Solver(tt_bits=14).solve(board, distance=False).value == value
    assert Solver(tt_bits=12).proof_number_value(board) == value  # the public call of the same search


# --- the values alone, and distances by proof numbers with a deadline (issue 60) ------


def _alpha_beta_score(board: Board) -> int:
    """The exact root-relative score of ``board`` by the plain alpha-beta kernel, full window."""
    score, _, aborted = search_root(rulebook_of(board.layout, board.rules), position_of(*board.kernel_state()), EXACT_DEPTH,
                                    -INF, INF, new_table(16), new_workspace(), 1 << 62)
    assert not aborted
    return int(score)


def _move_score_by_alpha_beta(board: Board, move: str) -> int:
    """The root-relative score of playing ``move`` from ``board``, for its mover, by alpha-beta."""
    after = board.copy(stack=False)
    after.push(move)
    if after.is_game_over():
        o = after.outcome()
        return 0 if o.winner is None else (WIN - 1) * (1 if o.winner == board.turn else -1)
    score = _alpha_beta_score(after) * (1 if after.turn == board.turn else -1)
    return score - ((score > 0) - (score < 0))  # one ply further from the root


#: The rules variants of the middle-game positions (8 to 16 plies left: too deep for brute force) checked here.
DEEP_RULES = [Rules(), Rules(insertion="single"), Rules(donuts=18), Rules(donuts=9), Rules(donuts=18, insertion="single")]


def _deep_positions() -> list[Board]:
    out = []
    for seed in range(48):
        board = late_position(seed, DEEP_RULES[seed % len(DEEP_RULES)], plies_left=8 + seed % 9, forfeits=seed % 3 == 0)
        if board is not None:
            out.append(board)
    return out


def test_distances_by_proof_numbers_equal_alpha_beta_s_full_window():
    """Every distance is found by proof-number tests with a deadline ("does the winner win by ply
    P?"); on middle-game positions of every rules variant the solve's and every analysed move's
    score equal the alpha-beta kernel's full-window score, one solver's tables kept throughout
    (entries of other deadlines in them)."""
    boards = _deep_positions()
    assert len(boards) >= 20 and {b.rules for b in boards} == set(DEEP_RULES)
    long = 0
    for board in boards:
        expected = _alpha_beta_score(board)
        solver = Solver(tt_bits=16)
        assert solver.solve(board, distance=True).score == expected, board.fen()
        for mv in solver.analyze(board):
            assert mv.score == _move_score_by_alpha_beta(board, mv.move), (board.fen(), mv)
        assert solver.solve(board, distance=True).score == expected  # again, on the tables the analysis left
        long += abs(expected) < WIN - 6
    assert long >= 5  # not only wins in a few plies


def test_the_deadline_test_is_fail_soft_and_exact_at_the_distance():
    """Solver._reaches, the proof-number test "score >= v" of a won or lost position, is
    fail-soft: ``r >= v`` proves score >= r, ``r < v`` proves score <= r (the facts found at the
    root say more than was asked); so it holds at the exact score and fails one ply sooner (a
    win one ply faster, a loss one ply sooner), whatever the tests before it left in the tables."""
    tested = 0
    for board in _deep_positions():
        expected = _alpha_beta_score(board)
        if expected == 0:
            continue
        solver = Solver(tt_bits=16)
        solver._prepare(board)
        rulebook, pos = rulebook_of(board.layout, board.rules), position_of(*board.kernel_state())
        assert solver._reaches(rulebook, pos, expected) == expected, board.fen()
        assert solver._reaches(rulebook, pos, expected + 1) == expected, board.fen()
        sign = 1 if expected > 0 else -1
        for v in (expected - 1, expected - 3, expected + 2, sign * (WIN - 1), sign * (MATE_BOUND + 1)):
            if abs(v) <= MATE_BOUND or v == expected:
                continue
            r = solver._reaches(rulebook, pos, v)
            assert r is not None and abs(r) > MATE_BOUND, (board.fen(), v, r)
            assert (v <= r <= expected) if v <= expected else (expected <= r < v), (board.fen(), v, r)
        assert Solver(tt_bits=16)._reaches(rulebook, pos, expected, node_limit=1) in (None, expected)
        tested += 1
    assert tested >= 15


def test_a_deadline_test_builds_on_the_facts_of_the_last():
    """The df-pn table keeps what a test decided as facts true at any deadline (a win by ply 25
    is a win by 27; no win by 27 is no win by 25): after a test that held, a looser one, and after
    one that failed, a stricter one, is answered by the root's expansion alone (one node; the
    table is large enough that no row of the root's children is replaced in between)."""
    tested = 0
    for board in _deep_positions():
        expected = _alpha_beta_score(board)
        if expected == 0 or abs(expected - 1) <= MATE_BOUND or abs(expected + 2) <= MATE_BOUND:
            continue
        solver = Solver(tt_bits=20)
        solver._prepare(board)
        rulebook, pos = rulebook_of(board.layout, board.rules), position_of(*board.kernel_state())
        for first, then in ((expected, expected - 1), (expected + 1, expected + 2)):
            solver._reaches(rulebook, pos, first)
            before = solver.nodes
            r = solver._reaches(rulebook, pos, then)
            assert solver.nodes - before == 1, (board.fen(), first, then)
            assert (then <= r <= expected) if then <= expected else (expected <= r < then)
        tested += 1
    assert tested >= 10


def test_a_value_proof_that_finds_every_refuted_line_lost_says_so():
    """A proof-number search without a deadline that disproves "the side to move wins" with every
    line of the refutation lost for it (no draw: ATTACKER_LOSES) is about a lost position, as
    alpha-beta's full window scores it; the solver then skips its second search ("does it draw?")."""
    from donuts_ai.donuts.alphabeta._dfpn import ATTACKER_LOSES

    found = 0
    for board in _deep_positions():
        solver = Solver(tt_bits=16)
        solver._prepare(board)
        rulebook, pos = rulebook_of(board.layout, board.rules), position_of(*board.kernel_state())
        move, plies = solver._proof(rulebook, pos, True)
        if plies == ATTACKER_LOSES:
            assert move is None and _alpha_beta_score(board) < 0, board.fen()
            found += 1
    assert found >= 3


def test_node_limited_distances_are_exact_or_none():
    """``move_distance`` with a tiny node limit (its proof-number tests stop at it) gives None or
    the exact distance, never a wrong one."""
    outcomes = set()
    for board in _deep_positions()[:12]:
        truth = {mv.move: mv.distance for mv in Solver(tt_bits=16).analyze(board)}
        for limit in (1, 30):
            tight = Solver(tt_bits=16)
            for move, distance in truth.items():
                got = tight.move_distance(board, move, node_limit=limit)
                assert got in (None, distance), (board.fen(), move, limit)
                outcomes.add(got is None)
    assert outcomes == {True, False}  # the limits stopped some, not all


@pytest.mark.parametrize("seed", [3, 8, 13])
def test_analyze_without_distance_gives_the_values_alone(seed):
    board = late_position(seed, [Rules(), Rules(donuts=9), Rules(insertion="single")][seed % 3], plies_left=14,
                          forfeits=False)
    assert board is not None
    full = Solver(tt_bits=16).analyze(board)
    values = Solver(tt_bits=16).analyze(board, distance=False)
    assert sorted(m.move for m in values) == sorted(board.legal_moves())
    assert all(m.distance is None for m in values)
    assert {m.move: m.value for m in values} == {m.move: m.value for m in full}
    # best first, ties in square order
    assert values == sorted(values, key=lambda m: (-m.value, SQUARE_NAMES.index(m.move)))
    move_values = Solver(tt_bits=16).move_values(board)
    assert move_values == {m.move: m.value for m in full} and list(move_values) == board.legal_moves()
    assert analyze(board, threads=1, distance=False) == values  # the module's call


def test_analyze_takes_only_a_bool_distance():
    board = Board(Layout.random_grid(1))
    for bad in ("yes", None, 1):
        with pytest.raises(DonutsError, match="distance must be True or False"):
            Solver(tt_bits=14).analyze(board, distance=bad)


def test_a_proof_number_row_half_overwritten_reads_as_empty():
    """The proof-number table is shared without a lock by the searches proving several moves at
    once: its keys are stored XOR both data words, so a row whose words come from two writes
    (one thread's write seen half done by another) is not taken for the key, while a whole row
    is; and so is a row after another key's write to the same bucket moved it."""
    from donuts_ai.donuts.alphabeta import _dfpn

    tt = _dfpn.new_dfpn_table(4)
    key_a, key_b = np.uint64(0x1234_5678_9ABC), np.uint64(0x0FED_CBA9_8765 | 1 << 62)  # the attacker to move
    idx = 6
    fields = _dfpn._fields(np.int64(30), np.int64(25), np.int64(0), False)
    _dfpn._store(tt, idx, key_a, key_b, np.int64(3), np.int64(7), np.int64(10), np.int64(4), fields)
    assert _dfpn._lookup(tt, idx, key_a, key_b, np.int64(30))[:3] == (True, 0, _dfpn.PN_INF)  # the win by 25
    assert _dfpn._lookup(tt, idx, key_a, key_b, np.int64(24))[:3] == (False, 1, 1)  # numbers at 30 only
    whole = tt.copy()
    for word in (_dfpn.NUMBERS, _dfpn.WORK):
        tt[:] = whole
        tt[idx, word] ^= np.uint64(1 << 40)  # one data word from another write
        assert _dfpn._lookup(tt, idx, key_a, key_b, np.int64(30))[0] is False
    tt[:] = whole
    other = (key_a ^ np.uint64(1), key_b)
    _dfpn._store(tt, idx, *other, np.int64(1), np.int64(1), np.int64(99), np.int64(-1), fields)
    assert _dfpn._lookup(tt, idx, key_a, key_b, np.int64(30))[:3] == (True, 0, _dfpn.PN_INF)
    assert _dfpn._lookup(tt, idx, *other, np.int64(30))[:3] == (True, 0, _dfpn.PN_INF)


def test_a_proof_number_bucket_is_one_cache_line():
    """A probe of the proof-number table reads one cache line: the table starts a line and a
    bucket (two rows) fills one; prefetching a row changes nothing in it."""
    from numba import njit

    from donuts_ai._bits import CACHE_LINE_BYTES, prefetch
    from donuts_ai.donuts.alphabeta import _dfpn

    for bits in (4, 12):
        tt = _dfpn.new_dfpn_table(bits)
        tag_rows = max(1, (1 << bits) // 32)  # a byte a row after the rows
        assert tt.shape == ((1 << bits) + tag_rows, _dfpn.ROW_WORDS) and tt.dtype == np.uint64 and tt.flags.c_contiguous
        assert _dfpn._rows(tt) == 1 << bits
        assert not tt.any() and tt.ctypes.data % CACHE_LINE_BYTES == 0 and 2 * tt.strides[0] == CACHE_LINE_BYTES

    @njit
    def prefetched_sum(table):
        for row in range(table.shape[0]):
            prefetch(table, row)
        return table.sum()

    tt = _dfpn.new_dfpn_table(4)
    tt[:] = np.arange(tt.size, dtype=np.uint64).reshape(tt.shape)
    before = tt.copy()
    assert prefetched_sum(tt) == before.sum() and np.array_equal(tt, before)


def test_a_proof_number_row_is_read_only_where_its_tag_is_the_key_s():
    """Each row has a tag (a byte of its key's hash, after the rows): a read looks at the tags
    first, so a row whose tag is lost reads as empty (redone, never wrong), and the row a
    bucket moves to its second place keeps its tag."""
    from donuts_ai.donuts.alphabeta import _dfpn

    tt = _dfpn.new_dfpn_table(6)
    key_a, key_b = np.uint64(0x1234_5678_9ABC), np.uint64(0x0FED_CBA9_8765 | 1 << 62)
    idx = _dfpn._bucket(tt, key_a, key_b)
    fields = _dfpn._fields(np.int64(30), np.int64(25), np.int64(0), False)
    _dfpn._store(tt, idx, key_a, key_b, np.int64(3), np.int64(7), np.int64(10), np.int64(4), fields)
    tag = _dfpn._tag(key_a, key_b)
    assert tag != 0 and _dfpn._tag_at(tt, idx) == tag and not tt[: 1 << 6][idx + 2:].any()
    assert _dfpn._lookup(tt, idx, key_a, key_b, np.int64(30))[0]
    _dfpn._set_tag(tt, idx, np.uint64(0))  # the tag lost: the row is not read
    assert not _dfpn._lookup(tt, idx, key_a, key_b, np.int64(30))[0]
    _dfpn._set_tag(tt, idx, tag)
    other = (key_a ^ np.uint64(1 << 20), key_b)  # another key, stored in the same bucket
    _dfpn._store(tt, idx, *other, np.int64(1), np.int64(1), np.int64(99), np.int64(-1), fields)
    assert _dfpn._lookup(tt, idx, key_a, key_b, np.int64(30))[0] and _dfpn._lookup(tt, idx, *other, np.int64(30))[0]
    assert {int(_dfpn._tag_at(tt, row)) for row in (idx, idx + 1)} == {int(tag), int(_dfpn._tag(*other))}


def test_a_value_s_second_search_takes_what_the_first_decided():
    """The two proof-number searches of a value ask about one position with the other player
    attacking; each takes what the other decided: once "the side to move wins" is proved, "it
    does not lose" is proved by the root's expansion alone (the winning move's position, proved
    won for it, is one its opponent never wins)."""
    tested = 0
    for board in _deep_positions():
        expected = _alpha_beta_score(board)
        if expected <= 0 or expected > WIN - 3:  # won, not by the next move or the one after
            continue
        solver = Solver(tt_bits=20)
        solver._prepare(board)
        rulebook, pos = rulebook_of(board.layout, board.rules), position_of(*board.kernel_state())
        assert solver._proof(rulebook, pos, True)[0] is not None, board.fen()
        before = solver.nodes
        assert solver._proof(rulebook, pos, False)[0] is not None, board.fen()
        assert solver.nodes - before == 1, board.fen()
        tested += 1
    assert tested >= 5
