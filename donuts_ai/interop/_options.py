"""The keyword arguments the PettingZoo environment and the OpenSpiel game share: which
layout (fixed, or drawn at every reset: a :class:`~donuts_ai.layout.LayoutSpec`) and which
rules (:func:`~donuts_ai.rules.make_rules`). Both grammars live with what they build."""

from __future__ import annotations

from ..errors import DonutsError
from ..layout import LayoutSpec, layout_text
from ..rules import make_rules


class InteropError(DonutsError):
    """A bad argument to the PettingZoo environment, the OpenSpiel game or their agents."""


__all__ = ["InteropError", "LayoutSpec", "layout_text", "make_rules"]
