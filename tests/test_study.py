from __future__ import annotations

import pytest

from donuts_ai import Layout
from donuts_ai.errors import DonutsError
from donuts_ai.study import canonical_text, run_study, study_layouts, summary
from donuts_ai.symmetry import SYMMETRY_NAMES
from donuts_ai.tournament import ResultsFileError


def test_symmetric_images_share_a_class():
    layout = Layout.random(3)
    assert {canonical_text(layout.transform(s)) for s in SYMMETRY_NAMES} == {canonical_text(layout)}
    # The four quarter turns of an arrangement are arrangements too: one class.
    turned = [layout.transform(s) for s in ("identity", "rot90", "rot180", "rot270")]
    assert len({canonical_text(x) for x in turned}) == 1


def test_layout_classes_carry_weights():
    units = study_layouts(arrangements=50, grids=5, seed=2)
    assert sum(u["weight"] for u in units) == 55
    assert {u["kind"] for u in units} == {"arrangement", "grid"}
    with pytest.raises(DonutsError, match="nothing to solve"):
        study_layouts()
    with pytest.raises(DonutsError, match="--arrangements"):
        study_layouts(arrangements=0)


def test_study_runs_resumes_and_summarises(tmp_path):
    path = tmp_path / "study.jsonl"
    config, units = run_study(grids=3, seed=4, results_path=str(path), workers=1)
    assert len(units) == 3 and all(u["value"] in (-1, 0, 1) for u in units)
    again = run_study(grids=3, seed=4, results_path=str(path), resume=True, workers=1)[1]
    assert [u["value"] for u in again] == [u["value"] for u in units]
    with pytest.raises(ResultsFileError, match="different study"):
        run_study(grids=3, seed=5, results_path=str(path), resume=True)
    with pytest.raises(ResultsFileError, match="exists"):
        run_study(grids=3, seed=4, results_path=str(path))
    s = summary(units)["grid"]
    assert s["layouts"] == 3 and s["first_player_wins"] + s["draws"] + s["second_player_wins"] == pytest.approx(1)
