"""The analysis of an empty board the opening book holds with every first move's value (issue 60):
every move exact at once, before any search and before the job's turn at the gate."""

from __future__ import annotations

import threading
from pathlib import Path

from donuts_ai import Board, Layout, Rules
from donuts_ai.donuts.book import shipped_book
from donuts_ai.outcomes import value_name
from donuts_ai.play.analysis import AnalysisJob, Analyst
from donuts_ai.study import load_study

STUDY = Path(__file__).resolve().parents[2] / "notebooks" / "study_first_moves_all.jsonl"


def _held_board() -> Board:
    """An empty board of a tile arrangement the shipped book holds with its first moves, in
    another frame than the study's."""
    _, rows = load_study(STUDY)
    board = Board(Layout.from_text(rows[0]["layout"]).transform("mirror"))
    entry = shipped_book().probe(board)
    assert entry is not None and entry.first_moves is not None
    return board


def test_the_analyst_gives_every_first_move_from_the_book():
    board = _held_board()
    entry = shipped_book().probe(board)
    analyst = Analyst(tt_bits=14, threads=1)
    known = analyst.from_book(board)
    assert known is not None and known.exact and not known.complete
    assert {m.move: m.value for m in known.moves} == entry.first_moves
    assert [m.value for m in known.moves] == sorted(entry.first_moves.values(), reverse=True)  # best first
    assert all(m.distance is None for m in known.moves)
    assert analyst._solver.nodes == 0  # nothing searched
    one_in = board.copy()
    one_in.push(entry.best_move)
    assert analyst.from_book(one_in) is None  # the book holds empty boards only
    assert analyst.from_book(Board(Layout.random_grid(8))) is None  # a grid: not in the book
    assert Analyst(tt_bits=14, threads=1, book=False).from_book(board) is None  # told to read no book


def test_a_job_has_every_value_of_a_book_board_though_the_gate_never_opens():
    board = _held_board()
    job = AnalysisJob(board, gate=threading.Semaphore(0), analyst=Analyst(tt_bits=14, threads=1))
    try:
        assert job.wait(5, values=True)
        snapshot = job.snapshot()
        assert snapshot.exact and not snapshot.complete and not job.done
        # Told the values, a client asking again waits for the next step (none behind a closed
        # gate), rather than being answered at once again and again.
        assert not job.wait(0.3, values=True)
        assert {m.move: m.value for m in snapshot.moves} == shipped_book().probe(board).first_moves
    finally:
        job.cancel()
    assert job.wait(5) and job.done  # the closed gate does not hold a cancelled job


def test_a_job_on_a_board_the_book_does_not_hold_has_no_values_before_its_search():
    job = AnalysisJob(Board(Layout.random_grid(8)), gate=threading.Semaphore(0), analyst=Analyst(tt_bits=14, threads=1))
    try:
        assert not job.wait(0.3, values=True)  # no search could start: no values to wait for
        snapshot = job.snapshot()
        assert not snapshot.exact and snapshot.proven == 0
    finally:
        job.cancel()
    assert job.wait(5)
    assert job.wait(0, values=True)  # an ended job has nothing more to wait for


def test_a_held_board_under_other_rules_is_searched():
    # The same layout under rules the book does not serve: no value from it.
    board = Board(_held_board().layout, Rules(donuts=7))
    assert Analyst(tt_bits=14, threads=1).from_book(board) is None


def test_the_analyze_request_answers_once_every_value_is_known(monkeypatch):
    """``POST /api/analyze`` on an empty board the book holds with first moves answers with every
    value at once, while no job can search (every turn at the gate taken) and long before its
    wait's limit."""
    from donuts_ai.play import _routes
    from donuts_ai.play.server import Server

    monkeypatch.setattr(_routes, "ANALYSIS_WAIT", 120.0)  # far beyond the guard below
    server = Server(max_think=0.05)
    gate = server.searches.jobs._gate
    taken = 0
    while gate.acquire(blocking=False):
        taken += 1
    try:
        state = server.new_game({"color": "chocolate", "opponent": "random", "layout": "text",
                                 "layout_text": _held_board().layout.to_text()})
        answers = []
        request = threading.Thread(target=lambda: answers.append(server.analyze({"game": state["game"]})), daemon=True)
        request.start()
        request.join(20)  # a guard: the answer is due at once, the limit is 120 s
        assert not request.is_alive() and len(answers) == 1
        (answer,) = answers
        assert answer["exact"] and not answer["complete"] and answer["proven"] == len(answer["moves"]) == 36
        expected = shipped_book().probe(_held_board())
        assert {m["move"]: m["value"] for m in answer["moves"]} == {m: value_name(v) for m, v in expected.first_moves.items()}
    finally:
        server.searches.jobs.cancel_all()
        for _ in range(taken):
            gate.release()


def test_every_publication_of_a_book_board_s_analysis_keeps_every_value():
    """The analysis of a board the book holds with first moves publishes every value first and
    never loses one while its distances come (each distance under a small node limit here)."""
    board = _held_board()
    expected = shipped_book().probe(board).first_moves
    seen = []
    final = Analyst(tt_bits=14, threads=1, distance_nodes=50).analyze(board, seen.append)
    assert seen and final.complete
    for analysis in [*seen, final]:
        assert analysis.exact and {m.move: m.value for m in analysis.moves} == expected
    assert not seen[0].complete and all(m.distance is None for m in seen[0].moves)
