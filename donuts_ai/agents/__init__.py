"""Players, for every game: the agent protocol and base (:mod:`.base`), the registry type
of the games' agent tables (:mod:`.registry`), and the generic agents that play any game
of the table through the state API (:mod:`.generic`, loaded only when imported by name).

Each game keeps its own agents in its folder (:mod:`donuts_ai.donuts.agents`,
:mod:`donuts_ai.boxes.agents`, :mod:`donuts_ai.connect_four.agents`), each derived from
:class:`Agent` and listed in its game's ``AGENTS``, a :class:`LazyRegistry`: one literal
table that names every class by its dotted path and imports it when first used. Importing
this package names no game and loads no search code.
"""

from __future__ import annotations

from .base import Agent, budget
from .registry import LazyRegistry

__all__ = ["Agent", "LazyRegistry", "budget"]
