"""The compiled Donut Boxes engine (private): the rules on plain arrays, in Numba.

A state is a :class:`Tables` record of fixed-size arrays plus the layout ``grid``, kept
beside it because it is the one array that grows. Kernels take ``(t, grid)`` and the
move's or the query's scalars; the Python layer (:mod:`..state`, :mod:`.._state.engine`) owns
parsing, checking and errors, and these kernels never raise and trust their input.

The files, in the order they build on each other:

``tables``     the state record, its layout drawn once, the shared constants
``grid``       the torus grid, position keys, free anchors, growing the grid
``runs``       union-find runs, closed runs, delivering and scoring one
``placement``  the matching rule, the roll's flavour, laying a card, sealing runs
``turns``      trays and piles, :func:`apply_move`, the end of a turn and of the game
``legal``      legal moves listed, checked and drawn at random
``playouts``   a new deal, a state rebuilt from its cells, random games to the end

The names below are what the rest of :mod:`donuts_ai.boxes` uses (and its tests).
"""

from ..moves import BOX, COORD_OFFSET, COORD_SPAN, KIND_SHIFT
from .grid import MIN_WBITS, cell_at
from .legal import is_legal, legal_codes, random_move, sample_random_moves, seeded_random_move
from .playouts import random_games, random_playouts, rebuild, start_game
from .runs import run_majority, run_points, run_root
from .tables import (
    CELL_DTYPE,
    META_DTYPE,
    MIN_BOX,
    NOBODY,
    PAYLOAD_MASK,
    PILE_CAP,
    PILE_MASK,
    PINFO_DTYPE,
    Tables,
    copy_into,
    copy_tables,
    empty_tables,
)
from .turns import apply_move

__all__ = [
    "BOX", "CELL_DTYPE", "COORD_OFFSET", "COORD_SPAN", "KIND_SHIFT", "META_DTYPE", "MIN_BOX", "MIN_WBITS", "NOBODY",
    "PAYLOAD_MASK", "PILE_CAP", "PILE_MASK", "PINFO_DTYPE", "Tables", "cell_at", "run_root", "run_majority", "run_points",
    "apply_move", "copy_into", "copy_tables", "empty_tables", "is_legal", "legal_codes", "random_games",
    "random_move", "random_playouts", "rebuild", "sample_random_moves", "seeded_random_move", "start_game",
]
