"""A learned agent: AlphaZero-style self-play with a JAX network and a Numba search
(the optional ``learn`` extra: ``pip install 'donuts_ai[learn]'``).

- :mod:`.network` — the policy/value network (Equinox): :class:`Network`, :func:`predict`.
- :mod:`.batched_search` — PUCT and Gumbel search over many games at once: :class:`BatchSearch`.
- :mod:`.prediction_cache` — predictions kept by canonical position: :class:`PredictionCache`.
- :mod:`.train` — self-play, replay buffer, training steps, checkpoints: :class:`Trainer`.
- :mod:`.workers` — self-play over workers, in this process or as Ray actors: :class:`RoundTrainer`.
- :mod:`.runs` — a run opened by its settings: :func:`open_trainer`, :func:`run_training`.
- :mod:`.teacher` — the exact solver labelling self-play positions: :class:`Teacher`.
- :mod:`.dataset`, :mod:`.distill`, :mod:`.supervised` — datasets of self-play or of perfect
  play (:func:`read_dataset`, :func:`distill`), and a network fitted to one alone.
- :mod:`.agent` — :class:`AlphaZeroAgent`, the agent spec ``az``.
- :mod:`.benchmark` — the network and the search measured against the solver: :func:`measure`.

Importing this package loads no JAX: each name loads its module when first used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names' types, for type checkers (at run time each loads on first use)
    from .agent import SHIPPED_NETWORK, AlphaZeroAgent
    from .batched_search import BatchSearch, GumbelResult, GumbelSettings, SearchResult, SolveSettings, playout_budgets, playout_cap
    from .benchmark import Accuracy, label_positions, load_positions, measure
    from .config import Progress, TrainConfig
    from .dataset import Dataset, DatasetRecord, read_dataset
    from .distill import DistillSettings, DistillSummary, distill
    from .errors import LearnError
    from .network import Network, NetworkConfig, load_network, new_network, predict, predict_wdl, save_network
    from .prediction_cache import PredictionCache
    from .runs import open_trainer, run_training
    from .teacher import Label, Teacher
    from .train import Trainer
    from .workers import RoundTrainer

_NAMES = {
    "Network": "network", "NetworkConfig": "network", "new_network": "network", "predict": "network",
    "save_network": "network", "load_network": "network", "predict_wdl": "network",
    "Teacher": "teacher", "Label": "teacher",
    "read_dataset": "dataset", "Dataset": "dataset", "DatasetRecord": "dataset",
    "distill": "distill", "DistillSummary": "distill", "DistillSettings": "distill",
    "BatchSearch": "batched_search", "SearchResult": "batched_search", "GumbelResult": "batched_search",
    "GumbelSettings": "batched_search", "SolveSettings": "batched_search",
    "playout_cap": "batched_search", "playout_budgets": "batched_search", "PredictionCache": "prediction_cache",
    "Trainer": "train", "TrainConfig": "config", "Progress": "config", "open_trainer": "runs", "run_training": "runs",
    "RoundTrainer": "workers",
    "AlphaZeroAgent": "agent", "SHIPPED_NETWORK": "agent",
    "label_positions": "benchmark", "load_positions": "benchmark", "measure": "benchmark",
    "Accuracy": "benchmark",
    "LearnError": "errors",
}

__all__ = [
    "Accuracy",
    "AlphaZeroAgent",
    "BatchSearch",
    "Dataset",
    "DatasetRecord",
    "DistillSettings",
    "DistillSummary",
    "GumbelResult",
    "GumbelSettings",
    "Label",
    "LearnError",
    "Network",
    "NetworkConfig",
    "PredictionCache",
    "Progress",
    "RoundTrainer",
    "SHIPPED_NETWORK",
    "SearchResult",
    "SolveSettings",
    "TrainConfig",
    "Teacher",
    "Trainer",
    "distill",
    "label_positions",
    "load_network",
    "load_positions",
    "measure",
    "new_network",
    "open_trainer",
    "playout_budgets",
    "playout_cap",
    "predict",
    "predict_wdl",
    "read_dataset",
    "run_training",
    "save_network",
]


# Lazy: importing every module here loads JAX and Equinox, 1540 ms of CPU more than this
# package alone (2050 ms against 510 ms, fresh processes), for every import of a submodule
# that needs neither: the command line imports :mod:`.cli` for ``donuts-ai train`` at start.
def __getattr__(name: str) -> Any:
    if name in _NAMES:
        return getattr(importlib.import_module(f"{__name__}.{_NAMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
