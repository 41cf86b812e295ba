"""Single-observer information-set MCTS (:mod:`._tree`), for any game that passes in its
compiled functions as a :class:`Game` record; Donut Boxes binds it to its functions
(``donuts_ai.boxes._bound.ismcts``) and plays it with its ``ISMCTSAgent``."""

from ._tree import NONE, ROOT, Game, Settings, Tree, capacity, clear, grow, new_tree, root_stats, search

__all__ = ["NONE", "ROOT", "Game", "Settings", "Tree", "capacity", "clear", "grow", "new_tree", "root_stats", "search"]
