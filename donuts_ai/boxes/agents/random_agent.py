"""The random Donut Boxes agent: a uniformly random legal move."""

from __future__ import annotations

from .._kernels.tables import Codes
from ..state import BoxesState
from .boxes_agent import BoxesAgent


class RandomAgent(BoxesAgent):
    """A uniformly random legal move, drawn from the agent's seeded stream."""

    kind = "random"

    def _select(self, world: BoxesState, codes: Codes, player: int, start: float, time_left: float | None) -> int:
        return int(codes[self.rng.randrange(codes.size)])
