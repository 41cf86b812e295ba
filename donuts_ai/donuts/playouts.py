"""Perft and random playouts on the Numba engine, from a :class:`~donuts_ai.Board`:
:func:`perft` (counting the game tree's leaves) and :func:`random_playouts` (random games to
the end, with their statistics)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import numpy as np

from .._checks import check_int
from ..errors import DonutsError
from . import _kernels as E
from ._kernels import playouts as _P
from ._kernels.position import position_of, rulebook_of
from .board import Board
from .errors import LayoutError
from .layout import Layout
from .rules import Rules


def perft(board: Board, depth: int) -> int:
    """The number of leaf positions ``depth`` plies below ``board`` (a finished game is a leaf).

    Args:
        board: the position counted from; a finished game gives 1.
        depth: the plies, 0 or more (depth 0 gives 1).

    Returns:
        The leaves counted.

    Raises:
        ValueError: a negative or non-int depth.
    """
    if not isinstance(board, Board):
        raise TypeError(f"perft needs a Board, got {type(board).__name__}")
    depth = check_int("perft depth", depth, minimum=0)
    if depth == 0 or board.is_game_over():
        return 1
    return int(E.perft(rulebook_of(board.layout, board.rules), position_of(*board.kernel_state()), int(depth)))


@dataclass(frozen=True)
class PlayoutStats:
    """The totals of :func:`random_playouts`.

    Attributes:
        n_games: the games played.
        chocolate_wins: the games Chocolate (the first player) won.
        vanilla_wins: the games Vanilla won.
        draws: the games drawn.
        mean_plies: the mean placements a game.
        ends_by_five: the games won by five in a row.
        ends_by_group: the games ended by the largest group (both pools empty).
        ends_by_majority: the games ended by majority (board full).
        seed: the seed actually used.
    """

    n_games: int
    chocolate_wins: int
    vanilla_wins: int
    draws: int
    mean_plies: float
    ends_by_five: int
    ends_by_group: int
    ends_by_majority: int
    seed: int

    @property
    def wins(self) -> tuple[int, int]:
        return (self.chocolate_wins, self.vanilla_wins)


def random_playouts(
    layout: Layout | Board,
    n_games: int,
    seed: int | None = None,
    rules: Rules | None = None,
    parallel: bool = False,
) -> PlayoutStats:
    """Play ``n_games`` games of uniformly random legal moves and count the results.

    The same ``seed`` gives the same games and totals, serial or parallel, on any number of
    threads.

    Args:
        layout: a :class:`Layout` (games start from the empty board) or a :class:`Board`
            (games start from its position, under its rules).
        n_games: the games played.
        seed: the games' seed; ``None`` draws one, reported in the result.
        rules: the rules (``None``: the official rules, or a Board's own; given with a Board,
            they must be its rules).
        parallel: whether to play on every core.

    Returns:
        The :class:`PlayoutStats`: wins, draws, plies and how the games ended.
    """
    if isinstance(layout, Board):
        board = layout
        if rules is not None and rules != board.rules:
            raise DonutsError("rules given twice: the Board's rules differ from rules=")
        if board.is_game_over():
            raise DonutsError("random_playouts: the game on this board is already over")
    elif isinstance(layout, Layout):
        board = Board(layout, rules)
    else:
        raise LayoutError(f"random_playouts needs a Layout or a Board, got {type(layout).__name__}")
    n_games = check_int("n_games", n_games, minimum=0)
    seed = check_int("seed", seed, allow_none=True)
    if seed is None:
        seed = secrets.randbits(63)
    turn = board.turn
    assert turn is not None  # the game goes on (checked above)
    kernel = _P.random_playouts_parallel if parallel else _P.random_playouts
    totals = kernel(
        rulebook_of(board.layout, board.rules), position_of(*board.kernel_state()), turn, int(n_games),
        np.uint64(int(seed) % 2**64),
    )
    t = [int(x) for x in totals]
    return PlayoutStats(
        n_games=int(n_games),
        chocolate_wins=t[_P.WINS0],
        vanilla_wins=t[_P.WINS1],
        draws=t[_P.DRAWS],
        mean_plies=t[_P.PLIES] / n_games if n_games else 0.0,
        ends_by_five=t[_P.ENDS_FIVE],
        ends_by_group=t[_P.ENDS_GROUP],
        ends_by_majority=t[_P.ENDS_MAJORITY],
        seed=int(seed),
    )
