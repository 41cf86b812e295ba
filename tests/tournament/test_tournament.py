"""The tournament harness: schedules, modes, results files, resume, statistics, CLI."""

from __future__ import annotations

import ctypes
import json
import math
import os
import random
import subprocess
import sys
import time

import pytest

from donuts_ai import DonutsError, Layout
from donuts_ai import tournament as T
from donuts_ai.donuts.agents import DonutsAgent, GreedyAgent, RandomAgent
from donuts_ai.donuts.game import win_points
from donuts_ai.donuts.rules import Rules
from donuts_ai.tournament.stats import elo_to_score, fit_ratings, sprt

from ..helpers import command_error

FAST = ["random", "greedy", "alphabeta:depth=2"]


class CrashAgent(DonutsAgent):
    """Raises on its third move."""

    kind = "crash"

    def _select(self, board, time_left):
        if board.ply >= 4:
            raise RuntimeError("boom")
        return board.legal_moves()[0]


class IllegalAgent(DonutsAgent):
    """Plays an occupied square once one exists."""

    kind = "illegal"

    def _select(self, board, time_left):
        occupied = [s for s in range(36) if board.color_at(s) is not None]
        return occupied[0] if occupied else board.legal_moves()[0]


class SlowAgent(DonutsAgent):
    """Sleeps 30 ms a move: it uses at least that much of its clock, however idle the machine."""

    kind = "slow"

    def _select(self, board, time_left):
        time.sleep(0.03)
        return board.legal_moves()[0]


class HangAgent(DonutsAgent):
    """Never answers its second move."""

    kind = "hang"

    def _select(self, board, time_left):
        while board.ply >= 2:
            time.sleep(0.2)
        return board.legal_moves()[0]


class ExitAgent(DonutsAgent):
    """Kills its own process on its second move, after printing on stdout (which must not
    reach the harness's pipe). With DONUTS_TEST_MARKER set, only the first process dies:
    it leaves that file behind, and the next process plays on."""

    kind = "exit"

    def _select(self, board, time_left):
        print("chatty agent")
        marker = os.environ.get("DONUTS_TEST_MARKER")
        if board.ply >= 2 and not (marker and os.path.exists(marker)):
            if marker:
                open(marker, "w").close()
            os._exit(3)
        return board.legal_moves()[0]


class SegfaultAgent(DonutsAgent):
    """Reads address 0 on its second move: a real segmentation fault."""

    kind = "segfault"

    def _select(self, board, time_left):
        if board.ply >= 2:
            ctypes.string_at(0)
        return board.legal_moves()[0]


class DieAfterAnswerAgent(DonutsAgent):
    """Answers its first move, then its process dies while the opponent thinks."""

    kind = "die-after-answer"

    def _select(self, board, time_left):
        import threading

        threading.Timer(0.05, os._exit, args=(4,)).start()
        return board.legal_moves()[0]


class ForkingAgent(DonutsAgent):
    """Starts a child that outlives it and holds its pipes, then crashes at its second move."""

    kind = "forking"

    def _select(self, board, time_left):
        if board.ply >= 2:
            if os.fork() == 0:
                time.sleep(60)
                os._exit(0)
            os._exit(5)
        return board.legal_moves()[0]


class NumpyMoveAgent(DonutsAgent):
    kind = "numpy-move"

    def _select(self, board, time_left):
        import numpy as np

        return np.int64(board.legal_squares()[0])


class NeverLegalAgent(DonutsAgent):
    kind = "never"

    def _select(self, board, time_left):
        return "zz"


class BrokenConstructorAgent(DonutsAgent):
    kind = "broken"

    def __init__(self, seed=None, name=None):
        raise RuntimeError("cannot build me")

    def _select(self, board, time_left):
        return board.legal_moves()[0]


class OneColorAgent(DonutsAgent):
    """Raises if it is ever asked to move for both colours in one game: two seats that
    shared one agent object would make it raise."""

    kind = "one-color"

    def reset(self, seed=None):
        super().reset(seed)
        self.color = None

    def _select(self, board, time_left):
        if getattr(self, "color", None) is None:
            self.color = board.turn
        if board.turn != self.color:
            raise RuntimeError("asked to move for both colours: seats share this agent")
        return self.rng.choice(board.legal_moves())


# --- specs ---------------------------------------------------------------------------


def test_specs():
    agent = T.make_agent("mcts:time=0.1,workers=2", game="donuts")
    assert agent.time_limit == 0.1 and agent.workers == 2
    assert T.make_agent("random:seed=3", game="donuts").seed == 3
    assert isinstance(T.make_agent("tests.tournament.test_tournament:CrashAgent", game="donuts"), CrashAgent)
    assert T.make_agent("alphabeta:depth=6", game="donuts").depth == 6


def test_a_spec_sets_the_fields_of_an_agents_settings_object():
    """``mcts:max_nodes=4096`` is ``MCTSAgent(memory=TreeMemory(max_nodes=4096))``: a settings
    object's fields are spec parameters, the object itself is not."""
    from donuts_ai.donuts.agents.mcts import TreeMemory

    assert T.make_agent("mcts:max_nodes=4096,max_memory_mb=64", game="donuts").memory == \
        TreeMemory(max_memory_mb=64, max_nodes=4096)
    assert T.make_agent("mcts", game="donuts").memory == TreeMemory()
    with pytest.raises(T.SpecError, match=r"unknown parameter 'memory' \(accepted: .*max_memory_mb, max_nodes"):
        T.make_agent("mcts:memory=1", game="donuts")
    with pytest.raises(T.SpecError, match="max_nodes must be at least"):
        T.make_agent("mcts:max_nodes=1", game="donuts")


@pytest.mark.parametrize(
    "spec, message",
    [
        ("nosuch", "unknown agent kind 'nosuch'"),
        ("mcts:speed=3", "unknown parameter 'speed'"),
        ("alphabeta:depth", "expected key=value"),
        ("mcts:time=0.01,time=0.02", "time given twice"),
        ("mcts:time=0.01,time_limit=0.02", "time_limit given twice"),  # a parameter and its alias
        ("alphabeta:depth=0", "depth must be a positive int"),
        ("no.such.module:Agent", "cannot import module"),
        ("tests.tournament.test_tournament:FAST", "is not an agent class"),
        ("", "non-empty"),
    ],
)
def test_bad_specs(spec, message):
    with pytest.raises(T.SpecError, match=message):
        T.make_agent(spec, game="donuts")


# --- schedule and reproducibility ------------------------------------------------------


def test_round_robin_and_gauntlet_schedules():
    config = T.make_config(FAST, games=4, setups="random:1:2", game="donuts")
    units = T.schedule(config)
    assert len(units) == 3 * 2  # 3 pairings x 2 pairs
    assert {tuple(u["names"]) for u in units} == {("random", "greedy"), ("random", "alphabeta:depth=2"), ("greedy", "alphabeta:depth=2")}
    assert len({u["setup"] for u in units}) == 2
    # By default every unit gets a freshly drawn tile arrangement, the same on every rerun.
    drawn = T.make_config(FAST, games=4, game="donuts")
    assert drawn["setups"] == "random"
    layouts = [u["setup"] for u in T.schedule(drawn)]
    assert len(set(layouts)) == len(layouts) == 6
    assert layouts == [u["setup"] for u in T.schedule(T.make_config(FAST, games=4, game="donuts"))]
    assert layouts != [u["setup"] for u in T.schedule(T.make_config(FAST, games=4, seed=1, game="donuts"))]
    gauntlet = T.schedule(T.make_config(FAST, format="gauntlet", games=2, game="donuts"))
    assert [u["names"] for u in gauntlet] == [["random", "greedy"], ["random", "alphabeta:depth=2"]]
    assert T.make_config(["random", "random"], game="donuts")["names"] == ["random", "random#2"]


def test_pairs_swap_colors_on_the_same_layout_and_rerun_identically():
    # In-process agents (isolation="none") here and in the tests of schedules and results
    # files below: a seat process costs about half a second to start, and what they check
    # does not depend on where the agents run (the seat tests do, further down).
    results = T.run(FAST, games=2, setups="random:3:1", seed=5, workers=1, isolation="none", game="donuts")
    assert len(results.games) == 6
    for unit in results.units:
        a, b = unit["games"]
        assert a["names"] == b["names"][::-1] and a["setup"] == b["setup"]
    again = T.run(FAST, games=2, setups="random:3:1", seed=5, workers=2, isolation="none", game="donuts")
    assert [g["moves"] for g in again.games] == [g["moves"] for g in results.games]
    other = T.run(FAST, games=2, setups="random:3:1", seed=6, workers=1, isolation="none", game="donuts")
    assert [g["moves"] for g in other.games] != [g["moves"] for g in results.games]


def test_duel_series_alternate_and_stop_when_decided():
    results = T.run(["greedy", "random"], games=3, workers=1, seed=2, isolation="none", game="donuts",
                    config=T.HarnessConfig(mode="duel", best_of=5))
    assert len(results.units) == 3
    for unit in results.units:
        games, match = unit["games"], unit["match"]
        assert [g["names"][0] for g in games] == ["greedy", "random", "greedy", "random", "greedy"][: len(games)]
        wins = [sum(g["winner"] is not None and g["names"][g["winner"]] == p for g in games) for p in match["players"]]
        assert match["wins"] == wins
        assert max(wins) == 3 or len(games) == 5
        assert len(games) == 5 or max(wins) == 3
    matches = results.matches()
    assert matches["greedy"]["matches"] == 3
    assert matches["greedy"]["won"] + matches["greedy"]["drawn"] + matches["greedy"]["lost"] == 3
    assert matches["greedy"]["won"] == matches["random"]["lost"]
    assert "Matches (best of 5" in results.table()


def test_a_series_length_outside_a_duel_is_refused_before_any_game(tmp_path):
    out = tmp_path / "r.jsonl"
    with pytest.raises(DonutsError, match="best_of=5 is a duel's series length: it needs mode='duel', not 'pairs'"):
        T.run(["greedy", "random"], game="donuts", config=T.HarnessConfig(best_of=5, results_path=out))
    assert not out.exists()


def fake_series(winners, best_of=3, clock=None, used=None):
    """Run the series logic on scripted games: ``winners[g]`` is the player (0 or 1, in
    the unit's order) who wins game g, or None for a draw; ``used[g]`` the seconds each
    player spends in game g."""
    config = {"best_of": best_of, "clock": clock}
    played = []

    def game(order, offset, clocks=None):
        w = winners[offset]
        left = None
        if clocks is not None:
            left = [c - used[offset][who] for c, who in zip(clocks, order, strict=True)]
        rec = {"winner": None if w is None else order.index(w), "clock_left": left}
        played.append(order)
        return rec

    return T.runner._series(config, game), len(played)


def test_series_count_wins_only_and_end_at_the_target_or_the_length():
    assert fake_series([0, 0, 1]) == ({"wins": [2, 0], "winner": 0, "reason": "target", "target": 2}, 2)
    assert fake_series([None, None, None]) == ({"wins": [0, 0], "winner": None, "reason": "equal", "target": 2}, 3)
    # Draws count for nobody: one win and two draws take a best-of-3 on more wins.
    assert fake_series([None, 1, None]) == ({"wins": [0, 1], "winner": 1, "reason": "more wins", "target": 2}, 3)
    assert fake_series([0, None, 1])[0]["winner"] is None
    assert fake_series([1, 0, 1, 0, 1, 0, 0], best_of=7) == ({"wins": [4, 3], "winner": 0, "reason": "target", "target": 4}, 7)
    # A series clock: player 1 spends 4 s a game of its 10; it flags in game 3 and loses the match.
    used = [[1.0, 4.0]] * 7
    assert fake_series([1, 0, 1, 0, 1, 0, 1], best_of=7, clock=10.0, used=used) == (
        {"wins": [1, 2], "winner": 0, "reason": "clock", "target": 4}, 3)


@pytest.mark.time_sensitive
def test_duel_blitz_clock_runs_over_the_whole_series():
    results = T.run(["tests.tournament.test_tournament:SlowAgent", "random"], games=1, workers=1, seed=4, game="donuts",
                    config=T.HarnessConfig(mode="duel", best_of=7, clock=0.6))
    assert results.config["clock_per"] == "series"
    unit = results.units[0]
    games = unit["games"]
    # 30 ms a move: about 0.45 s a game, so the slow agent's 0.6 s run out in its second game at the latest.
    assert len(games) <= 2 and games[-1]["reason"] == "time"
    assert games[-1]["names"][1 - games[-1]["winner"]] == "tests.tournament.test_tournament:SlowAgent"
    assert unit["match"]["winner"] == 1 and unit["match"]["reason"] == "clock"
    if len(games) == 2:  # the clock carried over: game 2 started with what game 1 left
        slow_left = games[0]["clock_left"][0]
        assert slow_left < 0.6 and games[1]["times"][1] >= slow_left


def test_team_battle_rotates_four_seats():
    results = T.run(["greedy", "random", "greedy:seed=2", "random:seed=2"], games=2, workers=1, isolation="none",
                    game="donuts", config=T.HarnessConfig(mode="team"))
    game = results.games[0]
    assert game["names"] == ["greedy", "random", "greedy:seed=2", "random:seed=2"]
    # Each team's two players took turns alternately.
    turns = game["turns"]
    assert len(turns) == 4 and all(t > 0 for t in turns)
    assert abs(turns[0] - turns[2]) <= 1 and abs(turns[1] - turns[3]) <= 1
    assert results.games[1]["names"] == ["random", "greedy", "random:seed=2", "greedy:seed=2"]
    with pytest.raises(T.SpecError.__mro__[1], match="team battle needs 4 agents"):
        T.run(["greedy", "random"], game="donuts", config=T.HarnessConfig(mode="team"))


@pytest.mark.time_sensitive
def test_blitz_clock_loses_on_time():
    settings = T.PlaySettings(clock=0.1, illegal="lose")
    record = T.play_game([SlowAgent(), RandomAgent(seed=1)], Layout.standard(), Rules(), 1, game="donuts", isolation="none",
                         settings=settings)
    assert record["reason"] == "time" and record["winner"] == 1
    assert record["events"][0]["kind"] == "time"


def test_illegal_moves_and_exceptions_lose_or_forfeit():
    lose = T.play_game([IllegalAgent(), GreedyAgent(seed=1)], Layout.standard(), Rules(), 3, game="donuts", isolation="none")
    assert (lose["winner"], lose["reason"]) == (1, "illegal move") and lose["events"][0]["kind"] == "illegal"
    crash = T.play_game([RandomAgent(seed=1), CrashAgent()], Layout.standard(), Rules(), 3, game="donuts", isolation="none")
    assert (crash["winner"], crash["reason"]) == (0, "exception") and "boom" in crash["events"][0]["detail"]
    assert crash["events"][0]["kind"] == "exception"
    forfeit = T.play_game([IllegalAgent(), RandomAgent(seed=2)], Layout.standard(), Rules(), 3, game="donuts",
                          isolation="none", settings=T.PlaySettings(illegal="forfeit"))
    assert None in forfeit["moves"] and forfeit["forfeits"][0] >= 1
    assert all(e["kind"] == "illegal" for e in forfeit["events"])
    # The tournament goes on and logs the events.
    results = T.run(["tests.tournament.test_tournament:CrashAgent", "random"], games=2, workers=1, game="donuts")
    assert len(results.games) == 2 and results.events()


def test_forfeits_are_capped_so_every_game_ends():
    record = T.play_game([NeverLegalAgent(), NeverLegalAgent()], Layout.standard(), Rules(), 1, game="donuts",
                         isolation="none", settings=T.PlaySettings(illegal="forfeit"))
    # Chocolate forfeits, Vanilla forfeits, ... until Chocolate's third forfeit loses.
    assert record["moves"] == [None] * 4 and record["forfeits"] == [3, 2]
    assert (record["winner"], record["reason"]) == (1, "forfeits") and len(record["events"]) == 5
    results = T.run(["tests.tournament.test_tournament:NeverLegalAgent"] * 2, games=2, workers=1, isolation="none",
                    game="donuts", config=T.HarnessConfig(illegal="forfeit"))
    assert [g["reason"] for g in results.games] == ["forfeits", "forfeits"]


@pytest.mark.parametrize("isolation", ["process", "none"])
def test_every_seat_has_its_own_agent(isolation):
    spec = "tests.tournament.test_tournament:OneColorAgent"
    results = T.run([spec, spec], games=4, workers=1, isolation=isolation, game="donuts")
    assert len(results.games) == 4 and not results.events()
    team = T.run([spec] * 4, games=2, workers=1, isolation=isolation, game="donuts", config=T.HarnessConfig(mode="team"))
    assert not team.events()
    game = T.get_game("donuts")
    keys = T.seat_cache.seat_keys(game.name, [spec, spec, "random", spec], isolation)
    seats = T.seat_cache.take_seats("a test run", keys, lambda key: T.entries.seat_for(T.source_of(key[1], game), isolation, game))
    assert len({id(s) for s in seats}) == 4
    T.close_seats()


@pytest.mark.time_sensitive
def test_a_hanging_or_crashing_agent_loses_and_the_run_goes_on(tmp_path, monkeypatch):
    bad = [f"{__name__}:HangAgent", f"{__name__}:ExitAgent", f"{__name__}:SegfaultAgent"]
    path = tmp_path / "r.jsonl"
    # A per-move limit far above what a first move takes on a loaded machine, so only the hang hits it.
    results = T.run(["random", *bad], games=2, workers=1, results_path=str(path), game="donuts",
                    config=T.HarnessConfig(format="gauntlet", move_limit=3))
    assert len(results.games) == 6 and len(T.Results.from_file(str(path)).games) == 6
    for g in results.games:
        assert g["reason"] in ("time", "crash") and len(g["events"]) == 1
        loser = g["names"][1 - g["winner"]]
        event = g["events"][0]
        assert g["names"][event["seat"]] == loser and loser in bad and event["ply"] >= 2
        if loser.endswith("HangAgent"):
            assert (g["reason"], event["kind"]) == ("time", "time") and "killed" in event["detail"]
        elif loser.endswith("ExitAgent"):
            assert g["reason"] == "crash" and event["detail"].endswith("(exit status 3)")
            assert "chatty agent" in event["detail"]  # its prints went to stderr, not into the protocol
        else:
            assert g["reason"] == "crash" and event["detail"].endswith("(signal 11)")
    # A fresh process serves the next game: the agent that died once plays on.
    monkeypatch.setenv("DONUTS_TEST_MARKER", str(tmp_path / "died-once"))
    again = T.run(["tests.tournament.test_tournament:ExitAgent", "random"], games=4, workers=1, setups="standard", game="donuts")
    reasons = [g["reason"] for g in again.games]
    assert reasons[0] == "crash" and all(r != "crash" for r in reasons[1:]), reasons


@pytest.mark.time_sensitive
def test_a_process_that_dies_between_turns_loses_by_crash():
    results = T.run([f"{__name__}:DieAfterAnswerAgent", f"{__name__}:SlowAgent"], games=2, workers=1, game="donuts")
    for g in results.games:
        loser = g.names[1 - g.winner]
        assert loser.endswith("DieAfterAnswerAgent") and g.reason == "crash", (g.reason, g.events)
        assert g.events[0].detail.endswith("(exit status 4)")


def test_a_crash_is_seen_even_when_a_forked_child_holds_the_pipe():
    results = T.run(["random", "tests.tournament.test_tournament:ForkingAgent"], games=2, workers=1, game="donuts",
                    config=T.HarnessConfig(format="gauntlet"))
    assert [g.reason for g in results.games] == ["crash", "crash"]
    assert all(g.events[0].detail.endswith("(exit status 5)") for g in results.games)


def test_numpy_integer_moves_are_moves_in_and_out_of_process():
    for isolation in ("process", "none"):
        results = T.run([f"{__name__}:NumpyMoveAgent", "random"], games=2, workers=1, isolation=isolation,
                        game="donuts")
        assert not results.events(), (isolation, results.events())


@pytest.mark.time_sensitive
def test_an_agent_that_cannot_start_loses_whatever_the_policy():
    record = T.play_game([T.ProcessSeat("tests.tournament.test_tournament:BrokenConstructorAgent", game="donuts"), RandomAgent(seed=1)],
                         Layout.standard(), Rules(), 1, game="donuts", settings=T.PlaySettings(illegal="forfeit"))
    assert record.reason == "exception" and record.winner == 1 and "could not start" in record.events[0].detail
    T.close_seats()


def test_two_runs_cannot_write_one_results_file(tmp_path):
    path = tmp_path / "r.jsonl"
    config = T.make_config(["random", "greedy"], game="donuts")
    fh, _ = T.results.open_results(str(path), config, resume=False)
    with pytest.raises(T.ResultsFileError, match="being written by another run"):
        T.results.open_results(str(path), config, resume=True)
    fh.close()
    fh, units = T.results.open_results(str(path), config, resume=True)
    fh.close()
    assert units == []


def test_the_command_line_survives_bad_agents(tmp_path):
    out = tmp_path / "r.jsonl"
    proc = cli("tournament", "tests.tournament.test_tournament:HangAgent", "tests.tournament.test_tournament:SegfaultAgent", "--games", "2",
               "--move-limit", "3", "--workers", "1", "--quiet", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "Events: 2" in proc.stdout
    assert len(T.Results.from_file(str(out)).games) == 2


def test_score_ledger():
    board_win = None
    for seed in range(40):
        record = T.play_game([GreedyAgent(seed=seed), RandomAgent(seed=seed)], Layout.random(seed), Rules(), seed, game="donuts",
                             isolation="none")
        end_win = T.play_game([GreedyAgent(seed=seed), RandomAgent(seed=seed)], Layout.random(seed), Rules(), seed,
                              game="donuts", isolation="none", settings=T.PlaySettings(ledger="end-win"))
        assert end_win["moves"] == record["moves"]
        points = {"five": 3, "majority": 2}.get(record["reason"], 0)
        for seat in (0, 1):
            bonus = 1 if record["insertions"][seat] >= 3 else 0
            won = seat == record["winner"]
            assert record["ledger"][seat] == (points if won else 0) + bonus
            assert end_win["ledger"][seat] == ((2 if record["reason"] == "largest group" else points) if won else 0) + bonus
        if record["reason"] == "largest group" and record["winner"] is not None:
            board_win = record
    assert board_win is not None  # the rulebook ledger gives a largest-group win nothing
    # Majority control of a full board (18+ donuts each; random games rarely get there
    # without a five) is worth 2 under both ledgers; adjudicated wins are worth nothing.
    assert [win_points(r) for r in ("five", "majority", "largest group", "time", "crash")] == [3, 2, 0, 0, 0]
    assert [win_points(r, "end-win") for r in ("five", "majority", "largest group", "forfeits")] == [3, 2, 2, 0]


# --- results files ---------------------------------------------------------------------


def test_results_file_and_resume(tmp_path):
    path = tmp_path / "r.jsonl"
    full = T.run(FAST, games=4, seed=3, workers=1, isolation="none", results_path=str(path), game="donuts")
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "config" and len(lines) == 1 + len(full.units)
    # Kill mid-write: drop two units and cut the next line in half.
    path.write_text("\n".join(lines[:-3]) + "\n" + lines[-3][: len(lines[-3]) // 2])
    resumed = T.run(FAST, games=4, seed=3, workers=1, isolation="none", results_path=str(path), game="donuts",
                    config=T.HarnessConfig(resume=True))
    assert [g["moves"] for g in resumed.games] == [g["moves"] for g in full.games]
    assert T.Results.from_file(str(path)).games == resumed.games
    with pytest.raises(T.ResultsFileError, match="differs in: seed"):
        T.run(FAST, games=4, seed=4, workers=1, isolation="none", results_path=str(path), game="donuts",
              config=T.HarnessConfig(resume=True))
    with pytest.raises(T.ResultsFileError, match="exists"):
        T.run(FAST, games=4, seed=3, workers=1, isolation="none", results_path=str(path), game="donuts")


def test_a_refused_resume_changes_nothing(tmp_path):
    path = tmp_path / "r.jsonl"
    T.run(["random", "greedy"], games=4, workers=1, isolation="none", results_path=str(path), game="donuts")
    cut = path.read_bytes() + b'{"type": "unit", "unit": 9, "ga'
    path.write_bytes(cut)
    with pytest.raises(T.ResultsFileError, match="differs in: seed"):
        T.run(["random", "greedy"], games=4, seed=7, workers=1, isolation="none", results_path=str(path), game="donuts",
              config=T.HarnessConfig(resume=True))
    assert path.read_bytes() == cut  # not even the cut line was touched
    T.Results.from_file(str(path))  # reading reports the cut line and changes nothing either
    assert path.read_bytes() == cut
    # Accepted: the cut line goes and the missing units are played.
    resumed = T.run(["random", "greedy"], games=4, workers=1, isolation="none", results_path=str(path), game="donuts",
                    config=T.HarnessConfig(resume=True))
    assert path.read_bytes().startswith(cut[: cut.rindex(b"\n") + 1]) and len(resumed.units) == 2


def test_results_files_are_created_exclusively(tmp_path):
    path = tmp_path / "r.jsonl"
    config = T.make_config(["random", "greedy"], game="donuts")
    fh, units = T.results.open_results(str(path), config, resume=False)
    with pytest.raises(T.ResultsFileError, match="exists"):
        T.results.open_results(str(path), config, resume=False)
    fh.close()
    # --resume of a file that does not exist yet creates it.
    fh, units = T.results.open_results(str(tmp_path / "new.jsonl"), config, resume=True)
    fh.close()
    assert units == [] and json.loads((tmp_path / "new.jsonl").read_text())["config"] == config
    with pytest.raises(T.ResultsFileError, match="cannot create"):
        T.results.open_results(str(tmp_path / "no" / "dir.jsonl"), config, resume=False)


def test_results_files_with_bad_units_are_refused(tmp_path):
    path = tmp_path / "r.jsonl"
    T.run(["random", "greedy"], games=2, workers=1, isolation="none", results_path=str(path), game="donuts")
    header = path.read_text().splitlines()[0]
    for unit in ('{"type": "unit"}', '{"type": "unit", "unit": 0, "games": [{"names": ["a"]}]}',
                 '{"type": "unit", "unit": 0, "games": [3]}'):
        path.write_text(header + "\n" + unit + "\n")
        with pytest.raises(T.ResultsFileError, match="unit"):
            T.Results.from_file(str(path))


def test_corrupt_last_line_is_reported_and_skipped(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    T.run(["random", "greedy"], games=4, workers=1, isolation="none", results_path=str(path), game="donuts")
    path.write_text(path.read_text() + '{"type": "unit", "unit": 9, "ga')
    results = T.Results.from_file(str(path))
    assert len(results.units) == 2
    assert "incomplete" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("hello\n")
    with pytest.raises(T.ResultsFileError):
        T.Results.from_file(str(bad))


def test_ray_backend_with_a_local_instance():
    # In-process agents, as in the tests of schedules and results files above: what runs on
    # Ray here is the units. Seats in processes below Ray's workers are test_ray_cluster.py's
    # (a cluster's nodes, and a command-line run that starts a local instance of its own).
    ray = pytest.importorskip("ray")
    results = T.run(FAST, games=2, seed=5, workers=2, isolation="none", game="donuts", config=T.HarnessConfig(backend="ray"))
    serial = T.run(FAST, games=2, seed=5, workers=1, isolation="none", game="donuts")
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
    # Each 2-0 pair is worth at most log(s1/s0) under the exact pentanomial GSPRT: a
    # one-sided match decides after 53 of them for 0..20 Elo, not after a handful.
    assert sprt([0, 0, 0, 0, 53], 0, 20).decision == "H1"
    assert sprt([0, 0, 0, 0, 52], 0, 20).decision is None


def test_sprt_arguments():
    with pytest.raises(ValueError, match="elo1 must exceed elo0"):
        sprt([0] * 5, 10, 5)
    with pytest.raises(ValueError, match="5 non-negative"):
        sprt([1, 2], 0, 5)
    state, played = T.run_sprt("greedy", "random", 0, 50, max_pairs=40, setups="random:1:5", isolation="none", game="donuts")
    assert state.decision == "H1" and played < 40


# --- command line ----------------------------------------------------------------------


def cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "donuts_ai", *args], capture_output=True, text=True, cwd=cwd, timeout=600)


def test_cli_tournament_report_and_errors(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    # In-process agents: the report is what is checked (seats in processes from the
    # command line: test_the_command_line_survives_bad_agents).
    proc = cli("tournament", "random", "greedy", "--games", "2", "--out", str(out), "--quiet", "--workers", "1",
               "--isolation", "none")
    assert proc.returncode == 0, proc.stderr
    assert "Ratings" in proc.stdout and "Crosstable" in proc.stdout
    proc = cli("report", str(out), "--png", str(tmp_path / "png"))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "png" / "ratings.png").stat().st_size > 1000
    proc = cli("tournament", "random", "nosuch")  # a real process, as a user sees it; the others in this process
    assert proc.returncode == 2 and proc.stderr.strip().count("\n") == 0 and "unknown agent kind 'nosuch'" in proc.stderr, proc.stderr
    for args, message in [
        (("tournament", "random", "mcts:speed=1"), "unknown parameter 'speed'"),
        (("tournament", "random", "greedy", "--setups", "/no/file"), "cannot read layout file"),
        (("tournament", "random", "greedy", "--layouts", "standard"), "unrecognized arguments: --layouts"),
        (("tournament", "random", "greedy", "--out", str(out)), "exists: pass --resume"),
        (("tournament", "random", "greedy", "--seed", "9", "--isolation", "none", "--out", str(out), "--resume"),
         "different tournament"),
        (("report", "/no/file"), "cannot read results file"),
    ]:
        status, err = command_error(capsys, *args)
        assert status == 2, args
        assert err.strip().count("\n") == 0 and message in err, (args, err)


def test_a_results_file_written_before_loads_and_resumes(tmp_path):
    # tests/data/results_v2_donuts.jsonl was written by the harness when it held the Donuts
    # adapter itself: its game name still resolves, and it reads, reports and resumes.
    source = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "results_v2_donuts.jsonl")
    before = T.Results.from_file(source)
    assert before.config["game"] == "donuts" and len(before.games) == 6
    assert "Layouts: a freshly drawn tile arrangement for every unit (seeded from the tournament seed 5)" in before.table()
    path = tmp_path / "r.jsonl"
    with open(source, encoding="utf-8") as fh:
        path.write_text("".join(fh.readlines()[:-1]), encoding="utf-8")  # the last unit to play again
    again = T.run(["random", "greedy"], games=6, workers=1, isolation="none", seed=5, results_path=str(path), game="donuts",
                  config=T.HarnessConfig(resume=True))

    def played(results):
        return [(g.unit, g.setup, g.moves, g.winner, g.reason) for g in results.games]

    assert played(again) == played(before)


@pytest.mark.parametrize("name", ["results_v2_donuts.jsonl", "results_before_29_gauntlet.jsonl"])
def test_unit_lines_of_earlier_files_read_and_write_back_byte_for_byte(name):
    # A record writes the keys it read, in the order it read them: files written before
    # keep their bytes when their units are read and written again.
    with open(os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", name), encoding="utf-8") as fh:
        lines = [line.rstrip("\n") for line in fh if '"type": "unit"' in line]
    assert lines
    for line in lines:
        unit = T.UnitRecord.from_dict({k: v for k, v in json.loads(line).items() if k != "type"})
        assert json.dumps({"type": "unit", **unit.to_dict()}) == line
