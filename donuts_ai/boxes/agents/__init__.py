"""Donut Boxes' agents, by kind (:data:`AGENTS`), each a :class:`BoxesAgent`
(:mod:`.boxes_agent`): ``select_move`` takes the observation of the player to move (or a
:class:`~donuts_ai.boxes.state.BoxesState`) and answers a move text.

- ``random`` :class:`RandomAgent`: a uniformly random legal move (:mod:`.random_agent`).
- ``greedy`` :class:`GreedyAgent`: the best immediate score, with a box-early rule (:mod:`.greedy`).
- ``ismcts`` :class:`ISMCTSAgent`: single-observer information-set MCTS, compiled (:mod:`.ismcts`).

A new Donut Boxes agent goes here: a module with a :class:`BoxesAgent` subclass and an entry
in :data:`AGENTS`. The game's compiled functions for the search are :mod:`._search`, bound
to :mod:`donuts_ai.search.ismcts` in :mod:`._bound`. Agent specs (``ismcts:time=0.1``) are
made by :func:`donuts_ai.tournament.make_agent` with ``game="boxes"``.
"""

from __future__ import annotations

from ...agents.registry import LazyRegistry
from .boxes_agent import BoxesAgent, BoxesAgentError, warm_up
from .greedy import GreedyAgent
from .ismcts import ISMCTSAgent
from .random_agent import RandomAgent

#: Agent classes by ``kind``: the names agent specs use (``ismcts:time=0.1,seed=3``), each
#: class named by its dotted path (a :class:`~donuts_ai.agents.registry.LazyRegistry`, like
#: Donuts' :data:`donuts_ai.donuts.agents.AGENTS`).
AGENTS: LazyRegistry[type[BoxesAgent]] = LazyRegistry({
    "random": "donuts_ai.boxes.agents.random_agent:RandomAgent",
    "greedy": "donuts_ai.boxes.agents.greedy:GreedyAgent",
    "ismcts": "donuts_ai.boxes.agents.ismcts:ISMCTSAgent",
})

__all__ = ["AGENTS", "BoxesAgent", "BoxesAgentError", "GreedyAgent", "ISMCTSAgent", "RandomAgent", "warm_up"]
