"""The tournament harness: schedules, modes, results files, resume, statistics, CLI."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys

import pytest

from donuts_ai import Layout
from donuts_ai import tournament as T
from donuts_ai.agents import Agent, GreedyAgent, RandomAgent
from donuts_ai.rules import Rules
from donuts_ai.tournament.stats import elo_to_score, fit_ratings, sprt

FAST = ["random", "greedy", "alphabeta:depth=2"]


class CrashAgent(Agent):
    """Raises on its third move."""

    kind = "crash"

    def _select(self, board, time_left):
        if board.ply >= 4:
            raise RuntimeError("boom")
        return board.legal_moves()[0]


class IllegalAgent(Agent):
    """Plays an occupied square once one exists."""

    kind = "illegal"

    def _select(self, board, time_left):
        occupied = [s for s in range(36) if board.color_at(s) is not None]
        return occupied[0] if occupied else board.legal_moves()[0]


class SlowAgent(Agent):
    kind = "slow"

    def _select(self, board, time_left):
        import time

        time.sleep(0.03)
        return board.legal_moves()[0]


# --- specs ---------------------------------------------------------------------------


def test_specs():
    agent = T.make_agent("mcts:time=0.1,workers=2")
    assert agent.time_limit == 0.1 and agent.workers == 2
    assert T.make_agent("random:seed=3").seed == 3
    assert isinstance(T.make_agent("tests.test_tournament:CrashAgent"), CrashAgent)
    assert T.make_agent("alphabeta:depth=6").depth == 6


@pytest.mark.parametrize(
    "spec, message",
    [
        ("nosuch", "unknown agent 'nosuch'"),
        ("mcts:speed=3", "unknown parameter 'speed'"),
        ("alphabeta:depth", "expected key=value"),
        ("alphabeta:depth=0", "depth must be a positive int"),
        ("no.such.module:Agent", "cannot import module"),
        ("tests.test_tournament:FAST", "is not an agent class"),
        ("", "non-empty"),
    ],
)
def test_bad_specs(spec, message):
    with pytest.raises(T.SpecError, match=message):
        T.make_agent(spec)


# --- schedule and reproducibility ------------------------------------------------------


def test_round_robin_and_gauntlet_schedules():
    config = T.make_config(FAST, games=4, layouts="random:1:2")
    units = T.schedule(config)
    assert len(units) == 3 * 2  # 3 pairings x 2 pairs
    assert {tuple(u["names"]) for u in units} == {("random", "greedy"), ("random", "alphabeta:depth=2"), ("greedy", "alphabeta:depth=2")}
    assert len({u["layout"] for u in units}) == 2
    gauntlet = T.schedule(T.make_config(FAST, format="gauntlet", games=2))
    assert [u["names"] for u in gauntlet] == [["random", "greedy"], ["random", "alphabeta:depth=2"]]
    assert T.make_config(["random", "random"])["names"] == ["random", "random#2"]


def test_pairs_swap_colours_on_the_same_layout_and_rerun_identically():
    results = T.run(FAST, games=2, layouts="random:3:1", seed=5, workers=1)
    assert len(results.games) == 6
    for unit in results.units:
        a, b = unit["games"]
        assert a["names"] == b["names"][::-1] and a["layout"] == b["layout"]
    again = T.run(FAST, games=2, layouts="random:3:1", seed=5, workers=2)
    assert [g["moves"] for g in again.games] == [g["moves"] for g in results.games]
    other = T.run(FAST, games=2, layouts="random:3:1", seed=6, workers=1)
    assert [g["moves"] for g in other.games] != [g["moves"] for g in results.games]


def test_duel_series_alternate_and_stop_when_decided():
    results = T.run(["greedy", "random"], mode="duel", best_of=5, games=3, workers=1, seed=2)
    assert len(results.units) == 3
    for unit in results.units:
        games = unit["games"]
        assert 3 <= len(games) <= 5
        assert [g["names"][0] for g in games] == ["greedy", "random", "greedy", "random", "greedy"][: len(games)]
        wins = sum(T.game.score_of(g, g["names"].index("greedy")) for g in games)
        assert wins >= 3 or len(games) == 5


def test_team_battle_rotates_four_seats():
    results = T.run(["greedy", "random", "greedy:seed=2", "random:seed=2"], mode="team", games=2, workers=1)
    game = results.games[0]
    assert game["names"] == ["greedy", "random", "greedy:seed=2", "random:seed=2"]
    # Each team's two players took turns alternately.
    turns = game["turns"]
    assert len(turns) == 4 and all(t > 0 for t in turns)
    assert abs(turns[0] - turns[2]) <= 1 and abs(turns[1] - turns[3]) <= 1
    assert results.games[1]["names"] == ["random", "greedy", "random:seed=2", "greedy:seed=2"]
    with pytest.raises(T.SpecError.__mro__[1], match="team battle needs 4 agents"):
        T.run(["greedy", "random"], mode="team")


def test_blitz_clock_loses_on_time():
    config = {"clock": 0.1, "illegal": "lose"}
    record = T.play_game([SlowAgent(), RandomAgent(seed=1)], Layout.standard(), Rules(), 1, **config)
    assert record["reason"] == "time" and record["winner"] == 1
    assert record["events"][0]["kind"] == "time"


def test_illegal_moves_and_crashes_lose_or_forfeit():
    lose = T.play_game([IllegalAgent(), GreedyAgent(seed=1)], Layout.standard(), Rules(), 3)
    assert (lose["winner"], lose["reason"]) == (1, "illegal move") and lose["events"][0]["kind"] == "illegal"
    crash = T.play_game([RandomAgent(seed=1), CrashAgent()], Layout.standard(), Rules(), 3)
    assert (crash["winner"], crash["reason"]) == (0, "crash") and "boom" in crash["events"][0]["detail"]
    forfeit = T.play_game([IllegalAgent(), RandomAgent(seed=2)], Layout.standard(), Rules(), 3, illegal="forfeit")
    assert forfeit["winner"] in (0, 1, None) and None in forfeit["moves"]
    assert all(e["kind"] == "illegal" for e in forfeit["events"])
    # The tournament goes on and logs the events.
    results = T.run(["tests.test_tournament:CrashAgent", "random"], games=2, workers=1)
    assert len(results.games) == 2 and results.events()


def test_score_ledger():
    record = T.play_game([GreedyAgent(seed=1), RandomAgent(seed=1)], Layout.standard(), Rules(), 4)
    points = 3 if record["reason"] == "five" else 2
    winner = record["winner"]
    for seat in (0, 1):
        bonus = 1 if record["insertions"][seat] >= 3 else 0
        assert record["ledger"][seat] == (points if seat == winner else 0) + bonus


# --- results files ---------------------------------------------------------------------


def test_results_file_and_resume(tmp_path):
    path = tmp_path / "r.jsonl"
    full = T.run(FAST, games=4, seed=3, workers=1, results_path=str(path))
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "config" and len(lines) == 1 + len(full.units)
    # Kill mid-write: drop two units and cut the next line in half.
    path.write_text("\n".join(lines[:-3]) + "\n" + lines[-3][: len(lines[-3]) // 2])
    resumed = T.run(FAST, games=4, seed=3, workers=1, results_path=str(path), resume=True)
    assert [g["moves"] for g in resumed.games] == [g["moves"] for g in full.games]
    assert T.Results.from_file(str(path)).games == resumed.games
    with pytest.raises(T.ResultsFileError, match="differs in: seed"):
        T.run(FAST, games=4, seed=4, workers=1, results_path=str(path), resume=True)
    with pytest.raises(T.ResultsFileError, match="exists"):
        T.run(FAST, games=4, seed=3, workers=1, results_path=str(path))


def test_corrupt_last_line_is_reported_and_skipped(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    T.run(["random", "greedy"], games=4, workers=1, results_path=str(path))
    path.write_text(path.read_text() + '{"type": "unit", "unit": 9, "ga')
    results = T.Results.from_file(str(path))
    assert len(results.units) == 2
    assert "incomplete" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("hello\n")
    with pytest.raises(T.ResultsFileError):
        T.Results.from_file(str(bad))


def test_ray_backend_with_a_local_instance():
    ray = pytest.importorskip("ray")
    results = T.run(FAST, games=2, seed=5, workers=2, backend="ray")
    serial = T.run(FAST, games=2, seed=5, workers=1)
    assert [g["moves"] for g in results.games] == [g["moves"] for g in serial.games]
    assert not ray.is_initialized()


# --- statistics ------------------------------------------------------------------------


def test_symmetric_results_give_equal_ratings():
    games = []
    for _ in range(30):
        games += [("A", "B", 1), ("B", "A", 1), ("A", "C", 0.5), ("C", "A", 0.5), ("B", "C", 0), ("C", "B", 1)]
        games += [("B", "C", 1), ("C", "B", 0)]
    fit = fit_ratings(games, anchor="A")
    elo = {r.name: r.elo for r in fit.ratings}
    assert abs(elo["B"]) < 1 and abs(elo["C"]) < 1
    assert 0.45 < fit.los("A", "B") < 0.55


def test_known_win_rate_gives_known_elo():
    games = []
    for i in range(400):
        s = 1 if i % 4 else 0  # A scores 75% as first and as second player
        games += [("A", "B", s), ("B", "A", 1 - s)]
    fit = fit_ratings(games, anchor="B", prior_draws=0)
    a = next(r for r in fit.ratings if r.name == "A")
    assert a.elo == pytest.approx(400 * math.log10(3), abs=0.5)
    assert a.lower < a.elo < a.upper and abs(fit.first_player_advantage) < 1
    assert fit.los("A", "B") > 0.999


def test_first_player_advantage_is_separated():
    games = []
    for i in range(400):
        s = 1 if i % 4 else 0  # whoever moves first scores 75%
        games += [("A", "B", s), ("B", "A", s)]
    fit = fit_ratings(games, anchor="A", prior_draws=0)
    assert fit.first_player_advantage == pytest.approx(400 * math.log10(3), abs=0.5)
    assert abs(fit.ratings[0].elo - fit.ratings[1].elo) < 1


def simulate_sprt(true_elo, elo0, elo1, seed, max_pairs=20000):
    rng = random.Random(seed)
    p = elo_to_score(true_elo)
    counts = [0] * 5
    for _ in range(max_pairs):
        score = (rng.random() < p) + (rng.random() < p)
        counts[2 * score] += 1
        state = sprt(counts, elo0, elo1)
        if state.decision:
            return state.decision
    return None


def test_sprt_decides_as_expected_on_simulated_results():
    h1 = [simulate_sprt(30, 0, 20, s) for s in range(20)]
    h0 = [simulate_sprt(-10, 0, 20, s) for s in range(20)]
    assert h1.count("H1") >= 18 and h0.count("H0") >= 18


def test_sprt_decides_a_one_sided_match():
    state = sprt([0, 0, 0, 0, 6], 0, 20)
    assert state.decision == "H1"
    assert sprt([0, 0, 0, 0, 2], 0, 20).decision is None


def test_sprt_arguments():
    with pytest.raises(ValueError, match="elo1 must exceed elo0"):
        sprt([0] * 5, 10, 5)
    with pytest.raises(ValueError, match="5 non-negative"):
        sprt([1, 2], 0, 5)
    state, played = T.run_sprt("greedy", "random", 0, 50, max_pairs=40, layouts="random:1:5")
    assert state.decision == "H1" and played < 40


# --- command line ----------------------------------------------------------------------


def cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "donuts_ai", *args], capture_output=True, text=True, cwd=cwd, timeout=600)


def test_cli_tournament_report_and_errors(tmp_path):
    out = tmp_path / "r.jsonl"
    proc = cli("tournament", "random", "greedy", "--games", "2", "--out", str(out), "--quiet", "--workers", "1")
    assert proc.returncode == 0, proc.stderr
    assert "Ratings" in proc.stdout and "Crosstable" in proc.stdout
    proc = cli("report", str(out), "--png", str(tmp_path / "png"))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "png" / "ratings.png").stat().st_size > 1000
    for args, message in [
        (("tournament", "random", "nosuch"), "unknown agent 'nosuch'"),
        (("tournament", "random", "mcts:speed=1"), "unknown parameter 'speed'"),
        (("tournament", "random", "greedy", "--layouts", "/no/file"), "cannot read layouts file"),
        (("tournament", "random", "greedy", "--out", str(out)), "exists: pass --resume"),
        (("tournament", "random", "greedy", "--seed", "9", "--out", str(out), "--resume"), "different tournament"),
        (("report", "/no/file"), "cannot read results file"),
    ]:
        proc = cli(*args)
        assert proc.returncode == 2, (args, proc.stdout)
        assert proc.stderr.strip().count("\n") == 0 and message in proc.stderr, (args, proc.stderr)
