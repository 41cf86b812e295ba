"""The compiled Donut Boxes engine (private): the rules on plain arrays, in Numba.

A state is a :class:`Tables` tuple of fixed-size arrays plus the layout ``grid`` (kept
apart because it is the one array that grows). The Python layer (:mod:`.state`) owns
parsing, checking and errors; these kernels never raise and trust their input.

**The grid** is a torus: quadrant ``(r, c)`` lives at ``((r & m) << wbits) | (c & m)``
with ``m = 2**wbits - 1``. Every kernel reads at most :data:`REACH` positions beyond
the layout's bounding box, so positions never alias while the box plus twice the reach
fits in the grid; after every placement :func:`ensure_room` doubles the grid when the
box gets within :data:`ROOM` of that. A grid entry packs the id (+1) of the quadrant on
it (bits 0..10, 0 when empty) and the index (+1) of the free anchor whose top-left
corner it is (bits 11 up, 0 when none).

**Quadrants** ("cells") are rows of ``cell`` in placement order. Each open run is a
union-find tree over its cells (``CPARENT``) whose root keeps the run's size, whether
it holds a roll and every player's holding (``hold``); its cells form a circular list
(``CNEXT``), so merging two runs is two pointer swaps and sealing walks only the run.
Runs never split: a delivered run freezes whole and never joins anything again.
``big`` lists the roots of open runs of 3 or more (those that can be boxed early and
score at the end).

**Free anchors** are the top-left positions where a card of 4 empty quadrants would
touch the layout by an edge (on the card grid under Squared Away); ``anchors`` lists
them (any order), updated around each placed card. Legality of a card at an anchor is
then the matching rule alone.

The move codes are those of :mod:`.moves`: the same move has the same code whatever
the grid size, so codes carry across copies and sampled worlds.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .deck import CANONICAL_ROTATIONS, DECK_SIZE, HAS_ROLL, ROLL, ROTATED_FACES, TRAY_SIZE
from .moves import BOX, COORD_OFFSET, COORD_SPAN, KIND_SHIFT, PLACE, PLACE_STRIDE, ROT_STRIDE, STUCK, TYPE_STRIDE

# ---------------------------------------------------------------------------- layout of the arrays
# meta (int64) fields
PLAYERS, SQUARED, PERFECT, CLOSERS, TO_MOVE, TRIGGER, FINAL_LEFT, STREAK, OVER = range(9)
NCARDS, NCELLS, NANCH, NBIG, MINR, MAXR, MINC, MAXC, WBITS, TURNS = range(9, 19)
NMETA = 19
# cell (int32) columns
CR, CC, CFLAV, CROLL, COWNER, CFROZEN, CPARENT, CSIZE, CHASROLL, CNEXT = range(10)
NCF = 10
# pinfo (int32) columns: pile ring head and length, known bottom cards, tray length, score, boxes
HEAD, COUNT, KNOWN, TRAYN, SCORE, BOXES = range(6)
NPINFO = 6
# cards (int32) columns, as the state dict's "cards" rows
KOWNER, KTYPE, KROT, KR, KC, KFLAV = range(6)

CELL_MASK = (1 << 11) - 1
ANCH_SHIFT = 11
#: Farthest a kernel reads beyond the layout's bounding box (anchor contact checks).
REACH = 3
#: The grid doubles when the bounding box plus this would no longer fit.
ROOM = 2 * REACH + 2
MIN_WBITS = 5
MIN_BOX = 3
NEUTRAL = -1
#: Random placement tries before a random move falls back to listing every legal move.
MAX_TRIES = 48
#: Quadrant offsets in reading order, and for each quadrant its two neighbours outside the card.
QR = np.array([0, 0, 1, 1], dtype=np.int64)
QC = np.array([0, 1, 0, 1], dtype=np.int64)
EXT = np.array([[[-1, 0], [0, -1]], [[-1, 1], [0, 2]], [[2, 0], [1, -1]], [[2, 1], [1, 2]]], dtype=np.int64)
#: For each quadrant, its two neighbours on the same card.
INNER = np.array([[1, 2], [0, 3], [0, 3], [1, 2]], dtype=np.int64)
DR = np.array([-1, 1, 0, 0], dtype=np.int64)
DC = np.array([0, 0, -1, 1], dtype=np.int64)
FACES = ROTATED_FACES.astype(np.int64)
ROLLS = HAS_ROLL.astype(np.int64)
NCANON = np.array([len(r) for r in CANONICAL_ROTATIONS], dtype=np.int64)
CANON = np.array([list(r) + [0] * (4 - len(r)) for r in CANONICAL_ROTATIONS], dtype=np.int64)
ROLL_CODE = ROLL
NFLAVOURS = 4
#: A pile is a ring buffer this long (a power of two at least a deck).
PILE_CAP = 32
PILE_MASK = PILE_CAP - 1
PLACE_BASE = PLACE << KIND_SHIFT
BOX_BASE = BOX << KIND_SHIFT
STUCK_BASE = STUCK << KIND_SHIFT
PAYLOAD_MASK = (1 << KIND_SHIFT) - 1


class Tables(NamedTuple):
    """Every array of a state but the grid (see the module docstring)."""

    meta: np.ndarray  # int64[NMETA]
    cell: np.ndarray  # int32[max cells, NCF]
    hold: np.ndarray  # int32[max cells, players]: holdings at run roots
    cards: np.ndarray  # int32[max cards, 6]
    anchors: np.ndarray  # int32[max anchors, 2]
    big: np.ndarray  # int32[max cells]
    piles: np.ndarray  # int32[players, PILE_CAP]: ring buffers, top at HEAD
    trays: np.ndarray  # int32[players, TRAY_SIZE]: sorted, TRAYN long
    pinfo: np.ndarray  # int32[players, NPINFO]


def capacities(players: int) -> tuple[int, int, int]:
    """``(cards, cells, anchors)`` a game of ``players`` can need at most: every deck and
    the start card; a free anchor touches some quadrant, at most 8 per quadrant."""
    cards = players * DECK_SIZE + 1
    return cards, 4 * cards, 8 * 4 * cards


def empty_tables(players: int) -> Tables:
    """Zeroed tables for ``players`` (filled by :func:`start_game` or the Python layer)."""
    n_cards, n_cells, n_anch = capacities(players)
    return Tables(
        np.zeros(NMETA, np.int64), np.zeros((n_cells, NCF), np.int32), np.zeros((n_cells, players), np.int32),
        np.zeros((n_cards, 6), np.int32), np.zeros((n_anch, 2), np.int32), np.zeros(n_cells, np.int32),
        np.zeros((players, PILE_CAP), np.int32), np.zeros((players, TRAY_SIZE), np.int32),
        np.zeros((players, NPINFO), np.int32),
    )


def copy_tables(t: Tables) -> Tables:
    return Tables(*(a.copy() for a in t))


# ---------------------------------------------------------------------------- grid
@njit(cache=True, inline="always")
def _gidx(r, c, wbits):
    m = (1 << wbits) - 1
    return ((r & m) << wbits) | (c & m)


@njit(cache=True, inline="always")
def _cell_at(grid, wbits, r, c):
    return (grid[_gidx(r, c, wbits)] & CELL_MASK) - 1


@njit(cache=True, inline="always")
def _coverable(grid, wbits, squared, r, c):
    """An empty position that a card could still cover (in a fully empty window the grid allows)."""
    if _cell_at(grid, wbits, r, c) >= 0:
        return False
    if squared:
        return True  # on the card grid every empty quadrant lies in an empty card slot
    for a in range(r - 1, r + 1):
        for b in range(c - 1, c + 1):
            if (_cell_at(grid, wbits, a, b) < 0 and _cell_at(grid, wbits, a, b + 1) < 0
                    and _cell_at(grid, wbits, a + 1, b) < 0 and _cell_at(grid, wbits, a + 1, b + 1) < 0):
                return True
    return False


@njit(cache=True, inline="always")
def _anchor_free(grid, wbits, squared, a, b):
    """A card could sit with its top-left at (a, b): grid, 4 empty quadrants, an edge contact."""
    if squared and ((a & 1) != 0 or (b & 1) != 0):
        return False
    for q in range(4):
        if _cell_at(grid, wbits, a + QR[q], b + QC[q]) >= 0:
            return False
    for q in range(4):
        for e in range(2):
            if _cell_at(grid, wbits, a + EXT[q, e, 0], b + EXT[q, e, 1]) >= 0:
                return True
    return False


@njit(cache=True, inline="always")
def _anchor_add(meta, grid, anchors, a, b):
    k = meta[NANCH]
    anchors[k, 0] = a
    anchors[k, 1] = b
    meta[NANCH] = k + 1
    g = _gidx(a, b, meta[WBITS])
    grid[g] = (grid[g] & CELL_MASK) | ((k + 1) << ANCH_SHIFT)


@njit(cache=True, inline="always")
def _anchor_remove(meta, grid, anchors, a, b):
    wbits = meta[WBITS]
    g = _gidx(a, b, wbits)
    k = (grid[g] >> ANCH_SHIFT) - 1
    if k < 0:
        return
    last = meta[NANCH] - 1
    if k != last:
        la, lb = anchors[last, 0], anchors[last, 1]
        anchors[k, 0] = la
        anchors[k, 1] = lb
        gl = _gidx(la, lb, wbits)
        grid[gl] = (grid[gl] & CELL_MASK) | ((k + 1) << ANCH_SHIFT)
    grid[g] = grid[g] & CELL_MASK
    meta[NANCH] = last


@njit(cache=True)
def _fill_grid(meta, cell, anchors, wbits):
    """A fresh grid of 2**wbits squared holding every cell and every listed anchor."""
    grid = np.zeros(1 << (2 * wbits), np.int32)
    for i in range(meta[NCELLS]):
        grid[_gidx(cell[i, CR], cell[i, CC], wbits)] = i + 1
    for k in range(meta[NANCH]):
        g = _gidx(anchors[k, 0], anchors[k, 1], wbits)
        grid[g] = (grid[g] & CELL_MASK) | ((k + 1) << ANCH_SHIFT)
    return grid


@njit(cache=True)
def ensure_room(t, grid):
    """``grid``, or a doubled one, so that the bounding box plus :data:`ROOM` fits."""
    meta = t.meta
    extent = max(meta[MAXR] - meta[MINR], meta[MAXC] - meta[MINC]) + 1
    wbits = meta[WBITS]
    if extent + ROOM <= (1 << wbits):
        return grid
    while extent + ROOM > (1 << wbits):
        wbits += 1
    meta[WBITS] = wbits
    return _fill_grid(meta, t.cell, t.anchors, wbits)


# ---------------------------------------------------------------------------- runs
@njit(cache=True, inline="always")
def _find(cell, x):
    root = x
    while cell[root, CPARENT] != root:
        root = cell[root, CPARENT]
    while cell[x, CPARENT] != root:
        nxt = cell[x, CPARENT]
        cell[x, CPARENT] = root
        x = nxt
    return root


@njit(cache=True, inline="always")
def _big_remove(meta, big, root):
    n = meta[NBIG]
    for i in range(n):
        if big[i] == root:
            big[i] = big[n - 1]
            meta[NBIG] = n - 1
            return


@njit(cache=True, inline="always")
def _union(meta, cell, hold, big, a, b):
    ra = _find(cell, a)
    rb = _find(cell, b)
    if ra == rb:
        return
    if cell[ra, CSIZE] < cell[rb, CSIZE]:
        ra, rb = rb, ra
    was_big = cell[ra, CSIZE] >= MIN_BOX
    if cell[rb, CSIZE] >= MIN_BOX:
        _big_remove(meta, big, rb)
    cell[rb, CPARENT] = ra
    cell[ra, CSIZE] += cell[rb, CSIZE]
    cell[ra, CHASROLL] |= cell[rb, CHASROLL]
    for q in range(meta[PLAYERS]):
        hold[ra, q] += hold[rb, q]
    nxt = cell[ra, CNEXT]
    cell[ra, CNEXT] = cell[rb, CNEXT]
    cell[rb, CNEXT] = nxt
    if not was_big and cell[ra, CSIZE] >= MIN_BOX:
        big[meta[NBIG]] = ra
        meta[NBIG] += 1


@njit(cache=True)
def _run_open(grid, cell, wbits, squared, root):
    """Some quadrant of the run touches a coverable empty position."""
    x = root
    while True:
        r, c = cell[x, CR], cell[x, CC]
        for d in range(4):
            if _coverable(grid, wbits, squared, r + DR[d], c + DC[d]):
                return True
        x = cell[x, CNEXT]
        if x == root:
            return False


@njit(cache=True)
def _first_cell(cell, root):
    """The run's first quadrant in reading order, as a (row, column) key."""
    best = np.int64(1) << 62
    x = root
    while True:
        key = (cell[x, CR] + COORD_OFFSET) * COORD_SPAN + (cell[x, CC] + COORD_OFFSET)
        if key < best:
            best = key
        x = cell[x, CNEXT]
        if x == root:
            return best


@njit(cache=True)
def _majority(hold, root, players, sealer):
    """The player holding most donuts of the run (at least one); a tie goes to ``sealer`` when
    ``sealer`` is among the tied, else -1 (nobody)."""
    best = 0
    for q in range(players):
        if hold[root, q] > best:
            best = hold[root, q]
    if best == 0:
        return -1
    top, count = -1, 0
    for q in range(players):
        if hold[root, q] == best:
            top = q
            count += 1
    if count == 1:
        return top
    if sealer >= 0 and hold[root, sealer] == best:
        return sealer
    return -1


@njit(cache=True)
def _points(cell, root):
    size = cell[root, CSIZE]
    if size < MIN_BOX:
        return 0
    return size * 2 if cell[root, CHASROLL] else size


@njit(cache=True)
def _deliver(t, root, sealer, early):
    """Seal or box ``root``'s run: freeze it and score it. Returns the scorer (-1 none)."""
    meta, cell, pinfo = t.meta, t.cell, t.pinfo
    points = _points(cell, root)
    scorer = -1
    if points > 0:
        if early or meta[CLOSERS]:
            scorer = sealer
        else:
            scorer = _majority(t.hold, root, meta[PLAYERS], sealer)
        _big_remove(meta, t.big, root)
    x = root
    while True:
        cell[x, CFROZEN] = 1
        x = cell[x, CNEXT]
        if x == root:
            break
    if scorer >= 0:
        pinfo[scorer, SCORE] += points
        pinfo[scorer, BOXES] += 1
    return scorer


# ---------------------------------------------------------------------------- placements
@njit(cache=True, inline="always")
def _fits(grid, cell, wbits, perfect, t, rot, a, b):
    """Whether card type ``t`` turned ``rot`` may sit at the free anchor (a, b): the matching rule."""
    any_agree = False
    for q in range(4):
        f = FACES[t, rot, q]
        live = False
        ok = False
        for e in range(2):
            i = _cell_at(grid, wbits, a + EXT[q, e, 0], b + EXT[q, e, 1])
            if i >= 0 and cell[i, CFROZEN] == 0:
                live = True
                if f == ROLL_CODE or f == cell[i, CFLAV]:
                    ok = True
        if live:
            if ok:
                any_agree = True
            elif perfect:
                return False
    return any_agree


@njit(cache=True, inline="always")
def _roll_options(grid, cell, wbits, t, rot, a, b):
    """Bit mask (bit f for flavour f) of the flavours the card's roll may take at (a, b)."""
    q = 0
    while FACES[t, rot, q] != ROLL_CODE:
        q += 1
    mask = 0
    for e in range(2):
        f = FACES[t, rot, INNER[q, e]]
        if f != ROLL_CODE:
            mask |= 1 << f
        i = _cell_at(grid, wbits, a + EXT[q, e, 0], b + EXT[q, e, 1])
        if i >= 0 and cell[i, CFROZEN] == 0:
            mask |= 1 << cell[i, CFLAV]
    if mask == 0:
        mask = 0b11110
    return mask


@njit(cache=True, inline="always")
def _add_cell(t, grid, r, c, flav, roll, owner):
    meta, cell, hold = t.meta, t.cell, t.hold
    i = meta[NCELLS]
    meta[NCELLS] = i + 1
    cell[i, CR] = r
    cell[i, CC] = c
    cell[i, CFLAV] = flav
    cell[i, CROLL] = roll
    cell[i, COWNER] = owner
    cell[i, CFROZEN] = 0
    cell[i, CPARENT] = i
    cell[i, CSIZE] = 1
    cell[i, CHASROLL] = roll
    cell[i, CNEXT] = i
    for q in range(meta[PLAYERS]):
        hold[i, q] = 0
    if owner >= 0:
        hold[i, owner] = 1
    g = _gidx(r, c, meta[WBITS])
    grid[g] = (grid[g] & ~CELL_MASK) | (i + 1)
    if r < meta[MINR]:
        meta[MINR] = r
    if r > meta[MAXR]:
        meta[MAXR] = r
    if c < meta[MINC]:
        meta[MINC] = c
    if c > meta[MAXC]:
        meta[MAXC] = c
    return i


@njit(cache=True)
def _put_card(t, grid, owner, ctype, rot, a, b, flav):
    """Lay the card's quadrants, join them to their runs and update the free anchors."""
    meta, cell = t.meta, t.cell
    wbits = meta[WBITS]
    squared = meta[SQUARED] != 0
    k = meta[NCARDS]
    meta[NCARDS] = k + 1
    row = t.cards[k]
    row[KOWNER] = owner
    row[KTYPE] = ctype
    row[KROT] = rot
    row[KR] = a
    row[KC] = b
    row[KFLAV] = flav
    first = meta[NCELLS]
    for q in range(4):
        f = FACES[ctype, rot, q]
        if f == ROLL_CODE:
            _add_cell(t, grid, a + QR[q], b + QC[q], flav, 1, owner)
        else:
            _add_cell(t, grid, a + QR[q], b + QC[q], f, 0, owner)
    for i in range(first, first + 4):
        r, c = cell[i, CR], cell[i, CC]
        for d in range(4):
            j = _cell_at(grid, wbits, r + DR[d], c + DC[d])
            if j >= 0 and cell[j, CFROZEN] == 0 and cell[j, CFLAV] == cell[i, CFLAV]:
                _union(meta, cell, t.hold, t.big, i, j)
    for x in range(a - 1, a + 2):
        for y in range(b - 1, b + 2):
            _anchor_remove(meta, grid, t.anchors, x, y)
    step = 2 if squared else 1
    for x in range(a - 2, a + 3, step):
        for y in range(b - 2, b + 3, step):
            if (grid[_gidx(x, y, wbits)] >> ANCH_SHIFT) == 0 and _anchor_free(grid, wbits, squared, x, y):
                _anchor_add(meta, grid, t.anchors, x, y)


@njit(cache=True)
def _seal_around(t, grid, a, b, sealer):
    """Deliver every open run near the card at (a, b) that no coverable position touches.

    A placement can close a run it touches and, under Splitzkies, also one it only
    leaves beside a gap too small for a card: both lie within 2 of the card."""
    meta, cell = t.meta, t.cell
    wbits = meta[WBITS]
    squared = meta[SQUARED] != 0
    roots = np.empty(36, np.int64)
    n = 0
    for r in range(a - 2, a + 4):
        for c in range(b - 2, b + 4):
            i = _cell_at(grid, wbits, r, c)
            if i < 0 or cell[i, CFROZEN] != 0:
                continue
            root = _find(cell, i)
            seen = False
            for k in range(n):
                if roots[k] == root:
                    seen = True
                    break
            if not seen:
                roots[n] = root
                n += 1
    sealed = 0
    for k in range(n):
        if not _run_open(grid, cell, wbits, squared, roots[k]):
            _deliver(t, roots[k], sealer, False)
            sealed += 1
    return sealed


# ---------------------------------------------------------------------------- turns
@njit(cache=True, inline="always")
def _tray_remove(trays, pinfo, p, ctype):
    n = pinfo[p, TRAYN]
    k = 0
    while trays[p, k] != ctype:
        k += 1
    for j in range(k, n - 1):
        trays[p, j] = trays[p, j + 1]
    pinfo[p, TRAYN] = n - 1


@njit(cache=True, inline="always")
def _tray_insert(trays, pinfo, p, ctype):
    n = pinfo[p, TRAYN]
    k = n
    while k > 0 and trays[p, k - 1] > ctype:
        trays[p, k] = trays[p, k - 1]
        k -= 1
    trays[p, k] = ctype
    pinfo[p, TRAYN] = n + 1


@njit(cache=True)
def _finish(t):
    """Open runs of 3 or more score in full to their strict majority holder."""
    meta, cell = t.meta, t.cell
    for k in range(meta[NBIG]):
        root = t.big[k]
        scorer = _majority(t.hold, root, meta[PLAYERS], -1)
        if scorer >= 0:
            t.pinfo[scorer, SCORE] += _points(cell, root)
    meta[OVER] = 1
    meta[TO_MOVE] = -1


@njit(cache=True)
def _fits_anywhere(t, grid, ctype):
    meta = t.meta
    for k in range(meta[NANCH]):
        for x in range(NCANON[ctype]):
            if _fits(grid, t.cell, meta[WBITS], meta[PERFECT] != 0, ctype, CANON[ctype, x], t.anchors[k, 0],
                     t.anchors[k, 1]):
                return True
    return False


@njit(cache=True)
def _layout_dead(t, grid):
    """No card left to any player, in a tray or a pile, fits anywhere in any rotation."""
    for p in range(t.meta[PLAYERS]):
        for j in range(t.pinfo[p, TRAYN]):
            if _fits_anywhere(t, grid, t.trays[p, j]):
                return False
        for k in range(t.pinfo[p, COUNT]):
            if _fits_anywhere(t, grid, t.piles[p, (t.pinfo[p, HEAD] + k) & PILE_MASK]):
                return False
    return True


@njit(cache=True)
def _end_turn(t, grid, p, stuck):
    meta, pinfo, piles, trays = t.meta, t.pinfo, t.piles, t.trays
    n = meta[PLAYERS]
    while pinfo[p, TRAYN] < TRAY_SIZE and pinfo[p, COUNT] > 0:
        head = pinfo[p, HEAD]
        _tray_insert(trays, pinfo, p, piles[p, head])
        pinfo[p, HEAD] = (head + 1) & PILE_MASK
        pinfo[p, COUNT] -= 1
        if pinfo[p, KNOWN] > pinfo[p, COUNT]:
            pinfo[p, KNOWN] = pinfo[p, COUNT]
    meta[STREAK] = meta[STREAK] + 1 if stuck else 0
    meta[TURNS] += 1
    if meta[TRIGGER] < 0:
        if pinfo[p, COUNT] == 0:
            meta[TRIGGER] = p
            meta[FINAL_LEFT] = n - 1
    else:
        meta[FINAL_LEFT] -= 1
    if meta[TRIGGER] >= 0 and meta[FINAL_LEFT] == 0:
        _finish(t)
    elif meta[STREAK] == n and _layout_dead(t, grid):
        # Checked once a streak: nothing changes the layout while everyone is stuck.
        _finish(t)
    else:
        meta[TO_MOVE] = (p + 1) % n


@njit(cache=True)
def apply_move(t, grid, code):
    """Play the legal move ``code`` for the player to move. Returns ``(grid, cards placed,
    runs sealed or boxed)``; the grid is a new, larger one when the layout outgrew it."""
    meta = t.meta
    p = meta[TO_MOVE]
    kind = code >> KIND_SHIFT
    payload = code & PAYLOAD_MASK
    placed = 0
    sealed = 0
    if kind == PLACE:
        pos = payload // PLACE_STRIDE
        rest = payload % PLACE_STRIDE
        ctype = rest // TYPE_STRIDE
        rot = (rest % TYPE_STRIDE) // ROT_STRIDE
        flav = rest % ROT_STRIDE
        a = pos // COORD_SPAN - COORD_OFFSET
        b = pos % COORD_SPAN - COORD_OFFSET
        _tray_remove(t.trays, t.pinfo, p, ctype)
        _put_card(t, grid, p, ctype, rot, a, b, flav)
        sealed = _seal_around(t, grid, a, b, p)
        placed = 1
        grid = ensure_room(t, grid)
    elif kind == BOX:
        a = payload // COORD_SPAN - COORD_OFFSET
        b = payload % COORD_SPAN - COORD_OFFSET
        i = _cell_at(grid, meta[WBITS], a, b)
        _deliver(t, _find(t.cell, i), p, True)
        sealed = 1
    else:
        ctype = payload
        _tray_remove(t.trays, t.pinfo, p, ctype)
        pinfo = t.pinfo
        pinfo[p, COUNT] += 1
        t.piles[p, (pinfo[p, HEAD] + pinfo[p, COUNT] - 1) & PILE_MASK] = ctype
        pinfo[p, KNOWN] += 1
    _end_turn(t, grid, p, kind == STUCK)
    return grid, placed, sealed


# ---------------------------------------------------------------------------- legal moves
@njit(cache=True, inline="always")
def _box_eligible(t, root, p):
    return 2 * t.hold[root, p] >= t.cell[root, CSIZE]


@njit(cache=True)
def has_placement(t, grid):
    """Whether the player to move can place some card of their tray."""
    meta = t.meta
    p = meta[TO_MOVE]
    wbits = meta[WBITS]
    perfect = meta[PERFECT] != 0
    for k in range(meta[NANCH]):
        a, b = t.anchors[k, 0], t.anchors[k, 1]
        for j in range(t.pinfo[p, TRAYN]):
            ctype = t.trays[p, j]
            for x in range(NCANON[ctype]):
                if _fits(grid, t.cell, wbits, perfect, ctype, CANON[ctype, x], a, b):
                    return True
    return False


@njit(cache=True)
def legal_codes(t, grid):
    """Every legal move's code for the player to move, ascending (empty when over)."""
    meta = t.meta
    if meta[OVER]:
        return np.empty(0, np.int64)
    p = meta[TO_MOVE]
    wbits = meta[WBITS]
    perfect = meta[PERFECT] != 0
    n_anch = meta[NANCH]
    keys = np.empty(n_anch, np.int64)
    for k in range(n_anch):
        keys[k] = (t.anchors[k, 0] + COORD_OFFSET) * COORD_SPAN + (t.anchors[k, 1] + COORD_OFFSET)
    order = np.argsort(keys)
    tray_n = t.pinfo[p, TRAYN]
    out = np.empty(n_anch * tray_n * 16 + meta[NBIG] + TRAY_SIZE, np.int64)
    n = 0
    for k in order:
        a, b = t.anchors[k, 0], t.anchors[k, 1]
        base = PLACE_BASE + keys[k] * PLACE_STRIDE
        for j in range(tray_n):
            ctype = t.trays[p, j]
            for x in range(NCANON[ctype]):
                rot = CANON[ctype, x]
                if not _fits(grid, t.cell, wbits, perfect, ctype, rot, a, b):
                    continue
                code = base + ctype * TYPE_STRIDE + rot * ROT_STRIDE
                if ROLLS[ctype]:
                    mask = _roll_options(grid, t.cell, wbits, ctype, rot, a, b)
                    for f in range(1, NFLAVOURS + 1):
                        if mask & (1 << f):
                            out[n] = code + f
                            n += 1
                else:
                    out[n] = code
                    n += 1
    placements = n
    start_boxes = n
    for k in range(meta[NBIG]):
        root = t.big[k]
        if _box_eligible(t, root, p):
            out[n] = BOX_BASE + _first_cell(t.cell, root)
            n += 1
    out[start_boxes:n].sort()
    if placements == 0:
        for j in range(tray_n):
            out[n] = STUCK_BASE + t.trays[p, j]
            n += 1
    return out[:n].copy()


@njit(cache=True)
def _in_tray(t, p, ctype):
    for j in range(t.pinfo[p, TRAYN]):
        if t.trays[p, j] == ctype:
            return True
    return False


@njit(cache=True)
def is_legal(t, grid, code):
    """Whether ``code`` is a legal move for the player to move (any int64; never raises)."""
    meta = t.meta
    if meta[OVER] or code < 0:
        return False
    p = meta[TO_MOVE]
    wbits = meta[WBITS]
    kind = code >> KIND_SHIFT
    payload = code & PAYLOAD_MASK
    if kind == PLACE:
        pos = payload // PLACE_STRIDE
        rest = payload % PLACE_STRIDE
        ctype = rest // TYPE_STRIDE
        rot = (rest % TYPE_STRIDE) // ROT_STRIDE
        flav = rest % ROT_STRIDE
        if pos >= COORD_SPAN * COORD_SPAN or ctype >= DECK_SIZE or not _in_tray(t, p, ctype):
            return False
        canonical = False
        for x in range(NCANON[ctype]):
            if CANON[ctype, x] == rot:
                canonical = True
        if not canonical or (flav == 0) == (ROLLS[ctype] != 0):
            return False
        a = pos // COORD_SPAN - COORD_OFFSET
        b = pos % COORD_SPAN - COORD_OFFSET
        # Outside the bounding box plus the reach nothing is free (and the torus could alias).
        if a < meta[MINR] - 2 or a > meta[MAXR] + 1 or b < meta[MINC] - 2 or b > meta[MAXC] + 1:
            return False
        if (grid[_gidx(a, b, wbits)] >> ANCH_SHIFT) == 0:
            return False
        if not _fits(grid, t.cell, wbits, meta[PERFECT] != 0, ctype, rot, a, b):
            return False
        if flav:
            return (_roll_options(grid, t.cell, wbits, ctype, rot, a, b) >> flav) & 1 == 1
        return True
    if kind == BOX:
        if payload >= COORD_SPAN * COORD_SPAN:
            return False
        a = payload // COORD_SPAN - COORD_OFFSET
        b = payload % COORD_SPAN - COORD_OFFSET
        if a < meta[MINR] or a > meta[MAXR] or b < meta[MINC] or b > meta[MAXC]:
            return False
        i = _cell_at(grid, wbits, a, b)
        if i < 0 or t.cell[i, CFROZEN] != 0:
            return False
        root = _find(t.cell, i)
        return (t.cell[root, CSIZE] >= MIN_BOX and _box_eligible(t, root, p)
                and _first_cell(t.cell, root) == payload)
    if kind == STUCK:
        return payload < DECK_SIZE and _in_tray(t, p, payload) and not has_placement(t, grid)
    return False


@njit(cache=True)
def random_move(t, grid):
    """A legal move drawn uniformly from all legal moves (the game must not be over).

    Tries random (card, rotation, roll flavour, anchor) candidates and boxes, each
    equally likely, keeping the first legal one: uniform over the legal moves since each
    is exactly one candidate. After :data:`MAX_TRIES` misses it lists every legal move
    and picks one (still uniform: a mixture of two uniform draws)."""
    meta = t.meta
    p = meta[TO_MOVE]
    wbits = meta[WBITS]
    perfect = meta[PERFECT] != 0
    tray_n = t.pinfo[p, TRAYN]
    n_boxes = 0
    for k in range(meta[NBIG]):
        if _box_eligible(t, t.big[k], p):
            n_boxes += 1
    weight = 0
    for j in range(tray_n):
        ctype = t.trays[p, j]
        weight += NCANON[ctype] * (NFLAVOURS if ROLLS[ctype] else 1)
    n_anch = meta[NANCH]
    total = weight * n_anch + n_boxes
    for _ in range(MAX_TRIES):
        x = np.random.randint(0, total)
        if x < n_boxes:
            for k in range(meta[NBIG]):
                root = t.big[k]
                if _box_eligible(t, root, p):
                    if x == 0:
                        return BOX_BASE + _first_cell(t.cell, root)
                    x -= 1
        x -= n_boxes
        anchor = x // weight
        y = x % weight
        ctype = 0
        for j in range(tray_n):
            ctype = t.trays[p, j]
            w = NCANON[ctype] * (NFLAVOURS if ROLLS[ctype] else 1)
            if y < w:
                break
            y -= w
        mult = NFLAVOURS if ROLLS[ctype] else 1
        rot = CANON[ctype, y // mult]
        a, b = t.anchors[anchor, 0], t.anchors[anchor, 1]
        if not _fits(grid, t.cell, wbits, perfect, ctype, rot, a, b):
            continue
        flav = 0
        if ROLLS[ctype]:
            flav = y % mult + 1
            if not (_roll_options(grid, t.cell, wbits, ctype, rot, a, b) >> flav) & 1:
                continue
        return PLACE_BASE + ((a + COORD_OFFSET) * COORD_SPAN + (b + COORD_OFFSET)) * PLACE_STRIDE \
            + ctype * TYPE_STRIDE + rot * ROT_STRIDE + flav
    codes = legal_codes(t, grid)
    return codes[np.random.randint(0, codes.size)]


@njit(cache=True)
def seeded_random_move(t, grid, seed):
    """:func:`random_move` after ``np.random.seed(seed)``."""
    np.random.seed(seed)
    return random_move(t, grid)


@njit(cache=True)
def sample_random_moves(t, grid, n, seed):
    """``n`` independent :func:`random_move` draws from one state (for tests and statistics)."""
    np.random.seed(seed)
    out = np.empty(n, np.int64)
    for i in range(n):
        out[i] = random_move(t, grid)
    return out


# ---------------------------------------------------------------------------- whole games
@njit(cache=True)
def rebuild(t, wbits):
    """Every derived structure (grid, runs, holdings, big runs, anchors, bounding box) from
    the cell table, its frozen marks and the cards; returns the grid. Used when a state is
    built from a dict."""
    meta, cell, hold = t.meta, t.cell, t.hold
    n = meta[NCELLS]
    meta[MINR] = cell[0, CR]
    meta[MAXR] = cell[0, CR]
    meta[MINC] = cell[0, CC]
    meta[MAXC] = cell[0, CC]
    for i in range(n):
        meta[MINR] = min(meta[MINR], cell[i, CR])
        meta[MAXR] = max(meta[MAXR], cell[i, CR])
        meta[MINC] = min(meta[MINC], cell[i, CC])
        meta[MAXC] = max(meta[MAXC], cell[i, CC])
    extent = max(meta[MAXR] - meta[MINR], meta[MAXC] - meta[MINC]) + 1
    while extent + ROOM > (1 << wbits):
        wbits += 1
    meta[WBITS] = wbits
    meta[NANCH] = 0
    meta[NBIG] = 0
    grid = _fill_grid(meta, cell, t.anchors, wbits)
    for i in range(n):
        cell[i, CPARENT] = i
        cell[i, CSIZE] = 1
        cell[i, CHASROLL] = cell[i, CROLL]
        cell[i, CNEXT] = i
        for q in range(meta[PLAYERS]):
            hold[i, q] = 0
        if cell[i, COWNER] >= 0:
            hold[i, cell[i, COWNER]] = 1
    for i in range(n):
        if cell[i, CFROZEN]:
            continue
        for d in range(4):
            j = _cell_at(grid, wbits, cell[i, CR] + DR[d], cell[i, CC] + DC[d])
            if j >= 0 and cell[j, CFROZEN] == 0 and cell[j, CFLAV] == cell[i, CFLAV]:
                _union(meta, cell, hold, t.big, i, j)
    # Frozen quadrants stay single: no kernel walks a delivered run again.
    squared = meta[SQUARED] != 0
    lo_r, hi_r, lo_c, hi_c = meta[MINR] - 2, meta[MAXR] + 1, meta[MINC] - 2, meta[MAXC] + 1
    for x in range(lo_r, hi_r + 1):
        if squared and (x & 1):
            continue
        for y in range(lo_c, hi_c + 1):
            if squared and (y & 1):
                continue
            if _anchor_free(grid, wbits, squared, x, y):
                _anchor_add(meta, grid, t.anchors, x, y)
    return grid


@njit(cache=True)
def start_game(t, deck_order, start_type):
    """Fill zeroed tables for a new game: ``deck_order[p]`` is player p's shuffled deck (top
    first), the start card ``start_type``; ``t.meta`` must hold PLAYERS and the three switches.
    Returns the grid."""
    meta = t.meta
    n = meta[PLAYERS]
    meta[TO_MOVE] = 0
    meta[TRIGGER] = -1
    meta[FINAL_LEFT] = 0
    meta[STREAK] = 0
    meta[OVER] = 0
    meta[NCARDS] = 0
    meta[NCELLS] = 0
    meta[NANCH] = 0
    meta[NBIG] = 0
    meta[TURNS] = 0
    meta[MINR] = 0
    meta[MAXR] = 1
    meta[MINC] = 0
    meta[MAXC] = 1
    meta[WBITS] = MIN_WBITS
    for p in range(n):
        for k in range(DECK_SIZE - TRAY_SIZE):
            t.piles[p, k] = deck_order[p, TRAY_SIZE + k]
        t.pinfo[p, HEAD] = 0
        t.pinfo[p, COUNT] = DECK_SIZE - TRAY_SIZE
        t.pinfo[p, KNOWN] = 0
        t.pinfo[p, TRAYN] = 0
        t.pinfo[p, SCORE] = 0
        t.pinfo[p, BOXES] = 0
        for k in range(TRAY_SIZE):
            _tray_insert(t.trays, t.pinfo, p, deck_order[p, k])
    grid = np.zeros(1 << (2 * MIN_WBITS), np.int32)
    flav = 0
    if ROLLS[start_type]:
        mask = _roll_options(grid, t.cell, MIN_WBITS, start_type, 0, 0, 0)
        flav = 1
        while not (mask >> flav) & 1:
            flav += 1
    _put_card(t, grid, NEUTRAL, start_type, 0, 0, 0, flav)
    return grid


@njit(cache=True)
def _places(pinfo, players, out_row):
    for q in range(players):
        place = 0
        for j in range(players):
            if pinfo[j, SCORE] > pinfo[q, SCORE] or (
                    pinfo[j, SCORE] == pinfo[q, SCORE] and pinfo[j, BOXES] > pinfo[q, BOXES]):
                place += 1
        out_row[q] = place


@njit(cache=True)
def random_playouts(t, grid, n, seed):
    """Play ``n`` games from the state to the end with uniformly random legal moves.

    Returns ``(scores, boxes, places, turns)``: int32[n, players] each and int64[n]; the
    random numbers come from ``np.random.seed(seed)``, so a seed gives the same games."""
    np.random.seed(seed)
    players = t.meta[PLAYERS]
    scores = np.zeros((n, players), np.int32)
    boxes = np.zeros((n, players), np.int32)
    places = np.zeros((n, players), np.int32)
    turns = np.zeros(n, np.int64)
    for g in range(n):
        w = Tables(t.meta.copy(), t.cell.copy(), t.hold.copy(), t.cards.copy(), t.anchors.copy(), t.big.copy(),
                   t.piles.copy(), t.trays.copy(), t.pinfo.copy())
        wgrid = grid.copy()
        start = w.meta[TURNS]
        while w.meta[OVER] == 0:
            code = random_move(w, wgrid)
            wgrid, _, _ = apply_move(w, wgrid, code)
        for q in range(players):
            scores[g, q] = w.pinfo[q, SCORE]
            boxes[g, q] = w.pinfo[q, BOXES]
        _places(w.pinfo, players, places[g])
        turns[g] = w.meta[TURNS] - start
    return scores, boxes, places, turns


@njit(cache=True)
def random_games(t, n, seed):
    """Deal and play ``n`` new games with uniformly random legal moves under the players
    and switches in ``t.meta`` (``t`` is scratch space, sized for those players).

    Returns ``(scores, places, turns)`` as :func:`random_playouts`; decks are shuffled
    with ``np.random`` from ``seed``."""
    np.random.seed(seed)
    players = t.meta[PLAYERS]
    scores = np.zeros((n, players), np.int32)
    places = np.zeros((n, players), np.int32)
    turns = np.zeros(n, np.int64)
    order = np.empty((players, DECK_SIZE), np.int64)
    for g in range(n):
        for p in range(players):
            order[p] = np.random.permutation(DECK_SIZE)
        start = np.random.randint(0, DECK_SIZE)
        grid = start_game(t, order, start)
        while t.meta[OVER] == 0:
            code = random_move(t, grid)
            grid, _, _ = apply_move(t, grid, code)
        for q in range(players):
            scores[g, q] = t.pinfo[q, SCORE]
        _places(t.pinfo, players, places[g])
        turns[g] = t.meta[TURNS]
    return scores, places, turns
