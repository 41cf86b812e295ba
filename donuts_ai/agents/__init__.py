"""Players: every agent implements the :class:`Agent` protocol.

``select_move(board, time_left=None) -> str``, ``reset(seed=None)``, ``name``, ``seed``.

- :class:`RandomAgent` — uniformly random legal moves.
- :class:`GreedyAgent` — one ply: wins now, avoids handing over a five, prefers flips and long lines.
- :class:`AlphaBetaAgent` — iterative-deepening negamax with a transposition table.
- :class:`MCTSAgent` — UCT with random playouts and MCTS-Solver, tree in Numba arrays.
- :class:`SolverAgent` — perfect play from the exact solver.

The searching agents live beside their algorithms in :mod:`donuts_ai.search`; this
package is the registry, the simple agents and the old module paths
(``donuts_ai.agents.alphabeta``, ``.mcts``, ``.solver_agent``, ``.base``).
"""

from ..search.alphabeta import AlphaBetaAgent, SolverAgent
from ..search.base import Agent
from ..search.mcts import MCTSAgent
from .greedy import GreedyAgent
from .random_agent import RandomAgent

#: Agent classes by their ``kind`` (the name used in agent specs such as ``mcts:time_limit=0.1``).
AGENTS = {cls.kind: cls for cls in (RandomAgent, GreedyAgent, AlphaBetaAgent, MCTSAgent, SolverAgent)}

__all__ = ["AGENTS", "AlphaBetaAgent", "Agent", "GreedyAgent", "MCTSAgent", "RandomAgent", "SolverAgent"]
