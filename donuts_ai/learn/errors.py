"""The learning package's error."""

from __future__ import annotations

from ..errors import DonutsError


class LearnError(DonutsError):
    """A bad setting, checkpoint or network file of :mod:`donuts_ai.learn`."""
