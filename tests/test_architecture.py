"""The package's shape, checked: no import circles, every module in a known layer, each
layer importing only the layers listed for it (see docs/architecture.md), and no
function over 100 lines.

Every import counts, at module level or inside a function: a lazy import (an optional
dependency, a command that loads only what it runs) still ties the two modules together.
For the circles, imports under ``if TYPE_CHECKING:`` count too: a circle through an
annotation is one refactoring away from running. For the layers, so does a dotted-path
string naming a module of the package (``"donuts_ai.donuts.agents.mcts:MCTSAgent"``,
``"donuts_ai.boxes.game"``): code that imports it by name knows it as surely as an import
statement. Only a registry table (:func:`registry_tables`: a module's literal table of dotted
paths, loaded on demand) may name a higher layer: it is a plugin reference. The layers leave out ``if TYPE_CHECKING:`` imports: they
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
from typing import Any

ROOT = Path(__file__).parent.parent / "donuts_ai"
#: Longest function body, in lines, anywhere in the package.
MAX_FUNCTION_LINES = 100
#: A string that names a module of the package, alone or with an attribute: ``"donuts_ai.boxes.game"``,
#: ``"donuts_ai.donuts.agents.alphabeta:AlphaBetaAgent"``. Text that only mentions one (a message, a
#: docstring) is not the whole string, so it is not read as a name.
DOTTED_PATH = re.compile(r"donuts_ai(?:\.[A-Za-z_]\w*)+(?::[A-Za-z_]\w*)?")

#: The folders of the games: a module under one is in the layer of its top-level module or
#: package there (``donuts_ai.donuts.alphabeta.solver`` -> ``"donuts.alphabeta"``,
#: ``donuts_ai.boxes.state`` -> ``"boxes.state"``; the folder's ``__init__`` -> ``"donuts"``),
#: so the table below orders a game's parts as it orders the root's.
GAME_FOLDERS = ("donuts", "boxes", "connect_four")

#: Each layer may import only itself and the layers listed for it (by top-level module or
#: package under donuts_ai, or under a game's folder); every module belongs to one of these
#: layers. At the bottom, what both games share (errors, checks, the state protocol, the
#: outcome vocabulary, the Numba helpers, the agent base) and the game-agnostic tree
#: searches, which import no game. Above them each game's folder: its rules know nothing of
#: search, agents or the harness; its engine only the squares and the shared helpers; its
#: searches sit above its board, its agents above its searches, and its harness adapter on
#: top, importing the game contract (``game``) and nothing of the harness. The harness
#: reaches a game through the contract and agents through specs; the front ends (cli, play,
#: interop, bench, study, suites, learn) sit on top. The package root (``donuts_ai/__init__.py``,
#: layer "") is above them all: it imports the games, which register themselves in the
#: table of games. It fills no registry: each is one literal table in the module that owns it.
ALLOWED = {
    # --- shared by both games ------------------------------------------------------------
    "errors": set(),
    "_checks": {"errors"},
    "_kernel_cache": set(),
    "_when_imported": set(),  # a post-import hook: the root registers with Gymnasium and OpenSpiel once they load
    "_compile_notice": set(),  # a first call that compiles says so: the pre-flight, the solver, the page
    "_units": set(),  # quantities as text, for every table
    "_argparse": set(),  # the command line's parser, errors in one line: cli's and bench's commands
    "state": {"errors"},  # the state API both games implement (a Protocol): below both games
    # The game contract and the one table of games (make, register_game): below both games and
    # the harness, so that a game's module imports nothing of the harness.
    "game": {"errors", "state"},
    "outcomes": set(),  # game values, winner and end-reason codes: the engines import them
    "_numba_types": set(),  # the kernels' type aliases, for every game's kernels and the trees
    "_bits": {"_numba_types"},  # bit intrinsics and the RNG, likewise
    "_yardstick": set(),  # the benchmarks' fixed workload: a kernel that depends on nothing, for good
    # The agent protocol and base of both games, and the registry type of their agent tables.
    "agents": {"_checks", "errors", "game", "search"},
    # The game-agnostic tree searches (MCTS, ISMCTS, PUCT): the game is passed in; a game's
    # winner is a winner code of outcomes (both games' engines return them).
    "search": {"_bits", "_numba_types", "outcomes"},
    # --- Donuts (donuts_ai/donuts/) --------------------------------------------------------
    "donuts.errors": {"errors"},  # Donuts' own errors (layouts, positions, rules, symmetries)
    "donuts.outcomes": set(),  # Donuts' own outcome words: end reasons and their codes, result strings
    "donuts.squares": {"errors"},
    "donuts.rules": {"_checks", "errors", "donuts.errors"},
    "donuts.symmetry": {"errors", "donuts.errors", "donuts.squares"},
    "donuts.svg": {"donuts.squares"},
    "donuts.raster": {"donuts.squares"},  # the same picture as pixels (NumPy only)
    "donuts._kernels": {"donuts.outcomes", "_bits", "_numba_types", "outcomes", "donuts.squares"},
    "donuts.layout": {"donuts.errors", "_checks", "errors", "donuts.squares", "donuts.svg", "donuts.symmetry",
                      "donuts._kernels"},  # the engine's line-mask tables
    "donuts.board": {"errors", "outcomes", "state", "donuts._kernels", "donuts.errors", "donuts.layout", "donuts.outcomes",
                     "donuts.rules", "donuts.squares", "donuts.raster", "donuts.svg", "donuts.symmetry"},
    # The canonical position: the least key over the symmetries, the Python face of the engine's kernels.
    "donuts.canonical": {"donuts.errors", "errors", "donuts._kernels",
                          "donuts.board", "donuts.layout", "donuts.squares", "donuts.symmetry"},
    "donuts.book": {"errors", "outcomes", "donuts.board", "donuts.canonical", "donuts.layout", "donuts.rules", "donuts.squares",
                    "donuts.symmetry"},
    "donuts.reference": {"donuts.layout", "donuts.rules"},
    "donuts.playouts": {"donuts.errors", "_checks", "errors", "donuts._kernels", "donuts.board", "donuts.layout", "donuts.rules"},
    "donuts.vector_env": {"donuts.outcomes", "_checks", "errors", "outcomes", "donuts._kernels", "donuts.layout", "donuts.rules",
                          "donuts.squares"},
    # The observation planes: the public face of the engine's planes and their writers.
    "donuts.planes": {"donuts._kernels"},
    # Alpha-beta and the exact solver: Donuts' own search, above its board.
    "donuts.alphabeta": {"_bits", "_checks", "_compile_notice", "_numba_types", "errors", "outcomes", "donuts._kernels",
                         "donuts.board", "donuts.book", "donuts.layout", "donuts.rules", "donuts.squares"},
    # The public compiled API: the engine's kernels (and the canonical position's) under stable names.
    "donuts.kernels": {"donuts.errors", "_bits", "errors", "donuts._kernels", "donuts.board", "donuts.canonical", "donuts.squares",
                       "donuts.symmetry"},
    # The plain searches the library's own are measured against, on the engine and on its public face.
    "donuts.baselines": {"_bits", "donuts._kernels", "donuts.kernels"},
    # Donuts as a compiled game of the generic compiled searches, and the generic solver bound to it.
    "donuts.compiled": {"_bits", "_numba_types", "errors", "outcomes", "search", "donuts._kernels", "donuts.board",
                        "donuts.squares"},
    # Its agents, and their bindings of the game-agnostic MCTS; the table of kinds names only these.
    "donuts.agents": {"_bits", "_checks", "_numba_types", "agents", "errors", "outcomes", "search", "donuts._kernels",
                      "donuts.alphabeta", "donuts.board", "donuts.compiled", "donuts.layout", "donuts.rules", "donuts.squares"},
    # Donuts through the game contract, registered in the table of games.
    "donuts.game": {"donuts.errors", "errors", "game", "donuts.agents", "donuts.board", "donuts.layout", "donuts.rules",
                    "donuts.squares"},
    # The folder's package: re-exports its public names.
    "donuts": {"donuts.board", "donuts.layout", "donuts.playouts", "donuts.rules", "donuts.vector_env"},
    # --- Donut Boxes (donuts_ai/boxes/) ----------------------------------------------------
    "boxes.errors": {"errors"},
    "boxes.deck": set(),
    "boxes.moves": {"errors", "boxes.deck"},
    "boxes.rules": {"_checks", "boxes.errors"},
    "boxes.pictures": {"boxes.deck"},
    "boxes._kernels": {"boxes.deck", "boxes.moves"},
    # The state's private parts: the engine's Python side, the undo, the dicts checked.
    "boxes._state": {"_checks", "boxes._kernels", "boxes.deck", "boxes.errors", "boxes.moves", "boxes.pictures", "boxes.rules"},
    "boxes.state": {"_checks", "errors", "state", "boxes._kernels", "boxes._state", "boxes.deck", "boxes.errors", "boxes.moves",
                    "boxes.pictures", "boxes.rules"},
    "boxes.reference": {"errors", "boxes.deck", "boxes.moves", "boxes.rules"},
    # Moves as dense action indices on a bounded table, a player's view as tensors: for learning code.
    "boxes.encoding": {"_checks", "boxes.deck", "boxes.errors", "boxes.moves", "boxes.rules", "boxes.state"},
    # Random games on the compiled engine: the public face of its playouts.
    "boxes.playouts": {"_checks", "boxes._kernels", "boxes._state", "boxes.errors", "boxes.rules"},
    # Its agents, with the game's functions for the information-set MCTS and the search bound to them.
    "boxes.agents": {"_checks", "agents", "errors", "search", "boxes._kernels", "boxes.deck", "boxes.errors", "boxes.moves",
                     "boxes.rules", "boxes.state"},
    # Donut Boxes through the game contract, registered in the table of games.
    "boxes.game": {"_checks", "errors", "game", "boxes.agents", "boxes.errors", "boxes.moves", "boxes.rules",
                   "boxes.state"},
    "boxes": {"boxes.deck", "boxes.errors", "boxes.moves", "boxes.rules", "boxes.state"},
    # --- Connect Four (donuts_ai/connect_four/) ---------------------------------------------
    "connect_four.errors": {"errors"},
    "connect_four.rules": set(),  # the rules stated: the board's size, four in a row, the rules code
    "connect_four._kernels": {"_bits", "_numba_types", "connect_four.rules"},  # the bitboard engine
    "connect_four.state": {"errors", "state", "connect_four._kernels", "connect_four.errors"},
    "connect_four.reference": {"connect_four.rules"},  # the rules in plain Python: shares no code with the engine
    # The public compiled API: the engine's kernels under stable names, and positions from states and moves.
    "connect_four.kernels": {"connect_four._kernels", "connect_four.state", "connect_four.errors"},
    "connect_four": {"connect_four.state", "connect_four.errors"},
    # Its own search: exact values by the generic compiled solver, bound to the engine's kernels.
    "connect_four.solve": {"search", "connect_four._kernels", "connect_four.state", "connect_four.errors",
                           "connect_four.kernels", "connect_four.rules"},
    # Its own agents (greedy on the engine's hooks, the solver, the compiled MCTS bound to the engine).
    "connect_four.agents": {"_numba_types", "agents", "errors", "outcomes", "search", "connect_four._kernels",
                            "connect_four.kernels", "connect_four.rules", "connect_four.solve", "connect_four.state"},
    "connect_four.game": {"game", "connect_four.agents", "connect_four.state", "connect_four.errors"},
    # --- above both games ------------------------------------------------------------------
    # The harness plays every game through the game contract and the state API.
    # (and names the generic agents by dotted path, imported when a spec first names one)
    "tournament": {"_checks", "_compile_notice", "agents", "errors", "game", "state"},
    "testing": {"_checks", "errors", "game", "state", "tournament"},  # check_game: the game contract's checks, and a tournament
    # The front ends: each may use the library below it, none another front end but the
    # command line, which dispatches to all of them.
    "study": {"_checks", "errors", "tournament", "donuts.alphabeta", "donuts.board", "donuts.book", "donuts.canonical",
              "donuts.layout", "donuts.rules"},
    # The Donuts Engine Protocol: our agents as engines (the harness seats engines itself,
    # loading the protocol's position writer by the dotted path of specs.ENGINE_POSITIONS).
    "engine_protocol": {"_checks", "errors", "tournament", "donuts.agents", "donuts.board", "donuts.layout", "donuts.rules",
                        "donuts.squares"},
    "interop": {"_bits", "_checks", "agents", "errors", "outcomes", "tournament", "boxes.encoding", "boxes.rules", "boxes.state",
                "donuts.agents", "donuts.board", "donuts.layout", "donuts.planes", "donuts.rules", "donuts.squares",
                "donuts.vector_env"},
    "play": {"_checks", "_compile_notice", "errors", "game", "outcomes", "tournament", "donuts.agents", "donuts.alphabeta", "donuts.board",
             "donuts.book", "donuts.layout", "donuts.outcomes", "donuts.rules", "donuts.squares", "donuts.svg"},
    # The learned agent: a network over the planes, searched by its own compiled PUCT, trained
    # on the batched games, measured against the solver.
    "learn": {"_bits", "_checks", "agents", "errors", "outcomes", "search", "suites", "tournament", "donuts.agents",
              "donuts.alphabeta", "donuts.board", "donuts.canonical", "donuts.kernels", "donuts.layout", "donuts.planes",
              "donuts.rules", "donuts.squares", "donuts.symmetry", "donuts.vector_env"},
    # Accuracy against perfect play: suites labelled by the solver, agents seated by the harness.
    "suites": {"_checks", "_units", "errors", "game", "outcomes", "tournament", "donuts.alphabeta", "donuts.board", "donuts.layout",
               "donuts.rules", "donuts.squares"},
    "bench": {"_argparse", "_bits", "_checks", "_units", "_yardstick", "errors", "game", "interop", "outcomes", "suites", "tournament",
              "boxes", "boxes.agents", "boxes.playouts", "donuts.agents", "donuts.alphabeta", "donuts.baselines", "donuts.board",
              "donuts.kernels", "donuts.layout", "donuts.playouts", "donuts.reference", "donuts.vector_env"},
    # ``check-game`` runs the game contract's checks (``testing``).
    "cli": {"_argparse", "_checks", "bench", "engine_protocol", "errors", "learn", "play", "study", "suites", "testing", "tournament",
            "donuts.board", "donuts.book", "donuts.layout", "donuts.rules", "donuts.squares"},
}

#: A game's rules and what plays them fast: no layer of these may know a search, an agent,
#: the harness or a front end.
RULES_LAYERS = {
    "donuts": ("squares", "rules", "symmetry", "svg", "_kernels", "layout", "board", "canonical", "reference", "playouts", "vector_env",
               "planes"),
    "boxes": ("errors", "deck", "moves", "rules", "pictures", "_kernels", "_state", "state", "reference", "playouts", "encoding"),
    "connect_four": ("errors", "rules", "_kernels", "state", "reference"),
}
#: What the rules must not know: searches, agents, the harness (and everything above them).
ABOVE_THE_RULES = {"search", "agents", "tournament", "games", *(f"{g}.{part}" for g in GAME_FOLDERS
                                                                for part in ("alphabeta", "solve", "kernels", "agents",
                                                                             "game"))}


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


def registry_tables(tree: ast.Module) -> dict[str, tuple[ast.stmt, dict[str, Any]]]:
    """The registry tables of a module: name -> (its statement, its literal). A table is a
    module-level constant whose value is a literal dict, alone or given to one call
    (``LazyRegistry({...})``, ``MappingProxyType({...})``), that maps names to dotted paths of
    the package, ``"donuts_ai.x:y"``, or to tuples that start with one (``(path, extra)``)."""
    tables: dict[str, tuple[ast.stmt, dict[str, Any]]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords:
            value = value.args[0]
        if not (isinstance(target, ast.Name) and target.id.isupper() and isinstance(value, ast.Dict)):
            continue
        try:
            literal = ast.literal_eval(value)
        except ValueError:  # not a literal: no registry table
            continue
        paths = [entry[0] if isinstance(entry, tuple) and entry else entry for entry in literal.values()]
        if paths and all(isinstance(path, str) and ":" in path and DOTTED_PATH.fullmatch(path) for path in paths):
            tables[target.id] = (node, literal)
    return tables


def _imports(modules: dict[str, Path], layers: bool = False) -> dict[str, set[str]]:
    """Each module -> the modules of the package it imports: for a circle, every import; for
    the ``layers``, those that run, and the modules it names by dotted path."""
    edges = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        tree = ast.parse(path.read_text())
        tables = [node for node, _ in registry_tables(tree).values()]
        named = ast.Module(body=[node for node in tree.body if node not in tables], type_ignores=[])
        targets = _named_modules(named, modules) if layers else set()
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
    """A module's layer: its top-level name under donuts_ai, or under a game's folder
    (:data:`GAME_FOLDERS`) the folder and its top-level name there."""
    parts = module.split(".")
    if len(parts) > 2 and parts[1] in GAME_FOLDERS:
        return f"{parts[1]}.{parts[2]}"
    return parts[1] if len(parts) > 1 else ""


def test_the_import_reader_sees_lazy_type_checking_and_dotted_path_imports():
    source = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import json\n\ndef f():\n    import os\n"
        "KINDS = {'a': 'donuts_ai.boxes.game:BoxesGame', 'b': 'donuts_ai.search', 'c': 'see donuts_ai.donuts.board'}\n"
    )
    found = {a.name for node in _import_nodes(ast.parse(source)) for a in node.names}
    assert found == {"TYPE_CHECKING", "json", "os"}
    running = {a.name for node in _import_nodes(ast.parse(source), type_checking=False) for a in node.names}
    assert running == {"TYPE_CHECKING", "os"}
    modules = {"donuts_ai.boxes": ROOT, "donuts_ai.boxes.game": ROOT, "donuts_ai.search": ROOT, "donuts_ai.donuts.board": ROOT}
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


def test_a_games_rules_know_nothing_of_searches_agents_or_the_harness():
    # The table itself, read: a rules layer that was allowed a search, an agent or the
    # harness would let the check above pass on an import that breaks the design.
    wrong = {f"{game}.{part}": sorted(ALLOWED[f"{game}.{part}"] & ABOVE_THE_RULES)
             for game, parts in RULES_LAYERS.items() for part in parts}
    assert not {k: v for k, v in wrong.items() if v}
    # The shared layers below both games name no game.
    below = ("errors", "_checks", "_kernel_cache", "_units", "state", "outcomes", "_numba_types", "_bits", "agents", "search")
    assert not {layer: sorted(o for o in ALLOWED[layer] if o.partition(".")[0] in GAME_FOLDERS) for layer in below
                if any(o.partition(".")[0] in GAME_FOLDERS for o in ALLOWED[layer])}


def test_importing_the_agents_loads_no_search_code():
    # Donuts' table of agents names the searching agents by dotted path, and the root loads the
    # solver only when first named: a seat of a simple agent stays light.
    code = ("import sys, donuts_ai.donuts.agents; print(sorted(m for m in sys.modules if m.startswith(("
            "'donuts_ai.search', 'donuts_ai.donuts.alphabeta', 'donuts_ai.donuts.agents.'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT.parent).stdout
    assert loaded.strip() == "[]"


def test_the_package_root_names_its_solver_lazily():
    code = ("import sys, donuts_ai; before = 'donuts_ai.donuts.alphabeta' in sys.modules\n"
            "from donuts_ai import Solver, analyze, solve\n"
            "print(before, Solver.__module__, 'analyze' in dir(donuts_ai))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT.parent).stdout
    assert out.split() == ["False", "donuts_ai.donuts.alphabeta.solver", "True"]


def test_a_registry_table_may_name_a_higher_layer_and_nothing_else_may(tmp_path: Path):
    source = (
        "AGENTS = LazyRegistry({'az': 'donuts_ai.learn.agent:AlphaZeroAgent'})\n"
        "OPTIONAL: dict[str, tuple[str, str]] = {'x': ('donuts_ai.interop.openspiel:Bot', 'spiel')}\n"
        "ENGINE_AGENT = 'donuts_ai.tournament.engine_seat:EngineAgent'\n"
        "MIXED = {'a': 'donuts_ai.learn.agent:AlphaZeroAgent', 'b': 'json:dumps'}\n"
        "def f():\n    PATHS = {'s': 'donuts_ai.search:x'}\n"
    )
    tree = ast.parse(source)
    assert set(registry_tables(tree)) == {"AGENTS", "OPTIONAL"}
    probe = tmp_path / "probe.py"
    probe.write_text(source)
    modules = {m: probe for m in ("donuts_ai.donuts.agents", "donuts_ai.learn.agent", "donuts_ai.interop.openspiel",
                                  "donuts_ai.tournament.engine_seat", "donuts_ai.search")}
    edges = _imports(modules, layers=True)
    assert edges["donuts_ai.donuts.agents"] == {"donuts_ai.tournament.engine_seat", "donuts_ai.learn.agent", "donuts_ai.search"}


#: The calls that change a mapping in place.
_MUTATORS = {"add", "update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__"}


def _mutations(tree: ast.AST, names: set[str], local: set[str]) -> list[int]:
    """The lines of ``tree`` that change or rebind a registry table: one of ``local`` (the
    names that are tables in this module: its own, or imported from the package) by its
    name, or one of ``names`` (every table's) as a module's attribute."""

    def named(node: ast.AST) -> bool:  # the table itself, or a part of it (``AGENTS._paths``)
        while isinstance(node, ast.Attribute):
            if node.attr in names:
                return True
            node = node.value
        return isinstance(node, ast.Name) and node.id in local

    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATORS:
            hit = named(node.func.value)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del):
            hit = named(node.value)
        elif isinstance(node, ast.AugAssign):
            hit = named(node.target)
        elif isinstance(node, ast.Assign):
            hit = any(named(target) for target in node.targets)
        else:
            continue
        if hit:
            lines.append(node.lineno)
    return sorted(lines)


def test_no_module_fills_a_registry_table():
    # Each registry is one literal table in the module that owns it: no module (the package
    # root included) adds to one, so what a table holds never depends on what was imported.
    trees = {name: ast.parse(path.read_text()) for name, path in _modules().items()}
    tables = {name: registry_tables(tree) for name, tree in trees.items()}
    names = {table for found in tables.values() for table in found}
    assert {"AGENTS", "OPTIONAL_AGENTS", "ENGINE_POSITIONS", "GENERIC_AGENTS"} <= names
    wrong = {}
    for name, tree in trees.items():
        own = {node for node, _ in tables[name].values()}
        imported = {alias.asname or alias.name for node in _import_nodes(tree) if isinstance(node, ast.ImportFrom)
                    and (node.level or (node.module or "").startswith("donuts_ai")) for alias in node.names
                    if alias.name in names}
        rest = ast.Module(body=[node for node in tree.body if node not in own], type_ignores=[])
        if lines := _mutations(rest, names, set(tables[name]) | imported):
            wrong[name] = lines
    assert not wrong, f"registry tables changed outside their literal (module: lines): {wrong}"
    probe = ("AGENTS.add('az', 'x:y')\nspecs.ENGINE_POSITIONS['d'] = 'x:y'\nOPTIONAL_AGENTS |= {}\nAGENTS = ('a',)\n"
             "AGENTS._paths['az'] = 'x:y'\nT = 1")
    assert _mutations(ast.parse(probe), names, {"OPTIONAL_AGENTS"}) == [2, 3]
    assert _mutations(ast.parse(probe), names, {"AGENTS", "OPTIONAL_AGENTS"}) == [1, 2, 3, 4, 5]


def test_every_module_getattr_says_what_it_saves():
    # A module-level __getattr__ defeats go-to-definition: one stays only where it saves a
    # measured import cost, and the comment right above it gives the figure.
    reasons = {}
    for name, path in _modules().items():
        lines = path.read_text().splitlines()
        for node in ast.parse("\n".join(lines)).body:
            if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
                comment = []
                for line in reversed(lines[: node.lineno - 1]):
                    if not line.strip().startswith("#"):
                        break
                    comment.insert(0, line.strip())
                reasons[name] = " ".join(comment) if re.search(r"\d\s*ms\b", " ".join(comment)) else None
    assert not [name for name, reason in reasons.items() if reason is None], reasons


def _owner(module: str) -> str:
    """The package a module belongs to, for privacy: its top-level package under
    donuts_ai (``donuts_ai.learn.train`` -> ``donuts_ai.learn``); a module at the root
    belongs to the root, whose private helpers (``_checks``, ``_bits``) serve everyone."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 or (len(parts) == 2 and (ROOT / parts[1]).is_dir()) else "donuts_ai"


def test_no_module_imports_another_packages_private_module():
    # A package's private modules (a name starting with "_") are its own: another package
    # reaches what it needs through a public face (donuts.kernels, donuts.planes, ...).
    reached = []
    for module, path in _modules().items():
        for node in _import_nodes(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)] if node.level else []
                target = ".".join(base + [node.module] if node.module else base) if node.level else node.module or ""
                named = [target] + [f"{target}.{alias.name}" for alias in node.names]
            else:
                named = [alias.name for alias in node.names]
            for name in named:
                parts = name.split(".")
                private = next((i for i, p in enumerate(parts) if p.startswith("_") and not p.startswith("__")), None)
                if private is None or parts[0] != "donuts_ai":
                    continue
                owner = _owner(".".join(parts[: private + 1]))
                if owner != "donuts_ai" and _owner(module) != owner:
                    reached.append(f"{module} -> {'.'.join(parts[: private + 1])}")
    assert not reached, "private modules reached from another package:\n" + "\n".join(sorted(set(reached)))


def test_the_examples_use_public_names_only():
    for path in sorted((ROOT.parent / "examples").rglob("*.py")):
        for node in _import_nodes(ast.parse(path.read_text())):
            names = [node.module or ""] + [a.name for a in node.names] if isinstance(node, ast.ImportFrom) else [
                a.name for a in node.names]
            private = [n for n in names if any(p.startswith("_") and not p.startswith("__") for p in n.split("."))]
            assert not private, f"{path.name} imports private names: {private}"


#: The folders under tests/ whose tests run a whole thing as a user does (notebooks, the
#: page in a browser, a Ray cluster, the README's and the how-tos' scripts), not one module.
END_TO_END_FOLDERS = {"end_to_end"}


def test_the_tests_mirror_the_package():
    # A test file sits in tests/ itself (the root modules, checks of the whole package), in
    # the folder named as the package folder it tests (tests/learn for donuts_ai/learn,
    # nested too), or in an end-to-end folder: a new catch-all folder fails here.
    tests = Path(__file__).parent
    stray = []
    for path in sorted(tests.rglob("test_*.py")):
        folder = path.parent.relative_to(tests)
        if folder.parts and folder.parts[0] in END_TO_END_FOLDERS:
            continue
        if not (ROOT / folder).is_dir():
            stray.append(str(path.relative_to(tests.parent)))
    assert not stray, ("test files in a folder that names no package folder under donuts_ai/ "
                       "(move each beside what it tests, or into an end-to-end folder):\n" + "\n".join(stray))


#: The roles every game's folder fills, each a module or a package of that name: its game
#: contract, its rules, the plain-Python reference, its errors, its agents and its compiled
#: engine; and its state, under the game's own word (:data:`STATE_MODULES`).
GAME_ROLES = ("game", "rules", "reference", "errors", "agents", "_kernels")
#: Each game's state module: Donuts' ``Board`` is in ``board``, the others' states in ``state``.
STATE_MODULES = {"donuts": "board", "boxes": "state", "connect_four": "state"}
#: Each game's own search, by dotted path under its folder: Donuts' alpha-beta and exact
#: solver, Donut Boxes' binding of the generic ISMCTS (inside its agents), Connect Four's
#: binding of the generic solver. The generic searches live in ``search/`` and name no game.
OWN_SEARCHES = {"donuts": "alphabeta", "boxes": "agents._bound", "connect_four": "solve"}


def _roles_missing(root: Path) -> dict[str, list[str]]:
    """Each game folder under ``root`` -> the roles (:data:`GAME_ROLES`, its state module,
    its own search) it has no module or package for; games with none missing left out."""
    missing = {}
    for game in GAME_FOLDERS:
        folder = root / game
        wanted = [*GAME_ROLES, STATE_MODULES[game], OWN_SEARCHES[game]]
        gone = [role for role in wanted
                if not (folder.joinpath(*role.split(".")).with_suffix(".py").is_file()
                        or folder.joinpath(*role.split("."), "__init__.py").is_file())]
        if gone:
            missing[game] = gone
    return missing


def test_the_games_folders_have_the_same_roles():
    # One layout for every game: a newcomer who knows where Donuts keeps its rules, state,
    # agents or engine finds them under the same names in every other game's folder.
    assert set(STATE_MODULES) == set(OWN_SEARCHES) == set(GAME_FOLDERS)
    assert not _roles_missing(ROOT), f"roles missing from the games' folders: {_roles_missing(ROOT)}"
    # A game's own search is its own: above its rules, and in no shared layer.
    for game, search in OWN_SEARCHES.items():
        assert f"{game}.{search.split('.')[0]}" in ABOVE_THE_RULES, (game, search)
    shared = {"search", "agents"}
    games_named = {m for m in _modules() if _layer(m) in shared and any(f".{g}" in m for g in GAME_FOLDERS)}
    assert not games_named, f"a game's module in a shared folder: {sorted(games_named)}"


def test_the_layout_check_sees_a_missing_role(tmp_path):
    for game in GAME_FOLDERS:
        folder = tmp_path / game
        for role in (*GAME_ROLES, STATE_MODULES[game], OWN_SEARCHES[game]):
            path = folder.joinpath(*role.split(".")).with_suffix(".py")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("")
    (tmp_path / "boxes" / "agents" / "__init__.py").write_text("")  # a role as a package
    (tmp_path / "boxes" / "agents.py").unlink()
    assert _roles_missing(tmp_path) == {}
    (tmp_path / "connect_four" / "rules.py").unlink()
    (tmp_path / "boxes" / "agents" / "_bound.py").unlink()
    assert _roles_missing(tmp_path) == {"connect_four": ["rules"], "boxes": ["agents._bound"]}


def test_every_time_sensitive_test_is_in_a_file_that_make_test_collects_for_them():
    """`make test`'s parallel run leaves out the tests marked ``time_sensitive``; its run of
    them beside it (and `make test-busy`) collects only the files the Makefile names
    (``TIME_SENSITIVE_FILES``): a marked test elsewhere would run nowhere."""
    tests = Path(__file__).parent
    makefile = (tests.parent / "Makefile").read_text()
    listed = re.search(r"^TIME_SENSITIVE_FILES := ((?:.*\\\n)*.*)$", makefile, re.MULTILINE)
    assert listed is not None, "the Makefile names no TIME_SENSITIVE_FILES"
    named = set(listed.group(1).replace("\\\n", " ").split())
    marked = {str(path.relative_to(tests.parent)) for path in tests.rglob("test_*.py")
              if path != Path(__file__) and "pytest.mark.time_sensitive" in path.read_text()}
    assert marked, "no test is marked time_sensitive"
    assert marked == named, {"marked, not collected": sorted(marked - named), "collected, none marked": sorted(named - marked)}
