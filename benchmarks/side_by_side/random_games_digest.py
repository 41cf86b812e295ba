"""A digest of seeded random games of both games (Donuts playouts, Donut Boxes games of 2-4
players) on the tree on PYTHONPATH: the same before and after a change that keeps them.

Speaks the state API of 0.3.0 onward (``BoxesState(rules, seed)``, ``push_id``,
``is_game_over``); run it in each tree: ``cd /tmp && PYTHONPATH=TREE python
REPO/benchmarks/side_by_side/random_games_digest.py``."""

import hashlib

from donuts_ai import Layout, random_playouts
from donuts_ai.boxes import BoxesRules, BoxesState


def digest() -> str:
    """The first 16 hex digits of the hash of 2,000 playouts and 15 Donut Boxes games."""
    h = hashlib.sha256()
    r = random_playouts(Layout.standard(), 2000, seed=7)
    h.update(repr(r).encode())
    for players in (2, 3, 4):
        for seed in range(5):
            s = BoxesState(BoxesRules(players=players), seed=seed)
            k = 0
            while not s.is_game_over():
                s.push_id(s.random_move_id(k))
                k += 1
            h.update(repr((s.ranking(), k)).encode())
    return h.hexdigest()[:16]


if __name__ == "__main__":
    print(digest())
