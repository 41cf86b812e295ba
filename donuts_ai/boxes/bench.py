"""Speed of the Donut Boxes engine: random games per second on one core.

``python -c "from donuts_ai.boxes.bench import bench; print(bench())"``; the figure is a
benchmark, never a test (machines are noisy).
"""

from __future__ import annotations

import time

from .._checks import check_int
from . import _engine as E
from ._core import EngineCore
from .errors import BoxesError
from .rules import BoxesRules

#: Games played (untimed) first so that compilation and caches are out of the measure.
WARM_UP_GAMES = 20


def bench(games: int = 5000, rules: BoxesRules | None = None, seed: int = 0) -> dict:
    """Deal and play ``games`` random games (uniformly random legal moves) in one compiled
    call on one core, after a warm-up. Returns ``games``, ``seconds``, ``games_per_second``,
    ``mean_turns`` and the ``rules`` (default: 2 players, Squared Away, One Good Match)."""
    games = check_int("games", games, minimum=1, error=BoxesError)
    seed = check_int("seed", seed, minimum=0, error=BoxesError)
    rules = BoxesRules() if rules is None else rules
    scratch = EngineCore._tables(rules)
    E.random_games(scratch, WARM_UP_GAMES, seed + 1)
    start = time.perf_counter()
    _scores, _places, turns = E.random_games(scratch, games, seed)
    seconds = time.perf_counter() - start
    return {"rules": str(rules), "games": games, "seconds": seconds, "games_per_second": games / seconds,
            "mean_turns": float(turns.mean())}


def bench_all(games: int = 2000, players: int = 2, seed: int = 0) -> list[dict]:
    """:func:`bench` under each of the 8 variants for ``players``."""
    return [bench(games, rules, seed) for rules in BoxesRules.all_variants(players)]
