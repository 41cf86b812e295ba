"""The parallel solver (one shared table, a portfolio, Lazy SMP helpers): the same values as
one thread, a table that rejects torn rows, and seeded games that repeat."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from donuts_ai import Board, Layout, Rules, Solver
from donuts_ai import tournament as T
from donuts_ai.donuts._kernels.position import position_of
from donuts_ai.donuts.agents.alphabeta import SolverAgent
from donuts_ai.donuts.alphabeta._parallel import share_out
from donuts_ai.donuts.alphabeta._table import DATA, KEY_A, KEY_B, entry_index, new_table, pack, position_keys, probe, store, table_move
from donuts_ai.donuts.alphabeta.solver import _default_solver, available_cores
from donuts_ai.errors import SearchStopped
from donuts_ai.play.analysis import Analyst

from .test_solver import late_position

RULES = [Rules(), Rules(donuts=5), Rules(insertion="single"), Rules(donuts=9), Rules(donuts=18, insertion="single")]
#: Positions compared, value only; every DISTANCE_EVERY-th of them with its distance too.
POSITIONS, DISTANCE_EVERY = 200, 5


def _positions() -> list[Board]:
    out = []
    seed = 0
    while len(out) < POSITIONS:
        board = late_position(seed, RULES[seed % len(RULES)], plies_left=6 + seed % 9, forfeits=seed % 4 == 0)
        seed += 1
        if board is not None:
            out.append(board)
    return out


@pytest.fixture(scope="module")
def solvers() -> tuple[Solver, Solver]:
    return Solver(tt_bits=14), Solver(tt_bits=14, threads=2)


def test_two_threads_and_one_give_the_same_values(solvers):
    """Values (and, for a fifth of the positions, distances) do not depend on the threads,
    and the two-thread best move keeps the value (checked by the one-thread solver)."""
    one, two = solvers
    for i, board in enumerate(_positions()):
        expected = one.solve(board, distance=False)
        got = two.solve(board, distance=False)
        assert got.value == expected.value, board.fen()
        assert one.move_value(board, got.best_move) == expected.value, board.fen()
        if i % DISTANCE_EVERY == 0:
            exact = one.solve(board, distance=True)
            parallel = two.solve(board, distance=True)
            assert (parallel.value, parallel.distance) == (exact.value, exact.distance), board.fen()
            assert one.move_distance(board, parallel.best_move, parallel.value) == exact.distance, board.fen()


def test_two_threads_analyze_as_one(solvers):
    one, two = solvers
    board = late_position(3, Rules(), plies_left=12, forfeits=False)
    assert board is not None
    assert sorted(two.analyze(board), key=lambda m: m.move) == sorted(one.analyze(board), key=lambda m: m.move)


def test_node_limited_move_values_are_exact_or_unknown(solvers):
    """With two threads a node-limited move value comes from the portfolio: the exact value
    or None (every search past the limit), never a wrong one."""
    one, two = solvers
    board = late_position(5, Rules(), plies_left=26, forfeits=False)
    assert board is not None
    settled = 0
    for move in board.legal_moves():
        exact = one.move_value(board, move)
        got = Solver(tt_bits=12, threads=2).move_value(board, move, node_limit=50)
        assert got in (None, exact), move
        settled += got is not None
        assert two.move_value(board, move, node_limit=1 << 40) == exact
    assert settled < len(board.legal_moves())  # 50 nodes a search cannot settle every move


def test_the_table_rejects_a_torn_row():
    """An entry reads back; a row whose words come from two writes (keys of one, data of
    another: two threads writing the same row at once) reads as empty."""
    board = Board(Layout.random_grid(2))
    tt = new_table(10)
    positions = []
    for move in ("a1", "b2"):
        after = board.copy()
        after.push(move)
        positions.append(position_of(*after.kernel_state()))
    pos, other = positions
    key = _keys(pos)
    idx = entry_index(tt, key)
    store(tt, idx, key, 5, 5, 7, 40, 0)
    assert table_move(tt, pos) == 7
    assert probe(tt, idx, key, 1, 0, -100, 100)[3]  # its exact bound decides the search
    assert (tt[idx, KEY_A], tt[idx, KEY_B]) != key  # the keys are stored XOR the data
    intact = tt[idx].copy()

    tt[idx, DATA] = pack(-3, 8, 2, 30)  # another write's data under this write's keys
    assert table_move(tt, pos) == -1
    assert not probe(tt, idx, key, 1, 0, -100, 100)[3]

    tt[idx] = intact
    other_key = _keys(other)
    other_data = pack(-3, 8, 2, 30)
    tt[idx, KEY_A] = other_key[0] ^ other_data  # the other write's first key word only
    assert table_move(tt, pos) == -1
    assert table_move(tt, other) == -1

    tt[idx] = intact
    assert table_move(tt, pos) == 7


def _keys(pos: object) -> tuple[np.uint64, np.uint64]:
    """A position's table key as the kernels type it (Numba returns ``uint64`` as ``int``)."""
    key_a, key_b = position_keys(pos)
    return np.uint64(key_a), np.uint64(key_b)


def test_a_parallel_solver_stops():
    solver = Solver(tt_bits=16, threads=2)
    stopper = threading.Timer(0.2, solver.stop)
    stopper.start()
    with pytest.raises(SearchStopped):
        solver.solve(Board(Layout.random_grid(8)), distance=True)  # seconds of work: stopped long before


def test_who_gets_how_many_threads():
    """A person's ``solve``/``analyze`` use every core; the solver class and the agents one."""
    assert _default_solver(None).threads == available_cores() >= 1
    assert Solver().threads == 1
    assert SolverAgent().solver.threads == 1
    agent = SolverAgent(threads=2)
    assert agent.solver.threads == 2 and agent.params()["threads"] == 2
    assert "threads" not in SolverAgent().params()
    # The page's and the terminal's analysis is a person's too.
    assert Analyst(tt_bits=14).threads == available_cores()
    assert Analyst(tt_bits=14, threads=1).threads == 1


def test_the_analysis_on_every_core_gives_one_thread_s_values():
    board = late_position(5, Rules(), plies_left=12, forfeits=False)
    assert board is not None

    def values(threads: int) -> dict[str, tuple[int | None, int | None]]:
        analysis = Analyst(tt_bits=14, threads=threads).analyze(board)
        assert analysis.complete
        return {m.move: (m.value, m.distance) for m in analysis.moves}

    assert values(2) == values(1)


def test_a_solver_agent_plays_the_same_games_twice():
    def games() -> list[list[str]]:
        results = T.run(["solver", "greedy"], games=2, workers=1, seed=4, isolation="none", game="donuts",
                        config=T.HarnessConfig(rules={"donuts": 8}))
        return [list(g.moves) for g in results.games]

    assert games() == games()


# --- moves proved two at once (issue 60) ------------------------------------------------


def _first_move_boards() -> list[Board]:
    """An empty board under small pools (36 first moves) and a middle-game position."""
    middle = late_position(3, Rules(donuts=9), plies_left=14, forfeits=False)
    assert middle is not None
    return [Board(Layout.random(2), Rules(donuts=6)), middle]


def test_two_threads_analyze_every_move_as_one_thread():
    """With two threads ``analyze`` proves two moves at once (each a one-thread search on the
    shared table): the same values and distances, and the values alone the same too."""
    for board in _first_move_boards():
        one, two = Solver(tt_bits=16, book=False), Solver(tt_bits=16, threads=2, book=False)
        assert two.analyze(board, distance=False) == one.analyze(board, distance=False), board.fen()
        assert two.nodes > 0  # the twins' nodes are the solver's
        assert two.analyze(board) == one.analyze(board), board.fen()
        assert two.move_values(board) == one.move_values(board)
        fresh = Solver(tt_bits=16, threads=2, book=False)
        assert fresh.analyze(board) == one.analyze(board), board.fen()  # nothing in its table from earlier calls


def test_a_two_thread_analysis_stops():
    solver = Solver(tt_bits=16, threads=2, book=False)
    stopper = threading.Timer(0.2, solver.stop)
    stopper.start()
    with pytest.raises(SearchStopped):
        solver.analyze(Board(Layout.random_grid(8)))  # many seconds of work: stopped long before
    with pytest.raises(SearchStopped):
        solver.analyze(Board(Layout.random_grid(8)), distance=False)


def test_a_stopped_two_thread_solver_searches_nothing():
    # Its twins (made after stop()) are stopped too: no search before SearchStopped.
    solver = Solver(tt_bits=16, threads=2, book=False)
    solver.stop()
    with pytest.raises(SearchStopped):
        solver.analyze(Board(Layout.random(2), Rules(donuts=6)), distance=False)
    assert solver.nodes == 0  # refused, as with one thread


def test_a_stopped_one_thread_solver_searches_nothing():
    solver = Solver(tt_bits=16, book=False)
    solver.stop()
    with pytest.raises(SearchStopped):
        solver.analyze(Board(Layout.random(2), Rules(donuts=6)), distance=False)
    assert solver.nodes == 0


def test_share_out_gives_the_results_in_task_order():
    tasks = list(range(12))
    workers = ["a", "b", "c"]

    def work(worker: str, task: int) -> tuple[int, str]:
        time.sleep(0.002 * (12 - task))  # later tasks finish sooner
        return task, worker

    results = share_out(tasks, workers, work)
    assert [task for task, _ in results] == tasks
    assert {worker for _, worker in results} <= set(workers)
    assert share_out([], workers, work) == []
    assert share_out(tasks, ["only"], work) == [(t, "only") for t in tasks]


def test_share_out_raises_a_task_s_error_and_starts_no_task_after_it():
    started, finished = [], []

    def work(worker: str, task: int) -> int:
        started.append(task)
        if task == 1:
            raise ValueError("task 1 failed")
        time.sleep(0.2)  # long enough for task 1's error to be seen before the next task is taken
        finished.append(task)
        return task

    with pytest.raises(ValueError, match="task 1 failed"):
        share_out(list(range(10)), ["a", "b"], work)
    assert sorted(started) == [0, 1]
    assert finished == [0]  # raised once every thread had ended
    started.clear()
    with pytest.raises(ValueError, match="task 1 failed"):
        share_out(list(range(10)), ["only"], work)
    assert started == [0, 1]
