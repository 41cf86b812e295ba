"""Turns: trays and piles, playing a move, and the end of a turn and of the game.

:func:`apply_move` is the engine's one transition: place a card, box a run early or put
a card back when stuck, then draw up, move the end-of-game trigger on and either pass the
turn or score the open runs and end the game.
"""

from __future__ import annotations

from numba import njit

from ..deck import TRAY_SIZE
from ..moves import BOX, COORD_OFFSET, COORD_SPAN, KIND_SHIFT, PLACE, PLACE_STRIDE, ROT_STRIDE, STUCK, TYPE_STRIDE
from .grid import _fill_grid, _needs_room, _room_bits, cell_at
from .placement import _fits, _put_card, _seal_around
from .runs import _deliver, run_majority, run_points, run_root
from .tables import (
    CANON,
    LEAF,
    NCANON,
    PAYLOAD_MASK,
    PILE_MASK,
    Grid,
    Tables,
)


@njit(**LEAF)
def _decode_position(payload: int) -> tuple[int, int]:
    """(row, column) of a position key."""
    return payload // COORD_SPAN - COORD_OFFSET, payload % COORD_SPAN - COORD_OFFSET


@njit(**LEAF)
def _decode_place(payload: int) -> tuple[int, int, int, int, int]:
    """(row, column, card type, rotation, roll flavour) of a placement's payload."""
    rest = payload % PLACE_STRIDE
    a, b = _decode_position(payload // PLACE_STRIDE)
    return a, b, rest // TYPE_STRIDE, (rest % TYPE_STRIDE) // ROT_STRIDE, rest % ROT_STRIDE


@njit(**LEAF)
def _tray_remove(t: Tables, p: int, ctype: int) -> None:
    trays, pinfo = t.trays, t.pinfo
    n = pinfo[p].tray_len
    k = 0
    while trays[p, k] != ctype:
        k += 1
    for j in range(k, n - 1):
        trays[p, j] = trays[p, j + 1]
    pinfo[p].tray_len = n - 1


@njit(**LEAF)
def _tray_insert(t: Tables, p: int, ctype: int) -> None:
    trays, pinfo = t.trays, t.pinfo
    n = pinfo[p].tray_len
    k = n
    while k > 0 and trays[p, k - 1] > ctype:
        trays[p, k] = trays[p, k - 1]
        k -= 1
    trays[p, k] = ctype
    pinfo[p].tray_len = n + 1


@njit(**LEAF)
def _in_tray(t: Tables, p: int, ctype: int) -> bool:
    for j in range(t.pinfo[p].tray_len):
        if t.trays[p, j] == ctype:
            return True
    return False


@njit(**LEAF)
def _finish(t: Tables) -> None:
    """Open runs of 3 or more score in full to their strict majority holder."""
    meta, big, pinfo = t.meta[0], t.big, t.pinfo
    for k in range(meta.n_big):
        root = big[k]
        scorer = run_majority(t, root, -1)
        if scorer >= 0:
            pinfo[scorer].score += run_points(t, root)
    meta.over = 1
    meta.to_move = -1


@njit(**LEAF)
def _fits_anywhere(t: Tables, grid: Grid, ctype: int) -> bool:
    cell, anchors = t.cell, t.anchors
    wbits = t.meta[0].wbits
    perfect = t.meta[0].perfect != 0
    for k in range(t.meta[0].n_anchors):
        for x in range(NCANON[ctype]):
            if _fits(cell, grid, wbits, perfect, ctype, CANON[ctype, x], anchors[k, 0], anchors[k, 1]):
                return True
    return False


@njit(**LEAF)
def _layout_dead(t: Tables, grid: Grid) -> bool:
    """No card left to any player, in a tray or a pile, fits anywhere in any rotation."""
    piles, trays, pinfo = t.piles, t.trays, t.pinfo
    for p in range(t.meta[0].players):
        for j in range(pinfo[p].tray_len):
            if _fits_anywhere(t, grid, trays[p, j]):
                return False
        for k in range(pinfo[p].count):
            if _fits_anywhere(t, grid, piles[p, (pinfo[p].head + k) & PILE_MASK]):
                return False
    return True


@njit(**LEAF)
def _draw_up(t: Tables, p: int) -> None:
    """Player ``p`` fills the tray from the top of the pile."""
    piles, pinfo = t.piles, t.pinfo
    while pinfo[p].tray_len < TRAY_SIZE and pinfo[p].count > 0:
        head = pinfo[p].head
        _tray_insert(t, p, piles[p, head])
        pinfo[p].head = (head + 1) & PILE_MASK
        pinfo[p].count -= 1
        if pinfo[p].known > pinfo[p].count:
            pinfo[p].known = pinfo[p].count


@njit(**LEAF)
def _end_turn(t: Tables, grid: Grid, p: int, stuck: bool) -> None:
    meta, pinfo = t.meta[0], t.pinfo
    n = meta.players
    _draw_up(t, p)
    meta.streak = meta.streak + 1 if stuck else 0
    meta.turns += 1
    if meta.trigger < 0:
        if pinfo[p].count == 0:
            meta.trigger = p
            meta.final_left = n - 1
    else:
        meta.final_left -= 1
    if meta.trigger >= 0 and meta.final_left == 0:
        _finish(t)
    elif meta.streak == n and _layout_dead(t, grid):
        # Checked once a streak: nothing changes the layout while everyone is stuck.
        _finish(t)
    else:
        meta.to_move = (p + 1) % n


@njit(**LEAF)
def _apply_core(t: Tables, grid: Grid, code: int) -> tuple[int, int]:
    """Play ``code`` on ``grid`` as it is; returns ``(cards placed, runs sealed or boxed)``
    (the caller grows the grid after a placement: :func:`apply_move`)."""
    meta, piles, pinfo = t.meta[0], t.piles, t.pinfo
    p = meta.to_move
    kind = code >> KIND_SHIFT
    payload = code & PAYLOAD_MASK
    placed = 0
    sealed = 0
    if kind == PLACE:
        a, b, ctype, rot, flav = _decode_place(payload)
        _tray_remove(t, p, ctype)
        _put_card(t, grid, p, ctype, rot, a, b, flav)
        sealed = _seal_around(t, grid, a, b, p)
        placed = 1
    elif kind == BOX:
        a, b = _decode_position(payload)
        i = cell_at(grid, meta.wbits, a, b)
        _deliver(t, run_root(t, i), p, True)
        sealed = 1
    else:
        ctype = payload
        _tray_remove(t, p, ctype)
        pinfo[p].count += 1
        piles[p, (pinfo[p].head + pinfo[p].count - 1) & PILE_MASK] = ctype
        pinfo[p].known += 1
    _end_turn(t, grid, p, kind == STUCK)
    return placed, sealed


@njit(cache=True)
def apply_move(t: Tables, grid: Grid, code: int) -> tuple[Grid, int, int]:
    """Play the legal move ``code`` for the player to move. Returns ``(grid, cards placed,
    runs sealed or boxed)``; the grid is a new, larger one when the layout outgrew it."""
    placed, sealed = _apply_core(t, grid, code)
    if placed and _needs_room(t.meta[0]):
        grid = _fill_grid(t, _room_bits(t.meta[0]))
    return grid, placed, sealed
