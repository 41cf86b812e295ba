"""Deprecated since 0.5.0: the game contract moved to :mod:`donuts_ai.game` (public as
``donuts_ai.Game`` and ``donuts_ai.register_game``). The old names still work here, with a
:class:`DeprecationWarning`, until 0.6."""

from __future__ import annotations

import warnings
from typing import Any

from .. import game as _game

#: Old name here -> its name in :mod:`donuts_ai.game`.
_MOVED = {"Game": "Game", "Move": "Move", "JSONObject": "JSONObject", "Stats": "Stats", "Score": "Score",
          "legal_move": "legal_move", "get_game": "get_game", "game_named": "get_game", "register": "register_game"}


def __getattr__(name: str) -> Any:
    if name not in _MOVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r} (the game contract is donuts_ai.game)")
    warnings.warn(f"donuts_ai.tournament.protocol.{name} is deprecated since 0.5.0: use "
                  f"donuts_ai.game.{_MOVED[name]}", DeprecationWarning, stacklevel=2)
    return getattr(_game, _MOVED[name])
