"""Depth-first proof-number search (df-pn, Nagai 2002): does the side to move reach its goal?

The solver's value search on early boards, and its tests of a distance. Proof numbers
choose, at every node, the move whose proof looks cheapest so far, and leave it as soon as
another looks cheaper (no order of the first moves predicts the winning ones for alpha-beta:
``benchmarks/RESULTS.md``); with the 1 + epsilon trick it does not thrash between two.

A search has an **attacker**, whose goal is to win, and a **defender**, whose goal is
not to lose (a draw is enough). Every node is kept from its side to move: ``phi`` is
the proof number of "the side to move reaches its goal" and ``delta`` its disproof
number; ``phi = 0`` proves it, ``delta = 0`` disproves it. Which goal a node's mover
has is part of its table key (a bit: the mover is the attacker), so an entry states a
fact about the position, true in any later search. With ``share_plies`` > 0 (the parallel
solver's portfolio) the search also reads and writes the alpha-beta search's table of
bounds near the root (the comment above :func:`_take_bound`).

A search may also have a **deadline** (the solver's tests of a distance): the attacker must
then win by a given ply, the defender's goal is that it does not. Every decided entry also
keeps what it proved as facts that hold at any deadline (comment at NO_DEADLINE), so the
tests of one distance, and the value's proof before them, build on each other.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..._bits import ONE, WITHOUT_REFCOUNTS, ZERO, cache_aligned_zeros, clz, ctz, popcount, prefetch
from ..._numba_types import Int64
from .._kernels.core import can_win_now, flips, legal_mask, threats
from .._kernels.position import (
    ENDED_DRAWN,
    ENDED_LOST,
    ENDED_WON,
    MOVES_AGAIN,
    PASSES,
    WON_BY_FIVE,
    Position,
    Rulebook,
    as_position,
    place,
    plies_left,
    settle,
)
from .._kernels.tables import FULL_BOARD_BITS
from ..squares import NUM_SQUARES
from ._ordering import HISTORY_CAP, history_bonus
from ._scores import EXACT_DEPTH, INF, MAX_PLY
from ._table import bucket_of, entry_index, key_hash, position_keys, probe, store
from ._workspace import ABORTED, NODE_LIMIT, NODES, NUM_STATS

#: Proof and disproof numbers stop here: ``INF`` proves or disproves, sums saturate below.
PN_INF = np.int64(1 << 30)
#: The 1 + epsilon trick (Pawlewicz & Lew 2007): a child is searched until its proof
#: number passes the second best's times ``1 + EPSILON_PERCENT / 100``, not just the second
#: best's + 1, so two close children do not take turns at every step. On the empty boards of
#: Layout.random(1..7) and random_grid(1, 2, 4, 6, 7) (one thread, the values and then
#: analyze's distance tests) 25% searched 73.0 M and 140.3 M nodes, 100% 59.6 M and 112.7 M;
#: on five of them 50%, 75%, 130% and 200% each searched more nodes in all than 100%
#: (benchmarks/RESULTS.md).
EPSILON_PERCENT = 100

# A deadline: the attacker's goal is a win (a five, or the game's end won) at that ply or
# before, as "does the winner win within 27 plies?"; the defender's, no such win. Every ply
# places one donut, so a node's ply is its donuts placed less the root's: a deadline is kept
# as the donuts placed by then (at most NUM_SQUARES), the same at every node of the search.
#
# What a search decides about an entry is kept as a fact about the position, true at any
# deadline: the attacker wins once WIN_BY donuts are placed at the latest (the proof found:
# its slowest line), or it has not won once SAFE_THROUGH donuts are placed. A win by 25 is a
# win by 27, and no win by 27 is no win by 25: the test of the next distance finds proved
# every subtree the last test proved soon enough, and disproved every one it disproved late
# enough, and the value's proof (no deadline) hands its facts on to the tests too. The root's
# facts also answer more than was asked (the solver's fail-soft distance tests).
#: A search without a deadline (as a stored fact: a win at some ply, no win ever).
NO_DEADLINE = np.int64(63)
#: No fact stored (WIN_BY 0: no win known; SAFE_THROUGH 0: nothing beyond the trivial).
NO_FACT = np.int64(0)
#: A search without a deadline can also find that the attacker not only never wins but loses:
#: every line of the defender's strategy found ends in its win, none in a draw (the LOSES bit
#: of WORK). Without draws "the side to move does not win" is "it loses": the solver's value
#: of a lost position then takes one search, not two, and a value's second search takes such
#: positions as decided (_other_goal). As the root's fact: this, not NO_DEADLINE.
ATTACKER_LOSES = NO_DEADLINE + 1

#: The portfolio shares bounds with alpha-beta at nodes less than this many plies below
#: the root (module doc). Alone (nothing from alpha-beta to read) sharing at every node
#: doubled df-pn's time (random_grid(7), "single" rule: 1.26 s -> 2.05 s), at 4 plies cost
#: nothing; in the portfolio on the 10 slowest layouts (2 threads, CPU per thread, a busy
#: machine) 0 plies: 16.3 s, 4: 14.2 s, 8: 15.5 s, 16: 21.4 s (``benchmarks/RESULTS.md``).
SHARE_PLIES = 4

# The search's kernels allocate nothing and keep no array, so Numba's reference counting is
# left out of them (WITHOUT_REFCOUNTS; dfpn_root, called from Python, keeps it): with it, every
# call of _mid, _expand, _children_numbers and _facts counted the table in and out (an atomic
# add on its count, which the threads proving moves at once share), a fifth of one thread's
# time in the kernels (perf, analyze of random_grid(6)); without, the same nodes in 10-30%
# less time (random_grid(0..7), one and two threads).
KEY_A, KEY_B, NUMBERS, WORK = 0, 1, 2, 3
ROW_WORDS = 4
_ATTACKER_BIT = np.uint64(1) << np.uint64(62)
_LOW32 = np.uint64(0xFFFFFFFF)
# WORK, from the low bits: the deciding move + 1 (8 bits), WIN_BY, SAFE_THROUGH and the
# deadline NUMBERS are for (6 bits each: donuts placed, NO_DEADLINE for none), LOSES (a bit:
# ATTACKER_LOSES), then the nodes searched below the entry.
_FIELD = np.uint64(63)
_WIN_BY_SHIFT = np.uint64(8)
_SAFE_SHIFT = np.uint64(14)
_NUMBERS_AT_SHIFT = np.uint64(20)
_LOSES_BIT = np.uint64(1) << np.uint64(26)
_WORK_SHIFT = np.uint64(27)

DFPN_WORKSPACE = np.dtype(
    [
        ("stats", np.int64, (NUM_STATS,)),  # NODES, NODE_LIMIT, ABORTED as in ._workspace
        ("line_masks", np.uint64, (NUM_SQUARES,)),
        ("move", np.int64, (MAX_PLY, NUM_SQUARES)),  # the open children of the node at each ply
        ("own", np.uint64, (MAX_PLY, NUM_SQUARES)),
        ("opp", np.uint64, (MAX_PLY, NUM_SQUARES)),
        ("placed_own", np.int64, (MAX_PLY, NUM_SQUARES)),
        ("placed_opp", np.int64, (MAX_PLY, NUM_SQUARES)),
        ("passes", np.uint8, (MAX_PLY, NUM_SQUARES)),  # 1: the opponent moves in the child (0: the same side again)
        ("key_a", np.uint64, (MAX_PLY, NUM_SQUARES)),
        ("key_b", np.uint64, (MAX_PLY, NUM_SQUARES)),
        ("index", np.int64, (MAX_PLY, NUM_SQUARES)),
        ("phi", np.int64, (MAX_PLY, NUM_SQUARES)),  # the child's numbers when last searched here (a row
        ("delta", np.int64, (MAX_PLY, NUM_SQUARES)),  # lost from the table must not undo the progress made)
        ("order", np.int64, (MAX_PLY, NUM_SQUARES)),  # the child's history key: ties of numbers go to the higher
        ("history", np.int64, (NUM_SQUARES,)),  # as in ._ordering: the moves that proved nodes, weighted by plies left
        ("counter", np.int64, (NUM_SQUARES + 1, NUM_SQUARES)),  # per (last square + 1, square)
        ("child_win", np.int64, (MAX_PLY, NUM_SQUARES)),  # the child's facts as its search returned
        ("child_safe", np.int64, (MAX_PLY, NUM_SQUARES)),  # them (its row may be lost since):
        ("child_loses", np.uint8, (MAX_PLY, NUM_SQUARES)),  # WIN_BY, SAFE_THROUGH, LOSES
        ("returned", np.int64, (3,)),  # the facts of the node the last _mid returned from (as child_*)
        ("root_move", np.int64, (1,)),  # the root's deciding move, -1 for none
    ]
)


class DfpnSettings(NamedTuple):
    """What one search plays by and how far it shares, the same at every node: made by
    :func:`dfpn_root`, passed down the recursion (scalars only: Numba counts a reference on
    every array read from a tuple, on every call)."""

    donuts: Int64  # donuts in each player's pool
    single: bool  # the "single" insertion variant (only o X o flips)
    share_plies: Int64  # nodes less than this many plies below the root share bounds with alpha-beta (module doc)
    deadline: Int64  # the attacker must have won once this many donuts are placed (NO_DEADLINE: no limit)
    other_goal: bool  # read what the other goal's search decided (_other_goal)


# The table: rows of four words, KEY_A, KEY_B (_table.position_keys, the attacker bit above
# KEY_B's fields), NUMBERS (``phi << 32 | delta``, at the deadline WORK names) and WORK (the
# facts, the deadline of NUMBERS, the deciding move + 1 and the nodes searched below the entry:
# _WORK_SHIFT); buckets of two rows as in _table (the first row keeps the entry with more work,
# the second takes the newest). Proofs are never wrong when rows are lost, only redone. The
# searches that prove several moves at once share one table without a lock, as _table's do:
# the keys are stored XOR both data words, and a row is read once, whole, and taken only when
# its keys match (a row half written by another thread reads as empty). A bucket is one
# cache line (the table aligned to one): a probe costs one memory read, not two.
#
# After the rows, each row's tag, a byte, 32 to a row of the array (R = 2**bits rows):
#
#   row 0 .. R-1    KEY_A  KEY_B  NUMBERS  WORK      buckets of two rows: 0-1, 2-3, ...
#   row R           word 0: the tags of rows 0..7 (row 0 in the low byte), word 1: rows 8..15,
#                   word 2: rows 16..23, word 3: rows 24..31
#   row R + 1       the tags of rows 32..63, and so on (at least one row of tags)
#
# A row's tag is the high 7 bits of its key's hash (the bucket is read from the low ones) and a
# set lowest bit; 0 for a row never written. A read looks at the bucket's two tags (two bytes of
# one word; the tags of 2**21 rows take 2 MiB, which the caches keep) and reads a row only where
# the tag is the key's: a position never stored, as most children are (75-81% of the nodes are
# new), costs no wait for memory. Tags are hints, written without a lock like the rows: a row
# whose tag is lost reads as empty (its proof is redone), one whose tag matches by chance is
# still checked by its keys.
_TAGS_PER_WORD = 8
_TAG_BYTES_PER_ROW = ROW_WORDS * _TAGS_PER_WORD
_TAG_ROW_SHIFT = _TAG_BYTES_PER_ROW.bit_length() - 1  # row >> 5: the tags' row of the array
_TAG_WORD_SHIFT = _TAGS_PER_WORD.bit_length() - 1  # (row >> 3) & _WORDS_MASK: their word in it
_WORDS_MASK = ROW_WORDS - 1
_BYTE_IN_WORD = _TAGS_PER_WORD - 1  # row & 7: the tag's byte in its word
_TAG_SHIFT = np.uint64(57)  # the hash's high 7 bits, then the bit that makes a tag non-zero
_BYTE = np.uint64(0xFF)


def new_dfpn_table(bits: int) -> NDArray[np.uint64]:
    """A df-pn table of ``2**bits`` rows (32 bytes each), and their tags after them."""
    rows = 1 << bits
    return cache_aligned_zeros(rows + max(1, rows // _TAG_BYTES_PER_ROW), ROW_WORDS)


@njit(cache=True, inline="always", **WITHOUT_REFCOUNTS)
def _rows(tt: NDArray[np.uint64]) -> Int64:
    """The table's rows of positions: the array's rows less the tags' (a power of two)."""
    return np.int64(1) << (np.int64(63) - clz(np.uint64(tt.shape[0])))


@njit(cache=True, inline="always", **WITHOUT_REFCOUNTS)
def _bucket(tt: NDArray[np.uint64], key_a: np.uint64, key_b: np.uint64) -> Int64:
    """The first row of the key's bucket."""
    return bucket_of(key_hash((key_a, key_b)), _rows(tt))


@njit(cache=True, inline="always", **WITHOUT_REFCOUNTS)
def _tag(key_a: np.uint64, key_b: np.uint64) -> np.uint64:
    """The key's tag (the comment above): never 0."""
    return ((key_hash((key_a, key_b)) >> _TAG_SHIFT) << ONE) | ONE


@njit(cache=True, inline="always", **WITHOUT_REFCOUNTS)
def _tag_at(tt: NDArray[np.uint64], row: Int64) -> np.uint64:
    """The tag of ``row`` (0: never written)."""
    word: np.uint64 = tt[_rows(tt) + (row >> _TAG_ROW_SHIFT), (row >> _TAG_WORD_SHIFT) & _WORDS_MASK]
    tag: np.uint64 = (word >> np.uint64((row & _BYTE_IN_WORD) * 8)) & _BYTE
    return tag


@njit(cache=True, inline="always", **WITHOUT_REFCOUNTS)
def _set_tag(tt: NDArray[np.uint64], row: Int64, tag: np.uint64) -> None:
    """Make ``tag`` the tag of ``row``."""
    i, j = _rows(tt) + (row >> _TAG_ROW_SHIFT), (row >> _TAG_WORD_SHIFT) & _WORDS_MASK
    shift = np.uint64((row & _BYTE_IN_WORD) * 8)
    tt[i, j] = (tt[i, j] & ~(_BYTE << shift)) | (tag << shift)


def new_dfpn_workspace() -> NDArray[np.void]:
    return np.zeros(1, dtype=DFPN_WORKSPACE)


@njit(cache=True, **WITHOUT_REFCOUNTS)
def _key(pos: Position, attacker: bool) -> tuple[np.uint64, np.uint64]:
    key_a, key_b = position_keys(pos)
    if attacker:
        key_b |= _ATTACKER_BIT
    return key_a, key_b


@njit(cache=True, **WITHOUT_REFCOUNTS)
def _read(tt: NDArray[np.uint64], idx: Int64, key_a: np.uint64, key_b: np.uint64) -> tuple[Int64, np.uint64, np.uint64]:
    """``(row, NUMBERS, WORK)`` of the row of the bucket at ``idx`` holding the key, each row's
    words read once and checked whole (comment above), only where its tag is the key's;
    ``(-1, 0, 0)`` for none (an empty row has WORK 0)."""
    tag = _tag(key_a, key_b)
    for row in range(idx, idx + 2):
        if _tag_at(tt, row) != tag:
            continue
        stored_a, stored_b, numbers, word = tt[row, KEY_A], tt[row, KEY_B], tt[row, NUMBERS], tt[row, WORK]
        if word != ZERO and stored_a ^ numbers ^ word == key_a and stored_b ^ numbers ^ word == key_b:
            return np.int64(row), numbers, word
    return np.int64(-1), ZERO, ZERO


@njit(cache=True, **WITHOUT_REFCOUNTS)
def _lookup(
    tt: NDArray[np.uint64], idx: Int64, key_a: np.uint64, key_b: np.uint64, deadline: Int64,
) -> tuple[bool, Int64, Int64, Int64, Int64]:
    """``(found, phi, delta, win_by, safe_through)`` stored for the key, ``phi`` and ``delta``
    at ``deadline``: from the facts when they decide it (the attacker wins by then, or not),
    else the numbers stored for that deadline; not found without either."""
    row, numbers, word = _read(tt, idx, key_a, key_b)
    if row < 0:
        return False, np.int64(1), np.int64(1), NO_FACT, NO_FACT
    win_by = np.int64((word >> _WIN_BY_SHIFT) & _FIELD)
    safe = np.int64((word >> _SAFE_SHIFT) & _FIELD)
    attacker_moves = (key_b & _ATTACKER_BIT) != ZERO
    if win_by != NO_FACT and win_by <= deadline:  # the attacker wins: its goal proved
        if attacker_moves:
            return True, np.int64(0), PN_INF, win_by, safe
        return True, PN_INF, np.int64(0), win_by, safe
    if safe >= deadline:  # the attacker has not won by then: the defender's goal proved
        if attacker_moves:
            return True, PN_INF, np.int64(0), win_by, safe
        return True, np.int64(0), PN_INF, win_by, safe
    if np.int64((word >> _NUMBERS_AT_SHIFT) & _FIELD) != deadline:
        return False, np.int64(1), np.int64(1), win_by, safe
    return True, np.int64(numbers >> np.uint64(32)), np.int64(numbers & _LOW32), win_by, safe


@njit(cache=True, **WITHOUT_REFCOUNTS)
def _fields(deadline: Int64, win_by: Int64, safe: Int64, loses: bool) -> np.uint64:
    """WORK's fields for :func:`_store`: the deadline the numbers are at, and the facts
    (NO_FACT: none new; ``loses``: the LOSES bit)."""
    return (
        (np.uint64(deadline) << _NUMBERS_AT_SHIFT)
        | (np.uint64(safe) << _SAFE_SHIFT)
        | (np.uint64(win_by) << _WIN_BY_SHIFT)
        | (_LOSES_BIT if loses else ZERO)
    )


@njit(cache=True, **WITHOUT_REFCOUNTS)
def _store(
    tt: NDArray[np.uint64], idx: Int64, key_a: np.uint64, key_b: np.uint64, phi: Int64, delta: Int64, work: Int64, move: Int64,
    fields: np.uint64,
) -> None:
    """Store the numbers and ``fields`` (:func:`_fields`), whose facts add to those the row
    holds for the key; ``move`` (-1: none) replaces the row's only when not -1."""
    deadline = np.int64((fields >> _NUMBERS_AT_SHIFT) & _FIELD)
    win_by = np.int64((fields >> _WIN_BY_SHIFT) & _FIELD)
    safe = np.int64((fields >> _SAFE_SHIFT) & _FIELD)
    loses = (fields & _LOSES_BIT) != ZERO
    row, _, word = _read(tt, idx, key_a, key_b)
    if row >= 0:
        loses = loses or (word & _LOSES_BIT) != ZERO
        work += np.int64(word >> _WORK_SHIFT)
        old_win = np.int64((word >> _WIN_BY_SHIFT) & _FIELD)
        if old_win != NO_FACT and (win_by == NO_FACT or old_win < win_by):
            win_by = old_win
        safe = max(safe, np.int64((word >> _SAFE_SHIFT) & _FIELD))
        if move < 0:
            move = np.int64(word & np.uint64(0xFF)) - 1
    else:
        row = idx + 1
        if tt[idx, WORK] == 0 or work >= np.int64(tt[idx, WORK] >> _WORK_SHIFT):
            tt[idx + 1, KEY_A] = tt[idx, KEY_A]
            tt[idx + 1, KEY_B] = tt[idx, KEY_B]
            tt[idx + 1, NUMBERS] = tt[idx, NUMBERS]
            tt[idx + 1, WORK] = tt[idx, WORK]
            _set_tag(tt, idx + 1, _tag_at(tt, idx))
            row = idx
    numbers = (np.uint64(phi) << np.uint64(32)) | np.uint64(delta)
    word = (np.uint64(max(work, 1)) << _WORK_SHIFT) | _fields(deadline, win_by, safe, loses) | np.uint64(move + 1)
    tt[row, NUMBERS] = numbers
    tt[row, WORK] = word
    tt[row, KEY_A] = key_a ^ numbers ^ word
    tt[row, KEY_B] = key_b ^ numbers ^ word
    _set_tag(tt, row, _tag(key_a, key_b))


@njit(cache=True, **WITHOUT_REFCOUNTS)
def _loses(tt: NDArray[np.uint64], idx: Int64, key_a: np.uint64, key_b: np.uint64) -> bool:
    """The row of the key has the LOSES bit (not found: no)."""
    row, _, word = _read(tt, idx, key_a, key_b)
    return bool(row >= 0 and (word & _LOSES_BIT) != ZERO)


@njit(cache=True, **WITHOUT_REFCOUNTS)
def _remember(ws: np.record, last: Int64, sq: Int64, plies: Int64) -> None:
    """``sq`` proved a node with ``plies`` left in its game: add to its history."""
    bonus = history_bonus(plies)
    ws.history[sq] += bonus
    ws.counter[last + 1, sq] += bonus
    if ws.history[sq] > HISTORY_CAP or ws.counter[last + 1, sq] > HISTORY_CAP:
        for i in range(ws.history.shape[0]):
            ws.history[i] >>= 1
        for i in range(ws.counter.shape[0]):
            for j in range(ws.counter.shape[1]):
                ws.counter[i, j] >>= 1


# Sharing with alpha-beta (the parallel solver's portfolio, share_plies > 0): the search also
# reads and writes the alpha-beta search's table of exact bounds (_table, one table for every
# thread). A child whose stored bounds already decide its mover's goal (a win: lower bound > 0;
# not losing: lower bound >= 0; and the reverse with the upper bound) is taken as proved or
# disproved without a search, and every node this search proves or disproves is stored there
# as the bound it is (a win: lower bound 1; not a win: upper bound 0; not losing: lower bound
# 0; a loss: upper bound -1), which the alpha-beta searches read as they read their own; only
# at nodes less than share_plies plies below the root, where a subtree is worth the two extra
# table accesses per child (every node shared made the search take twice its time:
# SHARE_PLIES). With share_plies 0 (one thread) the bounds table is not touched and the search
# is exactly the one-thread search.
@njit(cache=True, **WITHOUT_REFCOUNTS)
def _take_bound(
    bounds: NDArray[np.uint64], pos: Position, attacker: bool, ply: Int64, tt: NDArray[np.uint64], idx: Int64, key_a: np.uint64,
    key_b: np.uint64,
) -> None:
    """When the alpha-beta table's bounds on ``pos`` (its side to move's goal: a win when
    ``attacker``, else not losing) decide that goal, and this table does not know it yet,
    store it here as proved or disproved."""
    lower, upper = _bounds_of(bounds, position_keys(pos), ply)
    threshold = 1 if attacker else 0  # the goal: score >= threshold
    if lower >= threshold:
        phi, delta = np.int64(0), PN_INF
    elif upper < threshold:
        phi, delta = PN_INF, np.int64(0)
    else:
        return
    found, old_phi, old_delta, _, _ = _lookup(tt, idx, key_a, key_b, NO_DEADLINE)
    if not found or (old_phi != 0 and old_delta != 0):
        # A bound says nothing of the ply: the attacker wins at some ply, or never.
        attacker_wins = (phi == 0) == attacker
        win_by, safe = (NO_DEADLINE, NO_FACT) if attacker_wins else (NO_FACT, NO_DEADLINE)
        _store(tt, idx, key_a, key_b, phi, delta, 1, -1, _fields(NO_DEADLINE, win_by, safe, False))


@njit(cache=True, **WITHOUT_REFCOUNTS)
def _bounds_of(bounds: NDArray[np.uint64], key: tuple[np.uint64, np.uint64], ply: Int64) -> tuple[Int64, Int64]:
    """``(lower, upper)`` stored in the alpha-beta table for the position of ``key`` (only
    their signs matter here), ``(-INF, INF)`` when it holds none."""
    _, alpha, beta, cutoff, value = probe(bounds, entry_index(bounds, key), key, np.int64(0), ply, np.int64(-INF), np.int64(INF))
    if cutoff:  # lower == upper
        return value, value
    return alpha, beta


@njit(cache=True, **WITHOUT_REFCOUNTS)
def _share_result(bounds: NDArray[np.uint64], pos: Position, attacker: bool, ply: Int64, phi: Int64, delta: Int64, move: Int64) -> None:
    """Store what this search decided about ``pos`` in the alpha-beta table, as a bound on
    its side to move's score (module doc); nothing while it is undecided."""
    if phi != 0 and delta != 0:
        return
    threshold = 1 if attacker else 0
    if phi == 0:
        lower, upper = np.int64(threshold), np.int64(INF)
    else:
        lower, upper = np.int64(-INF), np.int64(threshold - 1)
    key = position_keys(pos)
    store(bounds, entry_index(bounds, key), key, lower, upper, move, EXACT_DEPTH - ply, ply)


# Children known at once are not searched: a move that makes five or ends the game has its
# result, and a move after which the opponent makes five on the line it must play (flips
# aside, as in _negamax) fails. A node with a move reaching its goal is proved without
# looking at the others; one with no move left is disproved.
@njit(cache=True, **WITHOUT_REFCOUNTS)
def _expand(
    settings: DfpnSettings, pos: Position, attacker: bool, ply: Int64, tt: NDArray[np.uint64], ws: np.record, bounds: NDArray[np.uint64],
) -> tuple[Int64, Int64, Int64, bool]:
    """Fill ``ply``'s child lists with the open moves. Returns ``(n_open, decided, lost_by,
    drawn)``: ``decided`` is the square of a move reaching the mover's goal at once (the node
    is proved), or -1; with ``n_open`` 0 and no such move the node is disproved. ``lost_by``:
    for the defender, the donuts placed when the latest of the attacker's wins its moves left
    out come (NO_FACT: none left out). ``drawn``: the deciding move, or one of the attacker's
    moves left out, draws (ATTACKER_LOSES)."""
    donuts, single, share_plies, deadline, other_goal = settings
    placed = pos.placed_own + pos.placed_opp
    m = legal_mask(pos.own, pos.opp, pos.last, ws.line_masks)
    opp_threats = threats(pos.opp, FULL_BOARD_BITS & ~(pos.own | pos.opp))
    n = 0
    lost_by = NO_FACT
    drawn = False
    draw_move = np.int64(-1)
    while m != ZERO:
        sq = ctz(m)
        m &= m - ONE
        child, status = settle(place(pos, sq, flips(pos.own, pos.opp, sq, single)), donuts)
        if status == WON_BY_FIVE or status == ENDED_WON:
            return n, sq, lost_by, False
        if status == ENDED_DRAWN:
            # A draw is the defender's goal, but a win of its own may follow among its moves
            # (ATTACKER_LOSES): it is taken after the scan, unless one does.
            if not attacker and draw_move < 0:
                draw_move = sq
            drawn = True
            continue
        if status != PASSES and status != MOVES_AGAIN:  # lost, with this donut
            lost_by = max(lost_by, np.int64(placed + 1))
            continue
        if status == PASSES and (attacker or placed + 2 <= deadline):
            # The opponent makes five on the line it must play: this move fails (the
            # defender's only when that five comes by the deadline).
            hits = legal_mask(child.own, child.opp, sq, ws.line_masks) & opp_threats
            if hits != ZERO and can_win_now(child.own, child.opp, hits, single):
                lost_by = max(lost_by, np.int64(placed + 2))
                continue
        ws.move[ply, n] = sq
        ws.own[ply, n] = child.own
        ws.opp[ply, n] = child.opp
        ws.placed_own[ply, n] = child.placed_own
        ws.placed_opp[ply, n] = child.placed_opp
        ws.passes[ply, n] = 1 if status == PASSES else 0
        key_a, key_b = _key(child, (not attacker) if status == PASSES else attacker)
        ws.key_a[ply, n] = key_a
        ws.key_b[ply, n] = key_b
        ws.index[ply, n] = _bucket(tt, key_a, key_b)
        # The children's rows are read next (their numbers, at every step of the node): each
        # one the tags say may be there is asked for now, so they load side by side, not one
        # memory wait after another (on the empty boards of random_grid(0..7), two threads: 17%
        # less time with the table aligned, before the tags).
        tag = _tag(key_a, key_b)
        if _tag_at(tt, ws.index[ply, n]) == tag or _tag_at(tt, ws.index[ply, n] + 1) == tag:
            prefetch(tt, ws.index[ply, n])
        if other_goal:  # the row _other_goal reads
            prefetch(tt, _bucket(tt, key_a, key_b ^ _ATTACKER_BIT))
        if ply < share_plies:
            _take_bound(bounds, child, (not attacker) if status == PASSES else attacker, ply + 1, tt, ws.index[ply, n], key_a, key_b)
        ws.order[ply, n] = ws.history[sq] + ws.counter[pos.last + 1, sq]
        # df-pn+: a child never searched needs one move of its mover to be proved and
        # every one of them to be disproved.
        ws.phi[ply, n] = 1
        ws.delta[ply, n] = popcount(legal_mask(child.own, child.opp, sq, ws.line_masks))
        ws.child_win[ply, n] = NO_FACT
        ws.child_safe[ply, n] = NO_FACT
        ws.child_loses[ply, n] = 0
        n += 1
    if draw_move >= 0:
        return n, draw_move, lost_by, True
    # The table's reads once every child's row is on its way (above).
    for i in range(n):
        if deadline != NO_DEADLINE:  # (a value's search finds no numbers of a deadline's)
            _estimate(tt, ws, ply, i, deadline)
        if other_goal:
            _other_goal(tt, ws, ply, i)
    return n, np.int64(-1), lost_by, drawn


@njit(cache=True, **WITHOUT_REFCOUNTS)
def _estimate(tt: NDArray[np.uint64], ws: np.record, ply: Int64, i: Int64, deadline: Int64) -> None:
    """A child searched before for another deadline, and undecided then, starts from the
    numbers it had (an estimate of its proof's size, never a proof: both are above 0)."""
    row, numbers, word = _read(tt, ws.index[ply, i], ws.key_a[ply, i], ws.key_b[ply, i])
    if row < 0 or np.int64((word >> _NUMBERS_AT_SHIFT) & _FIELD) == deadline:
        return
    phi, delta = np.int64(numbers >> np.uint64(32)), np.int64(numbers & _LOW32)
    if phi != 0 and delta != 0 and phi < PN_INF and delta < PN_INF:
        ws.phi[ply, i] = phi
        ws.delta[ply, i] = delta


@njit(cache=True, **WITHOUT_REFCOUNTS)
def _other_goal(tt: NDArray[np.uint64], ws: np.record, ply: Int64, i: Int64) -> None:
    """A child whose position the other goal's search decided (the same position with the
    other player attacking: a value's two searches) may be decided here too: that player wins,
    so this attacker never does and loses; or that player loses (ATTACKER_LOSES), so this
    attacker wins (at some ply: the search has no deadline)."""
    key_a, key_b = ws.key_a[ply, i], ws.key_b[ply, i] ^ _ATTACKER_BIT
    row, _, word = _read(tt, _bucket(tt, key_a, key_b), key_a, key_b)
    if row < 0:
        return
    other_wins = ((word >> _WIN_BY_SHIFT) & _FIELD) != ZERO
    other_loses = (word & _LOSES_BIT) != ZERO
    if not other_wins and not other_loses:
        return
    mover_attacks = (ws.key_b[ply, i] & _ATTACKER_BIT) != ZERO
    if other_wins:  # this attacker never wins, and loses
        ws.child_safe[ply, i] = NO_DEADLINE
        ws.child_loses[ply, i] = 1
        goal = not mover_attacks
    else:  # this attacker wins
        ws.child_win[ply, i] = NO_DEADLINE
        goal = mover_attacks
    ws.phi[ply, i], ws.delta[ply, i] = (np.int64(0), PN_INF) if goal else (PN_INF, np.int64(0))


@njit(cache=True, **WITHOUT_REFCOUNTS)
def _last_donut(settings: DfpnSettings, pos: Position, attacker: bool, ws: np.record) -> Int64:
    """A move reaching the mover's goal with the last donut placed before the deadline, or -1:
    for the attacker, a win at once; for the defender, any move that does not lose at once."""
    m = legal_mask(pos.own, pos.opp, pos.last, ws.line_masks)
    while m != ZERO:
        sq = ctz(m)
        m &= m - ONE
        _, status = settle(place(pos, sq, flips(pos.own, pos.opp, sq, settings.single)), settings.donuts)
        if attacker and (status == WON_BY_FIVE or status == ENDED_WON):
            return sq
        if not attacker and status != ENDED_LOST:
            return sq
    return np.int64(-1)


@njit(cache=True, **WITHOUT_REFCOUNTS)
def _facts(
    settings: DfpnSettings, attacker: bool, ply: Int64, n: Int64, proved: bool, lost_by: Int64, drawn: bool,
    tt: NDArray[np.uint64], ws: np.record,
) -> tuple[Int64, Int64, bool]:
    """``(win_by, safe_through, loses)`` of a node just decided (its mover's goal ``proved``
    or disproved), from its ``n`` open children's (comments at NO_DEADLINE, ATTACKER_LOSES):
    the attacker's win by its fastest proved move, or by the slowest of the defender's moves;
    no win by the defender's most lasting move, or by the attacker's least. A child decided
    without a fact in the table (its row lost, or the deadline reached in it) was decided at
    this deadline. ``lost_by`` and ``drawn`` as :func:`_expand` found them."""
    deadline = settings.deadline
    attacker_wins = proved == attacker
    # The attacker's moves left out never win (they lose or draw), the defender's lose by lost_by.
    fact = lost_by if attacker_wins and not attacker else (NO_DEADLINE if not attacker_wins and attacker else NO_FACT)
    # The attacker loses: every one of its moves loses, or one of the defender's wins (only
    # without a deadline, where a line is not cut short by it).
    loses = deadline == NO_DEADLINE and not attacker_wins and attacker and not drawn
    for i in range(n):
        found, c_phi, c_delta, c_win, c_safe = _lookup(tt, ws.index[ply, i], ws.key_a[ply, i], ws.key_b[ply, i], deadline)
        if not found:
            c_phi, c_delta = ws.phi[ply, i], ws.delta[ply, i]
        if ws.passes[ply, i] != 0:  # from the mover's side
            c_phi, c_delta = c_delta, c_phi
        if proved and c_phi != 0:  # not one of the moves that reach the goal
            continue
        if attacker_wins:
            win = c_win if c_win != NO_FACT and c_win <= deadline else deadline
            kept = ws.child_win[ply, i]  # what its search returned, in case the row was lost since
            if kept != NO_FACT and kept < win:
                win = kept
            fact = min(fact, win) if attacker and fact != NO_FACT else max(fact, win)
            continue
        safe = max(c_safe, ws.child_safe[ply, i], deadline)
        fact = min(fact, safe) if attacker else max(fact, safe)
        if deadline == NO_DEADLINE:
            child_loses = ws.child_loses[ply, i] != 0 or _loses(tt, ws.index[ply, i], ws.key_a[ply, i], ws.key_b[ply, i])
            loses = (loses and child_loses) if attacker else (loses or child_loses)
    if attacker_wins:
        return fact, NO_FACT, False
    return NO_FACT, fact, loses


@njit(cache=True, **WITHOUT_REFCOUNTS)
def _children_numbers(
    tt: NDArray[np.uint64], ws: np.record, ply: Int64, n: Int64, deadline: Int64,
) -> tuple[Int64, Int64, Int64, Int64, Int64]:
    """The node's ``(phi, delta, best, second, best_b)`` from its ``n`` children's numbers
    (the table's at ``deadline``, else the last this node saw): from the mover's side, phi =
    the cheapest child to make fail for the opponent, delta = all of them together (a child
    where the same side moves again counts as is); ``best`` that child (ties to the higher
    history), ``second`` the next cheapest, ``best_b`` the best child's share of delta."""
    phi: Int64 = PN_INF
    delta: Int64 = np.int64(0)
    best = np.int64(0)
    second: Int64 = PN_INF
    best_b: Int64 = np.int64(0)
    for i in range(n):
        found, c_phi, c_delta, _, _ = _lookup(tt, ws.index[ply, i], ws.key_a[ply, i], ws.key_b[ply, i], deadline)
        if not found:
            c_phi, c_delta = ws.phi[ply, i], ws.delta[ply, i]
        if ws.passes[ply, i] != 0:
            a, b = c_delta, c_phi
        else:
            a, b = c_phi, c_delta
        if a < phi or (a == phi and ws.order[ply, i] > ws.order[ply, best]):
            if a < phi:
                second = phi
            else:
                second = a
            phi = a
            best = np.int64(i)
            best_b = b
        elif a < second:
            second = a
        delta += b
    if phi == 0:
        delta = PN_INF
    elif delta >= PN_INF:
        delta = PN_INF - 1 if phi < PN_INF else PN_INF
    return phi, delta, best, second, best_b


@njit(cache=True, **WITHOUT_REFCOUNTS)
def _returns(ws: np.record, win_by: Int64, safe: Int64, loses: bool) -> None:
    """The facts of the node being left, for its parent (``child_*``) or :func:`dfpn_root`."""
    ws.returned[0] = win_by
    ws.returned[1] = safe
    ws.returned[2] = 1 if loses else 0


@njit(cache=True, **WITHOUT_REFCOUNTS)
def _mid(
    settings: DfpnSettings, pos: Position, attacker: bool, ply: Int64, th_phi: Int64, th_delta: Int64, tt: NDArray[np.uint64],
    ws: np.record, bounds: NDArray[np.uint64],
) -> tuple[Int64, Int64]:
    """Search the node until its ``phi >= th_phi`` or ``delta >= th_delta`` (or it is
    proved or disproved); leaves its numbers in the table, and its facts once decided (also in
    the workspace's ``returned``). Returns ``(phi, delta)``.
    Recursive: every call passes the same argument types (``settings`` as :func:`dfpn_root`
    made it), or the on-disk cache breaks (numba #6061/#6713)."""
    nodes0 = ws.stats[NODES]
    ws.stats[NODES] += 1
    _returns(ws, NO_FACT, NO_FACT, False)
    if ws.stats[NODES] >= ws.stats[NODE_LIMIT]:
        ws.stats[ABORTED] = 1
        return np.int64(1), np.int64(1)
    deadline = settings.deadline
    placed = np.int64(pos.placed_own + pos.placed_opp)
    if placed >= deadline:
        # The deadline has come: any win from here on is too late for the attacker.
        _returns(ws, NO_FACT, placed, False)
        return (PN_INF, np.int64(0)) if attacker else (np.int64(0), PN_INF)
    if placed + 1 == deadline:
        # The last donut before the deadline: only what it does at once counts, so the
        # node is decided by one scan of its moves, with no child searched or stored (the
        # widest layer of a deadline's tree).
        sq = _last_donut(settings, pos, attacker, ws)
        if (sq >= 0) == attacker:  # the attacker wins with it, or every defender's move loses at once
            _returns(ws, placed + 1, NO_FACT, False)
        else:
            _returns(ws, NO_FACT, placed + 1, False)
        if sq < 0:
            return PN_INF, np.int64(0)
        if ply == 0:
            ws.root_move[0] = sq
        return np.int64(0), PN_INF
    key_a, key_b = _key(pos, attacker)
    idx = _bucket(tt, key_a, key_b)
    prefetch(tt, idx)  # for _store, once the node is left
    n, decided, lost_by, drawn = _expand(settings, pos, attacker, ply, tt, ws, bounds)
    win_by: Int64  # the node's facts once decided (comment at NO_DEADLINE)
    safe: Int64
    if decided >= 0:
        # The attacker wins with this donut, or the defender ends the game without losing.
        win_by, safe = (np.int64(placed + 1), NO_FACT) if attacker else (NO_FACT, NO_DEADLINE)
        loses = not attacker and not drawn
        _store(tt, idx, key_a, key_b, 0, PN_INF, 1, decided, _fields(deadline, win_by, safe, loses))
        _returns(ws, win_by, safe, loses)
        if ply == 0:
            ws.root_move[0] = decided
        return np.int64(0), PN_INF
    if n == 0:
        # Every move of the attacker loses or draws; every one of the defender's loses.
        win_by, safe = (NO_FACT, NO_DEADLINE) if attacker else (lost_by, NO_FACT)
        loses = attacker and not drawn
        _store(tt, idx, key_a, key_b, PN_INF, 0, 1, -1, _fields(deadline, win_by, safe, loses))
        _returns(ws, win_by, safe, loses)
        return PN_INF, np.int64(0)
    while True:
        phi, delta, best, second, best_b = _children_numbers(tt, ws, ply, n, deadline)
        if phi >= th_phi or delta >= th_delta or ws.stats[ABORTED]:
            break
        # The best child is searched while it stays the best by a margin (1 + epsilon)
        # and the rest's numbers leave room under this node's thresholds.
        child_a = min(th_phi, max(second + 1, second + second * EPSILON_PERCENT // 100))
        child_b = min(PN_INF, th_delta - delta + best_b)
        child = Position(ws.own[ply, best], ws.opp[ply, best], ws.move[ply, best], ws.placed_own[ply, best], ws.placed_opp[ply, best])
        if ws.passes[ply, best] != 0:
            c_phi, c_delta = _mid(settings, child, not attacker, ply + 1, child_b, child_a, tt, ws, bounds)
        else:
            c_phi, c_delta = _mid(settings, child, attacker, ply + 1, child_a, child_b, tt, ws, bounds)
        ws.phi[ply, best] = c_phi
        ws.delta[ply, best] = c_delta
        ws.child_win[ply, best] = ws.returned[0]
        ws.child_safe[ply, best] = ws.returned[1]
        ws.child_loses[ply, best] = ws.returned[2]
    move = -1
    if phi == 0:
        move = ws.move[ply, best]
        _remember(ws, pos.last, move, plies_left(pos, settings.donuts))
        if ply == 0:
            ws.root_move[0] = move
    if not ws.stats[ABORTED]:
        win_by, safe, loses = NO_FACT, NO_FACT, False
        if phi == 0 or delta == 0:
            win_by, safe, loses = _facts(settings, attacker, ply, n, phi == 0, lost_by, drawn, tt, ws)
        _store(tt, idx, key_a, key_b, phi, delta, ws.stats[NODES] - nodes0, move, _fields(deadline, win_by, safe, loses))
        _returns(ws, win_by, safe, loses)
        if ply < settings.share_plies:
            _share_result(bounds, pos, attacker, ply, phi, delta, move)
    return phi, delta


@njit(cache=True, nogil=True)
def dfpn_root(
    rulebook: Rulebook, pos: Position, attacker: bool, tt: NDArray[np.uint64], workspace: NDArray[np.void], node_limit: Int64,
    bounds: NDArray[np.uint64], share_plies: Int64, deadline_plies: Int64,
) -> tuple[Int64, Int64, Int64, Int64]:
    """Does the side to move of ``pos`` reach its goal (a win when ``attacker``, else not
    losing; with a deadline, the attacker's win within ``deadline_plies`` plies from ``pos``,
    :data:`NO_DEADLINE` or more for none)? Returns ``(result, move, nodes, plies)``: ``result``
    1 proved (``move`` reaches it), 0 disproved, -1 when ``node_limit`` was reached first;
    decided, ``plies`` is the fact found at the root (comment at NO_DEADLINE): the attacker
    wins within that many plies, or does not win within them (at least ``deadline_plies``
    then); :data:`NO_DEADLINE` for a win at some ply or none ever, :data:`ATTACKER_LOSES` for
    none ever and a loss. Reads and writes the
    alpha-beta table ``bounds`` too at nodes less than ``share_plies`` below the root (module
    doc; only without a deadline); with 0, ``bounds`` is not touched."""
    ws = workspace[0]
    ws.line_masks[:] = rulebook.line_masks
    ws.stats[NODES] = 0
    ws.stats[NODE_LIMIT] = node_limit
    ws.stats[ABORTED] = 0
    ws.root_move[0] = -1
    placed = np.int64(pos.placed_own + pos.placed_opp)
    if deadline_plies >= NO_DEADLINE - placed:  # no donut count reaches it
        deadline, shared = NO_DEADLINE, np.int64(share_plies)
    else:
        # Alpha-beta's bounds are about the value, not a deadline: nothing is shared.
        deadline, shared = np.int64(placed + max(np.int64(0), deadline_plies)), np.int64(0)
    # What the other goal's search decided is read in a value's second search ("does the side
    # to move not lose?", after "does it win?"): in the first, the reads find next to nothing
    # and cost a tenth of the time; with a deadline, they pruned 1-7% of the nodes, about what
    # they cost.
    other_goal = deadline == NO_DEADLINE and not attacker
    settings = DfpnSettings(np.int64(rulebook.donuts), rulebook.single, shared, deadline, other_goal)
    phi, delta = _mid(settings, as_position(pos), attacker, np.int64(0), PN_INF, PN_INF, tt, ws, bounds)
    if ws.stats[ABORTED]:
        return np.int64(-1), np.int64(-1), ws.stats[NODES], np.int64(-1)
    win_by, safe, loses = ws.returned
    fact = ATTACKER_LOSES if loses else max(win_by, safe)
    plies = fact if fact >= NO_DEADLINE else fact - placed
    if phi == 0:
        return np.int64(1), ws.root_move[0], ws.stats[NODES], plies
    return np.int64(0), np.int64(-1), ws.stats[NODES], plies
