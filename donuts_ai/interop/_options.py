"""The keyword arguments the PettingZoo environment and the OpenSpiel game share: which
layout (fixed, or drawn at every reset: a :class:`~donuts_ai.donuts.layout.LayoutSpec`) and which
rules (:func:`~donuts_ai.donuts.rules.make_rules`). Both grammars live with what they build."""

from __future__ import annotations

from ..donuts.layout import LayoutSpec, layout_text
from ..donuts.rules import make_rules
from ..errors import DonutsError


class InteropError(DonutsError):
    """A bad argument to the PettingZoo environment, the OpenSpiel game or their agents."""


__all__ = ["InteropError", "LayoutSpec", "layout_text", "make_rules"]
