"""Connect Four agents' strength on labelled positions: on each of the 200 middle positions
of ``tests/data/connect_four/middle.jsonl`` (labelled by Pascal Pons' solver: the score and
every move's score), each agent chooses a move, and the move *keeps the value* when its
labelled score has the sign of the position's score (a win stays a win, a draw a draw).

In a lost position every move keeps the value (all lose), so lost positions say nothing of
an agent: they are left out of the share and counted apart. The share kept is over the won
and drawn positions together, then over each alone, each with its 95% Wilson interval.

The agents (``--agents``, specs of :func:`donuts_ai.tournament.make_agent` on
``connect-four``; default ``mcts:time=0.1`` and ``alphabeta:time=0.1``: a tenth of a second
a move, so the figures depend on the machine and its load) are built afresh for each
position with the seed ``--seed`` + the position's index (0..199), so a run is reproducible
as far as time-limited searches are. The load average is read before and after each agent
and printed; run it on an otherwise idle machine.

    python -m benchmarks.connect_four_strength --json benchmarks/records/connect-four-strength.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from donuts_ai.connect_four import ConnectFourState
from donuts_ai.suites.report import wilson
from donuts_ai.tournament import make_agent

#: The labelled positions.
MIDDLE = Path(__file__).resolve().parent.parent / "tests" / "data" / "connect_four" / "middle.jsonl"
#: The agents compared.
AGENTS = ("mcts:time=0.1", "alphabeta:time=0.1")
#: The first seed (position ``i`` uses ``SEED + i``).
SEED = 1
#: Column letters, left to right (the agents' moves), as Pons' digits 1..7 index ``move_scores``.
COLUMNS = "abcdefg"


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def kind(score: int) -> str:
    return "win" if score > 0 else "draw" if score == 0 else "loss"


def load() -> float:
    return os.getloadavg()[0]


def evaluate(spec: str, rows: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    """``spec``'s move on every row: the counts kept by kind, the moves, the seconds."""
    kept = {"win": 0, "draw": 0, "loss": 0}
    total = {"win": 0, "draw": 0, "loss": 0}
    moves, seconds = [], 0.0
    load_before = load()
    for i, row in enumerate(rows):
        agent = make_agent(spec, seed + i, game="connect-four")
        board = ConnectFourState.from_moves(row["moves"])
        start = time.perf_counter()
        move = agent.select_move(board)
        seconds += time.perf_counter() - start
        move_score = row["move_scores"][COLUMNS.index(move)]
        if move_score is None:
            raise RuntimeError(f"{spec} played {move} into a full column in {row['moves']}")
        k = kind(row["score"])
        total[k] += 1
        kept[k] += sign(move_score) == sign(row["score"])
        moves.append(move)
    return {"agent": spec, "kept": kept, "positions": total, "moves": moves, "mean_seconds": seconds / len(rows),
            "load_before": load_before, "load_after": load(), "seeds": [seed, seed + len(rows) - 1]}


def share_text(k: int, n: int) -> str:
    low, high = wilson(k, n)
    return f"{k}/{n} = {k / n:.1%} [{low:.1%}, {high:.1%}]" if n else "-"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.connect_four_strength", description=__doc__.splitlines()[0])
    parser.add_argument("--agents", nargs="+", default=list(AGENTS), metavar="SPEC", help="agent specs on connect-four")
    parser.add_argument("--seed", type=int, default=SEED, help=f"the first seed (default {SEED})")
    parser.add_argument("--json", type=Path, metavar="PATH", help="write the results as JSON")
    args = parser.parse_args(argv)
    rows = [json.loads(line) for line in MIDDLE.read_text().splitlines() if line.strip()]
    results = []
    for spec in args.agents:
        print(f"{spec} on {len(rows)} middle positions ...", file=sys.stderr, flush=True)
        results.append(evaluate(spec, rows, args.seed))
    counts = results[0]["positions"] if results else {}
    print(f"{len(rows)} middle positions ({MIDDLE.name}): {counts.get('win')} won, {counts.get('draw')} drawn, "
          f"{counts.get('loss')} lost for the side to move; lost ones left out (any move keeps a loss). "
          f"Seeds {args.seed}..{args.seed + len(rows) - 1} (one a position), {os.cpu_count()} cores.")
    print(f"{'agent':22s} {'kept, won+drawn':>28s} {'kept, won':>28s} {'kept, drawn':>28s} {'s a move':>9s} "
          f"{'load before/after':>18s}")
    for r in results:
        kept, total = r["kept"], r["positions"]
        both = share_text(kept["win"] + kept["draw"], total["win"] + total["draw"])
        print(f"{r['agent']:22s} {both:>28s} {share_text(kept['win'], total['win']):>28s} "
              f"{share_text(kept['draw'], total['draw']):>28s} {r['mean_seconds']:9.3f} "
              f"{r['load_before']:8.2f}/{r['load_after']:<8.2f}")
        r["share_kept"] = {"won_and_drawn": [(kept["win"] + kept["draw"]) / (total["win"] + total["draw"]),
                                             *wilson(kept["win"] + kept["draw"], total["win"] + total["draw"])],
                           "won": [kept["win"] / total["win"], *wilson(kept["win"], total["win"])] if total["win"] else None,
                           "drawn": [kept["draw"] / total["draw"], *wilson(kept["draw"], total["draw"])]
                           if total["draw"] else None}
    if args.json:
        import platform

        from donuts_ai.bench.record import library_metadata
        from donuts_ai.bench.reporting import write_json

        write_json(args.json, {"positions": str(MIDDLE.relative_to(MIDDLE.parents[3])), "seed": args.seed,
                               "cores": os.cpu_count(), "machine": platform.platform(),
                               "processor": platform.processor() or platform.machine(),
                               "date": time.strftime("%Y-%m-%d"), **library_metadata(), "results": results})
    return 0


if __name__ == "__main__":
    sys.exit(main())
