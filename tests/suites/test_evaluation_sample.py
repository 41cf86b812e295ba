"""``evaluate(..., limit=N)`` draws its positions across the suite (``Suite.sample``): every
phase, the same positions for every agent and on a resume; the table says which positions
it covered and what its columns mean; times print in units that keep their digits; a
missing suite file is called missing. Properties only: nothing here depends on a speed."""

from __future__ import annotations

import json
import math

import pytest

from donuts_ai._units import seconds_text
from donuts_ai.bench import agent_report
from donuts_ai.cli import main as cli_main
from donuts_ai.suites import SuiteError, evaluate, load_suite
from donuts_ai.suites.evaluation import EvaluationSettings
from donuts_ai.suites.format import CRITICAL, PHASES, make_suite
from donuts_ai.suites.report import COUNTS
from donuts_ai.tournament.results import ResultsFileError

#: Cheap agents: their moves cost microseconds.
AGENTS = ["random", "greedy"]
#: Spec agents called as objects in this process (faster; unsupervised).
IN_PROCESS = EvaluationSettings(isolation="none")


def test_a_sample_of_critical_covers_every_phase_in_proportion_and_is_fixed_by_its_seed():
    suite = load_suite(CRITICAL)
    sample = suite.sample(100, seed=0)
    assert len(sample) == 100 and sample.name == suite.name and sample.sha256 == suite.sha256
    indices = suite.sample_indices(100, seed=0)
    assert indices == sorted(set(indices)) and sample.positions == tuple(suite.positions[i] for i in indices)  # suite order
    drawn = [p.phase for p in sample.positions]
    for phase in PHASES:
        share = 100 * sum(p.phase == phase for p in suite.positions) / len(suite)
        assert abs(drawn.count(phase) - share) <= 1.5, (phase, drawn.count(phase), share)
    # The whole suite's plies are spread over: not the first ones alone (the suite is ordered by phase).
    assert min(p.ply for p in sample.positions) <= 2 and max(p.ply for p in sample.positions) >= 25
    assert suite.sample_indices(100, seed=0) == indices
    assert suite.sample_indices(100, seed=1) != indices
    # Even a tiny sample holds every phase; a larger one of the same seed mostly the same positions.
    assert {p.phase for p in suite.sample(3, seed=7).positions} == set(PHASES)
    assert set(indices) <= set(suite.sample_indices(200, seed=0))
    assert suite.sample(None, 0) is suite and suite.sample(len(suite), 0) is suite


def test_a_suite_of_one_phase_is_sampled_across_its_plies():
    suite = load_suite("middlegame")
    plies = {p.ply for p in suite.positions}
    assert {p.ply for p in suite.sample(len(plies), seed=3).positions} == plies


def test_every_agent_answers_the_same_drawn_positions_and_the_table_says_which(tmp_path):
    result = evaluate(AGENTS, suite=CRITICAL, limit=10, seed=5, settings=IN_PROCESS)
    whole = load_suite(CRITICAL)
    drawn = result.suites[CRITICAL]
    assert drawn.positions == whole.sample(10, seed=5).positions
    assert result.config["limit"] == 10 and result.config["seed"] == 5
    assert result.config["suites"][0]["positions"] == 10 and result.config["suites"][0]["total"] == len(whole)
    for name in AGENTS:
        assert [a["index"] for a in result.answers[name][CRITICAL]] == list(range(10))
    plies = [p.ply for p in drawn.positions]
    text = result.table()
    assert f"positions: 10 of {len(whole):,} in critical" in text and "seed 5" in text
    assert f"plies {min(plies)}-{max(plies)}" in text
    assert all(f"{phase} {sum(p.phase == phase for p in drawn.positions)}" in text for phase in PHASES)
    assert "columns: kept: the agent's move keeps the position's exact value" in text
    # Labelled counts, by ply and by phase, adding up.
    s = result.scores()["greedy"][CRITICAL]
    assert [row["ply"] for row in s["by_ply"]] == sorted(set(plies))
    assert [row["phase"] for row in s["by_phase"]] == list(PHASES)
    for rows in (s["by_ply"], s["by_phase"]):
        assert {key: sum(row[key] for row in rows) for key in COUNTS} == {
            "positions": 10, "kept": s["kept"], "critical": s["critical"], "kept_critical": s["kept_critical"]}
    data = result.to_json()
    assert data["suites"][CRITICAL]["total"] == len(whole)
    # Without a limit, the table says it is all of them.
    small = make_suite("small", drawn.positions[:3])
    assert "positions: all 3 of small" in evaluate("random", suite=small, settings=IN_PROCESS).table()


def test_a_resumed_limited_evaluation_draws_the_same_positions(tmp_path):
    full = tmp_path / "full.jsonl"
    whole = evaluate("random", suite=CRITICAL, limit=30, seed=2, results_path=str(full), settings=IN_PROCESS)  # two units
    lines = full.read_text().splitlines()
    assert len(lines) == 3 and json.loads(lines[0])["config"]["limit"] == 30
    part = tmp_path / "part.jsonl"
    part.write_text("\n".join(lines[:2]) + "\n")
    resumed = evaluate("random", suite=CRITICAL, limit=30, seed=2, results_path=str(part), resume=True, settings=IN_PROCESS)
    assert resumed.suites[CRITICAL].positions == whole.suites[CRITICAL].positions

    def moves(result):
        return [(a["index"], a["move"], a["event"]) for a in result.answers["random"][CRITICAL]]

    assert moves(resumed) == moves(whole) and len(moves(whole)) == 30
    before = part.read_bytes()
    with pytest.raises(ResultsFileError, match="differs in: limit"):
        evaluate("random", suite=CRITICAL, limit=40, seed=2, results_path=str(part), resume=True, settings=IN_PROCESS)
    assert part.read_bytes() == before


def test_a_missing_suite_file_is_called_missing(tmp_path, capsys):
    for path in ("./missing.txt", str(tmp_path / "nothing.txt"), "missing.txt"):
        with pytest.raises(SuiteError, match="does not exist.*critical"):
            load_suite(path)
    with pytest.raises(SuiteError, match="unknown suite 'nope'"):
        load_suite("nope")
    with pytest.raises(SystemExit) as exit_:
        cli_main(["evaluate", "random", "--suite", "./missing.txt"])
    err = capsys.readouterr().err
    assert exit_.value.code != 0 and "'./missing.txt' does not exist" in err and "unknown suite" not in err
    assert "opening, middlegame, endgame, critical" in err


def test_times_print_in_units_that_keep_their_digits():
    assert seconds_text(0.00042) == "0.42 ms"
    assert seconds_text(37e-6) == "37.0 µs"
    assert seconds_text(1.2) == "1.20 s"
    assert seconds_text(0.024) == "24.0 ms"
    assert seconds_text(0.9996) == "1.00 s"
    assert seconds_text(0.0) == "0 s" and seconds_text(math.nan) == "-" and seconds_text(None) == "-"
    # The evaluate table and the bench table print them so (the figures made up, never measured).
    result = evaluate("random", suite=make_suite("one", load_suite("endgame").positions[:1]), settings=IN_PROCESS)
    row = next(line for line in result.table().splitlines() if line.startswith("random"))
    assert "0.000" not in row and any(unit in row for unit in (" ns", " µs", " ms", " s"))
    figures = {"machine": {"cpu": "cpu", "cores": 2, "python": "3", "numba": "0", "numpy": "0"}, "time_limit": 0.1,
               "positions": 12, "seed": 1,
               "agents": [{"agent": "fast", "decisions": 12, "seconds": 0.005, "decisions_per_s": 2400.0,
                           "mean_move_s": 0.00042, "max_move_s": 0.0009, "nodes": None, "nodes_per_s": None, "illegal": 0}]}
    table = agent_report(figures)
    assert "0.42 ms" in table and "0.90 ms" in table and "0.000" not in table
