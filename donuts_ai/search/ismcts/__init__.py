"""Single-observer information-set MCTS (:mod:`._tree`), for any game that passes in its
compiled functions as a :class:`ISMCTSGame` record; Donut Boxes binds it to its functions
(``donuts_ai.boxes.agents._bound.ismcts``) and plays it with its ``ISMCTSAgent``."""

from .._nodes import NONE, ROOT
from ._tree import ISMCTSGame, ISMCTSSettings, ISMCTSTree, capacity, clear, grow, new_tree, root_stats, search

__all__ = ["NONE", "ROOT", "ISMCTSGame", "ISMCTSSettings", "ISMCTSTree", "capacity", "clear", "grow", "new_tree", "root_stats",
           "search"]
