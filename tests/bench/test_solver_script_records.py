"""The solver and data scripts of ``benchmarks/`` write pyperf records too (issue 48):
``python -m benchmarks.<name> ... --runs 2 --json FILE`` for book_lookup, solver_tail,
time_to_exact and distill, each at tiny sizes (a few seconds); workers (Ray, minutes a
run) through its figures built from fabricated rows, starting no Ray.

No speed is asserted (benchmarks are not tests): the record's structure only, each
figure with its 2 runs, its values (times > 0) and its unit of work.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pyperf
import pytest

from donuts_ai.bench import record
from donuts_ai.errors import DonutsError
from donuts_ai.learn.dataset import read_dataset

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # the benchmarks package sits beside donuts_ai, not installed
    sys.path.insert(0, str(ROOT))

from benchmarks import book_lookup, distill, solver_tail, time_to_exact, workers  # noqa: E402


@pytest.fixture(autouse=True)
def _from_the_checkout(monkeypatch):
    """The runs are ``python -m benchmarks.<name>`` processes: started from the checkout."""
    monkeypatch.chdir(ROOT)


def checked(path: Path, work_units: set[str], runs: int = 2) -> pyperf.BenchmarkSuite:
    """The record at ``path``, every figure in ``runs`` runs of times > 0 with a unit of work of ``work_units``."""
    suite = pyperf.BenchmarkSuite.load(str(path))
    assert len(suite) > 0
    for benchmark in suite:
        assert benchmark.get_nrun() == runs, benchmark.get_name()
        assert benchmark.get_unit() == "second"
        assert all(v > 0 and math.isfinite(v) for v in benchmark.get_values()), benchmark.get_name()
        for run in benchmark.get_runs():
            assert run.get_metadata()[record.WORK_UNIT_KEY] in work_units, benchmark.get_name()
            assert run.get_metadata()["cpu_count"] >= 1  # the machine's metadata
    return suite


def test_book_lookup_writes_a_record_of_the_read_the_probes_and_the_solves(tmp_path, capsys):
    path = tmp_path / "r.json"
    assert book_lookup.main(["--count", "2", "--runs", "2", "--json", str(path)]) == 0
    suite = checked(path, {"read", "probe", "solve", "analyze"})
    studies = book_lookup.ARRANGEMENT_STUDIES
    assert suite.get_benchmark_names() == [book_lookup.READ_NAME, *(name for study in studies for name in
                                                                     (book_lookup.probe_name(study), book_lookup.solve_name(study))),
                                           *(book_lookup.analyze_name(study) for study in book_lookup.FIRST_MOVE_STUDIES)]
    assert suite.get_benchmark(book_lookup.READ_NAME).get_nvalue() == 2  # one read a run
    assert all(suite.get_benchmark(book_lookup.probe_name(study)).get_nvalue() == 4 for study in studies)  # 2 runs x 2
    printed = capsys.readouterr().out
    assert "reading the shipped book: median" in printed and f"{studies[0]}: 2 arrangements a run; probe median" in printed


def test_solver_tail_writes_a_record_and_compares_it_with_its_old_json(tmp_path, capsys):
    """The record keeps each layout's row; ``--compare`` reads the JSON the script wrote
    before the records (here one of its values made to differ: exit status 1) and its records."""
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"config": {"label": "old"}, "rows": [
        {"layout": "random_grid(0)", "value": 1, "distance": None, "move": "a1", "nodes": 10, "cpu_s": 0.5},
        {"layout": "random_grid(1)", "value": -1, "distance": None, "move": "a1", "nodes": 10, "cpu_s": 0.5, "wall_s": 0.5}]}))
    path = tmp_path / "r.json"
    assert solver_tail.main(["--count", "2", "--tt-bits", "12", "--label", "mine", "--runs", "2", "--json", str(path),
                             "--compare", str(old)]) == 1
    suite = checked(path, {"solve"})
    assert suite.get_benchmark_names() == [solver_tail.figure_name("value", "random", 2, 1, "group", clock)
                                           for _, clock in solver_tail.CLOCKS]
    assert all(b.get_nvalue() == 4 for b in suite)  # 2 runs x 2 layouts
    printed = capsys.readouterr().out
    assert "| old | " in printed and "| mine | " in printed and "values that differ from an earlier run: 1" in printed
    label, rows = solver_tail.load_run(str(path))
    assert label == "mine" and [r["layout"] for r in rows] == ["random_grid(0)", "random_grid(1)"]
    assert all(r["value"] == 1 and r["nodes"] > 0 and r["cpu_s"] > 0 and r["wall_s"] > 0 for r in rows)
    assert solver_tail.tables_text("mine", rows, [(label, rows)])[1] == 0  # a record compares with itself


def test_time_to_exact_writes_a_record_of_the_three_marks_of_each_ply(tmp_path, capsys):
    path = tmp_path / "r.json"
    assert time_to_exact.main(["--layouts", "1", "--plies", "20", "--threads", "1", "--clock", "cpu", "--runs", "2",
                               "--json", str(path)]) == 0
    suite = checked(path, {"position"})
    assert suite.get_benchmark_names() == [time_to_exact.figure_name(20, 1, mark, 1, "cpu") for _, mark in time_to_exact.MARKS]
    meta = suite.get_benchmarks()[0].get_runs()[0].get_metadata()
    assert meta["param_ply"] == 20 and meta["param_threads"] == 1 and int(meta["param_position_moves"]) > 0
    assert "| 20 | 1 | " in capsys.readouterr().out


def test_workers_figures_are_times_of_a_position_and_of_a_training_step_with_the_curve_beside():
    curve = [{"positions": 900, "train_steps": 20, "seconds": 15.0, "policy_loss": math.nan, "value_loss": 0.7},
             {"positions": 31795, "train_steps": 436, "seconds": 180.0, "policy_loss": 1.249, "value_loss": 0.592}]
    rows = [{"name": "one process", "workers": 0, "seconds": 180.0, "moves": 260, "positions_searched": 33280,
             "games": 1486, "positions": 31795, "train_steps": 436, "curve": curve},
            {"name": "ray, 2 worker(s)", "workers": 2, "seconds": 181.0, "moves": 210, "positions_searched": 53760,
             "games": 2248, "positions": 48100, "train_steps": 0, "curve": []}]
    figures = workers.figures_of(rows, 3.0)
    assert [(f.name, f.work_unit) for f in figures] == [
        (workers.searched_name("one process"), "position"), (workers.steps_name("one process"), "step"),
        (workers.searched_name("ray, 2 worker(s)"), "position")]  # no training step: no step figure
    assert figures[0].values == [pytest.approx(180.0 / 33280)] and figures[1].values == [pytest.approx(180.0 / 436)]
    suite = record.suite_of(figures, "test", "test", 0.0)
    (first, second), = workers.rows_of(suite)
    assert first["positions_searched"] == 33280 and first["curve"][1] == curve[1] and math.isnan(first["curve"][0]["policy_loss"])
    assert second["curve"] == []
    printed = workers.report(suite)
    assert "185 positions/s" in printed and "last losses policy 1.249 value 0.592" in printed and "| 31795 | 436 | 180 |" in printed
    with pytest.raises(DonutsError, match="nothing to record"):
        workers.figures_of([{**rows[1], "positions_searched": 0}], 3.0)


def test_distill_writes_a_record_and_one_dataset(tmp_path, capsys):
    out, path = tmp_path / "data", tmp_path / "r.json"
    assert distill.main(["--out", str(out), "--games", "2", "--games-per-shard", "1", "--runs", "2", "--json", str(path)]) == 0
    suite = checked(path, {"position"})
    assert suite.get_benchmark_names() == [distill.label_name(distill.DEFAULT_NODES), distill.wall_name(distill.DEFAULT_NODES)]
    assert all(b.get_nvalue() == 4 for b in suite)  # 2 runs x 2 shards
    meta = [run.get_metadata() for run in suite.get_benchmarks()[0].get_runs()]
    assert meta[0]["param_positions"] == meta[1]["param_positions"] == len(read_dataset(out)) > 0  # the same dataset twice
    assert "run 2: 2 games," in capsys.readouterr().out
    with pytest.raises(SystemExit):  # the dataset is there: a second --runs 2 into it is refused before any run
        distill.main(["--out", str(out), "--games", "2", "--runs", "2"])
