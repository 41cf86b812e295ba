"""The learning benchmarks' timed figures are pyperf records too (issue 48):
``python -m benchmarks.gumbel`` (its speed measurement), ``benchmarks.teacher`` (the
labels, the self-play) and ``benchmarks.network_size --speed`` (evaluation, training step).

Each record's runs are made here as its ``--runs`` processes make them (the hidden run
option, two runs) but in this process, so that the network is loaded and compiled once,
and merged as the record's parent merges them; each script's module is the one its runs
are started as. The self-play session is a training run of minutes: its figures are built
from a made-up progress line. No speed is asserted (benchmarks are not tests): the
record's structure only, each figure with its 2 runs, its values (times > 0) and its unit
of work.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pyperf
import pytest

from donuts_ai.bench import record

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def script(monkeypatch) -> Callable[[str], ModuleType]:
    """``benchmarks.<name>`` imported from the checkout (as ``python -m`` runs it from its root)."""
    monkeypatch.syspath_prepend(str(ROOT))
    monkeypatch.chdir(ROOT)

    def load(name: str) -> ModuleType:
        module = importlib.import_module(f"benchmarks.{name}")
        spec = importlib.util.find_spec(module.MODULE)  # what its runs are started as
        assert spec is not None and Path(str(spec.origin)) == Path(str(module.__file__))
        return module

    return load


def two_runs(main: Callable[[list[str]], int], argv: list[str], folder: Path) -> pyperf.BenchmarkSuite:
    """``main(argv)`` as two runs of a record (:data:`record.RUN_OPTION`), merged into one."""
    suite = None
    for i in range(2):
        path = folder / f"run{i}.json"
        assert main([*argv, record.RUN_OPTION, str(path)]) == 0
        one = pyperf.BenchmarkSuite.load(str(path))
        if suite is None:
            suite = one
        else:
            suite.add_runs(one)
    assert suite is not None
    return suite


def checked(suite: pyperf.BenchmarkSuite, units: dict[str, str], values: dict[str, int]) -> None:
    """Every figure of ``suite`` and only those of ``units`` (name -> unit of work), in 2
    runs of ``values[name]`` times > 0 each."""
    assert sorted(suite.get_benchmark_names()) == sorted(units)
    for benchmark in suite:
        name = benchmark.get_name()
        assert benchmark.get_nrun() == 2 and benchmark.get_unit() == "second", name
        assert all(len(run.values) == values[name] for run in benchmark.get_runs()), name
        assert all(v > 0 and math.isfinite(v) for v in benchmark.get_values()), name
        assert record.work_unit(benchmark) == units[name], name


def test_gumbel_records_the_speed_of_every_search(script, tmp_path):
    gumbel = script("gumbel")
    suite = two_runs(gumbel.main, ["--only", "speed", "--games", "2", "--simulations", "4", "--repeats", "1", "--predictors", "dummy"],
                     tmp_path)
    names = [gumbel.speed_name(variant, "dummy", 2, 4) for variant, _, _ in gumbel.VARIANTS]
    checked(suite, dict.fromkeys(names, "simulation"), dict.fromkeys(names, 3))  # the dummy: 3 searches a repeat
    share = suite.get_benchmark(names[0]).get_runs()[0].get_metadata()["param_network_share"]
    assert 0 <= share <= 1  # a share, kept beside the times, not one of them
    printed = gumbel.speed_report(suite)
    assert "95% interval over runs" in printed and "| PUCT | dummy |" in printed and "network share" in printed


def test_teacher_records_the_labels_and_the_self_play(script, tmp_path):
    teacher = script("teacher")
    suite = two_runs(teacher.main, ["--label", "--games", "1", "--nodes", "300"], tmp_path)
    every, later = teacher.label_name(300), teacher.label_name(300, teacher.DEFAULT_MIN_PLY)
    positions = len(suite.get_benchmark(every).get_runs()[0].values)
    checked(suite, {every: "position", later: "position"},
            {every: positions, later: len(suite.get_benchmark(later).get_runs()[0].values)})
    meta = suite.get_benchmark(every).get_runs()[0].get_metadata()
    assert meta["run_statistic"] == "mean" and len(meta["param_settled"]) == positions
    printed = teacher.report(suite)
    assert "| plies | positions | value settled |" in printed and "nodes a position" in printed

    progress = {"moves": 10, "games": 2, "positions": 1200, "seconds": 5.0, "search_seconds": 1.0, "network_seconds": 3.0,
                "train_seconds": 0.5, "labelled": 600, "value_labels": 500, "policy_labels": 450, "label_wait_seconds": 0.2,
                "label_seconds": 2.0}
    runs = [record.suite_of(teacher.selfplay_figures("solver", 5000, 1, 0.1, 128, progress), "test", "test", 0.0) for _ in range(2)]
    runs[0].add_runs(runs[1])
    names = [teacher.selfplay_name("solver", 5000, 1, what) for what in ("searched", "into the buffer")]
    checked(runs[0], dict.fromkeys(names, "position"), dict.fromkeys(names, 1))
    assert runs[0].get_benchmark(names[0]).get_values()[0] == pytest.approx(5.0 / (10 * 128))
    assert "value settled 83.3%" in teacher.report(runs[0])
    assert teacher.selfplay_figures("none", 5000, 1, 0.1, 128, {**progress, "moves": 0, "positions": 0}) == []


def test_network_size_records_the_evaluation_and_the_training_step(script, tmp_path):
    network_size = script("network_size")
    suite = two_runs(network_size.main, ["--speed", "--sizes", "8x1", "--batch", "4", "--repeats", "2", "--steps", "1",
                                         "--batch-size", "8"], tmp_path)
    evaluation, step = network_size.evaluation_name("8x1", 4), network_size.step_name("8x1", 8)
    checked(suite, {evaluation: "position", step: "training step"}, {evaluation: 2, step: 1})
    assert suite.get_benchmark(evaluation).get_runs()[0].get_metadata()["param_weights"] > 0
    assert "network 8x1: " in network_size.speed_report(suite)
    # Each size's time over the default trunk's, derived from the stored times.
    made_up = record.suite_of([record.Figure(network_size.evaluation_name(size, 128), "position", [seconds])
                               for size, seconds in (("16x2", 1e-5), ("32x3", 2e-5))], "test", "test", 0.0)
    assert "evaluation time, 16x2 / 32x3" in network_size.speed_report(made_up)
