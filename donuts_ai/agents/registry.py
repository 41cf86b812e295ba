"""Registries by dotted path: a name maps to ``"module:attribute"``, imported when the
name is first looked up, so that a registry can name classes of any layer (the
searching agents, a game's adapter) without importing them, or making a circle.

A registry is one literal table, written in the module that owns it: what it holds
never depends on what was imported. Code from outside joins through public calls
(:func:`donuts_ai.game.register_game`, :func:`donuts_ai.tournament.specs.register_agent`)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any, Generic, TypeVar

#: What a registry's names stand for (the Donuts agents: their classes).
T = TypeVar("T")


def load(path: str) -> Any:
    """The object at a dotted path, importing its module.

    Args:
        path: ``"module:attribute"``.

    Returns:
        The attribute of the imported module.
    """
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)


class LazyRegistry(Mapping[str, T], Generic[T]):
    """A read-only mapping from names to the objects at their dotted paths
    (``"module:attribute"``), each imported on its first lookup. Iterating, ``len`` and
    ``in`` read the names only.

    Args:
        paths: each name's dotted path, ``"module:attribute"``.
    """

    def __init__(self, paths: Mapping[str, str]):
        self._paths = dict(paths)
        self._loaded: dict[str, T] = {}

    def path(self, name: str) -> str:
        """The dotted path of a name.

        Args:
            name: a name of the registry.

        Returns:
            Its ``"module:attribute"``.

        Raises:
            KeyError: for an unknown name.
        """
        return self._paths[name]

    def __getitem__(self, name: str) -> T:
        if name not in self._loaded:
            self._loaded[name] = load(self._paths[name])
        return self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)

    def __contains__(self, name: object) -> bool:
        return name in self._paths

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._paths!r})"
