"""AlphaZero's PUCT search over many games at once (:mod:`._tree`), for any game that
passes in its compiled functions as a :class:`Game` record; the learned agent's batching
driver (:mod:`donuts_ai.learn.batched_search`) binds it to Donuts and evaluates the
leaves with its network."""

from ._tree import MAX_DEPTH, NONE, Game, Tree, expand, new_tree, root_values, root_visits, simulate, start

__all__ = ["MAX_DEPTH", "NONE", "Game", "Tree", "expand", "new_tree", "root_values", "root_visits", "simulate", "start"]
