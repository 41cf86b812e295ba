"""The layout's grid: where each quadrant and free anchor is, on a torus that grows.

The grid is a torus: quadrant ``(r, c)`` lives at ``((r & m) << wbits) | (c & m)`` with
``m = 2**wbits - 1``. Every kernel reads at most :data:`REACH` positions beyond the
layout's bounding box, so positions never alias while the box plus twice the reach fits
in the grid; after every placement the grid doubles (:func:`ensure_room`) when the box
gets within :data:`ROOM` of that. A grid entry packs the id (+1) of the quadrant on it
(bits 0..10, 0 when empty) and the index (+1) of the free anchor whose top-left corner it
is (bits 11 up, 0 when none).

**Free anchors** are the top-left positions where a card of 4 empty quadrants would touch
the layout by an edge (on the card grid under Squared Away); ``t.anchors`` lists them in
any order, updated around each placed card, so that the legality of a card at an anchor
is the matching rule alone (:mod:`.placement`).

Also here: the geometry of a card's window (its quadrants and their outside neighbours)
and the position keys that move codes carry.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..moves import COORD_OFFSET, COORD_SPAN
from .tables import LEAF, Grid, MetaRecord, Tables

CELL_MASK = (1 << 11) - 1
ANCH_SHIFT = 11
#: Farthest a kernel reads beyond the layout's bounding box (anchor contact checks).
REACH = 3
#: The grid doubles when the bounding box plus this would no longer fit.
ROOM = 2 * REACH + 2
MIN_WBITS = 5
#: Quadrant offsets in reading order, and for each quadrant its two neighbours outside the card.
QR = np.array([0, 0, 1, 1], dtype=np.int64)
QC = np.array([0, 1, 0, 1], dtype=np.int64)
EXT = np.array([[[-1, 0], [0, -1]], [[-1, 1], [0, 2]], [[2, 0], [1, -1]], [[2, 1], [1, 2]]], dtype=np.int64)
#: For each quadrant, its two neighbours on the same card.
INNER = np.array([[1, 2], [0, 3], [0, 3], [1, 2]], dtype=np.int64)
#: The four edge neighbours of a position.
DR = np.array([-1, 1, 0, 0], dtype=np.int64)
DC = np.array([0, 0, -1, 1], dtype=np.int64)


@njit(**LEAF)
def _gidx(r: int, c: int, wbits: int) -> int:
    m = (1 << wbits) - 1
    return ((r & m) << wbits) | (c & m)


@njit(**LEAF)
def _key(r: int, c: int) -> int:
    """The position's key, as move codes carry it (the same whatever the grid size)."""
    return (r + COORD_OFFSET) * COORD_SPAN + (c + COORD_OFFSET)


@njit(**LEAF)
def cell_at(grid: Grid, wbits: int, r: int, c: int) -> int:
    i: int = (grid[_gidx(r, c, wbits)] & CELL_MASK) - 1
    return i


@njit(**LEAF)
def _coverable(grid: Grid, wbits: int, squared: bool, r: int, c: int) -> bool:
    """An empty position that a card could still cover (in a fully empty window the grid allows)."""
    if cell_at(grid, wbits, r, c) >= 0:
        return False
    if squared:
        return True  # on the card grid every empty quadrant lies in an empty card slot
    for a in range(r - 1, r + 1):
        for b in range(c - 1, c + 1):
            if (cell_at(grid, wbits, a, b) < 0 and cell_at(grid, wbits, a, b + 1) < 0
                    and cell_at(grid, wbits, a + 1, b) < 0 and cell_at(grid, wbits, a + 1, b + 1) < 0):
                return True
    return False


@njit(**LEAF)
def _anchor_free(grid: Grid, wbits: int, squared: bool, a: int, b: int) -> bool:
    """A card could sit with its top-left at (a, b): grid, 4 empty quadrants, an edge contact."""
    if squared and ((a & 1) != 0 or (b & 1) != 0):
        return False
    for q in range(4):
        if cell_at(grid, wbits, a + QR[q], b + QC[q]) >= 0:
            return False
    for q in range(4):
        for e in range(2):
            if cell_at(grid, wbits, a + EXT[q, e, 0], b + EXT[q, e, 1]) >= 0:
                return True
    return False


@njit(**LEAF)
def _is_anchor(grid: Grid, wbits: int, a: int, b: int) -> bool:
    anchored: bool = (grid[_gidx(a, b, wbits)] >> ANCH_SHIFT) != 0
    return anchored


@njit(**LEAF)
def _anchor_add(t: Tables, grid: Grid, a: int, b: int) -> None:
    meta, anchors = t.meta[0], t.anchors
    k = meta.n_anchors
    anchors[k, 0] = a
    anchors[k, 1] = b
    meta.n_anchors = k + 1
    g = _gidx(a, b, meta.wbits)
    grid[g] = (grid[g] & CELL_MASK) | ((k + 1) << ANCH_SHIFT)


@njit(**LEAF)
def _anchor_remove(t: Tables, grid: Grid, a: int, b: int) -> None:
    meta, anchors = t.meta[0], t.anchors
    wbits = meta.wbits
    g = _gidx(a, b, wbits)
    k = (grid[g] >> ANCH_SHIFT) - 1
    if k < 0:
        return
    last = meta.n_anchors - 1
    if k != last:
        la, lb = anchors[last, 0], anchors[last, 1]
        anchors[k, 0] = la
        anchors[k, 1] = lb
        gl = _gidx(la, lb, wbits)
        grid[gl] = (grid[gl] & CELL_MASK) | ((k + 1) << ANCH_SHIFT)
    grid[g] = grid[g] & CELL_MASK
    meta.n_anchors = last


@njit(**LEAF)
def _find_anchors(t: Tables, grid: Grid) -> None:
    """List every free anchor around the bounding box (the list must be empty)."""
    meta = t.meta[0]
    wbits = meta.wbits
    squared = meta.squared != 0
    for x in range(meta.min_row - 2, meta.max_row + 2):
        if squared and (x & 1):
            continue
        for y in range(meta.min_col - 2, meta.max_col + 2):
            if squared and (y & 1):
                continue
            if _anchor_free(grid, wbits, squared, x, y):
                _anchor_add(t, grid, x, y)


@njit(cache=True)
def _fill_grid(t: Tables, wbits: int) -> Grid:
    """A fresh grid of 2**wbits squared holding every cell and every listed anchor."""
    meta, cell, anchors = t.meta[0], t.cell, t.anchors
    meta.wbits = wbits
    grid = np.zeros(1 << (2 * wbits), np.int32)
    for i in range(meta.n_cells):
        grid[_gidx(cell[i].row, cell[i].col, wbits)] = i + 1
    for k in range(meta.n_anchors):
        g = _gidx(anchors[k, 0], anchors[k, 1], wbits)
        grid[g] = (grid[g] & CELL_MASK) | ((k + 1) << ANCH_SHIFT)
    return grid


@njit(**LEAF)
def _room_bits(meta: MetaRecord) -> int:
    """The grid size (log2) the bounding box needs: itself plus ROOM."""
    extent = max(meta.max_row - meta.min_row, meta.max_col - meta.min_col) + 1
    wbits = meta.wbits
    while extent + ROOM > (1 << wbits):
        wbits += 1
    return wbits


@njit(**LEAF)
def _needs_room(meta: MetaRecord) -> bool:
    return _room_bits(meta) != meta.wbits


@njit(cache=True)
def ensure_room(t: Tables, grid: Grid) -> Grid:
    """``grid``, or a doubled one, so that the bounding box plus :data:`ROOM` fits."""
    if not _needs_room(t.meta[0]):
        return grid
    return _fill_grid(t, _room_bits(t.meta[0]))
