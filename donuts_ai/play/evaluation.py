"""Deprecated since 0.5.0: the analysis for people moved to :mod:`donuts_ai.play.analysis`,
its records named by what they are (``MoveEval`` is :class:`~.analysis.MoveAnalysis`,
``PositionEval`` :class:`~.analysis.PositionAnalysis`, ``Analyst.evaluate``
:meth:`~.analysis.Analyst.analyze`). The old names still work here, with a
:class:`DeprecationWarning`, until 0.6."""

from __future__ import annotations

import warnings
from typing import Any

from . import analysis as _analysis

#: Old name here -> its name in :mod:`donuts_ai.play.analysis` (the others kept theirs).
_RENAMED = {"MoveEval": "MoveAnalysis", "MoveEvalJSON": "MoveAnalysisJSON", "PositionEval": "PositionAnalysis",
            "PositionEvalJSON": "PositionAnalysisJSON"}


def __getattr__(name: str) -> Any:
    new = _RENAMED.get(name, name)
    if name.startswith("_") or new not in _analysis.__all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r} (the analysis is donuts_ai.play.analysis)")
    warnings.warn(f"donuts_ai.play.evaluation.{name} is deprecated since 0.5.0: use donuts_ai.play.analysis.{new}",
                  DeprecationWarning, stacklevel=2)
    return getattr(_analysis, new)
