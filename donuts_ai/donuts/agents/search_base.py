"""What every searching agent of the board game shares: the tactical pass, warming up,
touching its tables. (The agent protocol, the base and the clock budget rule are
:mod:`donuts_ai.agents.base`'s, defined there once.)"""

from __future__ import annotations

import gc
from collections.abc import Callable

import numpy as np

from .._kernels.position import position_of, rulebook_of
from ..board import Board
from ._tactics import tactics

__all__ = ["tactical_choice", "touch", "warm_up"]


#: Bytes of a memory page: :func:`touch` writes one item per page.
PAGE_BYTES = 4096


def touch(*arrays: np.ndarray) -> None:
    """Write every memory page of each (C-contiguous) array, keeping its contents.

    ``np.zeros`` only reserves memory; each page is mapped on its first write, which costs the
    first search that writes it (about 10 ms for a 24 MB table). Agents call this when they
    are built, so that no move pays it.

    Args:
        arrays: the arrays.
    """
    for a in arrays:
        flat = a.reshape(-1)
        step = max(1, PAGE_BYTES // flat.itemsize)
        flat[::step] = flat[::step]


def tactical_choice(board: Board) -> tuple[int | None, int]:
    """The always-completed tactical pass (:func:`donuts_ai.donuts.agents._tactics.tactics`) that
    every searching agent runs before its timed search, whatever its budget.

    Args:
        board: the position.

    Returns:
        ``(forced, allowed)``: ``forced`` is the square to play without searching (the lowest
        move that wins at once, else the only legal move that does not lose at once) or
        ``None``; ``allowed`` is the bitboard of moves the search may choose from: those that
        do not lose at once (every legal move when all of them do).
    """
    wins_bb, losing_bb = tactics(rulebook_of(board.layout, board.rules), position_of(*board.kernel_state()))
    wins, losing, legal = int(wins_bb), int(losing_bb), board.legal_mask()
    if wins:
        low = wins & -wins
        return low.bit_length() - 1, low
    allowed = (legal & ~losing) or legal
    if allowed & (allowed - 1) == 0:  # a single move
        return allowed.bit_length() - 1, allowed
    return None, allowed


_warmed: set[str] = set()


def warm_up(what: str, compile_kernels: Callable[[Board], object]) -> None:
    """Compile (or load from the on-disk cache) the kernels an agent uses, once per process and
    ``what``, so the first timed move is not spent compiling or loading them; then collect the
    garbage that leaves (after a compilation, a full collection takes about 0.1 s: it must not
    fall in a move).

    Args:
        what: the name the kernels are compiled under, once per process.
        compile_kernels: called on an early position of the standard layout, after the
            tactical pass.
    """
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
