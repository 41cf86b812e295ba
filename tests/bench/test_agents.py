"""``donuts-ai bench --agent SPEC`` and :func:`donuts_ai.bench.agent_speed`: any agent's
decisions/s and nodes/s beside ours. Only what they count is checked, never a speed."""

from __future__ import annotations

import pyperf
import pytest

from donuts_ai import DonutsError
from donuts_ai.bench import agent_report, agent_speed, bench_positions
from donuts_ai.bench.agents import (
    FIRST_PLY,
    GAME_LAST_PLY,
    LAST_PLY,
    _with_time,
    agent_figures,
    baselines_of,
    game_positions,
)
from donuts_ai.bench.engine import _checked_game, _parser
from donuts_ai.bench.record import SETTINGS_KEY
from donuts_ai.cli import main

from ..helpers import command_error


class CountingAgent:
    """Plays the lowest legal square and says it searched one node per legal move."""

    def __init__(self):
        self.last_info = {}
        self.resets = []

    def reset(self, seed):
        self.resets.append(seed)

    def select_move(self, board):
        self.last_info = {"nodes": len(board.legal_moves())}
        return board.legal_moves()[0]


class IllegalAgent:
    """Plays an occupied or off-line square where there is one, and reports no nodes."""

    def select_move(self, board):
        illegal = [sq for sq in range(36) if not board.is_legal(sq)]
        return illegal[0] if illegal else board.legal_moves()[0]


def test_positions_are_fixed_by_count_and_seed():
    boards = bench_positions(5, seed=3)
    assert [b.fen() for b in boards] == [b.fen() for b in bench_positions(5, seed=3)]
    assert [b.fen() for b in boards] != [b.fen() for b in bench_positions(5, seed=4)]
    assert [b.ply for b in boards] == sorted(b.ply for b in boards)
    assert boards[0].ply == FIRST_PLY and boards[-1].ply == LAST_PLY
    assert not any(b.is_game_over() for b in boards)


def test_objects_are_measured_as_they_are():
    counting = CountingAgent()
    figures = agent_speed([counting, IllegalAgent()], time_limit=0.01, positions=3, seed=7, baselines=False)
    counted, illegal = figures["agents"]
    assert counted["agent"] == f"{__name__}:CountingAgent (object)" and counted["decisions"] == 3
    assert counted["nodes"] == sum(len(b.legal_moves()) for b in bench_positions(3, seed=7))
    assert counted["nodes_per_s"] == pytest.approx(counted["nodes"] / counted["seconds"])
    assert counted["illegal"] == 0 and counting.resets == [7] * 4  # the warm-up answer, then each position
    assert illegal["nodes"] is None and illegal["nodes_per_s"] is None and illegal["illegal"] == 3
    table = agent_report(figures)
    assert "CountingAgent" in table and "—" in table


@pytest.mark.parametrize("spec, expected", [
    ("alphabeta", "alphabeta:time=0.2"),
    ("mcts:workers=2", "mcts:workers=2,time=0.2"),
    ("mcts:time=0.5", "mcts:time=0.5"),
    ("random", "random"),
    ("examples.compiled_negamax:Agent", "examples.compiled_negamax:Agent:time=0.2"),
    ("examples.compiled_negamax:Agent:depth=3", "examples.compiled_negamax:Agent:depth=3,time=0.2"),
])
def test_specs_without_a_time_get_the_runs(spec, expected):
    assert _with_time(spec, 0.2) == expected


def test_bad_agents_are_refused_naming_them():
    with pytest.raises(DonutsError, match="not an agent object"):
        agent_speed([CountingAgent], positions=1, baselines=False)
    with pytest.raises(DonutsError, match="unknown agent"):
        agent_speed(["no-such-kind"], positions=1, baselines=False)
    with pytest.raises(DonutsError, match="time_limit"):
        agent_speed(["random"], time_limit=0, positions=1)

    class Crashing:
        def select_move(self, board):
            raise RuntimeError("boom")

    with pytest.raises(DonutsError, match="raised RuntimeError: boom on position"):
        agent_speed([Crashing()], positions=1, baselines=False)


def test_cli_measures_a_users_agent_beside_ours(capsys, tmp_path):
    out = tmp_path / "agents.json"
    assert main(["bench", "--agent", "examples.compiled_negamax:Agent", "--agent", "greedy", "--positions", "2",
                 "--time", "0.01", "--runs", "2", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    suite = pyperf.BenchmarkSuite.load(str(out))  # a record in pyperf's format: two runs of 2 decisions each
    names = ["examples.compiled_negamax:Agent:time=0.01", "greedy", "alphabeta:time=0.01", "mcts:time=0.01"]
    assert [n.removesuffix(": decisions") for n in suite.get_benchmark_names() if n.endswith(": decisions")] == names
    for name in names:
        assert name in printed
        decisions = suite.get_benchmark(f"{name}: decisions")
        assert decisions.get_nrun() == 2 and decisions.get_nvalue() == 4
    assert "greedy: nodes" not in suite.get_benchmark_names()  # greedy reports no nodes
    assert "nodes/s" in printed and "game: donuts" in printed  # the positions' game, said though not asked for


# --- another game's positions: --game --------------------------------------------------

C4 = "examples.connect_four:connect-four-python"


def test_a_games_positions_come_from_its_set_ups_and_seeded_random_moves():
    states = game_positions(C4, 5, seed=3)
    assert [s.to_text() for s in states] == [s.to_text() for s in game_positions("connect-four-python", 5, seed=3)]
    assert [s.to_text() for s in states] != [s.to_text() for s in game_positions(C4, 5, seed=4)]
    assert [len(s.move_stack) for s in states] == [GAME_LAST_PLY * i // 4 for i in range(5)]
    assert not any(s.is_game_over() for s in states)


def test_agents_are_measured_on_another_games_positions_beside_the_baselines_it_has():
    # Our alpha-beta and MCTS where the game's agents include them (the generic searches, for a game of one's own).
    assert baselines_of("donuts") == ["alphabeta", "mcts"] and set(baselines_of(C4)) <= {"alphabeta", "mcts"}
    bench = agent_speed(["random", "greedy"], time_limit=0.01, positions=2, seed=1, baselines=False, game=C4)
    assert bench["game"] == "connect-four-python"
    assert [a["agent"] for a in bench["agents"]] == ["random", "greedy"]
    assert all(a["decisions"] == 2 and a["illegal"] == 0 for a in bench["agents"])
    names = [f.name for f in agent_figures(bench)]
    assert names[:2] == ["random on connect-four-python: decisions", "greedy on connect-four-python: decisions"]
    assert all(f.params["game"] == "connect-four-python" for f in agent_figures(bench))
    assert "positions of connect-four-python" in agent_report(bench)
    with pytest.raises(DonutsError, match="unknown agent kind 'flipper' for connect-four-python"):
        agent_speed(["flipper"], positions=1, game=C4)


def test_a_baseline_given_as_an_agent_is_measured_once_and_a_repeated_agent_refused():
    same = agent_speed(["alphabeta"], time_limit=0.01, positions=1, seed=1, game="connect-four")
    assert [a["agent"] for a in same["agents"]] == ["alphabeta:time=0.01", "mcts:time=0.01"]
    assert len({f.name for f in agent_figures(same)}) == len(agent_figures(same))
    with pytest.raises(DonutsError, match="agent 'greedy' is given twice"):
        agent_speed(["greedy", "greedy"], time_limit=0.01, positions=1, game="connect-four")


def test_cli_measures_on_another_game_and_says_which(capsys, tmp_path):
    out = tmp_path / "c4.json"
    assert main(["bench", "--agent", "greedy", "--game", C4, "--positions", "2", "--time", "0.01", "--runs", "1",
                 "--json", str(out)]) == 0  # one run: in this process
    printed = capsys.readouterr().out
    assert "game: connect-four-python" in printed and "greedy on connect-four-python" in printed
    suite = pyperf.BenchmarkSuite.load(str(out))
    assert "greedy on connect-four-python: decisions" in suite.get_benchmark_names()
    assert "agents on connect-four-python" in suite.get_benchmark("greedy on connect-four-python: decisions").get_metadata()[SETTINGS_KEY]
    # More runs start processes of their own: they are told the game by the module:name that imports it.
    _, argv = _checked_game(_parser("bench").parse_args(["--agent", "greedy", "--game", "connect-four-python"]),
                            ["--agent", "greedy", "--game", "connect-four-python"])
    assert argv == ["--agent", "greedy", f"--game={C4}"]


@pytest.mark.parametrize("argv, message", [
    (["--agent", "greedy", "--game", C4, "--quick"], "--quick is Donuts' engine figures' option, not for --agent: leave it out"),
    (["--agent", "greedy", "--game", C4, "--only", "perft", "--full-solve"],
     "--full-solve, --only are Donuts' engine figures' options"),
    (["--agent", "greedy", "--only", "perft"], "--only is Donuts' engine figures' option, not for --agent"),  # on Donuts too
    (["--positions", "3"], "--positions goes with --agent"),
    (["--time", "1", "--seed", "2"], "--time, --seed go with --agent"),
    (["--game", C4], "--game connect-four-python measures agents on its positions: give --agent SPEC"),
    (["--agent", "greedy", "--game", "chess"], "unknown game 'chess'; expected one of"),
])
def test_cli_refuses_donuts_only_options_with_another_game(capsys, argv, message):
    status, err = command_error(capsys, "bench", *argv)
    assert status == 2 and err.count("\n") == 1 and err.startswith("donuts-ai bench: error: ") and message in err
