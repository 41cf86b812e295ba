"""A training run opened by its settings, whichever kind it is: :func:`open_trainer` gives a
:class:`~.train.Trainer` (self-play and training in turn in one process) or a
:class:`~.workers.RoundTrainer` (self-play in workers, here or on Ray), and
:func:`run_training` opens one, trains it for a while and closes it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .config import Progress, TrainConfig
from .errors import LearnError
from .network import Network
from .train import Trainer, read_checkpoint
from .workers import TRAIN_BACKENDS, RoundTrainer


def open_trainer(out: str | Path, config: TrainConfig | None = None, *, resume: bool = False, backend: str = "local",
                 address: str | None = None) -> Trainer | RoundTrainer:
    """The run in ``out``: started with ``config`` (``out`` must hold no run), or with
    ``resume`` continued from its last checkpoint with its own settings. A
    :class:`~.train.Trainer` for a run in one process, a :class:`~.workers.RoundTrainer` for one
    whose self-play plays in workers (``config.workers``), on ``backend`` ("local": in this
    process; "ray": Ray actors, on the cluster at ``address`` if given). Nothing runs yet."""
    if backend not in TRAIN_BACKENDS:
        raise LearnError(f"backend must be one of {', '.join(TRAIN_BACKENDS)}, got {backend!r}")
    if address is not None and backend != "ray":
        raise LearnError("an address is a Ray cluster's: it needs backend 'ray'")
    config = read_checkpoint(out)[2] if resume else config or TrainConfig()
    if config.workers:
        if resume:
            return RoundTrainer.resume(out, backend=backend, address=address)
        return RoundTrainer(out, config, backend=backend, address=address)
    if backend != "local":
        raise LearnError(f"backend {backend!r} plays the self-play in workers, and the run "
                         f"{'in ' + repr(str(out)) + ' ' if resume else ''}has none (workers 0)")
    return Trainer.resume(out) if resume else Trainer(out, config)


def run_training(out: str | Path, config: TrainConfig | None = None, *, minutes: float | None = None,
                 moves: int | None = None, resume: bool = False, report: Callable[[Progress], None] | None = None,
                 measure: Callable[[Network], tuple[float, float]] | None = None, backend: str = "local",
                 address: str | None = None) -> Trainer | RoundTrainer:
    """Start (or with ``resume``, continue) the run in ``out`` (:func:`open_trainer`) and
    train for ``minutes`` or up to ``moves`` moves. Returns the trainer (its
    :attr:`network`), closed."""
    trainer = open_trainer(out, config, resume=resume, backend=backend, address=address)
    try:
        trainer.run(minutes=minutes, moves=moves, report=report, measure=measure)
    finally:
        trainer.close()
    return trainer
