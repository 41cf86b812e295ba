"""Connect Four (7 columns, 6 rows, four in a row wins) as a compiled game of the package,
beside Donuts (:mod:`donuts_ai.donuts`) and Donut Boxes (:mod:`donuts_ai.boxes`).

- :mod:`.rules`: the rules stated (7 by 6, four in a row; no variants);
- :mod:`.state`: :class:`ConnectFourState`, the game's :class:`~donuts_ai.state.GameState`
  (moves are column letters ``a``..``g``; a set-up is an opening of them);
- :mod:`.kernels`: the public compiled API (bitboard positions, :func:`~.kernels.play`,
  :func:`~.kernels.legal` and the solver's hooks), Numba kernels a compiled search calls;
  the kernels themselves are the private :mod:`._kernels`, where the bit layout is drawn;
- :mod:`.reference`: the same rules in plain Python, which the engine is checked against;
- :mod:`.solve`: its own search, exact values by the generic compiled solver;
- :mod:`.agents`: its agents (:data:`~.agents.AGENTS`); :mod:`.game`: the game contract;
- :mod:`.errors`: :class:`ConnectFourError`.

The rules know nothing of searches, agents or the harness (``tests/test_architecture.py``).

    >>> from donuts_ai.connect_four import ConnectFourState
    >>> board = ConnectFourState.from_moves("4453")
    >>> board.move_stack, board.turn
    (['d', 'd', 'e', 'c'], 0)
"""

from .errors import ConnectFourError
from .state import ConnectFourState, parse_columns

__all__ = ["ConnectFourState", "ConnectFourError", "parse_columns"]
