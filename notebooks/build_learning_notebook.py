"""The cells of ``08_learning.ipynb``: the learned agent measured against perfect play.

Its cells are added by ``build_notebooks.py``, which writes and executes it:
``python notebooks/build_notebooks.py 08_learning.ipynb [--quick]``.

It reads the shipped network, the shipped training run's progress
(``learning_progress.jsonl``), the ablation (``learning_ablation.json``), the shipped network's
figures on the winning positions (``learning_shipped.json``), the networks taught by the
solver alone (``learning_supervised.json``) and the match against MCTS
(``learning_match.jsonl``), and
labels fresh positions with the solver: about 2 minutes on 2 cores with the full settings,
well under a minute with ``DONUTS_NB_QUICK=1``.
"""

from __future__ import annotations

NAME = "08_learning.ipynb"


def learning_cells(md, code, setup: str) -> list:
    """The notebook's cells, made with ``build_notebooks``' ``md`` and ``code`` helpers."""
    return [
        md("""
# The learned agent against perfect play

`donuts_ai.learn` trains a policy/value network by AlphaZero-style self-play: a small
residual network in JAX, a PUCT (or Gumbel) search compiled with Numba whose leaves are
evaluated in batches, random tile arrangements for every game, and, where the run asks
for it, the exact solver as teacher, whose labels replace the self-play targets of the
positions it settles. Because Donuts is solved here, every
move the learned agent makes can be checked against the exact solver. This notebook
reads how the shipped network learned, measures it on positions it never saw, and shows
its match against the Monte-Carlo tree search agent.

The positions: plies 4 to 24 of seeded games on random tile arrangements (greedy moves, a
quarter of them random) whose value is **decided** (won or lost for the side to move),
with the solver's value of every legal move. A move *keeps the value* when its value is
the position's. **Critical** positions are those where some legal move does not keep it
(in a lost position every move keeps it: those count for the value head only)."""),
        code(setup),
        code("""
import json
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from donuts_ai.learn.agent import SHIPPED_NETWORK, cached_network
from donuts_ai.learn.benchmark import label_positions, measure
from donuts_ai.learn.network import count_parameters

DATA = Path(os.environ.get("DONUTS_NB_DATA", "."))
network = cached_network(None)
settings = json.loads((SHIPPED_NETWORK / "training.json").read_text())
print(f"shipped network: {network.config}, {count_parameters(network):,} weights")
print("trained by:", settings["command"])"""),
        md("""
## How it learned

Each checkpoint of the shipped run measured the raw policy and the value head on the
first 300 positions of the labelled set shipped with the library (seed 2026), beside the
losses on its own self-play batches."""),
        code("""
progress = [json.loads(line) for line in (DATA / "learning_progress.jsonl").read_text().splitlines()]
minutes = np.array([p["seconds"] / 60 for p in progress])
fig, axes = plt.subplots(1, 2, figsize=(12, 3.8))
axes[0].plot(minutes, [p["policy_accuracy"] for p in progress], label="raw policy keeps the value")
axes[0].plot(minutes, [p["value_accuracy"] for p in progress], label="value head's sign is right")
axes[0].set_xlabel("training minutes (2 cores)"); axes[0].set_ylabel("share of 300 decided positions")
axes[0].legend(); axes[0].grid(alpha=0.3)
axes[1].plot(minutes, [p["policy_loss"] for p in progress], label="policy loss")
axes[1].plot(minutes, [p["value_loss"] for p in progress], label="value loss")
axes[1].set_xlabel("training minutes"); axes[1].legend(); axes[1].grid(alpha=0.3)
fig.tight_layout(); plt.show()
last = progress[-1]
labels = last.get("label_wait_seconds", 0.0)  # the self-play waiting for the teacher's labels (0 without one)
busy = last["search_seconds"] + last["network_seconds"] + last["train_seconds"] + labels
print(f"{last['moves']:,} self-play moves, {last['games']:,} games, {last['positions']:,} positions, "
      f"{last['train_steps']:,} training steps in {last['seconds'] / 60:.0f} minutes: "
      f"{last['positions'] / last['seconds']:.0f} positions/s")
print(f"time: search {last['search_seconds'] / busy:.0%}, network {last['network_seconds'] / busy:.0%}, "
      f"training {last['train_seconds'] / busy:.0%}, waiting for the teacher's labels {labels / busy:.0%}")
if last.get("labelled"):
    print(f"the teacher settled the value of {last['value_labels'] / last['labelled']:.0%} of the positions it was asked "
          f"about, every move's value of {last['policy_labels'] / last['labelled']:.0%}")"""),
        md("""
## On positions it never saw

Fresh positions from another seed, labelled by the solver now; the raw policy, the value
head, and the search with 50 and 400 simulations."""),
        code("""
COUNT = 40 if QUICK else 400
SIMS = (8,) if QUICK else (50, 400)
fresh = label_positions(COUNT, seed=7)
result = measure(network, fresh, simulations=SIMS)
print(f"{result['positions']} decided positions, {result['critical_positions']} critical")
print(f"{'':26} {'all':>6} {'critical':>9}")
print(f"{'raw policy keeps value':26} {result['policy']:6.1%} {result['critical_policy']:9.1%}")
print(f"{'value head sign right':26} {result['value']:6.1%}")
for n in SIMS:
    print(f"{f'az sims={n} keeps value':26} {result['searched'][n]:6.1%} {result['critical_searched'][n]:9.1%}")"""),
        code("""
by_ply = {}
for p in fresh:
    by_ply.setdefault(sum(p.board().placed) // 4 * 4, []).append(p)  # donuts placed: a FEN keeps no move list
plies = sorted(by_ply)
shares = [measure(network, by_ply[k])["policy"] for k in plies]
plt.figure(figsize=(6, 3.2))
plt.bar([f"{k}-{k + 3}" for k in plies], shares)
plt.ylim(0, 1); plt.ylabel("raw policy keeps the value"); plt.xlabel("plies played")
plt.title("where the raw policy errs"); plt.show()
print({f"{k}-{k + 3}": (len(by_ply[k]), round(s, 3)) for k, s in zip(plies, shares)})"""),
        md("""
## What each part of the recipe buys

`python -m benchmarks.learning --ablation --minutes 10` trained seven networks from the
same seed for 10 minutes each on 2 cores: pure AlphaZero, Gumbel search (with and without
the playout cap), the exact solver as teacher (with a scalar and a win/draw/loss value
head, and the latter with a quarter of the games exploring), and Gumbel with the teacher. Each is measured on the winning positions of the
`middlegame` and `critical` suites: its raw policy, and a 50-simulation PUCT search (the
same search for every network). The figures are read from the committed results file."""),
        code("""
ablation = json.loads((DATA / "learning_ablation.json").read_text())
arms = list(ablation["arms"])
print(f"{'arm':12} {'positions':>10} {'middlegame raw':>15} {'50 sims':>8} {'critical raw':>13} {'50 sims':>8}")
for arm in arms:
    f = ablation["arms"][arm]
    print(f"{arm:12} {f['counters']['positions']:>10} {f['middlegame']['raw_policy']:15.1%} "
          f"{f['middlegame']['sims_50']:8.1%} {f['critical']['raw_policy']:13.1%} {f['critical']['sims_50']:8.1%}")
x = np.arange(len(arms))
plt.figure(figsize=(7, 3.2))
for i, (suite, key) in enumerate([("middlegame", "raw_policy"), ("middlegame", "sims_50"), ("critical", "raw_policy"),
                                  ("critical", "sims_50")]):
    plt.bar(x + (i - 1.5) * 0.2, [ablation["arms"][a][suite][key] for a in arms], 0.2,
            label=f"{suite}, {'raw' if key == 'raw_policy' else '50 sims'}")
plt.xticks(x, arms, rotation=20); plt.ylim(0.4, 1); plt.ylabel("keeps the value (winning positions)")
plt.title(f"{ablation['minutes']:g} minutes of training each"); plt.legend(fontsize=7, ncol=2); plt.show()"""),
        md("""
The shipped network on the same winning positions, with the searches the issue's targets
name (`python -m benchmarks.learning --winning --simulations 50 400 --json
notebooks/learning_shipped.json`; the targets: the raw policy on at least 95%, 400
simulations on at least 99%)."""),
        code("""
shipped = json.loads((DATA / "learning_shipped.json").read_text())
print(f"{'suite':12} {'winning':>8} {'raw':>7}" + "".join(f" {f'{n} sims':>9}" for n in shipped["sims"]))
for suite, f in shipped["suites"].items():
    print(f"{suite:12} {f['positions']:8d} {f['raw_policy']:7.1%}" + "".join(f" {f[f'sims_{n}']:9.1%}" for n in shipped["sims"]))"""),
        md("""
## Taught by the solver alone

The ceiling of this network: the same network and heads trained on perfect play alone,
with no self-play in the loop. `python -m benchmarks.distill` labels every position of
seeded games of a mix of players (random, greedy, alpha-beta, MCTS) with the exact
solver, and `python -m benchmarks.supervised` trains a fresh network on the positions
whose value it settled (value target the solver's value, policy target uniform over the
moves keeping it). Every checkpoint was measured like the shipped network, on the same
winning positions (`--curve`); the runs' files are gathered in
`learning_supervised.json` (`--collect`). The self-play points are the shipped run (110
minutes) and the ablation's 10-minute arm with the same recipe (`solver-wdl`). Minutes are
training minutes on the same 2 cores; labelling the datasets came before (their cost is
in `benchmarks/RESULTS.md`)."""),
        code("""
supervised = json.loads((DATA / "learning_supervised.json").read_text())


def describe(run):
    t = run["training"]
    shape = t["config"]["network"]
    return f"{shape['channels']}x{shape['blocks']}, {t['dataset']['positions']:,} positions"


print(f"{'run':28} {'steps':>6} {'minutes':>8} {'middlegame raw':>15} {'critical raw':>13}  with 50 / 400 simulations")
for name, run in supervised.items():
    last = run["winning_curve"][-1]
    searched = ""
    if "winning" in run:
        w = run["winning"]["suites"]
        searched = "  " + " | ".join(f"{s}: " + " / ".join(f"{w[s][f'sims_{n}']:.1%}" for n in run["winning"]["sims"])
                                     for s in ("middlegame", "critical"))
    print(f"{describe(run):28} {last['step']:6d} {last['seconds'] / 60:8.1f} {last['raw_policy']['middlegame']:15.1%} "
          f"{last['raw_policy']['critical']:13.1%}{searched}")
fig, axes = plt.subplots(1, 2, figsize=(12, 3.8), sharey=True)
selfplay = {"shipped (self-play, 110 min)": (settings["figures"]["seconds"] / 60, shipped["suites"], "black"),
            "ablation solver-wdl (self-play)": (ablation["minutes"], ablation["arms"]["solver-wdl"], "grey")}
for ax, suite in zip(axes, ("middlegame", "critical")):
    for name, run in supervised.items():
        rows = run["winning_curve"]
        ax.plot([r["seconds"] / 60 for r in rows], [r["raw_policy"][suite] for r in rows], marker=".", label=describe(run))
    for label, (minutes, figures, colour) in selfplay.items():
        ax.scatter([minutes], [figures[suite]["raw_policy"]], marker="*", s=120, zorder=3, color=colour, label=label)
    ax.axhline(0.95, color="grey", linestyle=":", label="target 95%")
    ax.set_xscale("log"); ax.set_xlabel("training minutes (2 cores)"); ax.set_title(f"{suite}: raw policy keeps the win")
    ax.grid(alpha=0.3)
axes[0].set_ylabel("share of winning positions"); axes[1].legend(fontsize=7)
fig.tight_layout(); plt.show()"""),
        md("""
## Against Monte-Carlo tree search

`az:simulations=400` (recorded as `az:sims=400`, the budget's name when the match was
played) against `mcts:time=0.1` (UCT with random playouts, MCTS-Solver and its
root prover), and beside it the exact solver against the same opponent on the same
arrangements: a gauntlet of colour-swapped pairs on random tile arrangements, played by
`donuts-ai tournament` (the command is in the results file's config line). The solver's
score is the most any agent can score against this opponent."""),
        code("""
from donuts_ai.tournament.report import text_report
from donuts_ai.tournament.results import Results

match = Results.from_file(str(DATA / "learning_match.jsonl"))
opponent, *challengers = match.agents  # a gauntlet: the first agent against each of the others
pair_score = np.array([0, 0.5, 1, 1.5, 2]) / 2  # a pair's score of 0, 1/2, 1, 3/2 or 2 games, as a share
for agent in challengers:
    pentanomial = np.array(match.pentanomial(agent, opponent))
    pairs = pentanomial.sum()
    mean = (pentanomial * pair_score).sum() / pairs
    sd = np.sqrt((pentanomial * (pair_score - mean) ** 2).sum() / pairs)
    print(f"{agent} against {opponent}: {pairs} colour-swapped pairs, pentanomial {pentanomial.tolist()}")
    print(f"score {mean:.1%}, 95% interval [{mean - 1.96 * sd / np.sqrt(pairs):.1%}, "
          f"{mean + 1.96 * sd / np.sqrt(pairs):.1%}]")
print()
print(text_report(match))"""),
    ]
