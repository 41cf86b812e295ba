"""SVG pictures of layouts and boards, for Jupyter (``_repr_svg_``) and reports.

Drawn from plain data (directions and bitboards), so this module depends on
:mod:`.squares` only and :class:`~donuts_ai.Board` and :class:`~donuts_ai.Layout` can
import it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .squares import DIRECTION_VECTORS, FILE_NAMES, SIZE, square_file, square_rank

CELL = 48
MARGIN = 20
_DONUT = {0: ("#6b3e26", "#3d2316"), 1: ("#f6e7b9", "#b49a5a")}  # (fill, outline)


def board_svg(directions: Sequence[int], bitboards: tuple[int, int] = (0, 0), last: int | None = None, legal: int = 0,
              size: int | None = None) -> str:
    """An SVG of a layout and, if given, the donuts of both colours. Each square shows its
    printed line; the last placed donut is ringed in red and the legal squares for the side to
    move carry a small dot.

    Args:
        directions: the layout's 36 line directions.
        bitboards: the donuts of both colours.
        last: the square placed last.
        legal: the legal squares (a bitboard).
        size: the picture's width in pixels (default: the natural size).
    """
    total = 2 * MARGIN + SIZE * CELL
    width = size or total
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {total} {total}" width="{width}" height="{width}">',
        f'<rect x="0" y="0" width="{total}" height="{total}" fill="#fbf6ee"/>',
    ]
    b0, b1 = bitboards

    def corner(sq: int) -> tuple[int, int]:
        return MARGIN + square_file(sq) * CELL, MARGIN + (SIZE - 1 - square_rank(sq)) * CELL

    for sq in range(SIZE * SIZE):
        x, y = corner(sq)
        cx, cy = x + CELL / 2, y + CELL / 2
        out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#f3e6d3" stroke="#c9b79c"/>')
        dx, dy = DIRECTION_VECTORS[directions[sq]]
        half = CELL * 0.38
        # Screen y grows downwards, board ranks upwards: flip dy.
        out.append(
            f'<line x1="{cx - dx * half:.1f}" y1="{cy + dy * half:.1f}" x2="{cx + dx * half:.1f}" '
            f'y2="{cy - dy * half:.1f}" stroke="#9c8565" stroke-width="3" stroke-linecap="round"/>'
        )
        color = 0 if b0 >> sq & 1 else 1 if b1 >> sq & 1 else None
        if color is not None:
            fill, edge = _DONUT[color]
            ring = ' stroke="#d62828" stroke-width="4"' if sq == last else f' stroke="{edge}" stroke-width="2"'
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.4:.1f}" fill="{fill}"{ring}/>')
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.12:.1f}" fill="#f3e6d3" stroke="{edge}"/>')
        elif legal >> sq & 1:
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.09:.1f}" fill="#2a9d8f" opacity="0.8"/>')
    for i in range(SIZE):
        fx = MARGIN + i * CELL + CELL / 2
        out.append(f'<text x="{fx}" y="{total - 5}" font-size="12" text-anchor="middle" font-family="sans-serif">{FILE_NAMES[i]}</text>')
        ry = MARGIN + (SIZE - 1 - i) * CELL + CELL / 2 + 4
        out.append(f'<text x="{MARGIN / 2}" y="{ry}" font-size="12" text-anchor="middle" font-family="sans-serif">{i + 1}</text>')
    out.append("</svg>")
    return "\n".join(out)
