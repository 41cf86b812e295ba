"""Accuracy against perfect play: position suites labelled by the exact solver, and any
agent measured on them.

- :mod:`.format` — the suite format (``# donuts-suite 1``: layout, rules, moves, and the
  exact value of every legal move with its distance), :func:`load_suite` and the suites
  the library ships (:data:`SUITE_NAMES`: ``opening``, ``middlegame``, ``endgame``,
  ``critical``);
- :mod:`.generate` — how they are made (``python -m donuts_ai.suites generate``);
- :mod:`.evaluation` — :func:`evaluate`, an agent's moves checked against the labels,
  supervised, in parallel, resumable; ``donuts-ai evaluate`` on the command line.
"""

from __future__ import annotations

from .evaluation import Evaluation, EvaluationSettings, evaluate
from .format import SUITE_NAMES, MoveLabel, Suite, SuiteError, SuitePosition, load_suite, parse_suite
from .generate import generate, label_position
from .report import Scores

__all__ = ["SUITE_NAMES", "Evaluation", "EvaluationSettings", "MoveLabel", "Scores", "Suite", "SuiteError", "SuitePosition",
           "evaluate", "generate", "label_position", "load_suite", "parse_suite"]
