"""Whole games: a new deal, a state rebuilt from its cells, random games to the end.

:func:`random_games` (deal and play with uniformly random legal moves) is what the speed
benchmark runs; :func:`random_playouts` plays many games on from one state.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..deck import DECK_SIZE, TRAY_SIZE
from .grid import DC, DR, MIN_WBITS, ROOM, _fill_grid, _find_anchors, _needs_room, _room_bits, cell_at
from .legal import _random_move
from .placement import _put_card, _start_roll_flavour
from .runs import _union
from .tables import (
    LEAF,
    NEUTRAL,
    ROLLS,
    Grid,
    MetaRecord,
    Tables,
    copy_into,
)
from .turns import _apply_core, _tray_insert


@njit(cache=True)
def rebuild(t: Tables, wbits: int) -> Grid:
    """Every derived structure (grid, runs, holdings, big runs, anchors, bounding box) from
    the cell table, its frozen marks and the cards; returns the grid. Used when a state is
    built from a dict."""
    meta, cell, hold = t.meta[0], t.cell, t.hold
    n = meta.n_cells
    meta.min_row = meta.max_row = cell[0].row
    meta.min_col = meta.max_col = cell[0].col
    for i in range(n):
        meta.min_row = min(meta.min_row, cell[i].row)
        meta.max_row = max(meta.max_row, cell[i].row)
        meta.min_col = min(meta.min_col, cell[i].col)
        meta.max_col = max(meta.max_col, cell[i].col)
    extent = max(meta.max_row - meta.min_row, meta.max_col - meta.min_col) + 1
    while extent + ROOM > (1 << wbits):
        wbits += 1
    meta.n_anchors = 0
    meta.n_big = 0
    meta.stamp = 0
    grid = _fill_grid(t, wbits)
    for i in range(n):
        cell[i].parent = i
        cell[i].size = 1
        cell[i].has_roll = cell[i].roll
        cell[i].next = i
        cell[i].witness = 0
        cell[i].stamp = 0
        for q in range(meta.players):
            hold[i, q] = 0
        if cell[i].owner >= 0:
            hold[i, cell[i].owner] = 1
    for i in range(n):
        if cell[i].frozen:
            continue
        for d in range(4):
            j = cell_at(grid, wbits, cell[i].row + DR[d], cell[i].col + DC[d])
            if j >= 0 and cell[j].frozen == 0 and cell[j].flavour == cell[i].flavour:
                _union(t, i, j)
    # Frozen quadrants stay single: no kernel walks a delivered run again.
    _find_anchors(t, grid)
    return grid


@njit(**LEAF)
def _reset_meta(meta: MetaRecord) -> None:
    """The scalars of a new game (``players`` and the rule switches stay); the start card's window."""
    meta.to_move = 0
    meta.trigger = -1
    meta.final_left = meta.streak = meta.over = 0
    meta.n_cards = meta.n_cells = meta.n_anchors = meta.n_big = 0
    meta.turns = meta.stamp = 0
    meta.min_row = meta.min_col = 0
    meta.max_row = meta.max_col = 1
    meta.wbits = MIN_WBITS


@njit(cache=True)
def start_game(t: Tables, deck_order: NDArray[np.int64], start_type: int) -> Grid:
    """Fill zeroed tables for a new game: ``deck_order[p]`` is player p's shuffled deck (top
    first), the start card ``start_type``; ``t.meta`` must hold ``players`` and the three switches.
    Returns the grid."""
    piles, pinfo = t.piles, t.pinfo
    _reset_meta(t.meta[0])
    for p in range(t.meta[0].players):
        for k in range(DECK_SIZE - TRAY_SIZE):
            piles[p, k] = deck_order[p, TRAY_SIZE + k]
        pinfo[p].head = 0
        pinfo[p].count = DECK_SIZE - TRAY_SIZE
        pinfo[p].known = pinfo[p].tray_len = pinfo[p].score = pinfo[p].boxes = 0
        for k in range(TRAY_SIZE):
            _tray_insert(t, p, deck_order[p, k])
    grid = np.zeros(1 << (2 * MIN_WBITS), np.int32)
    flav = _start_roll_flavour(start_type) if ROLLS[start_type] else 0
    _put_card(t, grid, NEUTRAL, start_type, 0, 0, 0, flav)
    return grid


@njit(**LEAF)
def _places(pinfo: NDArray[np.void], players: int, out_row: NDArray[np.int32]) -> None:
    """Each player's place, 0 = first: by score, then boxes delivered."""
    for q in range(players):
        place = 0
        for j in range(players):
            if pinfo[j].score > pinfo[q].score or (
                    pinfo[j].score == pinfo[q].score and pinfo[j].boxes > pinfo[q].boxes):
                place += 1
        out_row[q] = place


@njit(cache=True)
def _play_out(t: Tables, grid: Grid) -> Grid:
    """Random moves to the end of the game; returns the final grid."""
    meta = t.meta[0]
    while meta.over == 0:
        code = _random_move(t, grid)
        placed, _ = _apply_core(t, grid, code)
        if placed and _needs_room(meta):
            grid = _fill_grid(t, _room_bits(meta))
    return grid


@njit(cache=True)
def random_playouts(
        t: Tables, grid: Grid, n: int, seed: int,
) -> tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.int32], NDArray[np.int64]]:
    """Play ``n`` games from the state to the end with uniformly random legal moves.

    Returns ``(scores, boxes, places, turns)``: int32[n, players] each and int64[n]; the
    random numbers come from ``np.random.seed(seed)``, so a seed gives the same games."""
    np.random.seed(seed)
    players = t.meta[0].players
    scores = np.zeros((n, players), np.int32)
    boxes = np.zeros((n, players), np.int32)
    places = np.zeros((n, players), np.int32)
    turns = np.zeros(n, np.int64)
    w = Tables(t.meta.copy(), t.cell.copy(), t.hold.copy(), t.cards.copy(), t.anchors.copy(), t.big.copy(),
               t.piles.copy(), t.trays.copy(), t.pinfo.copy())
    for g in range(n):
        copy_into(w, t)
        _play_out(w, grid.copy())
        for q in range(players):
            scores[g, q] = w.pinfo[q].score
            boxes[g, q] = w.pinfo[q].boxes
        _places(w.pinfo, players, places[g])
        turns[g] = w.meta[0].turns - t.meta[0].turns
    return scores, boxes, places, turns


@njit(cache=True)
def random_games(t: Tables, n: int, seed: int) -> tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.int64]]:
    """Deal and play ``n`` new games with uniformly random legal moves under the players
    and switches in ``t.meta`` (``t`` is scratch space, sized for those players).

    Returns ``(scores, places, turns)`` as :func:`random_playouts`; decks are shuffled
    with ``np.random`` from ``seed``."""
    np.random.seed(seed)
    players = t.meta[0].players
    scores = np.zeros((n, players), np.int32)
    places = np.zeros((n, players), np.int32)
    turns = np.zeros(n, np.int64)
    order = np.empty((players, DECK_SIZE), np.int64)
    for g in range(n):
        for p in range(players):
            order[p] = np.random.permutation(DECK_SIZE)
        start = np.random.randint(0, DECK_SIZE)
        grid = start_game(t, order, start)
        _play_out(t, grid)
        for q in range(players):
            scores[g, q] = t.pinfo[q].score
        _places(t.pinfo, players, places[g])
        turns[g] = t.meta[0].turns
    return scores, places, turns
