"""Draw and label Connect Four's begin set, ``tests/data/connect_four/begin.jsonl``: 100
positions after 8 to 13 moves of random play, each labelled by Pascal Pons' ``c4solver``.

How the positions are drawn (seed :data:`SEED`, Python's :class:`random.Random`):

- the number of moves is drawn uniformly from 8 to 13;
- each move is drawn uniformly from the columns that are not full and do not win at once
  (random play that never makes a winning move, as the shared middle and end sets were
  drawn), so no position is over;
- a position where the side to move has a move that wins at once is redrawn (the rule of
  the shared sets: "the side to move has no immediate win"), and so is a position already
  drawn (the same stones, by any order of moves).

How they are labelled: all the positions piped through one process of
``c4solver -a`` (Pons' ``main.cpp``: ``-a`` prints every column's score, ``-1000`` for a full
column; no ``-w``: strong scores; no opening book: ``7x6.book`` is absent, it says so on
stderr and solves), built with ``make c4solver`` from a snapshot of
github.com/PascalPons/connect4 (AGPL: run, never copied). Each line of the output file is
``{"moves", "phase": "begin", "score", "move_scores"}`` as in ``middle.jsonl``:
``move_scores`` the seven columns' scores (``null`` for a full column, none at this depth),
``score`` their maximum.

Each position also gets Pons' difficulty class by the moves left under perfect play (his
test sets: Begin-Easy, fewer than 14 moves left; Begin-Medium, 14 to 27; Begin-Hard, 28 or
more), printed as a count, not written to the file.

    python -m benchmarks.connect_four_begin_set --pons /tmp/pons/c4solver \\
        --out tests/data/connect_four/begin.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

#: The generator's seed.
SEED = 20261206
#: Positions drawn.
COUNT = 100
#: Moves played, inclusive.
MOVES = (8, 13)
WIDTH, HEIGHT = 7, 6
#: Pons' ``analyze`` for a full column.
INVALID = -1000
#: Where the set goes.
OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "connect_four" / "begin.jsonl"


class _Grid:
    """A plain Connect Four grid (columns of stones, 0 or 1), enough to draw positions."""

    def __init__(self) -> None:
        self.columns: list[list[int]] = [[] for _ in range(WIDTH)]
        self.moves = 0

    def playable(self, column: int) -> bool:
        return len(self.columns[column]) < HEIGHT

    def wins(self, column: int) -> bool:
        """Whether the side to move makes four in a row by dropping a stone in ``column``."""
        player, x, y = self.moves % 2, column, len(self.columns[column])

        def stone(cx: int, cy: int) -> int | None:
            if 0 <= cx < WIDTH and 0 <= cy < len(self.columns[cx]):
                return self.columns[cx][cy]
            return None

        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                cx, cy = x + sign * dx, y + sign * dy
                while stone(cx, cy) == player:
                    run += 1
                    cx, cy = cx + sign * dx, cy + sign * dy
            if run >= 4:
                return True
        return False

    def play(self, column: int) -> None:
        self.columns[column].append(self.moves % 2)
        self.moves += 1

    def key(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(c) for c in self.columns)


def draw(count: int = COUNT, seed: int = SEED) -> list[str]:
    """``count`` positions as Pons' digit strings, drawn by the rules of the docstring."""
    rng = random.Random(seed)
    out: list[str] = []
    seen: set[tuple[tuple[int, ...], ...]] = set()
    while len(out) < count:
        length = rng.randint(*MOVES)
        grid, moves = _Grid(), list[int]()
        while len(moves) < length:
            choices = [c for c in range(WIDTH) if grid.playable(c) and not grid.wins(c)]
            column = rng.choice(choices)
            grid.play(column)
            moves.append(column)
        if any(grid.playable(c) and grid.wins(c) for c in range(WIDTH)) or grid.key() in seen:
            continue
        seen.add(grid.key())
        out.append("".join(str(c + 1) for c in moves))
    return out


def moves_left(moves: int, score: int) -> int:
    """Moves left under perfect play from a position after ``moves`` moves with ``score``
    for the side to move (Pons' convention)."""
    if score == 0:
        return WIDTH * HEIGHT - moves
    winner_first = (moves % 2 == 0) == (score > 0)  # the side to move wins and moved first, or ...
    stones = 22 - abs(score)  # the winner's stones at the end
    return (2 * stones - 1 if winner_first else 2 * stones) - moves


def difficulty(left: int) -> str:
    return "Begin-Easy" if left < 14 else "Begin-Medium" if left < 28 else "Begin-Hard"


def label(positions: list[str], binary: str) -> list[dict[str, object]]:
    """Every position through one ``c4solver -a`` process: its rows for the file."""
    text = "".join(p + "\n" for p in positions)
    done = subprocess.run([binary, "-a"], input=text, capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    if len(lines) != len(positions):
        raise RuntimeError(f"{binary} -a answered {len(lines)} lines for {len(positions)} positions")
    rows = []
    for position, line in zip(positions, lines, strict=True):
        fields = line.split()
        if fields[0] != position or len(fields) != 1 + WIDTH:
            raise RuntimeError(f"{binary} -a: unexpected line {line!r} for {position}")
        scores = [None if int(f) == INVALID else int(f) for f in fields[1:]]
        rows.append({"moves": position, "phase": "begin", "score": max(s for s in scores if s is not None),
                     "move_scores": scores})
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.connect_four_begin_set", description=__doc__.splitlines()[0])
    parser.add_argument("--pons", metavar="PATH", required=True, help="Pons' c4solver")
    parser.add_argument("--count", type=int, default=COUNT, help=f"positions (default {COUNT})")
    parser.add_argument("--seed", type=int, default=SEED, help=f"the generator's seed (default {SEED})")
    parser.add_argument("--out", type=Path, default=OUT, help="the JSON-lines file written")
    args = parser.parse_args(argv)
    positions = draw(args.count, args.seed)
    start = time.perf_counter()
    rows = label(positions, args.pons)
    seconds = time.perf_counter() - start
    args.out.write_text("".join(json.dumps(row) + "\n" for row in rows))
    classes = Counter(difficulty(moves_left(len(str(r["moves"])), int(str(r["score"])))) for r in rows)
    outcomes = Counter("win" if int(str(r["score"])) > 0 else "draw" if r["score"] == 0 else "loss" for r in rows)
    print(f"{len(rows)} positions (seed {args.seed}) labelled by {args.pons} -a in {seconds:.1f} s -> {args.out}")
    print("for the side to move: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    print("Pons' classes by moves left: " + ", ".join(f"{k} {v}" for k, v in sorted(classes.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
