"""Legal moves: listing them, checking one, and drawing one uniformly at random.

The move codes are those of :mod:`..moves`: the same move has the same code whatever the
grid size, so codes carry across copies and sampled worlds. Legal moves are the
placements (card, canonical rotation, roll flavour, free anchor) that pass the matching
rule, the boxes the player to move may take early, and, only when no placement exists,
putting back any card of the tray.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..deck import DECK_SIZE, TRAY_SIZE
from ..moves import BOX, COORD_SPAN, KIND_SHIFT, PLACE, PLACE_STRIDE, ROT_STRIDE, STUCK, TYPE_STRIDE
from .grid import _is_anchor, _key, cell_at
from .placement import _fits, _roll_options
from .runs import _box_eligible, _first_cell, run_root
from .tables import (
    BOX_BASE,
    CANON,
    LEAF,
    MIN_BOX,
    NCANON,
    NFLAVOURS,
    PAYLOAD_MASK,
    PLACE_BASE,
    ROLLS,
    STUCK_BASE,
    Codes,
    Grid,
    Tables,
)
from .turns import _decode_place, _decode_position, _in_tray

#: Fewest random placement tries before a random move falls back to counting every legal move.
MAX_TRIES = 48


@njit(**LEAF)
def _has_placement(t: Tables, grid: Grid) -> bool:
    cell, anchors, trays = t.cell, t.anchors, t.trays
    p = t.meta[0].to_move
    wbits = t.meta[0].wbits
    perfect = t.meta[0].perfect != 0
    for k in range(t.meta[0].n_anchors):
        a, b = anchors[k, 0], anchors[k, 1]
        for j in range(t.pinfo[p].tray_len):
            ctype = trays[p, j]
            for x in range(NCANON[ctype]):
                if _fits(cell, grid, wbits, perfect, ctype, CANON[ctype, x], a, b):
                    return True
    return False


@njit(cache=True)
def legal_codes(t: Tables, grid: Grid) -> Codes:
    """Every legal move's code for the player to move, ascending (empty when over)."""
    meta, cell, anchors, big, trays = t.meta[0], t.cell, t.anchors, t.big, t.trays
    if meta.over:
        return np.empty(0, np.int64)
    p = meta.to_move
    wbits = meta.wbits
    perfect = meta.perfect != 0
    n_anch = meta.n_anchors
    keys = np.empty(n_anch, np.int64)
    for k in range(n_anch):
        keys[k] = _key(anchors[k, 0], anchors[k, 1])
    order = np.argsort(keys)
    tray_n = t.pinfo[p].tray_len
    out = np.empty(n_anch * tray_n * 16 + meta.n_big + TRAY_SIZE, np.int64)
    n = 0
    for k in order:
        a, b = anchors[k, 0], anchors[k, 1]
        base = PLACE_BASE + keys[k] * PLACE_STRIDE
        for j in range(tray_n):
            ctype = trays[p, j]
            for x in range(NCANON[ctype]):
                rot = CANON[ctype, x]
                if not _fits(cell, grid, wbits, perfect, ctype, rot, a, b):
                    continue
                code = base + ctype * TYPE_STRIDE + rot * ROT_STRIDE
                if ROLLS[ctype]:
                    mask = _roll_options(cell, grid, wbits, ctype, rot, a, b)
                    for f in range(1, NFLAVOURS + 1):
                        if mask & (1 << f):
                            out[n] = code + f
                            n += 1
                else:
                    out[n] = code
                    n += 1
    placements = n
    for k in range(meta.n_big):
        root = big[k]
        if _box_eligible(t, root, p):
            out[n] = BOX_BASE + _first_cell(t, root)
            n += 1
    out[placements:n].sort()
    if placements == 0:
        for j in range(tray_n):
            out[n] = STUCK_BASE + trays[p, j]
            n += 1
    return out[:n].copy()


@njit(**LEAF)
def _is_legal_place(t: Tables, grid: Grid, p: int, payload: int) -> bool:
    meta, cell = t.meta[0], t.cell
    wbits = meta.wbits
    perfect = meta.perfect != 0
    if payload // PLACE_STRIDE >= COORD_SPAN * COORD_SPAN:
        return False
    a, b, ctype, rot, flav = _decode_place(payload)
    if ctype >= DECK_SIZE or not _in_tray(t, p, ctype):
        return False
    canonical = False
    for x in range(NCANON[ctype]):
        if CANON[ctype, x] == rot:
            canonical = True
    if not canonical or (flav == 0) == (ROLLS[ctype] != 0):
        return False
    # Outside the bounding box plus the reach nothing is free (and the torus could alias).
    if a < meta.min_row - 2 or a > meta.max_row + 1 or b < meta.min_col - 2 or b > meta.max_col + 1:
        return False
    if not _is_anchor(grid, wbits, a, b):
        return False
    if not _fits(cell, grid, wbits, perfect, ctype, rot, a, b):
        return False
    if flav:
        return (_roll_options(cell, grid, wbits, ctype, rot, a, b) >> flav) & 1 == 1
    return True


@njit(**LEAF)
def _is_legal_box(t: Tables, grid: Grid, p: int, payload: int) -> bool:
    meta, cell = t.meta[0], t.cell
    if payload >= COORD_SPAN * COORD_SPAN:
        return False
    a, b = _decode_position(payload)
    if a < meta.min_row or a > meta.max_row or b < meta.min_col or b > meta.max_col:
        return False
    i = cell_at(grid, meta.wbits, a, b)
    if i < 0 or cell[i].frozen != 0:
        return False
    root = run_root(t, i)
    return cell[root].size >= MIN_BOX and _box_eligible(t, root, p) and _first_cell(t, root) == payload


@njit(cache=True)
def is_legal(t: Tables, grid: Grid, code: int) -> bool:
    """Whether ``code`` is a legal move for the player to move (any int64; never raises)."""
    if t.meta[0].over or code < 0:
        return False
    p = t.meta[0].to_move
    kind = code >> KIND_SHIFT
    payload = code & PAYLOAD_MASK
    if kind == PLACE:
        return _is_legal_place(t, grid, p, payload)
    if kind == BOX:
        return _is_legal_box(t, grid, p, payload)
    if kind == STUCK:
        return payload < DECK_SIZE and _in_tray(t, p, payload) and not _has_placement(t, grid)
    return False


@njit(**LEAF)
def _random_try(t: Tables, grid: Grid) -> int:
    meta, cell, anchors, big, trays = t.meta[0], t.cell, t.anchors, t.big, t.trays
    p = meta.to_move
    wbits = meta.wbits
    perfect = meta.perfect != 0
    tray_n = t.pinfo[p].tray_len
    n_boxes = 0
    for k in range(meta.n_big):
        if _box_eligible(t, big[k], p):
            n_boxes += 1
    weight = 0
    for j in range(tray_n):
        ctype = trays[p, j]
        weight += NCANON[ctype] * (NFLAVOURS if ROLLS[ctype] else 1)
    total = weight * meta.n_anchors + n_boxes
    # A try costs about one candidate's check and listing costs them all: trying up to
    # half the candidates wins whenever two or more moves are legal.
    for _ in range(max(MAX_TRIES, total // 2)):
        x = np.random.randint(0, total)
        if x < n_boxes:
            for k in range(meta.n_big):
                root = big[k]
                if _box_eligible(t, root, p):
                    if x == 0:
                        return BOX_BASE + _first_cell(t, root)
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
        if not _fits(cell, grid, wbits, perfect, ctype, rot, a, b):
            continue
        flav = 0
        if ROLLS[ctype]:
            flav = y % mult + 1
            if not (_roll_options(cell, grid, wbits, ctype, rot, a, b) >> flav) & 1:
                continue
        code: int = PLACE_BASE + _key(a, b) * PLACE_STRIDE + ctype * TYPE_STRIDE + rot * ROT_STRIDE + flav
        return code
    return -1


@njit(**LEAF)
def _random_listed(t: Tables, grid: Grid) -> int:
    """A uniformly random legal move by counting them all and walking to a random one."""
    meta, cell, anchors, big, trays = t.meta[0], t.cell, t.anchors, t.big, t.trays
    p = meta.to_move
    wbits = meta.wbits
    perfect = meta.perfect != 0
    tray_n = t.pinfo[p].tray_len
    count = 0
    for walk in range(2):
        k = -1 if walk == 0 else np.random.randint(0, count)
        seen = 0
        for i in range(meta.n_anchors):
            a, b = anchors[i, 0], anchors[i, 1]
            for j in range(tray_n):
                ctype = trays[p, j]
                for x in range(NCANON[ctype]):
                    rot = CANON[ctype, x]
                    if not _fits(cell, grid, wbits, perfect, ctype, rot, a, b):
                        continue
                    code: int = PLACE_BASE + _key(a, b) * PLACE_STRIDE + ctype * TYPE_STRIDE + rot * ROT_STRIDE
                    if ROLLS[ctype]:
                        mask = _roll_options(cell, grid, wbits, ctype, rot, a, b)
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
        for i in range(meta.n_big):
            root = big[i]
            if _box_eligible(t, root, p):
                if seen == k:
                    return BOX_BASE + _first_cell(t, root)
                seen += 1
        if placements == 0:
            for j in range(tray_n):
                if seen == k:
                    stuck: int = STUCK_BASE + trays[p, j]
                    return stuck
                seen += 1
        count = seen
    return -1


@njit(**LEAF)
def _random_move(t: Tables, grid: Grid) -> int:
    code = _random_try(t, grid)
    if code >= 0:
        return code
    return _random_listed(t, grid)


@njit(cache=True)
def random_move(t: Tables, grid: Grid) -> int:
    """A legal move drawn uniformly from all legal moves (the game must not be over).

    Tries random (card, rotation, roll flavour, anchor) candidates and boxes, each
    equally likely, keeping the first legal one: uniform over the legal moves since each
    is exactly one candidate. After enough misses (:data:`MAX_TRIES` or half the
    candidates) it counts every legal move and walks to a random one (still uniform: a
    mixture of two uniform draws)."""
    return _random_move(t, grid)


@njit(cache=True)
def seeded_random_move(t: Tables, grid: Grid, seed: int) -> int:
    """:func:`random_move` after ``np.random.seed(seed)``."""
    np.random.seed(seed)
    return random_move(t, grid)


@njit(cache=True)
def sample_random_moves(t: Tables, grid: Grid, n: int, seed: int, listed: bool = False) -> Codes:
    """``n`` independent :func:`random_move` draws from one state (for tests and
    statistics); with ``listed`` every draw takes the counting fall-back."""
    np.random.seed(seed)
    out = np.empty(n, np.int64)
    for i in range(n):
        if listed:
            out[i] = _random_listed(t, grid)
        else:
            out[i] = random_move(t, grid)
    return out
