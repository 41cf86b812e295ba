from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import pytest

from donuts_ai.cli import main
from donuts_ai.donuts.errors import RulesError
from donuts_ai.donuts.rules import Rules, rules_from_arguments

from .helpers import command_error


def test_game_prints_a_whole_game(capsys):
    assert main(["game", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert " 1. chocolate " in out and "Result: " in out
    assert main(["game", "--seed", "3"]) == 0
    assert capsys.readouterr().out == out  # same seed, same game


def test_game_with_other_layouts(capsys, tmp_path):
    path = tmp_path / "layout.txt"
    path.write_text("|||---\n" * 6)
    for layout in ("random:5", "grid:2", str(path)):
        assert main(["game", "--layout", layout, "--insertion", "single", "--donuts", "18"]) == 0
    assert "Result: " in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["game", "--layout", "/nonexistent/file"], "cannot read layout file"),
        (["game", "--donuts", "0"], "donuts must be in 1..36"),
        (["game", "--bogus"], "unrecognized arguments"),
        (["demo", "--workers", "0"], "expected a positive integer"),
        (["nothing"], "invalid choice"),
        # Options that would have been ignored (the run played as if they were not given):
        (["tournament", "random", "greedy", "--best-of", "5"], "--best-of is a duel's series length: it needs --mode duel"),
        (["tournament", "random", "greedy", "--new-version"], "--new-version goes with --resume"),
        (["tournament", "random", "greedy", "--address", "1.2.3.4"], "address is a Ray cluster's: it needs --backend ray"),
        (["play", "--fen", "x", "--layout", "random:3"], "--fen gives the layout with the position: leave --layout out"),
        (["verify", str(Path(__file__).parent / "data" / "results_v040_donuts.jsonl"), "/nonexistent.jsonl"],
         "/nonexistent.jsonl: no such file"),  # refused before the first file is replayed
    ],
)
def test_bad_input_gives_one_line_and_exit_2(argv, message, capsys):
    # One of them from a real process: what a user sees.
    status, err = command_error(capsys, *argv, real_process=argv[0] == "nothing")
    assert status == 2
    assert err.count("\n") == 1 and message in err and err.startswith("donuts-ai: error:")


def test_a_module_run_as_a_script_begins_its_errors_with_its_own_name(capsys):
    # python -m donuts_ai.bench.compare is not the donuts-ai program: its line names it.
    from donuts_ai.bench.compare import main as compare_main

    with pytest.raises(SystemExit) as exit_info:
        compare_main(["--bogus"], prog="python -m donuts_ai.bench.compare")
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and err.count("\n") == 1
    assert err.startswith("python -m donuts_ai.bench.compare: error: ") and "(usage: python -m donuts_ai.bench.compare --help)" in err


def test_study_first_moves(capsys, tmp_path):
    out = tmp_path / "moves.jsonl"
    assert main(["study", "first-player", "--grids", "1", "--seed", "9", "--workers", "1", "--first-moves",
                 "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "grids: 1 layouts" in printed and "winning first moves: " in printed
    assert '"winning_moves"' in out.read_text()


RULES_COMMANDS = {"play": [], "game": [], "sprt": ["a", "b"], "study": ["first-player"], "tournament": ["random", "greedy"]}


@pytest.mark.parametrize("flags, rules", [([], Rules()), (["--insertion", "single"], Rules("single")),
                                          (["--donuts", "18", "--insertion", "group"], Rules("group", 18))])
def test_rules_flags_are_read_the_same_by_every_command(flags, rules):
    from donuts_ai.cli import _tournament_rules, build_parser

    parser = build_parser()
    for command, positional in RULES_COMMANDS.items():
        args = parser.parse_args([command, *positional, *flags])
        assert rules_from_arguments(args) == rules, command
    tournament = parser.parse_args(["tournament", "random", "greedy", *flags])
    assert _tournament_rules(tournament) == rules.to_dict()


def test_rules_flags_and_rules_option_meet_in_one_dict():
    from donuts_ai.cli import _tournament_rules, build_parser

    args = build_parser().parse_args(["tournament", "random", "greedy", "--donuts", "18", "--rules", "insertion=single"])
    assert _tournament_rules(args) == {"insertion": "single", "donuts": 18}
    with pytest.raises(RulesError, match="donuts must be in 1..36"):
        _tournament_rules(build_parser().parse_args(["tournament", "random", "--donuts", "0"]))


# --- every front end reads the one table of games ----------------------------------------

C4 = "examples.connect_four:connect-four-python"


def _game_options(parser: argparse.ArgumentParser, path: str = "donuts-ai") -> Iterator[tuple[str, argparse.Action]]:
    """(command, its ``--game`` option or ``GAME`` argument) for every command of ``parser``, at any depth."""
    for action in parser._actions:
        if "--game" in action.option_strings or (not action.option_strings and action.dest == "game"):
            yield path, action
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _game_options(sub, f"{path} {name}")


def test_every_game_option_and_argument_names_the_module_name_form():
    from donuts_ai.bench.engine import _parser as bench_parser
    from donuts_ai.cli import build_parser

    options = [*_game_options(build_parser()), *_game_options(bench_parser("donuts-ai bench"), "donuts-ai bench")]
    assert {command for command, _ in options} >= {"donuts-ai tournament", "donuts-ai sprt", "donuts-ai evaluate",
                                                   "donuts-ai bench", "donuts-ai check-game"}
    for command, action in options:
        assert "module:name" in (action.help or ""), command
    check = build_parser().parse_args(["check-game", C4])
    assert (check.game, check.seed) == (C4, 0)


def test_sprt_plays_the_game_it_is_given(monkeypatch, capsys):
    import donuts_ai.tournament

    calls = []

    def run_sprt(*args, **kwargs):
        calls.append(kwargs)
        return donuts_ai.tournament.sprt([0, 0, 1, 0, 0], 0, 20, 0.05, 0.05), 1

    monkeypatch.setattr(donuts_ai.tournament, "run_sprt", run_sprt)
    assert main(["sprt", "random", "greedy", "--game", C4, "--quiet"]) == 0
    assert main(["sprt", "random", "greedy", "--quiet", "--donuts", "18"]) == 0
    assert [(c["game"], c["rules"]) for c in calls] == [(C4, None), ("donuts", {"insertion": "group", "donuts": 18})]
    status, err = command_error(capsys, "sprt", "random", "greedy", "--game", C4, "--insertion", "single")
    assert (status, err) == (2, "donuts-ai: error: --insertion is a Donuts rule; give connect-four-python's rules with "
                                "--rules KEY=VALUE,...\n")


def test_check_game_prints_each_check_passed_or_the_first_failure(monkeypatch, capsys):
    import donuts_ai.testing as testing

    assert main(["check-game", C4, "--seed", "2"]) == 0  # the real checks: cheap for Connect Four
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == f"connect-four-python: {len(lines) - 1} checks passed" and len(lines) > 1
    assert all(line.startswith("ok  ") for line in lines[:-1])
    seen = []

    def failing(game, *, seed):
        seen.append((game.name, seed))
        raise testing.GameCheckError(game.name, "pop restores the state", "the board differs")

    monkeypatch.setattr(testing, "check_game", failing)
    status, err = command_error(capsys, "check-game", "connect-four-python", "--seed", "7")
    assert (status, err) == (1, "donuts-ai: error: connect-four-python: pop restores the state: the board differs\n")
    assert seen == [("connect-four-python", 7)]
    status, err = command_error(capsys, "check-game", "chess")
    assert status == 2 and err.startswith("donuts-ai: error: unknown game 'chess'") and err.count("\n") == 1


def _options_without_help(parser, path):
    """(command, option) of every argument of ``parser`` and its subcommands without a help text."""
    missing = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, subparser in action.choices.items():
                missing += _options_without_help(subparser, f"{path} {name}")
        elif not isinstance(action, argparse._HelpAction | argparse._VersionAction) and not action.help:
            missing.append((path, action.option_strings or action.dest))
    return missing


def test_every_option_has_help_and_version_prints_the_version(capsys):
    from donuts_ai import __version__
    from donuts_ai.bench.engine import _parser as bench_parser
    from donuts_ai.cli import build_parser

    assert _options_without_help(build_parser(), "donuts-ai") == []
    assert _options_without_help(bench_parser("donuts-ai bench"), "donuts-ai bench") == []
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out == f"donuts-ai {__version__}\n"


AGENT_MODULE = '''
class FirstMove:
    def select_move(self, board):
        return board.legal_moves()[0]
'''


def test_main_adds_no_folder_to_the_path_and_a_spec_names_an_importable_module(tmp_path, capsys):
    import os
    import subprocess
    import sys

    before = list(sys.path)
    assert main(["game", "--seed", "2"]) == 0
    assert sys.path == before
    capsys.readouterr()
    # As the console script runs it (-P: no folder of its own on the path): a module of the
    # current folder is found where PYTHONPATH names that folder, as for any Python program.
    (tmp_path / "mine.py").write_text(AGENT_MODULE)
    argv = ["tournament", "mine:FirstMove", "random", "--games", "2", "--workers", "1", "--isolation", "none", "--quiet"]
    command = [sys.executable, "-P", "-c", f"import sys; from donuts_ai.cli import main; sys.exit(main({argv!r}))"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    alone = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert alone.returncode == 2 and "No module named 'mine'" in alone.stderr, alone.stderr
    found = subprocess.run(command, cwd=tmp_path, env={**env, "PYTHONPATH": "."}, capture_output=True, text=True, timeout=300)
    assert found.returncode == 0 and "2 games" in found.stdout, found.stderr


def test_an_output_that_cannot_be_written_is_refused_before_the_work(capsys, tmp_path):
    # Each was found only once its work was done (an evaluation, a bench's runs, a book built,
    # the report printed), the result lost; or ended in a traceback.
    results = tmp_path / "r.jsonl"
    assert main(["tournament", "random", "greedy", "--games", "2", "--workers", "1", "--quiet", "--out", str(results)]) == 0
    (tmp_path / "strength.json").write_text('{"machine": "one", "rows": []}')
    no_folder = str(tmp_path / "no" / "x.json")
    for argv, message in [
        (["evaluate", "random", "--limit", "2", "--json", no_folder], "no folder"),
        (["evaluate", "random", "--limit", "2", "--plot", str(tmp_path / "x.txt")], "name a picture format"),
        (["bench", "--agent", "random", "--positions", "2", "--runs", "1", "--json", no_folder], "no folder"),
        (["bench", "--agent", "random", "--positions", "2", "--runs", "1", "--json", str(tmp_path)], "is a folder"),
        (["book", "build", "--out", str(tmp_path / "no" / "b.npz"), str(results)], "no folder"),
        (["book", "build", "--out", str(tmp_path / "b.npz"), str(results)], "not a study results file"),
        (["book", "build", "--out", str(tmp_path / "b.npz"), str(tmp_path / "missing.jsonl")], "cannot read the study file"),
        (["report", str(results), "--png", str(results)], "is a file: name a folder"),
        (["tournament", "random", "greedy", "--resume", "--out", str(tmp_path)], "is a folder"),
        (["evaluate", "random", "--limit", "2", "--results", str(tmp_path / "e.jsonl"), "--json", str(tmp_path / "e.jsonl")],
         "--results and --json name the same file"),
        (["bench", "--agent", "random", "--runs", "1", "--json", str(tmp_path / "strength.json")],
         "exists and is not a speed record"),  # a JSON file of another shape (AttributeError before)
    ]:
        status, err = command_error(capsys, *argv)
        assert status == 2 and err.count("\n") == 1 and message in err, (argv, err)
        assert "error:" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.jsonl", "strength.json"]  # nothing written
    # An output replaces a file of its own kind only: the results file is kept.
    kept = results.read_text()
    for argv, kind in [(["evaluate", "random", "--limit", "2", "--json", str(results)], "an evaluation's scores"),
                       (["bench", "--agent", "random", "--positions", "2", "--runs", "1", "--json", str(results)], "a speed record")]:
        status, err = command_error(capsys, *argv)
        assert status == 2 and err.count("\n") == 1 and f"exists and is not {kind}" in err, (argv, err)
    assert results.read_text() == kept
