"""Entries: what a caller may name an agent by, and how it reaches its seat.

Wherever the harness takes an agent (:func:`~.runner.run`, :func:`~.sprt.run_sprt`,
:func:`~.match.play_game`, a :class:`~.config.HarnessConfig`, the evaluation) it takes a
**spec** (``"mcts:time=0.1"``, ``"my_package.agents:MyAgent:depth=3"``,
``"engine:./my_engine"``, a kind registered with :func:`register_agent`: :mod:`.specs`),
an **agent instance** (even of a class defined in ``__main__`` or a notebook cell) or
an **agent class** (built with the game's seed when it takes a ``seed``).

Every entry becomes an :class:`AgentSource`: the ``record`` results files keep, the
``name`` tables show (unique in a run: :func:`names_of`), the ``details`` that tell
objects of one name apart, its ``code`` identity (:func:`code_of`, which a resume
compares), and what builds the agent in any process (:meth:`AgentSource.build`). An
object travels to its supervised seat process with cloudpickle (a class of ``__main__``
by value, any other by reference); one that cannot travel is refused when the run is
configured (:class:`~.specs.SpecError`), never half-way through it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import inspect
import marshal
import os
import shutil
import sys
from collections.abc import Iterable, Mapping, Sequence
from types import ModuleType
from typing import Any

import cloudpickle

from ..game import Game, get_game
from .agent_source import AgentSource as AgentSource  # re-exported: entries become sources
from .engine_seat import EngineSeat
from .seats import LocalSeat, ProcessSeat, Seat
from .specs import SpecError, is_engine_spec, normalize_spec, parse_engine_spec, registered_kind, resolve

#: The head of a record that names an object's class, ``<module.QualName>``: no spec
#: starts with it, so a record says at a glance whether it came from a spec or an object.
OBJECT_RECORD_OPEN, OBJECT_RECORD_CLOSE = "<", ">"
#: The most characters of an instance's ``spec`` or ``repr`` kept in its record (an agent
#: holding a table would write a record of megabytes); the digest tells such agents apart.
MAX_RECORD_TEXT = 120
#: Hex digits of the digest of an instance's state in its record.
DIGEST_DIGITS = 12
#: The attribute where the agent base keeps its constructor's arguments
#: (:data:`donuts_ai.agents.base.ARGUMENTS_ATTRIBUTE`; the harness does not import the
#: agents): left out of the state digest, which is of the state alone.
ARGUMENTS_ATTRIBUTE = "_agent_arguments"
#: The most characters of one value in an object's ``details`` (a table shows them).
MAX_DETAIL_TEXT = 40
#: The types of the public attributes that tell apart objects without ``params()``.
_PLAIN_TYPES = (type(None), bool, int, float, str)


# A record is the spec; for an object ``<module.QualName>`` and, for an instance, its ``spec``
# attribute when it has one, else its ``repr`` (cut at MAX_RECORD_TEXT characters), then ``#`` and a
# digest of the instance's state, so that two instances whose ``repr`` is the same but whose
# parameters differ are told apart. A name is the spec, or an object's ``name``, else its class's
# name; the details are an object's ``params()`` (the agent base's constructor arguments), else its
# plain public attributes.
#
# A seat whose agent has ``reset(seed)`` keeps one agent for all its games; otherwise every game gets
# a fresh one: a class is built again with the game's seed, an instance is unpickled again (the same
# state every game), a spec is built again with the seed unless the spec sets one. A kind registered
# at run time travels too: a source whose spec names it carries the class, and the seat process
# registers it before it builds the agent.
def _qualified(cls: type[Any]) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _instance_text(agent: object) -> str:
    """What identifies an instance of its class: its ``spec`` attribute when it is text
    (the agent base's ``kind:key=value``), else its ``repr`` unless that is ``object``'s
    own (which holds a memory address, different on every run, so a file could never
    be resumed): then nothing."""
    spec = getattr(agent, "spec", None)
    if isinstance(spec, str) and spec:
        text = spec
    elif type(agent).__repr__ is object.__repr__:
        return ""
    else:
        text = repr(agent)
    return text if len(text) <= MAX_RECORD_TEXT else text[: MAX_RECORD_TEXT - 1] + "…"


def _state_digest(agent: object, payload: bytes) -> str:
    """A digest of an instance's state that is the same in every run for the same state:
    its attributes pickled (a ``repr`` may leave parameters out), else the whole payload."""
    try:
        state = cloudpickle.dumps(sorted((k, v) for k, v in vars(agent).items() if k != ARGUMENTS_ATTRIBUTE))
    except Exception:  # no __dict__ (slots), or attributes that do not sort or pickle alone
        state = payload
    return hashlib.sha256(state).hexdigest()[:DIGEST_DIGITS]


#: The package whose agents are identified by its version rather than by their source.
LIBRARY = "donuts_ai"
#: Hex digits of a code digest (``sha256:`` and these).
CODE_DIGITS = 12


def _digest(parts: Iterable[bytes]) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))  # lengths first: two splits of the same bytes differ
        h.update(part)
    return f"sha256:{h.hexdigest()[:CODE_DIGITS]}"


def _functions_code(cls: type[Any]) -> list[bytes]:
    """The compiled code of a class's functions (for a class whose source cannot be read)."""
    out = []
    for name, value in sorted(vars(cls).items()):
        function = getattr(value, "__func__", value)
        code = getattr(function, "__code__", None)
        if code is not None:
            out.append(name.encode() + marshal.dumps(code.replace(co_filename="", co_firstlineno=1)))
    return out


def library_version() -> str:
    """``donuts_ai VERSION``: the code identity of the library's own agents."""
    module = sys.modules.get(LIBRARY)
    return f"{LIBRARY} {getattr(module, '__version__', '?')}"


# Code is identity: every source carries its ``code``, which results files keep beside the record, so
# that a resume after the agent's code changed is refused (or, asked for, goes on as a new version of
# it, on the record). For a ``module:Class`` spec, an object or a class it is a digest of the class's
# source and its module's (of the class alone for one a script or notebook defines: the rest of a
# script is not the agent); for ``engine:PATH``, of the program file's bytes (and of any argument that
# is a script an interpreter runs, SCRIPT_SUFFIXES); for the library's own agents, the library's
# version. A digest cannot see helper modules the agent's module imports, nor compiled kernels: a
# change there needs a new file, or the new-version flag.
def code_of_class(cls: type[Any]) -> str:
    """The code identity of an agent class (see the comment above): the library's version
    for its own agents; else a digest of the class's source and, for a class of an
    importable module, of the module's source; of the class's compiled functions where
    no source can be read."""
    module_name = getattr(cls, "__module__", "") or ""
    if module_name == LIBRARY or module_name.startswith(LIBRARY + "."):
        return library_version()
    parts = [f"{module_name}.{cls.__qualname__}".encode()]
    try:
        parts.append(inspect.getsource(cls).encode())
    except (OSError, TypeError):  # no file to read (defined by exec, or the file is gone)
        parts += _functions_code(cls)
    module = sys.modules.get(module_name)
    if module is not None and module_name != "__main__" and getattr(module, "__file__", None):
        try:
            parts.append(inspect.getsource(module).encode())
        except (OSError, TypeError):
            pass
    return _digest(parts)


#: The endings of a file an interpreter runs (``engine:python3 my_engine.py``): such an
#: argument is the engine's code too. Other arguments that name files (a log, an opening
#: book) are its data, which may change between runs without changing the engine.
SCRIPT_SUFFIXES = (".py", ".sh", ".js", ".mjs", ".rb", ".pl", ".lua", ".jar", ".R", ".jl")


def _engine_code(spec: str) -> str:
    """A digest of an engine's program file and of every argument that is a script (:data:`SCRIPT_SUFFIXES`)."""
    command = parse_engine_spec(spec).command
    parts = []
    for i, word in enumerate(command):
        path = (shutil.which(word) or word) if i == 0 else word
        if (i == 0 or path.endswith(SCRIPT_SUFFIXES)) and os.path.isfile(path):
            try:
                with open(path, "rb") as fh:
                    parts.append(fh.read())
            except OSError:
                continue
    return _digest(parts)


def code_of(entry: object, game: Game[Any] | str) -> str:
    """The code identity of an entry (a spec, an agent instance or class): see :func:`code_of_class`."""
    if isinstance(entry, AgentSource):
        return entry.code
    if isinstance(entry, str):
        if is_engine_spec(entry):
            return _engine_code(entry)
        cls, _ = resolve(entry, game)
        return code_of_class(cls)
    return code_of_class(entry if inspect.isclass(entry) else type(entry))


def _detail_text(value: object) -> str:
    text = f"{value}"
    return text if len(text) <= MAX_DETAIL_TEXT else text[: MAX_DETAIL_TEXT - 1] + "…"


def _details(agent: object) -> tuple[tuple[str, str], ...]:
    """What tells an instance apart from others of its name in a table, as ``(key, value
    text)``: its ``params()`` when it has them (the agent base's: its constructor's
    arguments), else its public attributes that are plain values (numbers, text, ``None``)."""
    values: Mapping[object, object] | None = None
    params = getattr(agent, "params", None)
    if callable(params):
        try:
            got = params()
        except Exception:  # a params() that needs arguments or fails: fall back to the attributes
            got = None
        if isinstance(got, Mapping):
            values = got
    if values is None:
        try:
            attributes = vars(agent)
        except TypeError:  # no __dict__ (slots): nothing to show
            return ()
        values = {k: v for k, v in attributes.items() if isinstance(k, str) and not k.startswith("_") and k != "name"
                  and isinstance(v, _PLAIN_TYPES)}
    return tuple((str(k), _detail_text(v)) for k, v in values.items())


def _by_value_modules(value: object) -> list[ModuleType]:
    """The module of ``value``'s class (or of ``value``, a class) when no other process
    could import it by name (loaded from a file path, or made at run time): cloudpickle
    must then send its code, as it does for ``__main__``."""
    cls = value if inspect.isclass(value) else type(value)
    module = sys.modules.get(cls.__module__)
    if module is None or cls.__module__ == "__main__":
        return []
    try:
        importable = importlib.util.find_spec(cls.__module__) is not None
    except (ImportError, ValueError):  # a module whose __spec__ is missing or broken
        importable = False
    return [] if importable else [module]


def _dumps(value: object, what: str) -> bytes:
    by_value = _by_value_modules(value)
    try:
        for module in by_value:
            cloudpickle.register_pickle_by_value(module)
        payload: bytes = cloudpickle.dumps(value)
    except Exception as exc:  # any object's __reduce__ may raise anything: report it, do not crash
        raise SpecError(f"agent {what} cannot be sent to its seat process (cloudpickle: {type(exc).__name__}: {exc}); "
                        "give it as a spec, or make it picklable") from None
    finally:
        for module in by_value:
            cloudpickle.unregister_pickle_by_value(module)
    return payload


def _kinds_of(spec: str, game: Game[Any]) -> tuple[tuple[str, bytes], ...]:
    head = spec.strip().partition(":")[0]
    cls = registered_kind(head, game)
    return () if cls is None else ((head, _dumps(cls, f"kind {head!r}")),)


def source_of(entry: object, game: Game[Any] | str) -> AgentSource:
    """The :class:`AgentSource` of one entry, checked now.

    Args:
        entry: a spec, an agent instance or an agent class (see the module doc).
        game: a :class:`~donuts_ai.game.Game` or a registered game's name.

    Returns:
        The entry's source: its record, name, details, code identity and builder.

    Raises:
        SpecError: a bad spec, a class without ``select_move``, or an object that cannot
            travel to a seat process.
    """
    game = get_game(game)
    if isinstance(entry, AgentSource):
        return entry
    if isinstance(entry, str):
        resolve(entry, game)
        spec = entry.strip()
        return AgentSource(record=spec, name=spec, spec=spec, kinds=_kinds_of(spec, game), code=code_of(spec, game))
    if inspect.isclass(entry):
        if not callable(getattr(entry, "select_move", None)):
            raise SpecError(f"agent class {_qualified(entry)} is not an agent class (needs select_move)")
        record = f"{OBJECT_RECORD_OPEN}{_qualified(entry)}{OBJECT_RECORD_CLOSE}"
        return AgentSource(record=record, name=entry.__name__, payload=_dumps(entry, record), is_class=True,
                           code=code_of_class(entry))
    if not callable(getattr(entry, "select_move", None)):
        raise SpecError(f"an agent must be a spec string, an agent class or an agent object with select_move, got {entry!r}")
    cls = type(entry)
    text = _instance_text(entry)
    head = f"{OBJECT_RECORD_OPEN}{_qualified(cls)}{OBJECT_RECORD_CLOSE}"
    payload = _dumps(entry, head + (f" {text}" if text else ""))
    record = head + (f" {text}" if text else "") + f" #{_state_digest(entry, payload)}"
    name = getattr(entry, "name", None)
    # The agent base names an agent by its kind; a subclass that kept the base's kind has no name of its own.
    if not isinstance(name, str) or not name or name == "agent":
        name = cls.__name__
    return AgentSource(record=record, name=name, payload=payload, details=_details(entry), code=code_of_class(cls))


def sources_of(entries: Iterable[object], game: Game[Any] | str) -> list[AgentSource]:
    """:func:`source_of` of every entry. Two objects with the same record must be the same
    object, since the record is what identifies an agent in results files."""
    sources = [source_of(e, game) for e in entries]
    seen: dict[str, AgentSource] = {}
    for source in sources:
        other = seen.setdefault(source.record, source)
        if other.is_object and other.payload != source.payload:
            raise SpecError(f"two different agents are both recorded as {source.record!r}: "
                            "give them different names or parameters (their spec or repr tells them apart)")
    return sources


def as_recorded(sources: Sequence[AgentSource], recorded: object, game: Game[Any] | str) -> list[AgentSource]:
    """``sources`` as a results file recorded them (``recorded``: its agents' records): a
    spec whose record differs from the one at its place in the file only in the older
    parameter names a file written by 0.5 or earlier may hold (:func:`~.specs.normalize_spec`:
    ``mcts:iterations=200`` and ``mcts:simulations=200``) takes the file's record and name, so that a resume compares
    equal and its games carry the names of the file's; it keeps its own spec, which builds
    the same agent. Any other source, or a ``recorded`` that is no list of one record per
    source, is left as it is (the resume's comparison then says what differs)."""
    out = list(sources)
    if not isinstance(recorded, list) or len(recorded) != len(out):
        return out
    for i, (source, old) in enumerate(zip(out, recorded, strict=True)):
        if (source.spec is not None and isinstance(old, str) and old != source.record and not is_engine_spec(old)
                and not old.startswith(OBJECT_RECORD_OPEN)
                and normalize_spec(old, game) == normalize_spec(source.record, game)):
            out[i] = dataclasses.replace(source, record=old, name=old)
    return out


def names_of(sources: Iterable[AgentSource]) -> list[str]:
    """The names tables show for ``sources``, in order, each its own (tournaments and
    evaluations name their agents alike; results files keep them). A name is the source's
    own (a spec: the spec itself) unless another source has it too: then every object of
    that name gets the parameters in which the objects of that name differ
    (``negamax:depth=3`` and ``negamax:depth=5``; see :attr:`AgentSource.details`), and
    what still reads the same (the same spec twice, one class twice, objects whose
    parameters are the same) gets ``#2``, ``#3``, ... after its first."""
    sources = list(sources)
    names = [source.name for source in sources]
    groups: dict[str, list[int]] = {}
    for i, name in enumerate(names):
        groups.setdefault(name, []).append(i)
    for name, members in groups.items():
        if len(members) < 2:
            continue
        details = [dict(sources[i].details) for i in members]
        keys = [k for k in dict.fromkeys(k for d in details for k in d) if len({d.get(k) for d in details}) > 1]
        for i, detail in zip(members, details, strict=True):
            shown = ",".join(f"{k}={detail[k]}" for k in keys if k in detail)
            if shown:
                names[i] = f"{name}:{shown}"
    taken: set[str] = set()
    every = set(names)
    for i, name in enumerate(names):
        if name in taken:
            n = 2
            while f"{name}#{n}" in taken or f"{name}#{n}" in every:
                n += 1
            names[i] = f"{name}#{n}"
        taken.add(names[i])
    return names


def seat_for(source: AgentSource, isolation: str, game: Game[Any]) -> Seat:
    """A new seat for ``source``: an engine spec always gets an
    :class:`~.engine_seat.EngineSeat` (a program of its own); otherwise
    ``isolation="process"`` gives a supervised :class:`~.seats.ProcessSeat` (the
    object travels there) and ``"none"`` a :class:`~.seats.LocalSeat` in this process."""
    if source.spec is not None and is_engine_spec(source.spec):
        return EngineSeat(source.spec, game=game.name)
    if isolation == "process":
        return ProcessSeat(source.record, source.name, game_module=type(game).__module__, game=game.name, source=source)
    seat = LocalSeat(source.build(game), factory=lambda seed: source.build(game, seed))
    seat.name, seat.spec = source.name, source.record
    return seat
