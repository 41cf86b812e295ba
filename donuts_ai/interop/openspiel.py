"""Donuts as an OpenSpiel game, ``python_donuts`` (``pip install 'donuts_ai[spiel]'``).

Importing this module registers the game with ``pyspiel``::

    game = pyspiel.load_game("python_donuts")                        # standard layout, official rules
    game = pyspiel.load_game("python_donuts(layout_seed=7,donuts=12)")
    game = pyspiel.load_game("python_donuts", {"layout": "random:3", "insertion": "single"})

Parameters: ``layout`` (``"standard"``, ``"random:SEED"``, ``"grid:SEED"`` or a layout's text),
``layout_seed`` (``Layout.random(seed)`` instead), ``insertion`` and ``donuts``; :func:`load`
takes a :class:`~donuts_ai.Layout` and :class:`~donuts_ai.Rules`. The game is sequential,
deterministic, zero-sum, rewards +1/-1/0 at the end; actions are squares 0..35, and **the same
player may move twice in a row** (read ``current_player()``). Observation: the 13 planes of
:mod:`donuts_ai.interop._planes`, ``(13, 6, 6)``, from the mover's side; information state:
those planes and the moves so far, one-hot. ``docs/howto/environments.md`` says more.

Agents both ways: :class:`DonutsBot` is one of our agents as a ``pyspiel.Bot``;
:class:`OpenSpielMCTSAgent` is OpenSpiel's ``MCTSBot`` as one of ours (spec
``openspiel-mcts:simulations=1000``).
"""

from __future__ import annotations

# The game first: without OpenSpiel, its ImportError names the extra to install.
from ._openspiel_game import (
    DEFAULT_PARAMS,
    SHORT_NAME,
    DonutsObserver,
    DonutsState,
    GameParams,
    OpenSpielGame,
    board_of,
    load,
    state_from_board,
)

# isort: split
from ._openspiel_agents import CALIBRATION_SIMS, MIN_SIMS, DonutsBot, OpenSpielMCTSAgent, OpenSpielMCTSInfo

__all__ = [
    "DEFAULT_PARAMS",
    "CALIBRATION_SIMS",
    "MIN_SIMS",
    "SHORT_NAME",
    "DonutsBot",
    "GameParams",
    "OpenSpielGame",
    "DonutsObserver",
    "DonutsState",
    "OpenSpielMCTSAgent",
    "OpenSpielMCTSInfo",
    "board_of",
    "load",
    "state_from_board",
]
