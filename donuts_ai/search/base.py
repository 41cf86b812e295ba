"""The agent protocol, the one interface between players and the tournament harness, and
what every searching agent shares: the time budget, the tactical pass, warming up.

(It lives here, below the algorithms, rather than in :mod:`donuts_ai.agents`, which
imports every algorithm's agent for its registry: ``donuts_ai.agents.base`` re-exports it.)"""

from __future__ import annotations

import gc
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable

import numpy as np

from .._checks import check_int, check_seconds
from .._engine.position import game_of, position_of
from .._spec import Described
from ..board import Board
from ..errors import DonutsError
from ._tactics import tactics


class Agent(Described, ABC):
    """A player. Subclasses implement :meth:`_select` and may override :meth:`reset`.

    ``select_move(board, time_left=None)`` returns a legal square name for the side to
    move and never changes ``board``. ``time_left`` is the player's remaining clock in
    seconds (blitz games), or ``None``; searching agents also take a per-move budget
    ``time_limit`` at construction. ``reset(seed=None)`` starts a new game: the random
    stream restarts from ``seed`` (default: the agent's own seed), so the same seed, the
    same layout and the same opponent moves give the same game. ``name`` identifies the
    agent in results; ``spec`` is the full parameter string.
    """

    #: Registry name, e.g. "random" (set by each subclass).
    kind = "agent"

    def __init__(self, seed: int | None = None, name: str | None = None):
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise DonutsError(f"seed must be an int or None, got {seed!r}")
        self.seed = seed
        self.name = name or self.kind
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        """Prepare for a new game; reseed from ``seed`` or, if None, the agent's seed."""
        self.rng = random.Random(self.seed if seed is None else seed)

    def select_move(self, board: Board, time_left: float | None = None) -> str:
        """A legal move (square name) for the side to move of ``board``."""
        if not isinstance(board, Board):
            raise TypeError(f"select_move needs a Board, got {type(board).__name__}")
        if board.is_game_over():
            raise DonutsError("select_move: the game is over")
        return self._select(board, time_left)

    @abstractmethod
    def _select(self, board: Board, time_left: float | None) -> str: ...


def budget(time_limit: float | None, time_left: float | None) -> float | None:
    """Seconds to spend on this move: the per-move limit, capped by a share of the clock
    (a twentieth of it, so a blitz game cannot be lost on time by one long think)."""
    if time_left is None:
        return time_limit
    share = max(0.0, time_left) / 20
    return share if time_limit is None else min(time_limit, share)


def positive_int(name: str, value, allow_none: bool = True) -> int | None:
    """An agent parameter that must be a positive int (``None`` allowed unless ``allow_none`` is False)."""
    return check_int(name, value, minimum=1, allow_none=allow_none)


def check_time_limit(time_limit: float | None) -> float | None:
    """A per-move time limit: a positive number of seconds, or ``None``."""
    return check_seconds("time_limit", time_limit)


def now() -> float:
    return time.perf_counter()


#: Bytes of a memory page: :func:`touch` writes one item per page.
PAGE_BYTES = 4096


def touch(*arrays: np.ndarray) -> None:
    """Write every memory page of each (C-contiguous) array, keeping its contents.

    ``np.zeros`` only reserves memory; each page is mapped on its first write, which
    costs the first search that writes it (about 10 ms for a 24 MB table). Agents call
    this when they are built, so that no move pays it."""
    for a in arrays:
        flat = a.reshape(-1)
        step = max(1, PAGE_BYTES // flat.itemsize)
        flat[::step] = flat[::step]


def tactical_choice(board: Board) -> tuple[int | None, int]:
    """The always-completed tactical pass (:func:`donuts_ai.search._tactics.tactics`) that
    every searching agent runs before its timed search, whatever its budget.

    Returns ``(forced, allowed)``: ``forced`` is the square to play without searching —
    the lowest move that wins at once, else the only legal move that does not lose at
    once — or ``None``; ``allowed`` is the bitboard of moves the search may choose from:
    those that do not lose at once (every legal move when all of them do)."""
    wins, losing = tactics(game_of(board.layout, board.rules), position_of(*board.kernel_state()))
    wins, losing, legal = int(wins), int(losing), board.legal_mask()
    if wins:
        low = wins & -wins
        return low.bit_length() - 1, low
    allowed = (legal & ~losing) or legal
    if allowed & (allowed - 1) == 0:  # a single move
        return allowed.bit_length() - 1, allowed
    return None, allowed


_warmed: set[str] = set()


def warm_up(what: str, compile_kernels: Callable[[Board], object]) -> None:
    """Compile (or load from the on-disk cache) the kernels an agent uses, once per
    process and ``what``, so the first timed move is not spent compiling or loading them:
    the tactical pass, then ``compile_kernels`` on an early position of the standard
    layout. Then collect the garbage that leaves (after a compilation, a full collection
    takes about 0.1 s: it must not fall in a move)."""
    if what in _warmed:
        return
    from ..layout import Layout

    board = Board(Layout.standard())
    for move in ("a1", "a2", "b2"):
        board.push(move if board.is_legal(move) else board.legal_moves()[0])
    tactical_choice(board)
    compile_kernels(board)
    gc.collect()
    _warmed.add(what)
