"""The state record of the compiled Donut Boxes engine and its layout, drawn once.

A game's state is a :class:`Tables` record of fixed-size arrays plus the layout's
``grid`` (:mod:`.grid`), kept beside the record because it is the one array that grows:
the kernels take ``(t, grid)`` and the ones that may grow it return the new grid.

The layout of every array is drawn once, in the comment above ``META_DTYPE``.

Every kernel option, code base and card table the other modules share lives here too.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol, TypeAlias, TypedDict

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..deck import CANONICAL_ROTATIONS, DECK_SIZE, HAS_ROLL, ROLL, ROTATED_FACES, TRAY_SIZE
from ..moves import BOX, KIND_SHIFT, PLACE, STUCK

# ---------------------------------------------------------------------------- the layout
# The layout of every array, with P players and K = capacities()' card rows:
#
#     meta     META_DTYPE[1]             the game's scalars, one record of int64 fields:
#                players squared perfect closers          players and the three rule switches
#                to_move trigger final_left streak over   the turn and the end of the game
#                n_cards n_cells n_anchors n_big          rows in use in cards, cell, anchors, big
#                min_row max_row min_col max_col          the layout's bounding box
#                wbits                                    the grid is 2**wbits squared
#                turns stamp                              moves played; the last sealing pass's number
#     cell     CELL_DTYPE[4K]            a record per quadrant placed, in placement order:
#                row col flavour roll owner               where, flavour 1..4, roll, owner (-1 start card)
#                frozen winner                            delivered; the player its box scored for (NOBODY)
#                parent next                              union-find parent; next quadrant of the run (a ring)
#                size has_roll witness stamp              at a run's root (:mod:`.runs`)
#     hold     int32[4K, P]              at a run's root: the donuts each player holds in it
#     cards    CARD_DTYPE[K]             a record per card laid, in order: the state dict's "cards" rows,
#                owner card_type rot row col flavour      owner (-1 start card), type, turns, where, roll's flavour
#     anchors  int32[32K, 2]             (row, column) of the n_anchors free anchors, any order
#     big      int32[4K]                 roots of the n_big open runs of 3 or more
#     piles    int32[P, PILE_CAP]        ring buffers, top at pinfo head, count long
#     trays    int32[P, TRAY_SIZE]       card types, sorted, tray_len long
#     pinfo    PINFO_DTYPE[P]            a record per player:
#                head count known                         the pile: its top, its length, the bottom cards
#                                                         its owner put there and knows
#                tray_len score boxes                     cards in the tray; points; boxes delivered
#
# The tables of named things are structured arrays, read by field (``t.meta[0].to_move``,
# ``cell[i].parent``, ``pinfo[p].score``, ``cards[k].owner``; the Python layer writes
# ``t.meta[0]["to_move"]``): Numba reads a field at a constant offset, measured as fast as an int
# column read through a named constant. Rows past the counts are written before they are read,
# so copies copy only the used rows (copy_into).

#: The game's scalars (see the layout above): one record.
META_DTYPE = np.dtype([(name, np.int64) for name in (
    "players", "squared", "perfect", "closers", "to_move", "trigger", "final_left", "streak", "over",
    "n_cards", "n_cells", "n_anchors", "n_big", "min_row", "max_row", "min_col", "max_col", "wbits", "turns", "stamp")])
#: One placed quadrant (see the layout above): what it is, then its run's bookkeeping.
CELL_DTYPE = np.dtype([(name, np.int32) for name in (
    "row", "col", "flavour", "roll", "owner", "frozen", "winner", "parent", "next", "size", "has_roll", "witness", "stamp")])
#: One player's pile, tray and tally (see the layout above).
PINFO_DTYPE = np.dtype([(name, np.int32) for name in ("head", "count", "known", "tray_len", "score", "boxes")])
#: One card laid (see the layout above).
CARD_DTYPE = np.dtype([(name, np.int32) for name in ("owner", "card_type", "rot", "row", "col", "flavour")])
#: A pile is a ring buffer this long (a power of two at least a deck).
PILE_CAP = 32
PILE_MASK = PILE_CAP - 1

# ---------------------------------------------------------------------------- shared constants
#: Options of the leaf kernels: no allocation inside, so no reference counting either. With
#: it on, Numba counts a reference to every array argument at each call, atomically,
#: whenever its pruning fails: measured, three quarters of a random game's time went there.
#: A leaf kernel takes the record whole and reads its arrays inside (no counting either way).
#: Numba passes a record as every field of every array, flattened into the call's arguments,
#: so the kernels run for every candidate move that LLVM does not inline (the matching test
#: and the roll's options) take the one table and the scalars they read instead: measured,
#: the whole record there cost about a tenth of a random game and a third of ISMCTS's speed.
class _LeafOptions(TypedDict):
    """The options of :data:`LEAF` that Numba's stubs know (``_nrt`` is private to Numba)."""

    cache: bool


# A TypedDict value may hold keys beyond those it names; ``_nrt`` is not in Numba's stubs.
LEAF: _LeafOptions = {"cache": True, "_nrt": False}  # type: ignore[typeddict-unknown-key]
#: Smallest run that scores and may be boxed early.
MIN_BOX = 3
#: The owner of the start card.
NEUTRAL = -1
#: The winner of a delivered box that scored for nobody (under 3 donuts, D18; a tie, D19).
NOBODY = -1
#: Card faces by type and rotation (quadrants in reading order), whether a type has a roll,
#: and each type's rotations that give distinct faces (NCANON of them, padded).
FACES = ROTATED_FACES.astype(np.int64)
ROLLS = HAS_ROLL.astype(np.int64)
NCANON = np.array([len(r) for r in CANONICAL_ROTATIONS], dtype=np.int64)
CANON = np.array([list(r) + [0] * (4 - len(r)) for r in CANONICAL_ROTATIONS], dtype=np.int64)
ROLL_CODE = ROLL
NFLAVOURS = 4
#: Bits 1..4: every plain flavour (a roll beside no live donut may take any, D10).
ALL_FLAVOURS_MASK = 0b11110
#: Move codes (:mod:`..moves`): the kind in the high bits, its payload below.
PLACE_BASE = PLACE << KIND_SHIFT
BOX_BASE = BOX << KIND_SHIFT
STUCK_BASE = STUCK << KIND_SHIFT
PAYLOAD_MASK = (1 << KIND_SHIFT) - 1


#: The layout's grid (:mod:`.grid`): int32[2**wbits squared], a packed entry per position.
Grid: TypeAlias = NDArray[np.int32]
#: Move codes (:mod:`..moves`), one int64 each.
Codes: TypeAlias = NDArray[np.int64]


class Tables(NamedTuple):
    """Every array of a state but the grid (drawn in the comment above ``META_DTYPE``)."""

    meta: NDArray[np.void]  # META_DTYPE[1]
    cell: NDArray[np.void]  # CELL_DTYPE[4K]
    hold: NDArray[np.int32]  # int32[4K, P]: holdings at run roots
    cards: NDArray[np.void]  # CARD_DTYPE[K]
    anchors: NDArray[np.int32]  # int32[32K, 2]
    big: NDArray[np.int32]  # int32[4K]
    piles: NDArray[np.int32]  # int32[P, PILE_CAP]: ring buffers, top at head
    trays: NDArray[np.int32]  # int32[P, TRAY_SIZE]: sorted, tray_len long
    pinfo: NDArray[np.void]  # PINFO_DTYPE[P]


class MetaRecord(Protocol):
    """The one :data:`META_DTYPE` record (``t.meta[0]``) as a kernel reads and writes it: by field."""

    players: int
    squared: int
    perfect: int
    closers: int
    to_move: int
    trigger: int
    final_left: int
    streak: int
    over: int
    n_cards: int
    n_cells: int
    n_anchors: int
    n_big: int
    min_row: int
    max_row: int
    min_col: int
    max_col: int
    wbits: int
    turns: int
    stamp: int


def capacities(players: int) -> tuple[int, int, int]:
    """``(cards, cells, anchors)`` a game of ``players`` can need at most: every deck and
    the start card; a free anchor touches some quadrant, at most 8 per quadrant."""
    cards = players * DECK_SIZE + 1
    return cards, 4 * cards, 8 * 4 * cards


def empty_tables(players: int) -> Tables:
    """Zeroed tables for ``players`` (filled by :func:`~.playouts.start_game` or the Python layer)."""
    n_cards, n_cells, n_anch = capacities(players)
    return Tables(
        meta=np.zeros(1, META_DTYPE), cell=np.zeros(n_cells, CELL_DTYPE),
        hold=np.zeros((n_cells, players), np.int32), cards=np.zeros(n_cards, CARD_DTYPE),
        anchors=np.zeros((n_anch, 2), np.int32), big=np.zeros(n_cells, np.int32),
        piles=np.zeros((players, PILE_CAP), np.int32), trays=np.zeros((players, TRAY_SIZE), np.int32),
        pinfo=np.zeros(players, PINFO_DTYPE),
    )


def copy_tables(t: Tables) -> Tables:
    """An independent copy of every array."""
    return Tables._make(a.copy() for a in t)


@njit(cache=True)
def copy_into(dst: Tables, src: Tables) -> None:
    """Make ``dst`` (tables sized for the same players) hold the state ``src`` holds.

    Only the used rows are copied: the engine writes every field of a row when it adds
    one, so rows beyond the counts are never read."""
    meta = src.meta[0]
    dst.meta[:] = src.meta
    n_cells = meta.n_cells
    dst.cell[:n_cells] = src.cell[:n_cells]
    dst.hold[:n_cells] = src.hold[:n_cells]
    n_cards = meta.n_cards
    dst.cards[:n_cards] = src.cards[:n_cards]
    n_anch = meta.n_anchors
    dst.anchors[:n_anch] = src.anchors[:n_anch]
    n_big = meta.n_big
    dst.big[:n_big] = src.big[:n_big]
    dst.piles[:] = src.piles
    dst.trays[:] = src.trays
    dst.pinfo[:] = src.pinfo
