"""Run a function once a given module is imported (a post-import hook), without importing it.

The package registers its games with Gymnasium and OpenSpiel where they are installed, but
importing either costs every ``import donuts_ai`` tens of milliseconds (and every agent
process a tournament starts pays it again). So the registration waits for the library
itself: :func:`when_imported` runs the callback at once when the module is already
imported, else right after its first import finishes (a finder ahead of the others on
``sys.meta_path`` wraps that module's loader, then steps aside).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Callable, Sequence
from types import ModuleType


class _ThenCall(importlib.abc.Loader):
    """A module's own loader, then the callback."""

    def __init__(self, loader: importlib.abc.Loader, callback: Callable[[], None]):
        self._loader, self._callback = loader, callback

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        try:
            self._callback()
        except Exception as exc:  # the module itself imported: a failed registration must not undo that
            warnings.warn(f"donuts_ai could not register with {module.__name__}: {exc}", RuntimeWarning, stacklevel=2)

    def __getattr__(self, name: str) -> object:
        # Everything else (resources, source, code) is the module's own loader's.
        return getattr(self._loader, name)


class _Watch(importlib.abc.MetaPathFinder):
    """Finds nothing itself: on the first import of ``name`` it asks the other finders for
    the module's spec and wraps its loader (:class:`_ThenCall`)."""

    def __init__(self, name: str, callback: Callable[[], None]):
        self.name, self.callback = name, callback

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)  # once, and not while the other finders look
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            spec.loader = _ThenCall(spec.loader, self.callback)
        return spec


def when_imported(name: str, callback: Callable[[], None]) -> None:
    """Call ``callback()`` now if module ``name`` is imported, else once it is (never, if it
    is never imported or not installed)."""
    if name in sys.modules:
        callback()
    else:
        sys.meta_path.insert(0, _Watch(name, callback))
