"""Donuts' agents, by kind (:data:`AGENTS`), each a :class:`DonutsAgent` (:mod:`.donuts_agent`):
``select_move`` takes a :class:`~donuts_ai.Board` and answers a square name.

- :class:`RandomAgent` — uniformly random legal moves (:mod:`.random_agent`).
- :class:`GreedyAgent` — one ply: wins now, avoids handing over a five, prefers flips and long lines (:mod:`.greedy`).
- :class:`AlphaBetaAgent` — iterative-deepening negamax with a transposition table (:mod:`.alphabeta`).
- :class:`MCTSAgent` — UCT with random playouts and MCTS-Solver, tree in Numba arrays (:mod:`.mcts`).
- :class:`SolverAgent` — perfect play from the exact solver (:mod:`.alphabeta`).

A new Donuts agent goes here: a module with a :class:`DonutsAgent` subclass and an entry in
:data:`AGENTS`. What the searching agents share (the tactical pass, warm-up, touching
tables) is :mod:`.search_base`; the Monte-Carlo tree search of :mod:`donuts_ai.search.mcts`
is bound to Donuts (:mod:`donuts_ai.donuts.compiled`) in :mod:`._mcts_bound`; alpha-beta and the exact
solver are :mod:`donuts_ai.donuts.alphabeta`. The agent protocol and base of every game is
:mod:`donuts_ai.agents`. The table names every class by its dotted path and imports it when
first used, so importing this package loads no search code.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from ...agents.registry import LazyRegistry

if TYPE_CHECKING:  # for the type checker only: importing this package loads no search code
    from .alphabeta import AlphaBetaAgent, SolverAgent
    from .donuts_agent import DonutsAgent
    from .greedy import GreedyAgent
    from .mcts import MCTSAgent
    from .random_agent import RandomAgent

#: Donuts' agent classes by their ``kind`` (the name used in agent specs such as
#: ``mcts:time_limit=0.1``), each imported on first lookup. A registry table: its dotted
#: paths may name a layer above this one (``az``, the learned agent of :mod:`donuts_ai.learn`).
AGENTS: LazyRegistry[type[DonutsAgent]] = LazyRegistry({
    "random": "donuts_ai.donuts.agents.random_agent:RandomAgent",
    "greedy": "donuts_ai.donuts.agents.greedy:GreedyAgent",
    "alphabeta": "donuts_ai.donuts.agents.alphabeta:AlphaBetaAgent",
    "mcts": "donuts_ai.donuts.agents.mcts:MCTSAgent",
    "solver": "donuts_ai.donuts.agents.alphabeta:SolverAgent",
    "az": "donuts_ai.learn.agent:AlphaZeroAgent",
})

#: Donuts' agent kinds whose classes need an optional dependency, imported when a spec names
#: them: kind -> ("module:Class", the extra of ``pip install 'donuts_ai[extra]'``).
OPTIONAL_AGENTS: Mapping[str, tuple[str, str]] = MappingProxyType({
    "openspiel-mcts": ("donuts_ai.interop.openspiel:OpenSpielMCTSAgent", "spiel"),
})

_KINDS = {"RandomAgent": "random", "GreedyAgent": "greedy", "AlphaBetaAgent": "alphabeta", "MCTSAgent": "mcts",
          "SolverAgent": "solver"}


# Lazy: the classes load when first named (``from donuts_ai.donuts.agents import MCTSAgent``).
# Importing them here would cost every ``import donuts_ai`` (the game imports this package)
# 64 ms of CPU more (445 ms against 381 ms, the least of 11 fresh processes; 36 modules).
def __getattr__(name: str) -> type[DonutsAgent]:
    if name in _KINDS:
        return AGENTS[_KINDS[name]]
    if name == "DonutsAgent":
        from .donuts_agent import DonutsAgent

        return DonutsAgent
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["AGENTS", "AlphaBetaAgent", "DonutsAgent", "GreedyAgent", "MCTSAgent", "RandomAgent", "SolverAgent"]
