"""The state record of the compiled Donut Boxes engine and its layout, drawn once.

A game's state is a :class:`Tables` record of fixed-size int arrays plus the layout's
``grid`` (:mod:`.grid`), kept beside the record because it is the one array that grows:
the kernels take ``(t, grid)`` and the ones that may grow it return the new grid.

The layout of every array, with ``P`` players and ``K`` = :func:`capacities`' card rows::

    meta     int64[NMETA]              the game's scalars, one field each:
               PLAYERS SQUARED PERFECT CLOSERS       players and the three rule switches
               TO_MOVE TRIGGER FINAL_LEFT STREAK OVER the turn and the end of the game
               NCARDS NCELLS NANCH NBIG              rows in use in cards, cell, anchors, big
               MINR MAXR MINC MAXC                   the layout's bounding box
               WBITS                                 the grid is 2**WBITS squared
               TURNS STAMP                           moves played; the last sealing pass's number
    cell     CELL_DTYPE[4K]            a record per quadrant placed, in placement order:
               row col flavour roll owner            where, flavour 1..4, roll, owner (-1 start card)
               frozen winner                         delivered; the player its box scored for (NOBODY)
               parent next                           union-find parent; next quadrant of the run (a ring)
               size has_roll witness stamp           at a run's root (:mod:`.runs`)
    hold     int32[4K, P]              at a run's root: the donuts each player holds in it
    cards    int32[K, NCARD_FIELDS]    KOWNER KTYPE KROT KR KC KFLAV: the state dict's "cards" rows
    anchors  int32[32K, 2]             (row, column) of the NANCH free anchors, any order
    big      int32[4K]                 roots of the NBIG open runs of 3 or more
    piles    int32[P, PILE_CAP]        ring buffers, top at pinfo HEAD, COUNT long
    trays    int32[P, TRAY_SIZE]       card types, sorted, TRAYN long
    pinfo    int32[P, NPINFO]          HEAD COUNT KNOWN TRAYN SCORE BOXES

The quadrant table, the one the kernels read most, is a structured array (``cell[i].parent``):
measured as fast as int columns read through constants, or a little faster. The other
tables keep int columns named by constants: they are whole rows copied or compared
(``cards``, ``pinfo``), vectors (``meta``) or plain matrices, and the agents' reward kernel
(:func:`.._search.rewards`) takes ``pinfo`` as a plain int matrix. Rows past the counts are
written before they are read, so copies copy only the used rows (:func:`copy_into`).

Every kernel option, code base and card table the other modules share lives here too.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..deck import CANONICAL_ROTATIONS, DECK_SIZE, HAS_ROLL, ROLL, ROTATED_FACES, TRAY_SIZE
from ..moves import BOX, KIND_SHIFT, PLACE, STUCK

# ---------------------------------------------------------------------------- the layout (see the module doc)
PLAYERS, SQUARED, PERFECT, CLOSERS, TO_MOVE, TRIGGER, FINAL_LEFT, STREAK, OVER = range(9)
NCARDS, NCELLS, NANCH, NBIG, MINR, MAXR, MINC, MAXC, WBITS, TURNS, STAMP = range(9, 20)
NMETA = 20
#: One placed quadrant (see the module doc): what it is, then its run's bookkeeping.
CELL_DTYPE = np.dtype([(name, np.int32) for name in (
    "row", "col", "flavour", "roll", "owner", "frozen", "winner", "parent", "next", "size", "has_roll", "witness", "stamp")])
HEAD, COUNT, KNOWN, TRAYN, SCORE, BOXES = range(6)
NPINFO = 6
KOWNER, KTYPE, KROT, KR, KC, KFLAV = range(6)
NCARD_FIELDS = 6
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
LEAF = {"cache": True, "_nrt": False}
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


class Tables(NamedTuple):
    """Every array of a state but the grid (drawn in the module docstring)."""

    meta: np.ndarray  # int64[NMETA]
    cell: np.ndarray  # CELL_DTYPE[4K]
    hold: np.ndarray  # int32[4K, P]: holdings at run roots
    cards: np.ndarray  # int32[K, NCARD_FIELDS]
    anchors: np.ndarray  # int32[32K, 2]
    big: np.ndarray  # int32[4K]
    piles: np.ndarray  # int32[P, PILE_CAP]: ring buffers, top at HEAD
    trays: np.ndarray  # int32[P, TRAY_SIZE]: sorted, TRAYN long
    pinfo: np.ndarray  # int32[P, NPINFO]


def capacities(players: int) -> tuple[int, int, int]:
    """``(cards, cells, anchors)`` a game of ``players`` can need at most: every deck and
    the start card; a free anchor touches some quadrant, at most 8 per quadrant."""
    cards = players * DECK_SIZE + 1
    return cards, 4 * cards, 8 * 4 * cards


def empty_tables(players: int) -> Tables:
    """Zeroed tables for ``players`` (filled by :func:`~.playouts.start_game` or the Python layer)."""
    n_cards, n_cells, n_anch = capacities(players)
    return Tables(
        meta=np.zeros(NMETA, np.int64), cell=np.zeros(n_cells, CELL_DTYPE),
        hold=np.zeros((n_cells, players), np.int32), cards=np.zeros((n_cards, NCARD_FIELDS), np.int32),
        anchors=np.zeros((n_anch, 2), np.int32), big=np.zeros(n_cells, np.int32),
        piles=np.zeros((players, PILE_CAP), np.int32), trays=np.zeros((players, TRAY_SIZE), np.int32),
        pinfo=np.zeros((players, NPINFO), np.int32),
    )


def copy_tables(t: Tables) -> Tables:
    """An independent copy of every array."""
    return Tables(*(a.copy() for a in t))


@njit(cache=True)
def copy_into(dst, src):
    """Make ``dst`` (tables sized for the same players) hold the state ``src`` holds.

    Only the used rows are copied: the engine writes every field of a row when it adds
    one, so rows beyond the counts are never read."""
    meta = src.meta
    dst.meta[:] = meta
    n_cells = meta[NCELLS]
    dst.cell[:n_cells] = src.cell[:n_cells]
    dst.hold[:n_cells] = src.hold[:n_cells]
    n_cards = meta[NCARDS]
    dst.cards[:n_cards] = src.cards[:n_cards]
    n_anch = meta[NANCH]
    dst.anchors[:n_anch] = src.anchors[:n_anch]
    n_big = meta[NBIG]
    dst.big[:n_big] = src.big[:n_big]
    dst.piles[:] = src.piles
    dst.trays[:] = src.trays
    dst.pinfo[:] = src.pinfo
