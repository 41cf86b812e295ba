"""The settings of a training run (:class:`TrainConfig`, saved in its checkpoints), the
line of progress it reports (:class:`Progress`), and the names of a run's files."""

from __future__ import annotations

import dataclasses
from typing import Any, TypedDict

from .._checks import check_int
from ..donuts.layout import LayoutSpec
from ..donuts.rules import INSERTION_MODES
from ..donuts.squares import NUM_SQUARES
from .batched_search import MAX_CONSIDERED, SOLVE_PLIES
from .errors import LearnError
from .network import NetworkConfig
from .teacher import DEFAULT_CACHE, DEFAULT_MIN_PLY, DEFAULT_NODES, TEACHER_MODES

#: Longest game: 36 placements (then the board is full).
MAX_PLIES = NUM_SQUARES
#: The self-play searches (:attr:`TrainConfig.search`).
SEARCHES = ("puct", "gumbel")
#: Files of a run's directory: the checkpoint (a folder, replaced whole; its name, and that
#: of a supervised run's last network, are :mod:`.network`'s, which finds a network in a
#: run), and one JSON line of progress per checkpoint.
PROGRESS = "progress.jsonl"
#: Files inside a checkpoint: settings and counters, arrays (replay buffer, games), optimizer.
SETTINGS_FILE, ARRAYS_FILE, OPTIMIZER_FILE = "train.json", "state.npz", "optimizer.eqx"
#: Most self-play workers of a run (TrainConfig.workers).
MAX_WORKERS = 1024
#: Most simulations a self-play move (the visits are kept as 16-bit counts for the dataset).
MAX_SELF_PLAY_SIMULATIONS = 65_535
#: Older names of settings -> their names now, read by :meth:`TrainConfig.from_json` only:
#: the settings an older run saved (a checkpoint's ``train.json``, the shipped network's
#: ``training.json``) name ``sims`` and ``fast_sims``.
RENAMED_SETTINGS = {"sims": "simulations", "fast_sims": "fast_simulations"}


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    """The settings of a training run (all saved in its checkpoints)."""

    seed: int = 0
    games: int = 128  # self-play games played at once (the network's batch in the search)
    simulations: int = 32  # simulations per self-play move
    layout: str = "random"  # layout spec of the self-play games (random tile arrangements)
    insertion: str = "group"
    donuts: int = 15
    network: NetworkConfig = NetworkConfig()
    batch_size: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    replay_capacity: int = 200_000
    min_replay: int = 4_096  # positions in the buffer before training starts
    train_steps: int = 2  # training steps per move (128 games x 4 uses / 256 a batch)
    temperature_plies: int = 8  # plies of each game whose move is drawn from the visits
    checkpoint_every: int = 100  # moves between checkpoints
    # The exact solver as teacher (see .teacher): "none" (self-play targets only), "solver"
    # or "mixed"; its node budget per position, the first ply it labels, its worker
    # threads, labels cached.
    teacher: str = "none"
    teacher_nodes: int = DEFAULT_NODES
    teacher_min_ply: int = DEFAULT_MIN_PLY
    teacher_threads: int = 1
    teacher_cache: int = DEFAULT_CACHE
    dataset: str | None = None  # a folder to write every self-play position into (see .dataset)
    # The network the run starts from instead of fresh weights (see network_in: a saved
    # network, a training run or a supervised run); its shape must be `network`.
    initial_network: str | None = None
    # The self-play search: "puct" (AlphaZero: Dirichlet noise, visit-count targets, the
    # first `temperature_plies` moves drawn from the visits) or "gumbel" (Gumbel root
    # selection with Sequential Halving, completed-Q policy targets, the move the search
    # chose: its Gumbel noise explores). With "gumbel": actions considered at the root,
    # the share of moves searched in full with `simulations` (playout-cap randomization: only
    # those become policy targets; the others get `fast_simulations`), and the plies left below
    # which the exact solver settles a leaf (0: only positions settled in one ply).
    search: str = "puct"
    gumbel_considered: int = MAX_CONSIDERED
    full_fraction: float = 1.0
    fast_simulations: int = 8
    solve_plies: int = SOLVE_PLIES
    # The share of self-play games that explore: every move of such a game is drawn from
    # its search's policy target (not only the first `temperature_plies`), so that the
    # positions the network learns from (and the teacher labels) reach off the main lines.
    # Drawn for each game as it starts; 0 (the default) draws nothing.
    explore_fraction: float = 0.0
    # Self-play spread over workers (see .workers): 0 (the default) plays and trains in turn
    # in one process, a move then `train_steps` steps; N plays in N workers, each with its
    # own `games` games, seeds and teacher, in rounds of `round_moves` moves with the network
    # the learner last sent them, while the learner trains on the round before
    # (`train_steps` steps per move of each worker: the same steps per position).
    workers: int = 0
    round_moves: int = 10
    def __post_init__(self) -> None:
        positive = ("games", "simulations", "batch_size", "replay_capacity", "min_replay", "checkpoint_every", "donuts",
                    "teacher_nodes", "teacher_threads", "round_moves")
        for name in (*positive, "seed", "train_steps", "temperature_plies", "teacher_cache", "teacher_min_ply", "workers"):
            value = getattr(self, name)
            check_int(f"TrainConfig.{name}", value, 1 if name in positive else 0, error=LearnError)
        check_int("TrainConfig.simulations", self.simulations, 1, MAX_SELF_PLAY_SIMULATIONS, error=LearnError)
        check_int("TrainConfig.teacher_threads", self.teacher_threads, 1, 64, error=LearnError)
        check_int("TrainConfig.workers", self.workers, 0, MAX_WORKERS, error=LearnError)
        if self.teacher not in TEACHER_MODES:
            raise LearnError(f"TrainConfig.teacher must be one of {', '.join(TEACHER_MODES)}, got {self.teacher!r}")
        if self.search not in SEARCHES:
            raise LearnError(f"TrainConfig.search must be one of {', '.join(SEARCHES)}, got {self.search!r}")
        check_int("TrainConfig.gumbel_considered", self.gumbel_considered, 1, NUM_SQUARES, error=LearnError)
        # A fast search has at most the full one's simulations (checked where they are used).
        check_int("TrainConfig.fast_simulations", self.fast_simulations, 1,
                  self.simulations if self.search == "gumbel" else MAX_SELF_PLAY_SIMULATIONS, error=LearnError)
        check_int("TrainConfig.solve_plies", self.solve_plies, 0, NUM_SQUARES, error=LearnError)
        fraction = self.full_fraction
        if isinstance(fraction, bool) or not isinstance(fraction, int | float) or not 0 < fraction <= 1:
            raise LearnError(f"TrainConfig.full_fraction must be a number in (0, 1], got {fraction!r}")
        fraction = self.explore_fraction
        if isinstance(fraction, bool) or not isinstance(fraction, int | float) or not 0 <= fraction <= 1:
            raise LearnError(f"TrainConfig.explore_fraction must be a number in [0, 1], got {fraction!r}")
        for name in ("dataset", "initial_network"):
            folder = getattr(self, name)
            if folder is not None and (not isinstance(folder, str) or not folder):
                raise LearnError(f"TrainConfig.{name} must be a folder's path or None, got {folder!r}")
        for name in ("learning_rate", "weight_decay"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1:
                raise LearnError(f"TrainConfig.{name} must be a number in [0, 1), got {value!r}")
        if self.insertion not in INSERTION_MODES:
            raise LearnError(f"TrainConfig.insertion must be one of {', '.join(INSERTION_MODES)}, got {self.insertion!r}")
        try:
            LayoutSpec(self.layout)
        except ValueError as exc:
            raise LearnError(f"TrainConfig.layout: {exc}") from None

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["network"] = self.network.to_json()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TrainConfig:
        """The settings saved by :meth:`to_json`; a setting missing (an older file) takes its
        default, and one saved under an older name (:data:`RENAMED_SETTINGS`) is read under
        its name now, silently."""
        data = dict(data)
        for old, new in RENAMED_SETTINGS.items():
            if old in data:
                if new in data:
                    raise LearnError(f"training settings name {new!r} twice: as {new!r} and as {old!r}, its older name")
                data[new] = data.pop(old)
        unknown = set(data) - {f.name for f in dataclasses.fields(cls)}
        if unknown:
            raise LearnError(f"unknown training settings: {', '.join(sorted(unknown))}")
        if "network" in data:
            data["network"] = NetworkConfig.from_json(data["network"])
        return cls(**data)


class Progress(TypedDict):
    """One line of a run's progress (``progress.jsonl``, and what :meth:`Trainer.run` reports)."""

    moves: int  # self-play moves (each one placement in every game)
    games: int  # self-play games finished
    positions: int  # positions put into the replay buffer
    train_steps: int
    seconds: float  # wall seconds of the run so far (all sessions of it)
    search_seconds: float  # in the compiled search (selection, expansion, backups)
    network_seconds: float  # in the network's predictions during the search
    train_seconds: float  # in training steps
    policy_loss: float  # mean over the training steps since the last line (NaN: none)
    value_loss: float
    policy_accuracy: float | None  # raw policy keeps the solver's value (the labelled positions), None if unmeasured
    value_accuracy: float | None  # value head's sign is right
    labelled: int  # positions put into the replay buffer with a teacher's label (settled or not)
    value_labels: int  # ... whose exact value the teacher settled
    policy_labels: int  # ... whose every move's value it settled (the policy label)
    label_seconds: float  # the teacher's solver threads' seconds, summed over its threads
    label_wait_seconds: float  # the self-play's own seconds on labels: asking for them, waiting for them
    explored_games: int  # games finished that explored (TrainConfig.explore_fraction)


def fresh_counters() -> Progress:
    return Progress(moves=0, games=0, positions=0, train_steps=0, seconds=0.0, search_seconds=0.0, network_seconds=0.0,
                    train_seconds=0.0, policy_loss=float("nan"), value_loss=float("nan"), policy_accuracy=None,
                    value_accuracy=None, labelled=0, value_labels=0, policy_labels=0, label_seconds=0.0,
                    label_wait_seconds=0.0, explored_games=0)
