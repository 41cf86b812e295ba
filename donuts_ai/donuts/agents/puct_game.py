"""Donuts passed to the PUCT search of :mod:`donuts_ai.search.puct`: the game's
functions of its :class:`~donuts_ai.search.puct.PUCTGame` record, and the observation
planes of the leaves and roots, seen by their side to move. The learned agent's driver,
:mod:`donuts_ai.learn.batched_search`, binds the search to these functions.

A node's state is a :data:`STATE` record, the kernels' ``Position`` (from the side to
move) stored in the tree; the player is that side's colour; an action is a square. The
rules are :class:`Rulebooks`, every game's ``Rulebook`` at once (each game has its own
layout); a position is played by the engine's transition (``apply``) and valued by its
``placer_value``, for the side that placed, which is the value the search asks of a
finished game (for the player it gives as the node's).

Not inlined by Numba: a function passed as a value must not be (it would be compiled in
as an address, and the kernel calling it never cached).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from ..._bits import ONE, ZERO, ctz
from ...search import puct
from ...search.puct import NONE, PUCTTree
from .._kernels.batch import GAME, _write_planes, mover_view
from .._kernels.core import flips, forced_line, has_five, legal_mask, threats
from .._kernels.position import (
    MOVES_AGAIN,
    Position,
    Rulebook,
    apply,
    is_over,
    legal_moves,
    place,
    placement_ends_game,
    placer_value,
    plies_left,
    read_position,
    settle_without_five,
    write_position,
)
from .._kernels.tables import FULL_BOARD_BITS
from ..alphabeta import EXACT_DEPTH, search_root
from ..compiled import PATH_NODES
from ..squares import NUM_SQUARES

#: A node's Donuts position, from its side to move (for a finished game: the last placer's):
#: the fields of the kernels' ``Position``, typed as the batch's games type them.
STATE = np.dtype([(field, GAME[field]) for field in Position._fields], align=True)


class Rulebooks(NamedTuple):
    """The ``Rulebook`` of every game of a batch (:func:`rulebook`): each game's layout, and
    the rules they share."""

    line_masks: npt.NDArray[np.uint64]  # uint64[games, 36]: each game's Rulebook.line_masks
    donuts: int  # Rulebook.donuts
    single: bool  # Rulebook.single


#: What :func:`step_solving` settles: only finished games (as :func:`step`), also the
#: positions settled in one ply, or also those the exact solver settles within a node limit.
SOLVE_NONE, SOLVE_ONE_PLY, SOLVE_EXACT = 0, 1, 2
#: Counters of the exact solves of each game (:class:`SolvingRulebooks`): tried, settled, nodes.
SOLVES_TRIED, SOLVES_SETTLED, SOLVE_NODES = 0, 1, 2


class SolvingRulebooks(NamedTuple):
    """:class:`Rulebooks`, and what :func:`step_solving` settles: with ``SOLVE_EXACT`` a
    position with at most ``solve_plies`` plies left is searched by the solver's alpha-beta
    (:func:`donuts_ai.donuts.alphabeta.search_root`) within ``node_limit`` nodes,
    on game ``g``'s own table and workspace, counted in its row of ``counters``."""

    rulebooks: Rulebooks
    solve: int  # one of SOLVE_*
    solve_plies: int
    node_limit: int
    tables: npt.NDArray[np.uint64]  # uint64[games, rows, 3]: each game's solver table
    workspaces: np.ndarray  # WORKSPACE[games]: each game's solver workspace
    counters: npt.NDArray[np.int64]  # int64[games, 3]: SOLVES_TRIED, SOLVES_SETTLED, SOLVE_NODES


def new_tree(games: int, nodes: int) -> PUCTTree:
    """:func:`donuts_ai.search.puct.new_tree` for Donuts: ``games`` trees of ``nodes`` nodes
    over the 36 squares, their states :data:`STATE` records, their paths as long as a game's."""
    return puct.new_tree(games, nodes, NUM_SQUARES, PATH_NODES, STATE)


@njit(cache=True, inline="always")
def rulebook(rules: Rulebooks, g: int) -> Rulebook:
    """Game ``g``'s ``Rulebook``."""
    return Rulebook(rules.line_masks[g], rules.donuts, rules.single)


@njit(cache=True, inline="always")
def _position(states: np.ndarray, node: int) -> Position:
    """The ``Position`` stored at ``states[node]``."""
    return read_position(states[node])


@njit(cache=True, inline="always")
def _store(states: np.ndarray, node: int, pos: Position) -> None:
    """``pos`` into ``states[node]``."""
    write_position(states[node], pos)


@njit(cache=True)
def root(rules: Rulebooks | SolvingRulebooks, roots: np.ndarray, g: int, states: np.ndarray, node: int) -> tuple[int, np.uint64]:
    """Root ``g`` (records with the fields ``own opp last placed_own placed_opp color
    line_masks``, such as the batch environment's games, :data:`donuts_ai.donuts._kernels.batch.GAME`)
    into ``states[node]``: ``(colour to move, legal squares)``; the root record holds its
    game's lines, so ``rules`` are not read."""
    r = roots[g]
    _store(states, node, read_position(r))
    return r.color, legal_mask(r.own, r.opp, r.last, r.line_masks)


@njit(cache=True, inline="always")
def _play_into(rules: Rulebooks, states: np.ndarray, parent: int, child: int, sq: int) -> tuple[Position, int]:
    """``sq`` played from ``states[parent]``, the position after it written into
    ``states[child]``: ``(that position, the move's status)``."""
    after, status = apply(rules.donuts, rules.single, _position(states, parent), sq)
    _store(states, child, after)
    return after, status


@njit(cache=True, inline="always")
def _legal(line_masks: npt.NDArray[np.uint64], pos: Position) -> np.uint64:
    """The legal squares of ``pos`` on a game's lines: the engine's ``legal_moves`` without
    making a ``Rulebook`` (a call for every node the search makes: measured, about 5% of
    the search's simulations a second)."""
    return legal_mask(pos.own, pos.opp, pos.last, line_masks)


@njit(cache=True)
def step(rules: Rulebooks, g: int, states: np.ndarray, parent: int, child: int, to_move: int,
         sq: int) -> tuple[bool, int, np.uint64, float]:
    """``sq`` played from ``states[parent]`` (``to_move`` to move) into ``states[child]``:
    ``(over, colour to move or, when over, the placer, legal squares, outcome for that
    colour)``."""
    after, status = _play_into(rules, states, parent, child, sq)
    if is_over(status):
        return True, to_move, ZERO, placer_value(status)
    return False, to_move if status == MOVES_AGAIN else 1 - to_move, _legal(rules.line_masks[g], after), 0.0


@njit(cache=True, inline="always")
def settled_value(pos: Position, rules: Rulebook) -> tuple[bool, float]:
    """``(True, value for the side to move)`` when ``pos`` (a game going on) is settled in
    one ply: the side to move makes five now (+1), or every move ends the game (the best
    end's value); ``(False, 0.0)`` else."""
    legal = legal_moves(rules, pos)
    if legal & threats(pos.own, FULL_BOARD_BITS & ~(pos.own | pos.opp)) != ZERO:
        return True, 1.0
    ends = placement_ends_game(pos, rules.donuts)
    best = -1.0
    while legal != ZERO:
        sq = ctz(legal)
        legal &= legal - ONE
        flipped = flips(pos.own, pos.opp, sq, rules.single)
        after = place(pos, sq, flipped)
        # Flips only ever turn donuts to the placer's colour: a five needs a flip here (the
        # fives without flips are the threats above).
        if flipped != ZERO and has_five(after.own):
            return True, 1.0
        if ends:
            best = max(best, float(placer_value(settle_without_five(after, rules.donuts)[1])))
    if ends:
        return True, best
    return False, 0.0


@njit(cache=True)
def step_solving(rules: SolvingRulebooks, g: int, states: np.ndarray, parent: int, child: int, to_move: int,
                 sq: int) -> tuple[bool, int, np.uint64, float]:
    """:func:`step` under :class:`SolvingRulebooks`: a position settled (in one ply,
    :func:`settled_value`, or by the solver) is returned as over, with its exact outcome
    for the colour to move (as the node's player)."""
    rulebooks, solve, solve_plies, node_limit, tables, workspaces, counters = rules
    after, status = _play_into(rulebooks, states, parent, child, sq)
    if is_over(status):
        return True, to_move, ZERO, placer_value(status)
    mover = to_move if status == MOVES_AGAIN else 1 - to_move
    game_rules = rulebook(rulebooks, g)
    if solve >= SOLVE_ONE_PLY:
        settled, exact = settled_value(after, game_rules)
        if settled:
            return True, mover, ZERO, exact
    if solve >= SOLVE_EXACT and plies_left(after, rulebooks.donuts) <= solve_plies:
        score, nodes, aborted = search_root(game_rules, after, EXACT_DEPTH, -1, 1, tables[g], workspaces[g:g + 1], node_limit)
        counters[g, SOLVES_TRIED] += 1
        counters[g, SOLVE_NODES] += nodes
        if not aborted:
            counters[g, SOLVES_SETTLED] += 1
            return True, mover, ZERO, 1.0 if score > 0 else (-1.0 if score < 0 else 0.0)
    return False, mover, _legal(rulebooks.line_masks[g], after), 0.0


@njit(cache=True, inline="always")
def _write_node_planes(tree: PUCTTree, line_masks: npt.NDArray[np.uint64], directions: npt.NDArray[np.int8], donuts: int,
                       g: int, node: int, out: npt.NDArray[np.float32]) -> None:
    """The observation planes of node ``node`` of game ``g``, seen by its side to move, into ``out``."""
    s = tree.states[g, node]
    forced = forced_line(FULL_BOARD_BITS & ~(s.own | s.opp), s.last, line_masks[g])
    seen = mover_view(s.own, s.opp, s.last, forced, s.placed_own, s.placed_opp, tree.to_move[g, node], donuts)
    _write_planes(out, seen, directions[g])


@njit(cache=True)
def write_leaf_planes(tree: PUCTTree, line_masks: npt.NDArray[np.uint64], directions: npt.NDArray[np.int8], donuts: int,
                      out: npt.NDArray[np.float32]) -> None:
    """The observation planes of every game's leaf, seen by its side to move, into ``out``
    (``float32[G, 36, NUM_PLANES]``, a view of ``(G, 6, 6, NUM_PLANES)``); zeros for a game
    without a leaf (its row is predicted and ignored: the batch keeps one shape)."""
    for g in range(tree.leaf.shape[0]):
        leaf = tree.leaf[g]
        if leaf == NONE:
            out[g] = 0.0
            continue
        _write_node_planes(tree, line_masks, directions, donuts, g, leaf, out[g])


@njit(cache=True)
def write_node_planes(tree: PUCTTree, line_masks: npt.NDArray[np.uint64], directions: npt.NDArray[np.int8], donuts: int,
                      games: npt.NDArray[np.int64], nodes: npt.NDArray[np.int64], count: int, out: npt.NDArray[np.float32]) -> None:
    """:func:`write_leaf_planes` of ``count`` nodes: node ``nodes[i]`` of game ``games[i]`` into ``out[i]``."""
    for i in range(count):
        _write_node_planes(tree, line_masks, directions, donuts, games[i], nodes[i], out[i])


@njit(cache=True)
def write_root_planes(roots: np.ndarray, donuts: int, out: npt.NDArray[np.float32]) -> None:
    """The observation planes of every root record (see :func:`root`), seen by its side to
    move, into ``out`` (``float32[G, 36, NUM_PLANES]``)."""
    for g in range(roots.shape[0]):
        r = roots[g]
        forced = forced_line(FULL_BOARD_BITS & ~(r.own | r.opp), r.last, r.line_masks)
        seen = mover_view(r.own, r.opp, r.last, forced, r.placed_own, r.placed_opp, r.color, donuts)
        _write_planes(out[g], seen, r.directions)
