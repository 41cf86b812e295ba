"""What the side-by-side scripts share: the private modules of the tree on ``PYTHONPATH``
wherever that tree keeps them, and the names its API gives a search's budget."""

import importlib
import inspect
from pathlib import Path
from types import ModuleType

import donuts_ai

#: The package folder of the tree measured (the first ``donuts_ai`` on the path).
PACKAGE = Path(donuts_ai.__file__).resolve().parent


def module(*paths: str) -> ModuleType:
    """The module at the first of ``paths`` this tree holds, newest first (0.6.0: the
    Boxes state's ``_state``; 0.5.0: the rules kernels' ``_kernels``; 0.4.0: ``_engine`` in
    a folder for each game, issue 38; 0.3.0: ``donuts_ai._engine``), so that one script
    measures any of those trees. Looked for in the tree's own folder, not by importing: an
    editable install of another tree lends the modules this one lacks, and they fail."""
    for path in paths:
        file = PACKAGE.joinpath(*path.split(".")[1:])
        if file.with_suffix(".py").is_file() or (file / "__init__.py").is_file():
            return importlib.import_module(path)
    raise ModuleNotFoundError(f"the tree at {PACKAGE.parent} has none of {', '.join(paths)}")


def budget(cls, count):
    """A search's budget as the keyword its version names it: ``simulations`` from 0.5.0,
    ``iterations`` before (so that one script measures either tree)."""
    return {"simulations" if "simulations" in inspect.signature(cls).parameters else "iterations": count}
