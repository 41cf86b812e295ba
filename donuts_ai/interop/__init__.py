"""Donuts for other libraries' tools: a PettingZoo environment and an OpenSpiel game.

- :mod:`donuts_ai.interop.pettingzoo` (``pip install 'donuts_ai[rl]'``): ``env()`` /
  ``raw_env``, the AEC environment ``donuts_v0``, for reinforcement-learning code
  written against PettingZoo or Gymnasium; ``env(game="boxes", players=N)`` is Donut
  Boxes, ``donut_boxes_v0`` (:mod:`donuts_ai.interop.pettingzoo_boxes`, on the tensor
  encoding of :mod:`donuts_ai.boxes.encoding`).
- :mod:`donuts_ai.interop.openspiel` (``pip install 'donuts_ai[spiel]'``): the Python
  game ``python_donuts`` registered with ``pyspiel``, our agents as ``pyspiel.Bot``
  and OpenSpiel's ``MCTSBot`` as a tournament agent (``openspiel-mcts:simulations=1000``).

The Donuts environment and game both describe a position with the same observation planes
(:func:`donuts_ai.interop.planes`, 13 planes of 6×6 from one player's point of view).
This package imports neither dependency: import the submodule you need.
"""

from ._options import InteropError, LayoutSpec, layout_text, make_rules
from ._planes import NUM_PLANES, PLANE_NAMES, action_mask, planes, write_planes

__all__ = [
    "NUM_PLANES",
    "PLANE_NAMES",
    "InteropError",
    "LayoutSpec",
    "action_mask",
    "layout_text",
    "make_rules",
    "planes",
    "write_planes",
]
