"""Donuts passed to the PUCT search of :mod:`donuts_ai.search.puct` (private): the game's
functions of its :class:`~donuts_ai.search.puct.Game` record (a node's state is a
:data:`STATE` record, the position from the side to move of the kernel contract,
:mod:`donuts_ai.donuts._engine.position`; the player is that side's color; the rules are
``(line_masks uint64[G, 36], donuts, single)``), and the observation planes of the
leaves and roots, seen by their side to move. :mod:`.batched_search` binds the search
to these functions.

Not inlined by Numba: a function passed as a value must not be (it would be compiled in
as an address, and the kernel calling it never cached).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from .._bits import ctz
from ..donuts._engine.batch import _write_planes, mover_view
from ..donuts._engine.core import flips, forced_line, has_five, legal_mask, threats
from ..donuts._engine.position import (
    MOVES_AGAIN,
    Position,
    Rulebook,
    apply,
    is_over,
    place,
    placement_ends_game,
    placer_value,
    plies_left,
    settle_without_five,
)
from ..donuts.alphabeta._negamax import search_root
from ..donuts.alphabeta._scores import EXACT_DEPTH
from ..donuts.squares import FULL_BOARD
from ..search.puct import NONE, Tree

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_FULL = np.uint64(FULL_BOARD)

#: A node's Donuts position, from its side to move (for a finished game: the last placer's).
STATE = np.dtype(
    [
        ("own", np.uint64),
        ("opp", np.uint64),
        ("last", np.int64),
        ("placed_own", np.int64),
        ("placed_opp", np.int64),
    ],
    align=True,
)

#: The rules a search passes to the game's functions: every game's line masks, the donuts
#: a player has, and whether a single donut completes a line.
Rules = tuple[npt.NDArray[np.uint64], int, bool]

#: What :func:`step_solving` settles exactly: only finished games (as :func:`step`), also the
#: positions settled in one ply, or also those the exact solver settles within a node limit.
SOLVE_NONE, SOLVE_ONE_PLY, SOLVE_EXACT = 0, 1, 2
#: Counters of the exact solves of each game (:data:`SolvingRules`): tried, settled, nodes.
SOLVES_TRIED, SOLVES_SETTLED, SOLVE_NODES = 0, 1, 2
#: :data:`Rules`, then what :func:`step_solving` settles: ``(line_masks, donuts, single, solve,
#: solve_plies, node_limit, tables, workspaces, counters)``: ``solve`` one of ``SOLVE_*``; with
#: ``SOLVE_EXACT`` a position with at most ``solve_plies`` plies left is searched by the
#: solver's alpha-beta (:func:`donuts_ai.donuts.alphabeta._negamax.search_root`) within
#: ``node_limit`` nodes, on game ``g``'s own table ``tables[g]`` (``uint64[G, rows, 3]``) and
#: workspace ``workspaces[g]`` (``WORKSPACE[G]``), counted in ``counters[g]`` (``int64[G, 3]``).
SolvingRules = tuple[npt.NDArray[np.uint64], int, bool, int, int, int, npt.NDArray[np.uint64], np.ndarray, npt.NDArray[np.int64]]


@njit(cache=True)
def root(rules: Rules, roots: np.ndarray, g: int, states: np.ndarray, node: int) -> tuple[int, np.uint64]:
    """Root ``g`` (records with the fields ``own opp last placed_own placed_opp color
    line_masks``, such as the batch environment's games, :data:`donuts_ai.donuts._engine.batch.GAME`)
    into ``states[node]``: ``(color to move, legal squares)``."""
    r = roots[g]
    s = states[node]
    s.own = r.own
    s.opp = r.opp
    s.last = r.last
    s.placed_own = r.placed_own
    s.placed_opp = r.placed_opp
    return r.color, legal_mask(r.own, r.opp, r.last, r.line_masks)


@njit(cache=True, inline="always")
def _play_into(donuts: int, single: bool, states: np.ndarray, parent: int, child: int, sq: int) -> tuple[Position, int]:
    """``sq`` played from ``states[parent]``, the position after it written into
    ``states[child]``: ``(that position, the move's status)``."""
    p = states[parent]
    after, status = apply(donuts, single, Position(p.own, p.opp, p.last, p.placed_own, p.placed_opp), sq)
    s = states[child]
    s.own = after.own
    s.opp = after.opp
    s.last = after.last
    s.placed_own = after.placed_own
    s.placed_opp = after.placed_opp
    return after, status


@njit(cache=True)
def step(rules: Rules, g: int, states: np.ndarray, parent: int, child: int, player: int,
         sq: int) -> tuple[bool, int, np.uint64, float]:
    """``sq`` played from ``states[parent]`` (``player`` to move) into ``states[child]``:
    ``(over, color to move or, when over, the placer, legal squares, outcome for Chocolate)``."""
    line_masks, donuts, single = rules
    after, status = _play_into(donuts, single, states, parent, child, sq)
    if is_over(status):
        value = placer_value(status)
        return True, player, _ZERO, value if player == 0 else -value
    return False, player if status == MOVES_AGAIN else 1 - player, legal_mask(after.own, after.opp, after.last, line_masks[g]), 0.0


@njit(cache=True, inline="always")
def settled_value(pos: Position, line_masks: npt.NDArray[np.uint64], donuts: int, single: bool) -> tuple[bool, float]:
    """``(True, value for the side to move)`` when ``pos`` (a game going on) is settled in
    one ply: the side to move makes five now (+1), or every move ends the game (the best
    end's value); ``(False, 0.0)`` else."""
    legal = legal_mask(pos.own, pos.opp, pos.last, line_masks)
    if legal & threats(pos.own, _FULL & ~(pos.own | pos.opp)) != _ZERO:
        return True, 1.0
    ends = placement_ends_game(pos, donuts)
    best = -1.0
    while legal != _ZERO:
        sq = ctz(legal)
        legal &= legal - _ONE
        flipped = flips(pos.own, pos.opp, sq, single)
        after = place(pos, sq, flipped)
        # Flips only ever turn donuts to the placer's colour: a five needs a flip here (the
        # fives without flips are the threats above).
        if flipped != _ZERO and has_five(after.own):
            return True, 1.0
        if ends:
            best = max(best, float(placer_value(settle_without_five(after, donuts)[1])))
    if ends:
        return True, best
    return False, 0.0


@njit(cache=True)
def step_solving(rules: SolvingRules, g: int, states: np.ndarray, parent: int, child: int, player: int,
                 sq: int) -> tuple[bool, int, np.uint64, float]:
    """:func:`step` under :data:`SolvingRules`: a position settled (in one ply,
    :func:`settled_value`, or by the solver) is returned as over, with its exact outcome
    for Chocolate (and the color to move as its player)."""
    line_masks, donuts, single, solve, solve_plies, node_limit, tables, workspaces, counters = rules
    after, status = _play_into(donuts, single, states, parent, child, sq)
    if is_over(status):
        value = placer_value(status)
        return True, player, _ZERO, value if player == 0 else -value
    mover = player if status == MOVES_AGAIN else 1 - player
    if solve >= SOLVE_ONE_PLY:
        settled, exact = settled_value(after, line_masks[g], donuts, single)
        if settled:
            return True, mover, _ZERO, exact if mover == 0 else -exact
    if solve >= SOLVE_EXACT and plies_left(after, donuts) <= solve_plies:
        score, nodes, aborted = search_root(Rulebook(line_masks[g], donuts, single), after, EXACT_DEPTH, -1, 1, tables[g],
                                            workspaces[g:g + 1], node_limit)
        counters[g, SOLVES_TRIED] += 1
        counters[g, SOLVE_NODES] += nodes
        if not aborted:
            counters[g, SOLVES_SETTLED] += 1
            exact = 1.0 if score > 0 else (-1.0 if score < 0 else 0.0)
            return True, mover, _ZERO, exact if mover == 0 else -exact
    return False, mover, legal_mask(after.own, after.opp, after.last, line_masks[g]), 0.0


@njit(cache=True)
def write_leaf_planes(tree: Tree, line_masks: npt.NDArray[np.uint64], directions: npt.NDArray[np.int8], donuts: int,
                      out: npt.NDArray[np.float32]) -> None:
    """The observation planes of every game's leaf, seen by its side to move, into ``out``
    (``float32[G, 36, NUM_PLANES]``, a view of ``(G, 6, 6, NUM_PLANES)``); zeros for a game
    without a leaf (its row is evaluated and ignored: the batch keeps one shape)."""
    for g in range(tree.leaf.shape[0]):
        leaf = tree.leaf[g]
        if leaf == NONE:
            out[g] = 0.0
            continue
        s = tree.states[g, leaf]
        forced = forced_line(_FULL & ~(s.own | s.opp), s.last, line_masks[g])
        seen = mover_view(s.own, s.opp, s.last, forced, s.placed_own, s.placed_opp, tree.player[g, leaf], donuts)
        _write_planes(out[g], seen, directions[g])


@njit(cache=True)
def write_node_planes(tree: Tree, line_masks: npt.NDArray[np.uint64], directions: npt.NDArray[np.int8], donuts: int,
                      games: npt.NDArray[np.int64], nodes: npt.NDArray[np.int64], count: int, out: npt.NDArray[np.float32]) -> None:
    """:func:`write_leaf_planes` of ``count`` nodes: node ``nodes[i]`` of game ``games[i]`` into ``out[i]``."""
    for i in range(count):
        g, node = games[i], nodes[i]
        s = tree.states[g, node]
        forced = forced_line(_FULL & ~(s.own | s.opp), s.last, line_masks[g])
        seen = mover_view(s.own, s.opp, s.last, forced, s.placed_own, s.placed_opp, tree.player[g, node], donuts)
        _write_planes(out[i], seen, directions[g])


@njit(cache=True)
def write_root_planes(roots: np.ndarray, donuts: int, out: npt.NDArray[np.float32]) -> None:
    """The observation planes of every root record (see :func:`root`), seen by its side to
    move, into ``out`` (``float32[G, 36, NUM_PLANES]``)."""
    for g in range(roots.shape[0]):
        r = roots[g]
        forced = forced_line(_FULL & ~(r.own | r.opp), r.last, r.line_masks)
        seen = mover_view(r.own, r.opp, r.last, forced, r.placed_own, r.placed_opp, r.color, donuts)
        _write_planes(out[g], seen, r.directions)
