"""MkDocs hooks of the documentation site: the rules page's diagrams, drawn at build time.

Every diagram is a position of the pure-Python reference rules (:mod:`donuts_ai.donuts.reference`,
no compiled code) drawn by :func:`donuts_ai.donuts.svg.board_svg`, the picture a Board shows in
Jupyter: so the pictures follow the rules and the drawing as they are, and nothing drawn
is committed. The worked examples are those of ``tests/donuts/test_rules_examples.py``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from donuts_ai.donuts.layout import Layout  # noqa: E402
from donuts_ai.donuts.reference import ReferenceGame  # noqa: E402
from donuts_ai.donuts.rules import Rules  # noqa: E402
from donuts_ai.donuts.squares import SQUARE_NAMES  # noqa: E402
from donuts_ai.donuts.svg import board_svg  # noqa: E402

DIAGRAM_DIR = "diagrams"
PICTURE_SIZE = 260
#: Every square shows "-" in the worked examples, so the line through a square is its rank.
ALL_HORIZONTAL = "\n".join(["------"] * 6)


def picture(game: ReferenceGame, show_legal: bool = True) -> str:
    bitboards = tuple(sum(1 << sq for sq, cell in enumerate(game.cells) if cell == color) for color in (0, 1))
    legal = sum(1 << sq for sq in game.legal_moves()) if show_legal and not game.over else 0
    return board_svg(game.layout.directions, bitboards, game.last, legal, size=PICTURE_SIZE)


def from_diagram(diagram: str, last: str, layout: Layout | None = None) -> ReferenceGame:
    """A reference game from 6 rows of ``c``/``v``/``.`` (rank 6 first), Chocolate to move."""
    rows = [row.strip() for row in diagram.strip().splitlines()]
    cells = [None] * 36
    for i, row in enumerate(rows):
        for file, symbol in enumerate(row):
            cells[(5 - i) * 6 + file] = {"c": 0, "v": 1, ".": None}[symbol]
    layout = layout or Layout.from_text(ALL_HORIZONTAL)
    placed = (cells.count(0), cells.count(1))
    return ReferenceGame.from_state(layout, Rules(), cells, 0, SQUARE_NAMES.index(last), placed)


def played(game: ReferenceGame, *moves: str) -> ReferenceGame:
    for move in moves:
        game.play(SQUARE_NAMES.index(move))
    return game


def before_after(name: str, diagram: str, last: str, move: str) -> dict[str, str]:
    game = from_diagram(diagram, last)
    before = picture(game)
    return {f"{name}-before": before, f"{name}-after": picture(played(game, move))}


def largest_group_ending(seed: int = 3) -> ReferenceGame:
    """A random game on the standard layout that ends with both pools empty, no five."""
    while True:
        rng = random.Random(seed)
        game = ReferenceGame(Layout.standard())
        while not game.over:
            game.play(rng.choice(game.legal_moves()))
        if game.reason == "largest group":
            return game
        seed += 1


def diagrams() -> dict[str, str]:
    standard = Layout.standard()
    pictures = {
        "standard-layout": picture(ReferenceGame(standard), show_legal=False),
        "line-rule-1": picture(played(ReferenceGame(standard), "c3")),
        "line-rule-2": picture(played(ReferenceGame(standard), "c3", "d3")),
        "largest-group": picture(largest_group_ending()),
    }
    pictures |= before_after("single-insertion", """
        ......
        ......
        ......
        ......
        ......
        .v.v..""", last="b1", move="c1")
    pictures |= before_after("group-insertion", """
        ......
        ......
        ......
        ......
        ......
        vcc.v.""", last="e1", move="d1")
    pictures |= before_after("two-axes", """
        ......
        ......
        ..v...
        .v.v..
        ..v...
        ......""", last="b3", move="c3")
    pictures |= before_after("no-surround", """
        ......
        ......
        ......
        ......
        ......
        cvv...""", last="c1", move="d1")
    return pictures


def on_files(files: Files, config) -> Files:
    for name, svg in diagrams().items():
        files.append(File.generated(config, f"{DIAGRAM_DIR}/{name}.svg", content=svg))
    return files
