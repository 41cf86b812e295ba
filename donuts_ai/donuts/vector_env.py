"""Many games stepped at once in compiled code: :class:`VectorEnv`, for learning agents.

    from donuts_ai import VectorEnv

    env = VectorEnv(4096, layout="random", seed=1)
    for _ in range(1000):
        actions = env.random_actions()            # or a policy of env.observation
        env.step(actions)                          # one placement in every game
        env.rewards[env.terminated]                # (+1, -1) / (-1, +1) / (0, 0) by color

It is the batched counterpart of the PettingZoo environment ``donuts_v0``
(:mod:`donuts_ai.interop.pettingzoo`), built the way Pgx builds its environments for
accelerators: the state of all games lives in arrays, and one call plays one action in
every game. It needs nothing beyond NumPy and Numba.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._checks import check_int, check_seed
from ..errors import DonutsError, IllegalMoveError, InvalidMoveError
from ._kernels import batch as _B
from ._kernels.planes import NUM_PLANES
from .layout import FIXED, GRID, NUM_TILES, POOL, QUADRANTS, RANDOM, Layout, LayoutSpec
from .outcomes import REASON_NAMES
from .rules import Rules, make_rules
from .squares import COLOR_LETTERS, NUM_SQUARES, SIZE, SQUARE_NAMES, square, squares_of

#: Most games one VectorEnv holds (about 0.6 GB of state and observations).
MAX_ENVS = 1 << 20
#: How a game ended, by the code in :attr:`VectorEnv.final_reason`.
END_REASONS = REASON_NAMES
#: Squares along one side of a quadrant (a tile is 3 x 3).
_TILE_SIZE = 3

_Scalar = TypeVar("_Scalar", bound=np.generic)


class VectorEnvError(DonutsError):
    """A bad argument to :class:`VectorEnv` (illegal actions raise
    :class:`~donuts_ai.errors.IllegalMoveError` or :class:`~donuts_ai.errors.InvalidMoveError`)."""


def _quadrant_squares() -> NDArray[np.int64]:
    """``int64[4, 9]``: the squares of each quadrant of :data:`~donuts_ai.donuts.layout.QUADRANTS`."""
    out = np.zeros((len(QUADRANTS), _TILE_SIZE * _TILE_SIZE), dtype=np.int64)
    for q, name in enumerate(QUADRANTS):
        file0 = 0 if name.endswith("left") else _TILE_SIZE
        rank0 = _TILE_SIZE if name.startswith("top") else 0
        out[q] = [square(file0 + x, rank0 + y) for y in range(_TILE_SIZE) for x in range(_TILE_SIZE)]
    return out


_TILE_TABLES: tuple[NDArray[np.int8], NDArray[np.int64]] | None = None


def _tile_tables() -> tuple[NDArray[np.int8], NDArray[np.int64]]:
    """``(placements, quadrant_squares)`` for the kernels' tile draws: ``placements[q, t, o]``
    are the directions tile ``t`` in orientation ``o`` (side ``o // NUM_TURNS``, ``o %
    NUM_TURNS`` quarter turns) prints on quadrant ``q``'s squares, read off
    :meth:`Layout.from_tiles` (so the tile set is stated once, in :mod:`donuts_ai.donuts.layout`)."""
    global _TILE_TABLES
    if _TILE_TABLES is None:
        quadrant_squares = _quadrant_squares()
        placements = np.zeros((len(QUADRANTS), NUM_TILES, _B.NUM_ORIENTATIONS, quadrant_squares.shape[1]), dtype=np.int8)
        for q in range(len(QUADRANTS)):
            for tile in range(NUM_TILES):
                others = [t for t in range(NUM_TILES) if t != tile]
                for orientation in range(_B.NUM_ORIENTATIONS):
                    arrangement = [(t, 0, 0) for t in others]
                    side, turns = divmod(orientation, _B.NUM_TURNS)
                    arrangement.insert(q, (tile, side, turns))
                    directions = Layout.from_tiles(arrangement).directions
                    placements[q, tile, orientation] = [directions[sq] for sq in quadrant_squares[q]]
        for table in (placements, quadrant_squares):
            table.setflags(write=False)
        _TILE_TABLES = placements, quadrant_squares
    return _TILE_TABLES


#: The batch kernels' layout source for each kind of layout spec.
_KERNEL_SOURCE = {FIXED: _B.LAYOUT_POOL, POOL: _B.LAYOUT_POOL, RANDOM: _B.LAYOUT_TILES, GRID: _B.LAYOUT_GRID}


def _layout_source(layout: Layout | str | Sequence[Layout] | None) -> tuple[int, list[Layout], str]:
    """``(kernel source, pool, kind)`` of the ``layout`` argument (the one layout grammar,
    :class:`~donuts_ai.donuts.layout.LayoutSpec`)."""
    spec = LayoutSpec(layout)
    return _KERNEL_SOURCE[spec.kind], spec.layouts, spec.kind


def _read_only(array: NDArray[_Scalar]) -> NDArray[_Scalar]:
    view = array.view()
    view.setflags(write=False)
    return view


class VectorEnv:
    """``num_envs`` games of Donuts stepped together, one action per game per step.

    :meth:`step` plays one square index in every game; the read-only arrays
    :attr:`observation`, :attr:`legal_action_mask`, :attr:`current_player`, :attr:`rewards`
    (by colour) and :attr:`terminated` describe them all. A game that ends is reset in the
    same step (Gymnasium's ``SAME_STEP``); :attr:`final_observation` is where it ended.

    Args:
        num_envs: the games, 1 or more.
        layout: a :class:`~donuts_ai.Layout` or layout text (every game on it); several
            Layouts or a layout spec naming several (a pool each game draws from at every
            reset); ``"random"`` or ``"grid"``: a fresh draw for each game at every reset.
        rules: a :class:`~donuts_ai.Rules` or an insertion rule name (``"group"``, ``"single"``).
        seed: every random choice comes from it, game ``g`` from its own streams; ``None``
            draws one (:attr:`seed`).
    """

    def __init__(self, num_envs: int, layout: Layout | str | Sequence[Layout] | None = "standard",
                 rules: Rules | str | None = None, seed: int | None = None):
        # "random" and "grid" are drawn in the kernel, from the seed: the distribution of
        # Layout.random / Layout.random_grid, not the same layouts. Game g has its own streams
        # of the seed, so a seed and num_envs give the same games whatever the other games play.
        checked = check_int("num_envs", num_envs, 1, MAX_ENVS, error=VectorEnvError)
        assert checked is not None  # allow_none is False
        self.num_envs: int = checked
        self.rules = make_rules(rules)
        self._source, pool, self.layout_kind = _layout_source(layout)
        #: The pool of layouts (one for a fixed layout; empty when drawn fresh at every reset).
        self.layout_pool = tuple(pool)
        grids: list[Sequence[int]] = [lay.directions for lay in pool] or [[0] * NUM_SQUARES]
        self._pool = np.array(grids, dtype=np.int8)
        if self._source == _B.LAYOUT_TILES:
            self._placements, self._quadrant_squares = _tile_tables()
        else:  # not read by the kernels: a placeholder of the right types
            self._placements = np.zeros((1, 1, 1, 1), dtype=np.int8)
            self._quadrant_squares = np.zeros((1, 1), dtype=np.int64)
        n = self.num_envs
        self._games = np.zeros(n, dtype=_B.GAME)
        self._finals = np.zeros(n, dtype=_B.FINAL)
        self._current_player = np.zeros(n, dtype=np.int64)
        self._legal_action_mask = np.zeros((n, NUM_SQUARES), dtype=np.bool_)
        self._rewards = np.zeros((n, 2), dtype=np.float32)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._observation = np.zeros((n, SIZE, SIZE, NUM_PLANES), dtype=np.float32)
        self._final_observation = np.zeros((n, SIZE, SIZE, NUM_PLANES), dtype=np.float32)
        self._draw = _B.LayoutDraw(self._source, self._pool, self._placements, self._quadrant_squares)
        self._outputs = _B.Outputs(self._current_player, self._legal_action_mask, self._rewards, self._terminated)
        self._observation_stale = self._final_observation_stale = True
        self.seed: int = 0
        self._seeded = False
        self.reset(seed)

    # --- stepping ---------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Start every game anew.

        Args:
            seed: an int: every random stream is reseeded from it first; ``None``: the first reset
                draws a seed and later ones go on with the streams as they are (new layouts, new
                random actions).
        """
        seed = check_seed("seed", seed, error=VectorEnvError)
        reseed = seed is not None or not self._seeded
        if reseed:
            self.seed = int(seed) if seed is not None else secrets.randbits(63)
            self._seeded = True
        _B.reset(self._games, np.uint64(self.seed % 2**64), reseed, self._draw, self._outputs)
        self._observation_stale = self._final_observation_stale = True

    def step(self, actions: ArrayLike) -> None:
        """Play ``actions[g]`` (a square index 0..35, legal in game ``g``) in every game ``g`` at once.

        The arrays are read-only views, overwritten by the next :meth:`step` or :meth:`reset`:
        copy what you keep. :attr:`rewards` is by colour (column 0 Chocolate, 1 Vanilla): +1 to
        the winner and -1 to the loser on the step that ends a game, 0 to both for a draw and on
        every other step. A step that ends a game returns that game's final rewards with
        :attr:`terminated` True, and the game is already reset (Gymnasium's
        ``AutoresetMode.SAME_STEP``): its :attr:`observation`, :attr:`legal_action_mask` and
        :attr:`current_player` are of the new game's empty board; :attr:`final_observation`,
        :attr:`final_reason` and :attr:`final_plies` say where, how and after how many
        placements it ended. Forfeits are not actions (a player always has a legal square), so
        the players alternate: Chocolate moves on even plies.

        Args:
            actions: one square index per game, ``int[num_envs]``.

        Raises:
            IllegalMoveError: a square not legal in its game (naming the first such game);
                no game changes.
            InvalidMoveError: an action that is not a square index 0..35; no game changes.
        """
        given, squares = self._checked_actions(actions)
        bad = _B.step(self._games, squares, self.rules.donuts, self.rules.single, self._draw, self._outputs, self._finals)
        if bad >= 0:
            raise self._illegal(int(bad), int(given[bad]))
        self._observation_stale = self._final_observation_stale = True

    def random_actions(self) -> NDArray[np.int64]:
        """``int64[num_envs]``: a uniformly random legal square of every game, drawn in
        compiled code from each game's own stream of the seed (a new array each call)."""
        out = np.empty(self.num_envs, dtype=np.int64)
        _B.random_actions(self._games, out)
        return out

    def _checked_actions(self, actions: ArrayLike) -> tuple[NDArray[np.integer[Any]], NDArray[np.int64]]:
        """``(the actions as given, as a C-contiguous int64 array for the kernel)``; an
        action out of ``int64``'s range fails the kernel's check all the same."""
        if isinstance(actions, np.ndarray) and actions.dtype == np.int64 and actions.flags.c_contiguous:
            array = actions
        else:
            try:
                array = np.asarray(actions)
            except (TypeError, ValueError) as exc:
                raise VectorEnvError(f"actions must be an array of num_envs ints, got {type(actions).__name__}: {exc}") from None
            if array.dtype.kind not in "iu" or array.dtype == np.bool_:
                raise VectorEnvError(f"actions must be integer square indices, got an array of dtype {array.dtype}")
        if array.shape != (self.num_envs,):
            raise VectorEnvError(f"actions must have shape ({self.num_envs},), one per game, got shape {array.shape}")
        if array.dtype == np.int64 and array.flags.c_contiguous:
            return array, array
        # Out of range stays out of range (and cannot wrap around in the cast).
        low = 0 if array.dtype.kind == "u" else -1
        squares = np.clip(array, low, NUM_SQUARES).astype(np.int64)
        return array, squares

    def _illegal(self, game: int, action: int) -> DonutsError:
        if not 0 <= action < NUM_SQUARES:
            return InvalidMoveError(f"action {action} of game {game} is not a square index 0..35")
        legal = ", ".join(f"{sq} ({SQUARE_NAMES[sq]})" for sq in squares_of(int(self._games[game]["legal"])))
        return IllegalMoveError(f"illegal action {action} ({SQUARE_NAMES[action]}) in game {game}: "
                                f"legal squares are {legal}; no game was changed")

    # --- arrays -----------------------------------------------------------------------
    @property
    def observation(self) -> NDArray[np.float32]:
        """``float32[num_envs, 6, 6, 13]``: each game seen by its side to move.

        The same planes in the same order as the PettingZoo environment's observation of the
        agent to move (:mod:`donuts_ai.interop._planes`; the to-move plane is all ones here);
        row = rank, column = file, so ``observation[g].reshape(36, 13)`` lines up with the
        actions. Computed when first read after a step.
        """
        if self._observation_stale:
            _B.write_observations(self._games, self.rules.donuts, self._observation.reshape(self.num_envs, NUM_SQUARES, NUM_PLANES))
            self._observation_stale = False
        return _read_only(self._observation)

    @property
    def final_observation(self) -> NDArray[np.float32]:
        """``float32[num_envs, 6, 6, 13]``: where :attr:`terminated`, the position the game
        ended in, seen by the side that made the last placement (its to-move plane, forced
        line and open-pick planes all zero, as the PettingZoo environment's after the end);
        zeros elsewhere."""
        if self._final_observation_stale:
            _B.write_final_observations(self._finals, self._terminated, self.rules.donuts,
                                        self._final_observation.reshape(self.num_envs, NUM_SQUARES, NUM_PLANES))
            self._final_observation_stale = False
        return _read_only(self._final_observation)

    def observation_array(self) -> NDArray[np.float32]:
        """A new ``float32[num_envs, 6, 6, 13]`` array of :attr:`observation`, the caller's to
        keep (written by the kernel straight into it: cheaper than copying the view)."""
        out = np.empty((self.num_envs, SIZE, SIZE, NUM_PLANES), dtype=np.float32)
        _B.write_observations(self._games, self.rules.donuts, out.reshape(self.num_envs, NUM_SQUARES, NUM_PLANES))
        return out

    def final_observation_array(self, games: ArrayLike) -> NDArray[np.float32]:
        """A new array of :attr:`final_observation` of the games listed, the caller's to keep.

        Args:
            games: indices of games that ended on the last step (only those are written; zeros
                for the others).

        Returns:
            ``float32[len(games), 6, 6, 13]``.
        """
        index = np.asarray(games, dtype=np.int64).reshape(-1)
        if index.size and (index.min() < 0 or index.max() >= self.num_envs):
            raise VectorEnvError(f"games must be indices 0..{self.num_envs - 1}, got {index.tolist()[:8]}")
        out = np.empty((index.size, SIZE, SIZE, NUM_PLANES), dtype=np.float32)
        _B.write_final_observations(self._finals[index], self._terminated[index], self.rules.donuts,
                                    out.reshape(index.size, NUM_SQUARES, NUM_PLANES))
        return out

    @property
    def legal_action_mask(self) -> NDArray[np.bool_]:
        """``bool[num_envs, 36]``: the legal squares of each game's side to move."""
        return _read_only(self._legal_action_mask)

    @property
    def current_player(self) -> NDArray[np.int64]:
        """``int64[num_envs]``: the color to move in each game (0 Chocolate, 1 Vanilla)."""
        return _read_only(self._current_player)

    @property
    def rewards(self) -> NDArray[np.float32]:
        """``float32[num_envs, 2]``, by color: +1/-1 on the step that ends a game, else 0."""
        return _read_only(self._rewards)

    @property
    def terminated(self) -> NDArray[np.bool_]:
        """``bool[num_envs]``: the game ended on the last step (and has been reset)."""
        return _read_only(self._terminated)

    @property
    def truncated(self) -> NDArray[np.bool_]:
        """``bool[num_envs]``, all False: no game is cut short."""
        return _read_only(self._truncated)

    @property
    def final_reason(self) -> NDArray[np.int64]:
        """``int64[num_envs]``: how each game that ended on the last step ended (a key of
        :data:`END_REASONS`: five, largest group, majority), -1 elsewhere."""
        return np.where(self._terminated, self._finals["reason"], -1)

    @property
    def final_plies(self) -> NDArray[np.int64]:
        """``int64[num_envs]``: placements in each game that ended on the last step, 0 elsewhere."""
        return np.where(self._terminated, self._finals["plies"], 0)

    @property
    def plies(self) -> NDArray[np.int64]:
        """``int64[num_envs]``: placements so far in each game under way."""
        return self._games["plies"].copy()

    # --- single games -----------------------------------------------------------------
    def _game_index(self, game: object) -> int:
        index = check_int("game", game, 0, self.num_envs - 1, error=VectorEnvError)
        assert index is not None  # allow_none is False
        return index

    def layout(self, game: int) -> Layout:
        """The layout a game is played on.

        Args:
            game: the game's index.
        """
        return Layout(self._games[self._game_index(game)]["directions"].tolist())

    def fen(self, game: int) -> str:
        """A game's position as a :meth:`Board.fen` string.

        ``Board.from_fen(env.fen(g), env.rules)`` gives a Board to hand to an agent.

        Args:
            game: the game's index.
        """
        record = self._games[self._game_index(game)]
        color = int(record["color"])
        bitboards = [0, 0]
        bitboards[color], bitboards[1 - color] = int(record["own"]), int(record["opp"])
        placed = [0, 0]
        placed[color], placed[1 - color] = int(record["placed_own"]), int(record["placed_opp"])
        rows = []
        for rank in range(SIZE - 1, -1, -1):
            row = ""
            for file in range(SIZE):
                sq = square(file, rank)
                row += "c" if bitboards[0] >> sq & 1 else "v" if bitboards[1] >> sq & 1 else "."
            rows.append(row)
        layout = ",".join(self.layout(game).to_text().splitlines())
        last = int(record["last"])
        return (f"{layout} {'/'.join(rows)} {COLOR_LETTERS[color]} {'-' if last < 0 else SQUARE_NAMES[last]} "
                f"{placed[0]} {placed[1]}")

    def __repr__(self) -> str:
        return f"VectorEnv({self.num_envs}, layout={self.layout_kind}, rules={self.rules!r}, seed={self.seed})"
