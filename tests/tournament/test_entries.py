"""Agent objects and classes wherever a spec goes (donuts_ai.tournament.entries): records,
names, travel to supervised seats, run-time kinds, and the errors for what cannot travel."""

import json
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from donuts_ai import tournament as T
from donuts_ai.donuts.agents import GreedyAgent
from donuts_ai.tournament import SpecError, source_of
from donuts_ai.tournament.specs import _RUNTIME_KINDS

SCRIPT = Path(__file__).parents[1] / "data" / "agent_in_main.py"


class Plain:
    """An agent that does not derive from the base: no spec, no name, object's repr."""

    def select_move(self, board):
        return board.legal_moves()[0]


class WithRepr(Plain):
    def __init__(self, depth=1):
        self.depth = depth

    def __repr__(self):
        return f"WithRepr(depth={self.depth})"


class HoldsALock(Plain):
    def __init__(self):
        self.lock = threading.Lock()


def test_records_and_names_of_entries():
    assert source_of("greedy", "donuts").record == "greedy"
    ours = source_of(GreedyAgent(seed=3), "donuts")
    assert re.fullmatch(r"<donuts_ai\.donuts\.agents\.greedy\.GreedyAgent> greedy:seed=3 #[0-9a-f]{12}", ours.record)
    assert ours.name == "greedy" and source_of(GreedyAgent(seed=3), "donuts").record == ours.record
    plain = source_of(Plain(), "donuts")
    assert re.fullmatch(r"<tests\.tournament\.test_entries\.Plain> #[0-9a-f]{12}", plain.record)  # no address: resumable
    assert plain.name == "Plain"
    assert re.fullmatch(r"<tests\.tournament\.test_entries\.WithRepr> WithRepr\(depth=2\) #[0-9a-f]{12}",
                        source_of(WithRepr(2), "donuts").record)
    cls = source_of(WithRepr, "donuts")
    assert cls.is_class and cls.record == "<tests.tournament.test_entries.WithRepr>"
    assert cls.build("donuts").depth == 1


class Hidden(Plain):
    """Its repr leaves its parameter out, as the agent base's does for a subclass's own."""

    def __init__(self, depth):
        self.depth = depth

    def __repr__(self):
        return "Hidden()"


def test_records_tell_apart_what_a_repr_hides_and_stay_short():
    one, two = source_of(Hidden(1), "donuts").record, source_of(Hidden(2), "donuts").record
    assert one != two and one.startswith("<tests.tournament.test_entries.Hidden> Hidden() #")
    long = source_of(WithRepr("x" * 100_000), "donuts")
    assert len(long.record) < 200 and long.build("donuts").depth == "x" * 100_000


def test_built_copies_are_fresh_and_equal():
    source = source_of(WithRepr(5), "donuts")
    first, second = source.build("donuts"), source.build("donuts")
    assert first is not second and first.depth == second.depth == 5


@pytest.mark.parametrize("entry, words", [
    (object(), "an agent must be a spec string, an agent class or an agent object"),
    (int, "is not an agent class (needs select_move)"),
    (HoldsALock(), "cannot be sent to its seat process"),
    ("nope", "unknown agent kind 'nope'"),
])
def test_bad_entries_are_refused_up_front(entry, words):
    with pytest.raises(SpecError, match=words.replace("(", r"\(").replace(")", r"\)")):
        T.make_config([entry, "greedy"], game="donuts")


def test_two_objects_of_one_class_are_two_agents():
    class Counter(Plain):
        def __init__(self, start):
            self.start = start

    config = T.make_config([Counter(1), Counter(2)], game="donuts")
    assert config["agents"][0] != config["agents"][1] and config["names"] == ["Counter:start=1", "Counter:start=2"]


def test_register_agent_checks_and_names_a_kind():
    try:
        T.register_agent("plain_first", Plain, game="donuts")
        assert T.resolve("plain_first", "donuts")[0] is Plain
        source = source_of("plain_first", "donuts")
        assert source.kinds and source.kinds[0][0] == "plain_first"  # the class travels with the seats
        with pytest.raises(SpecError, match="identifier"):
            T.register_agent("engine", Plain, game="donuts")
        with pytest.raises(SpecError, match="takes an agent class"):
            T.register_agent("x", Plain(), game="donuts")
        with pytest.raises(SpecError, match="'greedy' is a built-in agent of donuts"):
            T.register_agent("greedy", Plain, game="donuts")
    finally:
        _RUNTIME_KINDS.get("donuts", {}).pop("plain_first", None)


def test_play_game_seats_objects_in_process_when_asked():
    agent = WithRepr()
    record = T.play_game([agent, "random:seed=1"], T.get_game("donuts").draw_setup("random", 3),
                         None, 3, game="donuts", isolation="none")
    assert record.names == ["WithRepr", "random:seed=1"] and record.reason


class CountsItsMoves(Plain):
    def __init__(self):
        self.moves = 0

    def select_move(self, board):
        self.moves += 1
        return super().select_move(board)


def test_one_object_in_two_seats_is_two_agents():
    agent = CountsItsMoves()
    record = T.play_game([agent, agent], T.get_game("donuts").draw_setup("random", 4), None, 4, game="donuts",
                         isolation="none")
    assert agent.moves == record.turns[0] < record.plies  # the second seat played a copy


def test_a_script_with_agents_in_main_plays_supervised(tmp_path):
    """The issue's acceptance script: classes defined in ``__main__`` play a 20-game
    tournament and an SPRT in supervised seats; a hang costs its games, not the run;
    resuming with another object is refused and leaves the file as it was; a kind
    registered at run time reaches seats in worker processes."""
    done = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path)], capture_output=True, text=True, timeout=600,
                          cwd=Path(__file__).parents[2])
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    tour = report["tournament"]
    assert (tour["games"], tour["names"], tour["events"]) == (20, ["FirstMove", "greedy"], 0)
    assert tour["agents"][0].startswith("<__main__.FirstMove> FirstMove(seed=1) #") and tour["agents"][1] == "greedy"
    assert "it was played by" in report["resume_other"] and report["file_unchanged"]
    assert report["resume_same_games"] == 20
    assert report["sprt_pairs"] >= 1
    assert report["hang"]["games"] == 2 and report["hang"]["kinds"] == ["time"]
    assert report["hang"]["winners"] == ["Shuffler", "Shuffler"]  # the hanging agent lost both, the run went on
    assert report["registered"] == {"games": 2, "events": 0, "agents": ["first:seed=5", "random"]}
    assert report["play_game"]["names"] == ["FirstMove", "shuffler"]
    assert "cannot be sent to its seat process" in report["cannot_travel"]
    assert "an agent must be" in report["not_an_agent"]
