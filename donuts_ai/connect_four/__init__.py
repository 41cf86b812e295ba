"""Connect Four (7 columns, 6 rows, four in a row wins) as a compiled game of the package,
beside Donuts (:mod:`donuts_ai.donuts`) and Donut Boxes (:mod:`donuts_ai.boxes`).

- :mod:`.board`: :class:`ConnectFourBoard`, the game's :class:`~donuts_ai.state.GameState`
  (moves are column letters ``a``..``g``; a set-up is an opening of them);
- :mod:`.kernels`: the public compiled API (bitboard positions, :func:`~.kernels.play`,
  :func:`~.kernels.legal` and the solver's hooks), Numba kernels a compiled search calls;
  the kernels themselves are the private :mod:`._kernels`, where the bit layout is drawn;
- :mod:`.reference`: the same rules in plain Python, which the engine is checked against;
- :mod:`.errors`: :class:`ConnectFourError`.

The rules know nothing of searches, agents or the harness (``tests/test_architecture.py``).

    >>> from donuts_ai.connect_four import ConnectFourBoard
    >>> board = ConnectFourBoard.from_moves("4453")
    >>> board.move_stack, board.turn
    (['d', 'd', 'e', 'c'], 0)
"""

from .board import ConnectFourBoard, parse_columns
from .errors import ConnectFourError

__all__ = ["ConnectFourBoard", "ConnectFourError", "parse_columns"]
