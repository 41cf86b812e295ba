"""The ``donuts-ai`` command line.

Errors print one line to stderr (``donuts-ai: error: ...``) and exit with status 2.
"""

from __future__ import annotations

import argparse
import random
import sys

from .board import Board
from .errors import DonutsError
from .layout import Layout
from .rules import Rules
from .squares import COLOR_NAMES


def _layout_arg(text: str) -> Layout:
    """``standard``, ``random`` / ``random:SEED`` (tile arrangement), ``grid:SEED``, or a file of layout text."""
    if text == "standard":
        return Layout.standard()
    kind, _, seed = text.partition(":")
    if kind in ("random", "grid"):
        try:
            value = int(seed) if seed else None
        except ValueError:
            raise argparse.ArgumentTypeError(f"bad seed in layout {text!r}") from None
        return Layout.random(value) if kind == "random" else Layout.random_grid(value)
    try:
        with open(text, encoding="utf-8") as fh:
            return Layout.from_text(fh.read())
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"cannot read layout file {text!r}: {exc.strerror}") from None
    except DonutsError as exc:
        raise argparse.ArgumentTypeError(f"layout file {text!r}: {exc}") from None


def _cmd_demo(args: argparse.Namespace) -> int:
    """A game between two uniformly random players, printed move by move."""
    rng = random.Random(args.seed)
    board = Board(args.layout, Rules(insertion=args.insertion, donuts=args.donuts))
    print(f"Donuts demo: two random players, seed {args.seed}")
    print(board)
    while not board.is_game_over():
        mover = board.turn
        open_pick = board.is_open_pick()
        move = rng.choice(board.legal_moves())
        flipped = board.push(move)
        note = " (open pick)" if open_pick and board.ply > 1 else ""
        flips = f", flips {' '.join(flipped)}" if flipped else ""
        print(f"{board.ply:2d}. {COLOR_NAMES[mover]:9s} {move}{note}{flips}")
    print()
    print(board)
    outcome = board.outcome()
    who = "draw" if outcome.winner is None else f"{COLOR_NAMES[outcome.winner]} wins"
    scores = f" {outcome.scores[0]}-{outcome.scores[1]}" if outcome.scores else ""
    print(f"Result: {outcome.result()} — {who} by {outcome.reason}{scores} after {board.ply} moves")
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump): ``donuts-ai: error: ...``, exit 2."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"donuts-ai: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="donuts-ai", description="Play, search and study the board game Donuts.")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="a game between two random players, printed move by move")
    demo.add_argument("--seed", type=int, default=1, help="seed of the random players (default 1)")
    demo.add_argument(
        "--layout", type=_layout_arg, default=Layout.standard(), help="standard, random[:SEED], grid[:SEED] or a layout file"
    )
    demo.add_argument("--insertion", choices=("group", "single"), default="group")
    demo.add_argument("--donuts", type=int, default=15, help="donuts per player (default 15)")
    demo.set_defaults(func=_cmd_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except DonutsError as exc:
        parser.exit(2, f"donuts-ai: error: {exc}\n")
    except KeyboardInterrupt:
        parser.exit(130, "donuts-ai: interrupted\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
