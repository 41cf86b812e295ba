"""Results that prove themselves (issue 49): an agent's code is part of its identity, and a
finished run grows on the record.

- **Code is identity.** A ``module:Class`` agent whose ``_select`` changed is refused on
  resume (:class:`AgentCodeError`, a :class:`SpecError`), the file unchanged; with
  ``new_version=True`` the run goes on and the file says from which unit on the new
  version played. A file written before code was recorded resumes with a warning.
- **A run grows.** A 3-agent round robin of 4 games a pairing, resumed with 8, keeps its
  lines byte for byte, and its games equal a fresh run of 8; fewer is refused.

Cheap agents in this process (``isolation="none"``, one worker): the harness, not the agents.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from donuts_ai import tournament as T
from donuts_ai.tournament import verify_file
from donuts_ai.tournament.entries import code_of, code_of_class, library_version
from donuts_ai.tournament.report import signed_elo
from donuts_ai.tournament.results import AgentCodeError, ResultsFileError
from donuts_ai.tournament.specs import SpecError

from ..helpers import command_error

AGENTS = ["random", "greedy", "random:seed=5"]
#: A liveness bound for a real process on a loaded machine, never a speed check.
PATIENCE = 120.0
SETTINGS = {"game": "donuts", "workers": 1, "isolation": "none", "seed": 3}

MINE = """
import random

class Agent:
    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def select_move(self, view):
        return self._select(view)

    def _select(self, view):
        return self.rng.choice(list(view.legal_moves()))
"""
#: The same agent with a change in ``_select`` that plays the same moves.
MINE_FIXED = MINE.replace("        return self.rng.choice(list(view.legal_moves()))",
                          "        moves = list(view.legal_moves())\n        return self.rng.choice(moves)")


def _games(path: Path) -> list[str]:
    """Every game of a file, by unit, without its timings (which differ from run to run)."""
    units = sorted((json.loads(line) for line in path.read_text().splitlines()[1:] if '"type": "unit"' in line),
                   key=lambda u: u["unit"])
    return [json.dumps({k: v for k, v in g.items() if k not in ("times", "clock_left")}, sort_keys=True)
            for u in units for g in u["games"]]


def test_a_run_grows_on_the_record_to_the_games_of_a_fresh_run(tmp_path):
    grown, fresh = tmp_path / "grown.jsonl", tmp_path / "fresh.jsonl"
    T.run(AGENTS, games=4, results_path=str(grown), **SETTINGS)
    before = grown.read_bytes()
    results = T.run(AGENTS, games=8, results_path=str(grown), **SETTINGS, config=T.HarnessConfig(resume=True))
    T.run(AGENTS, games=8, results_path=str(fresh), **SETTINGS)
    after = grown.read_bytes()
    assert after.startswith(before)  # append-only: the lines written stay byte for byte
    assert _games(grown) == _games(fresh) and len(_games(fresh)) == 3 * 8
    history = T.Results.from_file(str(grown)).history
    assert history == [{"type": "grown", "games": 8, "from_games": 4, "after_units": 6}]
    assert results.history == history and results.config["games"] == 8
    assert "Grew 1 time: games 4 -> 8 (after 6 units)" in results.table()
    # Again to the same size: nothing to play, nothing written; fewer: refused, naming both.
    T.run(AGENTS, games=8, results_path=str(grown), **SETTINGS, config=T.HarnessConfig(resume=True))
    assert grown.read_bytes() == after
    with pytest.raises(ResultsFileError, match="games=8; 6 is fewer"):
        T.run(AGENTS, games=6, results_path=str(grown), **SETTINGS, config=T.HarnessConfig(resume=True))
    assert grown.read_bytes() == after


def test_other_settings_still_refuse_a_resume(tmp_path):
    path = tmp_path / "r.jsonl"
    T.run(AGENTS[:2], games=2, results_path=str(path), **SETTINGS)
    with pytest.raises(ResultsFileError, match="differs in: seed"):
        T.run(AGENTS[:2], games=4, results_path=str(path), **{**SETTINGS, "seed": 4}, config=T.HarnessConfig(resume=True))


@pytest.fixture
def mine(tmp_path, monkeypatch):
    """``write(source)``: the package ``mine_pkg.agent`` with that source, imported afresh."""
    package = tmp_path / "mine_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))

    def write(source: str) -> None:
        (package / "agent.py").write_text(textwrap.dedent(source))
        sys.modules.pop("mine_pkg.agent", None)
        importlib.invalidate_caches()

    yield write
    sys.modules.pop("mine_pkg.agent", None)
    sys.modules.pop("mine_pkg", None)


def test_a_changed_agent_is_refused_on_resume_unless_a_new_version_is_asked_for(tmp_path, mine):
    path = tmp_path / "r.jsonl"
    mine(MINE)
    agents = ["mine_pkg.agent:Agent", "random"]
    T.run(agents, games=2, results_path=str(path), **SETTINGS)
    written = path.read_bytes()
    mine(MINE_FIXED)
    with pytest.raises(AgentCodeError, match=r"the code of mine_pkg\.agent:Agent \(sha256:\w+ -> sha256:\w+\) changed") as err:
        T.run(agents, games=4, results_path=str(path), **SETTINGS, config=T.HarnessConfig(resume=True))
    assert isinstance(err.value, SpecError) and "new_version=True" in str(err.value)
    assert path.read_bytes() == written
    results = T.run(agents, games=4, results_path=str(path), **SETTINGS, config=T.HarnessConfig(resume=True, new_version=True))
    assert len(results.units) == 2 and path.read_bytes().startswith(written)
    assert "New version after 1 units (the units written after it): mine_pkg.agent:Agent" in results.table()
    # The new version is now the file's: a resume with it needs no flag.
    T.run(agents, games=4, results_path=str(path), **SETTINGS, config=T.HarnessConfig(resume=True))


def test_a_file_without_code_resumes_with_a_warning_and_records_the_code(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    T.run(AGENTS[:2], games=2, results_path=str(path), **SETTINGS)
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    del header["config"]["agent_code"]  # as 0.4.0 wrote it
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    T.run(AGENTS[:2], games=4, results_path=str(path), **SETTINGS, config=T.HarnessConfig(resume=True))
    assert "the versions of the agents that played its units are unknown" in capsys.readouterr().err
    code_line = [json.loads(line) for line in path.read_text().splitlines() if '"type": "agent_code"' in line]
    assert code_line == [{"type": "agent_code", "agent_code": [library_version()] * 2, "changed": [], "after_units": 1}]


def test_code_identity_of_each_kind_of_agent(tmp_path, mine):
    assert code_of("mcts:simulations=10", "donuts") == library_version() == code_of("random", "donuts")
    program = tmp_path / "engine.py"
    program.write_text("#!/bin/sh\necho one\n")
    program.chmod(0o755)
    first = code_of(f"engine:{program}", "donuts")
    program.write_text("#!/bin/sh\necho two\n")
    assert first.startswith("sha256:") and code_of(f"engine:{program}", "donuts") != first
    mine(MINE)
    one = code_of("mine_pkg.agent:Agent", "donuts")
    mine(MINE + "\nHELPER = 1\n")  # the module's source counts, not the class's alone
    assert code_of("mine_pkg.agent:Agent", "donuts") != one
    # A class a script defines: its own source only (the rest of the script is not the agent).
    namespace: dict[str, object] = {"__name__": "__main__"}
    exec(compile(MINE, "<script>", "exec"), namespace)
    script_class = namespace["Agent"]
    assert code_of_class(script_class).startswith("sha256:")  # type: ignore[arg-type]


# --- verify: every recorded game replays ---------------------------------------------

DATA = Path(__file__).parents[1] / "data"


def _rewrite_game(path: Path, line: int, change) -> None:
    """Change game 0 of the unit on ``line`` (1-based) in place, as a damaged file would."""
    lines = path.read_text().splitlines()
    unit = json.loads(lines[line - 1])
    change(unit["games"][0])
    lines[line - 1] = json.dumps(unit)
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("name", ["results_v040_donuts.jsonl", "results_v040_boxes.jsonl", "results_v030_donuts.jsonl",
                                  "results_v030_boxes.jsonl", "results_v2_donuts.jsonl"])
def test_files_of_earlier_versions_verify(name):
    verification = verify_file(str(DATA / name))
    assert verification.ok, str(verification)
    assert verification.games == len(T.Results.from_file(str(DATA / name)).games)


def test_files_played_now_verify_for_both_games(tmp_path):
    donuts = T.run(AGENTS, games=2, results_path=str(tmp_path / "d.jsonl"), **SETTINGS, config=T.HarnessConfig(illegal="forfeit"))
    boxes = T.run(["random", "greedy", "random:seed=2"], **{**SETTINGS, "game": "boxes"}, games=3,
                  results_path=str(tmp_path / "b.jsonl"))
    for results, path in ((donuts, "d.jsonl"), (boxes, "b.jsonl")):
        assert results.verify().ok and results.verify().games == len(results.games)
        assert verify_file(str(tmp_path / path)).ok


def test_verify_catches_a_flipped_winner_a_dropped_move_and_a_move_onto_an_occupied_square(tmp_path):
    source = (DATA / "results_v040_donuts.jsonl").read_text()  # 0.4.0: no digests, only the replay can tell

    def damaged(change) -> list[str]:
        path = tmp_path / "damaged.jsonl"
        path.write_text(source)
        _rewrite_game(path, 2, change)
        verification = verify_file(str(path))
        assert not verification.ok
        return [str(m) for m in verification.mismatches]

    def flip(game):
        game["winner"] = 1 - game["winner"]

    assert damaged(flip) == ["line 2, unit 0, game 0: winner: recorded 0, replayed 1"
                             if json.loads(source.splitlines()[1])["games"][0]["winner"] == 1
                             else "line 2, unit 0, game 0: winner: recorded 1, replayed 0"]
    dropped = damaged(lambda game: game["moves"].pop())
    assert dropped[0].startswith("line 2, unit 0, game 0: moves: the record ends after ") and "before the rules end" in dropped[0]

    def occupied(game):
        game["moves"][3] = game["moves"][1]  # a square taken two plies before

    onto = damaged(occupied)
    assert onto[0].startswith("line 2, unit 0, game 0: ") and "events" in onto[0] and "'illegal'" in onto[0]
    # A damaged field is named as such (it read "KeyError: 'moves'", "TypeError: string indices ...").
    assert damaged(lambda game: game.pop("moves")) == ["line 2, unit 0, game 0: cannot be replayed: the game's record has no 'moves'"]
    assert "a field of the game's record is of the wrong type" in damaged(lambda game: game.update(names=3))[0]


def test_verify_says_a_cut_off_last_line_was_not_replayed(tmp_path):
    # It said "0 games replayed: every one as recorded" of a file whose one unit line was cut off.
    source = (DATA / "results_v040_donuts.jsonl").read_text()
    path = tmp_path / "cut.jsonl"
    lines = source.splitlines(keepends=True)
    path.write_text("".join(lines[:-1]) + lines[-1][:50])
    verification = verify_file(str(path))
    assert verification.ok and verification.cut_off and verification.games == 2 * (len(lines) - 2)
    assert str(verification).endswith("; the last line is cut off (a run killed mid-write): not replayed")
    assert not verify_file(str(DATA / "results_v040_donuts.jsonl")).cut_off


def test_a_line_changed_after_it_was_written_is_refused_by_report_and_named_by_verify(tmp_path):
    path = tmp_path / "r.jsonl"
    T.run(AGENTS[:2], games=2, results_path=str(path), **SETTINGS)
    _rewrite_game(path, 2, lambda game: game.update(winner=None if game["winner"] is not None else 0))
    with pytest.raises(ResultsFileError, match="line 2 \\(unit 0\\) was changed after it was written"):
        T.Results.from_file(str(path))
    with pytest.raises(ResultsFileError, match="line 2"):
        T.run(AGENTS[:2], games=2, results_path=str(path), **SETTINGS, config=T.HarnessConfig(resume=True))
    findings = [str(m) for m in verify_file(str(path)).mismatches]
    assert findings[0] == "line 2, unit 0: the line was changed after it was written (its digest does not match its contents)"
    assert findings[1].startswith("line 2, unit 0, game 0: winner: recorded")


# --- one meaning per word ---------------------------------------------------------------

def test_a_run_says_what_it_will_play_before_its_first_game(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    T.run(AGENTS[:2], games=4, results_path=str(path), **SETTINGS, config=T.HarnessConfig(progress=lambda done, total: None))
    assert capsys.readouterr().err.splitlines()[-1] == "donuts-ai: 4 games in 2 pairs of 2"
    T.run(AGENTS[:2], games=6, results_path=str(path), **SETTINGS, config=T.HarnessConfig(resume=True, progress=lambda done, total: None))
    assert capsys.readouterr().err.splitlines()[-1] == ("donuts-ai: 6 games in 3 pairs of 2; 2 pairs in the results "
                                                        "file already, 1 to play")
    T.run(AGENTS[:2], games=2, **SETTINGS)  # no progress asked for: nothing said
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(("elo", "text"), [(-0.3, "0"), (0.0, "0"), (0.4, "0"), (12.4, "+12"), (-3.6, "-4")])
def test_an_advantage_prints_with_its_sign_and_zero_as_0(elo, text):
    assert signed_elo(elo) == text


def test_an_engine_is_its_program_and_its_script_not_its_data_files(tmp_path):
    script, log = tmp_path / "engine.py", tmp_path / "log"
    script.write_text("print('one')\n")
    log.write_text("a\n")
    spec = f"engine:{sys.executable} {script} {log}"
    first = code_of(spec, "donuts")
    log.write_text("b\n")  # its data changed: the same engine
    assert code_of(spec, "donuts") == first
    script.write_text("print('two')\n")  # its script changed: another engine
    assert code_of(spec, "donuts") != first


# --- progress: one display, on tqdm ------------------------------------------------------

def test_progress_is_one_tqdm_bar_or_a_callable_or_nothing(tmp_path, capsys):
    seen = []
    T.run(AGENTS[:2], games=4, **SETTINGS, config=T.HarnessConfig(progress=lambda done, total: seen.append((done, total))))
    assert seen == [(1, 2), (2, 2)]
    capsys.readouterr()
    T.run(AGENTS[:2], games=4, **SETTINGS, config=T.HarnessConfig(progress=True))
    err = capsys.readouterr().err
    assert "tournament: 100%" in err and "2/2" in err and "games=4" in err  # tqdm's bar, with the games beside it
    T.run(AGENTS[:2], games=4, **SETTINGS, config=T.HarnessConfig(progress=False))
    assert capsys.readouterr().err == ""
    _, played = T.run_sprt("random", "greedy", max_pairs=3, progress=True, game="donuts", isolation="none", seed=3)
    err = capsys.readouterr().err
    assert "SPRT:" in err and f"{played}/3" in err and "LLR=" in err


# --- a game from outside the package: where it comes from, on the record ------------------

#: A game of one's own, in a module of its own: Connect Four (``examples/connect_four.py``)
#: under another name, so that forgetting it (as a fresh process has never seen it) touches
#: no other test's game.
OWN_GAME = """
from examples.connect_four import ConnectFour
from donuts_ai import register_game


class OwnConnectFour(ConnectFour):
    name = "own-connect-four-python"


register_game(OwnConnectFour())
"""
OWN_MODULE, OWN_NAME = "own_game_on_record", "own-connect-four-python"
#: Where the tests run from: the checkout, whose ``examples`` package a fresh process imports from there.
CHECKOUT = Path(__file__).parents[2]


@pytest.fixture
def own_game(tmp_path, monkeypatch):
    """The folder of a module that registers a game of its own, importable; and a function
    that forgets the game (the table and the module), as a fresh process has never seen it."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / f"{OWN_MODULE}.py").write_text(OWN_GAME)
    monkeypatch.syspath_prepend(str(folder))
    from donuts_ai import game as table

    def forget() -> None:
        monkeypatch.delitem(sys.modules, OWN_MODULE, raising=False)
        monkeypatch.delitem(table._GAMES, OWN_NAME, raising=False)

    return folder, forget


def test_a_results_file_records_where_a_game_of_ones_own_comes_from_and_reading_imports_it(tmp_path, own_game, monkeypatch,
                                                                                          capsys):
    folder, forget = own_game
    path = tmp_path / "own.jsonl"
    T.run(["random", "greedy"], **{**SETTINGS, "game": f"{OWN_MODULE}:{OWN_NAME}"}, games=2, results_path=str(path))
    header = json.loads(path.read_text().splitlines()[0])["config"]
    assert (header["game"], header["game_source"]) == (OWN_NAME, f"{OWN_MODULE}:{OWN_NAME}")
    # The package's own games record nothing more than their names, as before.
    for game in ("donuts", "boxes"):
        assert "game_source" not in T.make_config(["random", "greedy"], game=game)
    # Read where the game is not registered yet: its module registers it first.
    for read in (T.Results.from_file, verify_file):
        forget()
        assert read(str(path)) is not None
    assert T.Results.from_file(str(path)).table().startswith("2 games")
    forget()
    resumed = T.run(["random", "greedy"], **{**SETTINGS, "game": OWN_NAME}, games=4, results_path=str(path),
                    config=T.HarnessConfig(resume=True))
    assert len(resumed.games) == 4  # named by its name alone: the file says where it comes from
    # Where the module cannot be imported: one line naming the game and the module, for every reader.
    forget()
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p != str(folder)])
    expected = (f"results file {path}: game '{OWN_NAME}' comes from module '{OWN_MODULE}', which cannot be imported "
                f"(No module named '{OWN_MODULE}'); make it importable (PYTHONPATH) and run again")
    for read in (T.Results.from_file, verify_file):
        with pytest.raises(ResultsFileError) as raised:
            read(str(path))
        assert str(raised.value) == expected
    with pytest.raises(ResultsFileError, match="which cannot be imported"):
        T.run(["random", "greedy"], **{**SETTINGS, "game": OWN_NAME}, games=6, results_path=str(path), config=T.HarnessConfig(resume=True))
    for command in ("report", "verify"):
        status, err = command_error(capsys, command, str(path))
        assert (status, err) == (2, f"donuts-ai: error: {expected}\n")


def test_a_file_that_does_not_say_where_its_game_comes_from_names_the_game(tmp_path, own_game):
    _, forget = own_game
    path = tmp_path / "old.jsonl"
    T.run(["random", "greedy"], **{**SETTINGS, "game": f"{OWN_MODULE}:{OWN_NAME}"}, games=2, results_path=str(path))
    lines = path.read_text().splitlines(keepends=True)
    header = json.loads(lines[0])
    del header["config"]["game_source"]  # as a file written before it was recorded
    path.write_text(json.dumps(header) + "\n" + "".join(lines[1:]))
    assert verify_file(str(path)).ok  # registered: read as before
    forget()
    with pytest.raises(ResultsFileError, match=f"game '{OWN_NAME}' is not in the table of games .* the file does not say "
                                               "which module registers it"):
        T.Results.from_file(str(path))


def test_a_fresh_process_verifies_a_file_of_a_game_of_ones_own_where_its_module_is_importable(tmp_path):
    # Two real processes (about a second each): what a user's shell does, with and without
    # the module importable; the in-process tests above check every reader and message.
    path = tmp_path / "c4.jsonl"
    T.run(["random", "greedy"], **{**SETTINGS, "game": "examples.connect_four:connect-four-python"}, games=2,
          results_path=str(path))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    found = subprocess.run([sys.executable, "-m", "donuts_ai", "verify", str(path)], cwd=CHECKOUT, capture_output=True,
                           text=True, env={**env, "PYTHONPATH": str(CHECKOUT)}, timeout=PATIENCE)
    assert found.returncode == 0 and "every one as recorded" in found.stdout, found.stderr
    lost = subprocess.run([sys.executable, "-m", "donuts_ai", "verify", str(path)], cwd=tmp_path, capture_output=True,
                          text=True, env=env, timeout=PATIENCE)
    assert lost.returncode == 2 and lost.stderr == (
        f"donuts-ai: error: results file {path}: game 'connect-four-python' comes from module 'examples.connect_four', which "
        "cannot be imported (No module named 'examples'); make it importable (PYTHONPATH) and run again\n")


def test_where_a_game_comes_from_is_the_module_that_registers_it():
    from donuts_ai.tournament.records import game_source
    from examples.connect_four import CONNECT_FOUR

    assert game_source(CONNECT_FOUR) == "examples.connect_four:connect-four-python"
    assert game_source(CONNECT_FOUR, "connect_four:connect-four-python") == "connect_four:connect-four-python"  # as the user named it
    assert game_source(T.get_game("donuts")) is None and game_source(T.get_game("boxes"), "donuts_ai.boxes:boxes") is None
    script = type("Script", (type(CONNECT_FOUR),), {"__module__": "__main__", "name": "script-connect-four-python"})()
    assert game_source(script) is None and game_source(script, "script-connect-four-python") is None  # no process imports __main__
