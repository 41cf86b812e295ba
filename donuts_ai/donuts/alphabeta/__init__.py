"""Donuts' negamax alpha-beta over bitboards and the exact solver, in one place.

Kernels (private): :mod:`._scores` (the score scale), :mod:`._table` (transposition
table), :mod:`._ordering` (move order), :mod:`._heuristic` (the score at the horizon),
:mod:`._workspace` (scratch arrays), :mod:`._negamax` (the search), :mod:`._dfpn` (the
proof-number value search of the "single" insertion rule). Driver: :mod:`.solver`
(``solve``, ``analyze``, ``Solver``). The agents that play by it, ``AlphaBetaAgent`` and
``SolverAgent``, are :mod:`donuts_ai.donuts.agents.alphabeta`.

**The compiled search, for drivers of your own** (the agents', the benchmarks', the
learner's solver-labelled search): :func:`search_moves` (the root search of one position
to a depth or a node budget, every move scored), :func:`search_root` (the root search's
value alone), the score scale's :data:`MATE_BOUND` (beyond it a score is a proved win or
loss) and :data:`EXACT_DEPTH` (a depth that reaches every end), :func:`new_table` (a transposition table of ``2**bits`` entries
of :data:`ENTRY_WORDS` words) and :func:`new_workspace` (the search's scratch record, of
dtype :data:`WORKSPACE`).
"""

from ._negamax import search_moves, search_root
from ._scores import EXACT_DEPTH, MATE_BOUND
from ._table import ENTRY_WORDS, new_table
from ._workspace import WORKSPACE, new_workspace
from .solver import MoveValue, Solution, Solver, analyze, solve

__all__ = ["ENTRY_WORDS", "EXACT_DEPTH", "MATE_BOUND", "WORKSPACE", "MoveValue", "Solution", "Solver", "analyze", "new_table",
           "new_workspace", "search_moves", "search_root", "solve"]
