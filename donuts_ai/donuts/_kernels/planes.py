"""The observation planes, named once, in this order. One kernel writes them
(``_write_planes`` in :mod:`.batch`, from one view, :func:`.batch.observer_view`)
for the batched environment, the learner and the Python layer's planes
(``donuts_ai/interop/_planes.py``, for PettingZoo and OpenSpiel). What each plane holds
is drawn in ``donuts_ai/interop/_planes.py``.
"""

from __future__ import annotations

#: Printed line directions (``-``, ``|``, ``/``, ``\\``): four one-hot planes.
NUM_DIRECTIONS = 4
#: Plane indices: the observer's donuts, the opponent's, the forced line's empty squares,
#: the last square, the printed lines (one-hot, ``LINE_DIRECTIONS + d``), all ones on an
#: open pick, the two pools left (fractions), all ones when the observer is to move, all
#: ones when the observer plays Vanilla.
OWN, OPPONENT, FORCED_LINE, LAST, LINE_DIRECTIONS = 0, 1, 2, 3, 4
OPEN_PICK = LINE_DIRECTIONS + NUM_DIRECTIONS
OWN_POOL, OPPONENT_POOL, TO_MOVE, VANILLA = OPEN_PICK + 1, OPEN_PICK + 2, OPEN_PICK + 3, OPEN_PICK + 4
#: Planes of one observation.
NUM_PLANES = VANILLA + 1
#: Names of the planes, in order.
PLANE_NAMES = (
    "own", "opponent", "forced line", "last", "line -", "line |", "line /", "line \\",
    "open pick", "own pool", "opponent pool", "to move", "vanilla",
)
