"""The network taught by the solver alone: supervised training on a dataset of perfect
play (:mod:`.distill`; issue 40, item 2).

:func:`fit` trains a fresh network (the same network and heads as ``donuts-ai train``) on
the positions of a dataset whose value the solver settled: the value target is that value,
the policy target uniform over the squares keeping it (where every move was settled; a
position whose moves were not all settled teaches the value only). Batches are drawn with
replacement, each position under a random symmetry of the board, from a generator seeded
by ``seed``; the optimizer is ``train``'s (AdamW). Every ``checkpoint_every`` steps the
network is saved (``out/step-NNNNNNNN``) and a row is added to ``out/curve.json``: the
step, the positions drawn so far, the seconds spent training (measuring apart), the mean
losses since the last row and, when ``positions`` are given (say
:func:`~.benchmark.probe_positions`), the accuracy of :func:`~.benchmark.measure` on them.
``out/network`` is the last network (what a run's path names where a network is asked
for, :func:`~.network.network_in`) and ``out/training.json``, written before the first
step, what made it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import equinox as eqx
import numpy as np

from .._checks import check_int
from ..donuts.symmetry import NUM_SYMMETRIES
from ..outcomes import UNKNOWN
from .agent import root_record
from .buffer import LABELLED, POLICY_KNOWN, SAMPLE, VALUE_KNOWN, samples_of_games
from .config import TrainConfig
from .dataset import Dataset, read_dataset
from .errors import LearnError
from .network import FINAL_NETWORK, Network, NetworkConfig, new_network, save_network
from .train import make_optimizer, train_step, training_batch

#: The file of the training curve, a row a checkpoint.
CURVE_FILE = "curve.json"


@dataclass(frozen=True)
class FitConfig:
    """The settings of a supervised run (saved in its ``training.json``)."""

    steps: int = 2_000
    batch_size: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    network: NetworkConfig = field(default_factory=lambda: NetworkConfig(value_head="wdl"))
    checkpoint_every: int = 500
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("steps", "batch_size", "checkpoint_every"):
            check_int(f"FitConfig.{name}", getattr(self, name), 1, error=LearnError)
        for name in ("learning_rate", "weight_decay"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
                raise LearnError(f"FitConfig.{name} must be a number >= 0, got {value!r}")
        if not isinstance(self.network, NetworkConfig):
            raise LearnError(f"FitConfig.network must be a NetworkConfig, got {type(self.network).__name__}")


def samples_of(data: Dataset) -> np.ndarray:
    """The positions of ``data`` whose value is settled, as :data:`~.buffer.SAMPLE` records
    (the game's result in ``value``, the solver's label in the ``label_*`` fields, the
    policy uniform over the squares keeping the value where all were settled)."""
    a = data.arrays
    rows = np.flatnonzero(a["label"] != UNKNOWN)
    if len(rows) == 0:
        return np.zeros(0, dtype=SAMPLE)
    out = samples_of_games(np.concatenate([root_record(data[row].board()) for row in rows.tolist()]))
    keep = a["keep"][rows]
    out["policy"] = a["policy"][rows]
    out["value"] = a["result"][rows]
    out["label_value"] = a["label"][rows]
    out["label_keep"] = keep
    out["label_nodes"] = a["nodes"][rows]
    out["label_flags"] = LABELLED | VALUE_KNOWN | np.where(keep != 0, POLICY_KNOWN, 0).astype(np.uint8)
    return out


def fit(dataset: str | Path | Dataset, out: str | Path, config: FitConfig | None = None, *,
        positions: Sequence[Any] | None = None, report: Callable[[dict[str, Any]], None] | None = None) -> Network:
    """Train a fresh network on ``dataset`` (a folder or a read :class:`~.dataset.Dataset`)
    into the folder ``out`` (see the module); returns the last network. ``report`` gets
    each row of the curve as it is made."""
    config = FitConfig() if config is None else config
    if not isinstance(config, FitConfig):
        raise LearnError(f"config must be a FitConfig, got {type(config).__name__}")
    data = dataset if isinstance(dataset, Dataset) else read_dataset(dataset)
    out = Path(out)
    if (out / CURVE_FILE).exists():
        raise LearnError(f"{str(out)!r} holds a run already: choose another folder")
    samples = samples_of(data)
    if len(samples) == 0:
        raise LearnError("the dataset has no position with a settled value")
    from .benchmark import measure  # the search's modules load only here

    out.mkdir(parents=True, exist_ok=True)
    train = TrainConfig(learning_rate=config.learning_rate, weight_decay=config.weight_decay, network=config.network,
                        insertion=data.rules.insertion, donuts=data.rules.donuts)
    optimizer = make_optimizer(train)
    network = new_network(config.network, seed=config.seed)
    opt_state = optimizer.init(eqx.filter(network, eqx.is_array))
    # What makes the network, written first: a run stopped early still says it.
    (out / "training.json").write_text(json.dumps({
        "source": "supervised", "config": {**asdict(config), "network": config.network.to_json()},
        "dataset": {"meta": {k: v for k, v in data.meta.items() if k != "fields"}, "positions": len(data),
                    "settled": len(samples)},
    }, indent=1) + "\n")
    rng = np.random.default_rng(config.seed)
    curve: list[dict[str, Any]] = []
    losses: list[tuple[float, float]] = []
    start, measuring = time.perf_counter(), 0.0
    for step in range(1, config.steps + 1):
        drawn = samples[rng.integers(0, len(samples), size=config.batch_size)]
        symmetries = rng.integers(0, NUM_SYMMETRIES, size=config.batch_size)
        batch = training_batch(drawn, data.rules.donuts, symmetries, "solver")
        network, opt_state, policy_loss, value_loss = train_step(network, opt_state, optimizer, batch)
        losses.append((policy_loss, value_loss))
        if step % config.checkpoint_every == 0 or step == config.steps:
            row: dict[str, Any] = {"step": step, "positions": step * config.batch_size,
                                   "seconds": time.perf_counter() - start - measuring,
                                   "policy_loss": float(np.mean([p for p, _ in losses])),
                                   "value_loss": float(np.mean([v for _, v in losses]))}
            losses = []
            save_network(network, out / f"step-{step:08d}")
            if positions:  # its time is not the training's
                began = time.perf_counter()
                row["accuracy"] = dict(measure(network, list(positions)))
                measuring += time.perf_counter() - began
            curve.append(row)
            (out / CURVE_FILE).write_text(json.dumps(curve, indent=1) + "\n")
            if report is not None:
                report(row)
    save_network(network, out / FINAL_NETWORK)
    return network


__all__ = ["CURVE_FILE", "FitConfig", "fit", "samples_of"]
