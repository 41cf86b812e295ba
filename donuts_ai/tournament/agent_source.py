"""An agent as the harness carries it: :class:`AgentSource` (see :mod:`.entries` for
what an entry may be and how it becomes a source).

Plain data that pickles to worker processes and seat processes as it is; the records,
seats and configurations that hold one import this module alone, which imports no
other module of the harness that holds them.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any

import cloudpickle

from ..game import Game
from .specs import SpecError, make_agent, register_agent


def _takes_seed(cls: type[Any]) -> bool:
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False
    return "seed" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


@dataclass(frozen=True)
class AgentSource:
    """One agent as the harness carries it (see the module doc): ``record`` (what results
    files keep and ``--resume`` compares), ``name`` (what tables show), and either a
    ``spec`` or a ``payload`` (the cloudpickled instance or class, ``is_class`` telling
    which); ``kinds`` are the run-time kinds the spec names, ``(name, cloudpickled
    class)``; ``details`` are what tells an instance apart from others of the same name,
    ``(key, value text)`` (its parameters: :func:`~.entries.names_of` adds those that
    differ to the names of a run); ``code`` is its code identity
    (:func:`~.entries.code_of`: a digest of its source, or the library's version). Plain data: it pickles to worker processes and seat
    processes as it is."""

    record: str
    name: str
    spec: str | None = None
    payload: bytes | None = field(default=None, repr=False)  # the record names it; the bytes would fill a config's repr
    is_class: bool = False
    kinds: tuple[tuple[str, bytes], ...] = field(default=(), repr=False)
    details: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    code: str = ""

    @property
    def is_object(self) -> bool:
        """Whether the agent came as an object (instance or class), not a spec."""
        return self.payload is not None

    def build(self, game: Game[Any] | str, seed: int | None = None) -> Any:
        """A new agent of this source for ``game``: the spec's (with ``seed`` unless it
        sets one), the class's (with ``seed`` when it takes one), or a fresh copy of the
        instance (``seed`` is then the harness's to pass to ``reset``)."""
        for kind, payload in self.kinds:  # registered again every time: a long-lived worker may hold an older class
            register_agent(kind, cloudpickle.loads(payload), game=game)
        if self.payload is None:
            assert self.spec is not None  # a source holds a spec or an object
            return make_agent(self.spec, seed, game=game)
        value = cloudpickle.loads(self.payload)
        if not self.is_class:
            return value
        try:
            return value(seed=seed) if seed is not None and _takes_seed(value) else value()
        except (ValueError, TypeError, OverflowError, MemoryError) as exc:
            raise SpecError(f"agent {self.record}: {exc or type(exc).__name__}") from None
