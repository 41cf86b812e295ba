"""Placing a card: the matching rule, the roll's flavour, laying the quadrants, sealing runs.

A free anchor (:mod:`.grid`) already guarantees four empty quadrants and an edge contact,
so whether a card may go there is the matching rule alone (:func:`_fits`). Laying it
joins its quadrants to their runs (:mod:`.runs`), updates the free anchors around it and
delivers every run it leaves closed (:func:`_seal_around`).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from .grid import ANCH_SHIFT, CELL_MASK, DC, DR, EXT, INNER, QC, QR, _anchor_add, _anchor_free, _anchor_remove, _gidx, cell_at
from .runs import _deliver, _run_open, _union, run_root
from .tables import (
    ALL_FLAVOURS_MASK,
    FACES,
    LEAF,
    NFLAVOURS,
    NOBODY,
    ROLL_CODE,
    Grid,
    Tables,
)


@njit(**LEAF)
def _fits(cell: NDArray[np.void], grid: Grid, wbits: int, perfect: bool, ctype: int, rot: int, a: int, b: int) -> bool:
    """Whether card type ``ctype`` turned ``rot`` may sit at the free anchor (a, b): the matching rule.

    One Good Match: some quadrant agrees with a live quadrant it touches. Perfect Match also:
    every quadrant that touches the layout agrees with a live one among what it touches, so
    one touching only frozen quadrants (which nothing may match against, D9) cannot go there."""
    any_agree = False
    for q in range(4):
        f = FACES[ctype, rot, q]
        touches = False
        ok = False
        for e in range(2):
            i = cell_at(grid, wbits, a + EXT[q, e, 0], b + EXT[q, e, 1])
            if i >= 0:
                touches = True
                if cell[i].frozen == 0 and (f == ROLL_CODE or f == cell[i].flavour):
                    ok = True
        if ok:
            any_agree = True
        elif touches and perfect:
            return False
    return any_agree


@njit(**LEAF)
def _roll_options(cell: NDArray[np.void], grid: Grid, wbits: int, ctype: int, rot: int, a: int, b: int) -> int:
    """Bit mask (bit f for flavour f) of the flavours the card's roll may take at (a, b): the
    flavours of the live layout quadrants it lands beside (D10; its own card's donuts do not
    settle it, frozen ones match nothing), or any flavour when it lands beside none."""
    q = 0
    while FACES[ctype, rot, q] != ROLL_CODE:
        q += 1
    mask = 0
    for e in range(2):
        i = cell_at(grid, wbits, a + EXT[q, e, 0], b + EXT[q, e, 1])
        if i >= 0 and cell[i].frozen == 0:
            mask |= 1 << cell[i].flavour
    if mask == 0:
        mask = ALL_FLAVOURS_MASK
    return mask


@njit(**LEAF)
def _start_roll_flavour(ctype: int) -> int:
    """The flavour a roll on the start card takes (D3): the lowest of its own card's other
    donuts beside it (nobody places the start card, so nobody chooses)."""
    q = 0
    while FACES[ctype, 0, q] != ROLL_CODE:
        q += 1
    flav = NFLAVOURS
    for e in range(2):
        f = FACES[ctype, 0, INNER[q, e]]
        if f != ROLL_CODE and f < flav:
            flav = f
    return flav


@njit(**LEAF)
def _add_cell(t: Tables, grid: Grid, r: int, c: int, flav: int, roll: int, owner: int) -> int:
    """A new quadrant, a run of its own, on the grid and in the bounding box; returns its id."""
    meta, cell, hold = t.meta[0], t.cell, t.hold
    i: int = meta.n_cells
    meta.n_cells = i + 1
    cell[i].row = r
    cell[i].col = c
    cell[i].flavour = flav
    cell[i].roll = roll
    cell[i].owner = owner
    cell[i].frozen = 0
    cell[i].winner = NOBODY
    cell[i].parent = i
    cell[i].size = 1
    cell[i].has_roll = roll
    cell[i].next = i
    cell[i].witness = 0
    cell[i].stamp = 0
    for q in range(meta.players):
        hold[i, q] = 0
    if owner >= 0:
        hold[i, owner] = 1
    g = _gidx(r, c, meta.wbits)
    grid[g] = (grid[g] & ~CELL_MASK) | (i + 1)
    if r < meta.min_row:
        meta.min_row = r
    if r > meta.max_row:
        meta.max_row = r
    if c < meta.min_col:
        meta.min_col = c
    if c > meta.max_col:
        meta.max_col = c
    return i


@njit(**LEAF)
def _put_card(t: Tables, grid: Grid, owner: int, ctype: int, rot: int, a: int, b: int, flav: int) -> None:
    """Lay the card's quadrants, join them to their runs and update the free anchors."""
    meta, cell, cards = t.meta[0], t.cell, t.cards
    wbits = meta.wbits
    squared = meta.squared != 0
    k = meta.n_cards
    meta.n_cards = k + 1
    card = cards[k]
    card.owner = owner
    card.card_type = ctype
    card.rot = rot
    card.row = a
    card.col = b
    card.flavour = flav
    first = meta.n_cells
    for q in range(4):
        f = FACES[ctype, rot, q]
        if f == ROLL_CODE:
            _add_cell(t, grid, a + QR[q], b + QC[q], flav, 1, owner)
        else:
            _add_cell(t, grid, a + QR[q], b + QC[q], f, 0, owner)
    for i in range(first, first + 4):
        r, c = cell[i].row, cell[i].col
        for d in range(4):
            j = cell_at(grid, wbits, r + DR[d], c + DC[d])
            if j >= 0 and cell[j].frozen == 0 and cell[j].flavour == cell[i].flavour:
                _union(t, i, j)
    for x in range(a - 1, a + 2):
        for y in range(b - 1, b + 2):
            _anchor_remove(t, grid, x, y)
    step = 2 if squared else 1
    for x in range(a - 2, a + 3, step):
        for y in range(b - 2, b + 3, step):
            if a - 1 <= x <= a + 1 and b - 1 <= y <= b + 1:
                continue  # overlaps the card just laid
            if (grid[_gidx(x, y, wbits)] >> ANCH_SHIFT) == 0 and _anchor_free(grid, wbits, squared, x, y):
                _anchor_add(t, grid, x, y)


@njit(**LEAF)
def _seal_around(t: Tables, grid: Grid, a: int, b: int, sealer: int) -> int:
    """Deliver every open run near the card at (a, b) that no coverable position touches.

    A placement can close a run it touches and, under Splitzkies, also one it only
    leaves beside a gap too small for a card: both lie within 2 of the card. Each run is
    looked at once (its root stamped with this call's number)."""
    meta, cell = t.meta[0], t.cell
    wbits = meta.wbits
    squared = meta.squared != 0
    meta.stamp += 1
    stamp = meta.stamp
    sealed = 0
    for r in range(a - 2, a + 4):
        for c in range(b - 2, b + 4):
            i = cell_at(grid, wbits, r, c)
            if i < 0 or cell[i].frozen != 0:
                continue
            root = run_root(t, i)
            if cell[root].stamp == stamp:
                continue
            cell[root].stamp = stamp
            if not _run_open(t, grid, wbits, squared, root):
                _deliver(t, root, sealer, False)
                sealed += 1
    return sealed
