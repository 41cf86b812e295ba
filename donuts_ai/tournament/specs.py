"""Agent specs: ``kind[:key=value,...]`` or ``module:Class[:key=value,...]``.

    random:seed=3   greedy   alphabeta:depth=6   mcts:time=0.1,workers=2   solver
    my_package.agents:MyAgent:strength=2

Kinds in :data:`OPTIONAL_AGENTS` (``openspiel-mcts:sims=1000``) live in modules that
need an optional dependency: they are imported only when a spec names them, and a
missing dependency is a :class:`SpecError` naming the extra to install.

``time`` is short for ``time_limit``. Values are read as Python literals (ints, floats,
True/False, None) and otherwise kept as strings. A spec is checked when it is parsed:
unknown kinds, classes or parameters raise :class:`SpecError` with one line saying so.
"""

from __future__ import annotations

import ast
import importlib
import inspect

from ..agents import AGENTS, Agent
from ..errors import DonutsError

ALIASES = {"time": "time_limit"}

#: Agent kinds whose classes need an optional dependency, imported when a spec names
#: them: kind -> ("module:Class", the extra of ``pip install 'donuts_ai[extra]'``).
OPTIONAL_AGENTS = {
    "openspiel-mcts": ("donuts_ai.interop.openspiel:OpenSpielMCTSAgent", "spiel"),
}


class SpecError(DonutsError):
    """A bad agent spec: unknown agent, class or parameter, or a malformed value."""


def _value(text: str):
    try:
        return ast.literal_eval(text)
    # Not a literal: TypeError for unhashable keys ("{[]: 1}"), MemoryError or RecursionError
    # for deep nesting ("-" * 100000 + "1" overflows the parser's stack).
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return text


def _params(text: str, spec: str) -> dict:
    params = {}
    for item in filter(None, text.split(",")):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise SpecError(f"agent spec {spec!r}: expected key=value, got {item!r}")
        value = value.strip()
        parsed = _value(value)
        # An agent's name is text: "name=3" names it "3", not the int 3 (None keeps the default).
        params[ALIASES.get(key, key)] = value if key == "name" and not isinstance(parsed, str | None) else parsed
    return params


def _kinds() -> str:
    return ", ".join([*AGENTS, *OPTIONAL_AGENTS])


def _optional_agent(head: str, spec: str) -> type:
    """The class of an optional kind, imported now; a missing dependency is a SpecError."""
    target, extra = OPTIONAL_AGENTS[head]
    module_name, _, cls_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise SpecError(f"agent spec {spec!r}: {head} needs an optional dependency: pip install 'donuts_ai[{extra}]' ({exc})") from None
    return getattr(module, cls_name)


def resolve(spec: str) -> tuple[type, dict]:
    """(agent class, constructor parameters) of a spec, checked against the signature."""
    if not isinstance(spec, str) or not spec.strip():
        raise SpecError(f"agent spec must be a non-empty string, got {spec!r}")
    spec = spec.strip()
    head, _, rest = spec.partition(":")
    if head in AGENTS:
        cls, params = AGENTS[head], _params(rest, spec)
    elif head in OPTIONAL_AGENTS:
        cls, params = _optional_agent(head, spec), _params(rest, spec)
    elif rest:
        cls_name, _, param_text = rest.partition(":")
        # import_module raises ValueError for "" and TypeError for relative names (".x"):
        # a spec names an absolute module, so refuse them here.
        if not head or head.startswith("."):
            raise SpecError(f"agent spec {spec!r}: {head!r} is not a module name; expected one of {_kinds()} or module:Class")
        try:
            module = importlib.import_module(head)
        except ImportError as exc:
            raise SpecError(f"agent spec {spec!r}: cannot import module {head!r} ({exc})") from None
        cls = getattr(module, cls_name, None)
        if not (inspect.isclass(cls) and callable(getattr(cls, "select_move", None))):
            raise SpecError(f"agent spec {spec!r}: {head}.{cls_name} is not an agent class (needs select_move)")
        params = _params(param_text, spec)
    else:
        raise SpecError(f"unknown agent {head!r}; expected one of {_kinds()} or module:Class")
    try:
        sig = inspect.signature(cls)
    except (TypeError, ValueError):
        sig = None
    if sig is not None and not any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        unknown = [k for k in params if k not in sig.parameters]
        if unknown:
            accepted = ", ".join(k for k in sig.parameters if k != "name")
            raise SpecError(f"agent spec {spec!r}: unknown parameter {unknown[0]!r} (accepted: {accepted})")
    return cls, params


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Build the agent of ``spec``; ``seed`` is used unless the spec sets one."""
    cls, params = resolve(spec)
    if seed is not None and "seed" not in params and "seed" in inspect.signature(cls).parameters:
        params["seed"] = seed
    try:
        agent = cls(**params)
    # DonutsError is a ValueError. Plain ValueError, OverflowError and MemoryError come from
    # sizes no machine can allocate (numpy refuses "alphabeta:tt_bits=64" with ValueError).
    except (ValueError, TypeError, OverflowError, MemoryError) as exc:
        raise SpecError(f"agent spec {spec!r}: {exc or type(exc).__name__}") from None
    if not hasattr(agent, "name") or not agent.name:
        agent.name = spec
    return agent
