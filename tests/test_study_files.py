"""The committed whole-arrangement studies (``notebooks/study_all_arrangements*.jsonl.gz``):
complete, well-formed, and right on a seeded sample of classes re-solved here."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from donuts_ai import Board, Layout, Solver
from donuts_ai.donuts.layout import NUM_ARRANGEMENTS
from donuts_ai.donuts.rules import make_rules
from donuts_ai.study import canonical_text, load_study

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
#: Each committed study, and whether it covers every class (a variant still being solved
#: is committed as it stands and resumed with ``--resume``).
STUDIES = {
    "study_all_arrangements.jsonl.gz": None,
    "study_all_arrangements_donuts18.jsonl.gz": {"insertion": "group", "donuts": 18},
    "study_all_arrangements_single.jsonl.gz": {"insertion": "single", "donuts": 15},
}
#: Classes re-solved per file (from the cheaper half, so the suite stays quick: the file's
#: node counts say which).
SAMPLE = 4
CLASSES = 24_576


@cache
def _study(name):
    """A committed study's (config, units), read once for every test here."""
    return load_study(NOTEBOOKS / name)


@pytest.mark.parametrize("name", [n for n in STUDIES if (NOTEBOOKS / n).exists()])
def test_a_committed_study_is_well_formed_and_right_on_a_sample(name):
    config, units = _study(name)
    assert config.get("rules") == STUDIES[name] and config["arrangements"] == "all" and not config["distance"]
    numbers = [u["unit"] for u in units]
    assert len(set(numbers)) == len(numbers) and all(0 <= n < CLASSES for n in numbers)
    if len(units) == CLASSES:
        assert sum(u["weight"] for u in units) == NUM_ARRANGEMENTS
    rng = random.Random(name)
    cheap = sorted(units, key=lambda u: u["nodes"])[: max(1, len(units) // 2)]
    # The value by the two-thread portfolio (its searches on one shared table), the file's
    # move checked by the one-thread search: both must agree with what the study found.
    solver, parallel, rules = Solver(tt_bits=18), Solver(tt_bits=18, threads=2), make_rules(config.get("rules"))
    for u in rng.sample(cheap, min(SAMPLE, len(cheap))):
        layout = Layout.from_text(u["layout"])
        assert canonical_text(layout) == u["layout"]
        board = Board(layout, rules)
        assert parallel.solve(board, distance=False).value == u["value"], u["unit"]
        assert solver.move_value(board, u["best_move"]) == u["value"]
        solver.clear()
        parallel.clear()


@pytest.mark.parametrize("name", [n for n in STUDIES if (NOTEBOOKS / n).exists()])
def test_the_cheapest_class_that_is_not_a_first_player_win_is_re_solved(name):
    # The sample above comes from the cheap half, where every class is a first-player
    # win; a draw (or a loss) is the finding that most needs checking, so the cheapest
    # such class of each file is re-solved too (some seconds).
    config, units = _study(name)
    others = [u for u in units if u["value"] != 1]
    if not others:
        pytest.skip(f"{name}: every class a first-player win")
    u = min(others, key=lambda u: u["nodes"])
    board = Board(Layout.from_text(u["layout"]), make_rules(config.get("rules")))
    solver = Solver(tt_bits=18)
    assert solver.solve(board, distance=False).value == u["value"], u["unit"]
    assert solver.move_value(board, u["best_move"]) == u["value"], u["unit"]


# --- a study with every first move's value (issue 60) ----------------------------------


@pytest.mark.parametrize("seed", [2, 1])
def test_a_first_move_unit_takes_its_value_from_its_best_first_move(seed):
    """With ``first_moves`` the unit's value is its best first move's (no search of the board
    itself: the nodes are the first moves' proofs alone), its move one of that value, and its
    winning and drawing moves the solver's."""
    from donuts_ai.donuts.rules import Rules
    from donuts_ai.study import solve_unit

    layout = Layout.random(seed)
    unit = {"unit": 0, "layout": canonical_text(layout), "weight": 1, "kind": "arrangement"}
    config = {"study": "first-player", "arrangements": 1, "grids": None, "seed": 0, "distance": False, "tt_bits": 16,
              "first_moves": True, "rules": {"donuts": 6}}
    row = solve_unit(config, unit)
    board = Board(Layout.from_text(unit["layout"]), Rules(donuts=6))
    solver = Solver(tt_bits=16, book=False)
    values = solver.move_values(board)
    assert row["value"] == max(values.values()) == solver.solve(board, distance=False).value
    assert values[row["best_move"]] == row["value"] and row["distance"] is None
    assert row["winning_moves"] == [m for m, v in values.items() if v == 1]
    assert row["drawing_moves"] == [m for m, v in values.items() if v == 0]
    assert row["first_moves"] == len(values) == len(board.legal_moves())
    fresh = Solver(tt_bits=16, book=False)
    fresh.move_values(board)
    assert row["nodes"] == fresh.nodes  # the first moves' proofs, nothing more
    # With the distance the board is solved too: the same value and moves, a distance.
    with_distance = solve_unit({**config, "distance": True}, unit)
    assert with_distance["value"] == row["value"] and with_distance["distance"] is not None
    assert (with_distance["winning_moves"], with_distance["drawing_moves"]) == (row["winning_moves"], row["drawing_moves"])
    assert values[with_distance["best_move"]] == row["value"]


FIRST_MOVE_STUDIES = {
    "study_first_moves.jsonl": None,
    "study_first_moves_all.jsonl": None,
    "study_first_moves_all_donuts18.jsonl": {"insertion": "group", "donuts": 18},
    "study_first_moves_all_single.jsonl": {"insertion": "single", "donuts": 15},
}


@pytest.mark.parametrize("name", FIRST_MOVE_STUDIES)
def test_a_committed_first_move_study_is_well_formed(name):
    """Each row's value is its best first move's, its move one of them, and its winning and
    drawing moves legal, distinct and apart (every other first move loses)."""
    config, units = _study(name)
    assert config.get("rules") == FIRST_MOVE_STUDIES[name] and config["first_moves"] and not config["distance"]
    numbers = [u["unit"] for u in units]
    assert units and len(set(numbers)) == len(numbers) and all(0 <= n < CLASSES for n in numbers)
    rules = make_rules(config.get("rules"))
    for u in units:
        legal = set(Board(Layout.from_text(u["layout"]), rules).legal_moves())
        won, drawn = u["winning_moves"], u["drawing_moves"]
        assert len(set(won) | set(drawn)) == len(won) + len(drawn) and set(won) | set(drawn) <= legal, u["unit"]
        assert u["value"] == (1 if won else 0 if drawn else -1) and u["first_moves"] == len(legal), u["unit"]
        assert u["best_move"] in (won if u["value"] == 1 else drawn if u["value"] == 0 else legal), u["unit"]
        assert canonical_text(Layout.from_text(u["layout"])) == u["layout"] or config["arrangements"] != "all"
