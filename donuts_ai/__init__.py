"""donuts_ai: play, search and study the board game Donuts (Bruno Cathala, Funforge 2023).

The public API::

    from donuts_ai import Board, Layout, Rules, perft, random_playouts
    from donuts_ai import evaluate        # accuracy against perfect play (loaded when first used)

Squares are ints 0..35 (a1 = 0, f6 = 35; see :mod:`donuts_ai.squares`); colours are
0 (Chocolate, moves first) and 1 (Vanilla). The Numba kernels behind it live in the
private package ``donuts_ai._engine``; a pure-Python statement of the same rules is
:mod:`donuts_ai.reference`.
"""

from typing import Any

from . import _kernel_cache  # noqa: F401  (first: drops stale cached kernels before any is loaded)
from .analysis import PlayoutStats, perft, random_playouts
from .board import Board, Outcome, Termination
from .errors import DonutsError, GameOverError, IllegalMoveError, InvalidMoveError, LayoutError, PositionError, RulesError, SymmetryError
from .layout import NUM_ARRANGEMENTS, TILE_FACES, Layout, LayoutSpec
from .rules import Rules, make_rules
from .search.alphabeta import MoveValue, Solution, Solver, analyze, solve
from .squares import CHOCOLATE, SQUARE_NAMES, VANILLA, parse_square, square_name
from .symmetry import SYMMETRY_NAMES
from .vector_env import VectorEnv

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    # ``evaluate`` (accuracy against perfect play) loads the tournament harness and the
    # suites: only when first named, so ``import donuts_ai`` stays light.
    if name == "evaluate":
        from .suites.evaluation import evaluate

        return evaluate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CHOCOLATE",
    "NUM_ARRANGEMENTS",
    "SQUARE_NAMES",
    "SYMMETRY_NAMES",
    "TILE_FACES",
    "VANILLA",
    "Board",
    "DonutsError",
    "GameOverError",
    "IllegalMoveError",
    "InvalidMoveError",
    "MoveValue",
    "Solution",
    "Solver",
    "analyze",
    "evaluate",
    "solve",
    "Layout",
    "LayoutError",
    "LayoutSpec",
    "Outcome",
    "PlayoutStats",
    "PositionError",
    "Rules",
    "RulesError",
    "SymmetryError",
    "Termination",
    "VectorEnv",
    "parse_square",
    "perft",
    "make_rules",
    "random_playouts",
    "square_name",
]
