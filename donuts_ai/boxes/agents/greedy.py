"""The greedy Donut Boxes agent: the best immediate score, with a box-early rule, and
:func:`greedy_order`, its ranking of the legal moves (the ISMCTS agent's prior too)."""

from __future__ import annotations

import random

import numpy as np
from numpy.typing import NDArray

from ..._checks import check_int as _check_int
from .. import _kernels as E
from .._kernels.tables import Codes
from ..state import BoxesState
from ._search import CARD_QUADRANTS, V_BOX_LEAD, V_BOX_POINTS, V_OTHERS, V_OWN, V_POTENTIAL, move_values
from .boxes_agent import BoxesAgent, BoxesAgentError, _scratch, _world_arrays, warm_up

#: Default least points a run must be worth for :class:`GreedyAgent` to box it early. Against
#: greedy players boxing from 6 points (40-80 games, 2 and 4 players), 10 scored 55-65%
#: of the places, 3 and 4 only 20-42%, never boxing early 48-56%.
DEFAULT_BOX_POINTS = 10


class GreedyAgent(BoxesAgent):
    """The best immediate score for the mover, with a box-early rule.

    Every legal move is played on a copy (compiled: :func:`~._search.move_values`) and the
    largest key wins, compared in order: (1) the points the mover scores with it (boxes it
    seals and wins, a box early, the end-of-game runs when the move ends the game); (2)
    fewer points for the best-served other player; (3) the mover's *potential* after it
    (what its open runs of 3 or more would score now, less the largest other player's);
    (4) a seeded random draw.

    A box-early move is considered only when the run is worth at least ``box_points``
    points (a roll doubles a run) and at risk: under Coffee's For Closers, or when the
    mover's lead in it is at most 4, the donuts one card can add. Otherwise the run is
    left to grow.
    """

    kind = "greedy"

    def __init__(self, seed: int | None = None, *, box_points: int = DEFAULT_BOX_POINTS, name: str | None = None) -> None:
        """A greedy player.

        Args:
            seed: the seed of the agent's random stream (``None``: drawn at random).
            box_points: the least points a run must be worth to box it early.
            name: the agent's name in tables (default: its spec).

        Raises:
            BoxesAgentError: ``box_points`` below the smallest box.
        """
        super().__init__(seed, name)
        self.box_points = _check_int("box_points", box_points, minimum=E.MIN_BOX, error=BoxesAgentError)
        warm_up()

    def params(self) -> dict[str, object]:
        out: dict[str, object] = super().params()
        if self.box_points != DEFAULT_BOX_POINTS:
            out["box_points"] = self.box_points
        return out

    def _select(self, world: BoxesState, codes: Codes, player: int, start: float, time_left: float | None) -> int:
        return int(codes[greedy_order(world, codes, self.box_points, self.rng, keep_boxes=False)[0]])


def _box_considered(row: NDArray[np.int64], closers: bool, box_points: int) -> bool:
    """The box-early rule (:class:`GreedyAgent`) on a row of :func:`~._search.move_values`."""
    considered: bool = row[V_BOX_POINTS] >= box_points and (closers or row[V_BOX_LEAD] <= CARD_QUADRANTS)
    return considered


def greedy_order(world: BoxesState, codes: Codes, box_points: int, rng: random.Random,
                 keep_boxes: bool) -> NDArray[np.int64]:
    """The legal moves of ``world`` ranked by :class:`GreedyAgent`'s keys, best first.

    Args:
        world: a state whose game goes on.
        codes: its legal moves (:meth:`~donuts_ai.boxes.state.BoxesState.legal_move_ids`).
        box_points: the box-early rule's threshold.
        rng: breaks ties.
        keep_boxes: rank the box-early moves the rule leaves out as scoring nothing
            (otherwise they are dropped).

    Returns:
        Indices into ``codes``, best first.
    """
    t, grid = _world_arrays(world)
    values = move_values(t, grid, codes, _scratch(world.num_players))
    closers = world.rules.closers
    # (own points, less the best other's, potential, a random draw, the index): best last.
    keys: list[tuple[int, int, int, float, int]] = []
    for i in range(codes.size):
        row = values[i]
        own = int(row[V_OWN])
        if row[V_BOX_POINTS] >= 0 and not _box_considered(row, closers, box_points):
            if not keep_boxes:
                continue
            own = 0
        keys.append((own, -int(row[V_OTHERS]), int(row[V_POTENTIAL]), rng.random(), i))
    if not keys:  # only box-early moves left out: cannot happen (a placement or stuck move is always legal)
        keys = [(0, 0, 0, 0.0, i) for i in range(codes.size)]
    keys.sort(reverse=True)
    return np.array([k[-1] for k in keys], dtype=np.int64)
