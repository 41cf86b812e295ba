"""The solver's transposition table: a lower and an upper bound of the score of each
position stored, by the game's key.

A :class:`SolverTable` is a structure of arrays of ``2**bits`` entries (the convention of
:mod:`donuts_ai.search`), and a store always replaces the entry of another key (Pons'
table, which keeps no depth: a deeper result is not worth more here, every bound being
true). The entry of a key is the top ``bits`` bits of the key times a golden-ratio
constant (Fibonacci hashing), not ``key mod 2**bits``: a key's low bits may tell little
apart (Connect Four's hold its left columns only; Pons sizes his table by a prime
instead), and on Pons' positions the low bits alone cost 15 to 26 times the nodes. The whole
key is stored, so an entry never answers for another position (equal keys mean the same
position). An entry holds both bounds; storing a bound for the key it holds tightens it.

The table holds a position's own scores, counted from it (a win ``d`` plies away:
``WIN_SCORE - d``), so that an entry serves wherever the position comes up. The search
counts from its root instead (a win at ply ``ply + d``: ``WIN_SCORE - ply - d``, which
negates from ply to ply), and shifts a bound by the position's ply on the way in and out.
An empty entry holds key 0 and no bounds (:data:`NO_LOWER`, :data:`NO_UPPER`): it answers
nothing, even for a position whose key is 0.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..._bits import ONE, ZERO, ctz
from ..._numba_types import Int64
from ._scores import WIN_SCORE

#: An entry's lower bound when it has none: below every score.
NO_LOWER = -WIN_SCORE
#: An entry's upper bound when it has none: above every score.
NO_UPPER = WIN_SCORE
#: Bytes of one entry (a ``uint64`` key, two ``int16`` bounds).
ENTRY_BYTES = 8 + 2 + 2
#: Bits of a key.
KEY_BITS = 64
#: Fibonacci hashing's multiplier, ``2**64`` over the golden ratio: the product's top bits
#: depend on every bit of the key.
FIBONACCI = np.uint64(0x9E3779B97F4A7C15)
#: The largest table, in bits of its entry count (12 bytes an entry: 3 TiB).
MAX_TABLE_BITS = 38


class SolverTable(NamedTuple):
    """A transposition table of ``2**bits`` entries (see the module doc)."""

    keys: NDArray[np.uint64]  # uint64[entries]: the key of the position whose bounds the entry holds
    lower: NDArray[np.int16]  # int16[entries]: a lower bound of its score, counted from it (NO_LOWER: none)
    upper: NDArray[np.int16]  # int16[entries]: an upper bound of its score (NO_UPPER: none)


def new_table(bits: int) -> SolverTable:
    """An empty table of ``2**bits`` entries (:data:`ENTRY_BYTES` each).

    Args:
        bits: the entries' count as a power of two, 0 to :data:`MAX_TABLE_BITS`
            (Pons' Connect Four solver: 23, 8M entries).

    Returns:
        The table, every entry empty.

    Raises:
        ValueError: ``bits`` is out of range.
    """
    if isinstance(bits, bool) or not isinstance(bits, int | np.integer) or not 0 <= bits <= MAX_TABLE_BITS:
        raise ValueError(f"bits must be an int from 0 to {MAX_TABLE_BITS}, not {bits!r}")
    entries = 1 << int(bits)
    return SolverTable(
        keys=np.zeros(entries, dtype=np.uint64),
        lower=np.full(entries, NO_LOWER, dtype=np.int16),
        upper=np.full(entries, NO_UPPER, dtype=np.int16),
    )


@njit(cache=True)
def clear_table(table: SolverTable) -> None:
    """Empty every entry of ``table`` (between positions that share nothing, say).

    Args:
        table: the table.
    """
    table.keys[:] = 0
    table.lower[:] = NO_LOWER
    table.upper[:] = NO_UPPER


@njit(cache=True, inline="always")
def _slot(table: SolverTable, key: np.uint64) -> np.uint64:
    """The entry of ``key``: the top bits of ``key`` times :data:`FIBONACCI` (a key's low
    bits alone may say little: Connect Four's hold the left columns only)."""
    entries = np.uint64(table.keys.shape[0])
    if entries == ONE:
        return ZERO  # a shift by 64 is undefined
    return (key * FIBONACCI) >> np.uint64(KEY_BITS - ctz(entries))


@njit(cache=True)
def probe(table: SolverTable, key: np.uint64 | int) -> tuple[np.int64, np.int64]:
    """The bounds ``table`` holds for the position of ``key``, counted from it.

    Args:
        table: the table.
        key: the game's key of the position (``uint64``).

    Returns:
        ``(lower, upper)``; :data:`NO_LOWER` / :data:`NO_UPPER` for a bound not held.
    """
    key = np.uint64(key)  # from Python an int, which Numba types int64
    slot = _slot(table, key)
    if table.keys[slot] != key:
        return np.int64(NO_LOWER), np.int64(NO_UPPER)
    return np.int64(table.lower[slot]), np.int64(table.upper[slot])


@njit(cache=True, inline="always")
def _from_root(score: Int64, ply: Int64) -> np.int64:
    """A bound counted from the root, at a position ``ply`` plies down, counted from the
    position: a win or a loss is ``ply`` plies nearer. Increasing, so a bound stays one;
    clamped to the table's range (a clamped bound is weaker, still true)."""
    if score > 0:
        shifted = score + ply
    elif score < 0:
        shifted = score - ply
    else:
        shifted = score
    return np.int64(min(max(shifted, NO_LOWER), NO_UPPER))


@njit(cache=True, inline="always")
def _lower_at(lower: Int64, ply: Int64) -> np.int64:
    """A lower bound counted from a position ``ply`` plies below the root, counted from the
    root. A score counted from the position is never within ``ply`` of 0 but 0 itself (a
    win or loss there is at most ``MAX_PLIES - ply`` plies away: no game is longer from the
    root), so a bound in that gap moves to the next score it allows."""
    if lower > 0:
        return np.int64(max(lower - ply, 1))
    if lower >= -ply:
        return np.int64(0)
    return np.int64(lower + ply)


@njit(cache=True, inline="always")
def _upper_at(upper: Int64, ply: Int64) -> np.int64:
    """An upper bound counted from a position ``ply`` plies below the root, counted from the
    root (the mirror of :func:`_lower_at`)."""
    if upper < -ply:
        return np.int64(min(upper + ply, -1))
    if upper <= ply:
        return np.int64(0)
    return np.int64(upper - ply)


@njit(cache=True, inline="always")
def bounds_at(table: SolverTable, key: np.uint64, ply: Int64) -> tuple[np.int64, np.int64]:
    """The bounds held for the position of ``key``, met ``ply`` plies below the root,
    counted from the root: ``(lower, upper)``, each unbounding when not held."""
    lower, upper = probe(table, key)
    return _lower_at(lower, ply), _upper_at(upper, ply)


@njit(cache=True, inline="always")
def store(table: SolverTable, key: np.uint64, ply: Int64, lower: Int64, upper: Int64) -> None:
    """Store bounds (counted from the root; ``ply`` plies down) for the position of ``key``:
    tighten the entry's when it holds ``key``, else replace it. A bound at or beyond the
    table's range (``-WIN_SCORE``, ``WIN_SCORE``) stores as none."""
    slot = _slot(table, key)
    low = _from_root(lower, ply)
    high = _from_root(upper, ply)
    if table.keys[slot] == key:
        low = max(low, np.int64(table.lower[slot]))
        high = min(high, np.int64(table.upper[slot]))
    table.keys[slot] = key
    table.lower[slot] = low
    table.upper[slot] = high
