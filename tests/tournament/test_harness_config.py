"""The harness's one configuration (:class:`~donuts_ai.tournament.HarnessConfig`): the
entry points' shape, keyword and config calls alike, and files written before it."""

from __future__ import annotations

import dataclasses
import inspect
import json
import os
import shutil

import pytest

from donuts_ai import evaluate
from donuts_ai import tournament as T
from donuts_ai.donuts.agents import RandomAgent
from donuts_ai.errors import DonutsError
from donuts_ai.study import load_study, run_study
from donuts_ai.suites.evaluation import EvaluationSettings

DATA = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data")
#: The most positional parameters a public entry point of the harness may take.
MAX_POSITIONAL = 6
ENTRY_POINTS = [T.run, T.run_sprt, T.make_config, T.play_game, run_study, evaluate]
#: The fixtures written before the config (``git archive before-29``, then with that tree first on
#: the path): ``tournament.run(["random", "greedy", "random:seed=2"], format="gauntlet", mode="duel",
#: games=1, setups="random:1:2", seed=7, workers=1, isolation="none", game="donuts", results_path=...)``
#: and ``run_study(grids=2, seed=11, workers=1, rules={"insertion": "single", "donuts": 12}, results_path=...)``.
#: Fields of a results file that measure time: two runs of the same games differ there.
TIMINGS = {"times", "seconds"}


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda f: f.__name__)
def test_no_entry_point_takes_more_than_six_positional_parameters(entry):
    positional = [p for p in inspect.signature(entry).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    assert len(positional) <= MAX_POSITIONAL, [p.name for p in positional]


def test_the_keywords_are_the_config_fields():
    fields = {f.name for f in dataclasses.fields(T.HarnessConfig)} - {"agents"}
    assert set(T.Settings.__annotations__) == fields


def test_runs_keywords_are_config_fields_with_their_defaults():
    # help(run) shows each keyword with the default its field has; the rest are the config's
    defaults = {f.name: f.default for f in dataclasses.fields(T.HarnessConfig)}
    keywords = {name: p.default for name, p in inspect.signature(T.run).parameters.items()
                if p.kind is p.KEYWORD_ONLY and name != "config"}
    assert keywords and all(defaults[name] == default for name, default in keywords.items())
    assert len(inspect.signature(T.run).parameters) - 1 <= 8  # besides the settings object


def test_the_old_layouts_keyword_is_gone():
    config = T.HarnessConfig(game="donuts")
    with pytest.raises(TypeError, match="unexpected keyword argument 'layouts'"):
        config.replace(layouts="standard")
    with pytest.raises(TypeError, match="layouts"):
        T.run(["random", "greedy"], game="donuts", layouts="standard")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'layouts'"):
        T.make_config(["random", "greedy"], game="donuts", layouts="standard")  # type: ignore[call-arg]


def _without_timings(value):
    if isinstance(value, dict):
        return {k: _without_timings(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [_without_timings(v) for v in value]
    return value


def _lines(path):
    # A line's digest covers its timings too: it goes with them.
    with open(path, encoding="utf-8") as fh:
        return [_without_timings({k: v for k, v in json.loads(line).items() if k != "digest"}) for line in fh]


def test_keywords_and_a_config_write_the_same_results_file(tmp_path):
    agents = ["random", RandomAgent(seed=4)]
    by_keywords = tmp_path / "keywords.jsonl"
    T.run(agents, game="donuts", games=2, setups="random:1:2", seed=3, workers=1, isolation="none",
          results_path=str(by_keywords))
    config = T.HarnessConfig(game="donuts", games=2, setups="random:1:2", seed=3, workers=1, isolation="none")
    assert config.replace(setups="x").setups == "x"
    by_config = tmp_path / "config.jsonl"
    T.run(agents, config=config.replace(results_path=str(by_config)))
    assert _lines(by_keywords) == _lines(by_config)
    # the config may carry the agents too (as their sources: records and pickled objects)
    carried = config.replace(agents=agents)
    assert carried.records == json.loads(by_keywords.read_text().splitlines()[0])["config"]["agents"]
    assert T.make_config(config=carried) == T.make_config(agents, game="donuts", games=2, setups="random:1:2", seed=3,
                                                          isolation="none")
    with pytest.raises(dataclasses.FrozenInstanceError):
        carried.games = 4  # type: ignore[misc]


def test_a_config_and_keywords_that_disagree_are_refused():
    config = T.HarnessConfig(game="donuts", games=4, seed=1)
    with pytest.raises(T.ConfigError, match=r"disagree on games=6 \(the config has 4\)"):
        T.make_config(["random", "greedy"], config=config, games=6)
    with pytest.raises(T.ConfigError, match="disagree on agents"):
        T.make_config(["random", "greedy"], config=config.replace(agents=["greedy", "random"]))
    # the same value twice, or a keyword for what the config leaves at its default, is no conflict
    line = T.make_config(["random", "greedy"], config=config, games=4, mode="duel")
    assert (line["games"], line["mode"], line["seed"]) == (4, "duel", 1)
    with pytest.raises(T.ConfigError, match="run_sprt does not use games"):
        T.run_sprt("random", "greedy", config=config)
    with pytest.raises(T.ConfigError, match="run_study does not use agents"):
        run_study(grids=1, config=config.replace(agents=["random", "greedy"]))
    with pytest.raises(TypeError, match="unexpected keyword argument 'gmaes'"):
        T.run(["random", "greedy"], game="donuts", gmaes=2)  # type: ignore[call-arg]
    with pytest.raises(T.ConfigError, match="give game="):
        T.HarnessConfig(agents=["random"])
    with pytest.raises(T.ConfigError, match="unknown backend"):
        T.HarnessConfig(backend="threads")


def test_a_tournament_file_written_before_the_config_resumes(tmp_path):
    # tests/data/results_before_29_gauntlet.jsonl: a gauntlet of best-of-3 series on two
    # fixed layouts, written by the harness before HarnessConfig (tag before-29).
    source = os.path.join(DATA, "results_before_29_gauntlet.jsonl")
    before = T.Results.from_file(source)
    path = tmp_path / "r.jsonl"
    with open(source, encoding="utf-8") as fh:
        path.write_text("".join(fh.readlines()[:-1]), encoding="utf-8")  # the last series to play again
    config = T.HarnessConfig(game="donuts", format="gauntlet", mode="duel", games=1, seed=7, workers=1, isolation="none",
                             setups=before.config["setups"], resume=True)  # read from the file's "layouts"
    again = T.run(["random", "greedy", "random:seed=2"], config=config, results_path=str(path))
    assert [(g.unit, g.setup, g.moves, g.winner) for g in again.games] == [(g.unit, g.setup, g.moves, g.winner)
                                                                          for g in before.games]


def test_a_study_file_written_before_the_config_resumes(tmp_path):
    # tests/data/study_before_29.jsonl: two grids under a variant, written before the config;
    # its first unit took a minute to solve, so only the cheap last one is solved again.
    source = os.path.join(DATA, "study_before_29.jsonl")
    config, units = load_study(source)
    path = tmp_path / "study.jsonl"
    shutil.copy(source, path)
    with open(source, encoding="utf-8") as fh:
        path.write_text("".join(fh.readlines()[:-1]), encoding="utf-8")
    again_config, again = run_study(grids=2, seed=11, results_path=str(path), resume=True, workers=1,
                                    rules={"insertion": "single", "donuts": 12})
    assert again_config == config
    _assert_resumed(again, units)


# Files written by 0.3.0 (commit b926ae6, tests/data/*_v030*.jsonl): a Donuts round robin
# (``donuts-ai tournament random greedy --games 4 --seed 3 --workers 1``), a 3-player Donut
# Boxes free-for-all (``--game boxes --players 3 random random:seed=2 random:seed=3 --games 6
# --seed 4``) and a study (``study first-player --arrangements 3 --seed 5``). Each resumes
# here with its last unit removed, and the unit played again is the one 0.3.0 wrote.
@pytest.mark.parametrize("name, agents, settings", [
    ("results_v030_donuts.jsonl", ["random", "greedy"], {"game": "donuts", "games": 4, "seed": 3}),
    ("results_v030_boxes.jsonl", ["random", "random:seed=2", "random:seed=3"],
     {"game": "boxes", "players": 3, "games": 6, "seed": 4}),
])
def test_a_tournament_file_written_by_0_3_0_resumes(tmp_path, name, agents, settings):
    source = os.path.join(DATA, name)
    before = T.Results.from_file(source)
    path = tmp_path / name
    with open(source, encoding="utf-8") as fh:
        lines = fh.readlines()
    assert len(lines) >= 3  # the config and at least two units: one kept, one played again
    path.write_text("".join(lines[:-1]), encoding="utf-8")
    config = T.HarnessConfig(workers=1, resume=True, **settings)
    again = T.run(agents, config=config, results_path=str(path))
    assert [(g.unit, g.setup, g.seats, g.moves, g.winner) for g in again.games] == [
        (g.unit, g.setup, g.seats, g.moves, g.winner) for g in before.games]


def test_a_study_file_written_by_0_3_0_resumes(tmp_path):
    source = os.path.join(DATA, "study_v030.jsonl")
    config, units = load_study(source)
    path = tmp_path / "study.jsonl"
    with open(source, encoding="utf-8") as fh:
        path.write_text("".join(fh.readlines()[:-1]), encoding="utf-8")
    again_config, again = run_study(arrangements=3, seed=5, results_path=str(path), resume=True, workers=1)
    assert again_config == config
    _assert_resumed(again, units)


def _assert_resumed(again, units):
    """A study resumed from its file with the last unit cut off: the units kept are read back as
    written; the one solved again has its layout and value (its move and node count are of the
    code that solved it: a change to the search order changes them)."""
    kept = [{key: u[key] for key in units[0]} for u in again[:-1]]
    assert kept == units[:-1]
    assert [(u["layout"], u["value"]) for u in again] == [(u["layout"], u["value"]) for u in units]


def test_a_results_path_that_is_no_path_or_a_resume_without_one_is_refused_before_any_game(tmp_path):
    # An int was taken for an open file's number: a whole tournament appended to another file.
    with pytest.raises(T.ConfigError, match="results_path must be a file's path"):
        T.run(["random", "greedy"], game="donuts", isolation="none", workers=1, results_path=3)  # type: ignore[arg-type]
    assert T.HarnessConfig(results_path=tmp_path / "r.jsonl").results_path == str(tmp_path / "r.jsonl")
    same = T.make_config(["random", "greedy"], game="donuts", config=T.HarnessConfig(results_path=tmp_path / "r.jsonl"),
                         results_path=tmp_path / "r.jsonl")  # the same path twice, as a Path: no conflict
    assert same["agents"] == ["random", "greedy"]
    with pytest.raises(DonutsError, match="address is a Ray cluster's: it needs backend='ray'"):
        evaluate("random", limit=2, settings=EvaluationSettings(address="1.2.3.4"))
    with pytest.raises(T.ResultsFileError, match="a results file is named by its path"):
        T.Results.from_file(None)  # type: ignore[arg-type]
    with pytest.raises(T.ConfigError, match="config must be a HarnessConfig"):
        T.run(["random", "greedy"], game="donuts", config="x")  # type: ignore[arg-type]
    with pytest.raises(T.ConfigError, match="resume=True continues a results file: give results_path"):
        T.run(["random", "greedy"], game="donuts", isolation="none", config=T.HarnessConfig(resume=True))
    with pytest.raises(DonutsError, match="give results_path"):
        evaluate("greedy", resume=True)
    with pytest.raises(DonutsError, match="results_path must be a file's path"):
        evaluate("greedy", results_path=3)  # type: ignore[arg-type]


def test_a_resume_on_another_kind_of_results_file_says_which_kind_it_is(tmp_path):
    # It said "holds a different study (differs in: agents, arrangements, ... 16 fields)".
    path = tmp_path / "tournament.jsonl"
    shutil.copy(os.path.join(DATA, "results_v040_donuts.jsonl"), path)
    before = path.read_bytes()
    with pytest.raises(T.ResultsFileError, match="is a tournament's results file, not a study's"):
        run_study(grids=1, results_path=str(path), resume=True, workers=1)
    with pytest.raises(T.ResultsFileError, match="is a tournament's results file, not an evaluation's"):
        evaluate("random", limit=2, results_path=str(path), resume=True)
    assert path.read_bytes() == before
