"""Monte-Carlo tree search for any two-player game given as a
:class:`~donuts_ai.search.compiled_game.CompiledGame`: the kernels of :mod:`._tree` (UCT
with random playouts and MCTS-Solver, in preallocated arrays). Donuts and Connect Four
bind them to their engines and play them with their ``MCTSAgent``."""

from ._tree import (
    MAX_TREE_NODES,
    NODE_BYTES,
    MCTSSettings,
    MCTSTree,
    compact,
    descend,
    grown,
    new_tree,
    reset_tree,
    root_stats,
    run_tree,
)

__all__ = ["MAX_TREE_NODES", "NODE_BYTES", "MCTSSettings", "MCTSTree", "compact", "descend", "grown", "new_tree",
           "reset_tree", "root_stats", "run_tree"]
