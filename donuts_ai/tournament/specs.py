"""Agent specs: ``kind[:key=value,...]``, ``module:Class[:key=value,...]`` or ``engine:COMMAND``.

    random:seed=3   greedy   alphabeta:depth=6   mcts:time=0.1,workers=2   solver
    my_package.agents:MyAgent:strength=2   engine:./my_engine,option.Hash=64,go.movetime=200

Kinds are the game's (:meth:`~donuts_ai.game.Game.agent_registry`; ``game=`` is always
given), then the generic agents of every game (:data:`GENERIC_AGENTS`), under ``generic-``
and under the short name where the game has no kind of that name. A game's optional kinds
(:meth:`~donuts_ai.game.Game.optional_agents`) are imported only when a spec names one; a
missing dependency is a :class:`SpecError` naming the extra to install. An engine speaks the
Donuts Engine Protocol (docs/engine_protocol.md): ``option.NAME=VALUE`` items are sent as
``setoption``, ``go.LIMIT=N`` items added to each ``go``; the harness seats it as an
:class:`~.engine_seat.EngineSeat`.

An agent has ``select_move(view[, time_left])`` (the clock only for a method that takes it:
:func:`call_agent`), may have ``reset(seed)``, and is handed the game if it takes ``game``.
``time`` is short for ``time_limit``; values are Python literals, else text. An unknown kind,
class or parameter is a :class:`SpecError`. :func:`normalize_spec` reads specs recorded in
older files under today's names (:data:`RECORDED_NAMES`); :func:`resolve` takes those only.
"""

from __future__ import annotations

import ast
import difflib
import importlib
import inspect
import re
import shlex
import shutil
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import MISSING, dataclass, fields, is_dataclass
from types import MappingProxyType, ModuleType
from typing import Any, Protocol

from ..agents.registry import load
from ..errors import DonutsError, GameError
from ..game import Game, JSONObject, get_game
from .engine_text import GO_LIMITS

ALIASES = {"time": "time_limit"}
#: Older parameter names in recorded specs: game -> kind -> old name -> name now. Still read
#: in results files, evaluations and suite games files written by 0.5 (``iterations``, ``sims``).
RECORDED_NAMES: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    "donuts": {"mcts": {"iterations": "simulations"}, "az": {"sims": "simulations"},
               "openspiel-mcts": {"sims": "simulations"}},
    "boxes": {"ismcts": {"iterations": "simulations"}},
}
#: The head of an engine spec (see the module doc).
ENGINE_KIND = "engine"
#: Games an engine can play: game name -> ``"module:function"`` that writes the protocol's
#: ``position`` command from the game's observation (:meth:`~donuts_ai.game.Game.observation`),
#: imported when an engine first plays that game. A registry table: its dotted paths may name
#: a layer above the harness (the architecture test allows it).
ENGINE_POSITIONS: Mapping[str, str] = MappingProxyType({
    "donuts": "donuts_ai.engine_protocol.position:position_command",
})
#: The in-process agent of an engine spec (:func:`make_agent`), imported by name: it is
#: built on the seats, which import this module.
ENGINE_AGENT = "donuts_ai.tournament.engine_seat:EngineAgent"
#: Where an engine spec's COMMAND ends: before the first ``,option.`` or ``,go.`` item.
_ENGINE_ITEM = re.compile(r",\s*(?=(?:option|go)\.)")

#: An agent's constructor parameters, as a spec gives them (Python literals or text).
Params = dict[str, Any]
#: The function that writes a game's ``position`` command from its observation.
PositionWriter = Callable[[JSONObject], str]


class AgentLike(Protocol):
    """What the harness needs of an agent (see the module doc): ``select_move(view[,
    time_left])``, whose view and move are the game's. It may also have ``reset(seed)``
    and a ``name``."""

    @property
    def select_move(self) -> Callable[..., Any]: ...


class SpecError(DonutsError):
    """A bad agent spec: unknown agent, class or parameter, or a malformed value."""


def _value(text: str) -> Any:
    try:
        return ast.literal_eval(text)
    # Not a literal: TypeError for unhashable keys ("{[]: 1}"), MemoryError or RecursionError
    # for deep nesting ("-" * 100000 + "1" overflows the parser's stack).
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return text


def _params(text: str, spec: str) -> Params:
    params: Params = {}
    given_as: dict[str, str] = {}  # parameter name -> the key that gave it (itself or an alias)
    for item in filter(None, text.split(",")):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise SpecError(f"agent spec {spec!r}: expected key=value, got {item!r}")
        value = value.strip()
        parsed = _value(value)
        name = ALIASES.get(key, key)
        if name in params:  # (time=0.1,time=0.2, or a parameter and its alias: which one would be meant?)
            first = given_as[name]
            twice = f"{key} given twice" if key == first else f"{name} given twice (as {first} and {key})"
            raise SpecError(f"agent spec {spec!r}: {twice}")
        given_as[name] = key
        # An agent's name is text: "name=3" names it "3", not the int 3 (None keeps the default).
        params[name] = value if key == "name" and not isinstance(parsed, str | None) else parsed
    return params


@dataclass(frozen=True)
class EngineSpec:
    """An engine spec, read: the ``command`` words, the ``options`` to set (name, value
    text) and the fixed ``go`` limits (keyword, whole number)."""

    command: tuple[str, ...]
    options: tuple[tuple[str, str], ...] = ()
    go: tuple[tuple[str, int], ...] = ()


def is_engine_spec(spec: object) -> bool:
    """Whether ``spec`` names an engine (``engine:COMMAND...``)."""
    return isinstance(spec, str) and spec.strip().partition(":")[0] == ENGINE_KIND and ":" in spec


def parse_engine_spec(spec: str) -> EngineSpec:
    """The parts of an engine spec (see the module doc), checked: the program must be an
    executable file or a command on ``PATH``."""
    text = spec.strip().partition(":")[2]
    command_text, *items = _ENGINE_ITEM.split(text)
    try:
        command = tuple(shlex.split(command_text))
    except ValueError as exc:
        raise SpecError(f"engine spec {spec!r}: {exc}") from None
    if not command:
        raise SpecError(f"engine spec {spec!r}: no command (expected engine:COMMAND[,option.NAME=VALUE][,go.LIMIT=N])")
    options: list[tuple[str, str]] = []
    go: list[tuple[str, int]] = []
    for item in items:
        head, _, value = item.strip().partition("=")
        group, dot, key = head.partition(".")
        if not dot or not key.strip():
            raise SpecError(f"engine spec {spec!r}: expected option.NAME=VALUE or go.LIMIT=N, got {item!r}")
        if group == "option":
            options.append((key.strip(), value.strip()))
        elif key not in GO_LIMITS or not value.strip().isdigit():
            raise SpecError(f"engine spec {spec!r}: go limits are {', '.join(GO_LIMITS)} with a whole number, got {item!r}")
        else:
            go.append((key, int(value)))
    if shutil.which(command[0]) is None:
        raise SpecError(f"engine spec {spec!r}: {command[0]!r} is not an executable file nor a command on PATH")
    return EngineSpec(command, tuple(options), tuple(go))


def engine_position_writer(game: Game[Any] | str) -> PositionWriter:
    """The function that writes ``game``'s ``position`` command for engines
    (:data:`ENGINE_POSITIONS`); :class:`SpecError` when engines cannot play it."""
    name = get_game(game).name
    if name not in ENGINE_POSITIONS:
        raise SpecError(f"engines speak the Donuts Engine Protocol: they cannot play {name} (only {', '.join(ENGINE_POSITIONS)})")
    writer: PositionWriter = load(ENGINE_POSITIONS[name])
    return writer


#: Kinds registered at run time (:func:`register_agent`): game name -> kind -> class.
_RUNTIME_KINDS: dict[str, dict[str, type[Any]]] = {}

#: The head of the generic agents' kinds (``generic-mcts``): the library's searches over the
#: state API, the same on every game, so that they can be measured beside a game's own.
GENERIC_PREFIX = "generic-"
#: The generic agents (:mod:`donuts_ai.agents.generic`) by short name, as dotted paths
#: imported when a spec first names one. Every game has them under :data:`GENERIC_PREFIX`,
#: and under the short name too where the game has no agent of its own by that name:
#: ``mcts``, ``alphabeta`` and ``solver`` name the best a game has.
GENERIC_AGENTS = {
    "random": "donuts_ai.agents.generic:GenericRandomAgent",
    "mcts": "donuts_ai.agents.generic:GenericMCTSAgent",
    "alphabeta": "donuts_ai.agents.generic:GenericAlphaBetaAgent",
    "solver": "donuts_ai.agents.generic:GenericSolverAgent",
}
#: The constructor keyword by which an agent class asks for the game it plays (the
#: harness hands it the :class:`~donuts_ai.game.Game`; a spec may not set it).
GAME_PARAMETER = "game"


class _GenericKinds(Mapping[str, type[Any]]):
    """A game's agent kinds followed by the generic ones: those of :data:`GENERIC_AGENTS`
    the game lacks under their short names, then all of them under :data:`GENERIC_PREFIX`.
    Classes are imported when looked up."""

    def __init__(self, own: Mapping[str, type[Any]]):
        self.own = own
        self.generic = {short: path for short, path in GENERIC_AGENTS.items() if short not in own}
        self.generic |= {f"{GENERIC_PREFIX}{short}": path for short, path in GENERIC_AGENTS.items()}

    def __getitem__(self, kind: str) -> type[Any]:
        if kind in self.own:
            return self.own[kind]
        cls: type[Any] = load(self.generic[kind])
        return cls

    def __iter__(self) -> Iterator[str]:
        yield from self.own
        yield from (kind for kind in self.generic if kind not in self.own)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __contains__(self, kind: object) -> bool:
        return kind in self.own or kind in self.generic


def register_agent(kind: str, cls: type[Any], *, game: Game[Any] | str) -> None:
    """Give agent class ``cls`` the short name ``kind`` in ``game``'s specs, from now on:
    ``register_agent("flipper", FlipperAgent, game="donuts")`` makes ``"flipper"`` and
    ``"flipper:seed=3"`` specs like ``"greedy"``, in this process and in every seat and
    worker process a tournament, an SPRT or an evaluation starts (the class travels with
    the seats, :mod:`.entries`), even a class defined in ``__main__`` or a notebook. The
    game's built-in kinds cannot be taken; registering a kind again replaces it."""
    if not isinstance(kind, str) or not kind.isidentifier() or kind == ENGINE_KIND:
        raise SpecError(f"an agent kind must be an identifier other than {ENGINE_KIND!r}, got {kind!r}")
    if not (inspect.isclass(cls) and callable(getattr(cls, "select_move", None))):
        raise SpecError(f"register_agent({kind!r}, ...) takes an agent class (with select_move), got {cls!r}")
    game = get_game(game)
    runtime = _RUNTIME_KINDS.setdefault(game.name, {})
    if kind not in runtime:
        # A built-in name stays the built-in agent's: a results file records the spec alone,
        # and resuming it in another process must play the same agent.
        try:
            builtin = [*_GenericKinds(game.agent_registry()), *game.optional_agents()]
        except GameError:  # the game's agents cannot load: none of their names can be taken either
            builtin = []
        if kind in builtin:
            raise SpecError(f"{kind!r} is a built-in agent of {game.name}: register your class under another name")
    runtime[kind] = cls


def registered_kind(kind: str, game: Game[Any] | str) -> type[Any] | None:
    """The class registered as ``kind`` for ``game`` with :func:`register_agent`, else ``None``."""
    return _RUNTIME_KINDS.get(get_game(game).name, {}).get(kind)


class _WithRunTimeKinds(Mapping[str, type[Any]]):
    """A game's registry seen with the kinds registered at run time before it; a lazy
    registry's classes are still imported only when looked up."""

    def __init__(self, runtime: Mapping[str, type[Any]], registry: Mapping[str, type[Any]]):
        self.runtime, self.registry = runtime, registry

    def __getitem__(self, kind: str) -> type[Any]:
        return self.runtime[kind] if kind in self.runtime else self.registry[kind]

    def __iter__(self) -> Iterator[str]:
        yield from self.runtime
        yield from (k for k in self.registry if k not in self.runtime)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __contains__(self, kind: object) -> bool:
        return kind in self.runtime or kind in self.registry


def _registry(game: Game[Any] | str) -> tuple[Mapping[str, type[Any]], Mapping[str, tuple[str, str]]]:
    """(agent classes by kind, optional kinds) of ``game``, run-time kinds first."""
    game = get_game(game)
    runtime = _RUNTIME_KINDS.get(game.name, {})
    try:
        registry = game.agent_registry()
    except GameError:  # the game's own agents cannot load: the run-time kinds still work
        if not runtime:
            raise
        registry = {}
    own = _WithRunTimeKinds(runtime, registry) if runtime else registry
    return _GenericKinds(own), game.optional_agents()


def _kinds(registry: Mapping[str, type[Any]], optional: Mapping[str, tuple[str, str]]) -> str:
    return ", ".join([*registry, *optional])


def _did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the choices close to ``word`` (difflib), else ``""``."""
    close = difflib.get_close_matches(word, list(dict.fromkeys(choices)), n=3)
    return f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


def _unknown_kind(head: str, spec: str, game: Game[Any] | str, registry: Mapping[str, type[Any]],
                  optional: Mapping[str, tuple[str, str]], why: str = "") -> SpecError:
    """The error for a head that is no kind of ``game`` (nor a module to import, ``why``)."""
    kinds = [*registry, *optional]
    choices = [*kinds, ENGINE_KIND] if ":" in spec else kinds
    listed = ", ".join(kinds) if kinds else "none"
    where = "" if spec == head else f"agent spec {spec!r}: "
    return SpecError(f"{where}unknown agent kind {head!r} for {get_game(game).name}{why}; kinds: {listed} "
                     f"(or module:Class){_did_you_mean(head, choices)}")


def _agent_classes(module: ModuleType) -> list[str]:
    """The names of ``module``'s agent classes (concrete classes with ``select_move``)."""
    return [name for name, value in vars(module).items()
            if not name.startswith("_") and inspect.isclass(value) and not inspect.isabstract(value)
            and callable(getattr(value, "select_move", None))]


def _missing_module(exc: ImportError, head: str) -> bool:
    """Whether ``exc`` says that the module ``head`` itself (or a package above it) does not
    exist, rather than that it exists but fails to import."""
    missing = getattr(exc, "name", None)
    return isinstance(exc, ModuleNotFoundError) and isinstance(missing, str) and (
        head == missing or head.startswith(missing + "."))


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def _module_class(spec: str, head: str, rest: str, game: Game[Any] | str, registry: Mapping[str, type[Any]],
                  optional: Mapping[str, tuple[str, str]]) -> tuple[type[Any], str]:
    """(the class, its parameter text) of a ``module:Class[:params]`` spec whose head is no
    kind; a head that could be a kind (an identifier) and is no module either, or a rest
    that is no class name, says "unknown agent kind" (with the kinds and the close ones)."""
    cls_name, _, param_text = rest.partition(":")
    # "mtcs:time=0.1": parameters where a class name would be, so a kind was meant.
    if not cls_name.isidentifier():
        raise _unknown_kind(head, spec, game, registry, optional)
    # import_module raises ValueError for "" and TypeError for relative names (".x"):
    # a spec names an absolute module, so refuse them here.
    if not head or head.startswith("."):
        raise SpecError(f"agent spec {spec!r}: {head!r} is not a module name; "
                        f"expected one of {_kinds(registry, optional)} or module:Class")
    try:
        agent_module = importlib.import_module(head)
    except ImportError as exc:
        if _missing_module(exc, head) and head.isidentifier():  # "mtcs:Agent": a kind, or a module, was meant
            raise _unknown_kind(head, spec, game, registry, optional, f", nor an importable module ({_one_line(exc)})") from None
        raise SpecError(f"agent spec {spec!r}: cannot import module {head!r} ({_one_line(exc)})") from None
    if not hasattr(agent_module, cls_name):
        classes = _agent_classes(agent_module)
        hint = _did_you_mean(cls_name, classes) or (
            f" (its agent classes: {', '.join(classes)})" if classes else " (it has no agent class: none with select_move)")
        raise SpecError(f"agent spec {spec!r}: module {head!r} has no class {cls_name!r}{hint}")
    cls = getattr(agent_module, cls_name)
    if not (inspect.isclass(cls) and callable(getattr(cls, "select_move", None))):
        raise SpecError(f"agent spec {spec!r}: {head}.{cls_name} is not an agent class (needs select_move)")
    return cls, param_text


def _optional_agent(head: str, spec: str, optional: Mapping[str, tuple[str, str]]) -> type[Any]:
    """The class of an optional kind, imported now; a missing dependency is a SpecError."""
    target, extra = optional[head]
    module_name, _, cls_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise SpecError(f"agent spec {spec!r}: {head} needs an optional dependency: pip install 'donuts_ai[{extra}]' ({exc})") from None
    cls: type[Any] = getattr(module, cls_name)
    return cls


def _located(spec: str, game: Game[Any] | str) -> tuple[type[Any], str]:
    """(the agent class, the parameter text) of ``spec``, stripped, that names no engine."""
    head, _, rest = spec.partition(":")
    registry: Mapping[str, type[Any]]
    optional: Mapping[str, tuple[str, str]]
    try:
        registry, optional = _registry(game)
    except GameError as exc:  # the game's agents cannot load: module:Class specs still work
        if not rest or not rest.partition(":")[0].isidentifier():
            raise SpecError(f"agent spec {spec!r}: {exc}") from None
        registry, optional = {}, {}
    if head in registry:
        return registry[head], rest
    if head in optional:
        return _optional_agent(head, spec, optional), rest
    if rest:
        return _module_class(spec, head, rest, game, registry, optional)
    raise _unknown_kind(head, spec, game, registry, optional)


def _recorded_names(cls: type[Any], head: str, game: Game[Any] | str) -> Mapping[str, str]:
    """The older parameter names (:data:`RECORDED_NAMES`) of a spec of ``game`` whose kind
    is ``head`` (or whose class ``cls`` has that ``kind``), old -> new: those the class no
    longer takes and whose new name it takes."""
    kinds = RECORDED_NAMES.get(get_game(game).name, {})
    found = kinds.get(head) or kinds.get(getattr(cls, "kind", None) or "") or {}
    taken = _parameters(cls)
    open_ = any(p.kind is p.VAR_KEYWORD for p in taken.values())
    return {old: new for old, new in found.items() if old not in taken and (new in taken or open_)}


def normalize_spec(spec: str, game: Game[Any] | str) -> str:
    """A spec recorded in a file written by 0.5 or earlier, under the parameter names of
    now (:data:`RECORDED_NAMES`: ``mcts:iterations=200`` -> ``mcts:simulations=200``), the
    rest of its text as it is, without a warning: what the readers of those files compare
    specs by (a resume, :func:`~.entries.as_recorded`; the suite generator's games file). A
    spec with nothing to rewrite, one that gives a parameter under both names, an engine
    spec, or one that names no agent comes back as it is."""
    if not isinstance(spec, str) or is_engine_spec(spec):
        return spec
    text = spec.strip()
    try:
        cls, param_text = _located(text, game)
        renames = _recorded_names(cls, text.partition(":")[0], game)
    except DonutsError:  # not a spec of an agent: nothing to rewrite
        return spec
    if not renames or not param_text:
        return spec
    items = param_text.split(",")
    keys = [item.partition("=")[0].strip() for item in items]
    out, renamed = [], False
    for item, key in zip(items, keys, strict=True):
        new = renames.get(key)
        if new is None or "=" not in item:
            out.append(item)
            continue
        if new in keys:  # both names: no spec of 0.5's, left for resolve to refuse
            return spec
        head, _, value = item.partition("=")
        out.append(head.replace(key, new, 1) + "=" + value)
        renamed = True
    return text[: len(text) - len(param_text)] + ",".join(out) if renamed else spec


def resolve(spec: str, game: Game[Any] | str) -> tuple[type[Any], Params]:
    """(agent class, constructor parameters) of a spec, checked against the signature;
    kinds are those of ``game`` (a :class:`~donuts_ai.game.Game` or its name)."""
    if not isinstance(spec, str) or not spec.strip():
        raise SpecError(f"agent spec must be a non-empty string, got {spec!r}")
    spec = spec.strip()
    head, _, rest = spec.partition(":")
    if head == ENGINE_KIND and rest:
        parse_engine_spec(spec)
        engine_position_writer(game)
        engine_agent: type[Any] = load(ENGINE_AGENT)
        return engine_agent, {"engine": spec, "game": get_game(game).name}
    cls, param_text = _located(spec, game)
    refusal = getattr(cls, "refusal", None)
    why = refusal(get_game(game)) if callable(refusal) else None
    if why:
        raise SpecError(f"agent spec {spec!r}: {why}")
    params = _params(param_text, spec)
    if GAME_PARAMETER in params:
        raise SpecError(f"agent spec {spec!r}: {GAME_PARAMETER!r} is not a spec parameter (the harness hands an agent "
                        f"the game it plays)")
    try:
        sig = inspect.signature(cls)
    except (TypeError, ValueError):
        sig = None
    # "time" is short for time_limit, unless the class takes "time" itself.
    if sig is not None and "time_limit" in params and "time_limit" not in sig.parameters and "time" in sig.parameters:
        params["time"] = params.pop("time_limit")
    if sig is not None and not any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        spec_parameters = agent_parameters(cls)
        unknown = [k for k in params if k not in spec_parameters]
        if unknown:
            taken = [k for k in spec_parameters if k != "name"]
            accepted = ", ".join(taken)
            close = _did_you_mean(unknown[0], taken)
            raise SpecError(f"agent spec {spec!r}: unknown parameter {unknown[0]!r} (accepted: {accepted}){close}")
    return cls, params


def make_agent(spec: str, seed: int | None = None, *, game: Game[Any] | str) -> Any:
    """Build the agent of ``spec`` (a kind of ``game``'s, a :class:`~donuts_ai.game.Game` or
    its name); ``seed`` is used unless the spec sets one."""
    cls, params = resolve(spec, game)
    if seed is not None and "seed" not in params and "seed" in _parameters(cls):
        params["seed"] = seed
    if GAME_PARAMETER not in params and GAME_PARAMETER in _parameters(cls):
        params[GAME_PARAMETER] = get_game(game)  # an agent that searches the game itself (its hooks)
    try:
        agent = cls(**agent_arguments(cls, params))
    # DonutsError is a ValueError. Plain ValueError, OverflowError and MemoryError come from
    # sizes no machine can allocate (numpy refuses "alphabeta:tt_bits=64" with ValueError).
    except (ValueError, TypeError, OverflowError, MemoryError) as exc:
        raise SpecError(f"agent spec {spec!r}: {exc or type(exc).__name__}") from None
    if not getattr(agent, "name", None):
        try:
            agent.name = spec
        except AttributeError:  # a class with __slots__ or a read-only name: it keeps its own
            pass
    return agent


def _parameters(cls: type[Any]) -> dict[str, inspect.Parameter]:
    try:
        return dict(inspect.signature(cls).parameters)
    except (TypeError, ValueError):
        return {}


def _settings_parameters(cls: type[Any]) -> dict[str, type[Any]]:
    """The constructor parameters of ``cls`` that take a settings object (a frozen
    dataclass, or ``None``), by name: their fields are spec parameters of their own."""
    try:
        hints = typing.get_type_hints(cls.__init__)
    except Exception:  # an annotation that does not resolve here: no settings object is known
        return {}
    out: dict[str, type[Any]] = {}
    for name, hint in hints.items():
        for kind in (hint, *typing.get_args(hint)):
            if isinstance(kind, type) and is_dataclass(kind) and kind.__dataclass_params__.frozen:  # type: ignore[attr-defined]
                out[name] = kind
                break
    return out


def agent_parameters(cls: type[Any]) -> dict[str, inspect.Parameter]:
    """The parameters a spec (or an engine's ``setoption``) may give an agent class: its
    constructor's, with a settings object's fields in place of the settings parameter
    (``mcts:max_nodes=4096`` sets ``memory=TreeMemory(max_nodes=4096)``).

    Args:
        cls: the agent class.

    Returns:
        Each parameter by name, with its default (a field's default for a settings field).
    """
    own = _parameters(cls)
    settings_of = _settings_parameters(cls)
    out: dict[str, inspect.Parameter] = {}
    for name, parameter in own.items():
        settings = settings_of.get(name)
        if settings is None:
            out[name] = parameter
            continue
        for field in fields(settings):
            if field.name not in own:
                default = field.default if field.default is not MISSING else inspect.Parameter.empty
                out[field.name] = inspect.Parameter(field.name, inspect.Parameter.KEYWORD_ONLY, default=default)
    return out


def agent_arguments(cls: type[Any], params: Params) -> Params:
    """The keyword arguments that build ``cls`` from a spec's ``params``: the fields of each
    settings object gathered into it (:func:`agent_parameters`).

    Args:
        cls: the agent class.
        params: the spec's parameters (:func:`resolve`).

    Returns:
        The constructor's keyword arguments.

    Raises:
        SpecError: a settings object and one of its fields are both given.
    """
    out = dict(params)
    own = _parameters(cls)
    for name, settings in _settings_parameters(cls).items():
        given = {f.name: out.pop(f.name) for f in fields(settings) if f.name in out and f.name not in own}
        if not given:
            continue
        if name in out:
            raise SpecError(f"{name!r} and its field {next(iter(given))!r} are both given")
        try:
            out[name] = settings(**given)
        except (TypeError, ValueError) as exc:
            raise SpecError(f"{name}: {exc}") from None
    return out


_TAKES_CLOCK: dict[type, bool] = {}


def takes_clock(agent: AgentLike) -> bool:
    """Whether ``agent.select_move`` takes a second argument (the player's clock)."""
    cls = type(agent)
    if cls not in _TAKES_CLOCK:
        try:
            params = list(inspect.signature(agent.select_move).parameters.values())
        except (TypeError, ValueError):
            params = []
        positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        _TAKES_CLOCK[cls] = len(positional) >= 2 or any(p.kind is p.VAR_POSITIONAL for p in params)
    return _TAKES_CLOCK[cls]


def call_agent(agent: AgentLike, view: Any, time_left: float | None) -> Any:
    """``agent.select_move(view, time_left)``, or ``select_move(view)`` for an agent
    whose method takes no clock."""
    return agent.select_move(view, time_left) if takes_clock(agent) else agent.select_move(view)
