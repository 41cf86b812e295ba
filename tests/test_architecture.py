"""The package's shape, checked: no import circles, every module in a known layer, each
layer importing only the layers listed for it (see docs/architecture.md), and no
function over 100 lines.

Every import counts, at module level or inside a function: a lazy import (an optional
dependency, a command that loads only what it runs) still ties the two modules together.
For the circles, imports under ``if TYPE_CHECKING:`` count too: a circle through an
annotation is one refactoring away from running. For the layers, so does a dotted-path
string naming a module of the package (``"donuts_ai.search.mcts.agent:MCTSAgent"``,
``"donuts_ai.boxes.game"``): a registry that imports its entries on first use knows them
as surely as an import statement. The layers leave out ``if TYPE_CHECKING:`` imports: they
never run and load nothing, and let a lower layer annotate what a caller hands it (the
engine's ``rulebook_of(layout, rules)``, a page's agents made by spec) by the type's name.
"""

from __future__ import annotations

import ast
import functools
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).parent.parent / "donuts_ai"
#: Longest function body, in lines, anywhere in the package.
MAX_FUNCTION_LINES = 100
#: A string that names a module of the package, alone or with an attribute: ``"donuts_ai.boxes.game"``,
#: ``"donuts_ai.search.alphabeta.agent:AlphaBetaAgent"``. Text that only mentions one (a message, a
#: docstring) is not the whole string, so it is not read as a name.
DOTTED_PATH = re.compile(r"donuts_ai(?:\.[A-Za-z_]\w*)+(?::[A-Za-z_]\w*)?")

#: Each layer may import only itself and the layers listed for it (by top-level module
#: or package under donuts_ai); every module belongs to one of these layers. The rules of
#: the game know nothing of search, agents or experiments; the kernels know only the
#: square constants; the harness reaches a game through its protocol and agents through
#: specs; the front ends (cli, play, interop, bench, study) sit on top. The package root
#: (``donuts_ai/__init__.py``, layer "") is above them all: it fills the lower layers'
#: registries with the dotted paths of the higher layers' classes and modules.
ALLOWED = {
    "errors": set(),
    "_checks": {"errors"},
    "_kernel_cache": set(),
    "_units": set(),  # quantities as text, for every table
    "state": {"errors"},  # the state API both games implement (a Protocol): below both games
    "squares": {"errors"},
    "rules": {"errors"},
    "symmetry": {"errors", "squares"},
    "svg": {"squares"},
    "layout": {"_checks", "errors", "squares", "svg", "symmetry", "_engine"},  # the engine's line-mask tables
    "_engine": {"squares"},
    "outcomes": {"_engine"},
    # The public compiled API: the engine's kernels (and the solver's position key) under stable names.
    "kernels": {"_engine", "board", "errors", "search", "squares", "symmetry"},
    "board": {"_engine", "errors", "layout", "outcomes", "rules", "squares", "state", "svg", "symmetry"},
    "reference": {"layout", "rules"},
    "playouts": {"_engine", "board", "errors", "layout", "rules", "_checks"},
    "vector_env": {"_checks", "_engine", "errors", "layout", "outcomes", "rules", "squares"},
    "search": {"_checks", "_engine", "agents", "board", "errors", "layout", "outcomes", "rules", "squares"},
    # The searching agents' registry entries are the package root's: this layer names no search.
    "agents": {"_engine", "board", "squares", "errors", "_checks"},
    "tournament": {"_checks", "errors"},
    # donuts_ai.make: a fresh state of either game, from the table of both games' states.
    "games": {"board", "boxes", "errors", "layout", "rules", "state"},
    "donuts_game": {"agents", "board", "errors", "layout", "rules", "tournament"},
    # The card game shares only the checks, the errors and the harness's game protocol
    # with the board game (the harness loads it by the name the package root gives it).
    "boxes": {"_checks", "agents", "errors", "search", "state", "tournament"},  # search: the information-set MCTS,
    # The front ends: each may use the library below it, none another front end but the
    # command line, which dispatches to all of them.
    "study": {"board", "errors", "layout", "rules", "search", "symmetry", "tournament"},
    # The Donuts Engine Protocol: our agents as engines (the harness seats engines itself,
    # loading the protocol's position writer by the dotted path the package root gives it).
    "engine_protocol": {"agents", "board", "errors", "layout", "rules", "squares", "tournament"},
    "interop": {"_checks", "_engine", "agents", "board", "errors", "layout", "rules", "squares", "tournament"},  # _engine: plane names
    "play": {"board", "errors", "layout", "outcomes", "rules", "search", "squares", "svg", "tournament"},
    # The learned agent: a network over the planes, searched by its own compiled PUCT, trained
    # on the batched games, measured against the solver.
    "learn": {"_checks", "_engine", "agents", "board", "errors", "layout", "outcomes", "rules", "search", "squares", "suites", "symmetry",
              "vector_env"},
    # Accuracy against perfect play: suites labelled by the solver, agents seated by the harness.
    "suites": {"_checks", "_units", "agents", "board", "errors", "layout", "outcomes", "rules", "search", "squares", "tournament"},
    "bench": {"_checks", "_engine", "_units", "agents", "board", "boxes", "errors", "interop", "kernels", "layout", "outcomes", "playouts",
              "reference", "search", "suites", "tournament", "vector_env"},
    "cli": {"_checks", "bench", "board", "engine_protocol", "errors", "layout", "learn", "play", "rules", "squares", "study",
            "suites", "tournament"},
}


@functools.cache  # the package's files do not change during a test run
def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _import_nodes(tree: ast.AST, type_checking: bool = True) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement of the tree, at any depth; those under ``if TYPE_CHECKING:``
    only with ``type_checking``."""
    todo = [tree]
    while todo:
        node = todo.pop()
        if not type_checking and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        todo.extend(ast.iter_child_nodes(node))


def _named_modules(tree: ast.AST, modules: dict[str, Path]) -> set[str]:
    """The modules of the package that string literals of the tree name by dotted path (the
    longest prefix of the path that is a module: ``"donuts_ai.boxes.game:BoxesGame"`` names
    ``donuts_ai.boxes.game``)."""
    named = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and DOTTED_PATH.fullmatch(node.value):
            parts = node.value.partition(":")[0].split(".")
            prefixes = (".".join(parts[:n]) for n in range(len(parts), 1, -1))
            named |= {next((p for p in prefixes if p in modules), node.value)}
    return named


def _imports(modules: dict[str, Path], layers: bool = False) -> dict[str, set[str]]:
    """Each module -> the modules of the package it imports: for a circle, every import; for
    the ``layers``, those that run, and the modules it names by dotted path."""
    edges = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        tree = ast.parse(path.read_text())
        targets = _named_modules(tree, modules) if layers else set()
        for node in _import_nodes(tree, type_checking=not layers):
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names if a.name in modules}
                continue
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            subs = {f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules}
            targets |= subs if len(subs) == len(node.names) else ({base} & set(modules)) | subs
        edges[name] = targets - {name}
    return edges


@functools.cache
def _edges(layers: bool = False) -> dict[str, set[str]]:
    """:func:`_imports` of the whole package, read once per test run."""
    return _imports(_modules(), layers)


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_the_import_reader_sees_lazy_type_checking_and_dotted_path_imports():
    source = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import json\n\ndef f():\n    import os\n"
        "KINDS = {'a': 'donuts_ai.boxes.game:BoxesGame', 'b': 'donuts_ai.search', 'c': 'see donuts_ai.board'}\n"
    )
    found = {a.name for node in _import_nodes(ast.parse(source)) for a in node.names}
    assert found == {"TYPE_CHECKING", "json", "os"}
    running = {a.name for node in _import_nodes(ast.parse(source), type_checking=False) for a in node.names}
    assert running == {"TYPE_CHECKING", "os"}
    modules = {"donuts_ai.boxes": ROOT, "donuts_ai.boxes.game": ROOT, "donuts_ai.search": ROOT, "donuts_ai.board": ROOT}
    assert _named_modules(ast.parse(source), modules) == {"donuts_ai.boxes.game", "donuts_ai.search"}


def test_no_import_circles():
    # Imports only, ``if TYPE_CHECKING:`` ones too. A dotted path is knowledge of a layer
    # (checked below), but naming a module to run it (``python -m
    # donuts_ai.tournament._seat_process``, launched by the module it imports) is no circle.
    modules = _modules()
    edges = _edges()
    state: dict[str, int] = {}
    cycles = []

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for name in sorted(modules):
        if name not in state:
            visit(name, [])
    assert not cycles, " ; ".join(" -> ".join(c) for c in cycles)


def test_every_module_is_in_a_known_layer():
    # The package itself ("") and ``python -m donuts_ai`` ("__main__") are the top: they may
    # import anything. Any other module must be placed in the table above.
    unknown = sorted({_layer(m) for m in _modules()} - set(ALLOWED) - {"", "__main__"})
    assert not unknown, f"layers missing from ALLOWED: {unknown}"


def test_layers_import_only_the_layers_below():
    edges = _edges(layers=True)
    wrong = []
    for module, targets in edges.items():
        layer = _layer(module)
        if layer in ("", "__main__"):
            continue
        for target in targets:
            other = _layer(target)
            if other and other != layer and other not in ALLOWED[layer]:
                wrong.append(f"{module} imports {target}")
    assert not wrong, "\n".join(sorted(wrong))


def test_no_function_is_longer_than_the_limit():
    long = []
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(ROOT.parent)}:{node.lineno} {node.name} ({lines} lines)")
    assert not long, "\n".join(long)


def test_no_module_imports_the_package_itself():
    # ``from .. import Board`` would hide which layer the name comes from (the package
    # re-exports every layer), so the layer check above could not see it.
    edges = _edges()
    through_root = sorted(m for m, targets in edges.items() if "donuts_ai" in targets and _layer(m) != "__main__")
    assert not through_root, f"import from the layer that defines the name instead: {through_root}"


def test_importing_the_agents_loads_no_search_code():
    # The registry names the searching agents by dotted path (filled by the package root) and
    # the root loads the solver only when first named: a seat of a simple agent stays light.
    code = "import sys, donuts_ai.agents; print(sorted(m for m in sys.modules if m.startswith('donuts_ai.search')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT.parent).stdout
    assert loaded.strip() == "[]"


def test_the_package_root_names_its_solver_lazily():
    code = ("import sys, donuts_ai; before = 'donuts_ai.search' in sys.modules\n"
            "from donuts_ai import Solver, analyze, solve\n"
            "print(before, Solver.__module__, 'analyze' in dir(donuts_ai))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT.parent).stdout
    assert out.split() == ["False", "donuts_ai.search.alphabeta.solver", "True"]
