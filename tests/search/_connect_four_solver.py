"""The compiled solver bound to Connect Four's public kernels
(:mod:`donuts_ai.connect_four.kernels`) in cached kernels, every hook given, for the
solver's tests: the game's functions read as attributes of its module."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

from donuts_ai._numba_types import Int64
from donuts_ai.connect_four import kernels as K
from donuts_ai.search import compiled_game as cg
from donuts_ai.search import solver

from . import _kernel_caches

_kernel_caches.refresh(Path(__file__).parent)  # before any kernel here runs

#: Connect Four ignores its ``rules``.
RULES = 0


@njit(cache=True)
def solve(rules: Int64, pos: Any, table: solver.SolverTable, max_nodes: Int64) -> tuple[np.int64, np.int64]:
    """:func:`donuts_ai.search.solver.solve` on Connect Four."""
    game = cg.CompiledGame(K.legal, K.play, K.key, K.CELLS, K.winning, K.safe, K.plies_left, K.order)
    return solver.solve(game, rules, pos, table, max_nodes)


@njit(cache=True)
def analyze(rules: Int64, pos: Any, table: solver.SolverTable, max_nodes: Int64) -> tuple[NDArray[np.int64], np.int64]:
    """:func:`donuts_ai.search.solver.analyze` on Connect Four."""
    game = cg.CompiledGame(K.legal, K.play, K.key, K.CELLS, K.winning, K.safe, K.plies_left, K.order)
    return solver.analyze(game, rules, pos, table, max_nodes)
