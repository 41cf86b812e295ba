"""Connect Four's rules, stated once: a board of :data:`WIDTH` columns by :data:`HEIGHT`
rows, stones dropped into a column fall to its lowest empty cell, the players alternate,
and whoever first has :data:`IN_A_ROW` stones in a line (a row, a column or a diagonal)
wins; a full board with no such line is a draw.

Connect Four has no variants: there is nothing to choose, and every kernel takes
:data:`RULES` (``0``) as its ``rules`` argument, which the engine ignores (every game's
kernels take a rules code first, so one compiled search runs on any game).
"""

from __future__ import annotations

#: Columns (files ``a``..``g``).
WIDTH = 7
#: Rows (cells in a column).
HEIGHT = 6
#: Stones in a line that win.
IN_A_ROW = 4
#: The rules code every kernel takes: Connect Four has no variants, so it is always 0.
RULES = 0

__all__ = ["HEIGHT", "IN_A_ROW", "RULES", "WIDTH"]
