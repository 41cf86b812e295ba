"""The benchmark modules beside ``donuts-ai bench`` write pyperf records too (issue 48):
``python -m benchmarks.<name> ... --runs 2 --json FILE`` for kernels, harness,
time_use, search and interop, each at tiny sizes (a few seconds).

No speed is asserted (benchmarks are not tests): the record's structure only, each
figure with its 2 runs, its values (times > 0), its unit of work and its yardstick (none
for the timed moves, whose time the limit sets).
"""

from __future__ import annotations

import math
from pathlib import Path

import pyperf
import pytest

from benchmarks import harness, interop, kernels, search, time_use
from donuts_ai.bench import record


def checked(path: Path, work_units: set[str], time_limited: bool = False) -> pyperf.BenchmarkSuite:
    """The record at ``path``, every figure in 2 runs of times > 0 with a unit of work of
    ``work_units``, and its run's yardstick unless ``time_limited`` (then none)."""
    suite = pyperf.BenchmarkSuite.load(str(path))
    assert len(suite) > 0
    for benchmark in suite:
        assert benchmark.get_nrun() == 2, benchmark.get_name()
        assert benchmark.get_unit() == "second"
        assert all(v > 0 and math.isfinite(v) for v in benchmark.get_values()), benchmark.get_name()
        for run in benchmark.get_runs():
            assert run.get_metadata()[record.WORK_UNIT_KEY] in work_units, benchmark.get_name()
        # Every figure, timed by measure_work or by hand, has its run's yardstick: it normalises;
        # but a time a time limit sets is the same on any machine, and never normalised.
        assert (record.yardstick_rates(benchmark) is None) == time_limited, benchmark.get_name()
    return suite


def test_kernels_writes_a_record_of_both_kernels_on_both_clocks(tmp_path, capsys):
    path = tmp_path / "r.json"
    assert kernels.main(["--depth", "6", "--repeats", "2", "--runs", "2", "--json", str(path)]) == 0
    suite = checked(path, {"node"})
    assert sorted(suite.get_benchmark_names()) == sorted(kernels.figure_name(6, kernel, clock) for _, kernel, clock in kernels.FIGURES)
    assert all(b.get_nvalue() == 4 for b in suite)  # 2 runs of 2 repeats
    printed = capsys.readouterr().out
    assert "kernels / engine node rate, CPU clock" in printed and "kernels / engine node rate, wall clock" in printed


def test_harness_writes_a_record_of_its_overhead(tmp_path, capsys):
    path = tmp_path / "r.json"
    assert harness.main(["--games", "2", "--pairs", "0", "--runs", "2", "--json", str(path)]) == 0
    suite = checked(path, {"game"})
    assert suite.get_benchmark_names() == [harness.overhead_name(isolation) for isolation in harness.ISOLATIONS]
    assert "the agents' answers took" in capsys.readouterr().out


def test_harness_derives_the_speed_up_from_the_two_stored_tournament_times():
    one, two = harness.tournament_name(0.05, 8, 1), harness.tournament_name(0.05, 8, 2)
    suite = record.suite_of([record.Figure(one, "tournament", [3.0]), record.Figure(two, "tournament", [2.0])], "test", "test", 0.0)
    (name, ratio, _low, _high), = harness.speedups(suite)
    assert ratio == pytest.approx(1.5) and "2 workers / 1 worker" in name
    assert "1.5x" in harness.report(suite)


def test_time_use_writes_a_record_of_every_timed_move(tmp_path, capsys):
    path = tmp_path / "r.json"
    assert time_use.main(["--games", "1", "--time-limit", "0.005", "--runs", "2", "--json", str(path)]) == 0
    suite = checked(path, {"move"}, time_limited=True)
    assert len(suite) == 6  # alphabeta and mcts against greedy and random, and against each other
    for benchmark in suite:
        for run in benchmark.get_runs():
            kinds = run.get_metadata()["param_kinds"]
            assert len(kinds) == len(run.values) and set(kinds) <= {"s", "f", "p"}
    printed = capsys.readouterr().out
    assert "| alphabeta | all |" in printed and "searched moves (not forced, not proven)" in printed


def test_search_writes_a_record_of_its_timed_figures_only(tmp_path, capsys):
    path = tmp_path / "r.json"
    assert search.main(["--quick", "--skip-matches", "--runs", "2", "--json", str(path)]) == 0
    suite = checked(path, {"solve", "node", "iteration"})
    names = suite.get_benchmark_names()
    assert "solver, value of the empty random_grid(0)" in names
    assert search.mcts_name(50_000, 2) in names
    assert not any("greedy" in name or "agree" in name for name in names)  # the matches are not times
    solve = suite.get_benchmark("solver, value of the empty random_grid(0)").get_runs()[0].get_metadata()
    assert solve["param_value"] in ("win", "draw", "loss") and solve["param_nodes"] > 0
    assert "95% interval over runs" in capsys.readouterr().out


def test_interop_writes_a_record_of_search_and_environment_steps(tmp_path, capsys):
    pytest.importorskip("pettingzoo")
    path = tmp_path / "r.json"
    assert interop.main(["--quick", "--simulations", "20", "--env-seconds", "0.1", "--games", "0",
                         "--runs", "2", "--json", str(path)]) == 0
    suite = checked(path, {"simulation", "step"})
    names = suite.get_benchmark_names()
    assert "PettingZoo env" in names and "PettingZoo raw_env" in names
    if interop.has_openspiel():  # every bot at the same settings (tests/bench/test_interop.py)
        for searcher in interop.SEARCHERS:
            assert interop.figure_name(searcher, 0, 20) in names
        assert interop.figure_name(interop.CONNECT_FOUR_SEARCHER, 0, 20) in names
        printed = capsys.readouterr().out
        assert "our MCTS / OpenSpiel Python MCTSBot" in printed and "our MCTS / OpenSpiel C++ MCTSBot (Python game)" in printed


def test_search_records_the_exact_distance_and_the_naive_negamax_and_derives_the_speed_up():
    row: search.SolverTableRow = {"layout": "Layout.random_grid(3)", "seed": 3, "value": "win", "move": "a2", "value_s": 0.5,
                                  "value_nodes": 10, "distance": 21, "fastest_move": "b2", "full_s": 2.0, "full_nodes": 40,
                                  "naive_s": 50.0, "naive_nodes": 1000, "naive_finished": False}
    alphabeta = record.Figure("alpha-beta depth 10, 6 positions", "node", [1e-6], {"nodes": 5})
    mcts = [record.Figure(search.mcts_name(10, w), "iteration", [1e-5]) for w in (1, 2)]
    figures = search.speed_figures({"solver": {"rows": [row], "value_median_s": 0.5, "value_max_s": 0.5},
                                    "alphabeta": alphabeta, "mcts_1": mcts[0], "mcts_all": mcts[1]})
    assert [(f.name, f.work_unit, f.values) for f in figures[:3]] == [
        ("solver, value of the empty random_grid(3)", "solve", [0.5]),
        ("solver, value and distance of the empty random_grid(3)", "solve", [2.0]),
        (search.naive_name(3), "solve", [50.0])]
    assert figures[1].params["distance"] == 21 and figures[2].params["finished"] == "no"
    (name, ratio, _low, _high), = search.naive_speedups(record.suite_of(figures, "test", "test", 0.0))
    assert ratio == pytest.approx(100) and "random_grid(3)" in name and "at least" in name
