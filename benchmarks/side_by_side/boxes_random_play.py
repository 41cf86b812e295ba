"""What a random player meets in Donut Boxes, Squared Away + Perfect Match, 2 players, 200
seeded games: the share of stuck turns, games ended on a dead layout (D14), mean legal
moves a turn. Run it in each tree: `PYTHONPATH=TREE python boxes_random_play.py`."""

import random

from donuts_ai.boxes import BoxesRules, BoxesState

r = BoxesRules(2, "squared", "perfect")
st = 0
tot = 0
dead = 0
moves_listed = 0
for seed in range(200):
    s = BoxesState(r, seed)  # the state API of 0.3.0 onward
    rng = random.Random(seed)
    while not s.is_game_over():
        ms = s.legal_moves()
        m = rng.choice(ms)
        st += m.startswith("stuck")
        tot += 1
        moves_listed += len(ms)
        s.push(m)
    d = s.to_dict()
    dead += d["trigger"] is None
print("stuck share", st / tot, "dead-layout endings", dead, "/200", "mean legal moves", moves_listed / tot)
