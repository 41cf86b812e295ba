"""The package is typed: it ships ``py.typed``, and a user's script sees precise types of
the public API (not ``Any``). ``make typecheck`` (CI) checks the package itself strictly."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
USAGE = Path(__file__).parent / "data" / "typed_usage.py"


def test_py_typed_is_shipped():
    assert (ROOT / "donuts_ai" / "py.typed").is_file()
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "py.typed" in package_data["donuts_ai"]


def test_mypy_settings_are_strict():
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert settings["strict"] is True and settings["packages"] == ["donuts_ai"]


def test_a_users_script_sees_precise_types():
    """mypy on a user's script follows its imports through the whole package (and NumPy's
    and JAX's stubs): about 25 s with a cold cache. It uses ``make typecheck``'s own
    incremental cache (``.mypy_cache`` at the root, same settings), so whichever of the two
    runs second checks only what changed: a few seconds, on a developer's machine and in CI
    (where ``make typecheck`` follows ``make test``)."""
    pytest.importorskip("mypy")
    expected = {}
    for number, line in enumerate(USAGE.read_text().splitlines(), 1):
        if line.startswith("reveal_type("):
            expected[number] = line.split("  # ", 1)[1]
    # Checked from the repository root, where `import donuts_ai` finds this checkout.
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(ROOT / ".mypy_cache"),
                           str(USAGE.relative_to(ROOT))], cwd=ROOT, capture_output=True, text=True, timeout=900)
    revealed = {int(m.group(1)): m.group(2) for m in re.finditer(r":(\d+): note: Revealed type is \"(.*)\"", done.stdout)}
    assert done.returncode == 0, done.stdout + done.stderr
    assert set(revealed) == set(expected), done.stdout
    for number, prefix in expected.items():
        assert revealed[number].startswith(prefix), (number, revealed[number], prefix)
