"""Writes the four notebooks of this folder (outputs stripped). Run after editing:

    python notebooks/build_notebooks.py

Each notebook reads ``QUICK = os.environ.get("DONUTS_NB_QUICK") == "1"``: the test suite
executes them with small settings; run them as they are for the full figures.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).parent
SETUP = 'import os\nQUICK = os.environ.get("DONUTS_NB_QUICK") == "1"  # small settings for the test suite'


def write(name: str, cells: list) -> None:
    nb = new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    nbformat.write(nb, HERE / name)


def md(text: str):
    return new_markdown_cell(text.strip())


def code(text: str):
    return new_code_cell(text.strip())


write("01_quick_start.ipynb", [
    md("""
# Quick start

Build a layout from the tile set, draw it, play moves, watch flips and open picks, let
agents play, and solve a position exactly."""),
    code(SETUP),
    code("""
from donuts_ai import Board, Layout, TILE_FACES, solve, analyze
from donuts_ai.agents import GreedyAgent, MCTSAgent, AlphaBetaAgent

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
players = {0: MCTSAgent(iterations=2000 if QUICK else 50000, seed=1), 1: GreedyAgent(seed=1)}
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

write("02_agents_compared.ipynb", [
    md("""
# Agents compared

A small round robin, ratings with error bars, a crosstable heat map, and the cost of
thinking time (MCTS against Greedy at several move times)."""),
    code(SETUP),
    code("""
import matplotlib.pyplot as plt
from donuts_ai import tournament

agents = ["random", "greedy", "alphabeta:time=0.05", "mcts:time=0.05"] if not QUICK else \\
         ["random", "greedy", "alphabeta:depth=2", "mcts:iterations=300"]
results = tournament.run(agents, games=8 if not QUICK else 2, layouts="random:0:4", seed=1)
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
    r = tournament.run([f"mcts:time={t}", "greedy"], games=8 if not QUICK else 2, layouts="random:20:4", seed=2)
    pts, n = r.crosstable()[f"mcts:time={t}"]["greedy"]
    scores.append(pts / n)
    print(f"{t:>6} s/move: MCTS scores {pts}/{n}")
plt.semilogx(times, scores, "o-")
plt.xlabel("seconds per move"); plt.ylabel("MCTS score against Greedy"); plt.ylim(0, 1.05)
plt.show()"""),
])

write("03_who_wins.ipynb", [
    md("""
# Who wins Donuts?

**Finding.** With perfect play the **first player (Chocolate) wins** every layout we
solved: 400 layouts (300 random arrangements of our tile set, 100 uniformly random
direction grids; see `benchmarks/RESULTS.md` for the run), no draws, no second-player
wins. The first mover must choose well, though: on the standard layout only 10 of the
36 opening squares win, the other 26 lose. Under perfect play the games last 23 to 29
plies.

The cells below recompute these figures (small samples with `DONUTS_NB_QUICK=1`); the
full study is `donuts-ai study first-player --arrangements N --grids M --out FILE`."""),
    code(SETUP),
    code("""
import time
import matplotlib.pyplot as plt
import numpy as np
from donuts_ai import Board, Layout, Solver, solve
from donuts_ai.study import run_study, summary

t = time.time()
config, units = run_study(arrangements=4 if QUICK else 40, grids=2 if QUICK else 20, seed=5, workers=2)
for kind, row in summary(units).items():
    print(f"{kind}s: {row['layouts']} layouts, first player wins {row['first_player_wins']:.0%}, "
          f"draws {row['draws']:.0%}, second player wins {row['second_player_wins']:.0%}")
print(f"{time.time() - t:.1f} s")"""),
    md("The value of every opening square on the standard layout (green: the first player wins after it):"),
    code("""
board = Board(Layout.standard())
solver = Solver()
squares = range(36) if not QUICK else [0, 3, 13, 14]
values = np.full((6, 6), np.nan)
for sq in squares:
    values[5 - sq // 6, sq % 6] = solver.move_value(board, sq)
fig, ax = plt.subplots(figsize=(4, 4))
ax.imshow(values, cmap="RdYlGn", vmin=-1, vmax=1)
symbols = Layout.standard().to_text().splitlines()
for r in range(6):
    for f in range(6):
        ax.text(f, r, symbols[r][f], ha="center", va="center", fontsize=14)
ax.set_xticks(range(6), list("abcdef")); ax.set_yticks(range(6), list("654321"))
plt.title("opening square: win (green) / loss (red)")
plt.show()
print(int(np.nansum(values == 1)), "winning openings of", int(np.sum(~np.isnan(values))), "tried")"""),
    md("Game lengths under perfect play (the winner wins as fast as it can, the loser holds out):"),
    code("""
lengths = []
layouts = [Layout.random_grid(s) for s in (0, 1, 4, 11)] if not QUICK else []
for layout in layouts:
    lengths.append(solve(Board(layout)).distance)
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
])

write("04_search_speed.ipynb", [
    md("""
# Search speed

The figures of `donuts-ai bench` as plots: playouts per second against cores, nodes per
second, and the solver's time per layout."""),
    code(SETUP),
    code("""
import matplotlib.pyplot as plt
from donuts_ai import bench

r = bench.run(quick=QUICK, startup=False)
print(bench.report(r))"""),
    code("""
fig, axes = plt.subplots(1, 3, figsize=(13, 3.5))
cores = [1, r["machine"]["cores"]]
axes[0].bar([str(c) for c in cores], [r["playouts_1core"]["median"], r["playouts_all_cores"]["median"]])
axes[0].set_xlabel("cores"); axes[0].set_ylabel("random games / s")
axes[1].bar(["perft leaves", "alpha-beta nodes", "MCTS iterations"],
            [r["perft"]["median"], r["alphabeta"]["median"], r["mcts_1"]["median"]])
axes[1].set_yscale("log"); axes[1].set_ylabel("per second, one core")
rows = r["solver"]["rows"]
axes[2].bar([x["layout"] for x in rows], [x["seconds"] for x in rows])
axes[2].set_ylabel("seconds to solve the empty board"); axes[2].tick_params(axis="x", rotation=45)
fig.tight_layout()
plt.show()"""),
])
