"""Donut Boxes passed to the searches of :mod:`donuts_ai.search` (private): the compiled
search kernels bound to the game's functions of :mod:`._search`, one cached kernel each."""

from __future__ import annotations

from numba import njit

from ...search.ismcts import ISMCTSGame, ISMCTSSettings, ISMCTSTree, search
from .._kernels.tables import Codes, Grid, Tables
from . import _search as G


@njit(cache=True)
def ismcts(tree: ISMCTSTree, t: Tables, grid: Grid, work: Tables, root_moves: Codes, settings: ISMCTSSettings) -> None:
    """:func:`donuts_ai.search.ismcts.search` on Donut Boxes: ``settings.iterations``
    iterations from the base world ``(t, grid)`` (unchanged), where ``settings.observer``
    is to move and ``root_moves`` are legal; ``work`` is scratch tables for the same
    players. The tree must have room for ``settings.iterations`` more nodes."""
    # The game's functions are read as attributes of their module: a function named as a
    # global of this module would be compiled in as its address, and the kernel not cached.
    game = ISMCTSGame(G.game_deal, G.game_to_move, G.game_legal, G.game_step, G.game_playout, G.game_rewards)
    search(game, tree, (t, grid), work, root_moves, settings)
