"""Connect Four's private Numba engine: 7 columns by 6 rows as two ``uint64`` bitboards.

The representation is Pascal Pons' (the tutorial at blog.gamesolver.org), written here
afresh; the bit layout is drawn in the comment above :data:`COLUMN_BITS`.

A position is ``(current, mask, moves)`` from the side to move: ``current`` the stones of
the player to move, ``mask`` every stone, ``moves`` the stones played (plies). The
opponent's stones are ``current ^ mask``; who is who is never stored, so playing a move
is ``(current ^ mask, mask | cell, moves + 1)``: the next player's stones become
``current``.

Kernels take ``rules`` first (an ``int64`` they ignore: pass 0), a position whose game
goes on, and a legal column where they take one, and never raise: the Python layer
(:mod:`donuts_ai.connect_four.state`, :func:`donuts_ai.connect_four.kernels.pos_from_moves`)
checks first. A move is a column index 0..6 and a set of moves a ``uint64`` whose bit
``c`` is column ``c``; inside, the engine works on **cells** (one bit a cell), and
:func:`columns_of` turns a set of cells into the set of their columns.
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
from numba import njit

from .._bits import ONE, ZERO, ctz, popcount, rng_below
from .._numba_types import Int64
from .rules import HEIGHT as HEIGHT
from .rules import WIDTH as WIDTH

# --- the board and its bit layout ---------------------------------------------------------

# Each column takes COLUMN_BITS = 7 bits: its 6 cells, row 0 the bottom,
# and one **sentinel** bit on top that never holds a stone. Bit ``column * 7 + row``.
#
#     row 6 (sentinel)    6  13  20  27  34  41  48
#     row 5               5  12  19  26  33  40  47
#     row 4               4  11  18  25  32  39  46
#     row 3               3  10  17  24  31  38  45
#     row 2               2   9  16  23  30  37  44
#     row 1               1   8  15  22  29  36  43
#     row 0               0   7  14  21  28  35  42
#     column              a   b   c   d   e   f   g     (0 .. 6; Pons' digits 1 .. 7)
#
# Bits 49..63 are never set. The always-empty sentinel row is what lets whole-board shifts
# stay inside the board: a shift by 1 (up a column), 6 (down a diagonal), 7 (along a row) or
# 8 (up a diagonal) that walks off the top or bottom of a column lands on a sentinel (or
# beyond bit 48), which holds no stone, so no line of stones ever wraps from one column
# into the next.

#: Bits a column takes: its cells and the sentinel above them (the stride from one column to the next).
COLUMN_BITS = HEIGHT + 1
#: Cells on the board: the most plies a game lasts.
CELLS = WIDTH * HEIGHT
#: The weight of a threat in a move's ordering score (:func:`order`), above any
#: centrality (0..3): a move making more threats always comes first.
ORDER_THREATS = 8

#: The bottom cell of every column (bits 0, 7, ..., 42).
BOTTOM_MASK = np.uint64(sum(1 << (c * COLUMN_BITS) for c in range(WIDTH)))
#: Every cell of the board (the 42 playable bits; no sentinel): each bottom bit times the
#: ``HEIGHT`` ones of a full column.
BOARD_MASK = np.uint64(int(BOTTOM_MASK) * ((1 << HEIGHT) - 1))
#: The top cell of every column (row 5): a column is full when its top cell holds a stone.
TOP_MASK = np.uint64(int(BOTTOM_MASK) << (HEIGHT - 1))
#: The sentinel bit of every column (row 6): never a stone.
SENTINEL_MASK = np.uint64(int(BOTTOM_MASK) << HEIGHT)
#: The ``HEIGHT`` cells of column 0; column ``c``'s are these shifted by ``c * COLUMN_BITS``.
COLUMN0_MASK = np.uint64((1 << HEIGHT) - 1)
#: The moves' bits of a full move set: bit ``c`` for each column ``c``.
ALL_COLUMNS = np.uint64((1 << WIDTH) - 1)

#: Gathers one bit per column, on the bottom row (bit ``7c``), into bits ``36 + c`` by one
#: multiplication (:func:`_gather`). It has bits 0, 6, 12, ..., 36: multiplying adds copies of
#: the word shifted by ``6k`` for k = 0..6, and bit ``7c`` shifted by ``6 (6 - c)`` lands on
#: bit ``36 + c`` (the copies walk one bit a column, as the stride is 7 and the step 6). Every
#: other product lands on bit ``36 + 7i - 6j`` (i != j), below bit 36 when i < j and above
#: bit 42 when i > j, and no two products share a bit (7 and 6 are coprime and i, j < 7), so
#: the sum has no carries: bits 36..42 are exactly the columns. Products past bit 63 fall
#: off, which changes no lower bit.
GATHER_MULTIPLIER = np.uint64(sum(1 << ((COLUMN_BITS - 1) * k) for k in range(WIDTH)))
#: Where :data:`GATHER_MULTIPLIER` puts column 0's bit.
GATHER_SHIFT = np.uint64((COLUMN_BITS - 1) * (WIDTH - 1))

# The steps between neighbouring cells of a line, as bit distances (see the grid above).
#: Up a column.
STEP_UP = np.uint64(1)
#: Along a row (to the next column).
STEP_ROW = np.uint64(COLUMN_BITS)
#: Down a diagonal: the next column, one row lower.
STEP_FALLING = np.uint64(COLUMN_BITS - 1)
#: Up a diagonal: the next column, one row higher.
STEP_RISING = np.uint64(COLUMN_BITS + 1)

_HEIGHT = np.uint64(HEIGHT)
_TOP_ROW = np.uint64(HEIGHT - 1)
_COLUMN_BITS = np.int64(COLUMN_BITS)
_TWO = np.uint64(2)
_THREE = np.uint64(3)

# --- statuses -----------------------------------------------------------------------------

#: :func:`play`'s status: the game goes on, the next player moves.
GOES_ON = 0
#: :func:`play`'s status: the move made four in a row; the player who just moved won.
WON = 1
#: :func:`play`'s status: the move filled the board without four in a row; a draw.
DRAWN = 2

#: A position from the side to move: ``(current, mask, moves)``, two ``uint64`` bitboards
#: (the side to move's stones, every stone) and the plies played (``int64``). Kernels
#: return the bitboards to Python as Python ints; pass them back as ``np.uint64``
#: (:func:`as_position`), or Numba compiles another specialization.
Position: TypeAlias = tuple[np.uint64, np.uint64, Int64]

#: The xorshift state :func:`playout` uses for a seed of 0 (xorshift stays at 0 forever).
ZERO_SEED_STATE = np.uint64(0x9E3779B97F4A7C15)


def as_position(current: int | np.uint64, mask: int | np.uint64, moves: int | np.int64) -> Position:
    """A position typed as the kernels take it (Python).

    Args:
        current: the side to move's stones.
        mask: every stone.
        moves: the plies played.

    Returns:
        ``(np.uint64, np.uint64, np.int64)``.
    """
    return np.uint64(current), np.uint64(mask), int(moves)


# --- cells --------------------------------------------------------------------------------


@njit(cache=True)
def _unpack(pos: Position) -> tuple[np.uint64, np.uint64, np.int64]:
    """The fields of ``pos`` typed as the kernels compute with them (a no-op on typed input:
    an ``int64`` bitboard from a caller would make Numba mix signed and unsigned arithmetic)."""
    return np.uint64(pos[0]), np.uint64(pos[1]), np.int64(pos[2])


@njit(cache=True)
def possible(mask: np.uint64) -> np.uint64:
    """The cell each non-full column would take next (one bit per such column).

    In a column the stones are a run of ones from row 0 up; adding a one at row 0
    (``mask + BOTTOM_MASK``) carries up through the run and stops on the first empty cell,
    the one a stone dropped there falls to. A full column carries into its sentinel, which
    ``BOARD_MASK`` drops, and no carry goes past a sentinel into the next column."""
    cells: np.uint64 = (mask + BOTTOM_MASK) & BOARD_MASK
    return cells


@njit(cache=True)
def column_mask(column: Int64) -> np.uint64:
    """The six cells of ``column`` (0..6)."""
    cells: np.uint64 = COLUMN0_MASK << np.uint64(column * _COLUMN_BITS)
    return cells


@njit(cache=True)
def move_cell(mask: np.uint64, column: Int64) -> np.uint64:
    """The cell a stone dropped in ``column`` (not full) lands on: :func:`possible`'s carry,
    in that one column."""
    bottom = ONE << np.uint64(column * _COLUMN_BITS)
    cell: np.uint64 = (mask + bottom) & column_mask(column)
    return cell


@njit(cache=True)
def has_four(stones: np.uint64) -> bool:
    """True when ``stones`` (one player's) hold four in a row in any direction.

    For each step ``s``, ``pairs`` holds the cells that start two in a row along ``s``
    (``x`` and ``x + s``); two pairs ``2 s`` apart are four in a row. The sentinels keep
    lines from wrapping across columns (module docstring)."""
    for step in (STEP_UP, STEP_ROW, STEP_FALLING, STEP_RISING):
        pairs = stones & (stones >> step)
        if (pairs & (pairs >> (_TWO * step))) != ZERO:
            return True
    return False


@njit(cache=True)
def winning_cells(stones: np.uint64, mask: np.uint64) -> np.uint64:
    """The empty cells (any row, playable now or not) where one more stone of ``stones``
    (one player's, ``mask`` all stones) would complete four in a row through that cell.

    ``stones >> s`` has cell ``x`` set when ``x + s`` holds a stone, ``stones << s`` when
    ``x - s`` does. An empty cell completes a line along ``s`` when three stones sit at
    ``x+s, x+2s, x+3s``; ``x-s, x+s, x+2s``; ``x-2s, x-s, x+s``; or ``x-3s, x-2s, x-s``.
    Up a column only the last counts: the cells above an empty cell are empty."""
    # Up a column: the three stones just below.
    found = (stones << STEP_UP) & (stones << (_TWO * STEP_UP)) & (stones << (_THREE * STEP_UP))
    for step in (STEP_ROW, STEP_FALLING, STEP_RISING):
        above = (stones >> step) & (stones >> (_TWO * step))  # x+s and x+2s
        found |= above & (stones >> (_THREE * step))
        found |= above & (stones << step)
        below = (stones << step) & (stones << (_TWO * step))  # x-s and x-2s
        found |= below & (stones >> step)
        found |= below & (stones << (_THREE * step))
    empty: np.uint64 = found & (BOARD_MASK ^ mask)
    return empty


@njit(cache=True)
def _gather(bottoms: np.uint64) -> np.uint64:
    """Bits on the bottom row (``7c``) moved to bits ``c``: one multiplication (see
    :data:`GATHER_MULTIPLIER` above for why it has no carries)."""
    columns: np.uint64 = ((bottoms * GATHER_MULTIPLIER) >> GATHER_SHIFT) & ALL_COLUMNS
    return columns


@njit(cache=True)
def columns_of(cells: np.uint64) -> np.uint64:
    """The columns (bit ``c`` for column ``c``) holding at least one of ``cells`` (board cells).

    Adding ``BOARD_MASK`` adds 63 to each column's six bits: a column with any cell set
    reaches 64 and carries into its sentinel, and none reaches 128, so no carry passes the
    sentinel. The sentinels, brought down to the bottom row, are :func:`_gather`'s input."""
    flags = ((cells + BOARD_MASK) & SENTINEL_MASK) >> _HEIGHT
    return _gather(flags)


@njit(cache=True)
def nth_bit(bits: np.uint64, n: Int64) -> np.int64:
    """Index of the ``n``-th lowest set bit of ``bits`` (0-based, ``n < popcount(bits)``)."""
    for _ in range(n):
        bits &= bits - ONE
    return ctz(bits)


# --- the kernel API -----------------------------------------------------------------------


@njit(cache=True)
def start() -> Position:
    """The empty board, the first player to move."""
    return ZERO, ZERO, np.int64(0)


@njit(cache=True)
def legal(rules: Int64, pos: Position) -> np.uint64:
    """The playable columns.

    Args:
        rules: ignored (pass 0).
        pos: a position whose game goes on.

    Returns:
        A ``uint64`` with bit ``c`` set when column ``c`` is not full (0 on a full board).
    """
    _, mask, _ = _unpack(pos)
    # A column is playable while its top cell is empty; bring the top row down to the bottom row.
    return _gather((~mask & TOP_MASK) >> _TOP_ROW)


@njit(cache=True)
def play(rules: Int64, pos: Position, move: Int64) -> tuple[Position, np.int64]:
    """The side to move drops a stone in column ``move``.

    Args:
        rules: ignored (pass 0).
        pos: a position whose game goes on.
        move: a legal column (bit ``move`` of :func:`legal`).

    Returns:
        ``(next_position, status)``: the position after the move, from the next player's
        side, and :data:`GOES_ON`, :data:`WON` (the player who moved made four in a row) or
        :data:`DRAWN` (the board is full). After :data:`WON` or :data:`DRAWN` the game is
        over: pass the position to no other kernel.
    """
    current, mask, moves = _unpack(pos)
    cell = move_cell(mask, move)
    status = np.int64(GOES_ON)
    if has_four(current | cell):
        status = np.int64(WON)
    elif moves + 1 == CELLS:
        status = np.int64(DRAWN)
    return (current ^ mask, mask | cell, moves + 1), status


@njit(cache=True)
def key(rules: Int64, pos: Position) -> np.uint64:
    """A key unique to the position, for a transposition table.

    Args:
        rules: ignored (pass 0).
        pos: a position.

    Returns:
        ``current + mask + BOTTOM_MASK``: never 0, below ``2**49``.
    """
    # In each column, ``mask + bottom`` is the single bit just above the column's stones, and
    # adding ``current`` sets the side to move's stones below it (no carry: they lie below
    # that bit). So each column's bits say its height and which of its stones are the side
    # to move's; the side to move follows from the number of stones. (Pons' key is
    # ``current + mask``; the bottom row added makes every key non-zero, so a table may keep 0
    # for an empty slot.)
    current, mask, _ = _unpack(pos)
    k: np.uint64 = current + mask + BOTTOM_MASK
    return k


@njit(cache=True)
def winning(rules: Int64, pos: Position) -> np.uint64:
    """The columns in which the side to move makes four in a row at once.

    Args:
        rules: ignored (pass 0).
        pos: a position whose game goes on.

    Returns:
        A column set (bit ``c`` for column ``c``; 0 when none).
    """
    current, mask, _ = _unpack(pos)
    return columns_of(winning_cells(current, mask) & possible(mask))


@njit(cache=True)
def safe(rules: Int64, pos: Position) -> np.uint64:
    """The columns after which the opponent cannot win at once: those that end the game (a
    win, or the last cell), and those after which no column wins for the opponent.

    Args:
        rules: ignored (pass 0).
        pos: a position whose game goes on.

    Returns:
        A column set (0 when every move lets the opponent win at once).
    """
    # Pons' ``possibleNonLosingMoves``, plus the moves that win: after a move into ``cell``
    # that does not win, the opponent's winning cells are its winning cells now, less
    # ``cell``, and the cells it can play are the playable cells now, less ``cell``, plus the
    # cell just above it. So the opponent wins at once when it has a playable winning cell
    # other than ``cell`` (two of them: every move loses; one: only a move there may be
    # safe) or when its winning cell lies just above ``cell``.
    current, mask, _ = _unpack(pos)
    playable = possible(mask)
    threats = winning_cells(current ^ mask, mask)  # the opponent's
    forced = playable & threats
    candidates = playable
    if forced != ZERO:
        if (forced & (forced - ONE)) != ZERO:
            candidates = ZERO  # two cells to block: one move blocks one
        else:
            candidates = forced
    # ``threats >> 1`` marks the cell just below each of the opponent's winning cells.
    candidates &= ~(threats >> STEP_UP)
    return columns_of(candidates | (winning_cells(current, mask) & playable))


@njit(cache=True)
def plies_left(rules: Int64, pos: Position) -> np.int64:
    """The most plies the game may still last.

    Args:
        rules: ignored (pass 0).
        pos: a position.

    Returns:
        The empty cells, ``WIDTH * HEIGHT - moves``.
    """
    return np.int64(CELLS - pos[2])


@njit(cache=True)
def order(rules: Int64, pos: Position, move: Int64) -> np.int64:
    """A move-ordering score, higher first: the empty cells where the side to move would
    complete four in a row after its stone lands in ``move`` (Pons' ``moveScore``), times
    :data:`ORDER_THREATS`, plus the column's nearness to the centre.

    Args:
        rules: ignored (pass 0).
        pos: a position whose game goes on.
        move: a legal column.

    Returns:
        The score.
    """
    current, mask, _ = _unpack(pos)
    cell = move_cell(mask, move)
    return popcount(winning_cells(current | cell, mask | cell)) * ORDER_THREATS + centrality(move)


@njit(cache=True, inline="always")
def centrality(column: Int64) -> np.int64:
    """How near the centre ``column`` is: 3 for the centre column, 0 for the edges."""
    distance = column - WIDTH // 2
    return np.int64(WIDTH // 2 - (distance if distance >= 0 else -distance))


@njit(cache=True)
def playout(rules: Int64, pos: Position, seed: np.uint64) -> tuple[np.int64, np.int64, np.uint64]:
    """A uniformly random game from ``pos`` to its end: each ply a column drawn uniformly
    among the legal ones (:func:`donuts_ai._bits.rng_below` on a xorshift64* state).

    Args:
        rules: ignored (pass 0).
        pos: a position whose game goes on.
        seed: the xorshift state (non-zero: :func:`donuts_ai._bits.rng_seed` makes one; 0
            is replaced by a fixed state).

    Returns:
        ``(value, plies, seed)``: +1, 0 or -1, the result for the side to move at ``pos``;
        the plies played; the advanced state, for the next playout.
    """
    current, mask, moves = _unpack(pos)
    state = np.uint64(seed)
    if state == ZERO:
        state = ZERO_SEED_STATE
    plies = np.int64(0)
    while moves < CELLS:
        cells = possible(mask)  # one per legal column, in column order
        state, n = rng_below(state, popcount(cells))
        cell = ONE << np.uint64(nth_bit(cells, n))
        plies += 1
        if has_four(current | cell):
            # The side to move at ``pos`` plays plies 1, 3, 5, ...
            return np.int64(1 if plies % 2 == 1 else -1), plies, state
        current, mask, moves = current ^ mask, mask | cell, moves + 1
    return np.int64(0), plies, state


@njit(cache=True)
def perft(rules: Int64, pos: Position, depth: Int64) -> np.int64:
    """The leaves of the game tree ``depth`` plies below ``pos``: the positions ``depth``
    plies down and the finished games reached before.

    Args:
        rules: ignored (pass 0).
        pos: a position whose game goes on.
        depth: plies (0: the position itself, 1 leaf).

    Returns:
        The leaf count.
    """
    current, mask, moves = _unpack(pos)
    # The recursion gets exactly one set of argument types: with the on-disk cache, a
    # recursive kernel compiled in two specializations segfaults (numba #6061/#6713).
    return _perft(current, mask, moves, np.int64(depth))


@njit(cache=True)
def _perft(current: np.uint64, mask: np.uint64, moves: np.int64, depth: np.int64) -> np.int64:
    if depth <= 0:
        return np.int64(1)
    cells = possible(mask)
    if depth == 1:
        return popcount(cells)  # every child is a leaf, whatever it holds: count without playing
    total = np.int64(0)
    while cells != ZERO:
        rest = cells & (cells - ONE)
        cell = cells ^ rest  # the lowest
        cells = rest
        if has_four(current | cell) or moves + 1 == CELLS:
            total += 1  # the game ended: a leaf above the horizon
        else:
            total += _perft(current ^ mask, mask | cell, moves + 1, depth - 1)
    return total
