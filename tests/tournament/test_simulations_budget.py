"""One name for the search budget (issue 50, item 3): every searching agent of both games
takes ``simulations`` (mctx's ``num_simulations``, the word of the results), as its
constructor's first parameter and as a spec option, and nothing else: the older names
(``iterations`` for MCTS and ISMCTS, ``sims`` for ``az`` and ``openspiel-mcts``) are
gone from constructors, attributes, specs and engine options. Files written by 0.5 or
earlier may record a spec under an older name: such a results file (tournament or
evaluation) or games file still resumes with the new spelling, keeping its own.

Small budgets, in this process (``isolation="none"``, one worker).
"""

from __future__ import annotations

import inspect
import io
import json
import warnings

import pytest

from donuts_ai import make
from donuts_ai import tournament as T
from donuts_ai.tournament import verify_file
from donuts_ai.tournament.records import DIGEST_KEY, line_digest
from donuts_ai.tournament.specs import RECORDED_NAMES, SpecError, make_agent, normalize_spec, resolve

#: Every searching agent with a count for a budget: kind -> (game, the budget's older name
#: that files written by 0.5 or earlier may hold, a small budget).
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
    assert RECORDED_NAMES[game][kind] == {old: "simulations"}  # the name a file of 0.5 or earlier may hold


@pytest.mark.parametrize("kind", SEARCHERS)
def test_the_old_word_is_gone_from_constructors_attributes_and_specs(kind):
    game, old, n = SEARCHERS[kind]
    cls = _class(kind)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # refused, not warned about
        with pytest.raises(SpecError, match=rf"unknown parameter '{old}'"):
            resolve(f"{kind}:{old}={n},seed=2", game)
        with pytest.raises(SpecError, match=rf"unknown parameter '{old}'"):
            make_agent(f"{kind}:{old}={n}", seed=1, game=game)
        with pytest.raises(TypeError, match=old):
            cls(**{old: n}, seed=1)
    agent = make_agent(f"{kind}:simulations={n}", seed=1, game=game)
    assert not hasattr(agent, old)
    assert old not in inspect.signature(cls).parameters


def test_normalize_spec_reads_a_recorded_spec_under_the_names_of_now_silently():
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        for kind, (game, old, n) in SEARCHERS.items():
            _class(kind)
            assert normalize_spec(f"{kind}:{old}={n},seed=2", game) == f"{kind}:simulations={n},seed=2"
        assert normalize_spec("mcts: iterations = 200,time=0.5", "donuts") == "mcts: simulations = 200,time=0.5"
        assert normalize_spec("donuts_ai.donuts.agents.mcts:MCTSAgent:iterations=5", "donuts") == \
            "donuts_ai.donuts.agents.mcts:MCTSAgent:simulations=5"
    # Only the older names of the agent named; both names at once were never written.
    for spec, game in [("alphabeta:depth=3", "donuts"), ("mcts:simulations=5", "donuts"), ("greedy", "boxes"),
                       ("nosuch:iterations=3", "donuts"), ("engine:./x,go.nodes=5", "donuts"),
                       ("mcts:iterations=1,simulations=2", "donuts"), ("mcts:sims=5", "donuts"),
                       ("ismcts:sims=5", "boxes")]:
        assert normalize_spec(spec, game) == spec
    # ``sims`` is no older name of MCTS's budget: unknown there, and the accepted names say only those of now.
    with pytest.raises(SpecError, match="unknown parameter 'sims'") as err:
        resolve("mcts:sims=5", "donuts")
    assert "iterations" not in str(err.value)


def test_the_engine_lists_the_new_option_only():
    from donuts_ai.engine_protocol.server import EngineServer
    from donuts_ai.tournament.engine_text import parse_go

    out, err = io.StringIO(), io.StringIO()
    server = EngineServer("mcts:simulations=8", out, err)
    server.handle("dep")
    assert "option name simulations type string default 8" in out.getvalue()
    assert "option name iterations" not in out.getvalue()
    server.handle("setoption name iterations value 16")  # an unknown option: said on err, nothing set
    server.handle("isready")
    assert server.agent.simulations == 8 and "unknown option 'iterations'" in err.getvalue()
    server.handle("setoption name simulations value 16")
    server.handle("isready")
    assert server.agent.simulations == 16
    with server._limits(parse_go(["nodes", "5"])):  # go nodes N: a searching agent's simulations
        assert server.agent.simulations == 5
    assert server.agent.simulations == 16
    server.handle("quit")


def _as_written_by_0_5(path, new: str, old: str) -> None:
    """The results file at ``path`` as 0.5 wrote it when given ``old``: its specs (the
    header's agents and names, each unit's and game's) spelt ``old`` where ``new`` is, each
    unit's digest over what it then holds."""
    lines = []
    for text in path.read_text().splitlines():
        line = json.loads(text.replace(new, old))
        if DIGEST_KEY in line:
            line[DIGEST_KEY] = line_digest(line)
        lines.append(json.dumps(line) + "\n")
    path.write_text("".join(lines))


def test_a_results_file_written_with_the_old_word_resumes_with_the_new(tmp_path):
    path = tmp_path / "r.jsonl"
    old, new = "mcts:iterations=20", "mcts:simulations=20"
    T.run([new, "random"], games=2, results_path=str(path), **SETTINGS)
    _as_written_by_0_5(path, new, old)
    assert verify_file(str(path)).ok
    written = path.read_bytes()
    assert json.loads(written.splitlines()[0])["config"]["agents"] == [old, "random"]
    # The new spelling: the same agent, so the file goes on, under the names it recorded.
    resumed = T.run([new, "random"], games=4, results_path=str(path), **SETTINGS, config=T.HarnessConfig(resume=True))
    assert path.read_bytes().startswith(written) and len(resumed.units) == 2
    assert resumed.config["agents"] == resumed.config["names"] == [old, "random"]
    assert {name for g in resumed.games for name in g.names} == {old, "random"}
    assert sorted(r.name for r in resumed.ratings().ratings) == sorted([old, "random"])
    assert verify_file(str(path)).ok
    # The old spelling is no spec any more.
    with pytest.raises(SpecError, match="unknown parameter 'iterations'"):
        T.run([old, "random"], games=4, results_path=str(path), **SETTINGS, config=T.HarnessConfig(resume=True))
    # Another budget is another agent: refused, the file unchanged.
    before = path.read_bytes()
    with pytest.raises(T.ResultsFileError, match="differs in: agent"):
        T.run(["mcts:simulations=21", "random"], games=4, results_path=str(path), **SETTINGS, config=T.HarnessConfig(resume=True))
    assert path.read_bytes() == before


def test_an_evaluation_written_with_the_old_word_resumes_with_the_new(tmp_path):
    from donuts_ai.suites import evaluate
    from donuts_ai.suites.evaluation import EvaluationSettings

    path = tmp_path / "e.jsonl"
    old, new = "mcts:iterations=20", "mcts:simulations=20"
    first = evaluate([new], suite="endgame", limit=2, results_path=str(path), settings=EvaluationSettings(isolation="none"))
    _as_written_by_0_5(path, new, old)
    written = path.read_bytes()
    again = evaluate([new], suite="endgame", limit=2, results_path=str(path), resume=True, settings=EvaluationSettings(isolation="none"))
    assert path.read_bytes() == written  # every unit was there: nothing played, nothing written
    assert again.config["agents"] == [old] and first.config["agents"] == [new]
    assert again.scores() == {old: first.scores()[new]}  # the same scores, under the file's name


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
