"""A board as an RGB image (``uint8[H, W, 3]``), for video recorders and ``render_mode="rgb_array"``.

The same picture as :func:`donuts_ai.donuts.svg.board_svg` (the printed lines, the donuts,
the last one ringed, the legal squares dotted), drawn with NumPy alone so that no image
library is needed: every shape is a mask over the pixel grid.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from .squares import DIRECTION_VECTORS, SIZE, square_file, square_rank

#: Pixels along one square's side, and around the board.
CELL, MARGIN = 48, 8
#: The colours (RGB) of the picture, those of the SVG.
BACKGROUND, SQUARE, GRID, LINE = (251, 246, 238), (243, 230, 211), (201, 183, 156), (156, 133, 101)
DONUT_FILL = ((107, 62, 38), (246, 231, 185))  # Chocolate, Vanilla
DONUT_EDGE = ((61, 35, 22), (180, 154, 90))
LAST_RING, LEGAL_DOT = (214, 40, 40), (42, 157, 143)
#: Shapes as shares of a square's side: the printed line's half length and width, the donut's
#: radius and hole, the ring's width, the legal dot's radius.
LINE_HALF, LINE_WIDTH, DONUT_RADIUS, HOLE_RADIUS, RING_WIDTH, DOT_RADIUS = 0.38, 0.06, 0.4, 0.12, 0.08, 0.09


def board_rgb(directions: Sequence[int], bitboards: tuple[int, int] = (0, 0), last: int | None = None,
              legal: int = 0) -> NDArray[np.uint8]:
    """The board as pixels, rank 6 at the top, file a at the left.

    Args:
        directions: the layout's 36 line directions.
        bitboards: the donuts of both colours.
        last: the square placed last, ringed.
        legal: the legal squares (a bitboard), dotted.

    Returns:
        ``uint8[H, W, 3]`` (H = W = 6 squares of :data:`CELL` pixels plus margins).
    """
    total = 2 * MARGIN + SIZE * CELL
    image = np.empty((total, total, 3), dtype=np.uint8)
    image[:] = BACKGROUND
    # Pixel centres relative to a square's centre, in shares of its side.
    offsets = (np.arange(CELL) + 0.5) / CELL - 0.5
    u = offsets[np.newaxis, :]   # across, to the right
    v = -offsets[:, np.newaxis]  # up the board (image rows grow downwards)
    radius = np.hypot(u, v)
    for sq in range(SIZE * SIZE):
        top = MARGIN + (SIZE - 1 - square_rank(sq)) * CELL
        left = MARGIN + square_file(sq) * CELL
        cell = image[top : top + CELL, left : left + CELL]
        cell[:] = SQUARE
        cell[[0, -1], :] = GRID
        cell[:, [0, -1]] = GRID
        dx, dy = DIRECTION_VECTORS[directions[sq]]
        length = float(np.hypot(dx, dy))
        along = (u * dx + v * dy) / length
        across = np.abs(u * dy - v * dx) / length
        cell[(np.abs(along) <= LINE_HALF) & (across <= LINE_WIDTH / 2)] = LINE
        color = 0 if bitboards[0] >> sq & 1 else 1 if bitboards[1] >> sq & 1 else None
        if color is not None:
            edge = LAST_RING if sq == last else DONUT_EDGE[color]
            ring = RING_WIDTH if sq == last else RING_WIDTH / 2
            cell[radius <= DONUT_RADIUS] = edge
            cell[radius <= DONUT_RADIUS - ring] = DONUT_FILL[color]
            cell[radius <= HOLE_RADIUS] = SQUARE
        elif legal >> sq & 1:
            cell[radius <= DOT_RADIUS] = LEGAL_DOT
    return image


__all__ = ["CELL", "MARGIN", "board_rgb"]
