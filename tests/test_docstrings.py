"""The package's docstring convention (Google style; CONTRIBUTING, "Docstrings"), checked
from the source: class docstrings at most 15 lines, module docstrings at most 20, few
version phrases in docstrings and comments, and an ``Args:`` section naming every
parameter of the root package's public callables."""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "donuts_ai"
MAX_CLASS_LINES = 15
MAX_MODULE_LINES = 20
MAX_VERSION_PHRASES = 10
# A phrase that dates the code: "before 0.5", "since 0.5.0", "renamed in 0.4.0", "as of 0.3".
# Quantities ("from 0.1 ms", "in 0.25 s") are not dated: the word must be one of these.
VERSION_PHRASE = re.compile(
    r"\b(before|since|until|till|after|as of|prior to|renamed in|removed in|added in|new in|deprecated in)"
    r"\s+(version\s+)?v?0\.\d",
    re.IGNORECASE,
)
SECTION = re.compile(r"^(\s*)(Args|Arguments|Attributes):\s*$")
ENTRY = re.compile(r"^\*{0,2}(\w+)(\s*\([^)]*\))?:")


def _modules() -> Iterator[tuple[Path, str, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        yield path, source, ast.parse(source)


def _lines(doc: str | None) -> int:
    return len(doc.strip().splitlines()) if doc else 0


def _where(path: Path, node: ast.AST | None = None) -> str:
    name = path.relative_to(PACKAGE.parent).as_posix()
    return f"{name}:{node.lineno}" if isinstance(node, ast.stmt) else name


def documented_parameters(doc: str | None) -> set[str] | None:
    """The names an ``Args:`` (or ``Attributes:``) section of ``doc`` lists, ``None`` without
    one. An entry is ``name: meaning`` or ``name (type): meaning`` at the section's first
    indent; its continuation lines are indented further."""
    if not doc:
        return None
    lines = inspect.cleandoc(doc).splitlines()
    names: set[str] | None = None
    for i, line in enumerate(lines):
        section = SECTION.match(line)
        if not section:
            continue
        names = set() if names is None else names
        base = len(section.group(1))
        entry_indent = None
        for body in lines[i + 1:]:
            if not body.strip():
                continue
            indent = len(body) - len(body.lstrip())
            if indent <= base:
                break
            entry_indent = indent if entry_indent is None else entry_indent
            if indent == entry_indent and (entry := ENTRY.match(body.strip())):
                names.add(entry.group(1))
    return names


def _parameters(func: Callable[..., Any]) -> list[str]:
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):
        return []
    return [name for name in signature.parameters if name not in ("self", "cls")]


def _root_callables() -> Iterator[tuple[str, list[str], str | None]]:
    """Each public callable of the root package with parameters: its name, its parameters
    and the docstring that must list them (a class's constructor is documented in the
    class's docstring, or in ``__init__``'s)."""
    import donuts_ai

    for name in donuts_ai.__all__:
        obj = getattr(donuts_ai, name)
        if inspect.isclass(obj):
            if issubclass(obj, BaseException):
                continue
            init = obj.__dict__.get("__init__")
            if init is not None and not getattr(init, "__module__", "").startswith("dataclasses"):
                yield name, _parameters(init), "\n\n".join(filter(None, [obj.__doc__, init.__doc__]))
        elif callable(obj):
            yield name, _parameters(obj), obj.__doc__


def test_documented_parameters_reads_google_sections():
    doc = '''Summary.

    Args:
        board: the position.
        threads (int): searches at once;
            continued: not an entry.
        *args: more.

    Returns:
        what: not a parameter.
    '''
    assert documented_parameters(doc) == {"board", "threads", "args"}
    assert documented_parameters("Summary.\n\n``board``: not a section.") is None


def test_no_class_docstring_is_over_15_lines():
    long = [f"{_where(path, node)} {node.name}: {_lines(ast.get_docstring(node))} lines"
            for path, _, tree in _modules() for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef) and _lines(ast.get_docstring(node)) > MAX_CLASS_LINES]
    assert not long, "class docstrings over 15 lines (internals go to comments):\n" + "\n".join(long)


def test_no_module_docstring_is_over_20_lines():
    long = [f"{_where(path)}: {_lines(ast.get_docstring(tree, clean=False))} lines" for path, _, tree in _modules()
            if _lines(ast.get_docstring(tree, clean=False)) > MAX_MODULE_LINES]
    assert not long, "module docstrings over 20 lines (say what the module is for):\n" + "\n".join(long)


def test_version_phrases_are_few():
    found = [f"{_where(path)}:{number}: {line.strip()}" for path, source, _ in _modules()
             for number, line in enumerate(source.splitlines(), 1) if VERSION_PHRASE.search(line)]
    assert len(found) <= MAX_VERSION_PHRASES, (
        f"{len(found)} version phrases (at most {MAX_VERSION_PHRASES}: history belongs in the CHANGELOG):\n"
        + "\n".join(found))


@pytest.mark.parametrize("phrase", ["written before 0.5.0", "since 0.4", "renamed in 0.4.0", "as of version 0.3"])
def test_version_phrase_pattern_finds_dates(phrase):
    assert VERSION_PHRASE.search(phrase)


@pytest.mark.parametrize("phrase", ["``0.42 ms`` (from 0.1 ms)", "from 0.1 to 1 ms", "in 0.25 s", "p < 0.05"])
def test_version_phrase_pattern_skips_quantities(phrase):
    assert not VERSION_PHRASE.search(phrase)


def test_root_callables_document_every_parameter():
    missing = []
    for name, parameters, doc in _root_callables():
        if not parameters:
            continue
        documented = documented_parameters(doc)
        if documented is None:
            missing.append(f"{name}: no Args: section for {parameters}")
        elif absent := [p for p in parameters if p not in documented]:
            missing.append(f"{name}: Args: does not name {absent}")
    assert not missing, "donuts_ai's public callables, Google style:\n" + "\n".join(missing)
