"""AlphaZero's PUCT search over many games at once (:mod:`._tree`), and Gumbel's root
selection and policy targets on the same trees (:mod:`._gumbel`), for any game that
passes in its compiled functions as a :class:`PUCTGame` record; the learned agent's batching
driver (:mod:`donuts_ai.learn.batched_search`) binds it to Donuts and evaluates the
leaves with its network."""

from .._nodes import NONE
from ._gumbel import (
    C_SCALE,
    C_VISIT,
    Halving,
    Sigma,
    considered_counts,
    considered_visits,
    gumbel_first_phase,
    gumbel_results,
    gumbel_simulate,
)
from ._tree import (
    PUCTGame,
    PUCTTree,
    expand,
    expand_root_children,
    new_tree,
    root_values,
    root_visits,
    simulate,
    start,
)

__all__ = ["C_SCALE", "C_VISIT", "NONE", "Halving", "PUCTGame", "PUCTTree", "Sigma", "considered_counts",
           "considered_visits", "expand", "expand_root_children", "gumbel_first_phase", "gumbel_results", "gumbel_simulate",
           "new_tree", "root_values", "root_visits", "simulate", "start"]
