"""The opening book: built from the studies, consulted exactly, refused when damaged."""

from __future__ import annotations

import json
import random
import zipfile
from pathlib import Path

import numpy as np
import pytest

from donuts_ai import Board, Layout
from donuts_ai.donuts.alphabeta import Solver
from donuts_ai.donuts.book import Book, BookError, canonical_key, is_empty_board, shipped_book
from donuts_ai.donuts.rules import Rules
from donuts_ai.donuts.squares import SQUARE_NAMES, parse_square
from donuts_ai.donuts.symmetry import SYMMETRY_NAMES, transform_square
from donuts_ai.errors import DonutsError
from donuts_ai.outcomes import UNKNOWN
from donuts_ai.study import BOOK_STUDIES, build_book, load_study
from donuts_ai.tournament.specs import make_agent

from ..helpers import command_error

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
#: Study rows sampled a variant (each probed, and a few re-solved).
SAMPLE = 40
#: Nodes a re-solve of a book move may take before the test moves on to the next entry.
RESOLVE_NODES = 400_000
#: Book moves re-solved a variant.
RESOLVED = 2


@pytest.fixture(scope="module")
def studies() -> list[tuple[Rules, list[dict]]]:
    """Every shipped study's rules and a seeded sample of its rows."""
    out = []
    for name in BOOK_STUDIES:
        config, rows = load_study(NOTEBOOKS / name)
        out.append((Rules.from_dict(config.get("rules") or {}), random.Random(name).sample(rows, min(SAMPLE, len(rows)))))
    return out


def test_the_shipped_book_holds_every_class_of_every_studied_variant():
    book = shipped_book()
    assert [v["entries"] for v in book.variants()] == [24_576] * 3
    assert {json.dumps(v["rules"], sort_keys=True) for v in book.variants()} == {
        json.dumps(Rules.from_dict(r).to_dict(), sort_keys=True)
        for r in ({}, {"donuts": 18}, {"insertion": "single"})}
    # Each variant's whole-arrangement study first, then its first-move studies (each solved
    # every first move of some classes).
    expected = {
        "{}": ["study_all_arrangements.jsonl.gz", "study_first_moves.jsonl", "study_first_moves_all.jsonl"],
        "donuts18": ["study_all_arrangements_donuts18.jsonl.gz", "study_first_moves_all_donuts18.jsonl"],
        "single": ["study_all_arrangements_single.jsonl.gz", "study_first_moves_all_single.jsonl"],
    }
    names = {json.dumps(Rules.from_dict(r).to_dict(), sort_keys=True): key
             for key, r in (("{}", {}), ("donuts18", {"donuts": 18}), ("single", {"insertion": "single"}))}
    assert sorted(n for ns in expected.values() for n in ns) == sorted(BOOK_STUDIES)
    for variant in book.variants():
        sources = variant["source"]["sources"]
        assert [s["study"] for s in sources] == expected[names[json.dumps(variant["rules"], sort_keys=True)]]
        assert all(len(s["sha256"]) == 64 for s in sources)
        whole, *first_moves = sources
        assert whole["classes"] == 24_576
        for source in first_moves:
            _, rows = load_study(NOTEBOOKS / source["study"])
            assert source["classes"] == len(rows) > 0
        # Every class a first-move study solved holds its first moves (the studies may overlap).
        assert 0 < book.value_counts(variant["rules"])["first_moves"] <= sum(s["classes"] for s in first_moves)


def test_the_book_gives_each_study_row_back(studies):
    book = shipped_book()
    for name, (rules, rows) in zip(BOOK_STUDIES, studies, strict=True):
        for row in rows:
            entry = book.probe(Board(Layout.from_text(row["layout"]), rules))
            assert entry is not None and entry.value == row["value"]
            if "winning_moves" in row:  # a first-move study: the class's move came from the whole-arrangement study
                assert entry.first_moves is not None and entry.first_moves[row["best_move"]] == row["value"], name
            else:
                assert entry.best_move == row["best_move"], name


def test_a_symmetric_image_gets_the_image_of_the_move(studies):
    book = shipped_book()
    rules, rows = studies[0]
    checked = 0
    for row in rows:
        layout = Layout.from_text(row["layout"])
        if layout.symmetries() != ["identity"]:
            continue  # a self-symmetric layout may get any of its equally good images
        for sym in SYMMETRY_NAMES:
            entry = book.probe(Board(layout.transform(sym), rules))
            assert entry is not None and entry.value == row["value"]
            assert entry.best_move == SQUARE_NAMES[transform_square(parse_square(row["best_move"]), sym)]
        checked += 1
    assert checked >= 10


def test_book_moves_keep_their_value_by_search(studies):
    solver = Solver(tt_bits=18)
    book = shipped_book()
    for rules, rows in studies:
        verified = 0
        for row in rows:
            board = Board(Layout.from_text(row["layout"]), rules)
            entry = book.probe(board)
            assert entry is not None
            value = solver.move_value(board, entry.best_move, node_limit=RESOLVE_NODES)
            solver.clear()
            if value is None:
                continue  # too deep for a test: the next entry
            assert value == entry.value
            verified += 1
            if verified == RESOLVED:
                break
        assert verified == RESOLVED, f"{rules}: fewer than {RESOLVED} sampled book moves re-solved in the node limit"


def test_the_book_holds_only_empty_boards_of_its_variants():
    book = shipped_book()
    board = Board(Layout.random(3))
    assert is_empty_board(board) and book.probe(board) is not None
    assert book.probe(Board(Layout.random(3), Rules(donuts=16))) is None  # a variant nobody studied
    board.push(board.legal_moves()[0])
    assert book.probe(board) is None
    board.pop()
    assert book.probe(board) is not None
    assert canonical_key(Layout.random(3))[0] == canonical_key(Layout.random(3).transform("rot90"))[0]


def test_build_extends_a_base_and_refuses_disagreeing_rows(tmp_path):
    layout = Layout.random(7)
    row = {"layout": layout.to_text(), "value": 1, "best_move": "c3", "distance": None}
    book = Book.from_rows(Rules(donuts=16), [row], {"study": "mine"}, base=shipped_book())
    assert len(book) == len(shipped_book()) + 1
    assert book.probe(Board(layout, Rules(donuts=16))).best_move == "c3"
    with pytest.raises(BookError, match="held with value 1 and given -1"):
        Book.from_rows(Rules(donuts=16), [row, {**row, "value": -1}], {"study": "mine"})
    with pytest.raises(BookError, match="value 2"):
        Book.from_rows(None, [{**row, "value": 2}], {"study": "mine"})
    path = tmp_path / "mine.npz"
    book.save(path)
    again = Book.load(path)
    assert len(again) == len(book) and again.probe(Board(layout, Rules(donuts=16))).best_move == "c3"


def test_a_study_file_builds_a_book(tmp_path):
    study = tmp_path / "s.jsonl"
    layout = Layout.random(11)
    study.write_text(json.dumps({"type": "config", "config": {"study": "first-player", "rules": {"donuts": 17}}}) + "\n"
                     + json.dumps({"type": "unit", "unit": 0, "layout": layout.to_text(), "weight": 1, "kind": "arrangement",
                                   "value": -1, "best_move": "a1", "distance": 30, "nodes": 1}) + "\n")
    book = build_book([study])
    entry = book.probe(Board(layout, Rules(donuts=17)))
    assert (entry.value, entry.best_move, entry.distance) == (-1, "a1", 30)
    assert book.variants()[0]["source"]["sources"][0]["study"] == "s.jsonl"


def test_damaged_or_foreign_files_are_refused(tmp_path):
    good = tmp_path / "good.npz"
    Book.from_rows(None, [{"layout": Layout.random(1).to_text(), "value": 1, "best_move": "a1"}], {"study": "x"}).save(good)
    assert len(Book.load(good)) == 1
    with pytest.raises(BookError, match="no such book file"):
        Book.load(tmp_path / "missing.npz")
    (tmp_path / "text.npz").write_text("hello")
    with pytest.raises(BookError, match="is not a book file"):
        Book.load(tmp_path / "text.npz")
    np.savez(tmp_path / "foreign.npz", weights=np.zeros(3))
    with pytest.raises(BookError, match="no meta"):
        Book.load(tmp_path / "foreign.npz")
    with np.load(good) as data:
        arrays = {name: data[name] for name in data.files}
    meta = json.loads(str(arrays["meta"]))
    for change, message in (({"format": "chess book"}, "its format is 'chess book'"), ({"version": 99}, "book version 99")):
        np.savez(tmp_path / "other.npz", **{**arrays, "meta": np.array(json.dumps({**meta, **change}))})
        with pytest.raises(BookError, match=message):
            Book.load(tmp_path / "other.npz")
    np.savez(tmp_path / "damaged.npz", **{**arrays, "moves_0": arrays["moves_0"] ^ 1})
    with pytest.raises(BookError, match="checksum"):
        Book.load(tmp_path / "damaged.npz")
    cut = tmp_path / "cut.npz"
    cut.write_bytes(good.read_bytes()[:200])
    with pytest.raises(BookError, match="is not a book file"):
        Book.load(cut)
    assert not zipfile.is_zipfile(cut)


def test_the_solver_answers_a_book_board_from_the_book_and_the_same_value_by_search():
    board = Board(Layout.random(21))
    from_book = Solver(tt_bits=16).solve(board)
    assert (from_book.source, from_book.nodes, from_book.distance) == ("book", 0, None)
    assert from_book.best_move == shipped_book().probe(board).best_move
    searched = Solver(tt_bits=16, book=False).solve(board)
    assert searched.source == "search" and searched.nodes > 0 and searched.value == from_book.value
    board.push(from_book.best_move)  # one donut in: the book holds only empty boards
    assert Solver(tt_bits=16).solve(board, distance=False).source == "search"


def test_the_solver_searches_what_the_book_cannot_say(tmp_path):
    # A made-up entry with a distance, to see the plumbing: the distance comes from the book
    # only when the book has one (the shipped studies proved none, so distance=True searches).
    layout = Layout.random(5)
    mine = Book.from_rows(None, [{"layout": layout.to_text(), "value": 1, "best_move": "a1", "distance": 17}],
                          {"study": "made up"})
    solution = Solver(tt_bits=16, book=mine).solve(Board(layout), distance=True)
    assert (solution.source, solution.distance, solution.best_move) == ("book", 17, "a1")
    assert Solver(tt_bits=16, book=mine).solve(Board(Layout.random(6))).source == "search"  # not in this book
    (tmp_path / "bad.npz").write_text("not a book")
    with pytest.raises(BookError, match="is not a book file"):
        Solver(book=tmp_path / "bad.npz")
    with pytest.raises(DonutsError, match="book must be"):
        Solver(book=3)  # type: ignore[arg-type]


def test_the_solver_agent_plays_its_first_move_from_the_book():
    agent = make_agent("solver", game="donuts")
    board = Board(Layout.random(9))
    assert agent.select_move(board.copy()) == shipped_book().probe(board).best_move
    assert agent.last_info["source"] == "book"
    searching = make_agent("solver:book=false", game="donuts")
    assert searching.params() == {"book": False} and searching.spec == "solver:book=False"
    searching.select_move(board.copy())
    assert searching.last_info["source"] == "search"


@pytest.mark.parametrize("seed", [3, 8])
def test_analyze_takes_the_book_moves_values_and_proves_the_same_list(seed):
    # Small pools keep an empty board's full analysis cheap; the book is built from the
    # solver's own answer, so the list must not change, only the searches it saves.
    rules = Rules(donuts=7)
    board = Board(Layout.random_grid(seed), rules)
    searched = Solver(book=False)
    solution = searched.solve(board, distance=False)
    book = Book.from_rows(rules, [{"layout": board.layout.to_text(), "value": solution.value,
                                   "best_move": solution.best_move, "distance": None}], {"study": "test"})
    booked = Solver(book=book)
    assert booked.analyze(board) == Solver(book=False).analyze(board)
    fresh = Solver(book=False)
    fresh.analyze(board)
    assert booked.nodes < fresh.nodes


STUDY_V030 = Path(__file__).resolve().parents[1] / "data" / "study_v030.jsonl"


def test_the_book_command_shows_the_shipped_book_and_builds_one_from_a_study(tmp_path, capsys):
    from donuts_ai.cli import main

    assert main(["book", "show"]) == 0
    shown = capsys.readouterr().out
    assert shown.count(": 24576 classes, first player wins") == 3 and all(name in shown for name in BOOK_STUDIES)
    out = tmp_path / "mine.npz"
    assert main(["book", "build", str(STUDY_V030), "--out", str(out)]) == 0
    assert "3 entries" in capsys.readouterr().out
    mine = Book.load(out)
    _, rows = load_study(STUDY_V030)
    for row in rows:
        entry = mine.probe(Board(Layout.from_text(row["layout"])))
        assert entry is not None and (entry.value, entry.best_move) == (row["value"], row["best_move"])
    extended = tmp_path / "extended.npz"
    assert main(["book", "build", str(STUDY_V030), "--out", str(extended), "--extend"]) == 0
    assert len(Book.load(extended)) == len(shipped_book())  # the study's classes were in it already
    shipped_sources = [len(v["source"]["sources"]) for v in shipped_book().variants()]
    assert [len(v["source"]["sources"]) for v in Book.load(extended).variants()] == [shipped_sources[0] + 1, *shipped_sources[1:]]


@pytest.mark.parametrize("argv, message", [
    (["book", "build", "STUDY", "--out", "EXISTING"], "is never overwritten"),
    (["book", "build", "RESULTS", "--out", "NEW"], "not a study results file"),
    (["book", "build", "OTHER", "--out", "NEW"], "a book is built from first-player studies, not 'second-player'"),
    (["book", "show", "STUDY"], "is not a book file (not a NumPy .npz archive)"),
    (["book", "show", "MISSING"], "no such book file"),
])
def test_the_book_command_refuses_bad_files_in_one_line(tmp_path, argv, message, capsys):

    existing = tmp_path / "existing.npz"
    existing.write_bytes(b"keep me")
    other = tmp_path / "other.jsonl"  # a study of another kind than the book is built from
    other.write_text(STUDY_V030.read_text().replace('"study": "first-player"', '"study": "second-player"', 1))
    files = {"OTHER": str(other), "STUDY": str(STUDY_V030), "EXISTING": str(existing), "NEW": str(tmp_path / "new.npz"),
             "RESULTS": str(STUDY_V030.parent / "results_v030_donuts.jsonl"), "MISSING": str(tmp_path / "missing.npz")}
    argv = [files.get(a, a) for a in argv]
    # One of them from a real process: what a user sees.
    status, err = command_error(capsys, *argv, real_process=message == "no such book file")
    assert status == 2
    assert err.count("\n") == 1 and message in err and err.startswith("donuts-ai: error:")
    assert existing.read_bytes() == b"keep me" and not (tmp_path / "new.npz").exists()


def test_the_pages_analysis_shows_the_book_move_before_any_search():
    """An empty board the book holds without its first moves' values: the first publication
    has the book's move, exact, before any search. (The book is built from a study without
    first moves: the shipped one gains first moves class by class as the studies grow.)"""
    from donuts_ai.play.analysis import Analyst

    _, rows = load_study(STUDY_V030)
    board = Board(Layout.from_text(rows[0]["layout"]))
    book = build_book([STUDY_V030])
    entry = book.probe(board)
    assert entry is not None and entry.first_moves is None

    class Published(Exception):
        pass

    seen = []

    def publish(analysis):
        seen.append(analysis)
        raise Published  # the first publication is all this test reads

    analyst = Analyst(threads=1, book=book)  # the page's analyst, with that book in place of the shipped one
    with pytest.raises(Published):
        analyst.analyze(board, publish)
    (first,) = seen
    exact = [m for m in first.moves if m.exact]
    assert [(m.move, m.value) for m in exact] == [(entry.best_move, entry.value)]
    assert len(first.moves) == len(board.legal_moves()) and analyst._solver.nodes == 0  # nothing searched yet


# --- every first move's value (issue 60) ---------------------------------------------

#: Small pools keep every first move's proof cheap; under them the empty boards of
#: Layout.random(2) and (1) are a win with drawing and losing moves, and a draw.
FIRST_RULES = Rules(donuts=6)
FIRST_SEEDS = (2, 1)
#: The first-move studies the shipped book is built from.
FIRST_MOVE_STUDIES = [name for name in BOOK_STUDIES if name.startswith("study_first_moves")]


def _first_move_row(layout: Layout, rules: Rules = FIRST_RULES) -> dict:
    """A study row with first moves, from the book-less solver's values of ``layout``'s empty board."""
    values = Solver(tt_bits=16, book=False).move_values(Board(layout, rules))
    value = max(values.values())
    return {"layout": layout.to_text(), "value": value, "best_move": next(m for m, v in values.items() if v == value),
            "distance": None, "winning_moves": [m for m, v in values.items() if v == 1],
            "drawing_moves": [m for m, v in values.items() if v == 0], "first_moves": len(values)}


@pytest.fixture(scope="module")
def first_move_book() -> tuple[Book, list[dict]]:
    rows = [_first_move_row(Layout.random(seed)) for seed in FIRST_SEEDS]
    assert {r["value"] for r in rows} == {1, 0} and all(r["drawing_moves"] for r in rows)  # a win and a draw
    assert len(rows[0]["winning_moves"]) < rows[0]["first_moves"]  # not every move wins
    solved = Solver(tt_bits=16, book=False).solve(Board(Layout.random(3), FIRST_RULES), distance=False)
    plain = {"layout": Layout.random(3).to_text(), "value": solved.value, "best_move": solved.best_move, "distance": None}
    return Book.from_rows(FIRST_RULES, [*rows, plain], {"study": "test"}), rows


def test_the_book_gives_every_first_move_s_value_on_every_symmetric_image(first_move_book, tmp_path):
    book, rows = first_move_book
    path = tmp_path / "first.npz"
    book.save(path)
    loaded = Book.load(path)
    for seed in FIRST_SEEDS:
        for name in SYMMETRY_NAMES:
            board = Board(Layout.random(seed).transform(name), FIRST_RULES)
            expected = Solver(tt_bits=16, book=False).move_values(board)
            for held in (book, loaded):  # the save and load round trip keeps them
                entry = held.probe(board)
                assert entry is not None and entry.first_moves == expected, (seed, name)
                assert list(entry.first_moves) == board.legal_moves()  # square order
                assert entry.first_moves[entry.best_move] == entry.value == max(expected.values())
    # The class held without first moves has none; the counts say two classes have them.
    assert book.probe(Board(Layout.random(3), FIRST_RULES)).first_moves is None
    assert book.value_counts(FIRST_RULES)["first_moves"] == loaded.value_counts(FIRST_RULES)["first_moves"] == 2
    assert shipped_book().value_counts(Rules())["first_moves"] > 0


def test_the_solver_analyses_a_first_move_board_from_the_book(first_move_book):
    book, _ = first_move_book
    for seed in FIRST_SEEDS:
        board = Board(Layout.random(seed).transform("rot90"), FIRST_RULES)
        booked = Solver(tt_bits=16, book=book)
        values = booked.analyze(board, distance=False)
        assert booked.nodes == 0  # every value from the book: no search at all
        assert values == Solver(tt_bits=16, book=False).analyze(board, distance=False)
        assert booked.move_values(board) == {m.move: m.value for m in values} and booked.nodes == 0
        assert booked.book_moves(board) == booked.move_values(board)
        # With distances the values come from the book, the distances by search: the same list.
        assert booked.analyze(board) == Solver(tt_bits=16, book=False).analyze(board)


def test_rows_with_first_moves_that_disagree_with_their_value_are_refused(first_move_book):
    _, rows = first_move_book
    win = rows[0]
    with pytest.raises(BookError, match="best first move's value 1 is not its value 0"):
        Book.from_rows(FIRST_RULES, [{**win, "value": 0, "best_move": win["drawing_moves"][0]}], {"study": "x"})
    losing = next(SQUARE_NAMES[sq] for sq in range(36) if SQUARE_NAMES[sq] not in win["winning_moves"] + win["drawing_moves"])
    with pytest.raises(BookError, match="disagree with the boards' values or best moves"):
        Book.from_rows(FIRST_RULES, [{**win, "best_move": losing}], {"study": "x"})
    # The same class given twice with other first moves.
    other = {**win, "drawing_moves": win["drawing_moves"][1:]}
    with pytest.raises(BookError, match="held with other first-move values"):
        Book.from_rows(FIRST_RULES, [win, other], {"study": "x"})
    assert len(Book.from_rows(FIRST_RULES, [win, win], {"study": "x"})) == 1  # the same twice is fine


def _rewrite(path: Path, out: Path, change=lambda arrays: arrays, **meta_change) -> None:
    """``path``'s book written to ``out`` with its arrays changed and its checksum made to match,
    so that only the book's own consistency checks can tell."""
    from donuts_ai.donuts.book import _checksum

    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files}
    meta = json.loads(str(arrays.pop("meta")))
    arrays = change(arrays)
    meta = {**meta, **meta_change, "checksum": _checksum(arrays)}
    np.savez(out, meta=np.array(json.dumps(meta)), **arrays)


def test_a_file_whose_first_moves_were_changed_is_refused(first_move_book, tmp_path):
    book, _ = first_move_book
    good = tmp_path / "good.npz"
    book.save(good)
    _rewrite(good, tmp_path / "same.npz")  # the rewrite alone changes nothing
    assert Book.load(tmp_path / "same.npz").probe(Board(Layout.random(2), FIRST_RULES)) == \
        book.probe(Board(Layout.random(2), FIRST_RULES))

    def best_move_loses(arrays):
        first_moves = arrays["first_moves_0"].copy()
        row = int(np.flatnonzero(first_moves[:, 0] != UNKNOWN)[0])
        first_moves[row, arrays["moves_0"][row]] = -1
        return {**arrays, "first_moves_0": first_moves}

    def all_draw(arrays):
        first_moves = arrays["first_moves_0"].copy()
        won = int(np.flatnonzero(arrays["values_0"] == 1)[0])
        assert first_moves[won, 0] != UNKNOWN
        first_moves[won] = 0
        return {**arrays, "first_moves_0": first_moves}

    _each_refused(good, tmp_path, (best_move_loses, all_draw), "impossible first-move values")


def _each_refused(good: Path, tmp_path: Path, changes, message: str) -> None:
    """Each of ``changes`` made to the book file ``good`` (checksum recomputed) is a BookError
    matching ``message`` on load."""
    for change in changes:
        _rewrite(good, tmp_path / "changed.npz", change)
        with pytest.raises(BookError, match=message):
            Book.load(tmp_path / "changed.npz")


def test_a_file_with_keys_out_of_order_or_a_square_off_the_board_is_refused(first_move_book, tmp_path):
    book, _ = first_move_book
    good = tmp_path / "good.npz"
    book.save(good)
    assert len(book) >= 2

    def swapped_keys(arrays):  # two entries' keys (and so the order of the keys) swapped
        keys = arrays["keys_0"].copy()
        keys[[0, -1]] = keys[[-1, 0]]
        return {**arrays, "keys_0": keys}

    def equal_keys(arrays):  # a key held twice: not strictly ascending
        keys = arrays["keys_0"].copy()
        keys[1] = keys[0]
        return {**arrays, "keys_0": keys}

    def off_the_board(arrays):
        moves = arrays["moves_0"].copy()
        moves[0] = 36
        return {**arrays, "moves_0": moves}

    _each_refused(good, tmp_path, (swapped_keys, equal_keys, off_the_board), "impossible entries")


def test_a_version_1_file_loads_without_first_moves_and_version_3_is_refused(first_move_book, tmp_path):
    book, _ = first_move_book
    good = tmp_path / "good.npz"
    book.save(good)
    _rewrite(good, tmp_path / "v1.npz", lambda arrays: {k: a for k, a in arrays.items() if not k.startswith("first_moves_")},
             version=1)
    old = Book.load(tmp_path / "v1.npz")
    for seed in (*FIRST_SEEDS, 3):
        board = Board(Layout.random(seed), FIRST_RULES)
        entry, new = old.probe(board), book.probe(board)
        assert entry is not None and entry.first_moves is None
        assert (entry.value, entry.best_move, entry.distance) == (new.value, new.best_move, new.distance)
    assert old.value_counts(FIRST_RULES)["first_moves"] == 0
    _rewrite(good, tmp_path / "v3.npz", version=3)
    with pytest.raises(BookError, match="book version 3, this library reads 1 and 2"):
        Book.load(tmp_path / "v3.npz")
    # A version-2 file must hold its first moves (none known is a row of UNKNOWN, not no array).
    _rewrite(good, tmp_path / "v2-short.npz", lambda arrays: {k: a for k, a in arrays.items() if not k.startswith("first_moves_")})
    with pytest.raises(BookError, match="incomplete \\(no first_moves_0\\)"):
        Book.load(tmp_path / "v2-short.npz")


def test_every_first_move_study_row_is_in_the_shipped_book_with_its_first_moves():
    book = shipped_book()
    for name in FIRST_MOVE_STUDIES:
        config, rows = load_study(NOTEBOOKS / name)
        assert config["first_moves"] and not config["distance"]
        rules = Rules.from_dict(config.get("rules") or {})
        for row in rows:
            board = Board(Layout.from_text(row["layout"]), rules)
            entry = book.probe(board)
            assert entry is not None and entry.first_moves is not None, (name, row["unit"])
            assert entry.value == row["value"] and row["first_moves"] == len(board.legal_moves())
            assert sorted(m for m, v in entry.first_moves.items() if v == 1) == sorted(row["winning_moves"]), (name, row["unit"])
            assert sorted(m for m, v in entry.first_moves.items() if v == 0) == sorted(row["drawing_moves"]), (name, row["unit"])


#: A first-move study's rows re-solved here beyond its cheapest, only among those the study
#: solved in under a second.
FIRST_MOVE_EXTRA = 1


@pytest.mark.parametrize("name", ["study_first_moves_all.jsonl", "study_first_moves_all_donuts18.jsonl",
                                  "study_first_moves_all_single.jsonl"])
def test_the_shipped_book_s_first_moves_equal_the_solver_s_on_a_sample(name):
    """The cheapest row of each first-move study, and a seeded one of the cheap rows, re-solved on
    a symmetric image of the layout: the solver's every first move's value is the book's."""
    config, rows = load_study(NOTEBOOKS / name)
    rules = Rules.from_dict(config.get("rules") or {})
    rng = random.Random(name)
    cheapest = min(rows, key=lambda r: r["seconds"])
    cheap = [r for r in rows if r["seconds"] < 1 and r is not cheapest]
    for row in [cheapest, *rng.sample(cheap, min(FIRST_MOVE_EXTRA, len(cheap)))]:
        board = Board(Layout.from_text(row["layout"]).transform(rng.choice(SYMMETRY_NAMES[1:])), rules)
        entry = shipped_book().probe(board)
        assert entry is not None and entry.first_moves is not None
        assert Solver(tt_bits=18, book=False).move_values(board) == entry.first_moves, (name, row["unit"])


def test_every_symmetric_image_of_a_first_move_study_row_gets_the_image_of_its_first_moves():
    book = shipped_book()
    for name in FIRST_MOVE_STUDIES:
        config, rows = load_study(NOTEBOOKS / name)
        rules = Rules.from_dict(config.get("rules") or {})
        for row in random.Random(name).sample(rows, min(3, len(rows))):
            layout = Layout.from_text(row["layout"])
            values = {move: -1 for move in Board(layout, rules).legal_moves()}
            values |= {move: 0 for move in row["drawing_moves"]} | {move: 1 for move in row["winning_moves"]}
            for sym in SYMMETRY_NAMES:
                entry = book.probe(Board(layout.transform(sym), rules))
                expected = {SQUARE_NAMES[transform_square(parse_square(move), sym)]: v for move, v in values.items()}
                assert entry is not None and entry.first_moves == expected, (name, row["unit"], sym)


def test_the_book_command_counts_the_classes_with_first_moves(capsys):
    from donuts_ai.cli import main

    assert main(["book", "show"]) == 0
    shown = capsys.readouterr().out
    for variant in shipped_book().variants():
        count = shipped_book().value_counts(variant["rules"])["first_moves"]
        assert f"every first move's value for {count}\n" in shown


def test_extending_a_book_keeps_its_first_moves(first_move_book):
    book, rows = first_move_book
    win = rows[0]
    # Another study's row of the same class, without first moves, and one of a new class.
    solved = Solver(tt_bits=16, book=False).solve(Board(Layout.random(4), FIRST_RULES), distance=False)
    more = [{**{k: win[k] for k in ("layout", "value", "best_move")}, "distance": None},
            {"layout": Layout.random(4).to_text(), "value": solved.value, "best_move": solved.best_move, "distance": None}]
    extended = Book.from_rows(FIRST_RULES, more, {"study": "more"}, base=book)
    for seed in FIRST_SEEDS:
        board = Board(Layout.random(seed), FIRST_RULES)
        assert extended.probe(board) == book.probe(board)
    assert extended.value_counts(FIRST_RULES)["first_moves"] == 2
    assert extended.probe(Board(Layout.random(4), FIRST_RULES)).first_moves is None
    with pytest.raises(BookError, match="held with value 1 and given 0"):
        Book.from_rows(FIRST_RULES, [{**win, "value": 0, "best_move": win["drawing_moves"][0],
                                      "winning_moves": []}], {"study": "x"}, base=book)


def test_the_module_s_analyze_gives_a_shipped_book_board_s_first_moves_without_search():
    from donuts_ai import analyze

    _, rows = load_study(NOTEBOOKS / "study_first_moves_all.jsonl")
    board = Board(Layout.from_text(rows[-1]["layout"]).transform("rot270"))
    entry = shipped_book().probe(board)
    assert entry is not None and entry.first_moves is not None
    for threads in (1, 2):
        moves = analyze(board, threads=threads, distance=False)
        assert {m.move: m.value for m in moves} == entry.first_moves and all(m.distance is None for m in moves)
        solver = Solver(tt_bits=14, threads=threads)
        assert solver.analyze(board, distance=False) == moves and solver.nodes == 0


def test_a_lost_board_s_first_moves_all_lose():
    # A row with no winning and no drawing move: every first move loses (the book trusts its
    # study; no small-pool arrangement is lost, so the row is made up).
    layout = Layout.random(5)
    row = {"layout": layout.to_text(), "value": -1, "best_move": "c3", "distance": None,
           "winning_moves": [], "drawing_moves": []}
    book = Book.from_rows(FIRST_RULES, [row], {"study": "made up"})
    board = Board(layout.transform("flip"), FIRST_RULES)
    entry = book.probe(board)
    assert entry is not None and entry.value == -1
    assert entry.first_moves == {move: -1 for move in board.legal_moves()}
    solver = Solver(tt_bits=14, book=book)
    assert [m.value for m in solver.analyze(board, distance=False)] == [-1] * len(board.legal_moves())
    assert solver.nodes == 0
