"""Donut Boxes: the tile-laying card game also sold as *Donuts* (2 to 10 players, hidden
hands, a shuffled deck, a free-for-all score), beside the board game the rest of
:mod:`donuts_ai` plays.

    >>> from donuts_ai.boxes import BoxesRules, BoxesState
    >>> state = BoxesState(BoxesRules(players=4), seed=7)
    >>> move = state.legal_moves()[0]
    >>> state.push(move)["cards"]
    1

The rules as implemented, with every decision, are in ``docs/boxes.md``; move texts in
:mod:`.moves`; the cards in :mod:`.deck`. A move that cannot be read, an illegal move
and a move after the end raise the errors every game shares,
:class:`~donuts_ai.errors.InvalidMoveError`, :class:`~donuts_ai.errors.IllegalMoveError`
and :class:`~donuts_ai.errors.GameOverError` (also importable from :mod:`donuts_ai`).
"""

from __future__ import annotations

from .deck import CARD_TYPES, DECK_SIZE, FLAVOUR_NAMES, TRAY_SIZE
from .errors import BoxesError, BoxesRulesError, EncodingError, ObservationError
from .moves import move_text, parse_move
from .rules import GRIDS, MATCHINGS, BoxesRules
from .state import BoxesState

__all__ = [
    "CARD_TYPES",
    "DECK_SIZE",
    "FLAVOUR_NAMES",
    "GRIDS",
    "MATCHINGS",
    "TRAY_SIZE",
    "BoxesError",
    "BoxesRules",
    "BoxesRulesError",
    "BoxesState",
    "EncodingError",
    "ObservationError",
    "move_text",
    "parse_move",
]
