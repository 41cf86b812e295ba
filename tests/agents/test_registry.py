"""The registries of the package: each a literal table of dotted paths in the module that owns
it (found by ``tests/test_architecture.registry_tables``). Every entry loads an object of
its kind, and what a table holds at run time is its literal, whatever was imported."""

from __future__ import annotations

import ast
import inspect
import json
import subprocess
import sys
import tomllib
from typing import Any

import pytest

from donuts_ai.agents import LazyRegistry
from donuts_ai.agents.registry import load
from tests.test_architecture import ROOT, registry_tables

#: The extras of ``pip install 'donuts_ai[extra]'``.
EXTRAS = set(tomllib.loads((ROOT.parent / "pyproject.toml").read_text())["project"]["optional-dependencies"])


def _tables() -> list[tuple[str, str, dict[str, Any]]]:
    """(module, table, its literal) for every registry table of the package."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found += [(module, table, literal) for table, (_, literal) in registry_tables(ast.parse(path.read_text())).items()]
    return found


TABLES = _tables()
ENTRIES = [(module, table, name, value) for module, table, literal in TABLES for name, value in literal.items()]


def test_the_registry_tables_are_found():
    assert {(module, table) for module, table, _ in TABLES} >= {
        ("donuts_ai.donuts.agents", "AGENTS"), ("donuts_ai.donuts.agents", "OPTIONAL_AGENTS"),
        ("donuts_ai.boxes.agents", "AGENTS"), ("donuts_ai.connect_four.agents", "AGENTS"),
        ("donuts_ai.tournament.specs", "ENGINE_POSITIONS"), ("donuts_ai.tournament.specs", "GENERIC_AGENTS"),
    }


@pytest.mark.parametrize(("module", "table", "name", "value"), ENTRIES,
                         ids=[f"{module}.{table}[{name}]" for module, table, name, _ in ENTRIES])
def test_every_entry_loads_an_object_of_its_kind(module: str, table: str, name: str, value: str | tuple[str, str]):
    path, extra = value if isinstance(value, tuple) else (value, None)
    assert extra is None or extra in EXTRAS, f"{module}.{table}[{name!r}]: no extra {extra!r} in pyproject.toml"
    try:
        found = load(path)
    except ModuleNotFoundError as exc:  # an optional dependency (pyspiel, jax) that is not installed
        if exc.name and not exc.name.startswith("donuts_ai"):
            pytest.skip(f"{path} needs {exc.name}, not installed (the {extra or 'optional'!r} extra)")
        raise
    if table.endswith("AGENTS"):  # agent classes, whose kind is the name a spec gives them
        assert inspect.isclass(found) and callable(getattr(found, "select_move", None)), path
        assert getattr(found, "kind", name) in (name, f"generic-{name}"), path
    else:
        assert callable(found), path


def _contents(value: Any) -> dict[str, Any]:
    if isinstance(value, LazyRegistry):
        return {name: value.path(name) for name in value}
    return {name: list(entry) if isinstance(entry, tuple) else entry for name, entry in value.items()}


def test_a_table_holds_its_literal_whatever_was_imported():
    # Every front end imported first (the harness, the command line, the interop, the
    # learned agent's package): none may add to a table, nor the package root.
    pairs = [(module, table) for module, table, _ in TABLES]
    code = (
        "import importlib, json, sys\n"
        "import donuts_ai, donuts_ai.cli, donuts_ai.tournament, donuts_ai.interop, donuts_ai.learn, donuts_ai.suites\n"
        f"pairs = {pairs!r}\n"
        "out = {}\n"
        "for module, table in pairs:\n"
        "    value = getattr(importlib.import_module(module), table)\n"
        "    out[module + '.' + table] = {n: (value.path(n) if hasattr(value, 'path') else value[n]) for n in value}\n"
        "print(json.dumps(out))\n"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT.parent, timeout=300)
    assert ran.returncode == 0, ran.stderr[-2000:]
    held = json.loads(ran.stdout)
    assert held == {f"{module}.{table}": _contents(literal) for module, table, literal in TABLES}


def test_the_tables_cannot_be_changed_in_place():
    from donuts_ai.donuts.agents import AGENTS, OPTIONAL_AGENTS
    from donuts_ai.tournament.specs import ENGINE_POSITIONS

    assert not hasattr(AGENTS, "add")
    for table in (OPTIONAL_AGENTS, ENGINE_POSITIONS):
        with pytest.raises(TypeError):
            table["x"] = "donuts_ai.x:y"  # type: ignore[index]


def test_the_learned_agent_and_openspiel_are_listed_by_their_owner():
    source = (ROOT / "donuts" / "agents" / "__init__.py").read_text()
    tables = registry_tables(ast.parse(source))
    assert tables["AGENTS"][1]["az"] == "donuts_ai.learn.agent:AlphaZeroAgent"
    assert tables["OPTIONAL_AGENTS"][1]["openspiel-mcts"] == ("donuts_ai.interop.openspiel:OpenSpielMCTSAgent", "spiel")
