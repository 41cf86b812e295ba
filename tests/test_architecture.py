"""The package's shape, checked: no import circles, every module in a known layer, each
layer importing only the layers listed for it (see docs/architecture.md), and no
function over 100 lines.

Every import counts, at module level or inside a function: a lazy import (an optional
dependency, a command that loads only what it runs) still ties the two modules together,
and a circle through one is still a circle. Only ``if TYPE_CHECKING:`` imports, which
never run, are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parent.parent / "donuts_ai"
#: Longest function body, in lines, anywhere in the package.
MAX_FUNCTION_LINES = 100

#: Each layer may import only itself and the layers listed for it (by top-level module
#: or package under donuts_ai); every module belongs to one of these layers. The rules of
#: the game know nothing of search, agents or experiments; the kernels know only the
#: square constants; the harness reaches a game through its protocol and agents through
#: specs; the front ends (cli, play, interop, bench, study) sit on top.
ALLOWED = {
    "errors": set(),
    "_checks": {"errors"},
    "_kernel_cache": set(),
    "squares": {"errors"},
    "rules": {"errors"},
    "symmetry": {"errors", "squares"},
    "svg": {"squares"},
    "layout": {"errors", "squares", "svg", "symmetry", "_engine"},  # the engine's line-mask tables
    "_engine": {"squares"},
    "outcomes": {"_engine"},
    # The public compiled API: the engine's kernels (and the solver's position key) under stable names.
    "kernels": {"_engine", "board", "errors", "search", "squares", "symmetry"},
    "board": {"_engine", "errors", "layout", "outcomes", "rules", "squares", "svg", "symmetry"},
    "reference": {"layout", "rules"},
    "analysis": {"_engine", "board", "errors", "layout", "rules", "_checks"},
    "vector_env": {"_checks", "_engine", "errors", "layout", "outcomes", "rules", "squares"},
    "search": {"_checks", "_engine", "agents", "board", "errors", "layout", "outcomes", "rules", "squares"},
    "agents": {"_engine", "board", "squares", "errors", "_checks"},  # search: by dotted path, never imported
    "tournament": {"_checks", "errors"},
    "donuts_game": {"agents", "board", "errors", "layout", "rules", "tournament"},
    # The card game shares only the checks, the errors and the harness's game protocol
    # with the board game (the harness loads it by name, never by an import).
    "boxes": {"_checks", "agents", "errors", "search", "tournament"},  # search: the information-set MCTS
    # The front ends: each may use the library below it, none another front end but the
    # command line, which dispatches to all of them.
    "study": {"board", "errors", "layout", "rules", "search", "symmetry", "tournament"},
    # The Donuts Engine Protocol: our agents as engines (the harness seats engines itself,
    # loading the protocol's position writer by name).
    "engine_protocol": {"agents", "board", "errors", "layout", "rules", "squares", "tournament"},
    "interop": {"_checks", "_engine", "agents", "board", "errors", "layout", "rules", "squares", "tournament"},  # _engine: plane names
    "play": {"board", "errors", "layout", "outcomes", "rules", "search", "squares", "svg", "tournament"},
    # The learned agent: a network over the planes, searched by its own compiled PUCT, trained
    # on the batched games, measured against the solver.
    "learn": {"_engine", "agents", "board", "errors", "layout", "outcomes", "rules", "search", "squares", "suites", "symmetry",
              "vector_env"},
    # Accuracy against perfect play: suites labelled by the solver, agents seated by the harness.
    "suites": {"_checks", "agents", "board", "errors", "layout", "outcomes", "rules", "search", "squares", "tournament"},
    "bench": {"_checks", "_engine", "agents", "analysis", "board", "boxes", "errors", "interop", "kernels", "layout", "outcomes",
              "reference", "search", "suites", "tournament", "vector_env"},
    "cli": {"_checks", "bench", "board", "engine_protocol", "errors", "layout", "learn", "play", "rules", "squares", "study",
            "suites", "tournament"},
}


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _import_nodes(tree: ast.AST):
    """Every import statement of the tree, at any depth, but those under ``if TYPE_CHECKING:``."""
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        todo.extend(ast.iter_child_nodes(node))


def _imports(modules: dict[str, Path]) -> dict[str, set[str]]:
    edges = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        targets = set()
        for node in _import_nodes(ast.parse(path.read_text())):
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


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_the_import_reader_sees_lazy_imports_and_skips_type_checking_ones(tmp_path):
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import json\n\ndef f():\n    import os\n"
    found = {a.name for node in _import_nodes(ast.parse(source)) for a in node.names}
    assert found == {"TYPE_CHECKING", "os"}


def test_no_import_circles():
    modules = _modules()
    edges = _imports(modules)
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
    edges = _imports(_modules())
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
    edges = _imports(_modules())
    through_root = sorted(m for m, targets in edges.items() if "donuts_ai" in targets and _layer(m) != "__main__")
    assert not through_root, f"import from the layer that defines the name instead: {through_root}"
