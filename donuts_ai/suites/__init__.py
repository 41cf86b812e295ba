"""Accuracy against perfect play: position suites labelled by the exact solver, and any
agent measured on them.

- :mod:`.format` — the suite format (``# donuts-suite 1``: layout, rules, moves, and the
  exact value of every legal move with its distance), :func:`load_suite` and the suites
  the library ships (:data:`SUITE_NAMES`: ``opening``, ``middlegame``, ``endgame``,
  ``critical``);
- :mod:`.generate` — how they are made (``python -m donuts_ai.suites generate``);
- :mod:`.evaluation` — :func:`evaluate`, an agent's moves checked against the labels,
  supervised, in parallel, resumable; ``donuts-ai evaluate`` on the command line.

Importing this package loads nothing but its names; each loads its module when first used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .evaluation import Evaluation, EvaluationSettings, evaluate
    from .format import SUITE_NAMES, MoveLabel, Suite, SuiteError, SuitePosition, load_suite, parse_suite
    from .generate import generate, label_position
    from .report import Scores

#: Each public name's module.
_MODULES = {
    "Evaluation": "evaluation", "EvaluationSettings": "evaluation", "Scores": "report", "evaluate": "evaluation",
    "SUITE_NAMES": "format", "MoveLabel": "format", "Suite": "format", "SuiteError": "format", "SuitePosition": "format",
    "load_suite": "format", "parse_suite": "format",
    "generate": "generate", "label_position": "generate",
}


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        return getattr(importlib.import_module(f".{_MODULES[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["SUITE_NAMES", "Evaluation", "EvaluationSettings", "MoveLabel", "Scores", "Suite", "SuiteError", "SuitePosition",
           "evaluate", "generate", "label_position", "load_suite", "parse_suite"]
