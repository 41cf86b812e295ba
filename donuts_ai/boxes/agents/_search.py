"""Compiled helpers the Donut Boxes agents share (private): sampling a world's hidden cards
again, what a move gives each player now, playout rewards, and the game's functions the information-set MCTS of
:mod:`donuts_ai.search.ismcts` is given (:mod:`._bound` binds them); copying a world is
the engine's :func:`~donuts_ai.boxes._kernels.copy_into`, imported here for the search.

Kernels on the engine's :class:`~donuts_ai.boxes._kernels.Tables` (they trust their input, never raise);
the agents of :mod:`donuts_ai.boxes.agents` own the checks. ``np.random`` is seeded by the kernel that
draws (:func:`donuts_ai.search.ismcts.search`), never here.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from .. import _kernels as E
from .._kernels import copy_into as copy_into
from .._kernels.tables import Codes, Grid, Tables
from ..deck import TRAY_SIZE

#: Quadrants of a card: the most one placement can add to another player's holding in a run.
CARD_QUADRANTS = 4

#: Rewards a playout backs up for every player (:func:`rewards`).
REWARD_RANK, REWARD_SCORE = 0, 1
REWARD_KINDS = ("rank", "score")

#: Columns of :func:`move_values`' rows.
V_OWN, V_OTHERS, V_POTENTIAL, V_BOX_POINTS, V_BOX_LEAD = range(5)
NVALUES = 5
#: V_BOX_POINTS of a move that is not a box-early move.
NOT_A_BOX = -1


@njit(cache=True)
def redeal_hidden(t: Tables, observer: int) -> None:
    """Sample again what ``observer`` cannot see, uniformly, with ``np.random``: every other
    player's tray and pile dealt afresh from their cards not placed, and the observer's own
    pile shuffled above the bottom cards they put there themselves (``known``).

    The same sample as :meth:`~donuts_ai.boxes.state.BoxesState.from_observation` makes, in place."""
    pinfo, piles, trays = t.pinfo, t.piles, t.trays
    pool = np.empty(E.PILE_CAP + TRAY_SIZE, np.int32)
    for q in range(t.meta[0].players):
        head, count, tray_n = pinfo[q].head, pinfo[q].count, pinfo[q].tray_len
        if q == observer:
            hidden = count - pinfo[q].known
            for k in range(hidden - 1, 0, -1):  # Fisher-Yates over the unknown top of the pile
                j = np.random.randint(0, k + 1)
                a = (head + k) & E.PILE_MASK
                b = (head + j) & E.PILE_MASK
                piles[q, a], piles[q, b] = piles[q, b], piles[q, a]
            continue
        n = tray_n + count
        for j in range(tray_n):
            pool[j] = trays[q, j]
        for k in range(count):
            pool[tray_n + k] = piles[q, (head + k) & E.PILE_MASK]
        for k in range(n - 1, 0, -1):
            j = np.random.randint(0, k + 1)
            pool[k], pool[j] = pool[j], pool[k]
        trays[q, :tray_n] = np.sort(pool[:tray_n])
        for k in range(count):
            piles[q, (head + k) & E.PILE_MASK] = pool[tray_n + k]


@njit(cache=True)
def potentials(t: Tables, out: NDArray[np.int64]) -> None:
    """``out[p]``: the points the open runs of 3 or more would give player ``p`` if the game
    ended now (each to its strict majority holder, as the end of the game scores them)."""
    meta = t.meta[0]
    out[:] = 0
    for k in range(meta.n_big):
        root = t.big[k]
        scorer = E.run_majority(t, root, -1)
        if scorer >= 0:
            out[scorer] += E.run_points(t, root)


@njit(cache=True)
def move_values(t: Tables, grid: Grid, codes: Codes, work: Tables) -> NDArray[np.int64]:
    """What each move of ``codes`` (legal for the player to move, ``p``) does at once, one
    row per move (int64):

    ``V_OWN``        points ``p`` scores with it (sealed boxes, a box early, the end of the
                     game when the move ends it);
    ``V_OTHERS``     the most points another player scores with it;
    ``V_POTENTIAL``  ``p``'s open-run potential (:func:`potentials`) after it, less the
                     largest other player's;
    ``V_BOX_POINTS`` a box-early move's points (:data:`NOT_A_BOX` for other moves);
    ``V_BOX_LEAD``   for a box-early move, ``p``'s donuts in the run less the most any
                     other player holds there.

    ``work`` is scratch tables for the same players; ``t`` and ``grid`` are unchanged."""
    players = t.meta[0].players
    p = t.meta[0].to_move
    out = np.zeros((codes.size, NVALUES), np.int64)
    pots = np.zeros(players, np.int64)
    for i in range(codes.size):
        code = codes[i]
        out[i, V_BOX_POINTS] = NOT_A_BOX
        if (code >> E.KIND_SHIFT) == E.BOX:
            payload = code & E.PAYLOAD_MASK
            a = payload // E.COORD_SPAN - E.COORD_OFFSET
            b = payload % E.COORD_SPAN - E.COORD_OFFSET
            root = E.run_root(t, E.cell_at(grid, t.meta[0].wbits, a, b))
            out[i, V_BOX_POINTS] = E.run_points(t, root)
            best_other = 0
            for q in range(players):
                if q != p and t.hold[root, q] > best_other:
                    best_other = t.hold[root, q]
            out[i, V_BOX_LEAD] = t.hold[root, p] - best_other
        copy_into(work, t)
        E.apply_move(work, grid.copy(), code)
        others = 0
        for q in range(players):
            gain = work.pinfo[q].score - t.pinfo[q].score
            if q == p:
                out[i, V_OWN] = gain
            elif gain > others:
                others = gain
        out[i, V_OTHERS] = others
        potentials(work, pots)
        best_other = 0
        for q in range(players):
            if q != p and pots[q] > best_other:
                best_other = pots[q]
        out[i, V_POTENTIAL] = pots[p] - best_other
    return out


# Inlined: called as a function, with ``pinfo`` a structured array, it cost ISMCTS about a
# tenth of its iterations (measured); inlined it costs nothing.
@njit(cache=True, inline="always")
def rewards(pinfo: NDArray[np.void], players: int, kind: int, out: NDArray[np.float64]) -> None:
    """Every player's reward for a finished game, in [0, 1], into ``out``.

    ``REWARD_RANK``: the share of the other players finishing below (a tie counts half:
    the game's ranking, score then boxes delivered), so 1 for first alone and 0 for last
    alone. ``REWARD_SCORE``: that share, blended half and half with the score over the best
    score (0 when nobody scored)."""
    best = 0
    for q in range(players):
        if pinfo[q].score > best:
            best = pinfo[q].score
    for q in range(players):
        beaten = 0.0
        for j in range(players):
            if j == q:
                continue
            if pinfo[q].score > pinfo[j].score or (
                    pinfo[q].score == pinfo[j].score and pinfo[q].boxes > pinfo[j].boxes):
                beaten += 1.0
            elif pinfo[q].score == pinfo[j].score and pinfo[q].boxes == pinfo[j].boxes:
                beaten += 0.5
        share = beaten / (players - 1)
        if kind == REWARD_SCORE:
            share = 0.5 * share + 0.5 * (pinfo[q].score / best if best > 0 else 0.0)
        out[q] = share


# Donut Boxes as the information-set search sees it (its ISMCTSGame record, :mod:`._bound`): a
# world is ``(tables, grid)``, the base world's tables are never written; a determinised
# state is the scratch tables and a grid of its own. Not inlined by Numba: a function
# passed as a value must not be (it would be compiled in as an address, never cached).


@njit(cache=True)
def game_deal(world: tuple[Tables, Grid], work: Tables, observer: int) -> tuple[Tables, Grid]:
    t, grid = world
    copy_into(work, t)
    wgrid = grid.copy()
    redeal_hidden(work, observer)
    return work, wgrid


@njit(cache=True)
def game_to_move(state: tuple[Tables, Grid]) -> int:
    """The player to move, NONE (-1) once the game is over."""
    meta = state[0].meta[0]
    player: int = -1 if meta.over != 0 else meta.to_move
    return player


@njit(cache=True)
def game_legal(state: tuple[Tables, Grid]) -> Codes:
    return E.legal_codes(state[0], state[1])


@njit(cache=True)
def game_step(state: tuple[Tables, Grid], code: int) -> tuple[Tables, Grid]:
    work, wgrid = state
    wgrid, _, _ = E.apply_move(work, wgrid, code)
    return work, wgrid


@njit(cache=True)
def game_playout(state: tuple[Tables, Grid]) -> tuple[Tables, Grid]:
    work, wgrid = state
    while work.meta[0].over == 0:
        wgrid, _, _ = E.apply_move(work, wgrid, E.random_move(work, wgrid))
    return work, wgrid


@njit(cache=True)
def game_rewards(state: tuple[Tables, Grid], kind: int, out: NDArray[np.float64]) -> None:
    work = state[0]
    rewards(work.pinfo, work.meta[0].players, kind, out)
