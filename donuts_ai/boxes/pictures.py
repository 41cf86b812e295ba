"""Text and SVG pictures of a Donut Boxes layout, drawn from plain data.

Both take the placed cards as ``[owner, type, rot, r, c, roll flavour]`` rows (the
``"cards"`` of a state dict) and the frozen quadrants as ``[r, c, winner]`` rows (its
``"frozen"``: ``winner`` the player the delivered box scored for, ``None`` for nobody).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import TypeAlias

from .deck import LETTERS, QUADRANTS, ROLL, ROTATED_FACES

NEUTRAL = -1
CELL = 30  # SVG pixels per quadrant
MARGIN = 24
FLAVOUR_FILL = {1: "#7b4a2d", 2: "#f29cbc", 3: "#e0b25c", 4: "#5d8fd6"}
FLAVOUR_RING = {1: "#4a2a18", 2: "#c4607f", 3: "#a77a2a", 4: "#2f5f9e"}
#: Outline colour of each player's cards (index = player); the start card is drawn in grey.
PLAYER_COLORS = ("#d62828", "#1d7a3a", "#6a3fb5", "#e07b00", "#0a8fa8", "#b5179e", "#6b6b00", "#3a3a3a",
                  "#c2185b", "#2e5cb8")
NEUTRAL_COLOR = "#9a9a9a"
#: Wash over a delivered box that scored for nobody.
NOBODY_WASH = "#555555"

#: ``{(r, c): (flavour, roll, owner, frozen)}`` of every placed quadrant (:func:`layout_cells`).
LayoutCells: TypeAlias = dict[tuple[int, int], tuple[int, bool, int, bool]]


def player_color(player: int) -> str:
    """The colour a player's cards and boxes are drawn in.

    Args:
        player: 0 .. players - 1.

    Returns:
        An SVG colour.
    """
    return PLAYER_COLORS[player % len(PLAYER_COLORS)]


def layout_cells(cards: Iterable[Sequence[int]], frozen: Iterable[Sequence[int | None]]) -> LayoutCells:
    """Every placed quadrant of a layout.

    Args:
        cards: the state dict's ``cards`` rows.
        frozen: the state dict's ``frozen`` rows.

    Returns:
        ``{(r, c): (flavour, roll, owner, frozen)}``.
    """
    frozen_at = {(row[0], row[1]) for row in frozen}
    cells: LayoutCells = {}
    for owner, card_type, rot, r, c, flavour in cards:
        for code, (dr, dc) in zip(ROTATED_FACES[card_type, rot], QUADRANTS, strict=True):
            pos = (r + dr, c + dc)
            roll = int(code) == ROLL
            cells[pos] = (flavour if roll else int(code), roll, owner, pos in frozen_at)
    return cells


def cell_text(flavour: int, roll: bool, owner: int, frozen: bool) -> str:
    """A quadrant as three characters: the flavour letter (lower case for a Cinnamon Roll), the
    owner (a digit, ``.`` for the start card) and ``*`` for a quadrant of a delivered box.

    Args:
        flavour: 1..4.
        roll: a Cinnamon Roll.
        owner: the player, or -1 for the start card.
        frozen: in a delivered box.

    Returns:
        The three characters.
    """
    letter = LETTERS[flavour].lower() if roll else LETTERS[flavour]
    return letter + ("." if owner == NEUTRAL else str(owner)) + ("*" if frozen else " ")


def layout_text(cards: Iterable[Sequence[int]], frozen: Iterable[Sequence[int | None]]) -> str:
    """The layout as text: one 3-character cell per quadrant (:func:`cell_text`), ``_`` on
    empty positions, row and column numbers on the edges.

    Args:
        cards: the state dict's ``cards`` rows.
        frozen: the state dict's ``frozen`` rows.

    Returns:
        The text.
    """
    cells = layout_cells(cards, frozen)
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    lo_r, hi_r, lo_c, hi_c = min(rows), max(rows), min(cols), max(cols)
    lines = ["     " + "".join(f"{c:<3}" for c in range(lo_c, hi_c + 1)).rstrip()]
    lines += [f"{r:>4} " + _row(cells, r, lo_c, hi_c) for r in range(lo_r, hi_r + 1)]
    return "\n".join(lines)


def _row(cells: LayoutCells, r: int, lo_c: int, hi_c: int) -> str:
    out = []
    for c in range(lo_c, hi_c + 1):
        out.append(cell_text(*cells[(r, c)]) if (r, c) in cells else " _ ")
    return "".join(out).rstrip()


def layout_svg(cards: Sequence[Sequence[int]], frozen: Sequence[Sequence[int | None]], size: int | None = None) -> str:
    """An SVG of the layout: each quadrant a donut of its flavour (a Cinnamon Roll with a
    white swirl), each card outlined in its owner's colour, each delivered box washed over
    in the colour of the player it scored for, grey when it scored for nobody.

    Args:
        cards: the state dict's ``cards`` rows.
        frozen: the state dict's ``frozen`` rows.
        size: the picture's width in pixels (``None``: from the layout's size).

    Returns:
        The SVG text.
    """
    winners = {(row[0], row[1]): row[2] for row in frozen}
    cells = layout_cells(cards, frozen)
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    lo_r, lo_c = min(rows), min(cols)
    width = 2 * MARGIN + (max(cols) - lo_c + 1) * CELL
    height = 2 * MARGIN + (max(rows) - lo_r + 1) * CELL
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="{size or width}" height="{(size or width) * height // width}">',
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fbf6ee"/>']

    def corner(r: int, c: int) -> tuple[int, int]:
        return MARGIN + (c - lo_c) * CELL, MARGIN + (r - lo_r) * CELL

    for (r, c), (flavour, roll, _owner, is_frozen) in sorted(cells.items()):
        x, y = corner(r, c)
        cx, cy = x + CELL / 2, y + CELL / 2
        out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#f3e6d3"/>')
        out.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.4:.1f}" fill="{FLAVOUR_FILL[flavour]}" '
                   f'stroke="{FLAVOUR_RING[flavour]}" stroke-width="2"/>')
        if roll:
            out.append(f'<path d="M{cx} {cy} m-2 0 a2 2 0 1 1 4 0 a4 4 0 1 1 -8 0 a6 6 0 1 1 12 0" '
                       f'fill="none" stroke="#ffffff" stroke-width="1.6"/>')
        else:
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.12:.1f}" fill="#f3e6d3"/>')
        if is_frozen:
            winner = winners[(r, c)]
            wash = NOBODY_WASH if winner is None else player_color(winner)
            out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{wash}" opacity="0.5">'
                       f'<title>{escape(_box_title(winner))}</title></rect>')
    for owner, _type, _rot, r, c, _flavour in cards:
        x, y = corner(r, c)
        color = NEUTRAL_COLOR if owner == NEUTRAL else player_color(owner)
        out.append(f'<rect x="{x + 1.5}" y="{y + 1.5}" width="{2 * CELL - 3}" height="{2 * CELL - 3}" rx="4" '
                   f'fill="none" stroke="{color}" stroke-width="3"><title>{escape(_title(owner))}</title></rect>')
    out.append("</svg>")
    return "\n".join(out)


def _box_title(winner: int | None) -> str:
    return "box for nobody" if winner is None else f"box for player {winner}"


def _title(owner: int) -> str:
    return "start card" if owner == NEUTRAL else f"player {owner}"
