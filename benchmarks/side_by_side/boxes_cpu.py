"""Boxes CPU-time figures in the tree on PYTHONPATH: random games/s (2, 4 players), ISMCTS iterations/s (kernel).

Runs against the trees before and after a change (it speaks the ISMCTS APIs before and after issue 29); see run.sh."""
# ruff: noqa: B023  (each `go` is called only within the loop pass that defines it)

import json
import time

from donuts_ai.boxes import BoxesRules, BoxesState, _core
from donuts_ai.boxes import _engine as E

try:  # the searches under search/ (issue 29): the tree and settings there, Donut Boxes' binding in boxes
    from donuts_ai.boxes._bound import ismcts as bound_search
    from donuts_ai.search import ismcts as I
except ImportError:
    from donuts_ai.boxes import _ismcts as I

    bound_search = I.search

games, iters, reps = 1500, 1500, 3
r = {}
for players in (2, 4):
    rules = BoxesRules(players=players)
    scratch = _core.tables_for(rules) if hasattr(_core, "tables_for") else _core.EngineCore._tables(rules)
    E.random_games(scratch, 20, 1)
    best = []
    for k in range(reps):
        t0 = time.process_time()
        E.random_games(scratch, games, k)
        best.append(games / (time.process_time() - t0))
    r[f"boxes_games{players}"] = max(best)
for players in (2, 4):
    # Both state APIs: BoxesState(rules, seed) / push_id / turn since 0.3.0, BoxesState.new / play_id / to_move before.
    s = getattr(BoxesState, "new", BoxesState)(BoxesRules(players=players), seed=2)
    push_id = s.push_id if hasattr(s, "push_id") else s.play_id
    for k in range(10):
        push_id(s.random_move_id(k))
    mover = s.turn if hasattr(s, "turn") else s.to_move
    t, grid = s.kernel_state()
    work = E.empty_tables(players)
    codes = s.legal_move_ids()
    if hasattr(I, "Settings"):
        tree = I.new_tree(iters + 10, players)

        def go(n, seed):
            I.clear(tree)
            bound_search(tree, t, grid, work, codes, I.Settings(mover, n, seed, 0.7, 0, 8.0, 1.0))
    else:
        nodes, values, used = I.new_tree(iters + 10, players)

        def go(n, seed):
            I.reset_tree(nodes, values, used)
            I.run(nodes, values, used, t, grid, work, mover, codes, n, seed, 0.7, 0, 8.0, 1.0)

    go(5, 0)
    best = []
    for k in range(reps):
        t0 = time.process_time()
        go(iters, k)
        best.append(iters / (time.process_time() - t0))
    r[f"ismcts{players}"] = max(best)
print(json.dumps(r))
