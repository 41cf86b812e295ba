"""Names and messages: every agent of a run has a name of its own that says how it
differs (a spec: the spec; an object: the parameters in which it differs, which the agent
base reads from its constructor's arguments), no table cuts two names into one, and a
mistaken spec says what was meant ("unknown agent kind 'mtcs' ...; did you mean 'mcts'?")."""

from __future__ import annotations

import numpy as np
import pytest

from donuts_ai import tournament as T
from donuts_ai.agents import base
from donuts_ai.donuts.agents import AlphaBetaAgent, DonutsAgent, GreedyAgent, RandomAgent
from donuts_ai.errors import DonutsError
from donuts_ai.tournament import SpecError, entries, report, source_of
from donuts_ai.tournament.specs import _RUNTIME_KINDS

HERE = "tests.test_names_and_messages"
#: An attribute of this module that is no agent class.
NOT_AN_AGENT = 3


class Lookahead(DonutsAgent):
    """Plays the first legal move; its parameters only name it."""

    kind = "lookahead"

    def __init__(self, depth=2, time_limit=None, seed=None, name=None, table=None):
        super().__init__(seed, name)
        self.depth, self.time_limit, self.table = depth, time_limit, table

    def _select(self, board, time_left):
        return board.legal_moves()[0]


class Deeper(Lookahead):
    """A subclass that takes one more argument and hands the rest on."""

    def __init__(self, width=1, **kwargs):
        super().__init__(**kwargs)
        self.width = width


class OwnParams(Lookahead):
    """A subclass that reports its parameters itself."""

    def params(self):
        return {"d": self.depth, **super().params()}


class WiderAlphaBeta(AlphaBetaAgent):
    """A built-in agent (which reports its own parameters) with one more argument."""

    def __init__(self, bonus=0, **kwargs):
        super().__init__(**kwargs)
        self.bonus = bonus


class Plain:
    """An agent that does not derive from the base: its plain attributes tell it apart."""

    def __init__(self, start):
        self.start, self._hidden = start, object()

    def select_move(self, board):
        return board.legal_moves()[0]


# --- params() from the constructor -------------------------------------------------


def test_params_come_from_the_constructor_call():
    assert Lookahead(3).params() == {"depth": 3}  # positional, by name
    assert Lookahead(depth=3, time_limit=0.1, seed=4).params() == {"depth": 3, "time_limit": 0.1, "seed": 4}
    assert Lookahead(depth=2).params() == {} and Lookahead().spec == "lookahead"  # a default is left out
    assert Lookahead(depth=3, seed=4).spec == "lookahead:depth=3,seed=4"
    assert repr(Lookahead(3, seed=1)) == "Lookahead(depth=3, seed=1)"
    assert Lookahead(table=[1, 2]).params() == {}  # not a plain value: left out, never a memory address
    assert Lookahead(np.int64(3)).params() == {"depth": 3} and Lookahead(np.int64(2)).params() == {}  # NumPy numbers too
    assert Lookahead(depth="a,b").params() == {}  # text a spec could not hold
    assert Lookahead(name="mine").params() == {} and Lookahead(name="mine").name == "mine"


def test_params_of_subclasses():
    # The outermost call's arguments, **kwargs spread; the arguments of the calls it makes are not recorded again.
    assert Deeper(width=2, depth=5, seed=1).params() == {"width": 2, "depth": 5, "seed": 1}
    # A class that overrides params() keeps its own: nothing is reported twice.
    assert OwnParams(depth=4).params() == {"d": 4}
    assert WiderAlphaBeta(bonus=2, depth=3).spec == "alphabeta:depth=3,bonus=2"
    # The built-in agents' specs are as they were.
    assert AlphaBetaAgent(depth=6).spec == "alphabeta:depth=6" and RandomAgent(seed=3).spec == "random:seed=3"
    assert GreedyAgent().spec == "greedy"


def test_recorded_arguments_leave_records_as_they_were():
    # The harness's copy of the attribute's name is the agent base's.
    assert entries.ARGUMENTS_ATTRIBUTE == base.ARGUMENTS_ATTRIBUTE
    agent = GreedyAgent(seed=3)
    record = source_of(agent, "donuts").record
    vars(agent)[base.ARGUMENTS_ATTRIBUTE] = {"seed": 9}  # another call's arguments, the same spec
    assert source_of(agent, "donuts").record == record  # the digest leaves the arguments out


# --- names in a run ------------------------------------------------------------------


def test_two_objects_of_one_class_are_named_by_their_arguments():
    config = T.make_config([Lookahead(depth=3, seed=1), Lookahead(depth=5, seed=1)], game="donuts")
    assert config["names"] == ["lookahead:depth=3", "lookahead:depth=5"]  # only what differs
    assert T.make_config([Deeper(width=2), Deeper(width=3, depth=4), "random"], game="donuts")["names"] == [
        "lookahead:width=2", "lookahead:width=3,depth=4", "random"]
    assert T.make_config([Plain(1), Plain(2)], game="donuts")["names"] == ["Plain:start=1", "Plain:start=2"]
    # An object named like a spec in the run says how it differs; the spec keeps its name.
    assert T.make_config([GreedyAgent(seed=2), "greedy"], game="donuts")["names"] == ["greedy:seed=2", "greedy"]


def test_what_nothing_tells_apart_is_numbered():
    assert T.make_config(["random", "random"], game="donuts")["names"] == ["random", "random#2"]
    assert T.make_config([Lookahead, Lookahead], game="donuts")["names"] == ["Lookahead", "Lookahead#2"]
    names = T.make_config([Lookahead(3, name="x"), Lookahead(3, name="x"), Lookahead(4, name="x")], game="donuts")["names"]
    assert names == ["x:depth=3", "x:depth=3#2", "x:depth=4"] and len(set(names)) == 3


def test_names_of_never_gives_one_name_twice():
    sources = [T.AgentSource(record=str(i), name=name) for i, name in enumerate(["a", "a#2", "a", "a"])]
    names = entries.names_of(sources)
    assert names[:2] == ["a", "a#2"] and len(set(names)) == 4


def test_two_specs_of_one_class_are_two_rows():
    specs = [f"{HERE}:Lookahead:depth=1", f"{HERE}:Lookahead:depth=2"]  # 25 characters alike
    results = T.run(specs, game="donuts", games=2, seed=1, isolation="none", workers=1)
    assert results.agents == specs  # a spec's name is the spec
    table = results.table()
    for spec in specs:
        assert sum(line.lstrip().startswith(spec) for line in table.splitlines()) >= 2  # ratings and ledger rows, whole
    rows = [line.split()[0] for line in table.split("Ledger")[1].splitlines()[1:] if line.startswith("  ") and "games" not in line]
    assert sorted(rows) == sorted(specs)


def test_a_column_never_cuts_two_names_into_one():
    short, width = report._column(["random", "greedy"])
    assert width == report.NAME_WIDTH and short == {"random": "random", "greedy": "greedy"}
    a, b = "my_negamax:NegamaxAgent:time=0.02", "my_negamax:NegamaxAgent:time=0.1"
    shown, width = report._column([a, b])
    assert shown == {a: a, b: b} and width == len(a)  # widened
    long = ["x" * 60 + ":time=0.02", "x" * 60 + ":time=0.1"]
    shown, width = report._column(long)
    assert width == report.MAX_NAME_WIDTH and len(set(shown.values())) == 2
    assert all(len(v) == width and v.endswith(n[-8:]) for n, v in shown.items())  # cut in the middle: the end stays
    middle = ["a" * 30 + "1" + "b" * 30, "a" * 30 + "2" + "b" * 30]  # they differ where a cut falls
    shown, width = report._column(middle)
    assert shown == {n: n for n in middle} and width == 61


# --- messages --------------------------------------------------------------------------


def _message(spec: str) -> str:
    with pytest.raises(SpecError) as caught:
        T.resolve(spec, "donuts")
    assert isinstance(caught.value, DonutsError) and isinstance(caught.value, ValueError)
    text = str(caught.value)
    assert "\n" not in text
    return text


@pytest.mark.parametrize("spec", ["mtcs:time=0.1", "mtcs", "mtcs:Agent", "mtcs:time=0.1:x=1"])
def test_an_unknown_kind_says_so_with_the_kinds_and_the_close_one(spec):
    text = _message(spec)
    assert "unknown agent kind 'mtcs' for donuts" in text and "; kinds: random, greedy, alphabeta, mcts" in text
    assert "openspiel-mcts" in text and text.endswith("did you mean 'mcts'?")
    assert "cannot import" not in text


def test_the_close_kinds_include_those_registered_at_run_time():
    try:
        T.register_agent("flipper_names", Lookahead, game="donuts")
        text = _message("fliper_names:seed=1")
        assert "flipper_names" in text.split("kinds:")[1] and text.endswith("did you mean 'flipper_names'?")
    finally:
        _RUNTIME_KINDS.get("donuts", {}).pop("flipper_names", None)
    assert "did you mean" not in _message("zzzzzz")


def test_a_missing_class_says_so_with_the_close_one():
    text = _message(f"{HERE}:Lookahed")
    assert text.endswith(f"module '{HERE}' has no class 'Lookahed'; did you mean 'Lookahead'?")
    assert "agent classes: " in _message(f"{HERE}:Zebra")  # nothing close: the module's agent classes
    assert "is not an agent class (needs select_move)" in _message(f"{HERE}:NOT_AN_AGENT")
    assert "has no class" not in _message(f"{HERE}:NOT_AN_AGENT")


def test_a_dotted_module_that_is_missing_is_one_that_cannot_be_imported():
    assert "cannot import module 'no.such.module'" in _message("no.such.module:Agent")


def test_an_unknown_parameter_names_the_close_one():
    assert _message("greedy:sed=1").endswith("unknown parameter 'sed' (accepted: seed); did you mean 'seed'?")


def test_a_class_without_select_move_keeps_its_message():
    with pytest.raises(SpecError, match=r"is not an agent class \(needs select_move\)"):
        source_of(int, "donuts")


