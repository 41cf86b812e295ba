from __future__ import annotations

import subprocess
import sys

import pytest

from donuts_ai.cli import main


def test_demo_prints_a_whole_game(capsys):
    assert main(["demo", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert " 1. chocolate " in out and "Result: " in out
    assert main(["demo", "--seed", "3"]) == 0
    assert capsys.readouterr().out == out  # same seed, same game


def test_demo_with_other_layouts(capsys, tmp_path):
    path = tmp_path / "layout.txt"
    path.write_text("|||---\n" * 6)
    for layout in ("random:5", "grid:2", str(path)):
        assert main(["demo", "--layout", layout, "--insertion", "single", "--donuts", "18"]) == 0
    assert "Result: " in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["demo", "--layout", "/nonexistent/file"], "cannot read layout file"),
        (["demo", "--donuts", "0"], "donuts must be in 1..36"),
        (["demo", "--bogus"], "unrecognized arguments"),
        (["nothing"], "invalid choice"),
    ],
)
def test_bad_input_gives_one_line_and_exit_2(argv, message):
    proc = subprocess.run([sys.executable, "-m", "donuts_ai", *argv], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and message in proc.stderr and proc.stderr.startswith("donuts-ai: error:")
