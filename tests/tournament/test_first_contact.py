"""A researcher's first script and first mistakes: a script runs as written with several
workers, a bad value is refused before the first game (and no file is written), a unit
in a results file counts once, and a slow first compile says so."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numba
import pytest

from donuts_ai import Layout, Rules
from donuts_ai import _compile_notice as compile_notice
from donuts_ai import tournament as T
from donuts_ai.donuts.alphabeta import solver as solver_module
from donuts_ai.errors import DonutsError
from donuts_ai.suites import evaluate
from donuts_ai.tournament import preflight as preflight_module
from donuts_ai.tournament import runner
from donuts_ai.tournament.records import DIGEST_KEY, line_digest

#: A user's first script: an agent class of its own, no ``if __name__ == "__main__":``.
SCRIPT = textwrap.dedent("""
    from donuts_ai import tournament
    from donuts_ai.donuts.agents import DonutsAgent


    class FlipperAgent(DonutsAgent):
        kind = "flipper"

        def _select(self, board, time_left):
            return self.rng.choice(board.legal_moves())


    results = tournament.run([FlipperAgent(seed=1), "greedy"], game="donuts", games=4, seed=1, {workers})
    print("games", len(results.games))
""")


def _resigned(unit: dict) -> str:
    """A forged unit line with its digest made again: the check behind the digest is the one tested."""
    return json.dumps({**unit, DIGEST_KEY: line_digest(unit)})


def _python(args: list[str], cwd, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=cwd, input=stdin, capture_output=True, text=True, timeout=600)


def test_an_unguarded_script_plays_with_the_default_workers(tmp_path):
    script = tmp_path / "first.py"
    script.write_text(SCRIPT.format(workers=""))  # the default: one worker a core
    done = _python([str(script)], tmp_path)
    assert done.returncode == 0 and "games 4" in done.stdout, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "RuntimeError" not in done.stderr


def test_a_script_on_stdin_plays_with_two_workers(tmp_path):
    done = _python(["-"], tmp_path, stdin=SCRIPT.format(workers="workers=2") + textwrap.dedent("""
        from donuts_ai.suites import evaluate
        from donuts_ai.suites.evaluation import EvaluationSettings
        print("evaluated", len(evaluate(FlipperAgent(seed=2), suite="middlegame", limit=2, settings=EvaluationSettings(workers=2)).answers))
    """))
    assert done.returncode == 0 and "games 4" in done.stdout and "evaluated 1" in done.stdout, done.stderr[-2000:]
    assert "Traceback" not in done.stderr


# --- the pre-flight ---------------------------------------------------------------------

def test_a_bad_value_stops_every_entry_point_before_its_first_game(tmp_path, monkeypatch):
    def no_games(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr(runner, "execute", no_games)
    monkeypatch.setattr(runner, "play_unit", no_games)
    path = tmp_path / "r.jsonl"
    with pytest.raises(T.SpecError, match=r"mcts:time=-1.*time_limit"):
        T.run(["mcts:time=-1", "greedy"], game="donuts", games=2, results_path=str(path))
    assert not path.exists()
    with pytest.raises(T.SpecError, match=r"mcts:time=-1.*time_limit"):
        T.run_sprt("mcts:time=-1", "greedy", game="donuts", max_pairs=2)
    with pytest.raises(T.SpecError, match=r"mcts:time=-1.*time_limit"):
        T.play_game(["mcts:time=-1", "greedy"], Layout.standard(), Rules(), 1, game="donuts")
    with pytest.raises(T.SpecError, match=r"mcts:time=-1.*time_limit"):
        evaluate(["greedy", "mcts:time=-1"], suite="middlegame", limit=2, results_path=str(path))
    assert not path.exists()


def test_a_class_that_cannot_be_built_is_refused_by_name():
    class Broken:
        def __init__(self):
            raise RuntimeError("no table")

        def select_move(self, board):
            return board.legal_moves()[0]

    with pytest.raises(T.SpecError, match="Broken.*RuntimeError: no table"):
        T.run([Broken, "random"], game="donuts", games=2, workers=1)


def test_the_command_line_refuses_a_bad_value_with_exit_2_and_no_file(tmp_path):
    done = _python(["-m", "donuts_ai", "tournament", "mcts:time=-1", "greedy", "--games", "2", "--out", "neg.jsonl"], tmp_path)
    assert done.returncode == 2 and "time_limit" in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not (tmp_path / "neg.jsonl").exists()


def test_a_compile_says_so_and_a_quick_preflight_does_not(monkeypatch, capsys):
    monkeypatch.setattr(compile_notice, "NOTICE_AFTER", 0.0)
    with compile_notice.notice_if_compiling(sys.stderr, preflight_module.NOTICE):
        pass
    assert capsys.readouterr().err == ""

    @numba.njit  # a kernel compiled in the block: not cached, so it compiles every time
    def twice(x):
        return 2 * x

    with compile_notice.notice_if_compiling(sys.stderr, preflight_module.NOTICE):
        assert twice(21) == 42
    err = capsys.readouterr().err
    assert err.startswith(preflight_module.NOTICE) and err.endswith(" s\n") and err.count("\n") == 1


def test_the_first_solve_of_a_process_says_when_it_compiles_and_later_ones_do_not_look(monkeypatch, capsys):
    monkeypatch.setattr(compile_notice, "NOTICE_AFTER", 0.0)
    monkeypatch.setattr(solver_module, "_first_done", False)  # as in a fresh process

    @numba.njit  # stands for the solver's kernels compiling in the first call
    def thrice(x):
        return 3 * x

    with solver_module._announced_compile():
        assert thrice(14) == 42
    assert capsys.readouterr().err.startswith(solver_module.COMPILE_NOTICE)

    @numba.njit
    def again(x):
        return x + 1

    with solver_module._announced_compile():  # a later call: no notice, even if something compiles
        assert again(41) == 42
    assert capsys.readouterr().err == ""


# --- results files count each unit once ------------------------------------------------

#: The agents of these files play as objects in this process: the tests read and resume
#: files, and a seat process would cost a second or so of start-up for nothing they check.
ISOLATION = "none"


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A finished 4-game tournament's results file, as text."""
    path = tmp_path_factory.mktemp("played") / "r.jsonl"
    T.run(["greedy", "random"], game="donuts", games=4, seed=1, workers=1, isolation=ISOLATION, results_path=str(path))
    return path.read_text()


def _resume(path) -> T.Results:
    return T.run(["greedy", "random"], game="donuts", games=4, seed=1, workers=1, isolation=ISOLATION,
                 results_path=str(path), config=T.HarnessConfig(resume=True))


def test_a_repeated_unit_line_is_counted_once(tmp_path, played):
    lines = played.splitlines()
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join([*lines, lines[1]]) + "\n")
    for results in (T.Results.from_file(str(path)), _resume(path)):
        assert len(results.units) == 2 and all(row["games"] == 4 for row in results.ledger().values())


def test_a_conflicting_repeated_unit_is_refused_and_the_file_unchanged(tmp_path, played):
    lines = played.splitlines()
    other = {**json.loads(lines[1]), "elapsed": 1234.5}
    path = tmp_path / "r.jsonl"
    text = "\n".join([*lines, _resigned(other)]) + "\n"
    path.write_text(text)
    for read in (lambda: T.Results.from_file(str(path)), lambda: _resume(path)):
        with pytest.raises(T.ResultsFileError, match=r"lines 2 and 4 both hold unit 0"):
            read()
    assert path.read_text() == text


@pytest.mark.parametrize(("damage", "says"), [
    (lambda text: "", "is empty"),
    (lambda text: "\n\n", "is empty"),
    (lambda text: "garbage\n" + text, "line 1 is not valid JSON"),
    (lambda text: "[1, 2, 3]\n" + text, "line 1 is JSON but not an object"),
    (lambda text: text.replace('"seed": 1', '"seed": 2', 1), "differs in: seed"),
])
def test_damaged_files_are_refused_unchanged(tmp_path, played, damage, says):
    path = tmp_path / "r.jsonl"
    path.write_text(damage(played))
    before = path.read_bytes()
    with pytest.raises(T.ResultsFileError, match=says):
        _resume(path)
    assert path.read_bytes() == before


def test_a_cut_off_last_line_is_cut_away_on_resume(tmp_path, played):
    path = tmp_path / "r.jsonl"
    path.write_text(played + played.splitlines()[1][:40])
    assert len(_resume(path).games) == 4
    assert path.read_text() == played


def test_python_names_the_keyword_and_the_command_line_the_flag(tmp_path, played):
    path = tmp_path / "r.jsonl"
    path.write_text(played)
    with pytest.raises(T.ResultsFileError, match=r"pass resume=True"):
        T.run(["greedy", "random"], game="donuts", games=4, seed=1, workers=1, isolation=ISOLATION, results_path=str(path))
    done = _python(["-m", "donuts_ai", "tournament", "greedy", "random", "--games", "4", "--out", str(path)], tmp_path)
    assert done.returncode == 2 and "pass --resume" in done.stderr and "resume=True" not in done.stderr


def test_a_run_that_fails_before_its_first_unit_leaves_no_file(tmp_path, monkeypatch, played):
    def no_backend(*args, **kwargs):
        raise DonutsError("the ray backend needs Ray")

    monkeypatch.setattr(runner, "execute", no_backend)
    path = tmp_path / "r.jsonl"
    with pytest.raises(DonutsError, match="needs Ray"):
        T.run(["greedy", "random"], game="donuts", games=4, seed=1, workers=1, results_path=str(path))
    assert not path.exists()
    path.write_text(played.splitlines()[0] + "\n")  # a file of the user's, resumed: never removed
    with pytest.raises(DonutsError, match="needs Ray"):
        _resume(path)
    assert path.read_text() == played.splitlines()[0] + "\n"
