"""The "Add your own game" how-to is true: its code is the example's (``examples/tic_tac_toe.py``),
its count of members is the example's, and its commands run as written in a fresh shell,
where the results file of a game from outside verifies, and fails in one line naming the
module where the module cannot be imported."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from donuts_ai import BaseState, Game

ROOT = Path(__file__).parents[2]
PAGE = (ROOT / "docs" / "howto" / "own_game.md").read_text()
EXAMPLE = (ROOT / "examples" / "tic_tac_toe.py").read_text()


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", PAGE, re.S)


def test_the_page_s_code_is_the_example_s():
    blocks = _blocks("python")
    assert len(blocks) == 2
    for block in blocks:
        assert block.strip() in EXAMPLE


def _members(class_name: str) -> set[str]:
    """The members a class of the example writes (methods, properties, class attributes), but ``__init__``."""
    tree = ast.parse(EXAMPLE)
    cls = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == class_name)
    names = {node.name for node in cls.body if isinstance(node, ast.FunctionDef) and node.name != "__init__"}
    names |= {target.id for node in cls.body if isinstance(node, ast.Assign) for target in node.targets
              if isinstance(target, ast.Name)}
    return names


def test_the_count_of_members_is_the_example_s():
    state, game = _members("TicTacToeState"), _members("TicTacToe")
    assert state - {"__str__"} == {"turn", "legal_moves", "apply", "undo", "outcome"}
    assert game == {"name", "new_state", "heuristic", "state_key"}
    assert "5 members on the state and 2 on the game, 9 with the two\noptional hooks" in PAGE
    assert len(state - {"__str__"}) + len(game) <= 12
    # Those five are exactly what the base leaves abstract; the game's one abstract method is new_state.
    assert BaseState.__abstractmethods__ == {"turn", "legal_moves", "apply", "undo", "outcome"}
    assert Game.__abstractmethods__ == {"new_state"}


def _shell_env(with_module: bool) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    if with_module:
        env["PYTHONPATH"] = str(ROOT)
    else:
        env.pop("PYTHONPATH", None)
    return env


def test_the_page_s_commands_run_as_written_and_a_colleague_verifies_the_file(tmp_path):
    if shutil.which("donuts-ai", path=_shell_env(True)["PATH"]) is None:
        pytest.skip("the donuts-ai command is not installed (make test installs it)")
    (commands,) = _blocks("sh")
    lines = [line for line in commands.splitlines() if line.strip()]
    assert any("check-game" in line for line in lines) and any("bench --game" in line for line in lines)
    for line in lines:
        done = subprocess.run(line, shell=True, cwd=tmp_path, env=_shell_env(True), capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, f"{line}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        assert "Traceback" not in done.stderr, done.stderr
    # The colleague without the module: one line, naming it, and a non-zero exit.
    done = subprocess.run("donuts-ai verify ttt.jsonl", shell=True, cwd=tmp_path, env=_shell_env(False),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "examples.tic_tac_toe" in done.stderr
