"""Regenerate tests/data/perft.json with the pure-Python reference (slow: minutes).

    python tests/data/make_perft.py [max_depth]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from donuts_ai import Layout, Rules
from donuts_ai.donuts.reference import ReferenceGame, perft

CASES = [
    ("standard", Layout.standard(), Rules()),
    ("random(7)", Layout.random(7), Rules()),
    ("random_grid(11)", Layout.random_grid(11), Rules()),
    ("standard single", Layout.standard(), Rules(insertion="single")),
    ("random_grid(5) donuts=3", Layout.random_grid(5), Rules(donuts=3)),
]


def main() -> None:
    max_depth = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    out = []
    for name, layout, rules in CASES:
        counts = []
        for depth in range(1, max_depth + 1):
            t = time.time()
            counts.append(perft(ReferenceGame(layout, rules), depth))
            print(name, depth, counts[-1], f"{time.time() - t:.1f}s", flush=True)
        out.append(
            {"name": name, "layout": layout.to_text(), "insertion": rules.insertion, "donuts": rules.donuts, "perft": counts}
        )
    path = Path(__file__).with_name("perft.json")
    path.write_text(json.dumps({"generated_by": "donuts_ai.donuts.reference.perft", "cases": out}, indent=1) + "\n")


if __name__ == "__main__":
    main()
