"""Speed records (issue 48): ``donuts-ai bench --json`` writes pyperf's format, ``bench
compare`` tells a change from the noise between runs, ``benchmarks.compare`` runs two
versions side by side, and the published tables are what their records say.

No speed is asserted anywhere (benchmarks are not tests): the records' structure, the
statistics on made-up values with a known truth, and the verdicts on copies whose times
were changed by a known factor.
"""

from __future__ import annotations

import importlib.metadata
import json
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pyperf
import pytest

import benchmarks.compare as side_by_side
import benchmarks.tables as published
from donuts_ai.bench import compare, record, tables, yardstick
from donuts_ai.bench.engine import GROUPS, measured_groups
from donuts_ai.bench.engine import main as bench_main
from donuts_ai.errors import DonutsError

ROOT = Path(__file__).resolve().parents[2]


def make_suite(figures: dict[str, list[list[float]]], machine: str = "CPU A", rounds: bool = False) -> pyperf.BenchmarkSuite:
    """A record of made-up values: figure -> runs -> seconds per unit."""
    benchmarks = []
    for name, runs in figures.items():
        meta = {"name": name, "unit": "second", "work_unit": "playout", "cpu_model_name": machine, "cpu_count": 2,
                "hostname": "host-" + machine}
        benchmarks.append(pyperf.Benchmark([pyperf.Run(values, metadata={**meta, **({"round": i + 1} if rounds else {})},
                                                       collect_metadata=False) for i, values in enumerate(runs)]))
    return pyperf.BenchmarkSuite(benchmarks)


def scaled(suite: pyperf.BenchmarkSuite, factor: float) -> pyperf.BenchmarkSuite:
    """``suite`` with every time multiplied by ``factor``."""
    return pyperf.BenchmarkSuite([pyperf.Benchmark([pyperf.Run([v * factor for v in run.values], metadata=run.get_metadata(),
                                                               collect_metadata=False) for run in b.get_runs()])
                                  for b in suite])


#: The groups of the module's record: every kind of figure (one core, all cores, a solve) at
#: a few seconds a run; the other groups' figures are made by the same
#: ``measure_work`` (tests/warm_kernels.py runs every group once).
RECORD_GROUPS = ("playouts", "perft", "solver")


@pytest.fixture(scope="module")
def quick_record(tmp_path_factory) -> Path:
    """``donuts-ai bench --quick --json`` once for the module, some groups, 2 independent runs."""
    path = tmp_path_factory.mktemp("bench") / "a.json"
    only = [f"--only={group}" for group in RECORD_GROUPS]
    proc = subprocess.run([sys.executable, "-m", "donuts_ai", "bench", "--quick", *only, "--runs", "2", "--json", str(path)],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    assert "random playouts, 1 core" in proc.stdout and "95% interval over runs" in proc.stdout
    assert "normalised" in proc.stdout and "CPU a thread" in proc.stdout
    return path


def test_a_quick_record_is_pyperf_json_with_runs_values_and_metadata(quick_record):
    suite = pyperf.BenchmarkSuite.load(str(quick_record))
    names = suite.get_benchmark_names()
    for expected in ("random playouts, 1 core", "random playouts, all cores", "perft depth 6",
                     "solver, value of the empty random_grid(0)"):
        assert expected in names
    for benchmark in suite:
        assert benchmark.get_nrun() == 2 and benchmark.get_nvalue() >= 2, benchmark.get_name()
        assert benchmark.get_unit() == "second" and all(v > 0 for v in benchmark.get_values())
        assert record.work_unit(benchmark) != "unit"
        for run in benchmark.get_runs():
            meta = run.get_metadata()
            for key in ("cpu_model_name", "cpu_count", "load_avg_1min", "python_version", "donuts_ai_version", "numba_version",
                        "numpy_version", "numba_threads", "bench_settings", "load_before", "load_after", "platform",
                        "loops", "calls", "duration", record.CPU_SECONDS_KEY, record.WALL_SECONDS_KEY, record.THREADS_KEY,
                        yardstick.RATE_KEY, yardstick.VERSION_KEY):
                assert key in meta, (benchmark.get_name(), key)
            assert meta["bench_settings"].startswith("quick")
            assert not meta["donuts_ai_version"].startswith("unknown")
            # pyperf's meaning: a value times the loops is the raw time of a repeat, after warm-ups.
            assert run.warmups and meta["loops"] >= 1 and meta["duration"] > 0
            assert meta[yardstick.VERSION_KEY] == yardstick.VERSION and meta[yardstick.RATE_KEY] > 0
        threads = benchmark.get_runs()[0].get_metadata()[record.THREADS_KEY]
        assert threads == (os.cpu_count() if benchmark.get_name().endswith("all cores") else 1)
    # The 1 ms floor of pyperf check: a perft repeat of a few calls, a value a leaf.
    perft_run = suite.get_benchmark("perft depth 6").get_runs()[0]
    assert perft_run.get_metadata()["loops"] == 60207 * perft_run.get_metadata()["calls"]
    perft = suite.get_benchmark("perft depth 6")
    assert perft.get_runs()[0].get_metadata()["param_leaves"] == 60207  # depth 6 of the standard layout, as the reference counts
    # The commit where the package sits in a git checkout (as in CI's clone).
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode == 0:
        assert len(record.metadata_values(suite, "git_commit")[0]) == 40
        assert record.metadata_values(suite, "git_dirty")[0] in ("yes", "no")
    # pyperf's own tools read it; its total duration is the runs' time, not the sum of the values.
    for args in (["stats", str(quick_record)], ["compare_to", str(quick_record), str(quick_record)],
                 ["check", str(quick_record)]):
        proc = subprocess.run([sys.executable, "-m", "pyperf", *args], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
    raw = sum(v * run.get_metadata()["loops"] for b in suite for run in b.get_runs() for v in run.values)
    assert sum(b.get_total_duration() for b in suite) > raw


def test_a_record_compared_with_itself_or_with_its_times_doubled(tmp_path, capsys):
    rng = np.random.default_rng(3)
    suite = make_suite({f"figure {i}": [list(np.exp(rng.normal(0, 0.01, 3)) * 1e-6 * (1 + i)) for _ in range(3)]
                        for i in range(5)})
    rows = compare.compare_figures(suite, suite)
    assert rows and all(r.verdict == "same" and r.speed == 1 for r in rows)
    original, doubled = tmp_path / "a.json", tmp_path / "doubled.json"
    suite.dump(str(original))
    scaled(suite, 2.0).dump(str(doubled))
    assert bench_main(["compare", str(original), str(doubled)]) == 0
    printed = capsys.readouterr().out
    assert "0 faster, 5 slower" in printed and "detects" in printed and "family-wise over 5 figures (Holm)" in printed
    halved = compare.compare_figures(suite, scaled(suite, 2.0))
    assert all(math.isclose(r.speed, 0.5) and r.verdict == "slower" for r in halved)
    assert bench_main(["compare", str(original), str(doubled), "--fail-slower", "10"]) == 1
    assert bench_main(["compare", str(doubled), str(original), "--fail-slower", "10"]) == 0  # faster never fails


def test_the_derived_ratios_come_from_the_stored_times(quick_record):
    from donuts_ai.bench.tables import derived_ratios

    suite = record.load(quick_record)
    ratios = {name: ratio for name, ratio, _, _ in derived_ratios(suite)}
    one = compare.rate(suite.get_benchmark("random playouts, 1 core"))
    every = compare.rate(suite.get_benchmark("random playouts, all cores"))
    # Paired by run (one process measured both): the geometric mean of the runs' ratios.
    assert ratios["all cores / 1 core (playouts)"] == pytest.approx(every / one, rel=0.5)
    assert all(ratio > 0 for ratio in ratios.values())


def test_peer_ratios_pair_the_generic_mcts_with_its_peer_on_the_same_game_and_settings():
    # The committed record of benchmarks/generic_search.py: one ratio per game, from the paired runs.
    suite = record.load(ROOT / "benchmarks" / "records" / "generic-search.json")
    ratios = {name: (ratio, low, high) for name, ratio, low, high in tables.peer_ratios(suite)}
    assert sorted(ratios) == ["generic-mcts / OpenSpiel Python MCTSBot, connect-four-python, 2,000 simulations",
                              "generic-mcts / OpenSpiel Python MCTSBot, tic-tac-toe, 2,000 simulations"]
    rate = {b.get_name(): compare.rate(b) for b in suite}
    ours, theirs = (rate[f"{bot}, connect-four-python, empty board: 2,000 simulations a search"]
                    for bot in ("generic-mcts", "openspiel-python"))
    ratio, low, high = ratios["generic-mcts / OpenSpiel Python MCTSBot, connect-four-python, 2,000 simulations"]
    assert low <= ratio <= high and ratio == pytest.approx(ours / theirs, rel=0.5)


def test_t_quantiles_match_the_tables():
    for df, expected in ((1, 12.706), (2, 4.303), (4, 2.776), (10, 2.228), (30, 2.042), (2.5, 3.575)):
        assert compare.t_quantile(0.975, df) == pytest.approx(expected, abs=2e-3)
    assert compare.t_quantile(0.975, 10**6) == pytest.approx(1.960, abs=1e-3)


def test_the_interval_holds_the_truth_about_as_often_as_it_says():
    """Records of made-up lognormal runs with a drift per run (the noise between processes)
    and a smaller spread within a run: over 20 figures of one truth, some figure is called
    faster or slower in about 5% of comparisons at most (the intervals are family-wise);
    a true 40% slowdown of one of them is called slower in most (5 runs a side)."""
    rng = np.random.default_rng(7)

    def draw(slowdown: float, figures: int = 20, runs: int = 5, drift: float = 0.03) -> pyperf.BenchmarkSuite:
        return make_suite({f"figure {f}": [list(np.exp(math.log(slowdown if f == 0 else 1.0) + rng.normal(0, drift)
                                                       + rng.normal(0, 0.005, 3)) * 1e-6) for _ in range(runs)]
                           for f in range(figures)})

    called = [any(r.verdict in ("faster", "slower") for r in compare.compare_figures(draw(1.0), draw(1.0)))
              for _ in range(50)]
    assert sum(called) <= 4
    slower = [compare.compare_figures(draw(1.0), draw(1.4))[0].verdict for _ in range(30)]
    assert sum(v == "slower" for v in slower) >= 0.6 * len(slower) and "faster" not in slower
    # One run a side: the interval comes from the values within a run, and says so.
    one = compare.compare_figures(make_suite({"f": [[1.0, 1.1, 0.9]]}), make_suite({"f": [[2.0, 2.1, 1.9]]}))[0]
    assert one.basis == "values" and one.verdict == "slower"


def test_holm_tests_the_clearest_first_and_stops_at_the_first_it_keeps():
    levels = compare.holm_levels([0.03, 0.001, 0.04, 0.5])
    assert levels[1] == pytest.approx(0.05 / 4)  # rejected at 5% over 4
    assert levels[0] == levels[2] == levels[3] == pytest.approx(0.05 / 3)  # 0.03 > 0.05/3: it stops there
    assert compare.holm_levels([0.001, 0.002, 0.003]) == pytest.approx([0.05 / 3, 0.05 / 2, 0.05])
    assert compare.holm_levels([]) == []


def test_no_difference_only_within_the_margin_and_inconclusive_says_how_many_more_runs():
    tight = make_suite({"f": [[1e-6 * (1 + e)] * 3 for e in (0.0, 0.004, -0.004, 0.002)]})
    wide = make_suite({"f": [[1e-6 * (1 + e)] * 3 for e in (0.0, 0.2, -0.15, 0.1)]})
    same = compare.compare_figures(tight, tight)[0]
    assert same.verdict == "same" and 0 < same.detectable < 0.1 and same.more_runs is None
    unsure = compare.compare_figures(tight, wide)[0]
    assert unsure.verdict == "inconclusive" and unsure.more_runs is not None and unsure.more_runs >= 1
    assert unsure.detectable > 0.10  # the change it could have caught is wider than the margin
    assert compare.compare_figures(tight, wide, margin=5.0)[0].verdict == "same"  # a margin of 500% holds it
    # A small steady change: slower, but a change under --min-change is not called.
    slow = scaled(tight, 1.05)
    assert compare.compare_figures(tight, slow)[0].verdict == "slower"
    assert compare.compare_figures(tight, slow, min_change=0.10)[0].verdict == "same"
    text = compare.verdict_text(unsure)
    assert text.startswith("inconclusive: ~") and "more run" in text
    # The runs it says would decide it: the half-width shrinks as one over the root of the runs.
    interval = compare.LogInterval(0.0, -0.2, 0.2, "runs", (4, 4), 0.05, 6.0)
    assert compare.more_runs_needed(interval, 0.10) == math.ceil(4 * (0.2 / math.log1p(0.10)) ** 2) - 4


def starved_suite(shares: list[float]) -> pyperf.BenchmarkSuite:
    """A one-figure record whose runs got ``shares`` of their wall time as CPU time, on one thread."""
    suite = make_suite({"f": [[1e-6] * 3 for _ in shares]})
    runs = [pyperf.Run(run.values, metadata={**run.get_metadata(), record.CPU_SECONDS_KEY: share,
                                             record.WALL_SECONDS_KEY: 1.0, record.THREADS_KEY: 1},
                       collect_metadata=False) for run, share in zip(suite.get_benchmark("f").get_runs(), shares, strict=True)]
    return pyperf.BenchmarkSuite([pyperf.Benchmark(runs)])


def test_a_figure_starved_of_cpu_time_gets_no_verdict():
    fed, starved = starved_suite([0.99, 0.97, 1.0]), starved_suite([0.99, 0.5, 1.0])
    assert not record.starved(fed.get_benchmark("f")) and record.starved(starved.get_benchmark("f"))
    assert compare.compare_figures(fed, fed)[0].verdict == "same"
    row = compare.compare_figures(fed, scaled(starved, 2.0))[0]
    assert row.verdict == "starved" and "starved" in compare.summary_text([row])
    assert "STARVED" in tables.record_text(starved) and "97%" in tables.record_text(fed)
    # Contention read from /proc/stat: over one second, 1.5 cores busy, 0.5 of them this
    # process's, and a tenth of a core stolen by the hypervisor.
    ticks, cores = record._CLOCK_TICKS, os.cpu_count() or 1
    before = dict.fromkeys(record.PROC_STAT_FIELDS, 1000)
    after = {**before, "user": 1000 + round(1.5 * ticks), "steal": 1000 + round(0.1 * ticks),
             "idle": 1000 + round((cores - 1.6) * ticks)}
    if cores >= 2:
        others, steal = record.machine_use(before, after, own_cpu_seconds=0.5)
        assert others == pytest.approx(1.0, abs=0.02) and steal == pytest.approx(0.1 / cores, abs=0.01)
    assert record.machine_use(None, after, 0.0) == (None, None)
    assert "other processes are using 1.5 of 2 cores" in record.busy_warning(0.0, cores=2, others=1.5)
    assert record.busy_warning(5.0, cores=2, others=0.1) is None  # the load average is not read when /proc/stat is


def test_rounds_run_side_by_side_are_compared_pair_by_pair():
    # A drift shared by both sides in each round (the machine got busier) cancels in the pairs.
    drift = [1.0, 1.3, 0.8, 1.2]
    old = make_suite({"f": [[d * 1e-6] * 2 for d in drift]}, rounds=True)
    new = make_suite({"f": [[d * 1.05e-6] * 2 for d in drift]}, rounds=True)
    row = compare.compare_figures(old, new)[0]
    assert row.basis == "pairs" and row.verdict == "slower" and row.speed == pytest.approx(1 / 1.05)
    unpaired = compare.compare_figures(make_suite({"f": [[d * 1e-6] * 2 for d in drift]}),
                                       make_suite({"f": [[d * 1.05e-6] * 2 for d in drift]}))[0]
    assert unpaired.basis == "runs" and unpaired.verdict == "inconclusive"  # the drift hides it without the pairs


def test_a_record_from_before_0_5_is_read_as_one_run_of_medians(tmp_path):
    legacy = {"machine": {"cpu": "Old CPU", "cores": 2, "python": "3.11.7", "numba": "0.68.1", "numpy": "2.4.6"},
              "quick": True, "playouts_1core": {"median": 1e6, "min": 9e5, "max": 1.1e6, "repeats": 3},
              "perft": {"depth": 6, "leaves": 60207, "median": 1e8, "min": 1e8, "max": 1e8, "repeats": 3},
              "solver": {"distance": False, "rows": [{"layout": "random_grid(0)", "seconds": 0.02}]}}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(legacy))
    suite = record.load(path)
    assert suite.get_benchmark_names() == ["random playouts, 1 core", "perft depth 6", "solver, value of the empty random_grid(0)"]
    assert suite.get_benchmark("random playouts, 1 core").get_values() == (1e-6,)
    assert "Old CPU" in record.machine_text(suite)


@pytest.mark.parametrize(("content", "message"), [(None, "cannot read"), ("{", "not JSON"), ("[1]", "not a speed record"),
                                                   ('{"a": 1}', "neither a pyperf record"),
                                                   ('{"version": "1.0", "benchmarks": [{}]}', "damaged pyperf record"),
                                                   ('{"version": "1.0", "metadata": {}, "benchmarks": [{"runs": "x"}]}',
                                                    "damaged pyperf record")])  # (pyperf raised AttributeError)
def test_bad_records_are_refused_in_one_line(tmp_path, content, message):
    path = tmp_path / "r.json"
    if content is not None:
        path.write_text(content)
    proc = subprocess.run([sys.executable, "-m", "donuts_ai", "bench", "compare", str(path), str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and message in proc.stderr, proc.stderr


@pytest.mark.parametrize("args", [["--runs", "0"], ["--only", "nonsense"], ["compare", "a.json"],
                                  ["compare", "a", "b", "--fail-slower", "-3"]])
def test_bad_bench_options_exit_2_before_any_run(args, capsys):
    with pytest.raises(SystemExit) as exc:
        bench_main(args)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("donuts-ai") and ": error: " in err and err.count("\n") == 1, err  # one line, as every command's


def test_the_load_is_warned_about_above_cores_minus_one():
    assert record.busy_warning(3.4, cores=2) is not None and "3.40" in record.busy_warning(3.4, cores=2)
    assert record.busy_warning(0.9, cores=2) is None


def test_quick_leaves_out_start_up_times_unless_they_are_asked_for():
    assert "startup" in measured_groups() and "startup" not in measured_groups(quick=True)
    assert measured_groups(quick=True, only=["startup"]) == {"startup"}  # named: measured, --quick or not
    assert measured_groups(only=["mcts", "startup"], startup=False) == {"mcts"}
    with pytest.raises(DonutsError, match="unknown figure group 'chess'"):
        measured_groups(only=["chess"])


def test_every_group_is_named_in_the_help():
    parser_help = subprocess.run([sys.executable, "-m", "donuts_ai.bench", "--help"], capture_output=True, text=True).stdout
    for group in GROUPS:
        assert group in parser_help


STUB_BENCH = '''
import argparse, hashlib, math, random
import pyperf
#: A unit of work's time, and the factor a planted slowdown multiplies it by.
SECONDS, SLOWDOWN = 1e-6, {slowdown}
parser = argparse.ArgumentParser()
parser.add_argument("--quick", action="store_true")
parser.add_argument("--runs", type=int, default=1)
parser.add_argument("--json")
args = parser.parse_args()
# Made-up times, not measured ones: a 1% spread drawn from a seed named by the record's
# file (its side and round), so the verdicts are the statistics' alone, on any machine.
rng = random.Random(hashlib.sha256(args.json.rsplit("/", 1)[-1].encode()).hexdigest())
drift = rng.gauss(0, 0.01)
values = [SECONDS * SLOWDOWN * math.exp(drift + rng.gauss(0, 0.002)) for _ in range(5)]
run = pyperf.Run(values, metadata={{"name": "loop", "unit": "second", "work_unit": "loop"}})
pyperf.BenchmarkSuite([pyperf.Benchmark([run])]).dump(args.json, replace=True)
'''


def stub_tree(folder: Path, slowdown: float) -> Path:
    """A tree whose ``python -m donuts_ai.bench`` writes made-up times, ``slowdown`` times longer."""
    bench = folder / "donuts_ai" / "bench"
    bench.mkdir(parents=True)
    (folder / "donuts_ai" / "__init__.py").write_text("")
    (bench / "__init__.py").write_text("")
    (bench / "__main__.py").write_text(textwrap.dedent(STUB_BENCH.format(slowdown=slowdown)))
    return folder


def test_side_by_side_stops_once_decided_calls_copies_the_same_and_finds_a_planted_slowdown(tmp_path, capsys):
    # The mechanics (trees, rounds, alternation, early stop, records) on made-up times: the
    # verdicts on real timings are the benchmarks' to show (docs/howto/speed.md), never a test's.
    base = stub_tree(tmp_path / "base", 1.0)
    copy = stub_tree(tmp_path / "copy", 1.0)
    slow = stub_tree(tmp_path / "slow", 1.10)
    assert side_by_side.main([str(base), str(copy), "--rounds", "8", "--out", str(tmp_path / "same"),
                              "--fail-slower", "0"]) == 0
    captured = capsys.readouterr()
    assert "no difference (within ±10%)" in captured.out and "over rounds run side by side (3 and 3)" in captured.out
    assert "every figure decided after 3 rounds: stopping" in captured.err
    assert side_by_side.main([str(base), str(slow), "--rounds", "8", "--out", str(tmp_path / "slow"),
                              "--fail-slower", "0"]) == 1
    slower = capsys.readouterr().out
    assert "slower" in slower.split("loop", 1)[1].splitlines()[0]
    # The records it kept are pyperf's, numbered by round, each side in its own Numba cache.
    old = pyperf.BenchmarkSuite.load(str(tmp_path / "slow" / "old.json"))
    rounds = [run.get_metadata()["round"] for run in old.get_benchmark("loop").get_runs()]
    assert rounds == list(range(1, len(rounds) + 1)) and 3 <= len(rounds) <= 8
    row = compare.compare_figures(record.load(tmp_path / "slow" / "old.json"), record.load(tmp_path / "slow" / "new.json"))[0]
    assert row.verdict == "slower" and row.speed == pytest.approx(1 / 1.10, rel=0.03)
    # A margin narrower than the noise leaves it undecided: it goes on to --rounds.
    assert side_by_side.main([str(base), str(copy), "--rounds", "4", "--margin", "0.1", "--out", str(tmp_path / "m")]) == 0
    captured = capsys.readouterr()
    assert "inconclusive" in captured.out and "stopping" not in captured.err and "(4 and 4)" in captured.out


def test_records_of_two_machines_compare_their_figures_normalised_by_the_yardstick(tmp_path, capsys):
    """Machine B runs everything, the yardstick included, 1.5 times as fast: normalised, the
    code is the same; as measured, B is faster. Records without the yardstick stay as measured."""
    def on(machine: str, speed: float) -> pyperf.BenchmarkSuite:
        suite = make_suite({"f": [[1e-6 / speed * (1 + e)] * 3 for e in (0.0, 0.003, -0.003)]}, machine=machine)
        return pyperf.BenchmarkSuite([pyperf.Benchmark([
            pyperf.Run(run.values, metadata={**run.get_metadata(), yardstick.RATE_KEY: 1e8 * speed,
                                             yardstick.VERSION_KEY: yardstick.VERSION}, collect_metadata=False)
            for run in b.get_runs()]) for b in suite])

    a, b = on("CPU A", 1.0), on("CPU B", 1.5)
    row = compare.compare_figures(a, b)[0]
    assert row.normalised and row.verdict == "same" and row.speed == pytest.approx(1.0)
    measured = compare.compare_figures(a, b, normalised=False)[0]
    assert not measured.normalised and measured.verdict == "faster" and measured.speed == pytest.approx(1.5)
    text = compare.report(a, b, [row])
    assert "CPU A" in text and "CPU B" in text and "normalised by the yardstick" in text
    assert "yardstick 150.0 M steps/s" in record.machine_text(b)
    a.dump(str(tmp_path / "a.json"))
    b.dump(str(tmp_path / "b.json"))
    assert bench_main(["compare", str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--absolute"]) == 0
    assert "each ratio is across machines" in capsys.readouterr().out
    # Without the yardstick: as measured, and said to be across machines.
    old, new = make_suite({"f": [[1e-6], [1.1e-6]]}, machine="CPU A"), make_suite({"f": [[1e-6], [1.1e-6]]}, machine="CPU B")
    text = compare.report(old, new, compare.compare_figures(old, new))
    assert "across machines" in text and "cannot be normalised" in text
    assert "across machines" not in compare.report(old, old, compare.compare_figures(old, old))
    # A figure a record holds without the yardstick (g on both sides, h on one) is compared as
    # measured, the others still normalised.
    def bare(machine: str, names: str) -> list[pyperf.Benchmark]:
        return list(make_suite({name: [[2e-6], [2e-6]] for name in names}, machine=machine))

    with_h = [b for b in on("CPU A", 1.0) if b.get_name() == "f"]
    h_measured = pyperf.Benchmark([pyperf.Run(r.values, metadata={**r.get_metadata(), "name": "h"}, collect_metadata=False)
                                   for r in with_h[0].get_runs()])
    mixed_a = pyperf.BenchmarkSuite([*a, *bare("CPU A", "g"), h_measured])
    mixed_b = pyperf.BenchmarkSuite([*b, *bare("CPU B", "gh")])
    rows = compare.compare_figures(mixed_a, mixed_b)
    assert [(r.name, r.normalised) for r in rows] == [("f", True), ("g", False), ("h", False)]
    assert rows[0].speed == pytest.approx(1.0)
    text = compare.report(mixed_a, mixed_b, rows)
    assert "each ratio but those named below compares figures normalised" in text
    assert "compared as measured, across machines (a record holds them without the yardstick): g; h" in text
    # One model name at two clocks, or under two kernels, is two machines.
    def with_meta(suite: pyperf.BenchmarkSuite, **meta: str) -> pyperf.BenchmarkSuite:
        return pyperf.BenchmarkSuite([pyperf.Benchmark([pyperf.Run(r.values, metadata={**r.get_metadata(), **meta},
                                                                   collect_metadata=False) for r in bm.get_runs()])
                                      for bm in suite])
    assert not record.same_machine(with_meta(old, cpu_freq="0-1=2100 MHz"), with_meta(old, cpu_freq="0-1=2600 MHz"))
    assert not record.same_machine(with_meta(old, platform="Linux-6.1"), with_meta(old, platform="Linux-6.18"))
    assert record.same_machine(with_meta(old, cpu_freq="0-1=2100 MHz"), old)  # unknown on one side: not told apart


def test_the_yardstick_never_changes_and_a_record_s_time_adds_up():
    # Its checksum pins the workload: a change to it is a new yardstick.VERSION and a new fingerprint.
    assert yardstick.VERSION == 1 and yardstick.fingerprint() == 815727434447748417
    assert yardstick.rate(min_seconds=0.01) > 0
    # The run's wall time is shared out among its figures' durations, as pyperf adds them up.
    figures = [record.Figure("a", "playout", [1e-6], duration=1.0), record.Figure("b", "playout", [1e-6], duration=3.0)]
    suite = record.suite_of(figures, "quick", "test", 0.0, run_seconds=10.0)
    assert [b.get_total_duration() for b in suite] == pytest.approx([2.5, 7.5])
    figure = record.measure_work("f", "call", lambda: 1, repeats=2, min_seconds=0.01)
    assert len(figure.values) == 2 and figure.warmups and figure.loops == figure.calls >= 1
    assert figure.cpu_seconds is not None and figure.wall_seconds is not None and figure.yardstick_rate


def test_a_run_that_crashes_is_named_by_its_signal(tmp_path, monkeypatch):
    # A run killed by a signal has a negative return code and often nothing on stderr: the
    # error names the signal rather than "exit -11" and an empty tail.
    (tmp_path / "crashing_benchmark.py").write_text("import os, signal\n\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    with pytest.raises(record.SpeedRecordError, match=r"run 1 of crashing_benchmark failed \(killed by SIGSEGV\)"):
        record.run_processes("crashing_benchmark", [], 2)


def test_figures_timed_by_hand_share_their_run_s_yardstick_and_normalise():
    # A run's yardstick, measured once at its start, goes to the figures without one of their
    # own; a figure that measured its own keeps it; the machine line counts each measure once.
    own = record.Figure("own", "board", [0.5], yardstick_rate=2e8)  # twice as fast on a twice as fast machine
    suite = record.suite_of([record.Figure("a", "board", [1.0]), record.Figure("b", "board", [3.0]), own],
                            "test", "test", 0.0, yardstick_rate=1e8)
    assert [record.yardstick_rates(b) for b in suite] == [[1e8], [1e8], [2e8]]
    assert "yardstick 150.0 M steps/s (v1, 2 measures, the highest 100.0% above the lowest)" in record.machine_text(suite)
    assert tables.normalised_text(suite.get_benchmark("a")) == tables.normalised_text(suite.get_benchmark("own"))
    one = record.suite_of([record.Figure("a", "board", [1.0])], "test", "test", 0.0, yardstick_rate=1e8)
    assert "yardstick 100.0 M steps/s (v1, one measure)" in record.machine_text(one)
    # A timed move takes its limit on any machine: it keeps no yardstick, and compares as measured.
    timed = record.suite_of([record.Figure("move", "move", [0.1], time_limited=True)], "test", "test", 0.0,
                            yardstick_rate=1e8)
    assert record.yardstick_rates(timed.get_benchmark("move")) is None


def test_a_shadowed_import_still_names_the_version(monkeypatch):
    import donuts_ai

    assert record.package_version() == donuts_ai.__version__
    monkeypatch.delattr(donuts_ai, "__version__")
    assert record.package_version() == importlib.metadata.version("donuts_ai")
    monkeypatch.setattr(importlib.metadata, "version", lambda name: (_ for _ in ()).throw(
        importlib.metadata.PackageNotFoundError(name)))
    assert record.package_version().startswith("unknown (donuts_ai.__version__ is missing")


def test_side_by_side_refuses_what_is_not_a_version(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        side_by_side.main([str(tmp_path), "--rounds", "2"])
    assert exc.value.code == 2 and "without donuts_ai/" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        side_by_side.main(["no-such-ref-anywhere", "--rounds", "2"])
    assert "neither a folder" in capsys.readouterr().err


def test_the_published_tables_are_what_their_records_say(tmp_path):
    assert published.main(["--check"]) == 0, "run python -m benchmarks.tables to regenerate them"
    # A table edited by hand is found out.
    page = tmp_path / "page.md"
    text = (ROOT / "benchmarks" / "RESULTS.md").read_text()
    assert "<!-- record: " in text and "<!-- compare: " in text
    page.write_text(text.replace(" playouts/s |", " playouts/s (edited) |", 1))
    assert not published.regenerate(page, ROOT, check=True)
    assert published.regenerate(page, ROOT) is False and published.regenerate(page, ROOT, check=True)


def test_a_script_s_json_is_strict_json_an_infinite_elo_null(tmp_path, capsys):
    # benchmarks.strength wrote ``Infinity`` for the Elo of a 100% score: not JSON (jq, a browser's
    # JSON.parse refuse it). Non-finite numbers are written as null, NumPy numbers as floats.
    from donuts_ai.bench.reporting import print_and_save, write_json

    results = {"elo": math.inf, "elo_ci95": [-math.inf, math.nan], "score": np.float64(1.0), "pairs": 4,
               "rows": [{"rate": np.float32(2.5), "name": "mcts", "ok": True, "games": np.int64(7)}]}
    path = tmp_path / "out.json"
    assert print_and_save(results, lambda r: "report", str(path)) == 0
    assert capsys.readouterr().out == "report\n"

    def refuse(constant: str) -> None:
        raise ValueError(constant)

    expected = {"elo": None, "elo_ci95": [None, None], "score": 1.0, "pairs": 4,
                "rows": [{"rate": 2.5, "name": "mcts", "ok": True, "games": 7}]}
    written = json.loads(path.read_text(), parse_constant=refuse)
    assert written == expected and type(written["rows"][0]["games"]) is int
    # The scripts that write their figures themselves (calibration, solver_tail, ...) call the same.
    write_json(tmp_path / "direct.json", results)
    assert (tmp_path / "direct.json").read_text() == path.read_text()
