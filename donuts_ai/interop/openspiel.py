"""Donuts as an OpenSpiel game, ``python_donuts`` (``pip install 'donuts_ai[spiel]'``).

Importing this module registers the game with ``pyspiel``, so OpenSpiel's algorithms
run on it::

    import pyspiel
    import donuts_ai.interop.openspiel  # registers python_donuts

    game = pyspiel.load_game("python_donuts")                        # standard layout, official rules
    game = pyspiel.load_game("python_donuts(layout_seed=7,donuts=12)")
    game = pyspiel.load_game("python_donuts", {"layout": "random:3", "insertion": "single"})

Parameters: ``layout`` (``"standard"``, ``"random:SEED"``, ``"grid:SEED"``, or layout
text: 6 rows of 6 symbols, rank 6 first, as 36 symbols in one run in a game string,
where commas separate parameters, or joined by newlines or commas in a parameter
dict), ``layout_seed`` (an int >= 0: the tile arrangement ``Layout.random(seed)``,
instead of ``layout``), ``insertion`` (``"group"`` or ``"single"``) and ``donuts`` (per
player). :func:`load` takes a :class:`~donuts_ai.Layout` and :class:`~donuts_ai.Rules`.

The game is sequential, deterministic, perfect information, zero-sum, with terminal
rewards +1/-1/0; actions are square indices 0..35 (a1 = 0); the player to move is the
colour to move (0 Chocolate, 1 Vanilla), and **the same player may move twice in a
row** when the other's pool is empty, so code must read ``current_player()`` rather
than alternate. Observation tensor: the 13 planes of
:mod:`donuts_ai.interop._planes`, shape ``(13, 6, 6)`` (channels first), from the
player's point of view; observation string: the position string (:meth:`Board.fen`).
Information state: the same planes followed by the moves so far, one-hot, shape
``(max_game_length, 36)`` (the history a perfect-recall player remembers); its string
is the moves so far as square names.

Agents both ways: :class:`DonutsBot` is any of our agents (an :class:`Agent` or a spec
such as ``"mcts:time=0.1"``) as a ``pyspiel.Bot``; :class:`OpenSpielMCTSAgent` is
OpenSpiel's ``MCTSBot`` (UCT with random rollouts) as one of our agents, so the
tournament harness rates it against ours (spec ``openspiel-mcts:simulations=1000`` or
``openspiel-mcts:time=1.0``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from ._openspiel_agents import CALIBRATION_SIMS, MIN_SIMS, DonutsBot, OpenSpielMCTSAgent, OpenSpielMCTSInfo

#: The agents, in :mod:`._openspiel_agents`, loaded when first named (so that the game
#: registers without them).
_AGENT_NAMES = ("CALIBRATION_SIMS", "MIN_SIMS", "DonutsBot", "OpenSpielMCTSAgent", "OpenSpielMCTSInfo")


def __getattr__(name: str) -> object:
    if name in _AGENT_NAMES:
        from . import _openspiel_agents

        return getattr(_openspiel_agents, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
