"""A learned agent: AlphaZero-style self-play with a JAX network and a Numba search
(the optional ``learn`` extra: ``pip install 'donuts_ai[learn]'``).

- :mod:`.network` — the policy/value network (Equinox): :class:`Network`, :class:`NetworkConfig`.
- :mod:`.search` — PUCT over many games at once, leaves evaluated in batches: :class:`BatchSearch`.
- :mod:`.train` — self-play, replay buffer, training steps, checkpoints: :class:`Trainer`, :func:`train`.
- :mod:`.agent` — :class:`AlphaZeroAgent`, the agent spec ``az``.
- :mod:`.benchmark` — the network and the search measured against the exact solver: :func:`measure`.

Importing this package loads no JAX: each name loads its module when first used.
"""

from __future__ import annotations

import importlib
from typing import Any

_NAMES = {
    "Network": "network", "NetworkConfig": "network", "new_network": "network", "evaluate": "network",
    "save_network": "network", "load_network": "network",
    "BatchSearch": "search", "SearchResult": "search",
    "Trainer": "train", "TrainConfig": "train", "Progress": "train", "train": "train",
    "AlphaZeroAgent": "agent", "SHIPPED_NETWORK": "agent",
    "LabelledPosition": "benchmark", "label_positions": "benchmark", "load_positions": "benchmark", "measure": "benchmark",
    "Accuracy": "benchmark",
    "LearnError": "errors",
}

__all__ = sorted(_NAMES)


def __getattr__(name: str) -> Any:
    if name in _NAMES:
        return getattr(importlib.import_module(f"{__name__}.{_NAMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
