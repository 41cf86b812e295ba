"""Writes the notebooks of this folder and executes them, so that they are stored with
their outputs (plots, tables) and read well without being run. After editing:

    make notebooks                                    (= python notebooks/build_notebooks.py)
    python notebooks/build_notebooks.py 05_batched_env.ipynb   just one
    python notebooks/build_notebooks.py --no-execute  sources only, outputs stripped

Each notebook reads ``QUICK = os.environ.get("DONUTS_NB_QUICK") == "1"``: the test suite
executes them with small settings (and checks the numbers they print); this script runs
them with the full settings (``--quick`` for the small ones) and writes them back.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).parent
SETUP = 'import os\nQUICK = os.environ.get("DONUTS_NB_QUICK") == "1"  # small settings for the test suite'
KERNEL = {"name": "python3", "display_name": "Python 3", "language": "python"}
#: Seconds one cell may run under ``make notebooks``.
CELL_TIMEOUT = 1200

#: Every notebook: its file name and its cells.
NOTEBOOKS: dict[str, list] = {}


def add(name: str, cells: list) -> None:
    """Declare notebook ``name`` (written by :func:`main`)."""
    NOTEBOOKS[name] = cells


def notebook(name: str) -> nbformat.NotebookNode:
    """Notebook ``name`` as built from its cells, without outputs."""
    return new_notebook(cells=NOTEBOOKS[name], metadata={"kernelspec": KERNEL})


def md(text: str):
    return new_markdown_cell(text.strip())


def code(text: str):
    return new_code_cell(text.strip())


add("01_quick_start.ipynb", [
    md("""
# Quick start

Build a layout from the tile set, draw it, play moves, watch flips and open picks, let
agents play, and solve a position exactly."""),
    code(SETUP),
    code("""
from donuts_ai import Board, Layout, TILE_FACES, solve, analyze
from donuts_ai.donuts.agents import GreedyAgent, MCTSAgent, AlphaBetaAgent

# Four tiles, one per quadrant: (tile, side, quarter turns clockwise).
layout = Layout.from_tiles([(2, "A", 1), (0, "B", 0), (3, "A", 2), (1, "B", 3)])
print(layout.to_text())
layout  # a notebook draws layouts and boards as SVG"""),
    md("Every square shows a line. After a move, the opponent must play on the line through it:"),
    code("""
board = Board(layout)
board.push("c3")
print("legal after c3:", board.legal_moves())
board"""),
    md("""
An insertion: a donut (or a straight run of them) placed directly between two opposing
donuts flips those two. On an all-horizontal layout every move stays on rank 1 here;
Chocolate's c1 lands between Vanilla's b1 and d1, flips both, and completes a five."""),
    code("""
flat = Layout.from_text("\\n".join(["------"] * 6))
b = Board(flat)
for move in ["a1", "b1", "e1", "d1"]:   # Chocolate a1, e1; Vanilla b1, d1
    b.push(move)
print(b)
flipped = b.push("c1")
print("flips:", flipped, "-", b.outcome())
b"""),
    md("An open pick: when the whole line is full, the next player may play anywhere."),
    code("""
b = Board(flat)
for move in ["a1", "b1", "c1", "d1", "e1", "f1"]:
    b.push(move)
print("open pick:", b.is_open_pick(), "-", len(b.legal_moves()), "legal moves")"""),
    md("Agents play through one protocol, `select_move(board)`:"),
    code("""
board = Board(layout)
players = {0: MCTSAgent(simulations=2000 if QUICK else 50000, seed=1), 1: GreedyAgent(seed=1)}
while not board.is_game_over():
    board.push(players[board.turn].select_move(board))
print(board.outcome(), "after", board.ply, "plies")
board"""),
    md("The solver gives exact values. From a position a few moves in:"),
    code("""
board = Board(Layout.random_grid(1))
for move in ["a2", "b1", "d1", "e1", "b4", "c5"]:
    board.push(move)
solution = solve(board)
print(solution)
for mv in analyze(board):
    print(mv.move, mv.result, "in", mv.distance, "plies")"""),
])

add("02_agents_compared.ipynb", [
    md("""
# Agents compared

A small round robin, ratings with error bars, a crosstable heat map, and the cost of
thinking time (MCTS against Greedy at several move times)."""),
    code(SETUP),
    code("""
import matplotlib.pyplot as plt
from donuts_ai import tournament

agents = ["random", "greedy", "alphabeta:time=0.05", "mcts:time=0.05"] if not QUICK else \\
         ["random", "greedy", "alphabeta:depth=2", "mcts:simulations=300"]
# Every agent plays in a supervised process of its own (the default); the small settings play
# them inside the harness's processes instead: for a handful of games, starting the agents'
# processes would cost most of the time.
ISOLATION = "process" if not QUICK else "none"
results = tournament.run(agents, game="donuts", games=8 if not QUICK else 2, setups="random:0:4", seed=1,
                         isolation=ISOLATION)
print(results.table())"""),
    code("""
fit = results.ratings()
names = [r.name for r in fit.ratings][::-1]
fig, ax = plt.subplots(figsize=(6, 3))
ax.errorbar([r.elo for r in fit.ratings][::-1], range(len(names)),
            xerr=[[r.elo - r.lower for r in fit.ratings][::-1], [r.upper - r.elo for r in fit.ratings][::-1]],
            fmt="o", capsize=4)
ax.set_yticks(range(len(names)), names)
ax.set_xlabel("Elo (95% interval), random = 0")
plt.show()"""),
    code("""
table = results.crosstable()
grid = [[table[a][b][0] / table[a][b][1] if a != b and table[a][b][1] else float("nan") for b in agents] for a in agents]
fig, ax = plt.subplots(figsize=(5, 4))
im = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=1)
ax.set_xticks(range(len(agents)), agents, rotation=45, ha="right")
ax.set_yticks(range(len(agents)), agents)
fig.colorbar(im, label="score of row against column")
plt.show()"""),
    md("The cost of thinking time: MCTS at several move times against Greedy, colours swapped on each layout."),
    code("""
times = [0.002, 0.01, 0.05] if not QUICK else [0.001, 0.004]
scores = []
for t in times:
    r = tournament.run([f"mcts:time={t}", "greedy"], game="donuts", games=8 if not QUICK else 2, setups="random:20:4",
                       seed=2, isolation=ISOLATION)
    pts, n = r.crosstable()[f"mcts:time={t}"]["greedy"]
    scores.append(pts / n)
    print(f"{t:>6} s/move: MCTS scores {pts}/{n}")
plt.semilogx(times, scores, "o-")
plt.xlabel("seconds per move"); plt.ylabel("MCTS score against Greedy"); plt.ylim(0, 1.05)
plt.show()"""),
])

add("03_who_wins.ipynb", [
    md("""
# Who wins Donuts?

**Finding.** With perfect play the **first player (Chocolate) wins every arrangement
of the tile set**: all 24,576 symmetry classes of the 98,304 arrangements (every
class is the four quarter turns of one arrangement) were solved, with no draw and no
second-player win (`notebooks/study_all_arrangements.jsonl.gz`, made by
`donuts-ai study first-player --arrangements all --out study_all_arrangements.jsonl`;
the run is in `benchmarks/RESULTS.md`). The first mover must choose well, though:
in a sample of 50 classes only 5 to 14 of the 36 first moves win (9 on
average), a few draw (10 moves in all 50) and the rest lose. On the standard layout only
10 of the 36 opening squares win, the other 26 lose. **With 18 donuts each** (the board
can fill) the first player still wins all 24,576 classes; under the **single-insertion**
rule some classes are draws, though never a second-player win (see the last section).

The cells below read the committed results files and recompute the rest (small samples
with `DONUTS_NB_QUICK=1`)."""),
    code(SETUP),
    code("""
import time
from collections import Counter
from pathlib import Path
import matplotlib.pyplot as plt
import numpy as np
from IPython.display import SVG, display
from donuts_ai import Board, Layout, Rules, Solver, analyze, solve
from donuts_ai.study import hardest, load_study, summary, winning_move_counts

DATA = Path(os.environ.get("DONUTS_NB_DATA", "."))  # the folder of the results files: this notebook's
config, units = load_study(DATA / "study_all_arrangements.jsonl.gz")
print(config)
row = summary(units)["arrangement"]
values = Counter(u["value"] for u in units)
print(f"{row['classes']:,} classes standing for {row['layouts']:,} arrangements: first player wins {values[1]:,}, "
      f"draws {values[0]:,}, second player wins {values[-1]:,}")
seconds = np.array([u["seconds"] for u in units]); nodes = np.array([u["nodes"] for u in units])
print(f"solve time per class: median {np.median(seconds):.3f} s, mean {seconds.mean():.3f} s, "
      f"99th percentile {np.percentile(seconds, 99):.2f} s, max {seconds.max():.1f} s, "
      f"summed {seconds.sum() / 3600:.2f} h (wall clock per solve, on a shared machine)")
print(f"nodes per class: median {int(np.median(nodes)):,}, max {int(nodes.max()):,}, total {int(nodes.sum()):,}")
for u in units:
    if u["value"] != 1:  # an arrangement the first player does not win: show it
        print(u["layout"], u["value"]); display(SVG(Board(Layout.from_text(u["layout"]))._repr_svg_()))"""),
    md("How hard the layouts are: nodes searched to prove the first player's win, and the hardest ones."),
    code("""
plt.hist(np.log10(nodes), bins=60)
plt.xlabel("log10(nodes to solve the empty board)"); plt.ylabel("arrangement classes")
plt.show()
for u in hardest(units, 5):
    print(f"unit {u['unit']:>5}: {u['nodes']:>12,} nodes, {u['seconds']:6.1f} s, best move {u['best_move']}")
display(SVG(Board(Layout.from_text(hardest(units, 1)[0]["layout"]))._repr_svg_()))"""),
    md("""How many first moves win? Every first move of a seeded sample of arrangement
classes solved (`donuts-ai study first-player --arrangements 50 --seed 1 --first-moves`,
`notebooks/study_first_moves.jsonl`):"""),
    code("""
_, sample = load_study(DATA / "study_first_moves.jsonl")
counts = winning_move_counts(sample)
plt.bar(list(counts), list(counts.values()))
plt.xlabel("winning first moves (of 36)"); plt.ylabel("arrangements")
plt.show()
wins = [len(u["winning_moves"]) for u in sample]
print(f"{len(sample)} classes: winning first moves min {min(wins)}, median {int(np.median(wins))}, max {max(wins)}; "
      f"drawing first moves in all: {sum(len(u['drawing_moves']) for u in sample)}")
if QUICK:  # recheck some of the file's winning first moves
    for u in sample[:2]:
        b = Board(Layout.from_text(u["layout"])); s = Solver(tt_bits=18)
        assert all(s.move_value(b, m) == 1 for m in u["winning_moves"][:3])
    print("sample rechecked")"""),
    md("The standard layout: the exact value and distance of every opening square (green: the first player wins after it):"),
    code("""
board = Board(Layout.standard())
t = time.time()
if QUICK:
    solver = Solver()
    moves = {sq: solver.move_value(board, sq) for sq in ["a1", "d1", "b3", "c3"]}
    table = {sq: (v, None) for sq, v in moves.items()}
else:
    table = {mv.move: (mv.value, mv.distance) for mv in analyze(board)}
grid = np.full((6, 6), np.nan)
for sq, (v, _) in table.items():
    grid[6 - int(sq[1]), "abcdef".index(sq[0])] = v
fig, ax = plt.subplots(figsize=(4, 4))
ax.imshow(grid, cmap="RdYlGn", vmin=-1, vmax=1)
symbols = Layout.standard().to_text().splitlines()
for r in range(6):
    for f in range(6):
        label = symbols[r][f]
        sq = "abcdef"[f] + str(6 - r)
        if sq in table and table[sq][1] is not None:
            label += f"\\n{table[sq][1]}"
        ax.text(f, r, label, ha="center", va="center", fontsize=10)
ax.set_xticks(range(6), list("abcdef")); ax.set_yticks(range(6), list("654321"))
plt.title("opening square: win (green) / loss (red), plies to the end")
plt.show()
print(sum(v == 1 for v, _ in table.values()), "winning openings of", len(table), "tried")
for sq, (v, d) in sorted(table.items(), key=lambda kv: (-kv[1][0], kv[1][1] or 0)):
    print(f"{sq}: {'win' if v == 1 else 'draw' if v == 0 else 'loss'}" + (f" in {d} plies" if d is not None else ""))
print(f"{time.time() - t:.0f} s")"""),
    md("Game lengths under perfect play (the winner wins as fast as it can, the loser holds out):"),
    code("""
lengths = []
layouts = [Layout.random_grid(s) for s in (0, 1, 4, 11)] if not QUICK else []
for layout in layouts:
    lengths.append(solve(Board(layout), distance=True).distance)  # the empty board: value only by default
if QUICK:  # positions a few moves in are quick to solve exactly
    import random
    rng = random.Random(3)
    for s in range(4):
        b = Board(Layout.random_grid(s))
        for _ in range(12):
            b.push(rng.choice(b.legal_moves()))
        if not b.is_game_over():
            lengths.append(b.ply + solve(b).distance)
plt.hist(lengths, bins=range(9, 32))
plt.xlabel("plies to the end under perfect play"); plt.ylabel("layouts")
plt.show()
print(lengths)"""),
    md("""
## The variants: single insertion, and 18 donuts each

The same whole-arrangement study under two variants of the rules
(`donuts-ai study first-player --arrangements all --insertion single` and `--donuts 18`):

- **Single insertion** (the rulebook's Law 2): a placed donut flips only the two single
  opposing donuts directly on either side of it (`o X o`), never a run's ends.
- **18 donuts each**: 36 donuts in all, so the board can fill; a full board without a
  five goes to the player with more donuts on it.

Does the first player still win everything? Each file is read as committed (a study that
stopped part-way resumes with `--resume`, and the cell then says how far it got); the
solver's nodes per class against the official rules' show how much harder each variant is
to solve (the single-insertion study counts proof-number nodes, the other two alpha-beta
nodes, so its ratio compares two searches as well as two rules)."""),
    code("""
official_nodes = {u["layout"]: u["nodes"] for u in units}
variants = {"18 donuts each": "study_all_arrangements_donuts18.jsonl.gz",
            "single insertion": "study_all_arrangements_single.jsonl.gz"}
variant_studies = {}  # title -> (config, units), for the cells below
for title, name in variants.items():
    if not (DATA / name).exists():
        print(f"{title}: no results file yet"); continue
    v_config, v_units = variant_studies[title] = load_study(DATA / name)
    v_values = Counter(u["value"] for u in v_units)
    weights = sum(u["weight"] for u in v_units)
    done = "every class" if len(v_units) == len(units) else f"{len(v_units):,} of {len(units):,} classes so far"
    print(f"{title} ({v_config['rules']}): {done}, standing for {weights:,} arrangements; classes won by the first player "
          f"{v_values[1]:,}, drawn {v_values[0]:,}, won by the second player {v_values[-1]:,}")
    v_nodes = np.array([u["nodes"] for u in v_units])
    ratio = np.array([u["nodes"] / official_nodes[u["layout"]] for u in v_units])
    print(f"    nodes per class: median {int(np.median(v_nodes)):,}, max {int(v_nodes.max()):,}; "
          f"against the official rules, class by class: median x{np.median(ratio):.2f}")
    others = [u for u in v_units if u["value"] != 1]
    if others:
        print(f"    not a first-player win: classes {', '.join(str(u['unit']) for u in others)}")
        for u in others[:2]:  # the first two, drawn
            display(SVG(Board(Layout.from_text(u["layout"]))._repr_svg_()))
    if QUICK:  # re-solve a few classes of the file
        rules = Rules(**v_config["rules"])
        for u in sorted(v_units, key=lambda u: u["nodes"])[:2]:
            assert Solver(tt_bits=18).solve(Board(Layout.from_text(u["layout"]), rules), distance=False).value == u["value"]
        print("    sample rechecked")"""),
    md("""
What does a draw look like? The cheapest drawn class of the single-insertion study, played
out with the solver's move for both sides (each keeps the value, a draw, at every ply):
neither side can force five, and when the pools are empty the two largest groups are
equal."""),
    code("""
if "single insertion" in variant_studies:
    s_config, s_units = variant_studies["single insertion"]
    draws = [u for u in s_units if u["value"] == 0]
    if draws:
        u = min(draws, key=lambda u: u["nodes"])
        board = Board(Layout.from_text(u["layout"]), Rules(**s_config["rules"]))
        solver = Solver()
        while board.outcome() is None:
            sol = solver.solve(board, distance=False)
            assert sol.value == 0  # the mover's best keeps the draw
            board.push(sol.best_move)
        assert board.outcome().winner is None
        print(f"class {u['unit']}: {board.outcome()}")
        display(SVG(board._repr_svg_()))"""),
])

add("04_search_speed.ipynb", [
    md("""
# Search speed

`donuts-ai bench` measures the engine on this machine: random playouts, perft, alpha-beta,
MCTS, the solver and the batched `VectorEnv`. Here it makes your own speed record,
compares it with the record committed in the repository, and plots the two side by side.

A record is pyperf's JSON (`donuts-ai bench --quick --json FILE`; `python -m pyperf stats
FILE` reads it). Each figure is measured in several independent processes (runs), and its
95% interval is over those runs, not over the repeats within one: separate processes
differ far more than the repeats of one do."""),
    code(SETUP),
    code("""
from pathlib import Path
import matplotlib.pyplot as plt
import numpy as np
from donuts_ai import bench
from donuts_ai.bench import compare, record, tables

# The quick sizes (perft depth 6, alpha-beta depth 9, ...), as the committed record, so the figures share names.
suite = bench.engine.run(quick=True, runs=2 if QUICK else 3,
                         only=["playouts", "perft", "alphabeta", "vector_env"] if QUICK else None)
print(bench.engine.report(suite))"""),
    md("""
The committed record, `benchmarks/records/bench-quick.json`, was measured on the
maintainers' machine, which the comparison names beside yours. A raw ratio between two
machines is a difference of hardware and load, not a change of code, so across machines
`bench compare` compares the figures *normalised* by the yardstick, a fixed workload each
run measures beside its figures: what is left is the code, as far as the two processors
do the same work alike. To compare two versions of the code, measure both on one machine
(`python -m benchmarks.compare OLD NEW`)."""),
    code("""
DATA = Path(os.environ.get("DONUTS_NB_DATA", "."))  # this notebook's folder
RECORD = Path("benchmarks") / "records" / "bench-quick.json"
path = next(p for p in (DATA.resolve().parent / RECORD, Path.cwd().parent / RECORD, Path.cwd() / RECORD) if p.exists())
committed = record.load(path)
print(f"committed record {RECORD.as_posix()}")
print(f"  machine: {record.machine_text(committed)}")
print(f"  record: {record.provenance_text(committed)}")
print()
rows = compare.compare_figures(committed, suite)
print(compare.report(committed, suite, rows, old_name="committed", new_name="yours"))"""),
    code("""
names = [r.name for r in rows]
fig, ax = plt.subplots(figsize=(10, 0.45 * len(names) + 1.5))
for k, (label, s) in enumerate((("committed", committed), ("yours", suite))):
    rate, low, high = np.array([tables.rate_interval(b)[:3] for b in record.figures_of(s, names).values()]).T
    err = np.nan_to_num([rate - low, high - rate])  # no interval (one value): no bar
    ax.barh(np.arange(len(names)) + (0.2 if k else -0.2), rate, height=0.4, xerr=err, capsize=3, label=label)
ax.set_yticks(range(len(names)), [f"{r.name} ({compare.plural(r.work_unit)}/s)" for r in rows])
ax.invert_yaxis(); ax.set_xscale("log")
ax.set_xlabel("units of work a second (log scale); error bars: 95% interval over runs")
ax.legend(); fig.tight_layout()
plt.show()"""),
])

add("05_batched_env.ipynb", [
    md("""
# A batched environment

`VectorEnv` steps thousands of games at once in compiled code, the way Pgx does on
accelerators: one call plays one action in every game, and the arrays `observation`
(the PettingZoo environment's 13 planes, seen by the side to move),
`legal_action_mask`, `current_player`, `rewards` (by colour) and `terminated` describe
them all. A game that ends is reset in the same step; its last position is in
`final_observation`.

Two uses: random-policy statistics, checked against the playout kernel
(`random_playouts`), and a linear value function learned from random self-play."""),
    code(SETUP),
    code("""
import time
import matplotlib.pyplot as plt
import numpy as np
from donuts_ai import Layout, VectorEnv, random_playouts
from donuts_ai.donuts.vector_env import END_REASONS

NUM_ENVS = 256 if QUICK else 4096
GAMES_EACH = 8 if QUICK else 50  # the first games of every env: independent, not biased towards short ones

env = VectorEnv(NUM_ENVS, layout="standard", seed=1)
finished = np.zeros(NUM_ENVS, dtype=np.int64)
results = np.zeros(3, dtype=np.int64)   # Chocolate wins, Vanilla wins, draws
reasons = np.zeros(3, dtype=np.int64)   # five, largest group, majority
lengths = []
steps = 0
start = time.perf_counter()
while finished.min() < GAMES_EACH:
    env.step(env.random_actions())
    steps += NUM_ENVS
    counted = env.terminated & (finished < GAMES_EACH)
    finished += env.terminated
    chocolate = env.rewards[counted, 0]
    results += [(chocolate > 0).sum(), (chocolate < 0).sum(), (chocolate == 0).sum()]
    reasons += np.bincount(env.final_reason[counted], minlength=3)
    lengths.append(env.final_plies[counted])
seconds = time.perf_counter() - start
lengths = np.concatenate(lengths)
n = int(results.sum())
print(f"VectorEnv: {n:,} random games on the standard layout, {steps:,} steps in {seconds:.2f} s "
      f"({steps / seconds / 1e6:.1f} M steps/s on one core, {NUM_ENVS:,} games at once)")"""),
    md("The playout kernel's random games (ten times as many), and the two side by side:"),
    code("""
stats = random_playouts(Layout.standard(), 10 * n, seed=1)  # ten times as many: a tight reference
ours = np.concatenate([results, reasons]) / n
theirs = np.array([stats.chocolate_wins, stats.vanilla_wins, stats.draws,
                   stats.ends_by_five, stats.ends_by_group, stats.ends_by_majority]) / stats.n_games
names = ["Chocolate wins", "Vanilla wins", "draws"] + [f"ends by {END_REASONS[k]}" for k in range(3)]
pooled = (ours + 10 * theirs) / 11
standard_error = np.sqrt(np.maximum(pooled * (1 - pooled), 1e-12) * (1 / n + 1 / stats.n_games))
z = (ours - theirs) / standard_error
print(f"{'':20s} {'VectorEnv':>10s} {'playouts':>10s} {'difference':>12s}")
for name, a, b, zz in zip(names, ours, theirs, z):
    print(f"{name:20s} {a:10.2%} {b:10.2%} {zz:+9.1f} se")
print(f"{'mean game length':20s} {lengths.mean():10.2f} {stats.mean_plies:10.2f}   plies")
print(f"all within 4 standard errors: {bool(np.all(np.abs(z) < 4))}")

fig, axes = plt.subplots(1, 2, figsize=(12, 3.5))
x = np.arange(len(names))
axes[0].bar(x - 0.2, ours, 0.4, yerr=1.96 * np.sqrt(ours * (1 - ours) / n), label="VectorEnv")
axes[0].bar(x + 0.2, theirs, 0.4, yerr=1.96 * np.sqrt(theirs * (1 - theirs) / stats.n_games), label="random_playouts")
axes[0].set_xticks(x, names, rotation=30, ha="right"); axes[0].set_ylabel("share of games"); axes[0].legend()
axes[1].hist(lengths, bins=np.arange(lengths.min(), lengths.max() + 2) - 0.5, color="tab:blue")
axes[1].axvline(lengths.mean(), color="k", label=f"VectorEnv mean {lengths.mean():.2f}")
axes[1].axvline(stats.mean_plies, color="tab:orange", ls="--", label=f"random_playouts mean {stats.mean_plies:.2f}")
axes[1].set_xlabel("plies"); axes[1].set_ylabel("games"); axes[1].legend()
fig.tight_layout()
plt.show()"""),
    md("""
## A linear value function from self-play

Random self-play on fresh tile arrangements: every position seen by the side to move
is a sample, labelled with that side's final result (+1, 0, −1). The features count
the five-in-a-row windows (32 on the board) that hold k of the mover's donuts and none
of the opponent's, for k = 1..4, the same for the opponent, and both pools; least
squares (with a small ridge) fits one weight each. The auto-reset makes the
bookkeeping a matter of episode ids: a game that ends gets a new id in the same step."""),
    code("""
PLAY_ENVS = 64 if QUICK else 2048
PLAY_STEPS = 100 if QUICK else 600
WINDOWS = np.array([[(y + k * dy) * 6 + x + k * dx for k in range(5)]  # the squares of every five-window
                    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)) for y in range(6) for x in range(6)
                    if 0 <= x + 4 * dx < 6 and 0 <= y + 4 * dy < 6])
FEATURES = [f"own {k}" for k in range(1, 5)] + [f"opponent {k}" for k in range(1, 5)] + ["own pool", "opponent pool", "bias"]

def features(obs):
    flat = obs.reshape(len(obs), 36, -1)
    own, opp = flat[:, WINDOWS, 0].sum(axis=2), flat[:, WINDOWS, 1].sum(axis=2)
    counts = [((own == k) & (opp == 0)).sum(axis=1) for k in range(1, 5)] + \\
             [((opp == k) & (own == 0)).sum(axis=1) for k in range(1, 5)]
    return np.column_stack(counts + [flat[:, 0, 9], flat[:, 0, 10], np.ones(len(obs))]).astype(np.float32)

env = VectorEnv(PLAY_ENVS, layout="random", seed=2)
episode = np.arange(PLAY_ENVS)
outcome = np.full(PLAY_ENVS * (PLAY_STEPS + 1), np.nan)  # Chocolate's result of each episode
samples, players, plies, episodes = [], [], [], []
for _ in range(PLAY_STEPS):
    samples.append(features(env.observation))
    players.append(env.current_player.copy()); plies.append(env.plies); episodes.append(episode.copy())
    env.step(env.random_actions())
    done = env.terminated
    outcome[episode[done]] = env.rewards[done, 0]
    episode[done] = episode.max() + 1 + np.arange(done.sum())
X, player, ply, ep = (np.concatenate(a) for a in (samples, players, plies, episodes))
keep = ~np.isnan(outcome[ep])          # episodes still under way at the end have no label
X, player, ply, ep = X[keep], player[keep], ply[keep], ep[keep]
y = outcome[ep] * np.where(player == 0, 1.0, -1.0)   # the result of the side to move
test = ep % 5 == 0                      # one game in five held out
w = np.linalg.solve(X[~test].T @ X[~test] + np.eye(X.shape[1]), X[~test].T @ y[~test])
prediction = X[test] @ w
decided = y[test] != 0
right = np.sign(prediction[decided]) == y[test][decided]
print(f"{len(np.unique(ep)):,} games, {len(y):,} positions; held out: {test.sum():,} positions")
print(f"held-out accuracy (the sign of the value names the winner): {right.mean():.1%}")
for name, weight in zip(FEATURES, w):
    print(f"  {name:14s} {weight:+.3f}")"""),
    code("""
fig, axes = plt.subplots(1, 2, figsize=(12, 3.5))
held = ply[test][decided]
buckets = [b for b in range(0, 36, 3) if ((held >= b) & (held < b + 3)).sum() >= 50]
axes[0].plot([b + 1 for b in buckets], [right[(held >= b) & (held < b + 3)].mean() for b in buckets], "o-")
axes[0].axhline(0.5, color="grey", lw=0.8)
axes[0].set_xlabel("plies played"); axes[0].set_ylabel("held-out accuracy"); axes[0].set_ylim(0.4, 1.0)
axes[0].set_title("random games are close to coin flips until late")
axes[1].barh(FEATURES[:8][::-1], w[:8][::-1], color=["tab:red"] * 4 + ["tab:green"] * 4)
axes[1].set_xlabel("weight (value for the side to move)")
axes[1].set_title("open windows with k donuts")
fig.tight_layout()
plt.show()"""),
])

# Notebooks whose cells live in a module of their own (one per study), added in order.
sys.path.insert(0, str(HERE))
from build_boxes_notebook import NAME as BOXES_NAME  # noqa: E402
from build_boxes_notebook import boxes_cells  # noqa: E402
from build_learning_notebook import NAME as LEARNING_NAME  # noqa: E402
from build_learning_notebook import learning_cells  # noqa: E402
from build_strength_notebook import NAME as STRENGTH_NAME  # noqa: E402
from build_strength_notebook import strength_cells  # noqa: E402

add(STRENGTH_NAME, strength_cells(md, code, SETUP))
add(BOXES_NAME, boxes_cells(md, code, SETUP))
add(LEARNING_NAME, learning_cells(md, code, SETUP))


def execute(nb: nbformat.NotebookNode, quick: bool) -> None:
    """Run ``nb`` from top to bottom in a fresh kernel (in this folder), outputs in place."""
    import nbclient

    env = {k: v for k, v in os.environ.items() if k not in ("DONUTS_NB_QUICK", "MPLBACKEND")}  # plots inline
    if quick:
        env["DONUTS_NB_QUICK"] = "1"
    saved = os.environ.copy()
    os.environ.clear()
    os.environ.update(env)  # the kernel inherits this process's environment
    try:
        nbclient.NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name=KERNEL["name"], record_timing=False,
                                resources={"metadata": {"path": str(HERE)}}).execute()
    finally:
        os.environ.clear()
        os.environ.update(saved)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="notebooks to write (default: all)")
    parser.add_argument("--no-execute", action="store_true", help="write the sources only, without outputs")
    parser.add_argument("--quick", action="store_true", help="execute with the small settings (DONUTS_NB_QUICK=1)")
    args = parser.parse_args(argv)
    names = args.names or list(NOTEBOOKS)
    unknown = [n for n in names if n not in NOTEBOOKS]
    if unknown:
        parser.error(f"unknown notebook {unknown[0]!r}; the notebooks are {', '.join(NOTEBOOKS)}")
    total = time.perf_counter()
    for name in names:
        nb = notebook(name)
        if not args.no_execute:
            start = time.perf_counter()
            execute(nb, args.quick)
            print(f"{name}: executed in {time.perf_counter() - start:.0f} s", flush=True)
        nbformat.write(nb, HERE / name)
    print(f"{len(names)} notebooks written in {time.perf_counter() - total:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
