"""Random games of Donut Boxes on the compiled engine: the public face of its playouts,
for benchmarks and studies that play many games (the speed figure of ``donuts-ai bench``).

    >>> from donuts_ai.boxes import BoxesRules
    >>> from donuts_ai.boxes.playouts import playout_tables, random_games
    >>> tables = playout_tables(BoxesRules(players=3))   # scratch space, made once
    >>> scores, places, turns = random_games(tables, 4, seed=1)
    >>> scores.shape, places.shape, turns.shape
    ((4, 3), (4, 3), (4,))
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .._checks import check_int
from . import _kernels as E
from ._state.engine import tables_for
from .errors import BoxesError
from .rules import BoxesRules

#: The scratch space of :func:`random_games`, sized for one set of rules.
PlayoutTables = E.Tables


def playout_tables(rules: BoxesRules) -> PlayoutTables:
    """Scratch space for :func:`random_games` (made once, reused: making it is not part of a game).

    Args:
        rules: the rules the games are played under.

    Returns:
        The tables.
    """
    if not isinstance(rules, BoxesRules):
        raise BoxesError(f"rules must be BoxesRules, got {rules!r}")
    return tables_for(rules)


def random_games(tables: PlayoutTables, games: int, seed: int) -> tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.int64]]:
    """Deal and play games with uniformly random legal moves, in compiled code.

    Args:
        tables: made by :func:`playout_tables` (its rules are the games').
        games: the number of games.
        seed: the decks of every game are shuffled from it.

    Returns:
        ``(scores, places, turns)``: a row of each player's score and place (0 first) a
        game, and each game's turns.
    """
    games = check_int("games", games, minimum=1, error=BoxesError)
    seed = check_int("seed", seed, minimum=0, error=BoxesError)
    result: tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.int64]] = E.random_games(tables, games, seed)
    return result
