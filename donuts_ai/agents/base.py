"""Compatibility: the agent protocol lives in :mod:`donuts_ai.search.base`."""

from ..search.base import (
    Agent,
    budget,
    check_time_limit,
    now,
    positive_int,
    tactical_choice,
    touch,
    warm_up,
)
from ..squares import squares_of as legal_squares_of

__all__ = [
    "Agent",
    "budget",
    "check_time_limit",
    "legal_squares_of",
    "now",
    "positive_int",
    "tactical_choice",
    "touch",
    "warm_up",
]
