"""Players, for both games: the agent protocol and base (:mod:`.base`) and the lazy
registry type of the games' agent tables (:mod:`.registry`).

Each game keeps its agents in its own folder: Donuts' in :mod:`donuts_ai.donuts.agents`
(:data:`~donuts_ai.donuts.agents.AGENTS`), Donut Boxes' in :mod:`donuts_ai.boxes.agents`
(:data:`~donuts_ai.boxes.agents.AGENTS`); both derive from :class:`Agent`, and
both tables are a :class:`LazyRegistry`, which names every class by its dotted path and
imports it when first used. This package names no game and loads no search code.
"""

from __future__ import annotations

from .base import Agent, budget
from .registry import LazyRegistry

__all__ = ["Agent", "LazyRegistry", "budget"]
