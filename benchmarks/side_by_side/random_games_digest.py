"""A digest of seeded random games of both games (Donuts playouts, Donut Boxes games of 2-4
players) on the tree on PYTHONPATH: the same before and after a change that keeps them."""

import hashlib

from donuts_ai.analysis import random_playouts

from donuts_ai.boxes import BoxesRules, BoxesState
from donuts_ai.donuts.layout import Layout

h = hashlib.sha256()
r = random_playouts(Layout.standard(), 2000, seed=7)
h.update(repr(r).encode())
for players in (2, 3, 4):
    for seed in range(5):
        s = BoxesState.new(BoxesRules(players=players), seed=seed)
        k = 0
        while not s.is_over():
            s.play_id(s.random_move_id(k))
            k += 1
        h.update(repr((s.ranking(), k)).encode())
print(h.hexdigest()[:16])
