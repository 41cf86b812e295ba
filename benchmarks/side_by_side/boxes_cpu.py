"""Boxes CPU-time figures in the tree on PYTHONPATH: random games/s (2, 4 players), ISMCTS iterations/s (kernel).

Runs against the trees before and after a change (it speaks the state and ISMCTS APIs of 0.3.0 onward); see run.sh."""
# ruff: noqa: B023  (each `go` is called only within the loop pass that defines it)

import json
import time

from trees import module

from donuts_ai.boxes import BoxesRules, BoxesState
from donuts_ai.search import ismcts as I  # the tree and its settings

# The rules kernels, the state's engine side and the search's binding, by name so that one
# script measures any tree: _kernels since 0.5.0, _engine before; boxes/_state/ and
# boxes/agents/ since 0.6.0, boxes/_core.py and boxes/_bound.py before.
E = module("donuts_ai.boxes._kernels", "donuts_ai.boxes._engine")
_core = module("donuts_ai.boxes._state.engine", "donuts_ai.boxes._core")
bound_search = module("donuts_ai.boxes.agents._bound", "donuts_ai.boxes._bound").ismcts

#: A search call's settings: ISMCTSSettings from 0.4.0 (one name for each record), Settings in 0.3.0.
SETTINGS = getattr(I, "ISMCTSSettings", None) or I.Settings

games, iters, reps = 1500, 1500, 3
r = {}
for players in (2, 4):
    rules = BoxesRules(players=players)
    scratch = _core.tables_for(rules)
    E.random_games(scratch, 20, 1)
    best = []
    for k in range(reps):
        t0 = time.process_time()
        E.random_games(scratch, games, k)
        best.append(games / (time.process_time() - t0))
    r[f"boxes_games{players}"] = max(best)
for players in (2, 4):
    s = BoxesState(BoxesRules(players=players), seed=2)
    for k in range(10):
        s.push_id(s.random_move_id(k))
    mover = s.turn
    t, grid = s.kernel_state()
    work = E.empty_tables(players)
    codes = s.legal_move_ids()
    tree = I.new_tree(iters + 10, players)

    def go(n, seed):
        I.clear(tree)
        bound_search(tree, t, grid, work, codes, SETTINGS(mover, n, seed, 0.7, 0, 8.0, 1.0))

    go(5, 0)
    best = []
    for k in range(reps):
        t0 = time.process_time()
        go(iters, k)
        best.append(iters / (time.process_time() - t0))
    r[f"ismcts{players}"] = max(best)
print(json.dumps(r))
