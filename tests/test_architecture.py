"""The package's shape, checked: no import circles, and each layer imports only the layers
below it (see "Layout of the project" in the README).

Module-level imports only: an import inside a function is lazy on purpose (an optional
dependency, a command that loads only what it runs) and ``if TYPE_CHECKING:`` imports
are for annotations.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parent.parent / "donuts_ai"

#: Each layer may import only itself and the layers listed for it (by top-level module
#: or package under donuts_ai). The rules of the game know nothing of search, agents or
#: experiments; the kernels know only the square constants; the harness reaches the game
#: through its protocol adapter and agents through specs, never the engine.
ALLOWED = {
    "errors": set(),
    "_checks": {"errors"},
    "_spec": set(),
    "_kernel_cache": set(),
    "squares": {"errors"},
    "rules": {"errors"},
    "symmetry": {"errors", "squares"},
    "svg": {"squares"},
    "layout": {"errors", "squares", "svg", "symmetry"},
    "_engine": {"squares"},
    "board": {"_engine", "errors", "layout", "rules", "squares", "svg", "symmetry"},
    "reference": {"layout", "rules"},
    "analysis": {"_engine", "board", "errors", "layout", "rules", "_checks"},
    "vector_env": {"_checks", "_engine", "errors", "layout", "rules", "squares"},
    "search": {"_checks", "_spec", "_engine", "board", "errors", "layout", "rules", "squares"},
    "solver": {"search"},
    "agents": {"_engine", "board", "search", "squares", "errors", "_checks"},
    "tournament": {"_checks", "agents", "board", "errors", "layout", "rules"},
    # The card game shares only the checks, the errors and the harness's game protocol
    # with the board game (the harness loads it by name, never by an import).
    "boxes": {"_checks", "_spec", "errors", "tournament"},
}


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(modules: dict[str, Path]) -> dict[str, set[str]]:
    edges = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        targets = set()
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names if a.name in modules}
            elif isinstance(node, ast.ImportFrom):
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


def test_layers_import_only_the_layers_below():
    edges = _imports(_modules())
    wrong = []
    for module, targets in edges.items():
        layer = _layer(module)
        if layer not in ALLOWED:
            continue
        for target in targets:
            other = _layer(target)
            if other and other != layer and other not in ALLOWED[layer]:
                wrong.append(f"{module} imports {target}")
    assert not wrong, "\n".join(sorted(wrong))
