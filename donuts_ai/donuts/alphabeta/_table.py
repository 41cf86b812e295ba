"""The transposition table: exact position keys, bounds packed in one word, buckets of two.

The table is one ``uint64[size, ENTRY_WORDS]`` array (24 bytes a row). A position
hashes to a bucket of two rows, ``2k`` and ``2k + 1``, and lives in either:

- row ``2k`` keeps the entry worth more (:func:`_worth`: deeper searches, then
  positions nearer the root, whose subtrees cost the most to search again);
- row ``2k + 1`` always takes the newest entry, and what row ``2k`` gives up.

A row's two key words hold the whole position, so a probe has no false hits; they are
stored XOR-ed with the data word (Hyatt's lockless table), so the parallel solver's threads
share one table without locks (the comment above ``KEY_A`` says how). A table serves one
layout and one set of rules: the callers clear it when those change.
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..._bits import popcount
from ..._numba_types import Bool, Int64
from .._kernels.canonical import PositionKey, position_key
from .._kernels.position import Position
from ..squares import FULL_BOARD, NUM_SQUARES
from ._scores import INF, shift_mate

#: A position's key ``(key_a, key_b)`` (:func:`position_keys`).
Key: TypeAlias = PositionKey
#: The position's key: the one definition (with the other canonical keys), under the table's name.
position_keys = position_key

# Columns of a row:
# - KEY_A = key_a ^ DATA, where key_a = own | (last + 1) << 36 | placed_own << 43
#   (position_keys, defined with the other canonical keys in .._kernels.canonical): the side
#   to move's donuts (36 bits), the last square plus one (0..36, 6 bits), its placed donuts
#   (6 bits);
# - KEY_B = key_b ^ DATA, where key_b = opp | placed_opp << 36;
# - DATA: the lower bound, the upper bound, the best move and the depth (pack).
# The keys are stored XOR-ed with the data (Hyatt's lockless transposition table): a row
# written by two threads at once (a "torn" row: words of two entries) fails the check
# KEY_A ^ DATA == key_a and KEY_B ^ DATA == key_b and reads as empty, unless the two entries'
# words happen to cancel out (for a wrong hit the old and new keys would have to differ by
# exactly the XOR of the two data words, in both key words). The DATA word is read once and
# that same word checked and used. One thread reads and writes exactly what it would
# without the XOR.
KEY_A, KEY_B, DATA = 0, 1, 2
ENTRY_WORDS = 3
#: Bytes of one entry.
ENTRY_BYTES = ENTRY_WORDS * 8
#: Stored depth of a value that holds at any depth (a five now, or every move's value
#: exact): above every search depth (:data:`~._scores.EXACT_DEPTH` is 100), and the
#: depth field (8 bits holding depth + 1) holds it. Deeper searches are stored as this.
ANY_DEPTH = 127

_HASH_MULT_A = np.uint64(0x9E3779B97F4A7C15)  # odd 64-bit constants (golden ratio, xxHash)
_HASH_MULT_B = np.uint64(0xC2B2AE3D27D4EB4F)
_HASH_FOLD = np.uint64(29)  # fold the well-mixed high bits into the low bits the mask keeps

# DATA word: lower + SCORE_BIAS (16 bits) | upper + SCORE_BIAS (16) | move + 1 (8) | depth + 1 (8).
_SCORE_BIAS = 1 << 15  # scores lie in [-INF, INF], INF < 2**15: biased they fit 16 unsigned bits
_LOWER_SHIFT = np.uint64(0)
_UPPER_SHIFT = np.uint64(16)
_MOVE_SHIFT = np.uint64(32)
_DEPTH_SHIFT = np.uint64(40)
_MASK16 = np.uint64(0xFFFF)
_MASK8 = np.uint64(0xFF)


def new_table(bits: int) -> NDArray[np.uint64]:
    """A transposition table of ``2**bits`` entries (``ENTRY_BYTES`` bytes each)."""
    return np.zeros((1 << bits, ENTRY_WORDS), dtype=np.uint64)


_SQUARES = np.uint64(FULL_BOARD)
_BUCKET_MASK = np.uint64(~np.uint64(1))
#: :func:`_worth` per unit of depth: more than the 0..36 empty squares, so depth decides first.
_WORTH_PER_DEPTH = 64


@njit(cache=True, inline="always")
def key_hash(key: Key) -> np.uint64:
    """64 well-mixed bits of a position's key: its bucket is read from the low bits (the
    proof-number table's row tags from the high ones)."""
    key_a, key_b = key
    h = key_a * _HASH_MULT_A ^ key_b * _HASH_MULT_B
    return h ^ (h >> _HASH_FOLD)


@njit(cache=True, inline="always")
def bucket_of(hashed: np.uint64, rows: Int64) -> np.int64:
    """The first row of the bucket (two rows) of a key of hash ``hashed`` in a table of
    ``rows`` rows, a power of two."""
    return np.int64(hashed & np.uint64(rows - 1) & _BUCKET_MASK)


@njit(cache=True)
def entry_index(tt: NDArray[np.uint64], key: Key) -> np.int64:
    """The first row of a position's bucket (two rows; the table size is a power of two)."""
    return bucket_of(key_hash(key), tt.shape[0])


@njit(cache=True)
def is_hit(data: np.uint64, stored_a: np.uint64, stored_b: np.uint64, key_a: np.uint64, key_b: np.uint64) -> Bool:
    """A row whose words are ``stored_a``, ``stored_b``, ``data`` holds the position: its
    keys XOR its data give the position's keys (a torn row fails), and it is not empty
    (DATA 0: its zero keys would also be the empty board's)."""
    hit: Bool = data != 0 and stored_a ^ data == key_a and stored_b ^ data == key_b
    return hit


@njit(cache=True)
def _row_of(tt: NDArray[np.uint64], idx: Int64, key_a: np.uint64, key_b: np.uint64) -> tuple[Int64, np.uint64]:
    """``(row, data)``: the row of the bucket at ``idx`` holding the position and the DATA
    word read once from it and checked (use that word, not a second read of the row:
    another thread may have written it since), or ``(-1, 0)``."""
    data = tt[idx, DATA]
    if is_hit(data, tt[idx, KEY_A], tt[idx, KEY_B], key_a, key_b):
        return idx, data
    data = tt[idx + 1, DATA]
    if is_hit(data, tt[idx + 1, KEY_A], tt[idx + 1, KEY_B], key_a, key_b):
        return idx + 1, data
    return np.int64(-1), np.uint64(0)


@njit(cache=True)
def write_row(tt: NDArray[np.uint64], row: Int64, key_a: np.uint64, key_b: np.uint64, data: np.uint64) -> None:
    """Write an entry: its keys XOR its data, then the data (see the module doc)."""
    tt[row, KEY_A] = key_a ^ data
    tt[row, KEY_B] = key_b ^ data
    tt[row, DATA] = data


# Why two rows: with one always-replaced row, the entries near the root (millions of nodes
# each) were overwritten by the stream of leaf entries. On the empty board of
# random_grid(0..15, 26, 31, 55) with 2**20 rows the bucket needs 21% fewer nodes (95.7 M ->
# 75.9 M) and 11% less time (23.5 s -> 20.9 s: each probe reads two rows); 32-byte rows
# aligned to cache lines were no faster. The same position stored again at the same depth
# merges its bounds. There is no aging: in a table kept between searches (the agents, the
# analysis) the first rows keep the old searches' entries near their roots until worthier
# ones come; measured only with fresh tables.
@njit(cache=True)
def _worth(key_a: np.uint64, key_b: np.uint64, depth: Int64) -> Int64:
    """What an entry saves: deeper searches first, then positions with more empty squares;
    the ``ANY_DEPTH`` entries (a five now, every move exact) cost one node to redo: least."""
    if depth >= ANY_DEPTH:
        depth = 0
    return depth * _WORTH_PER_DEPTH + NUM_SQUARES - popcount((key_a | key_b) & _SQUARES)


@njit(cache=True)
def pack(lower: Int64, upper: Int64, move: Int64, depth: Int64) -> np.uint64:
    """The DATA word of an entry (scores node-relative, ``move`` -1 for none)."""
    return (
        (np.uint64(lower + _SCORE_BIAS) << _LOWER_SHIFT)
        | (np.uint64(upper + _SCORE_BIAS) << _UPPER_SHIFT)
        | (np.uint64(move + 1) << _MOVE_SHIFT)
        | (np.uint64(depth + 1) << _DEPTH_SHIFT)
    )


@njit(cache=True)
def stored_lower(data: np.uint64) -> np.int64:
    return np.int64((data >> _LOWER_SHIFT) & _MASK16) - _SCORE_BIAS


@njit(cache=True)
def stored_upper(data: np.uint64) -> np.int64:
    return np.int64((data >> _UPPER_SHIFT) & _MASK16) - _SCORE_BIAS


@njit(cache=True)
def stored_move(data: np.uint64) -> np.int64:
    return np.int64((data >> _MOVE_SHIFT) & _MASK8) - 1


@njit(cache=True)
def stored_depth(data: np.uint64) -> np.int64:
    return np.int64((data >> _DEPTH_SHIFT) & _MASK8) - 1


@njit(cache=True)
def store(tt: NDArray[np.uint64], idx: Int64, key: Key, lower: Int64, upper: Int64, move: Int64, depth: Int64, ply: Int64) -> None:
    """Write root-relative bounds ``lower <= score <= upper`` found at ``ply`` by a search
    of ``depth``; keeps the old best move when ``move`` is -1."""
    key_a, key_b = key
    lo = shift_mate(lower, ply)
    hi = shift_mate(upper, ply)
    depth = min(depth, ANY_DEPTH)
    row, old = _row_of(tt, idx, key_a, key_b)
    if row < 0:
        # A new position: the first row keeps the entry worth more, the second always takes.
        row = idx + 1
        # An empty row has DATA 0 (a stored entry's depth field is depth + 1 >= 1); its keys
        # are 0 like the empty board's, so they cannot tell.
        old_data = tt[idx, DATA]
        old_a, old_b = tt[idx, KEY_A], tt[idx, KEY_B]
        if old_data == 0 or _worth(key_a, key_b, depth) >= _worth(old_a ^ old_data, old_b ^ old_data, stored_depth(old_data)):
            # Moved as stored (keys XOR data): a torn first row stays torn, and fails its check.
            tt[idx + 1, KEY_A] = old_a
            tt[idx + 1, KEY_B] = old_b
            tt[idx + 1, DATA] = old_data
            row = idx
    else:
        if stored_depth(old) == depth:
            # Same position, same depth: both searches' bounds hold, keep the tighter.
            lo = max(lo, stored_lower(old))
            hi = min(hi, stored_upper(old))
        if move < 0:
            move = stored_move(old)
    write_row(tt, row, key_a, key_b, pack(lo, hi, move, depth))


@njit(cache=True)
def store_result(
    tt: NDArray[np.uint64], idx: Int64, key: Key, best: Int64, alpha0: Int64, beta: Int64, move: Int64, depth: Int64, ply: Int64
) -> None:
    """Store a fail-soft search result ``best`` of the window (``alpha0``, ``beta``) as the
    bound it is: an upper bound at or below ``alpha0``, a lower bound at or above
    ``beta``, else exact."""
    if best <= alpha0:
        store(tt, idx, key, -INF, best, move, depth, ply)
    elif best >= beta:
        store(tt, idx, key, best, INF, move, depth, ply)
    else:
        store(tt, idx, key, best, best, move, depth, ply)


@njit(cache=True)
def probe(
    tt: NDArray[np.uint64], idx: Int64, key: Key, depth: Int64, ply: Int64, alpha: Int64, beta: Int64
) -> tuple[Int64, Int64, Int64, bool, Int64]:
    """Read a position's entry before searching it with ``depth`` at ``ply``.

    Returns ``(table_move, alpha, beta, cutoff, value)``: the stored best move (-1 for
    none), the window narrowed by stored bounds deep enough, and ``cutoff`` True when
    they decide the search (its result is then ``value``)."""
    row, data = _row_of(tt, idx, key[0], key[1])
    if row < 0:
        return np.int64(-1), alpha, beta, False, np.int64(0)
    move = stored_move(data)
    if stored_depth(data) >= depth:
        lo = shift_mate(stored_lower(data), -ply)
        hi = shift_mate(stored_upper(data), -ply)
        if lo >= beta:
            return move, alpha, beta, True, lo
        if hi <= alpha:
            return move, alpha, beta, True, hi
        if lo == hi:
            return move, alpha, beta, True, lo
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
    return move, alpha, beta, False, np.int64(0)


@njit(cache=True)
def table_move(tt: NDArray[np.uint64], pos: Position) -> Int64:
    """The best move stored for a position, or -1."""
    key = position_keys(pos)
    row, data = _row_of(tt, entry_index(tt, key), key[0], key[1])
    if row >= 0:
        return stored_move(data)
    return -1
