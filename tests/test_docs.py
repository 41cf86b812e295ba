"""The documentation site builds with warnings as errors, documents every public name, and
the README (a landing page) stays short with every link working."""

from __future__ import annotations

import ast
import importlib
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
README = ROOT / "README.md"
MAX_README_LINES = 200

#: Every package and module with an ``__all__``: their names are the public API.
PUBLIC_MODULES = [
    "donuts_ai",
    "donuts_ai.agents",
    "donuts_ai.agents.generic",
    "donuts_ai.bench",
    "donuts_ai.bench.reporting",
    "donuts_ai.boxes",
    "donuts_ai.boxes.agents",
    "donuts_ai.boxes.encoding",
    "donuts_ai.connect_four",
    "donuts_ai.connect_four.agents",
    "donuts_ai.connect_four.errors",
    "donuts_ai.connect_four.kernels",
    "donuts_ai.connect_four.reference",
    "donuts_ai.connect_four.rules",
    "donuts_ai.connect_four.solve",
    "donuts_ai.connect_four.state",
    "donuts_ai.donuts",
    "donuts_ai.donuts.agents",
    "donuts_ai.donuts.agents.search_base",
    "donuts_ai.donuts.alphabeta",
    "donuts_ai.donuts.alphabeta.solver",
    "donuts_ai.donuts.canonical",
    "donuts_ai.donuts.compiled",
    "donuts_ai.donuts.errors",
    "donuts_ai.donuts.outcomes",
    "donuts_ai.donuts.kernels",
    "donuts_ai.donuts.planes",
    "donuts_ai.donuts.raster",
    "donuts_ai.engine_protocol",
    "donuts_ai.game",
    "donuts_ai.interop",
    "donuts_ai.interop.gymnasium",
    "donuts_ai.interop.openspiel",
    "donuts_ai.learn",
    "donuts_ai.learn.distill",
    "donuts_ai.learn.supervised",
    "donuts_ai.outcomes",
    "donuts_ai.play",
    "donuts_ai.play.analysis",
    "donuts_ai.play.terminal",
    "donuts_ai.search.compiled_game",
    "donuts_ai.search.ismcts",
    "donuts_ai.search.mcts",
    "donuts_ai.search.puct",
    "donuts_ai.search.solver",
    "donuts_ai.suites",
    "donuts_ai.testing",
    "donuts_ai.tournament",
    "donuts_ai.tournament.match",
]
#: Markdown links ``[text](target)`` and images ``![alt](target)``.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _public_modules_with_all() -> list[str]:
    """Every non-private module of the package that declares ``__all__`` (read from the source)."""
    found = []
    for path in sorted((ROOT / "donuts_ai").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if any(p.startswith("_") and p != "__init__" for p in parts):
            continue
        if re.search(r"^__all__\s*=", path.read_text(), re.M):
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def test_public_module_list_is_complete():
    assert sorted(PUBLIC_MODULES) == _public_modules_with_all()


def test_readme_is_a_short_landing_page():
    lines = README.read_text().splitlines()
    assert len(lines) <= MAX_README_LINES, f"README.md has {len(lines)} lines"


def _readme_links() -> list[str]:
    return [t for t in LINK.findall(README.read_text()) if not re.match(r"[a-z]+:", t) and not t.startswith("#")]


def test_readme_links_point_to_files():
    links = _readme_links()
    assert links, "the README links into the documentation"
    for target in links:
        path = (ROOT / target.split("#")[0]).resolve()
        assert path.exists(), f"README.md links to {target}, which does not exist"


# --- the built site -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The documentation site, built as ``make docs`` builds it (``--strict``: warnings are
    errors). CI builds it only here: with ``DONUTS_REQUIRE_DOCS=1`` (set by ``.ci/run``) the
    docs packages missing fail the tests instead of skipping them."""
    for module in ("mkdocs", "material", "mkdocstrings_handlers.python", "mkdocs_jupyter", "mkdocs_autorefs"):
        if os.environ.get("DONUTS_REQUIRE_DOCS") == "1":
            importlib.import_module(module)
        else:
            pytest.importorskip(module, reason="the docs packages are missing: pip install -e '.[docs]'")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
           "NO_MKDOCS_2_WARNING": "1", "DONUTS_DOCS_UNRESOLVED": str(out.parent / "unresolved.txt")}
    build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert build.returncode == 0, f"mkdocs build --strict failed:\n{build.stdout}\n{build.stderr}"
    return out


def _ids(site: Path, under: str) -> set[str]:
    ids: set[str] = set()
    for page in (site / under).rglob("*.html"):
        ids |= set(re.findall(r'id="([^"]+)"', page.read_text()))
    return ids


def _documented_paths(module_name: str, name: str) -> set[str]:
    """The anchors under which ``module_name.name`` may be documented: where it is exported
    and where it is defined (a class or function's module, a constant's defining module)."""
    module = importlib.import_module(module_name)
    obj = getattr(module, name)
    paths = {f"{module_name}.{name}"}
    if inspect.isclass(obj) or inspect.isfunction(obj):
        paths.add(f"{obj.__module__}.{obj.__qualname__}")
    else:
        paths |= {f"{other}.{name}" for other, mod in list(sys.modules.items())
                  if other.startswith("donuts_ai") and getattr(mod, name, None) is obj}
    return paths


@pytest.fixture(scope="module")
def reference_ids(site) -> set[str]:
    return _ids(site, "reference")


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_every_public_name_is_in_the_api_reference(reference_ids, module_name):
    # One test per module: a missing optional dependency (OpenSpiel) skips its module only.
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        pytest.skip(f"{module_name}: {exc}")
    missing = [f"{module_name}.{name}" for name in module.__all__ if not _documented_paths(module_name, name) & reference_ids]
    assert not missing, f"not in the API reference: {missing}"


def _error_classes() -> dict[str, str]:
    """Every public ``DonutsError`` subclass defined in the package (read from the source,
    following base classes by name) -> its module's file."""
    bases: dict[str, tuple[set[str], str]] = {}
    aliases: dict[str, str] = {}  # ``from ..errors import IllegalMoveError as _BoardIllegalMoveError``
    for path in sorted((ROOT / "donuts_ai").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                names = {ast.unparse(b).rpartition(".")[2] for b in node.bases}
                bases[node.name] = (names, str(path.relative_to(ROOT)))
            elif isinstance(node, ast.ImportFrom):
                aliases |= {a.asname: a.name for a in node.names if a.asname}
    errors = {"DonutsError"}
    grown = True
    while grown:
        found = {name for name, (names, _) in bases.items() if {aliases.get(n, n) for n in names} & errors}
        grown = not found <= errors
        errors |= found
    return {name: bases[name][1] for name in errors if not name.startswith("_")}


def test_every_error_is_on_the_errors_page():
    page = (ROOT / "docs" / "reference" / "outcomes.md").read_text()
    errors = _error_classes()
    assert {"DonutsError", "SpecError", "BoxesAgentError"} <= set(errors)
    missing = sorted(f"{name} ({where})" for name, where in errors.items()
                     if f"`{name}`" not in page and not where.endswith("donuts_ai/errors.py"))
    assert not missing, f"errors not listed on docs/reference/outcomes.md: {missing}"


def test_docstring_roles_are_rendered(site):
    """No raw Sphinx role (:class:`...`) is left in the reference pages."""
    for page in (site / "reference").rglob("*.html"):
        text = page.read_text()
        leftover = re.search(r":(class|func|meth|mod|data|attr|exc):`", text)
        assert leftover is None, f"{page.relative_to(site)}: {text[leftover.start():leftover.start() + 80]}"


def test_readme_links_into_the_docs_are_built_pages(site):
    for target in _readme_links():
        path = target.split("#")[0]
        if not path.startswith("docs/") or not path.endswith(".md"):
            continue
        page = path.removeprefix("docs/").removesuffix(".md")
        page = page.removesuffix("index").rstrip("/")
        built = site / page / "index.html" if page else site / "index.html"
        assert built.exists(), f"README.md links to {target}, but the site has no {built.relative_to(site)}"


def test_every_notebook_is_a_tutorial_page(site):
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        page = site / "tutorials" / notebook.stem / "index.html"
        assert page.exists(), f"{notebook.name} is not rendered"
        assert "jp-OutputArea" in page.read_text() or "output" in page.read_text(), f"{notebook.name}: no outputs shown"


def test_rules_page_draws_its_diagrams(site):
    html = (site / "rules" / "index.html").read_text()
    pictures = re.findall(r'src="\.\./diagrams/([\w-]+\.svg)"', html)
    assert len(pictures) >= 10
    for name in pictures:
        assert (site / "diagrams" / name).read_text().startswith("<svg")


def test_the_version_is_one_number_in_pyproject_the_package_and_the_changelog():
    """``pyproject.toml``, ``donuts_ai.__version__`` and the newest CHANGELOG entry name
    the same version: the one being built."""
    import tomllib

    import donuts_ai

    root = Path(__file__).parent.parent
    built = tomllib.loads((root / "pyproject.toml").read_text())["project"]["version"]
    newest = re.search(r"^## (\S+)", (root / "CHANGELOG.md").read_text(), re.M)
    assert newest is not None
    assert donuts_ai.__version__ == built == newest.group(1)
