from __future__ import annotations

import json

import pytest

from donuts_ai import Layout
from donuts_ai.donuts.symmetry import SYMMETRY_NAMES
from donuts_ai.errors import DonutsError
from donuts_ai.study import canonical_text, load_study, run_study, study_layouts, summary
from donuts_ai.tournament import ResultsFileError, verify_file
from donuts_ai.tournament.results import read_file


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


def test_first_moves_are_listed_and_agree_with_the_value(tmp_path):
    from donuts_ai import Board, Solver
    from donuts_ai.study import hardest, load_study, winning_move_counts

    path = tmp_path / "moves.jsonl"
    config, units = run_study(grids=2, seed=9, results_path=str(path), workers=1, first_moves=True)
    assert config["first_moves"] is True
    solver = Solver(tt_bits=16)
    for u in units:
        assert u["first_moves"] == 36
        assert (u["value"] == 1) == bool(u["winning_moves"])
        assert u["best_move"] in (u["winning_moves"] if u["value"] == 1 else u["drawing_moves"] or [u["best_move"]])
        board = Board(Layout.from_text(u["layout"]))
        for move in u["winning_moves"][:2]:
            assert solver.move_value(board, move) == 1
        losing = [m for m in board.legal_moves() if m not in u["winning_moves"] + u["drawing_moves"]]
        if losing:
            assert solver.move_value(board, losing[-1]) == -1
    loaded_config, loaded = load_study(path)
    assert loaded_config == config and [u["winning_moves"] for u in loaded] == [u["winning_moves"] for u in units]
    assert sum(winning_move_counts(units).values()) == 2
    assert hardest(units, 1)[0]["nodes"] == max(u["nodes"] for u in units)


def test_load_study_reads_gzip_and_rejects_other_files(tmp_path):
    import gzip

    from donuts_ai.study import load_study

    path = tmp_path / "s.jsonl"
    run_study(grids=1, seed=3, results_path=str(path), workers=1)
    packed = tmp_path / "s.jsonl.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    assert load_study(packed) == load_study(path)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "unit", "unit": 0}\n')
    with pytest.raises(DonutsError, match="no study's config line"):
        load_study(bad)
    bad.write_text("not json\n")
    with pytest.raises(DonutsError, match="line 1 is not JSON"):
        load_study(bad)
    bad.write_text("[1]\n")
    with pytest.raises(DonutsError, match="line 1 is not a JSON object"):
        load_study(bad)
    not_gzip = tmp_path / "plain.jsonl.gz"
    not_gzip.write_bytes(path.read_bytes())
    for unreadable in (not_gzip, tmp_path / "missing.jsonl"):  # (tracebacks before)
        with pytest.raises(DonutsError, match="cannot read the study file"):
            load_study(unreadable)


def test_a_study_under_a_rules_variant_records_and_uses_its_rules(tmp_path):
    from donuts_ai import Board, Rules, Solver

    path = tmp_path / "single.jsonl"
    config, units = run_study(grids=2, seed=6, results_path=str(path), workers=1, rules={"insertion": "single", "donuts": 12})
    assert config["rules"] == {"insertion": "single", "donuts": 12}
    solver = Solver(tt_bits=16)
    for u in units:
        board = Board(Layout.from_text(u["layout"]), Rules("single", 12))
        assert u["value"] == solver.solve(board, distance=False).value
    with pytest.raises(ResultsFileError, match="different study"):
        run_study(grids=2, seed=6, results_path=str(path), resume=True, rules={"insertion": "single", "donuts": 13})
    official = run_study(grids=1, seed=6, workers=1)[0]
    assert "rules" not in official  # official-rules files read as before


def test_a_resume_may_change_the_table_size_and_the_file_records_it(tmp_path):
    path = tmp_path / "study.jsonl"
    _, units = run_study(grids=2, seed=4, results_path=str(path), workers=1, tt_bits=14)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:-1]))  # stopped before its last unit
    _, again = run_study(grids=2, seed=4, results_path=str(path), resume=True, workers=1, tt_bits=15)
    assert [u["value"] for u in again] == [u["value"] for u in units]
    retuned = [json.loads(line) for line in path.read_text().splitlines() if '"retuned"' in line]
    assert retuned == [{"type": "retuned", "settings": {"tt_bits": 15}, "from": {"tt_bits": 14}, "after_units": 1}]
    assert read_file(str(path))[0]["tt_bits"] == 15  # the configuration as it is now
    assert [u["unit"] for u in load_study(path)[1]] == [0, 1]
    run_study(grids=2, seed=4, results_path=str(path), resume=True, workers=1, tt_bits=15)  # nothing new to record
    assert path.read_text().count('"retuned"') == 1
    with pytest.raises(ResultsFileError, match="differs in: seed"):  # a setting that changes answers still may not
        run_study(grids=2, seed=5, results_path=str(path), resume=True, tt_bits=14)
    with pytest.raises(DonutsError, match="tt_bits"):
        run_study(grids=2, seed=4, tt_bits=40)
    with pytest.raises(ResultsFileError, match="a study's results file"):  # no games to replay: one clear line
        verify_file(str(path))
