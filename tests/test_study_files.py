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
