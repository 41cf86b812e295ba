"""The cells of ``06_strength_vs_time.ipynb``: strength against thinking time (issue 12).

Its cells are added by ``build_notebooks.py``, which writes and executes it:
``python notebooks/build_notebooks.py NAME [--quick]``.

With the full settings the notebook reads ``strength_vs_time.json`` beside it, which
``python -m benchmarks.strength ... --json notebooks/strength_vs_time.json`` writes (the
matches take about an hour on one core: too long to run in a notebook); with
``DONUTS_NB_QUICK=1`` it runs a tiny version of the benchmark instead.
"""

from __future__ import annotations

NAME = "06_strength_vs_time.ipynb"
#: The benchmark's figures, read by the notebook with the full settings.
DATA = "strength_vs_time.json"


def strength_cells(md, code, setup: str) -> list:
    """The notebook's cells, made with ``build_notebooks``' ``md`` and ``code`` helpers."""
    return [
        md("""
# Strength against thinking time

Does an agent get stronger when it thinks longer? Each searching agent at `T` seconds a
move plays itself at `T/4`, for `T` = 0.1, 0.4 and 1.6 s, in colour-swapped pairs of
games on randomly drawn tile arrangements (`python -m benchmarks.strength`, through the
tournament harness). A score above 50% for the longer thinker means time helps.

How to read it: under perfect play the first player wins every tile arrangement (see
`03_who_wins.ipynb`), so two perfect players split every colour-swapped pair 1-1 and
score 50%. The closer both sides get to perfect play, the more pairs split and the
closer the score drifts back to 50%: a falling curve can mean both sides play well, not
that time stopped helping; the share of games the first player won says which.

Second figure, the **agreement** with the solver: the share of moves at 0.1 s that keep
the solver's value (a won position stays won, a drawn one drawn). MCTS is shown as built
(its root prover, the exact solver's node-limited value search, gets a fifth of each
move's budget) and with the prover off (`proof_share=0`: the tree search alone). The
figures stored with this notebook (`strength_vs_time.json`) were measured on 1000
positions of uniformly random games at ply 6 to 23 (every move valued by the exact
solver); `python -m benchmarks.strength` now measures the agreement on the `middlegame`
suite (after 9 to 20 donuts) through `donuts_ai.evaluate`, as the small run of the test
suite does.

The agreement is not the `kept %` that `donuts-ai evaluate --suite critical` prints,
though both count moves that keep the value: they are measured on other positions. A
third of these positions are lost for the side to move (there every legal move keeps the
value) and in many won ones no move throws the win away, so even greedy agrees four
times in five; the `critical` suite holds only positions, of every phase, where some
legal move throws the value away, and there every agent but the solver scores lower
(alpha-beta and MCTS at 0.1 s keep the value in about 96% and 94% of them, greedy in
64%). The how-to *Measure an agent against perfect play* (`docs/howto/evaluate.md`) says
what each of `evaluate`'s measures counts."""),
        code(setup),
        code(f"""
import json
import matplotlib.pyplot as plt
import sys
from pathlib import Path
sys.path.insert(0, str(Path(os.environ.get("DONUTS_NB_DATA", ".")).resolve().parent))  # the checkout: benchmarks/ is not installed
from benchmarks import strength

if QUICK:  # a tiny run of the benchmark itself: 1 pair per match, short times, 12 positions
    r = strength.run(["mcts", "alphabeta"], [0.02, 0.08], pairs=1, seeds=[0], n_positions=12, agreement_time=0.05,
                     results_dir=None, isolation="none")
else:  # the figures of benchmarks/RESULTS.md: python -m benchmarks.strength --json notebooks/{DATA}
    with open("{DATA}") as fh:
        r = json.load(fh)
print(strength.report({{key: value for key, value in r.items() if key != "agreement"}}))  # the agreement: below"""),
        code("""
fig, ax = plt.subplots(figsize=(7, 4))
for kind, colour in (("mcts", "tab:blue"), ("alphabeta", "tab:orange")):
    rows = [m for m in r["matches"] if m["kind"] == kind]
    if not rows:
        continue
    ts = [m["time"] for m in rows]
    scores = [m["score"] for m in rows]
    err = [[m["score"] - m["ci95"][0] for m in rows], [m["ci95"][1] - m["score"] for m in rows]]
    ax.errorbar(ts, scores, yerr=err, marker="o", capsize=4, color=colour, label=f"{kind}: T against T/4")
    ax.plot(ts, [m["first_player_wins"] for m in rows], ls=":", marker=".", color=colour,
            label=f"{kind}: share of games the first player won")
ax.axhline(0.5, color="grey", lw=0.8)
ax.set_xscale("log"); ax.set_xticks(sorted({m["time"] for m in r["matches"]}))
ax.get_xaxis().set_major_formatter(plt.ScalarFormatter())
ax.set_xlabel("T, seconds a move"); ax.set_ylabel("score per game at T (95% interval)"); ax.set_ylim(0, 1.05)
ax.legend(fontsize=8)
fig.tight_layout()
plt.show()
for m in r["matches"]:
    print(f"{m['kind']:9s} T={m['time']:<4g} score {m['score']:.1%} [{m['ci95'][0]:.1%}, {m['ci95'][1]:.1%}] "
          f"over {m['pairs']} pairs")"""),
        code("""
ag = r["agreement"]
# The stored figures predate the benchmark's move to the middlegame suite (see above).
where = f"the {strength.AGREEMENT_SUITE} suite" if QUICK else "uniformly random games at ply 6-23"
values = ag["values"]
print(f"moves keeping the solver's value: {ag['positions']} positions of {where} ({values['1']} won, {values['0']} drawn, "
      f"{values['-1']} lost for the side to move), {ag['time_limit']:g} s a move")
names = list(ag["agents"])
shares = [ag["agents"][n]["share"] for n in names]
err = [[s - ag["agents"][n]["ci95"][0] for n, s in zip(names, shares)],
       [ag["agents"][n]["ci95"][1] - s for n, s in zip(names, shares)]]
fig, ax = plt.subplots(figsize=(7, 3.5))
ax.bar(names, shares, yerr=err, capsize=4, color=["tab:orange", "tab:blue", "tab:cyan", "tab:grey"][:len(names)])
ax.axhline(0.99, color="red", lw=0.8, ls="--", label="target 99%")
ax.set_ylim(min(0.7, min(shares) - 0.05), 1.01)
ax.set_ylabel("moves keeping the solver's value (95%)")
ax.set_title(f"{ag['positions']} positions of {where}, {ag['time_limit']:g} s a move")
ax.legend()
fig.tight_layout()
plt.show()
for n in names:
    a = ag["agents"][n]
    print(f"agreement {n}: {a['kept']}/{ag['positions']} = {a['share']:.1%}")"""),
    ]
