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
NCARDS, NCELLS, NANCH, NBIG, MINR, MAXR, MINC, MAXC, WBITS, TURNS, STAMP = range(9, 20)
NMETA = 20
# cell (int32) columns
CR, CC, CFLAV, CROLL, COWNER, CFROZEN, CPARENT, CSIZE, CHASROLL, CNEXT, CWIT, CSTAMP, CWINNER = range(13)
NCF = 13
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
#: The winner of a delivered box that scored for nobody (under 3 donuts, D18; a tie, D19).
NOBODY = -1
#: Options of the leaf kernels: no allocation inside, so no reference counting either. With
#: it on, Numba counts a reference to every array argument at each call, atomically,
#: whenever its pruning fails: measured, three quarters of a random game's time went there.
LEAF = {"cache": True, "_nrt": False}
#: Fewest random placement tries before a random move falls back to counting every legal move.
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
#: Bits 1..4: every plain flavour (a roll beside no live donut may take any, D10).
ALL_FLAVOURS_MASK = 0b11110
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
@njit(**LEAF)
def _gidx(r, c, wbits):
    m = (1 << wbits) - 1
    return ((r & m) << wbits) | (c & m)


@njit(**LEAF)
def _cell_at(grid, wbits, r, c):
    return (grid[_gidx(r, c, wbits)] & CELL_MASK) - 1


@njit(**LEAF)
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


@njit(**LEAF)
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


@njit(**LEAF)
def _anchor_add(meta, grid, anchors, a, b):
    k = meta[NANCH]
    anchors[k, 0] = a
    anchors[k, 1] = b
    meta[NANCH] = k + 1
    g = _gidx(a, b, meta[WBITS])
    grid[g] = (grid[g] & CELL_MASK) | ((k + 1) << ANCH_SHIFT)


@njit(**LEAF)
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
    meta[WBITS] = wbits
    grid = np.zeros(1 << (2 * wbits), np.int32)
    for i in range(meta[NCELLS]):
        grid[_gidx(cell[i, CR], cell[i, CC], wbits)] = i + 1
    for k in range(meta[NANCH]):
        g = _gidx(anchors[k, 0], anchors[k, 1], wbits)
        grid[g] = (grid[g] & CELL_MASK) | ((k + 1) << ANCH_SHIFT)
    return grid


@njit(**LEAF)
def _room_bits(meta):
    """The grid size (log2) the bounding box needs: itself plus ROOM."""
    extent = max(meta[MAXR] - meta[MINR], meta[MAXC] - meta[MINC]) + 1
    wbits = meta[WBITS]
    while extent + ROOM > (1 << wbits):
        wbits += 1
    return wbits


@njit(**LEAF)
def _needs_room(meta):
    return _room_bits(meta) != meta[WBITS]


@njit(cache=True)
def _ensure_room(meta, grid, cell, anchors):
    if not _needs_room(meta):
        return grid
    return _fill_grid(meta, cell, anchors, _room_bits(meta))


@njit(cache=True)
def ensure_room(t, grid):
    """``grid``, or a doubled one, so that the bounding box plus :data:`ROOM` fits."""
    return _ensure_room(t.meta, grid, t.cell, t.anchors)


# ---------------------------------------------------------------------------- runs
@njit(**LEAF)
def _find(cell, x):
    root = x
    while cell[root, CPARENT] != root:
        root = cell[root, CPARENT]
    while cell[x, CPARENT] != root:
        nxt = cell[x, CPARENT]
        cell[x, CPARENT] = root
        x = nxt
    return root


@njit(**LEAF)
def _big_remove(meta, big, root):
    n = meta[NBIG]
    for i in range(n):
        if big[i] == root:
            big[i] = big[n - 1]
            meta[NBIG] = n - 1
            return


@njit(**LEAF)
def _union(meta, cell, hold, big, a, b):
    ra = _find(cell, a)
    rb = _find(cell, b)
    if ra == rb:
        return
    if cell[ra, CSIZE] < cell[rb, CSIZE]:
        ra, rb = rb, ra
    if cell[ra, CWIT] == 0:
        cell[ra, CWIT] = cell[rb, CWIT]
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



@njit(**LEAF)
def _key(r, c):
    return (r + COORD_OFFSET) * COORD_SPAN + (c + COORD_OFFSET)


@njit(**LEAF)
def _run_open(grid, cell, wbits, squared, root):
    """Some quadrant of the run touches a coverable empty position.

    The root remembers the last such position it found (``CWIT``, key + 1): it touches
    the run for good, so while it stays coverable the run is open without a walk."""
    w = cell[root, CWIT] - 1
    if w >= 0 and _coverable(grid, wbits, squared, w // COORD_SPAN - COORD_OFFSET, w % COORD_SPAN - COORD_OFFSET):
        return True
    x = root
    while True:
        r, c = cell[x, CR], cell[x, CC]
        for d in range(4):
            if _coverable(grid, wbits, squared, r + DR[d], c + DC[d]):
                cell[root, CWIT] = _key(r + DR[d], c + DC[d]) + 1
                return True
        x = cell[x, CNEXT]
        if x == root:
            return False


@njit(**LEAF)
def _first_cell(cell, root):
    """The run's first quadrant in reading order, as a (row, column) key."""
    best = np.int64(1) << 62
    x = root
    while True:
        key = _key(cell[x, CR], cell[x, CC])
        if key < best:
            best = key
        x = cell[x, CNEXT]
        if x == root:
            return best


@njit(**LEAF)
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


@njit(**LEAF)
def _points(cell, root):
    size = cell[root, CSIZE]
    if size < MIN_BOX:
        return 0
    return size * 2 if cell[root, CHASROLL] else size


@njit(**LEAF)
def _deliver(meta, cell, hold, big, pinfo, root, sealer, early):
    """Seal or box ``root``'s run: freeze it and score it. Returns the scorer (-1 none)."""
    points = _points(cell, root)
    scorer = -1
    if points > 0:
        if early or meta[CLOSERS]:
            scorer = sealer
        else:
            scorer = _majority(hold, root, meta[PLAYERS], sealer)
        _big_remove(meta, big, root)
    x = root
    while True:
        cell[x, CFROZEN] = 1
        cell[x, CWINNER] = scorer
        x = cell[x, CNEXT]
        if x == root:
            break
    if scorer >= 0:
        pinfo[scorer, SCORE] += points
        pinfo[scorer, BOXES] += 1
    return scorer


# ---------------------------------------------------------------------------- placements
@njit(**LEAF)
def _fits(grid, cell, wbits, perfect, t, rot, a, b):
    """Whether card type ``t`` turned ``rot`` may sit at the free anchor (a, b): the matching rule.

    One Good Match: some quadrant agrees with a live quadrant it touches. Perfect Match also:
    every quadrant that touches the layout agrees with a live one among what it touches, so
    one touching only frozen quadrants (which nothing may match against, D9) cannot go there."""
    any_agree = False
    for q in range(4):
        f = FACES[t, rot, q]
        touches = False
        ok = False
        for e in range(2):
            i = _cell_at(grid, wbits, a + EXT[q, e, 0], b + EXT[q, e, 1])
            if i >= 0:
                touches = True
                if cell[i, CFROZEN] == 0 and (f == ROLL_CODE or f == cell[i, CFLAV]):
                    ok = True
        if ok:
            any_agree = True
        elif touches and perfect:
            return False
    return any_agree


@njit(**LEAF)
def _roll_options(grid, cell, wbits, t, rot, a, b):
    """Bit mask (bit f for flavour f) of the flavours the card's roll may take at (a, b): the
    flavours of the live layout quadrants it lands beside (D10; its own card's donuts do not
    settle it, frozen ones match nothing), or any flavour when it lands beside none."""
    q = 0
    while FACES[t, rot, q] != ROLL_CODE:
        q += 1
    mask = 0
    for e in range(2):
        i = _cell_at(grid, wbits, a + EXT[q, e, 0], b + EXT[q, e, 1])
        if i >= 0 and cell[i, CFROZEN] == 0:
            mask |= 1 << cell[i, CFLAV]
    if mask == 0:
        mask = ALL_FLAVOURS_MASK
    return mask


@njit(**LEAF)
def _start_roll_flavour(t):
    """The flavour a roll on the start card takes (D3): the lowest of its own card's other
    donuts beside it (nobody places the start card, so nobody chooses)."""
    q = 0
    while FACES[t, 0, q] != ROLL_CODE:
        q += 1
    flav = NFLAVOURS
    for e in range(2):
        f = FACES[t, 0, INNER[q, e]]
        if f != ROLL_CODE and f < flav:
            flav = f
    return flav


@njit(**LEAF)
def _add_cell(meta, grid, cell, hold, r, c, flav, roll, owner):
    i = meta[NCELLS]
    meta[NCELLS] = i + 1
    cell[i, CR] = r
    cell[i, CC] = c
    cell[i, CFLAV] = flav
    cell[i, CROLL] = roll
    cell[i, COWNER] = owner
    cell[i, CFROZEN] = 0
    cell[i, CWINNER] = NOBODY
    cell[i, CPARENT] = i
    cell[i, CSIZE] = 1
    cell[i, CHASROLL] = roll
    cell[i, CNEXT] = i
    cell[i, CWIT] = 0
    cell[i, CSTAMP] = 0
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


@njit(**LEAF)
def _put_card(meta, grid, cell, hold, cards, anchors, big, owner, ctype, rot, a, b, flav):
    """Lay the card's quadrants, join them to their runs and update the free anchors."""
    wbits = meta[WBITS]
    squared = meta[SQUARED] != 0
    k = meta[NCARDS]
    meta[NCARDS] = k + 1
    cards[k, KOWNER] = owner
    cards[k, KTYPE] = ctype
    cards[k, KROT] = rot
    cards[k, KR] = a
    cards[k, KC] = b
    cards[k, KFLAV] = flav
    first = meta[NCELLS]
    for q in range(4):
        f = FACES[ctype, rot, q]
        if f == ROLL_CODE:
            _add_cell(meta, grid, cell, hold, a + QR[q], b + QC[q], flav, 1, owner)
        else:
            _add_cell(meta, grid, cell, hold, a + QR[q], b + QC[q], f, 0, owner)
    for i in range(first, first + 4):
        r, c = cell[i, CR], cell[i, CC]
        for d in range(4):
            j = _cell_at(grid, wbits, r + DR[d], c + DC[d])
            if j >= 0 and cell[j, CFROZEN] == 0 and cell[j, CFLAV] == cell[i, CFLAV]:
                _union(meta, cell, hold, big, i, j)
    for x in range(a - 1, a + 2):
        for y in range(b - 1, b + 2):
            _anchor_remove(meta, grid, anchors, x, y)
    step = 2 if squared else 1
    for x in range(a - 2, a + 3, step):
        for y in range(b - 2, b + 3, step):
            if a - 1 <= x <= a + 1 and b - 1 <= y <= b + 1:
                continue  # overlaps the card just laid
            if (grid[_gidx(x, y, wbits)] >> ANCH_SHIFT) == 0 and _anchor_free(grid, wbits, squared, x, y):
                _anchor_add(meta, grid, anchors, x, y)


@njit(**LEAF)
def _seal_around(meta, grid, cell, hold, big, pinfo, a, b, sealer):
    """Deliver every open run near the card at (a, b) that no coverable position touches.

    A placement can close a run it touches and, under Splitzkies, also one it only
    leaves beside a gap too small for a card: both lie within 2 of the card. Each run is
    looked at once (its root stamped with this call's number)."""
    wbits = meta[WBITS]
    squared = meta[SQUARED] != 0
    meta[STAMP] += 1
    stamp = meta[STAMP]
    sealed = 0
    for r in range(a - 2, a + 4):
        for c in range(b - 2, b + 4):
            i = _cell_at(grid, wbits, r, c)
            if i < 0 or cell[i, CFROZEN] != 0:
                continue
            root = _find(cell, i)
            if cell[root, CSTAMP] == stamp:
                continue
            cell[root, CSTAMP] = stamp
            if not _run_open(grid, cell, wbits, squared, root):
                _deliver(meta, cell, hold, big, pinfo, root, sealer, False)
                sealed += 1
    return sealed


# ---------------------------------------------------------------------------- turns
@njit(**LEAF)
def _tray_remove(trays, pinfo, p, ctype):
    n = pinfo[p, TRAYN]
    k = 0
    while trays[p, k] != ctype:
        k += 1
    for j in range(k, n - 1):
        trays[p, j] = trays[p, j + 1]
    pinfo[p, TRAYN] = n - 1


@njit(**LEAF)
def _tray_insert(trays, pinfo, p, ctype):
    n = pinfo[p, TRAYN]
    k = n
    while k > 0 and trays[p, k - 1] > ctype:
        trays[p, k] = trays[p, k - 1]
        k -= 1
    trays[p, k] = ctype
    pinfo[p, TRAYN] = n + 1


@njit(**LEAF)
def _finish(meta, cell, hold, big, pinfo):
    """Open runs of 3 or more score in full to their strict majority holder."""
    for k in range(meta[NBIG]):
        root = big[k]
        scorer = _majority(hold, root, meta[PLAYERS], -1)
        if scorer >= 0:
            pinfo[scorer, SCORE] += _points(cell, root)
    meta[OVER] = 1
    meta[TO_MOVE] = -1


@njit(**LEAF)
def _fits_anywhere(meta, grid, cell, anchors, ctype):
    perfect = meta[PERFECT] != 0
    for k in range(meta[NANCH]):
        for x in range(NCANON[ctype]):
            if _fits(grid, cell, meta[WBITS], perfect, ctype, CANON[ctype, x], anchors[k, 0], anchors[k, 1]):
                return True
    return False


@njit(**LEAF)
def _layout_dead(meta, grid, cell, anchors, piles, trays, pinfo):
    """No card left to any player, in a tray or a pile, fits anywhere in any rotation."""
    for p in range(meta[PLAYERS]):
        for j in range(pinfo[p, TRAYN]):
            if _fits_anywhere(meta, grid, cell, anchors, trays[p, j]):
                return False
        for k in range(pinfo[p, COUNT]):
            if _fits_anywhere(meta, grid, cell, anchors, piles[p, (pinfo[p, HEAD] + k) & PILE_MASK]):
                return False
    return True


@njit(**LEAF)
def _end_turn(meta, grid, cell, hold, anchors, big, piles, trays, pinfo, p, stuck):
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
        _finish(meta, cell, hold, big, pinfo)
    elif meta[STREAK] == n and _layout_dead(meta, grid, cell, anchors, piles, trays, pinfo):
        # Checked once a streak: nothing changes the layout while everyone is stuck.
        _finish(meta, cell, hold, big, pinfo)
    else:
        meta[TO_MOVE] = (p + 1) % n


@njit(**LEAF)
def _apply_core(meta, grid, cell, hold, cards, anchors, big, piles, trays, pinfo, code):
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
        _tray_remove(trays, pinfo, p, ctype)
        _put_card(meta, grid, cell, hold, cards, anchors, big, p, ctype, rot, a, b, flav)
        sealed = _seal_around(meta, grid, cell, hold, big, pinfo, a, b, p)
        placed = 1
    elif kind == BOX:
        a = payload // COORD_SPAN - COORD_OFFSET
        b = payload % COORD_SPAN - COORD_OFFSET
        i = _cell_at(grid, meta[WBITS], a, b)
        _deliver(meta, cell, hold, big, pinfo, _find(cell, i), p, True)
        sealed = 1
    else:
        ctype = payload
        _tray_remove(trays, pinfo, p, ctype)
        pinfo[p, COUNT] += 1
        piles[p, (pinfo[p, HEAD] + pinfo[p, COUNT] - 1) & PILE_MASK] = ctype
        pinfo[p, KNOWN] += 1
    _end_turn(meta, grid, cell, hold, anchors, big, piles, trays, pinfo, p, kind == STUCK)
    return placed, sealed


@njit(cache=True)
def _apply(meta, grid, cell, hold, cards, anchors, big, piles, trays, pinfo, code):
    placed, sealed = _apply_core(meta, grid, cell, hold, cards, anchors, big, piles, trays, pinfo, code)
    if placed and _needs_room(meta):
        grid = _fill_grid(meta, cell, anchors, _room_bits(meta))
    return grid, placed, sealed


@njit(cache=True)
def apply_move(t, grid, code):
    """Play the legal move ``code`` for the player to move. Returns ``(grid, cards placed,
    runs sealed or boxed)``; the grid is a new, larger one when the layout outgrew it."""
    return _apply(t.meta, grid, t.cell, t.hold, t.cards, t.anchors, t.big, t.piles, t.trays, t.pinfo, code)


# ---------------------------------------------------------------------------- legal moves
@njit(**LEAF)
def _box_eligible(cell, hold, root, p):
    return 2 * hold[root, p] >= cell[root, CSIZE]


@njit(**LEAF)
def _has_placement(meta, grid, cell, anchors, trays, pinfo):
    p = meta[TO_MOVE]
    wbits = meta[WBITS]
    perfect = meta[PERFECT] != 0
    for k in range(meta[NANCH]):
        a, b = anchors[k, 0], anchors[k, 1]
        for j in range(pinfo[p, TRAYN]):
            ctype = trays[p, j]
            for x in range(NCANON[ctype]):
                if _fits(grid, cell, wbits, perfect, ctype, CANON[ctype, x], a, b):
                    return True
    return False


@njit(cache=True)
def has_placement(t, grid):
    """Whether the player to move can place some card of their tray."""
    return _has_placement(t.meta, grid, t.cell, t.anchors, t.trays, t.pinfo)


@njit(cache=True)
def _legal_codes(meta, grid, cell, hold, anchors, big, trays, pinfo):
    if meta[OVER]:
        return np.empty(0, np.int64)
    p = meta[TO_MOVE]
    wbits = meta[WBITS]
    perfect = meta[PERFECT] != 0
    n_anch = meta[NANCH]
    keys = np.empty(n_anch, np.int64)
    for k in range(n_anch):
        keys[k] = _key(anchors[k, 0], anchors[k, 1])
    order = np.argsort(keys)
    tray_n = pinfo[p, TRAYN]
    out = np.empty(n_anch * tray_n * 16 + meta[NBIG] + TRAY_SIZE, np.int64)
    n = 0
    for k in order:
        a, b = anchors[k, 0], anchors[k, 1]
        base = PLACE_BASE + keys[k] * PLACE_STRIDE
        for j in range(tray_n):
            ctype = trays[p, j]
            for x in range(NCANON[ctype]):
                rot = CANON[ctype, x]
                if not _fits(grid, cell, wbits, perfect, ctype, rot, a, b):
                    continue
                code = base + ctype * TYPE_STRIDE + rot * ROT_STRIDE
                if ROLLS[ctype]:
                    mask = _roll_options(grid, cell, wbits, ctype, rot, a, b)
                    for f in range(1, NFLAVOURS + 1):
                        if mask & (1 << f):
                            out[n] = code + f
                            n += 1
                else:
                    out[n] = code
                    n += 1
    placements = n
    for k in range(meta[NBIG]):
        root = big[k]
        if _box_eligible(cell, hold, root, p):
            out[n] = BOX_BASE + _first_cell(cell, root)
            n += 1
    out[placements:n].sort()
    if placements == 0:
        for j in range(tray_n):
            out[n] = STUCK_BASE + trays[p, j]
            n += 1
    return out[:n].copy()


@njit(cache=True)
def legal_codes(t, grid):
    """Every legal move's code for the player to move, ascending (empty when over)."""
    return _legal_codes(t.meta, grid, t.cell, t.hold, t.anchors, t.big, t.trays, t.pinfo)


@njit(**LEAF)
def _in_tray(trays, pinfo, p, ctype):
    for j in range(pinfo[p, TRAYN]):
        if trays[p, j] == ctype:
            return True
    return False


@njit(cache=True)
def is_legal(t, grid, code):
    """Whether ``code`` is a legal move for the player to move (any int64; never raises)."""
    meta, cell, trays, pinfo = t.meta, t.cell, t.trays, t.pinfo
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
        if pos >= COORD_SPAN * COORD_SPAN or ctype >= DECK_SIZE or not _in_tray(trays, pinfo, p, ctype):
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
        if not _fits(grid, cell, wbits, meta[PERFECT] != 0, ctype, rot, a, b):
            return False
        if flav:
            return (_roll_options(grid, cell, wbits, ctype, rot, a, b) >> flav) & 1 == 1
        return True
    if kind == BOX:
        if payload >= COORD_SPAN * COORD_SPAN:
            return False
        a = payload // COORD_SPAN - COORD_OFFSET
        b = payload % COORD_SPAN - COORD_OFFSET
        if a < meta[MINR] or a > meta[MAXR] or b < meta[MINC] or b > meta[MAXC]:
            return False
        i = _cell_at(grid, wbits, a, b)
        if i < 0 or cell[i, CFROZEN] != 0:
            return False
        root = _find(cell, i)
        return (cell[root, CSIZE] >= MIN_BOX and _box_eligible(cell, t.hold, root, p)
                and _first_cell(cell, root) == payload)
    if kind == STUCK:
        return (payload < DECK_SIZE and _in_tray(trays, pinfo, p, payload)
                and not _has_placement(meta, grid, cell, t.anchors, trays, pinfo))
    return False


@njit(**LEAF)
def _random_try(meta, grid, cell, hold, anchors, big, trays, pinfo):
    p = meta[TO_MOVE]
    wbits = meta[WBITS]
    perfect = meta[PERFECT] != 0
    tray_n = pinfo[p, TRAYN]
    n_boxes = 0
    for k in range(meta[NBIG]):
        if _box_eligible(cell, hold, big[k], p):
            n_boxes += 1
    weight = 0
    for j in range(tray_n):
        ctype = trays[p, j]
        weight += NCANON[ctype] * (NFLAVOURS if ROLLS[ctype] else 1)
    total = weight * meta[NANCH] + n_boxes
    # A try costs about one candidate's check and listing costs them all: trying up to
    # half the candidates wins whenever two or more moves are legal.
    for _ in range(max(MAX_TRIES, total // 2)):
        x = np.random.randint(0, total)
        if x < n_boxes:
            for k in range(meta[NBIG]):
                root = big[k]
                if _box_eligible(cell, hold, root, p):
                    if x == 0:
                        return BOX_BASE + _first_cell(cell, root)
                    x -= 1
        x -= n_boxes
        anchor = x // weight
        y = x % weight
        ctype = 0
        for j in range(tray_n):
            ctype = trays[p, j]
            w = NCANON[ctype] * (NFLAVOURS if ROLLS[ctype] else 1)
            if y < w:
                break
            y -= w
        mult = NFLAVOURS if ROLLS[ctype] else 1
        rot = CANON[ctype, y // mult]
        a, b = anchors[anchor, 0], anchors[anchor, 1]
        if not _fits(grid, cell, wbits, perfect, ctype, rot, a, b):
            continue
        flav = 0
        if ROLLS[ctype]:
            flav = y % mult + 1
            if not (_roll_options(grid, cell, wbits, ctype, rot, a, b) >> flav) & 1:
                continue
        return PLACE_BASE + _key(a, b) * PLACE_STRIDE + ctype * TYPE_STRIDE + rot * ROT_STRIDE + flav
    return -1


@njit(**LEAF)
def _random_listed(meta, grid, cell, hold, anchors, big, trays, pinfo):
    """A uniformly random legal move by counting them all and walking to a random one."""
    p = meta[TO_MOVE]
    wbits = meta[WBITS]
    perfect = meta[PERFECT] != 0
    tray_n = pinfo[p, TRAYN]
    count = 0
    for walk in range(2):
        k = -1 if walk == 0 else np.random.randint(0, count)
        seen = 0
        for i in range(meta[NANCH]):
            a, b = anchors[i, 0], anchors[i, 1]
            for j in range(tray_n):
                ctype = trays[p, j]
                for x in range(NCANON[ctype]):
                    rot = CANON[ctype, x]
                    if not _fits(grid, cell, wbits, perfect, ctype, rot, a, b):
                        continue
                    code = PLACE_BASE + _key(a, b) * PLACE_STRIDE + ctype * TYPE_STRIDE + rot * ROT_STRIDE
                    if ROLLS[ctype]:
                        mask = _roll_options(grid, cell, wbits, ctype, rot, a, b)
                        for f in range(1, NFLAVOURS + 1):
                            if mask & (1 << f):
                                if seen == k:
                                    return code + f
                                seen += 1
                    else:
                        if seen == k:
                            return code
                        seen += 1
        placements = seen
        for i in range(meta[NBIG]):
            root = big[i]
            if _box_eligible(cell, hold, root, p):
                if seen == k:
                    return BOX_BASE + _first_cell(cell, root)
                seen += 1
        if placements == 0:
            for j in range(tray_n):
                if seen == k:
                    return STUCK_BASE + trays[p, j]
                seen += 1
        count = seen
    return -1


@njit(**LEAF)
def _random_move(meta, grid, cell, hold, anchors, big, trays, pinfo):
    code = _random_try(meta, grid, cell, hold, anchors, big, trays, pinfo)
    if code >= 0:
        return code
    return _random_listed(meta, grid, cell, hold, anchors, big, trays, pinfo)


@njit(cache=True)
def random_move(t, grid):
    """A legal move drawn uniformly from all legal moves (the game must not be over).

    Tries random (card, rotation, roll flavour, anchor) candidates and boxes, each
    equally likely, keeping the first legal one: uniform over the legal moves since each
    is exactly one candidate. After enough misses (:data:`MAX_TRIES` or half the
    candidates) it counts every legal move and walks to a random one (still uniform: a
    mixture of two uniform draws)."""
    return _random_move(t.meta, grid, t.cell, t.hold, t.anchors, t.big, t.trays, t.pinfo)


@njit(cache=True)
def seeded_random_move(t, grid, seed):
    """:func:`random_move` after ``np.random.seed(seed)``."""
    np.random.seed(seed)
    return random_move(t, grid)


@njit(cache=True)
def sample_random_moves(t, grid, n, seed, listed=False):
    """``n`` independent :func:`random_move` draws from one state (for tests and
    statistics); with ``listed`` every draw takes the counting fall-back."""
    np.random.seed(seed)
    out = np.empty(n, np.int64)
    for i in range(n):
        if listed:
            out[i] = _random_listed(t.meta, grid, t.cell, t.hold, t.anchors, t.big, t.trays, t.pinfo)
        else:
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
    meta[STAMP] = 0
    grid = _fill_grid(meta, cell, t.anchors, wbits)
    for i in range(n):
        cell[i, CPARENT] = i
        cell[i, CSIZE] = 1
        cell[i, CHASROLL] = cell[i, CROLL]
        cell[i, CNEXT] = i
        cell[i, CWIT] = 0
        cell[i, CSTAMP] = 0
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
    for x in range(meta[MINR] - 2, meta[MAXR] + 2):
        if squared and (x & 1):
            continue
        for y in range(meta[MINC] - 2, meta[MAXC] + 2):
            if squared and (y & 1):
                continue
            if _anchor_free(grid, wbits, squared, x, y):
                _anchor_add(meta, grid, t.anchors, x, y)
    return grid


@njit(cache=True)
def _start(meta, cell, hold, cards, anchors, big, piles, trays, pinfo, deck_order, start_type):
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
    meta[STAMP] = 0
    meta[MINR] = 0
    meta[MAXR] = 1
    meta[MINC] = 0
    meta[MAXC] = 1
    meta[WBITS] = MIN_WBITS
    for p in range(n):
        for k in range(DECK_SIZE - TRAY_SIZE):
            piles[p, k] = deck_order[p, TRAY_SIZE + k]
        pinfo[p, HEAD] = 0
        pinfo[p, COUNT] = DECK_SIZE - TRAY_SIZE
        pinfo[p, KNOWN] = 0
        pinfo[p, TRAYN] = 0
        pinfo[p, SCORE] = 0
        pinfo[p, BOXES] = 0
        for k in range(TRAY_SIZE):
            _tray_insert(trays, pinfo, p, deck_order[p, k])
    grid = np.zeros(1 << (2 * MIN_WBITS), np.int32)
    flav = 0
    if ROLLS[start_type]:
        flav = _start_roll_flavour(start_type)
    _put_card(meta, grid, cell, hold, cards, anchors, big, NEUTRAL, start_type, 0, 0, 0, flav)
    return grid


@njit(cache=True)
def start_game(t, deck_order, start_type):
    """Fill zeroed tables for a new game: ``deck_order[p]`` is player p's shuffled deck (top
    first), the start card ``start_type``; ``t.meta`` must hold PLAYERS and the three switches.
    Returns the grid."""
    return _start(t.meta, t.cell, t.hold, t.cards, t.anchors, t.big, t.piles, t.trays, t.pinfo, deck_order,
                  start_type)


@njit(**LEAF)
def _places(pinfo, players, out_row):
    for q in range(players):
        place = 0
        for j in range(players):
            if pinfo[j, SCORE] > pinfo[q, SCORE] or (
                    pinfo[j, SCORE] == pinfo[q, SCORE] and pinfo[j, BOXES] > pinfo[q, BOXES]):
                place += 1
        out_row[q] = place


@njit(cache=True)
def _play_out(meta, grid, cell, hold, cards, anchors, big, piles, trays, pinfo):
    """Random moves to the end of the game; returns the final grid."""
    while meta[OVER] == 0:
        code = _random_move(meta, grid, cell, hold, anchors, big, trays, pinfo)
        placed, _ = _apply_core(meta, grid, cell, hold, cards, anchors, big, piles, trays, pinfo, code)
        if placed and _needs_room(meta):
            grid = _fill_grid(meta, cell, anchors, _room_bits(meta))
    return grid


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
    meta, cell, hold, cards = t.meta.copy(), t.cell.copy(), t.hold.copy(), t.cards.copy()
    anchors, big, piles, trays, pinfo = t.anchors.copy(), t.big.copy(), t.piles.copy(), t.trays.copy(), t.pinfo.copy()
    # Rows past the used counts are written before they are read: copy only the used ones.
    n_cells, n_cards, n_anch, n_big = t.meta[NCELLS], t.meta[NCARDS], t.meta[NANCH], t.meta[NBIG]
    for g in range(n):
        meta[:] = t.meta
        cell[:n_cells] = t.cell[:n_cells]
        hold[:n_cells] = t.hold[:n_cells]
        cards[:n_cards] = t.cards[:n_cards]
        anchors[:n_anch] = t.anchors[:n_anch]
        big[:n_big] = t.big[:n_big]
        piles[:] = t.piles
        trays[:] = t.trays
        pinfo[:] = t.pinfo
        _play_out(meta, grid.copy(), cell, hold, cards, anchors, big, piles, trays, pinfo)
        for q in range(players):
            scores[g, q] = pinfo[q, SCORE]
            boxes[g, q] = pinfo[q, BOXES]
        _places(pinfo, players, places[g])
        turns[g] = meta[TURNS] - t.meta[TURNS]
    return scores, boxes, places, turns


@njit(cache=True)
def random_games(t, n, seed):
    """Deal and play ``n`` new games with uniformly random legal moves under the players
    and switches in ``t.meta`` (``t`` is scratch space, sized for those players).

    Returns ``(scores, places, turns)`` as :func:`random_playouts`; decks are shuffled
    with ``np.random`` from ``seed``."""
    np.random.seed(seed)
    meta, cell, hold, cards, anchors = t.meta, t.cell, t.hold, t.cards, t.anchors
    big, piles, trays, pinfo = t.big, t.piles, t.trays, t.pinfo
    players = meta[PLAYERS]
    scores = np.zeros((n, players), np.int32)
    places = np.zeros((n, players), np.int32)
    turns = np.zeros(n, np.int64)
    order = np.empty((players, DECK_SIZE), np.int64)
    for g in range(n):
        for p in range(players):
            order[p] = np.random.permutation(DECK_SIZE)
        start = np.random.randint(0, DECK_SIZE)
        grid = _start(meta, cell, hold, cards, anchors, big, piles, trays, pinfo, order, start)
        _play_out(meta, grid, cell, hold, cards, anchors, big, piles, trays, pinfo)
        for q in range(players):
            scores[g, q] = pinfo[q, SCORE]
        _places(pinfo, players, places[g])
        turns[g] = meta[TURNS]
    return scores, places, turns
