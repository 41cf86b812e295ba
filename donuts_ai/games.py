"""The games of this package, by name, and :func:`make`: a fresh state of one (pgx's ``make``).

    from donuts_ai import make
    board = make("donuts")                          # the official rules, the standard layout
    board = make("donuts", layout="random:3")       # a seeded random tile arrangement
    state = make("boxes", players=3, seed=1)        # Donut Boxes, three players, deal 1

Every state :func:`make` returns speaks :class:`~donuts_ai.state.GameState` (``turn``,
``legal_moves()``, ``push``, ``pop``, ``outcome()``...), so code written against it runs
on either game. :data:`GAME_STATES` is the explicit table: a game's name, the function that
builds its state (imported when first used, so naming a game loads only that game), and
the settings it takes. Nothing is registered as a side effect of an import.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from .errors import DonutsError
from .state import GameState

#: Game name -> (``"module:function"`` that builds a fresh state from the settings, the
#: settings it takes). The functions live with their games.
GAME_STATES: dict[str, tuple[str, tuple[str, ...]]] = {
    "donuts": ("donuts_ai.games:_new_donuts", ("layout", "rules", "insertion", "donuts", "seed")),
    "boxes": ("donuts_ai.games:_new_boxes", ("players", "grid", "matching", "closers", "rules", "seed")),
}


def make(name: str, **settings: Any) -> GameState:
    """A fresh state of the game ``name`` (a key of :data:`GAME_STATES`) with ``settings``:

    - ``"donuts"``: ``layout`` (a layout or a layout spec: ``"standard"``, the default,
      ``"random:3"``, ``"grid:5"``, a layout's text; ``"random"`` draws one from
      ``seed``), ``rules`` (a :class:`~donuts_ai.Rules`, a rule name or a rules dict)
      or ``insertion`` / ``donuts`` alone; returns a :class:`~donuts_ai.Board`;
    - ``"boxes"``: ``players``, ``grid``, ``matching``, ``closers`` (or ``rules``, a
      :class:`~donuts_ai.boxes.BoxesRules`) and ``seed`` (the deal); returns a
      :class:`~donuts_ai.boxes.BoxesState`.

    An unknown game or setting is a :class:`~donuts_ai.errors.DonutsError` naming it and
    what is accepted; a bad value, the game's own error (a ``ValueError``)."""
    if name not in GAME_STATES:
        raise DonutsError(f"unknown game {name!r}; expected one of {', '.join(GAME_STATES)}")
    target, accepted = GAME_STATES[name]
    unknown = sorted(set(settings) - set(accepted))
    if unknown:
        raise DonutsError(f"make({name!r}): unknown setting {unknown[0]!r}; accepted: {', '.join(accepted)}")
    module, _, function = target.partition(":")
    build: Callable[..., GameState] = getattr(importlib.import_module(module), function)
    return build(**settings)


def _new_donuts(layout: object = "standard", rules: object = None, insertion: str | None = None,
                donuts: int | None = None, seed: int | None = None) -> GameState:
    """A Donuts :class:`~donuts_ai.Board` (see :func:`make`)."""
    from .donuts.board import Board
    from .donuts.layout import Layout
    from .donuts.rules import make_rules

    if rules is not None and insertion is not None:
        raise DonutsError("make('donuts'): give rules or insertion, not both")
    chosen = make_rules(insertion if rules is None else rules, donuts)  # type: ignore[arg-type]  # make_rules checks it
    board: GameState = Board(Layout.from_spec(layout, seed), chosen)  # type: ignore[arg-type]  # from_spec checks it
    return board


def _new_boxes(players: int | None = None, grid: str | None = None, matching: str | None = None,
               closers: bool | None = None, rules: object = None, seed: int = 0) -> GameState:
    """A Donut Boxes :class:`~donuts_ai.boxes.BoxesState` (see :func:`make`)."""
    from .boxes.rules import BoxesRules
    from .boxes.state import BoxesState

    given = {k: v for k, v in {"players": players, "grid": grid, "matching": matching, "closers": closers}.items()
             if v is not None}
    if rules is not None and given:
        raise DonutsError(f"make('boxes'): give rules or {', '.join(given)}, not both")
    state: GameState = BoxesState(BoxesRules(**given) if rules is None else rules, seed)  # type: ignore[arg-type]
    return state
