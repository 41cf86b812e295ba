"""The keyword arguments the PettingZoo environment and the OpenSpiel game share: which
layout (fixed, or drawn at every reset) and which rules."""

from __future__ import annotations

import random

from ..errors import DonutsError, LayoutError, RulesError
from ..layout import Layout, parse_layout_spec
from ..rules import Rules

_LAYOUT_SYMBOLS = frozenset("-|/\\")


class InteropError(DonutsError):
    """A bad argument to the PettingZoo environment, the OpenSpiel game or their agents."""


def layout_text(text: str) -> str | None:
    """Layout text in any of the forms the wrappers take, as 6 lines, or ``None`` when
    ``text`` is not one: 6 lines of 6 symbols; the same rows joined by ``,`` (as in
    :meth:`Board.fen`) or by spaces; or 36 symbols in one run, rank 6 first (the form to
    use in an OpenSpiel game string, where commas separate parameters)."""
    squeezed = "".join(ch for ch in text if ch not in " \t\r\n,")
    if len(squeezed) != 36 or not set(squeezed) <= _LAYOUT_SYMBOLS:
        return None
    return "\n".join(squeezed[i : i + 6] for i in range(0, 36, 6))


class LayoutSource:
    """Where a game's layout comes from: one fixed layout, a pool of layouts (one drawn at
    every reset), or a fresh draw at every reset (``"random"``: a tile arrangement,
    ``"grid"``: a random direction grid).

    ``spec`` is a :class:`~donuts_ai.Layout`, layout text (see :func:`layout_text`), or
    any layout spec of the command line (``standard``, ``random``, ``grid``,
    ``random:SEED[:COUNT]``, ``grid:SEED[:COUNT]``, a file of layouts). Raises
    :class:`~donuts_ai.errors.LayoutError`."""

    def __init__(self, spec: Layout | str | None = "standard"):
        if spec is None:
            spec = "standard"
        if isinstance(spec, Layout):
            self.kind, self.layouts = "fixed", [spec]
        elif isinstance(spec, str):
            text = layout_text(spec)
            if text is not None:
                self.kind, self.layouts = "fixed", [Layout.from_text(text)]
            else:
                parsed = parse_layout_spec(spec.strip())
                if isinstance(parsed, str):  # "random" or "grid": a fresh draw every time
                    self.kind, self.layouts = parsed, []
                else:
                    self.kind, self.layouts = ("fixed" if len(parsed) == 1 else "pool"), parsed
        else:
            raise LayoutError(f"layout must be a Layout or a layout spec string, got {type(spec).__name__}")
        self.spec = spec

    @property
    def drawn(self) -> bool:
        """True when the layout can change from one reset to the next."""
        return self.kind != "fixed"

    def draw(self, rng: random.Random) -> Layout:
        """The layout of the next game (``rng`` is read only when the layout is drawn)."""
        if self.kind == "fixed":
            return self.layouts[0]
        if self.kind == "pool":
            return self.layouts[rng.randrange(len(self.layouts))]
        seed = rng.getrandbits(63)
        return Layout.random(seed) if self.kind == "random" else Layout.random_grid(seed)

    def __repr__(self) -> str:
        return f"LayoutSource({self.spec!r})"



def make_rules(rules: Rules | str | None = None, donuts: int | None = None) -> Rules:
    """A :class:`~donuts_ai.Rules` from ``rules`` (a ``Rules``, an insertion rule name
    ``"group"``/``"single"``, or ``None`` for the official rules) and ``donuts`` (donuts
    per player, overriding the rules' count when given). Raises
    :class:`~donuts_ai.errors.RulesError`."""
    if rules is None:
        rules = Rules()
    elif isinstance(rules, str):
        rules = Rules(insertion=rules)
    elif not isinstance(rules, Rules):
        raise RulesError(f"rules must be a Rules or an insertion rule name (group, single), got {type(rules).__name__}")
    if donuts is not None:
        rules = Rules(insertion=rules.insertion, donuts=donuts)
    return rules
