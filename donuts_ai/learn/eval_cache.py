"""Deprecated since 0.5.0: the cache of the network's predictions moved to
:mod:`donuts_ai.learn.prediction_cache`, named by what it keeps (``EvaluationCache`` is
:class:`~.prediction_cache.PredictionCache`, ``Evaluator``
:data:`~.prediction_cache.Predictor`, ``evaluate_rows``
:func:`~.prediction_cache.predict_rows`). The old names still work here, with a
:class:`DeprecationWarning`, until 0.6."""

from __future__ import annotations

import warnings
from typing import Any

from . import prediction_cache as _prediction_cache

#: Old name here -> its name in :mod:`donuts_ai.learn.prediction_cache` (the others kept theirs).
_RENAMED = {"EvaluationCache": "PredictionCache", "Evaluator": "Predictor", "evaluate_rows": "predict_rows"}


def __getattr__(name: str) -> Any:
    new = _RENAMED.get(name, name)
    if name.startswith("_") or not hasattr(_prediction_cache, new):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r} (the cache is donuts_ai.learn.prediction_cache)")
    warnings.warn(f"donuts_ai.learn.eval_cache.{name} is deprecated since 0.5.0: use "
                  f"donuts_ai.learn.prediction_cache.{new}", DeprecationWarning, stacklevel=2)
    return getattr(_prediction_cache, new)
