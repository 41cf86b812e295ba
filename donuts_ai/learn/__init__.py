"""A learned agent: AlphaZero-style self-play with a JAX network and a Numba search
(the optional ``learn`` extra: ``pip install 'donuts_ai[learn]'``).

- :mod:`.network` — the policy/value network (Equinox): :class:`Network`, :class:`NetworkConfig`,
  its forward pass over a batch: :func:`predict`, :func:`predict_wdl`.
- :mod:`.batched_search` — PUCT and Gumbel search over many games at once, the network asked
  about the leaves in batches: :class:`BatchSearch` (:meth:`~BatchSearch.run`,
  :meth:`~BatchSearch.run_gumbel`), :func:`playout_cap`.
- :mod:`.prediction_cache` — the network's predictions kept by symmetry-canonical position:
  :class:`PredictionCache`.
- :mod:`.train` — self-play, replay buffer, training steps, checkpoints: :class:`Trainer`.
- :mod:`.workers` — self-play spread over workers, in this process or as Ray actors across
  a cluster, feeding one learner: :class:`RoundTrainer`.
- :mod:`.runs` — a run opened by its settings, whichever kind: :func:`open_trainer`,
  :func:`run_training`.
- :mod:`.teacher` — the exact solver labelling self-play positions, and the targets made
  from its labels: :class:`Teacher`, :class:`Label`.
- :mod:`.dataset` — self-play positions written as a dataset, and read back: :func:`read_dataset`.
- :mod:`.distill` — a dataset of perfect play: varied games' positions labelled by the
  exact solver, no self-play: :func:`distill`, :class:`DistillSummary`.
- :mod:`.supervised` — a network trained on such a dataset alone:
  :func:`~.supervised.fit`, :class:`~.supervised.FitConfig`.
- :mod:`.agent` — :class:`AlphaZeroAgent`, the agent spec ``az``.
- :mod:`.benchmark` — the network and the search measured against the exact solver on the
  position suites (:mod:`donuts_ai.suites`): :func:`measure`.

Importing this package loads no JAX: each name loads its module when first used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names' types, for type checkers (at run time each loads on first use)
    from .agent import SHIPPED_NETWORK, AlphaZeroAgent
    from .batched_search import BatchSearch, GumbelResult, SearchResult, playout_budgets, playout_cap
    from .benchmark import Accuracy, label_positions, load_positions, measure
    from .config import Progress, TrainConfig
    from .dataset import Dataset, DatasetRecord, read_dataset
    from .distill import DistillSummary, distill
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
    "distill": "distill", "DistillSummary": "distill",
    "BatchSearch": "batched_search", "SearchResult": "batched_search", "GumbelResult": "batched_search",
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
    "DistillSummary",
    "GumbelResult",
    "Label",
    "LearnError",
    "Network",
    "NetworkConfig",
    "PredictionCache",
    "Progress",
    "RoundTrainer",
    "SHIPPED_NETWORK",
    "SearchResult",
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


def __getattr__(name: str) -> Any:
    if name in _NAMES:
        return getattr(importlib.import_module(f"{__name__}.{_NAMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
