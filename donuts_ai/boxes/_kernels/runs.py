"""Runs of one flavour: joining them, telling when one is closed, delivering and scoring it.

Each open run is a union-find tree over its quadrants (``parent``) whose root keeps the
run's size, whether it holds a roll and every player's holding (``t.hold``); its quadrants
form a circular list (``next``), so merging two runs is two pointer swaps and sealing
walks only the run. Runs never split: a delivered run freezes whole and never joins
anything again. ``t.big`` lists the roots of the open runs of 3 or more (those that can be
boxed early and score at the end).
"""

from __future__ import annotations

from numba import njit

from ..moves import COORD_OFFSET, COORD_SPAN
from .grid import DC, DR, _coverable, _key
from .tables import (
    LEAF,
    MIN_BOX,
    NOBODY,
    Grid,
    Tables,
)


@njit(**LEAF)
def run_root(t: Tables, x: int) -> int:
    """The root of quadrant ``x``'s run (compressing the path)."""
    cell = t.cell
    root = x
    while cell[root].parent != root:
        root = cell[root].parent
    while cell[x].parent != root:
        nxt = cell[x].parent
        cell[x].parent = root
        x = nxt
    return root


@njit(**LEAF)
def _big_remove(t: Tables, root: int) -> None:
    meta, big = t.meta[0], t.big
    n = meta.n_big
    for i in range(n):
        if big[i] == root:
            big[i] = big[n - 1]
            meta.n_big = n - 1
            return


@njit(**LEAF, inline="always")
def _union(t: Tables, a: int, b: int) -> None:
    """Join the runs of quadrants ``a`` and ``b`` (the larger root stays root)."""
    meta, cell, hold, big = t.meta[0], t.cell, t.hold, t.big
    ra = run_root(t, a)
    rb = run_root(t, b)
    if ra == rb:
        return
    if cell[ra].size < cell[rb].size:
        ra, rb = rb, ra
    if cell[ra].witness == 0:
        cell[ra].witness = cell[rb].witness
    was_big = cell[ra].size >= MIN_BOX
    if cell[rb].size >= MIN_BOX:
        _big_remove(t, rb)
    cell[rb].parent = ra
    cell[ra].size += cell[rb].size
    cell[ra].has_roll |= cell[rb].has_roll
    for q in range(meta.players):
        hold[ra, q] += hold[rb, q]
    nxt = cell[ra].next
    cell[ra].next = cell[rb].next
    cell[rb].next = nxt
    if not was_big and cell[ra].size >= MIN_BOX:
        big[meta.n_big] = ra
        meta.n_big += 1


@njit(**LEAF, inline="always")
def _run_open(t: Tables, grid: Grid, wbits: int, squared: bool, root: int) -> bool:
    """Some quadrant of the run touches a coverable empty position.

    The root remembers the last such position it found (``witness``, key + 1): it touches
    the run for good, so while it stays coverable the run is open without a walk."""
    cell = t.cell
    w = cell[root].witness - 1
    if w >= 0 and _coverable(grid, wbits, squared, w // COORD_SPAN - COORD_OFFSET, w % COORD_SPAN - COORD_OFFSET):
        return True
    x = root
    while True:
        r, c = cell[x].row, cell[x].col
        for d in range(4):
            if _coverable(grid, wbits, squared, r + DR[d], c + DC[d]):
                cell[root].witness = _key(r + DR[d], c + DC[d]) + 1
                return True
        x = cell[x].next
        if x == root:
            return False


@njit(**LEAF)
def _first_cell(t: Tables, root: int) -> int:
    """The run's first quadrant in reading order, as a (row, column) key."""
    cell = t.cell
    best = 1 << 62
    x = root
    while True:
        key = _key(cell[x].row, cell[x].col)
        if key < best:
            best = key
        x = cell[x].next
        if x == root:
            return best


@njit(**LEAF)
def run_majority(t: Tables, root: int, sealer: int) -> int:
    """The player holding most donuts of the run (at least one); a tie goes to ``sealer`` when
    ``sealer`` is among the tied, else -1 (nobody)."""
    hold = t.hold
    players = t.meta[0].players
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
def run_points(t: Tables, root: int) -> int:
    """What the run scores: nothing under :data:`~.tables.MIN_BOX`, doubled with a roll."""
    size: int = t.cell[root].size
    if size < MIN_BOX:
        return 0
    return size * 2 if t.cell[root].has_roll else size


@njit(**LEAF)
def _box_eligible(t: Tables, root: int, p: int) -> bool:
    """Player ``p`` holds at least half of the run, so may box it early."""
    eligible: bool = 2 * t.hold[root, p] >= t.cell[root].size
    return eligible


@njit(**LEAF)
def _deliver(t: Tables, root: int, sealer: int, early: bool) -> int:
    """Seal or box ``root``'s run: freeze it and score it. Returns the scorer (-1 none)."""
    meta, cell, pinfo = t.meta[0], t.cell, t.pinfo
    points = run_points(t, root)
    scorer = NOBODY
    if points > 0:
        if early or meta.closers:
            scorer = sealer
        else:
            scorer = run_majority(t, root, sealer)
        _big_remove(t, root)
    x = root
    while True:
        cell[x].frozen = 1
        cell[x].winner = scorer
        x = cell[x].next
        if x == root:
            break
    if scorer >= 0:
        pinfo[scorer].score += points
        pinfo[scorer].boxes += 1
    return scorer
