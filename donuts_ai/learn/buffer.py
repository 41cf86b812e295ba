"""Self-play positions, kept compactly, and the training batches made from them.

A position the self-play searched is one :data:`SAMPLE` record: the position from its side
to move (bitboards and counts, about 80 bytes, not its 1.9 kB of planes), the search's
visit distribution (the policy target), once its game ends the result for that side
(the value target), and the exact solver's label where the run has a teacher
(:mod:`.teacher`: the value, the squares that keep it, the nodes it took; the flags say
which of them are known). The record keeps what was searched and what the solver said
apart: the training targets are made from them when a batch is drawn
(:func:`~.teacher.targets`). :class:`ReplayBuffer` is a ring of the latest ``capacity`` samples;
:func:`batch_planes` turns sampled records into the network's planes, each under a random
one of the board's 8 symmetries (which map a game to the same game, lines turned: see
:mod:`donuts_ai.donuts.symmetry`), so that every position teaches eight.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from ..donuts.planes import LINE_DIRECTIONS, NUM_DIRECTIONS, NUM_PLANES, mover_view, write_planes
from ..donuts.squares import FULL_BOARD, NUM_SQUARES, SIZE
from ..donuts.symmetry import DIRECTION_IMAGE, SQUARE_IMAGE

#: One searched position.
SAMPLE = np.dtype(
    [
        ("own", np.uint64),  # the side to move's donuts
        ("opp", np.uint64),
        ("forced", np.uint64),  # the forced line's empty squares (0: an open pick)
        ("legal", np.uint64),
        ("last", np.int64),
        ("placed_own", np.int64),
        ("placed_opp", np.int64),
        ("color", np.int64),  # the side to move
        ("directions", np.int8, (NUM_SQUARES,)),  # the layout's printed lines
        ("policy", np.float32, (NUM_SQUARES,)),  # the search's visit distribution
        ("value", np.float32),  # the game's result for the side to move: +1, 0, -1
        ("label_flags", np.uint8),  # LABELLED | VALUE_KNOWN | POLICY_KNOWN (0: no label)
        ("label_value", np.int8),  # the exact value for the side to move, when VALUE_KNOWN
        ("label_keep", np.uint64),  # the squares that keep it, when POLICY_KNOWN
        ("label_nodes", np.int64),  # solver nodes the label took (when LABELLED)
    ],
    align=True,
)
#: :data:`SAMPLE`'s ``label_flags``: the solver looked at the position; it settled its value;
#: it settled every legal move's value (so ``label_keep`` is the whole set keeping the value).
LABELLED, VALUE_KNOWN, POLICY_KNOWN = 1, 2, 4


@njit(cache=True)
def write_sample_planes(samples: np.ndarray, donuts: int, out: npt.NDArray[np.float32]) -> None:
    """The planes of every sample, seen by its side to move, into ``out`` (``float32[n, 36,
    NUM_PLANES]``, a view of ``(n, 6, 6, NUM_PLANES)``)."""
    for i in range(samples.shape[0]):
        s = samples[i]
        write_planes(out[i], mover_view(s.own, s.opp, s.last, s.forced, s.placed_own, s.placed_opp, s.color, donuts),
                      s.directions)


def sample_planes(samples: np.ndarray, donuts: int) -> npt.NDArray[np.float32]:
    """``float32[n, 6, 6, 13]``: the planes of ``samples`` (:data:`SAMPLE` records)."""
    out = np.empty((len(samples), SIZE, SIZE, NUM_PLANES), dtype=np.float32)
    write_sample_planes(samples, donuts, out.reshape(len(samples), NUM_SQUARES, NUM_PLANES))
    return out


def as_samples(records: np.ndarray) -> np.ndarray:
    """``records`` as :data:`SAMPLE` records: themselves when they are, else a copy with the
    fields they share (an older checkpoint has no label fields: those are
    left at 0, no label)."""
    if records.dtype == SAMPLE:
        return records
    out = np.zeros(records.shape, dtype=SAMPLE)
    for name in records.dtype.names or ():
        if name in (SAMPLE.names or ()):
            out[name] = records[name]
    return out


def legal_flags(records: np.ndarray) -> npt.NDArray[np.bool_]:
    """``bool[n, 36]``: the legal squares of each record with a ``legal`` bitboard field
    (samples, the search's root records)."""
    shifts = np.arange(NUM_SQUARES, dtype=np.uint64)
    return ((records["legal"][:, None] >> shifts) & np.uint64(1)).astype(np.bool_)


def symmetric(planes: npt.NDArray[np.float32], policy: npt.NDArray[np.float32], legal: npt.NDArray[np.bool_],
              symmetry: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
    """Row ``i`` of ``planes`` (``[n, 6, 6, 13]``), ``policy`` and ``legal`` (``[n, 36]``)
    under symmetry ``symmetry[i]`` (an index of :data:`~donuts_ai.donuts.symmetry.SYMMETRY_NAMES`):
    squares moved, and the printed-line planes turned with them."""
    n = len(planes)
    flat = planes.reshape(n, NUM_SQUARES, NUM_PLANES)
    images = SQUARE_IMAGE[symmetry]  # (n, 36): where each square goes
    rows = np.arange(n)[:, None]
    out = np.empty_like(flat)
    out[rows, images] = flat
    turned = out[:, :, LINE_DIRECTIONS:LINE_DIRECTIONS + NUM_DIRECTIONS].copy()
    channels = LINE_DIRECTIONS + DIRECTION_IMAGE[symmetry]  # (n, 4): where each direction plane goes
    out[rows[:, :, None], np.arange(NUM_SQUARES)[None, :, None], channels[:, None, :]] = turned
    new_policy = np.empty_like(policy)
    new_policy[rows, images] = policy
    new_legal = np.empty_like(legal)
    new_legal[rows, images] = legal
    return out.reshape(planes.shape), new_policy, new_legal


class ReplayBuffer:
    """A ring of the latest ``capacity`` samples (:data:`SAMPLE`)."""

    def __init__(self, capacity: int):
        self.samples = np.zeros(capacity, dtype=SAMPLE)
        self.size = 0  # samples held
        self.next = 0  # where the next one goes
        self.added = 0  # samples ever added

    @property
    def capacity(self) -> int:
        return len(self.samples)

    def add(self, samples: np.ndarray) -> None:
        """Append ``samples``, overwriting the oldest once full."""
        for start in range(0, len(samples), self.capacity):
            chunk = samples[start:start + self.capacity]
            end = self.next + len(chunk)
            if end <= self.capacity:
                self.samples[self.next:end] = chunk
            else:
                head = self.capacity - self.next
                self.samples[self.next:] = chunk[:head]
                self.samples[:end - self.capacity] = chunk[head:]
            self.next = end % self.capacity
            self.size = min(self.capacity, self.size + len(chunk))
            self.added += len(chunk)

    def draw(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """``count`` samples drawn uniformly with replacement (the buffer is not empty)."""
        return self.samples[rng.integers(0, self.size, size=count)]

    def state(self) -> dict[str, np.ndarray]:
        """Arrays to save (:meth:`restore` takes them back)."""
        return {"replay_samples": self.samples[:self.size] if self.size < self.capacity else self.samples,
                "replay_counters": np.array([self.size, self.next, self.added], dtype=np.int64)}

    def restore(self, state: dict[str, np.ndarray]) -> None:
        size, next_, added = (int(x) for x in state["replay_counters"])
        samples = as_samples(state["replay_samples"])
        self.samples[:len(samples)] = samples
        self.size, self.next, self.added = size, next_, added


def samples_of_games(games: np.ndarray) -> np.ndarray:
    """:data:`SAMPLE` records of ``games`` (:data:`~donuts_ai.donuts.planes.SEARCH_ROOT`
    records): each position, its legal squares and its forced line (the empty squares of
    the line through the last donut; 0 before the first), with no targets and no label."""
    at = np.zeros(len(games), dtype=SAMPLE)
    for field in ("own", "opp", "legal", "last", "placed_own", "placed_opp", "color", "directions"):
        at[field] = games[field]
    empty = np.uint64(FULL_BOARD) & ~(games["own"] | games["opp"])
    last = games["last"]
    on_line = games["line_masks"][np.arange(len(games)), np.maximum(last, 0)] & empty
    at["forced"] = np.where(last >= 0, on_line, np.uint64(0))
    return at
