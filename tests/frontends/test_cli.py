from __future__ import annotations

import pytest

from donuts_ai.cli import main
from donuts_ai.donuts.errors import RulesError
from donuts_ai.donuts.rules import Rules, rules_from_arguments

from ..helpers import command_error


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
    ],
)
def test_bad_input_gives_one_line_and_exit_2(argv, message, capsys):
    # One of them from a real process: what a user sees.
    status, err = command_error(capsys, *argv, real_process=argv[0] == "nothing")
    assert status == 2
    assert err.count("\n") == 1 and message in err and err.startswith("donuts-ai: error:")


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
