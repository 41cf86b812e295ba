"""Monte-Carlo tree search for any two-player game that passes in its compiled functions:
the kernels of :mod:`._tree` (UCT with random playouts and MCTS-Solver, in preallocated
arrays). Donuts binds them to its engine and plays them with its ``MCTSAgent``
(:mod:`donuts_ai.donuts.agents.mcts`)."""

from ._tree import (
    MAX_TREE_NODES,
    NODE_BYTES,
    MCTSGame,
    MCTSTree,
    compact,
    descend,
    grown,
    new_tree,
    reset_tree,
    root_stats,
    run_tree,
)

__all__ = ["MAX_TREE_NODES", "NODE_BYTES", "MCTSGame", "MCTSTree", "compact", "descend", "grown", "new_tree",
           "reset_tree", "root_stats", "run_tree"]
