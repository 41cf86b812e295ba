"""Donuts, the board game (Bruno Cathala, Funforge 2023), in one folder beside Donut Boxes
(:mod:`donuts_ai.boxes`): everything that knows its rules.

- the rules and the position: :mod:`.squares` (squares ``a1``..``f6`` = 0..35, colours),
  :mod:`.rules` (:class:`Rules`), :mod:`.layout` (:class:`Layout`, the layout grammar),
  :mod:`.symmetry`, :mod:`.board` (:class:`Board`, the game's
  :class:`~donuts_ai.state.GameState`), :mod:`.svg` (pictures), :mod:`.reference` (the
  same rules in plain Python);
- the compiled engine: :mod:`._kernels` (private Numba kernels), :mod:`.playouts`
  (:func:`perft`, :func:`random_playouts`), :mod:`.vector_env` (:class:`VectorEnv`, many
  games at once) and :mod:`.kernels` (the public compiled API);
- searching: :mod:`.alphabeta` (negamax alpha-beta and the exact solver);
- playing: :mod:`.agents` (its agents by kind, and their bindings of the game-agnostic
  trees of :mod:`donuts_ai.search`) and :mod:`.game` (the game as the tournament harness
  sees it).

The rules know nothing of searches, agents or the harness: the imports point one way, from
:mod:`.game` down to the squares (``tests/test_architecture.py`` checks it). What both
games share (the state protocol, outcomes, errors, checks, the agent base) is at the
package root, which also re-exports the public names here (``from donuts_ai import Board``).
"""

from .board import Board, Outcome, Termination
from .layout import Layout
from .playouts import PlayoutStats, perft, random_playouts
from .rules import Rules, make_rules
from .vector_env import VectorEnv

__all__ = ["Board", "Layout", "Outcome", "PlayoutStats", "Rules", "Termination", "VectorEnv", "make_rules", "perft",
           "random_playouts"]
