"""The network's predictions kept by position, for the batched search
(:class:`PredictionCache`): a bounded table from a position's key to the network's
``(logits, value)``, shared by the rounds of a search and by the searches that follow.

A key holds everything the observation planes show, so a hit returns exactly what the
network would answer. With ``symmetric`` (the default) the key is the symmetry-canonical
one (the least over the board's 8 symmetries, :mod:`donuts_ai.donuts.canonical`), and
the network is asked about the canonical image, its logits mapped back: a position and
its images share one entry, and a search with the cache gives the same results as one
with a cache of capacity 0. ``symmetric=False`` keys positions as they are: the
predictions are exactly those of a search without a cache.

The table is a fixed set of rows in arrays, probed and filled by compiled kernels (two
rows a key, the one used less recently replaced). The network's weights must not change
while entries are kept: :meth:`PredictionCache.clear` after a training step. The network
is asked about the misses only, padded to a few batch sizes (powers of two, and the
whole batch), so that a compiled network compiles few shapes."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from .._checks import check_int
from ..donuts.canonical import GAME_KEY_WORDS, canonical_game_key
from ..donuts.kernels import Position, read_position
from ..donuts.planes import LINE_DIRECTIONS, NUM_DIRECTIONS
from ..donuts.squares import NUM_SQUARES
from ..donuts.symmetry import DIRECTION_IMAGE, SQUARE_IMAGE
from ..search.puct import NONE, PUCTTree
from .errors import LearnError

#: The network's forward pass over a batch of planes: ``(logits float32[n, 36], values float32[n])``
#: (:func:`~.batched_search.network_predictor`; the searches take any such function).
Predictor = Callable[[npt.NDArray[np.float32]], tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]


class SymmetryImages(NamedTuple):
    """The symmetries a key is taken over, as the kernels read them: where each square and
    each printed line direction goes under each symmetry (rows: the symmetries, the
    identity first; the identity alone for keys taken as positions are)."""

    square_image: npt.NDArray[np.int64]  # int64[symmetries, 36]: the image of each square
    direction_image: npt.NDArray[np.int64]  # int64[symmetries, NUM_DIRECTIONS]: the image of each line direction


#: Words of a key: the game key of :mod:`donuts_ai.donuts.canonical` (the side to move's
#: donuts, the opponent's, the printed lines, then the rest in one word), with the color to
#: move and the donuts a player has as its context.
KEY_WORDS = GAME_KEY_WORDS
#: Default capacity: positions kept (about 190 bytes each: 48 MiB).
DEFAULT_CAPACITY = 1 << 18
#: The context word of a key: the color to move in its low byte, the donuts a player has above.
_DONUTS_SHIFT = np.uint64(8)


@njit(cache=True, inline="always")
def _canonical(pos: Position, color: int, directions: npt.NDArray[np.int8], donuts: int, images: SymmetryImages,
               key: npt.NDArray[np.uint64]) -> int | np.int64:
    """The least key of ``pos`` (from its side to move, of color ``color``, on the layout of
    ``directions``) over the symmetries of ``images`` into ``key`` (``uint64[KEY_WORDS]``);
    returns the symmetry giving it (its row of ``images``)."""
    context = np.uint64(color) | (np.uint64(donuts) << _DONUTS_SHIFT)
    return canonical_game_key(pos, directions, images.square_image, images.direction_image, context, key)


@njit(cache=True)
def leaf_keys(tree: PUCTTree, directions: npt.NDArray[np.int8], donuts: int, images: SymmetryImages, keys: npt.NDArray[np.uint64],
              symmetries: npt.NDArray[np.int64]) -> None:
    """The key of every game's leaf into ``keys[g]`` (over the symmetries of ``images``) and
    the symmetry to its canonical image into ``symmetries[g]`` (-1 for a game without a leaf)."""
    for g in range(tree.leaf.shape[0]):
        leaf = tree.leaf[g]
        symmetries[g] = -1
        if leaf != NONE:
            s = tree.states[g, leaf]
            symmetries[g] = _canonical(read_position(s), tree.to_move[g, leaf],
                                       directions[g], donuts, images, keys[g])


@njit(cache=True)
def node_keys(tree: PUCTTree, games: npt.NDArray[np.int64], nodes: npt.NDArray[np.int64],
              directions: npt.NDArray[np.int8], donuts: int, images: SymmetryImages, keys: npt.NDArray[np.uint64],
              symmetries: npt.NDArray[np.int64]) -> None:
    """:func:`leaf_keys` of the nodes ``nodes[i]`` of games ``games[i]`` into row ``i``
    (``symmetries`` -1 in the rows after them)."""
    symmetries[:] = -1
    for i in range(games.shape[0]):
        g, node = games[i], nodes[i]
        s = tree.states[g, node]
        symmetries[i] = _canonical(read_position(s), tree.to_move[g, node],
                                   directions[g], donuts, images, keys[i])


@njit(cache=True)
def root_keys(roots: np.ndarray, donuts: int, images: SymmetryImages, keys: npt.NDArray[np.uint64],
              symmetries: npt.NDArray[np.int64]) -> None:
    """:func:`leaf_keys` of root records (fields ``own opp last placed_own placed_opp color directions``)."""
    for g in range(roots.shape[0]):
        r = roots[g]
        symmetries[g] = _canonical(read_position(r), r.color, r.directions, donuts,
                                   images, keys[g])


@njit(cache=True)
def to_canonical(planes: npt.NDArray[np.float32], symmetries: npt.NDArray[np.int64], images: SymmetryImages) -> None:
    """Each row of ``planes`` (``float32[n, 36, NUM_PLANES]``) under its symmetry (a row of
    ``images``), in place: squares moved, the printed-line planes turned with them."""
    square_image, direction_image = images
    row = np.empty_like(planes[0])
    for i in range(planes.shape[0]):
        s = symmetries[i]
        if s <= 0:
            continue
        row[:] = planes[i]
        for sq in range(NUM_SQUARES):
            to = square_image[s, sq]
            planes[i, to] = row[sq]
            for d in range(NUM_DIRECTIONS):
                planes[i, to, LINE_DIRECTIONS + direction_image[s, d]] = row[sq, LINE_DIRECTIONS + d]


def _padded(n: int, full: int) -> int:
    """The batch size ``n`` misses are asked at: the next power of two, at most ``full``."""
    size = 1
    while size < n:
        size *= 2
    return max(n, min(size, full))


def predict_rows(predictor: Predictor, planes: npt.NDArray[np.float32], rows: npt.NDArray[np.bool_],
                  ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """``(logits float32[n, 36], values float32[n])`` of the ``rows`` of ``planes`` (zeros
    for the others), the network asked about those rows alone in a batch padded to a power
    of two (at most ``n``)."""
    n = len(planes)
    logits = np.zeros((n, NUM_SQUARES), dtype=np.float32)
    values = np.zeros(n, dtype=np.float32)
    chosen = np.flatnonzero(rows)
    if len(chosen) == n:
        found_logits, found_values = predictor(planes)
        return np.asarray(found_logits, dtype=np.float32), np.asarray(found_values, dtype=np.float32)
    if len(chosen):
        asked = planes[chosen]
        size = _padded(len(chosen), n)
        if size > len(chosen):
            asked = np.concatenate([asked, np.zeros((size - len(chosen), *asked.shape[1:]), dtype=asked.dtype)])
        found_logits, found_values = predictor(asked)
        logits[chosen] = found_logits[:len(chosen)]
        values[chosen] = found_values[:len(chosen)]
    return logits, values


_HASH_MULTIPLIERS = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F), np.uint64(0x165667B19E3779F9),
                     np.uint64(0xD6E8FEB86659FD93))
_HASH_FOLD = np.uint64(29)
_BUCKET_MASK = np.uint64(~np.uint64(1))


@njit(cache=True, inline="always")
def _bucket(key: npt.NDArray[np.uint64], rows: int) -> np.int64:
    """The first row of a key's bucket of two (``rows`` a power of two)."""
    h = key[0] * _HASH_MULTIPLIERS[0] ^ key[1] * _HASH_MULTIPLIERS[1] ^ key[2] * _HASH_MULTIPLIERS[2] ^ key[3] * _HASH_MULTIPLIERS[3]
    return np.int64((h ^ (h >> _HASH_FOLD)) & np.uint64(rows - 1) & _BUCKET_MASK)


@njit(cache=True)
def _probe(table_keys: npt.NDArray[np.uint64], used: npt.NDArray[np.int64], clock: int, keys: npt.NDArray[np.uint64],
           symmetries: npt.NDArray[np.int64], found: npt.NDArray[np.int64]) -> None:
    """The row of the table holding each asked key into ``found`` (-1 when absent or not
    asked); a row found is marked used at ``clock``."""
    rows = table_keys.shape[0]
    for i in range(keys.shape[0]):
        found[i] = -1
        if symmetries[i] < 0:
            continue
        first = _bucket(keys[i], rows)
        for row in range(first, first + 2):
            if used[row] > 0 and table_keys[row, 0] == keys[i, 0] and table_keys[row, 1] == keys[i, 1] \
                    and table_keys[row, 2] == keys[i, 2] and table_keys[row, 3] == keys[i, 3]:
                found[i] = row
                used[row] = clock
                break


@njit(cache=True)
def _store(table_keys: npt.NDArray[np.uint64], used: npt.NDArray[np.int64], table_logits: npt.NDArray[np.float32],
           table_values: npt.NDArray[np.float32], clock: int, keys: npt.NDArray[np.uint64], logits: npt.NDArray[np.float32],
           values: npt.NDArray[np.float32]) -> int:
    """Each new key with its answer into its bucket: an empty row, else the one used least
    recently. Returns how many empty rows were filled."""
    filled = 0
    for i in range(keys.shape[0]):
        first = _bucket(keys[i], table_keys.shape[0])
        row = first if used[first] <= used[first + 1] else first + 1
        if used[row] == 0:
            filled += 1
        table_keys[row] = keys[i]
        used[row] = clock
        table_logits[row] = logits[i]
        table_values[row] = values[i]
    return filled


class PredictionCache:
    """The network's predictions of at most ``capacity`` positions (rounded up to a power
    of two), each position in one of two rows chosen by its key, the one used less
    recently replaced (see the module); ``capacity=0`` keeps none and still asks about
    canonical images."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY, symmetric: bool = True):
        capacity = check_int("PredictionCache capacity", capacity, 0, error=LearnError)
        rows = 0 if capacity == 0 else max(2, 1 << (capacity - 1).bit_length())
        self.capacity, self.symmetric = rows, bool(symmetric)
        #: The symmetries its keys are taken over: all 8, or the identity alone.
        self.images = (SymmetryImages(SQUARE_IMAGE, DIRECTION_IMAGE) if self.symmetric
                       else SymmetryImages(SQUARE_IMAGE[:1].copy(), DIRECTION_IMAGE[:1].copy()))
        self._keys = np.zeros((rows, KEY_WORDS), dtype=np.uint64)
        self._used = np.zeros(rows, dtype=np.int64)  # the clock of a row's last use, 0 while empty
        self._logits = np.zeros((rows, NUM_SQUARES), dtype=np.float32)  # canonical logits of each row
        self._values = np.zeros(rows, dtype=np.float32)
        self._clock = 0
        self._size = 0
        #: Positions answered without the network (from the table, or by a twin in the same
        #: batch), and by the network; :meth:`clear` keeps them.
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return self._size

    @property
    def hit_rate(self) -> float:
        """Share of the positions asked for that the network was not asked about (0.0 before any)."""
        asked = self.hits + self.misses
        return self.hits / asked if asked else 0.0

    def clear(self) -> None:
        """Forget every entry (after the network changed); the counters stay."""
        self._used[:] = 0
        self._size = 0

    def predict(self, predictor: Predictor, planes: npt.NDArray[np.float32], keys: npt.NDArray[np.uint64],
                symmetries: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """``(logits float32[n, 36], values float32[n])`` of the rows of ``planes``
        (``float32[n, 6, 6, NUM_PLANES]``, left as they are) whose ``symmetries`` are >= 0,
        keyed by ``keys`` (:func:`leaf_keys`); zeros for the other rows."""
        n = len(planes)
        self._clock += 1
        found = np.full(n, -1, dtype=np.int64)
        if self.capacity:
            _probe(self._keys, self._used, self._clock, keys, symmetries, found)
        hit = found >= 0
        missing = np.flatnonzero((symmetries >= 0) & ~hit)
        canonical_logits = np.zeros((n, NUM_SQUARES), dtype=np.float32)
        values = np.zeros(n, dtype=np.float32)
        canonical_logits[hit] = self._logits[found[hit]]
        values[hit] = self._values[found[hit]]
        self.hits += int(hit.sum())
        if len(missing):
            # One question per distinct key, the first row asking it.
            _, first, twin = np.unique(keys[missing], axis=0, return_index=True, return_inverse=True)
            twin = twin.reshape(-1)
            asked = missing[first]
            self.misses += len(asked)
            self.hits += len(missing) - len(asked)
            new_logits, new_values = self._ask(predictor, planes[asked], symmetries[asked], n)
            canonical_logits[missing] = new_logits[twin]
            values[missing] = new_values[twin]
            if self.capacity:
                self._size += _store(self._keys, self._used, self._logits, self._values, self._clock,
                                     np.ascontiguousarray(keys[asked]), new_logits, new_values)
        # Canonical logits back to the position's squares: square a is square image[s, a] there.
        squares = self.images.square_image[np.maximum(symmetries, 0)]
        logits: npt.NDArray[np.float32] = np.take_along_axis(canonical_logits, squares, axis=1)
        return logits, values

    def _ask(self, predictor: Predictor, planes: npt.NDArray[np.float32], symmetries: npt.NDArray[np.int64],
             full: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The network's answers for the canonical images of ``planes``, in a batch padded
        to :func:`_padded` rows (at most ``full``)."""
        count = len(planes)
        to_canonical(planes.reshape(count, NUM_SQUARES, -1), symmetries, self.images)
        size = _padded(count, full)
        if size > count:
            planes = np.concatenate([planes, np.zeros((size - count, *planes.shape[1:]), dtype=planes.dtype)])
        logits, values = predictor(planes)
        return np.ascontiguousarray(logits[:count], dtype=np.float32), np.ascontiguousarray(values[:count], dtype=np.float32)
