"""A Griffe extension that makes the package's reST-flavoured docstrings read as Markdown.

The docstrings are Google style (mkdocstrings parses their ``Args:``, ``Returns:`` and
``Raises:`` sections) and cross-reference with Sphinx roles (:class:`~donuts_ai.Board`,
:meth:`push`, :mod:`.base`). This extension rewrites each role into an optional
mkdocs-autorefs reference to the object's documented path, resolved the way Sphinx
would (relative to the docstring's scope), so a role becomes a link when its target
is in the API reference and plain code otherwise; it never fails the build. It also
turns reST's ``Text::`` literal-block marker into ``Text:`` and reads ``#:`` comments
above module and class attributes as their docstrings, as Sphinx's autodoc does.

The roles it could not resolve are written to ``$DONUTS_DOCS_UNRESOLVED`` when that is
set (the docs test reads it), one ``object path<TAB>role target`` a line.
"""

from __future__ import annotations

import ast
import builtins
import os
import re
from typing import Any

import griffe

ROLE = re.compile(r":(?P<role>class|func|meth|mod|data|attr|exc|obj|const):`(?P<body>[^`]+)`")
# "title <target>" inside a role: the title is shown, the target resolved.
EXPLICIT_TITLE = re.compile(r"^(?P<title>.+?)\s*<(?P<target>[^<>]+)>$")
# A paragraph ending in "::" introduces a literal block in reST; Markdown needs only the indent.
LITERAL_MARKER = re.compile(r"(?<=\S)::(?=\n)")
BARE_LITERAL_MARKER = re.compile(r"^\s*::\s*\n", re.M)
# ``a[i][j]`` in prose would read as a Markdown reference link ``[i][j]``.
INDEX_PAIR = re.compile(r"\](?=\[)")
CODE_SPAN = re.compile(r"(``?)[^`]*?\1|<autoref[^>]*>`[^`]*`</autoref>")
CALLABLE_ROLES = {"func", "meth"}
PACKAGE_ROOT = "donuts_ai"


class SphinxRoles(griffe.Extension):
    """Rewrite Sphinx roles and literal-block markers in every docstring of the package."""

    def __init__(self) -> None:
        super().__init__()
        self.unresolved: list[tuple[str, str]] = []

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        if pkg.path != PACKAGE_ROOT:
            return
        for obj in list(_walk(pkg)):
            if obj.is_module:
                _add_unpacked_attributes(obj)
        for obj in _walk(pkg):
            if obj.docstring is None and obj.is_attribute:
                _read_attribute_comment(obj)
            if obj.docstring is not None:
                obj.docstring.value = self._rewrite(obj, obj.docstring.value)
        report = os.environ.get("DONUTS_DOCS_UNRESOLVED")
        if report:
            with open(report, "w") as out:
                out.writelines(f"{path}\t{target}\n" for path, target in self.unresolved)

    def _rewrite(self, obj: griffe.Object, text: str) -> str:
        def replace(match: re.Match) -> str:
            role, body = match["role"], match["body"].strip()
            explicit = EXPLICIT_TITLE.match(body)
            if explicit:
                title, target = explicit["title"], explicit["target"].strip()
            else:
                target = body
                short = target.startswith("~")
                target = target.lstrip("~")
                title = target.rsplit(".", 1)[-1] if short else target.lstrip(".")
                if role in CALLABLE_ROLES and not title.endswith(")"):
                    title += "()"
            path = _resolve(obj, target)
            if path is None:
                if not _is_private(obj.path) and target.split(".")[0] not in BUILTIN_OR_STDLIB:
                    self.unresolved.append((obj.path, f":{role}:`{body}`"))
                path = _fallback(obj, target)
            return f'<autoref identifier="{path}" optional>`{title}`</autoref>'

        text = ROLE.sub(replace, text)
        text = BARE_LITERAL_MARKER.sub("\n", text)
        text = LITERAL_MARKER.sub(":", text)
        return _escape_index_pairs(text)


BUILTIN_OR_STDLIB = set(dir(builtins)) | {"random", "numpy", "np", "argparse", "threading", "pathlib", "json", "collections",
                                          "typing", "enum", "dataclasses", "concurrent", "multiprocessing", "subprocess"}


def _is_private(path: str) -> bool:
    return any(part.startswith("_") and not part.startswith("__") for part in path.split("."))


def _escape_index_pairs(text: str) -> str:
    """Escape ``][`` outside code, in prose lines (an indented literal block is code)."""
    out = []
    for line in text.split("\n"):
        if line.startswith("    ") or "][" not in line:
            out.append(line)
            continue
        pieces, last = [], 0
        for span in CODE_SPAN.finditer(line):
            pieces.append(INDEX_PAIR.sub("]\\\\", line[last:span.start()]))
            pieces.append(span.group(0))
            last = span.end()
        pieces.append(INDEX_PAIR.sub("]\\\\", line[last:]))
        out.append("".join(pieces))
    return "\n".join(out)


def _add_unpacked_attributes(module: griffe.Module) -> None:
    """``WIN, DRAW, LOSS = 1, 0, -1`` at module level: three attributes, as autodoc sees them."""
    if module.filepath is None or isinstance(module.filepath, list) or module.filepath not in module.lines_collection:
        return
    source = "\n".join(module.lines_collection[module.filepath])
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple)):
            continue
        names = node.targets[0].elts
        values = node.value.elts if isinstance(node.value, ast.Tuple) and len(node.value.elts) == len(names) else None
        for index, name in enumerate(names):
            if not isinstance(name, ast.Name) or name.id in module.members:
                continue
            value = ast.unparse(values[index]) if values else None
            attribute = griffe.Attribute(name.id, lineno=node.lineno, endlineno=node.end_lineno, value=value)
            module.set_member(name.id, attribute)


def _walk(obj: griffe.Object):
    yield obj
    for member in obj.members.values():
        if member.is_alias:
            continue
        yield from _walk(member)


def _read_attribute_comment(obj: griffe.Object) -> None:
    """Sphinx's ``#:`` doc-comments on the lines just above an attribute become its docstring."""
    if obj.lineno is None or obj.filepath is None or isinstance(obj.filepath, list):
        return
    lines = obj.lines_collection[obj.filepath] if obj.filepath in obj.lines_collection else []
    comment: list[str] = []
    number = obj.lineno - 2
    while number >= 0 and lines[number].strip().startswith("#:"):
        comment.insert(0, lines[number].strip()[2:].strip())
        number -= 1
    if comment:
        obj.docstring = griffe.Docstring("\n".join(comment), lineno=number + 2, parent=obj)


def _module(obj: griffe.Object) -> griffe.Module:
    return obj if obj.is_module else obj.module


def _candidates(obj: griffe.Object, target: str) -> list[str]:
    module = _module(obj)
    package = module.path if module.is_init_module or module.is_package else module.parent.path if module.parent else module.path
    if target.startswith("."):
        relative = target.lstrip(".")
        ups = len(target) - len(relative) - 1
        base = package.split(".")
        base = base[: len(base) - ups] if ups else base
        return [f"{'.'.join(base)}.{relative}", f"{module.path}.{relative}"]
    if target.startswith(PACKAGE_ROOT + ".") or target == PACKAGE_ROOT:
        return [target]
    head, _, rest = target.partition(".")
    found = []
    scope = obj
    while scope is not None:
        try:
            resolved = scope.resolve(head)
        except Exception:  # noqa: BLE001 (griffe raises its own resolution errors, or fails on odd aliases)
            resolved = None
        if resolved:
            found.append(f"{resolved}.{rest}" if rest else resolved)
            break
        scope = scope.parent
    owner = obj if obj.is_class else obj.parent if obj.parent is not None and obj.parent.is_class else None
    if owner is not None:
        found.append(f"{owner.path}.{target}")
    found += [f"{module.path}.{target}", f"{package}.{target}", f"{PACKAGE_ROOT}.{target}"]
    return found


def _lookup(obj: griffe.Object, path: str) -> str | None:
    """The documented path of ``path``: an alias's final target, where the object itself lives."""
    try:
        found = obj.modules_collection[path]
    except Exception:  # noqa: BLE001 (a missing or unloadable path)
        return None
    if found.is_alias:
        try:
            return found.final_target.path
        except Exception:  # noqa: BLE001 (an alias to something outside the package)
            return found.target_path
    return found.path


def _resolve(obj: griffe.Object, target: str) -> str | None:
    for candidate in _candidates(obj, target):
        path = _lookup(obj, candidate)
        if path is not None:
            return path
    # A name the package exports lazily (a module ``__getattr__``): the one object of that name.
    # The nearest one wins: the object of that name sharing the longest dotted prefix.
    matches = _objects_named(obj, target)
    if not matches:
        return None
    here = _module(obj).path.split(".")

    def shared(path: str) -> int:
        parts = path.split(".")
        return next((i for i, (a, b) in enumerate(zip(parts, here, strict=False)) if a != b), min(len(parts), len(here)))

    ranked = sorted(matches, key=shared, reverse=True)
    if len(ranked) > 1 and shared(ranked[0]) == shared(ranked[1]):
        return None
    return ranked[0]


_NAMES: dict[int, dict[str, list[str]]] = {}


def _objects_named(obj: griffe.Object, target: str) -> list[str]:
    root = obj.modules_collection[PACKAGE_ROOT]
    index = _NAMES.get(id(root))
    if index is None:
        index = {}
        for member in _walk(root):
            parts = member.path.split(".")
            if any(part.startswith("_") and not part.startswith("__") for part in parts):
                continue
            for start in range(1, len(parts)):
                index.setdefault(".".join(parts[start:]), []).append(member.path)
        _NAMES[id(root)] = index
    return index.get(target.lstrip("."), [])


def _fallback(obj: griffe.Object, target: str) -> str:
    candidates = _candidates(obj, target)
    return candidates[0] if candidates else target
