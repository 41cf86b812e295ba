"""The README's quick start runs as written, and so do the examples the site's guides
took over from the README."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
README = (ROOT / "README.md").read_text()
#: Guide pages whose Python blocks run as written, as one plain script each, unguarded
#: (no ``if __name__ == "__main__":``), as a new user pastes them (the Ray page needs a
#: cluster; the solve page repeats the getting-started example).
RUNNABLE_PAGES = ["docs/index.md", "docs/getting-started.md", "docs/howto/agents.md", "docs/howto/environments.md",
                  "docs/howto/tournament.md",
                  "docs/howto/boxes.md"]
#: Optional dependencies a guide's example may need; without them the page is skipped.
OPTIONAL_MODULES = {"pettingzoo", "gymnasium", "pyspiel", "open_spiel"}


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_quick_start_runs(capsys):
    blocks = python_blocks(README)
    assert blocks, "README has no python block"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "['a3', 'b3', 'd3', 'e3', 'f3']" in out and "14072" in out


def test_setup_commands_are_the_two_make_targets():
    makefile = (ROOT / "Makefile").read_text()
    assert "make demo" in README and "make test" in README
    assert re.search(r"^demo:", makefile, re.M) and re.search(r"^test:", makefile, re.M)


@pytest.mark.parametrize("page", RUNNABLE_PAGES)
def test_guide_examples_run_as_a_plain_script(page, tmp_path):
    """The page's Python blocks, one after another in a file run by ``python FILE`` (with
    the default workers where a block runs games in parallel: a pool worker must not run
    the script again)."""
    blocks = python_blocks((ROOT / page).read_text())
    assert blocks, f"{page} has no python block"
    needs = {m for block in blocks for m in re.findall(r"^\s*(?:from|import) (\w+)", block, re.M)} & OPTIONAL_MODULES
    for module in needs:
        pytest.importorskip(module)
    script = tmp_path / "example.py"
    script.write_text("\n".join(blocks))
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{page} as a script failed:\n{done.stderr[-3000:]}"
    assert done.stdout.strip(), f"{page}'s examples print nothing"
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
