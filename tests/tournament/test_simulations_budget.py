"""One name for the search budget (issue 50, item 3): every searching agent of both games
takes ``simulations`` (mctx's ``num_simulations``, the word of the results), as its
constructor's first parameter and as a spec option. The old names (``iterations`` for
MCTS and ISMCTS, ``sims`` for ``az`` and ``openspiel-mcts``) still work until 0.6.0 with
a :class:`DeprecationWarning` naming the new word; giving both is an error; and a results
file written with an old name resumes with either spelling, keeping its own.

Small budgets, in this process (``isolation="none"``, one worker).
"""

from __future__ import annotations

import io
import json
import warnings

import pytest

from donuts_ai import make
from donuts_ai import tournament as T
from donuts_ai.errors import AgentError
from donuts_ai.tournament import verify_file
from donuts_ai.tournament.specs import SpecError, deprecated_parameters, make_agent, normalize_spec, resolve

#: Every searching agent with a count for a budget: kind -> (game, its old name of the
#: budget, a small budget).
SEARCHERS = {
    "mcts": ("donuts", "iterations", 8),
    "ismcts": ("boxes", "iterations", 8),
    "az": ("donuts", "sims", 2),
    "openspiel-mcts": ("donuts", "sims", 4),
}
SETTINGS = {"game": "donuts", "workers": 1, "isolation": "none", "seed": 3}


def _class(kind: str) -> type:
    game = SEARCHERS[kind][0]
    try:
        cls, _ = resolve(kind, game)
    except SpecError as exc:  # an optional kind whose dependency is missing
        pytest.skip(str(exc))
    return cls


@pytest.mark.parametrize("kind", SEARCHERS)
def test_the_new_word_works_in_constructors_and_specs_without_a_warning(kind):
    game, old, n = SEARCHERS[kind]
    cls = _class(kind)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        agent = make_agent(f"{kind}:simulations={n}", seed=1, game=game)
        assert type(agent) is cls and agent.simulations == n
        assert agent.spec == f"{kind}:simulations={n},seed=1" and agent.params()["simulations"] == n
        assert cls(n, seed=1).spec == cls(simulations=n, seed=1).spec == agent.spec  # first, by position
        state = make(game)
        assert state.is_legal(agent.select_move(state))
    assert deprecated_parameters(cls) == {old: "simulations"}


@pytest.mark.parametrize("kind", SEARCHERS)
def test_the_old_word_warns_naming_the_new_one_and_builds_the_same_agent(kind):
    game, old, n = SEARCHERS[kind]
    cls = _class(kind)
    with pytest.warns(DeprecationWarning, match=rf"'{old}' is deprecated: the parameter is named 'simulations'"):
        assert resolve(f"{kind}:{old}={n},seed=2", game) == (cls, {"simulations": n, "seed": 2})
    with pytest.warns(DeprecationWarning, match="'simulations'"):
        from_spec = make_agent(f"{kind}:{old}={n}", seed=1, game=game)
    with pytest.warns(DeprecationWarning, match=rf"{cls.__name__}: '{old}' is deprecated.*'simulations'"):
        from_keyword = cls(**{old: n}, seed=1)
    assert from_spec.spec == from_keyword.spec == f"{kind}:simulations={n},seed=1"
    assert from_keyword.simulations == n
    with pytest.warns(DeprecationWarning, match=rf"\.{old} is deprecated: read \.simulations"):
        assert getattr(from_keyword, old) == n  # the attribute of the old name, deprecated too
    with pytest.warns(DeprecationWarning, match=rf"\.{old} is deprecated: set \.simulations"):
        setattr(from_keyword, old, n + 1)
    assert from_keyword.simulations == n + 1
    assert normalize_spec(f"{kind}:{old}={n},seed=2", game) == f"{kind}:simulations={n},seed=2"


@pytest.mark.parametrize("kind", SEARCHERS)
def test_both_words_at_once_are_refused(kind):
    game, old, n = SEARCHERS[kind]
    cls = _class(kind)
    with pytest.raises(SpecError, match=rf"'{old}' and 'simulations' both given.*give simulations alone"):
        make_agent(f"{kind}:simulations={n},{old}={n}", game=game)
    with pytest.raises(AgentError, match=rf"both simulations={n} and {old}={n}"):
        cls(simulations=n, **{old: n})
    # A bad value under the old name is named by it.
    with pytest.warns(DeprecationWarning), pytest.raises(AgentError, match=rf"\b{old}\b"):
        cls(**{old: -1})


def test_normalize_spec_rewrites_only_the_deprecated_names_of_the_agent_named():
    assert normalize_spec("mcts: iterations = 200,time=0.5", "donuts") == "mcts: simulations = 200,time=0.5"
    assert normalize_spec("donuts_ai.donuts.agents.mcts:MCTSAgent:iterations=5", "donuts") == \
        "donuts_ai.donuts.agents.mcts:MCTSAgent:simulations=5"
    for spec, game in [("alphabeta:depth=3", "donuts"), ("mcts:simulations=5", "donuts"), ("greedy", "boxes"),
                       ("nosuch:iterations=3", "donuts"), ("engine:./x,go.nodes=5", "donuts"),
                       ("mcts:iterations=1,simulations=2", "donuts")]:
        assert normalize_spec(spec, game) == spec
    # ``sims`` is no old name of MCTS's budget, nor ``iterations`` of az's: unknown there, as before.
    with pytest.raises(SpecError, match="unknown parameter 'sims'") as err:
        resolve("mcts:sims=5", "donuts")
    assert "iterations" not in str(err.value)  # the accepted names leave the deprecated ones out


def test_the_engine_lists_the_new_option_and_takes_the_old_one():
    from donuts_ai.engine_protocol.server import EngineServer
    from donuts_ai.tournament.engine_text import parse_go

    out, err = io.StringIO(), io.StringIO()
    server = EngineServer("mcts:simulations=8", out, err)
    server.handle("dep")
    assert "option name simulations type string default 8" in out.getvalue()
    assert "option name iterations" not in out.getvalue()
    server.handle("setoption name iterations value 16")
    server.handle("isready")
    assert server.agent.simulations == 16 and "'iterations' is deprecated" in err.getvalue()
    with server._limits(parse_go(["nodes", "5"])):  # go nodes N: a searching agent's simulations
        assert server.agent.simulations == 5
    assert server.agent.simulations == 16
    server.handle("quit")


def test_a_results_file_written_with_the_old_word_resumes_with_either(tmp_path):
    path = tmp_path / "r.jsonl"
    old, new = "mcts:iterations=20", "mcts:simulations=20"
    with pytest.warns(DeprecationWarning):
        T.run([old, "random"], games=2, results_path=str(path), **SETTINGS)
    written = path.read_bytes()
    assert json.loads(written.splitlines()[0])["config"]["agents"] == [old, "random"]
    # The new spelling: the same agent, so the file goes on, under the names it recorded.
    resumed = T.run([new, "random"], games=4, results_path=str(path), resume=True, **SETTINGS)
    assert path.read_bytes().startswith(written) and len(resumed.units) == 2
    assert resumed.config["agents"] == resumed.config["names"] == [old, "random"]
    assert {name for g in resumed.games for name in g.names} == {old, "random"}
    assert sorted(r.name for r in resumed.ratings().ratings) == sorted([old, "random"])
    # The old spelling still resumes it (nothing left to play), and the file verifies.
    with pytest.warns(DeprecationWarning):
        T.run([old, "random"], games=4, results_path=str(path), resume=True, **SETTINGS)
    assert verify_file(str(path)).ok
    # Another budget is another agent: refused, the file unchanged.
    before = path.read_bytes()
    with pytest.raises(T.ResultsFileError, match="differs in: agent"):
        T.run(["mcts:simulations=21", "random"], games=4, results_path=str(path), resume=True, **SETTINGS)
    assert path.read_bytes() == before


def test_an_evaluation_written_with_the_old_word_resumes_with_the_new(tmp_path):
    from donuts_ai.suites import evaluate

    path = tmp_path / "e.jsonl"
    with pytest.warns(DeprecationWarning):
        first = evaluate(["mcts:iterations=20"], suite="endgame", limit=2, results_path=str(path), isolation="none")
    written = path.read_bytes()
    again = evaluate(["mcts:simulations=20"], suite="endgame", limit=2, results_path=str(path), resume=True,
                     isolation="none")
    assert path.read_bytes() == written  # every unit was there: nothing played, nothing written
    assert again.config["agents"] == first.config["agents"] == ["mcts:iterations=20"]
    assert again.scores() == first.scores()


def test_the_suite_generator_goes_on_from_a_games_file_written_with_the_old_word(tmp_path):
    from donuts_ai.suites.format import PHASES, load_suite
    from donuts_ai.suites.generate import DISTANCE_NODES, GAMES_FILE, _settings, generate

    settings = _settings(5, DISTANCE_NODES)
    settings["agents"] = [a.replace("mcts:simulations=", "mcts:iterations=") for a in settings["agents"]]
    assert "mcts:iterations=2000" in settings["agents"]
    games = [{name: load_suite(name).positions[i].line() for name in PHASES} for i in range(2)]
    lines = [json.dumps(settings), *(json.dumps({"game": i, "positions": g}) for i, g in enumerate(games))]
    (tmp_path / GAMES_FILE).write_text("\n".join(lines) + "\n")
    generate(tmp_path, positions=1, seed=5)  # the same settings: no game to play
    assert (tmp_path / GAMES_FILE).read_text() == "\n".join(lines) + "\n"
