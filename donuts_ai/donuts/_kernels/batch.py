"""Many games stepped at once: the kernels behind :class:`donuts_ai.VectorEnv`.

Every game is one record of :data:`GAME` in an array of games, kept **from the side to
move** as the kernel contract says (:mod:`.position`): ``own``/``opp`` bitboards,
``last``, ``placed_own``/``placed_opp``, plus the color to move, the legal squares,
the game's layout (its lines and printed directions) and two random streams, one for
layout draws and one for :func:`random_actions`. A placement goes through the
transition, :func:`.position.apply`, exactly as the random playouts do.

:func:`step` checks every action first and changes nothing unless all are legal; a
game that ends is recorded in an array of :data:`FINAL` records (for the final
observation) and started again at once, on a layout drawn as its layout source says:
:data:`LAYOUT_POOL` (one of the pool's direction grids, drawn uniformly; a pool of one
draws nothing), :data:`LAYOUT_TILES` (a uniformly random tile arrangement, from a table of
what each tile placement prints on its quadrant) or :data:`LAYOUT_GRID` (a uniformly random
direction on each square). Observation planes are those of :mod:`.planes`, channels last
(:func:`write_observations`). Kernels take plain arrays and ints and never raise: the
Python layer checks input.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..._bits import ONE, ZERO, popcount, rng_below, rng_seed
from ..._numba_types import Int64
from ...outcomes import WINNER_DRAW
from ..squares import NUM_SQUARES
from .core import forced_line, legal_mask, nth_bit
from .planes import (
    FORCED_LINE,
    LAST,
    LINE_DIRECTIONS,
    NUM_DIRECTIONS,
    OPEN_PICK,
    OPPONENT,
    OPPONENT_POOL,
    OWN,
    OWN_POOL,
    TO_MOVE,
    VANILLA,
)
from .position import PASSES, apply, end_reason, is_over, read_position, winner_of, write_position
from .tables import FULL_BOARD_BITS, LINE_MASK

#: Layout sources (see the module).
LAYOUT_POOL, LAYOUT_TILES, LAYOUT_GRID = 0, 1, 2
#: Tiles, quadrants, squares of a quadrant; a tile's orientations: 2 sides x 4 quarter turns.
NUM_TILES, NUM_QUADRANTS, QUADRANT_SQUARES = 4, 4, 9
NUM_SIDES, NUM_TURNS = 2, 4
NUM_ORIENTATIONS = NUM_SIDES * NUM_TURNS

#: One game, from the side to move.
GAME = np.dtype(
    [
        ("own", np.uint64),  # the side to move's donuts
        ("opp", np.uint64),  # its opponent's
        ("legal", np.uint64),  # the side to move's legal squares
        ("layout_rng", np.uint64),  # xorshift state of the layout draws
        ("action_rng", np.uint64),  # xorshift state of random_actions
        ("color", np.int64),  # color to move: 0 Chocolate, 1 Vanilla
        ("last", np.int64),  # square filled last, -1 before the first placement
        ("placed_own", np.int64),  # donuts the side to move has placed
        ("placed_opp", np.int64),  # donuts its opponent has placed
        ("plies", np.int64),  # placements so far in this game
        ("line_masks", np.uint64, (NUM_SQUARES,)),  # the line through each square
        ("directions", np.int8, (NUM_SQUARES,)),  # the printed direction of each square (0..3)
    ],
    align=True,
)

#: A game as it ended, seen by the side that made the last placement.
FINAL = np.dtype(
    [
        ("own", np.uint64),  # the last mover's donuts
        ("opp", np.uint64),
        ("color", np.int64),  # the last mover's color
        ("last", np.int64),
        ("placed_own", np.int64),
        ("placed_opp", np.int64),
        ("plies", np.int64),  # placements in the game
        ("reason", np.int64),  # REASON_FIVE, REASON_GROUP or REASON_MAJORITY
        ("directions", np.int8, (NUM_SQUARES,)),
    ],
    align=True,
)


class LayoutDraw(NamedTuple):
    """Where a starting game's layout comes from (see the module)."""

    source: int  # LAYOUT_POOL, LAYOUT_TILES or LAYOUT_GRID
    pool: NDArray[np.int8]  # int8 (layouts, 36): the pool's direction grids (LAYOUT_POOL)
    placements: NDArray[np.int8]  # int8 (4 quadrants, 4 tiles, 8 orientations, 9): what a tile placement prints (LAYOUT_TILES)
    quadrant_squares: NDArray[np.int64]  # int64 (4 quadrants, 9): the squares of each quadrant (LAYOUT_TILES)


class Outputs(NamedTuple):
    """What :func:`reset` and :func:`step` write for the learner, one row per game."""

    current_player: NDArray[np.int64]  # int64 (games,): the color to move
    legal_action_mask: NDArray[np.bool]  # bool (games, 36): its legal squares
    rewards: NDArray[np.float32]  # float32 (games, 2): by color, see step
    terminated: NDArray[np.bool]  # bool (games,): the last step ended the game


class Viewpoint(NamedTuple):
    """A position from one player's side, the observer's: what :func:`observer_view` shows
    and :func:`write_view` writes as planes."""

    own: np.uint64  # the observer's donuts
    opp: np.uint64  # the opponent's
    last: Int64  # the square filled last, -1 none
    forced: np.uint64  # the forced line's empty squares of the side to move (0 on an open pick)
    placed_own: Int64  # donuts the observer has placed
    placed_opp: Int64  # donuts the opponent has placed
    color: Int64  # the observer's color: 0 Chocolate, 1 Vanilla
    live: bool  # someone is to move (a game over shows no forced line and no open pick)
    to_move: bool  # the observer is to move


class Seen(NamedTuple):
    """One observation's scalars and bitboards, as :func:`_write_planes` writes them."""

    own: np.uint64  # the observer's donuts
    opp: np.uint64  # the opponent's
    last: Int64  # the square filled last, -1 none
    forced: np.uint64  # the forced line's empty squares (0 on an open pick or when nobody moves)
    open_pick: np.float32  # 1 on an open pick
    own_left: np.float32  # the observer's pool left, a fraction of the donuts per player
    opp_left: np.float32  # the opponent's
    to_move: np.float32  # 1 when the observer is to move
    color: np.float32  # the observer's color: 1 for Vanilla


@njit(cache=True)
def _draw_layout(
    game: np.record, source: Int64, pool: NDArray[np.int8], placements: NDArray[np.int8], quadrant_squares: NDArray[np.int64]
) -> None:
    """Write a layout into ``game`` (its directions and lines) from layout source ``source``:
    ``pool`` (``int8[K, 36]``) for :data:`LAYOUT_POOL`, ``placements`` (``int8[4 quadrants,
    4 tiles, 8 orientations, 9]``, the directions a tile placement prints on the squares
    ``quadrant_squares[quadrant]``) for :data:`LAYOUT_TILES`."""
    rng = game.layout_rng
    directions = game.directions
    if source == LAYOUT_POOL:
        index: Int64 = 0
        if pool.shape[0] > 1:
            rng, index = rng_below(rng, pool.shape[0])
        for sq in range(NUM_SQUARES):
            directions[sq] = pool[index, sq]
    elif source == LAYOUT_TILES:
        order = np.arange(NUM_TILES)
        for i in range(NUM_TILES - 1, 0, -1):  # Fisher-Yates: a uniform order of the tiles
            rng, j = rng_below(rng, i + 1)
            order[i], order[j] = order[j], order[i]
        for quadrant in range(NUM_QUADRANTS):
            rng, orientation = rng_below(rng, NUM_ORIENTATIONS)
            for k in range(QUADRANT_SQUARES):
                directions[quadrant_squares[quadrant, k]] = placements[quadrant, order[quadrant], orientation, k]
    else:
        for sq in range(NUM_SQUARES):
            rng, d = rng_below(rng, NUM_DIRECTIONS)
            directions[sq] = d
    game.layout_rng = rng
    for sq in range(NUM_SQUARES):
        game.line_masks[sq] = LINE_MASK[directions[sq], sq]


@njit(cache=True)
def _publish(game: np.record, g: Int64, current_player: NDArray[np.int64], legal_action_mask: NDArray[np.bool]) -> None:
    """Write game ``g``'s side to move and legal squares into the output arrays."""
    current_player[g] = game.color
    legal = game.legal
    for sq in range(NUM_SQUARES):
        legal_action_mask[g, sq] = (legal >> np.uint64(sq)) & ONE != ZERO


@njit(cache=True)
def _start(
    game: np.record, source: Int64, pool: NDArray[np.int8], placements: NDArray[np.int8], quadrant_squares: NDArray[np.int64]
) -> None:
    """A new game in ``game``: a layout drawn, the empty board, Chocolate to move."""
    _draw_layout(game, source, pool, placements, quadrant_squares)
    game.own = ZERO
    game.opp = ZERO
    game.color = 0
    game.last = -1
    game.placed_own = 0
    game.placed_opp = 0
    game.plies = 0
    game.legal = FULL_BOARD_BITS


@njit(cache=True)
def reset(games: NDArray[np.void], seed: np.uint64, reseed: bool, draw: LayoutDraw, out: Outputs) -> None:
    """Start every game anew, layouts drawn as ``draw`` (:class:`LayoutDraw`) says, into
    ``out`` (:class:`Outputs`). With ``reseed``, game ``g``'s streams are first set from
    ``seed`` (``uint64``): stream ``2g`` for its layouts, ``2g + 1`` for its random actions."""
    source, pool, placements, quadrant_squares = draw
    current_player, legal_action_mask, rewards, terminated = out
    for g in range(games.shape[0]):
        game = games[g]
        if reseed:
            game.layout_rng = rng_seed(seed, np.uint64(2 * g))
            game.action_rng = rng_seed(seed, np.uint64(2 * g + 1))
        _start(game, source, pool, placements, quadrant_squares)
        _publish(game, g, current_player, legal_action_mask)
        rewards[g, 0] = 0.0
        rewards[g, 1] = 0.0
        terminated[g] = False


@njit(cache=True)
def first_illegal(games: NDArray[np.void], actions: NDArray[np.int64]) -> Int64:
    """Index of the first game whose action is not one of its legal squares (out of
    ``0..35`` included), or -1 when every action is legal."""
    for g in range(games.shape[0]):
        sq = actions[g]
        if sq < 0 or sq >= NUM_SQUARES or (games[g].legal >> np.uint64(sq)) & ONE == ZERO:
            return g
    return -1


@njit(cache=True)
def step(
    games: NDArray[np.void], actions: NDArray[np.int64], donuts: Int64, single: bool, draw: LayoutDraw, out: Outputs,
    finals: NDArray[np.void],
) -> Int64:
    """Play ``actions[g]`` in every game ``g``, or nothing at all: returns the index of
    the first game whose action is illegal (nothing changed), or -1 when all were played.

    In ``out`` (:class:`Outputs`), ``rewards[g]`` (by color) is +1/-1 in a game that
    this step ended, 0/0 for a draw and on every other step; ``terminated[g]`` says that
    it ended, ``finals[g]`` holds its final position, and the game is started again at
    once, on a layout drawn as ``draw`` (:class:`LayoutDraw`) says.
    """
    bad = first_illegal(games, actions)
    if bad >= 0:
        return bad
    # Each array read from the records once: Numba counts a reference on every read.
    source, pool, placements, quadrant_squares = draw
    current_player, legal_action_mask, rewards, terminated = out
    for g in range(games.shape[0]):
        game = games[g]
        sq = actions[g]
        pos = read_position(game)
        child, status = apply(donuts, single, pos, sq)
        plies = game.plies + 1
        rewards[g, 0] = 0.0
        rewards[g, 1] = 0.0
        if not is_over(status):
            write_position(game, child)
            game.plies = plies
            if status == PASSES:
                game.color = 1 - game.color
            game.legal = legal_mask(child.own, child.opp, child.last, game.line_masks)
            terminated[g] = False
        else:
            final = finals[g]
            write_position(final, child)
            final.color = game.color
            final.plies = plies
            final.reason = end_reason(status, child)
            final.directions[:] = game.directions
            winner = winner_of(status, game.color)
            if winner != WINNER_DRAW:
                rewards[g, winner] = 1.0
                rewards[g, 1 - winner] = -1.0
            terminated[g] = True
            _start(game, source, pool, placements, quadrant_squares)
        _publish(game, g, current_player, legal_action_mask)
    return -1


@njit(cache=True)
def random_actions(games: NDArray[np.void], out: NDArray[np.int64]) -> None:
    """A uniformly random legal square of every game into ``out``, drawn from the games'
    action streams."""
    for g in range(games.shape[0]):
        game = games[g]
        legal = game.legal
        rng, k = rng_below(game.action_rng, popcount(legal))
        game.action_rng = rng
        out[g] = nth_bit(legal, k)


@njit(cache=True, inline="always")
def observer_view(viewpoint: Viewpoint, donuts: Int64) -> Seen:
    """What the planes of a position show one player, the observer (:class:`Seen`), written
    once for every caller, from the position on the observer's side (:class:`Viewpoint`)
    and the donuts each player has."""
    own, opp, last, forced, placed_own, placed_opp, color, live, to_move = viewpoint
    return Seen(own, opp, last, forced if live else ZERO, np.float32(1.0 if live and forced == ZERO else 0.0),
                np.float32((donuts - placed_own) / donuts), np.float32((donuts - placed_opp) / donuts),
                np.float32(1.0 if to_move else 0.0), np.float32(color))


@njit(cache=True, inline="always")
def mover_view(own: np.uint64, opp: np.uint64, last: Int64, forced: np.uint64, placed_own: Int64, placed_opp: Int64,
               color: Int64, donuts: Int64) -> Seen:
    """:func:`observer_view` of the side to move, the view of every observation of the batched
    environment and of the learner's samples, roots and leaves.

    Args:
        own: the side to move's donuts.
        opp: the other side's donuts.
        last: the square filled last (-1: none).
        forced: the forced line's empty squares (0 on an open pick).
        placed_own: the donuts the side to move has placed.
        placed_opp: the donuts the other side has placed.
        color: the side to move's colour (0 Chocolate, 1 Vanilla).
        donuts: the donuts each player has.
    """
    return observer_view(Viewpoint(own, opp, last, forced, placed_own, placed_opp, color, True, True), donuts)


@njit(cache=True)
def _write_planes(out: NDArray[np.float32], seen: Seen, directions: NDArray[np.int8]) -> None:
    """Write one observation as planes.

    Args:
        out: ``float32[36, NUM_PLANES]`` (square, plane).
        seen: the observation (:class:`Seen`).
        directions: the layout's printed directions, ``int8[36]``.
    """
    own, opp, last, forced, open_pick, own_left, opp_left, to_move, color = seen
    for sq in range(NUM_SQUARES):
        bit = ONE << np.uint64(sq)
        row = out[sq]
        row[OWN] = 1.0 if own & bit else 0.0
        row[OPPONENT] = 1.0 if opp & bit else 0.0
        row[FORCED_LINE] = 1.0 if forced & bit else 0.0
        row[LAST] = 1.0 if sq == last else 0.0
        for d in range(NUM_DIRECTIONS):
            row[LINE_DIRECTIONS + d] = 1.0 if directions[sq] == d else 0.0
        row[OPEN_PICK] = open_pick
        row[OWN_POOL] = own_left
        row[OPPONENT_POOL] = opp_left
        row[TO_MOVE] = to_move
        row[VANILLA] = color


# Called from Python once per observation: the position comes as the Board's plain tuple,
# since Numba types a NamedTuple passed from Python about 0.7 µs slower (a Viewpoint made
# in Python made the PettingZoo planes about 40% slower).
@njit(cache=True)
def write_view(out: NDArray[np.float32], state: tuple[np.uint64, np.uint64, Int64, Int64, Int64, Int64], player: Int64,
               forced: np.uint64, donuts: Int64, directions: NDArray[np.int8]) -> None:
    """The planes of one position seen by ``player`` into ``out``. The Python layer's planes
    (``donuts_ai/interop/_planes.py``) are written by this kernel.

    Args:
        out: ``float32[36, NUM_PLANES]``, any strides.
        state: the position by colour, as :meth:`~donuts_ai.Board.kernel_state` gives it
            (``(b0, b1, turn, last, p0, p1)``, ``turn`` -1 when over).
        player: the observer, 0 or 1.
        forced: the forced line's empty squares of the side to move (0 on an open pick or
            when over).
        donuts: the donuts each player has.
        directions: the layout's printed directions, ``int8[36]``.
    """
    b0, b1, turn, last, p0, p1 = state
    live, to_move = bool(turn >= 0), bool(turn == player)
    if player == 0:
        viewpoint = Viewpoint(b0, b1, last, forced, p0, p1, player, live, to_move)
    else:
        viewpoint = Viewpoint(b1, b0, last, forced, p1, p0, player, live, to_move)
    _write_planes(out, observer_view(viewpoint, donuts), directions)


@njit(cache=True)
def write_observations(games: NDArray[np.void], donuts: Int64, out: NDArray[np.float32]) -> None:
    """The planes of every game seen by its side to move into ``out`` (``float32[n, 36,
    NUM_PLANES]``, a view of ``(n, 6, 6, NUM_PLANES)``): the PettingZoo environment's
    observation of the agent to move."""
    for g in range(games.shape[0]):
        game = games[g]
        forced = forced_line(FULL_BOARD_BITS & ~(game.own | game.opp), game.last, game.line_masks)
        seen = mover_view(game.own, game.opp, game.last, forced, game.placed_own, game.placed_opp, game.color, donuts)
        _write_planes(out[g], seen, game.directions)


@njit(cache=True)
def write_final_observations(
    finals: NDArray[np.void], terminated: NDArray[np.bool], donuts: Int64, out: NDArray[np.float32]
) -> None:
    """The planes of every game that just ended, seen by the side that ended it (nobody
    to move: no forced line, no open pick), into ``out``; zeros for the other games."""
    for g in range(finals.shape[0]):
        if not terminated[g]:
            out[g] = 0.0
            continue
        final = finals[g]
        seen = observer_view(Viewpoint(final.own, final.opp, final.last, ZERO, final.placed_own, final.placed_opp, final.color,
                                       False, False), donuts)
        _write_planes(out[g], seen, final.directions)
