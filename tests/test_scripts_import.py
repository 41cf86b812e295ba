"""Every script and module in ``benchmarks/`` and ``examples/`` still speaks today's API, as
far as its imports go: each file compiles, each module of the two packages imports, and
every name a file imports (``import a.b``, ``from a.b import c``, at any depth, inside a
``try`` too) resolves. The scripts (``benchmarks/side_by_side/*.py``, ``__main__.py``) are
not run: their names are resolved from the source. A name that needs an optional
dependency which is not installed (``jax``, ``pyspiel``, ...) is left out, not failed.

The imports are resolved in a fresh interpreter (this file run as a script), so that what
they load (JAX, the learned agent) stays out of the test process. Also checked: the mypy
overrides of ``pyproject.toml`` name only modules that exist.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import py_compile
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("benchmarks", "examples")
#: Top-level names that belong to this repository: a failure to import them is a stale import,
#: never a missing optional dependency.
OURS = {"donuts_ai", *FOLDERS}


def python_files() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)


def module_name(path: Path) -> str | None:
    """The dotted name a file imports as, or ``None`` for a script (outside a package, or a
    ``__main__.py``, which runs its work when imported)."""
    if path.name == "__main__.py":
        return None
    parts = [path.stem] if path.name != "__init__.py" else []
    folder = path.parent
    while (folder / "__init__.py").exists():
        parts.insert(0, folder.name)
        folder = folder.parent
    if folder != ROOT or not parts:
        return None
    return ".".join(parts)


def imported_names(tree: ast.AST, package: str | None) -> list[tuple[int, str, str | None]]:
    """``(line, module, name)`` for every import in ``tree``: ``name`` is ``None`` for
    ``import module``, else what ``from module import name`` asks of the module."""
    out: list[tuple[int, str, str | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name, None) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                assert package is not None, f"line {node.lineno}: a relative import outside a package"
                module = importlib.util.resolve_name("." * node.level + module, package)
            out.extend((node.lineno, module, alias.name) for alias in node.names if alias.name != "*")
            if any(alias.name == "*" for alias in node.names):
                out.append((node.lineno, module, None))
    return out


def _missing_optional(error: ImportError) -> bool:
    """The import failed only because an optional third-party package is not installed."""
    top = (getattr(error, "name", None) or "").partition(".")[0]
    return bool(top) and top not in OURS and importlib.util.find_spec(top) is None


def file_problems(path: Path) -> list[str]:
    """What does not resolve in one file, one line each (``path:line: what``)."""
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    name = module_name(path)
    found: list[str] = []
    if name is not None:
        try:
            importlib.import_module(name)
        except ImportError as error:
            if not _missing_optional(error):
                found.append(f"{where}: import {name}: {error!r}")
        except Exception as error:  # any failure on import is what this reports
            found.append(f"{where}: import {name}: {error!r}")
    package = name if path.name == "__init__.py" else (name.rpartition(".")[0] if name else None)
    if name is None and str(path.parent) not in sys.path:  # a script imports from its own folder, first
        sys.path.insert(0, str(path.parent))
    for line, module, attribute in imported_names(ast.parse(path.read_text(), str(path)), package):
        what = module if attribute is None else f"{attribute} from {module}"
        try:
            imported = importlib.import_module(module)
        except ImportError as error:
            if not _missing_optional(error):
                found.append(f"{where}:{line}: {what}: {error!r}")
            continue
        if attribute is None or hasattr(imported, attribute):
            continue
        try:  # not an attribute: a submodule?
            importlib.import_module(f"{module}.{attribute}")
        except ImportError as error:
            if _missing_optional(error):
                continue
            if error.name == f"{module}.{attribute}" or not hasattr(imported, "__path__"):
                found.append(f"{where}:{line}: {what}: {module} has no name {attribute!r}")
            else:
                found.append(f"{where}:{line}: {what}: {error!r}")
    return found


def problems() -> list[str]:
    """What does not resolve in any file of the two folders; run in a fresh interpreter."""
    sys.path.insert(0, str(ROOT))
    return [line for path in python_files() for line in file_problems(path)]


def test_every_file_compiles(tmp_path):
    files = python_files()
    assert any(p.parent.name == "side_by_side" for p in files) and any(p.parts[-2] == "examples" for p in files)
    for path in files:
        py_compile.compile(str(path), cfile=str(tmp_path / "out.pyc"), doraise=True)


def test_every_import_in_benchmarks_and_examples_resolves():
    proc = subprocess.run([sys.executable, __file__], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    found = json.loads(proc.stdout.strip().splitlines()[-1])
    assert found == [], "stale imports in benchmarks/ or examples/:\n" + "\n".join(found)


def test_the_check_finds_stale_imports(tmp_path):
    """The check itself, on a script like the stale ones it was written for: a removed
    module, a removed name, a removed submodule; a name that exists passes."""
    script = tmp_path / "stale.py"
    script.write_text("from donuts_ai.analysis import random_playouts\n"
                      "from donuts_ai.errors import BoxesIllegalMoveError, GameOverError\n"
                      "try:\n    import donuts_ai.boxes._ismcts\nexcept ImportError:\n    pass\n"
                      "from donuts_ai import Board\n")
    assert module_name(script) is None
    found = file_problems(script)
    assert [line.split(": ")[1] for line in found] == [
        "random_playouts from donuts_ai.analysis", "BoxesIllegalMoveError from donuts_ai.errors", "donuts_ai.boxes._ismcts"]


def test_mypy_overrides_name_existing_modules():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    named = [m for override in config["overrides"] for m in override["module"] if m.startswith("donuts_ai")]
    assert named
    missing = []
    for module in named:
        path = ROOT / Path(*module.removesuffix(".*").split("."))
        exists = path.is_dir() if module.endswith(".*") else (path.with_suffix(".py").is_file() or (path / "__init__.py").is_file())
        if not exists:
            missing.append(module)
    assert missing == [], f"pyproject.toml's mypy overrides name modules that do not exist: {missing}"


if __name__ == "__main__":
    print(json.dumps(problems()))
