"""One agent contract, and no long parameter lists: every public callable of every public
module (a module with no private part in its path; the names its ``__all__`` lists and
every public name it defines) takes at most :data:`MAX_POSITIONAL` positional parameters
(records aside: a dataclass, a named tuple or a typed dict is its fields) and at most
:data:`MAX_PARAMETERS` parameters besides one settings object (a frozen dataclass), and
every agent of both games names the same ideas alike and refuses a bad argument with
:class:`~donuts_ai.errors.AgentError`."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import donuts_ai
from donuts_ai.errors import AgentError
from donuts_ai.tournament.specs import SpecError, make_agent, resolve

#: The most positional parameters a public callable may take; the rest are keyword-only.
MAX_POSITIONAL = 6
#: The most parameters a public callable may take (``self`` and ``cls`` aside), besides one
#: settings object: a parameter annotated with a frozen dataclass of the package.
MAX_PARAMETERS = 8
#: The package's source folder.
PACKAGE = Path(donuts_ai.__file__).parent


def _is_record(obj: object) -> bool:
    """A dataclass, a named tuple or a typed dict: its constructor is its fields."""
    return inspect.isclass(obj) and (dataclasses.is_dataclass(obj) or issubclass(obj, tuple) or
                                     (hasattr(obj, "__annotations__") and hasattr(obj, "__total__")))


def _function(value: object) -> object | None:
    """The Python function behind a class attribute or a module name (a static or class
    method's function, a compiled kernel's ``py_func``), or ``None`` when it is none."""
    if isinstance(value, staticmethod | classmethod):
        value = value.__func__
    value = getattr(value, "py_func", value)  # a Numba kernel: the function it compiles
    return value if inspect.isfunction(value) else None


def _public_modules() -> Iterator[str]:
    """Every module of the package whose dotted path has no private part (``_name``)."""
    yield "donuts_ai"
    for info in pkgutil.walk_packages(donuts_ai.__path__, "donuts_ai."):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            yield info.name


def _public_callables() -> Iterator[tuple[str, object]]:
    """(qualified name, callable) for every public function, class and public method
    (static and class methods included) of every public module: the names its ``__all__``
    lists and every public name defined in it. Compiled kernels are left to
    ``tests/test_kernel_parameters.py`` (Numba takes no keyword-only parameters; kernels
    take records instead)."""
    seen: set[int] = set()
    for module_name in _public_modules():
        try:
            module = importlib.import_module(module_name)
        except ImportError:  # an optional extra that is not installed
            continue
        defined = [name for name, obj in vars(module).items()
                   if not name.startswith("_") and getattr(obj, "__module__", None) == module_name]
        for name in dict.fromkeys([*getattr(module, "__all__", []), *defined]):
            obj = getattr(module, name)
            if id(obj) in seen or not callable(obj) or hasattr(obj, "py_func"):
                continue
            seen.add(id(obj))
            if inspect.isclass(obj):
                if not _is_record(obj):
                    yield f"{module_name}.{name}", obj
                for attr, value in vars(obj).items():
                    function = _function(value)
                    if not attr.startswith("_") and function is not None:
                        yield f"{module_name}.{name}.{attr}", function
            else:
                yield f"{module_name}.{name}", _function(obj) or obj


def _positional(obj: object) -> list[str]:
    """The names of the parameters ``obj`` takes by position (``self`` and ``cls`` aside)."""
    try:
        signature = inspect.signature(obj)  # type: ignore[arg-type]
    except (TypeError, ValueError):  # a builtin without a signature
        return []
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [p.name for p in signature.parameters.values() if p.kind in kinds and p.name not in ("self", "cls")]


def test_no_public_callable_takes_more_than_six_positional_parameters():
    checked = dict(_public_callables())
    wide = {name: _positional(obj) for name, obj in checked.items()}
    wide = {name: params for name, params in wide.items() if len(params) > MAX_POSITIONAL}
    assert not wide, wide
    # The walk reaches the agents of both games, their methods and the harness's functions.
    for name in ("donuts_ai.donuts.agents.MCTSAgent", "donuts_ai.boxes.agents.ISMCTSAgent",
                 "donuts_ai.tournament.fit_plackett_luce", "donuts_ai.play.analysis.Analyst.analyze",
                 "donuts_ai.learn.BatchSearch.run", "donuts_ai.bench.measure_work"):
        assert name in checked, name


def test_the_check_sees_a_wide_callable():
    def wide(a, b, c, d, e, f, g):  # noqa: ANN001, ANN202 - a probe
        return a

    def narrow(a, b, c, d, e, f, *, g):  # noqa: ANN001, ANN202 - a probe
        return a

    class Holder:
        @staticmethod
        def wide(a, b, c, d, e, f, g):  # noqa: ANN001, ANN205 - a probe
            return a

    assert len(_positional(wide)) == 7 and len(_positional(narrow)) == 6
    assert len(_positional(_function(vars(Holder)["wide"]))) == 7


def _private(part: str) -> bool:
    """A private part of a dotted path (``_kernels``), not a dunder one (``__init__``)."""
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


def _public_sources() -> Iterator[tuple[str, ast.Module]]:
    """(path relative to the package, syntax tree) of every public module's source."""
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        if not any(_private(part) for part in relative.with_suffix("").parts):
            yield str(relative), ast.parse(path.read_text(encoding="utf-8"))


def _is_frozen_dataclass(node: ast.ClassDef) -> bool:
    for decorator in node.decorator_list:
        if isinstance(decorator, ast.Call) and ast.unparse(decorator.func).split(".")[-1] == "dataclass":
            if any(k.arg == "frozen" and isinstance(k.value, ast.Constant) and k.value.value is True
                   for k in decorator.keywords):
                return True
    return False


def _settings_types() -> set[str]:
    """The names of the package's frozen dataclasses (private modules' included): the types
    a settings object may have."""
    names = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and _is_frozen_dataclass(node):
                names.add(node.name)
    return names


def _public_definitions(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """(qualified name, definition) of a module's public functions, and of its public
    classes' public methods and constructors."""
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    for node in tree.body:
        if isinstance(node, functions) and not node.name.startswith("_"):
            yield node.name, node
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                if isinstance(item, functions) and (not item.name.startswith("_") or item.name == "__init__"):
                    yield f"{node.name}.{item.name}", item


def _counted(node: ast.FunctionDef | ast.AsyncFunctionDef, settings_types: set[str]) -> list[str]:
    """The parameters of ``node`` that count against :data:`MAX_PARAMETERS`: all but ``self``,
    ``cls`` and the first one annotated with a settings type (``*args`` and ``**kwargs``
    aside)."""
    arguments = node.args
    names, exempt = [], None
    for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
        if argument.arg in ("self", "cls"):
            continue
        annotation = argument.annotation
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            annotation = ast.parse(annotation.value, mode="eval").body
        words = set(re.findall(r"\w+", ast.unparse(annotation))) if annotation is not None else set()
        if exempt is None and words & settings_types:
            exempt = argument.arg
            continue
        names.append(argument.arg)
    return names


def test_no_public_callable_takes_more_than_eight_parameters_besides_a_settings_object():
    settings_types = _settings_types()
    assert {"TrainConfig", "GumbelSettings", "EvaluationSettings", "TreeMemory"} <= settings_types
    wide = {}
    for path, tree in _public_sources():
        for name, node in _public_definitions(tree):
            counted = _counted(node, settings_types)
            if len(counted) > MAX_PARAMETERS:
                wide[f"{path}:{node.lineno} {name}"] = len(counted)
    assert not wide, wide


def test_the_parameter_count_sees_a_wide_callable_and_one_settings_object():
    source = """
@dataclass(frozen=True)
class Knobs:
    a: int = 1

def wide(a, b, c, d, e, f, g, h, i): ...
def settled(a, b, c, d, e, f, g, h, *, knobs: Knobs | None = None): ...
def twice(a, b, c, d, e, f, g, h, *, one: Knobs, two: "Knobs"): ...
class Holder:
    def __init__(self, a, b, c, d, e, f, g, h, i): ...
    def _private(self, a, b, c, d, e, f, g, h, i): ...
"""
    tree = ast.parse(source)
    types = {node.name for node in tree.body if isinstance(node, ast.ClassDef) and _is_frozen_dataclass(node)}
    assert types == {"Knobs"}
    counts = {name: len(_counted(node, types)) for name, node in _public_definitions(tree)}
    assert counts == {"wide": 9, "settled": 8, "twice": 9, "Holder.__init__": 9}


#: Every searching agent with a budget, of both games, by spec kind: (game, whether its
#: search has an exploration constant). Each takes its budget by position, ``simulations``
#: (or ``depth``) then ``time_limit``, and every other parameter by keyword, the search's
#: own knobs first, then ``seed`` and ``name``.
SEARCHERS = {
    "mcts": ("donuts", True),
    "alphabeta": ("donuts", False),
    "az": ("donuts", True),
    "openspiel-mcts": ("donuts", True),
    "ismcts": ("boxes", True),
}
#: Names of a search's budget that come before ``time_limit``: a count of simulations (one
#: word for every tree search: MCTS's and ISMCTS's iterations, PUCT's and OpenSpiel's
#: simulations), or plies.
COUNTS = ("simulations", "depth")
#: The budget's names before 0.5.0, gone from every constructor.
OLD_BUDGET_NAMES = ("iterations", "sims")
#: Older names of the exploration constant, refused.
OLD_EXPLORATION_NAMES = ("c_uct", "uct_c", "c_puct")


def _resolve(kind: str, game: str) -> type:
    try:
        cls, _ = resolve(kind, game)
    except SpecError as exc:  # an optional kind whose dependency is missing
        pytest.skip(str(exc))
    return cls


@pytest.mark.parametrize("kind", SEARCHERS)
def test_searching_agents_name_the_same_ideas_alike(kind):
    game, explores = SEARCHERS[kind]
    cls = _resolve(kind, game)
    parameters = inspect.signature(cls).parameters
    names = list(parameters)
    positional = [n for n, p in parameters.items() if p.kind is p.POSITIONAL_OR_KEYWORD]
    # The budget first, in one order, and by position: a count, then the time limit.
    assert len(positional) == 2 and positional[0] in COUNTS and positional[1] == "time_limit", positional
    # One word for a tree search's count (issue 50), and no other.
    assert positional[0] == ("depth" if kind == "alphabeta" else "simulations"), positional
    assert not set(OLD_BUDGET_NAMES) & set(names), names
    # The rest by keyword, seed and name last.
    assert all(parameters[n].kind is inspect.Parameter.KEYWORD_ONLY for n in names[2:]), names
    assert names[-2:] == ["seed", "name"], names
    # One name for the exploration constant, where the search has one.
    assert ("exploration" in names) == explores, names
    assert not set(OLD_EXPLORATION_NAMES) & set(names), names


#: A small budget for each searching agent.
SMALL_BUDGETS = {"mcts": "simulations=64", "alphabeta": "depth=2", "az": "simulations=8", "openspiel-mcts": "simulations=16",
                 "ismcts": "simulations=64"}


@pytest.mark.parametrize("kind", SEARCHERS)
def test_every_searching_agent_reports_its_move_in_last_info(kind):
    from donuts_ai import make

    game, _ = SEARCHERS[kind]
    _resolve(kind, game)
    agent = make_agent(f"{kind}:{SMALL_BUDGETS[kind]}", seed=1, game=game)
    assert agent.last_info == {}  # empty before the first move
    state = make(game)
    agent.select_move(state)
    assert agent.last_info and agent.last_info["seconds"] >= 0, agent.last_info


def _every_agent_kind() -> list[tuple[str, str]]:
    from donuts_ai.game import get_game

    kinds = []
    for game in ("donuts", "boxes"):
        adapter = get_game(game)
        kinds += [(game, kind) for kind in [*adapter.agent_registry(), *adapter.optional_agents()]]
    return kinds


#: A value no agent parameter takes (not a number, a text, a bool nor None).
BAD = object()


@pytest.mark.parametrize("game, kind", _every_agent_kind())
def test_every_agent_refuses_every_bad_argument_with_an_agent_error_naming_it(game, kind):
    cls = _resolve(kind, game)
    parameters = [p for p in inspect.signature(cls).parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    assert parameters and parameters[-1].name == "name", kind
    for parameter in parameters:
        with pytest.raises(AgentError, match=rf"\b{parameter.name}\b"):
            cls(**{parameter.name: BAD})
    # The same through a spec: a SpecError (the harness's) naming the argument.
    if "seed" in [p.name for p in parameters]:
        with pytest.raises(SpecError, match="seed must be an int"):
            make_agent(f"{kind}:seed=-1.5", game=game)


@pytest.mark.parametrize("old", OLD_EXPLORATION_NAMES)
def test_an_old_name_of_the_exploration_constant_is_refused_naming_it(old):
    kind = {"c_uct": "mcts", "uct_c": "openspiel-mcts", "c_puct": "az"}[old]
    _resolve(kind, "donuts")
    with pytest.raises(SpecError, match=f"parameter '{old}'"):
        resolve(f"{kind}:{old}=1.5", "donuts")
