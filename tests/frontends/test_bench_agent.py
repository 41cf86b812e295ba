"""``donuts-ai bench --agent SPEC`` and :func:`donuts_ai.bench.agent_speed`: any agent's
decisions/s and nodes/s beside ours. Only what they count is checked, never a speed."""

from __future__ import annotations

import pyperf
import pytest

from donuts_ai import DonutsError
from donuts_ai.bench import agent_report, agent_speed, bench_positions
from donuts_ai.bench.agents import FIRST_PLY, LAST_PLY, _with_time
from donuts_ai.cli import main


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
    assert "nodes/s" in printed
