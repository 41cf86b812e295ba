"""The exact solver as the learner's teacher: self-play positions labelled where the
solver settles them within a node budget, and the training targets made from the labels.

A label (:class:`Label`) of a position is what the solver (one thread, a fresh table)
finds within ``nodes`` nodes, spent on the legal moves in square order: the position's
exact value for the side to move when every move was settled or a settled move wins,
the squares keeping it when every move was settled, and the nodes spent.

A label is a pure function of the position, the rules and the budget: the solver starts
each position with an empty table and fresh move-ordering memory, and the position is
labelled in its canonical image under the board's symmetries (:func:`canonical`), the
squares mapped back. So every image of a position gets the same label (the cache by
canonical key is exact), and a run gets the same labels whatever the threads' timing:
a seeded run repeats, and a resumed run equals one never stopped.

:func:`targets` makes the training targets under the run's ``teacher`` (``"none"``,
``"solver"`` or ``"mixed"``). :class:`Teacher` labels positions in worker threads beside
the self-play (``threads`` solvers of one thread each; the Numba search releases the
GIL), caching the labels by canonical key (least recently used out first)."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .._bits import ONE
from .._checks import check_int
from ..donuts.alphabeta.solver import Solver
from ..donuts.canonical import CanonicalPosition, bitboard_image, canonical_positions
from ..donuts.rules import Rules
from ..donuts.squares import NUM_SQUARES
from ..donuts.symmetry import SYMMETRY_NAMES, inverse
from ..outcomes import WIN
from .buffer import LABELLED, POLICY_KNOWN, VALUE_KNOWN
from .dataset import board_of
from .errors import LearnError

#: The teachers a run may have (:attr:`~.config.TrainConfig.teacher`).
TEACHER_MODES = ("none", "solver", "mixed")
#: Solver nodes per position by default: on one core a few milliseconds; the share of
#: positions it settles by ply is in ``benchmarks/RESULTS.md`` ("The solver as teacher").
DEFAULT_NODES = 20_000
#: The first ply whose positions a training run labels by default
#: (:attr:`~.config.TrainConfig.teacher_min_ply`): at 20,000 nodes a position of plies 0-3
#: took 3.3 ms on average and was settled 9% of the time, one of plies 4-7 2.1 ms and 71%,
#: later ones under 0.6 ms and 99-100% (``benchmarks/RESULTS.md`` ("The solver as teacher")): the first
#: four plies would take half of the teacher's time for a few labels.
DEFAULT_MIN_PLY = 4
#: The teacher's solvers' tables: 2**16 entries (1.5 MiB), ample for a budget of tens of
#: thousands of nodes, and cheap to make afresh for every position.
TEACHER_TT_BITS = 16
#: Labels kept by default (about 200 bytes each).
DEFAULT_CACHE = 200_000
#: ``"mixed"``: the solver's share of the policy target in a settled critical position.
MIXED_SOLVER_SHARE = 0.5

_BITS = np.arange(NUM_SQUARES, dtype=np.uint64)

# The canonical image a position is labelled in: defined in donuts.canonical, under the
# teacher's names (distill and the benchmarks import them from here).
#: The least image of a position under the 8 board symmetries (see :func:`canonical`).
Canonical = CanonicalPosition
#: Each record's least image under the 8 board symmetries, layout and donuts together.
canonical = canonical_positions


@dataclass(frozen=True)
class Label:
    """What the solver settled of one position (see the module)."""

    value: int | None  # +1 / 0 / -1 for the side to move; None: not settled
    keep: int | None  # bitboard of the squares keeping the value; None unless every move was settled
    nodes: int  # solver nodes spent

    @property
    def flags(self) -> int:
        """The :data:`~.buffer.SAMPLE` ``label_flags`` of this label."""
        return LABELLED | (VALUE_KNOWN if self.value is not None else 0) | (POLICY_KNOWN if self.keep is not None else 0)


def label_position(solver: Solver, position: Canonical, rules: Rules, nodes: int) -> Label:
    """The label (in the frame of ``position`` itself) of one position within ``nodes``
    solver nodes, by ``solver`` (one thread; its table is cleared first)."""
    board = board_of(position.directions, position.own, position.opp, 0, position.last,
                     placed=(position.placed_own, position.placed_opp), rules=rules)
    solver.clear()  # a fresh table and move-ordering memory: the label depends on the position alone
    start = solver.nodes
    legal = board.legal_squares()
    values: dict[int, int] = {}
    for sq in legal:
        left = nodes - (solver.nodes - start)
        if left <= 0:
            break
        value = solver.move_value(board, sq, node_limit=left)
        if value is None:
            break
        values[sq] = value
    spent = solver.nodes - start
    if len(values) == len(legal):
        best = max(values.values())
        return Label(best, sum(1 << sq for sq, v in values.items() if v == best), spent)
    if WIN in values.values():
        return Label(WIN, None, spent)
    return Label(None, None, spent)


def _label_canonical(position: Canonical, rules: Rules, nodes: int, local: threading.local) -> tuple[Label, float]:
    solver = getattr(local, "solver", None)
    if solver is None:
        solver = local.solver = Solver(tt_bits=TEACHER_TT_BITS, threads=1)
    start = time.perf_counter()
    label = label_position(solver, position, rules, nodes)
    return label, time.perf_counter() - start


class Pending:
    """A label asked of a :class:`Teacher` (:meth:`Teacher.submit`): :meth:`Teacher.resolve` gives it."""

    __slots__ = ("canonical", "future", "label")

    def __init__(self, canonical: Canonical, future: Future[tuple[Label, float]] | None, label: Label | None):
        self.canonical, self.future, self.label = canonical, future, label


class Teacher:
    """Labels positions by the exact solver within ``nodes`` nodes each (see the module),
    in ``threads`` worker threads, keeping up to ``cache`` labels by canonical key.

    :meth:`submit` asks for the labels of records (it returns at once), :meth:`resolve`
    waits for one; :meth:`label` does both. The labels do not depend on the threads'
    timing. Call :meth:`close` when done (the threads end)."""

    def __init__(self, rules: Rules, nodes: int = DEFAULT_NODES, threads: int = 1, cache: int = DEFAULT_CACHE):
        self.rules = rules
        self.nodes = check_int("teacher nodes", nodes, 1, 1 << 40, error=LearnError)
        self.threads = check_int("teacher threads", threads, 1, 64, error=LearnError)
        self.cache_size = check_int("teacher cache", cache, 0, 1 << 40, error=LearnError)
        self._cache: OrderedDict[bytes, Label] = OrderedDict()
        self._running: dict[bytes, Future[tuple[Label, float]]] = {}
        self._local = threading.local()
        self._pool: ThreadPoolExecutor | None = None
        #: Figures: labels made by the solver, asked labels found in the cache or already
        #: being made, and the solver threads' seconds (summed over the threads).
        self.solved = 0
        self.cache_hits = 0
        self.seconds = 0.0

    def _executor(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="donuts-teacher")
        return self._pool

    def submit(self, records: np.ndarray) -> list[Pending]:
        """Ask for the labels of ``records`` (fields as :func:`canonical`'s), one
        :class:`Pending` each; the solver threads start on those not cached."""
        out = []
        for position in canonical(records):
            key = position.key
            cached = self._cache.get(key)
            if cached is not None:
                self._cache.move_to_end(key)
                self.cache_hits += 1
                out.append(Pending(position, None, cached))
                continue
            future = self._running.get(key)
            if future is None:
                future = self._executor().submit(_label_canonical, position, self.rules, self.nodes, self._local)
                self._running[key] = future
            else:
                self.cache_hits += 1
            out.append(Pending(position, future, None))
        return out

    def resolve(self, pending: Pending) -> Label:
        """The label asked by :meth:`submit`, in the frame of the position asked (waits
        for the solver when it is still at work)."""
        label = pending.label
        if label is None:
            assert pending.future is not None
            label, seconds = pending.future.result()
            key = pending.canonical.key
            if self._running.pop(key, None) is not None:  # the first to resolve it
                self.solved += 1
                self.seconds += seconds
                if self.cache_size:
                    self._cache[key] = label
                    if len(self._cache) > self.cache_size:
                        self._cache.popitem(last=False)
            pending.future, pending.label = None, label
        symmetry = pending.canonical.symmetry
        if label.keep is None or symmetry == 0:
            return label
        # The squares of the canonical image's frame mapped back: the inverse symmetry's image.
        return Label(label.value, bitboard_image(label.keep, inverse(SYMMETRY_NAMES[symmetry])), label.nodes)

    def label(self, records: np.ndarray) -> list[Label]:
        """The labels of ``records``, waiting for all of them."""
        return [self.resolve(p) for p in self.submit(records)]

    def close(self) -> None:
        """End the worker threads (after the labels being made); a later :meth:`submit` starts them again."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None


def write_labels(samples: np.ndarray, labels: list[Label]) -> None:
    """Write ``labels`` into the label fields of ``samples`` (:data:`~.buffer.SAMPLE`), row by row."""
    for i, label in enumerate(labels):
        samples["label_flags"][i] = label.flags
        samples["label_value"][i] = 0 if label.value is None else label.value
        samples["label_keep"][i] = 0 if label.keep is None else label.keep
        samples["label_nodes"][i] = label.nodes


def keep_flags(samples: np.ndarray) -> npt.NDArray[np.bool_]:
    """``bool[n, 36]``: the squares of each sample's ``label_keep``."""
    return ((samples["label_keep"][:, None] >> _BITS) & ONE).astype(np.bool_)


def targets(samples: np.ndarray, teacher: str) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The training targets of ``samples`` under ``teacher``.

    - ``"none"``: the self-play's: the visit distribution, the game's result.
    - ``"solver"``: the value target is the exact value where it is known (the result
      elsewhere). The policy target, where every move was settled and some legal move does
      **not** keep the value (a *critical* position, as :mod:`.benchmark` counts them), is
      uniform over the moves that keep it; elsewhere the visits. Uniform, not fastest wins
      weighted: a distance costs many times a value's nodes, so fewer positions would
      settle within a budget, and every game ends within 36 plies, so a player who keeps
      a won value wins without hurrying. Where every move keeps it (a lost position, or
      every move wins) the solver says nothing about which move to prefer, and the visits
      stay the target.
    - ``"mixed"``: the value as ``"solver"``; the policy target in a settled critical
      position is the mean of the visits and the solver's uniform target
      (:data:`MIXED_SOLVER_SHARE`): the search's preference among the value-keeping moves
      is kept, and the losing moves get at most half of their visit share.

    Args:
        samples: :data:`~.buffer.SAMPLE` records, their labels written.
        teacher: one of :data:`TEACHER_MODES`.

    Returns:
        ``(policy float32[n, 36], value float32[n])``.

    Raises:
        LearnError: an unknown ``teacher``.
    """
    if teacher not in TEACHER_MODES:
        raise LearnError(f"teacher must be one of {', '.join(TEACHER_MODES)}, got {teacher!r}")
    policy = samples["policy"].astype(np.float32)
    value = samples["value"].astype(np.float32)
    if teacher == "none":
        return policy, value
    flags = samples["label_flags"]
    value = np.where((flags & VALUE_KNOWN) != 0, samples["label_value"].astype(np.float32), value).astype(np.float32)
    keep = keep_flags(samples)
    critical = ((flags & POLICY_KNOWN) != 0) & (samples["label_keep"] != samples["legal"])
    solver_policy = keep / np.maximum(keep.sum(axis=1, keepdims=True), 1)
    if teacher == "mixed":
        solver_policy = MIXED_SOLVER_SHARE * solver_policy + (1.0 - MIXED_SOLVER_SHARE) * policy
    policy = np.where(critical[:, None], solver_policy, policy).astype(np.float32)
    return policy, value


def label_counts(samples: np.ndarray) -> tuple[int, int, int]:
    """``(labelled, value known, policy known)``: how many of ``samples`` have each."""
    flags = samples["label_flags"]
    return int(((flags & LABELLED) != 0).sum()), int(((flags & VALUE_KNOWN) != 0).sum()), int(((flags & POLICY_KNOWN) != 0).sum())


