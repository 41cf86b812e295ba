"""Players: the agent protocol and base of both games (:mod:`.base`), and the board
game's agents by kind (:data:`AGENTS`).

- :class:`RandomAgent` — uniformly random legal moves.
- :class:`GreedyAgent` — one ply: wins now, avoids handing over a five, prefers flips and long lines.
- :class:`AlphaBetaAgent` — iterative-deepening negamax with a transposition table.
- :class:`MCTSAgent` — UCT with random playouts and MCTS-Solver, tree in Numba arrays.
- :class:`SolverAgent` — perfect play from the exact solver.

The searching agents live beside their algorithms in :mod:`donuts_ai.search`, and derive
from :class:`BoardAgent` (:mod:`.board_agent`), as the simple agents here do; Donut
Boxes' agents (:mod:`donuts_ai.boxes.agents`) derive from :class:`Agent` too. The
registry names every class by its dotted path and imports it when first used, so
importing this package (or :mod:`.base`) loads no search code; Donut Boxes' kinds,
:data:`donuts_ai.boxes.agents.BOXES_AGENTS`, are a registry of the same type
(:class:`LazyRegistry`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Agent, budget
from .registry import LazyRegistry

if TYPE_CHECKING:  # for the type checker only: importing this package loads no search code
    from ..search.alphabeta.agent import AlphaBetaAgent, SolverAgent
    from ..search.mcts.agent import MCTSAgent
    from .board_agent import BoardAgent
    from .greedy import GreedyAgent
    from .random_agent import RandomAgent

#: The board game's agent classes by their ``kind`` (the name used in agent specs such as
#: ``mcts:time_limit=0.1``), each imported on first lookup. The searching agents' entries are
#: added by the package root (``donuts_ai/__init__.py``), which may name the layers above this one.
AGENTS: LazyRegistry[type[BoardAgent]] = LazyRegistry({
    "random": "donuts_ai.agents.random_agent:RandomAgent",
    "greedy": "donuts_ai.agents.greedy:GreedyAgent",
})

#: The board game's agent kinds whose classes need an optional dependency, imported when a
#: spec names them: kind -> ("module:Class", the extra of ``pip install 'donuts_ai[extra]'``);
#: filled by the package root (``donuts_ai/__init__.py``), as the front ends lie above this layer.
OPTIONAL_AGENTS: dict[str, tuple[str, str]] = {}

_KINDS = {"RandomAgent": "random", "GreedyAgent": "greedy", "AlphaBetaAgent": "alphabeta", "MCTSAgent": "mcts",
          "SolverAgent": "solver"}


def __getattr__(name: str) -> type[BoardAgent]:
    # The classes load when first named (``from donuts_ai.agents import MCTSAgent``).
    if name in _KINDS:
        return AGENTS[_KINDS[name]]
    if name == "BoardAgent":
        from .board_agent import BoardAgent

        return BoardAgent
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["AGENTS", "AlphaBetaAgent", "Agent", "BoardAgent", "GreedyAgent", "LazyRegistry", "MCTSAgent", "RandomAgent",
           "SolverAgent", "budget"]
