"""donuts_ai: play, search and study the board game Donuts (Bruno Cathala, Funforge 2023),
and any turn-based game written to its game contract.

The public API::

    from donuts_ai import Board, Layout, Rules, perft, random_playouts
    from donuts_ai import make            # a fresh state of any game: make("donuts"), make("boxes", players=3)
    from donuts_ai import Game, register_game   # the game contract, and the one table of games
    from donuts_ai import BaseState, GameEnd    # a game of one's own: its state from five members
    from donuts_ai import evaluate        # accuracy against perfect play (loaded when first used)

Squares are ints 0..35 (a1 = 0, f6 = 35; see :mod:`donuts_ai.donuts.squares`); colours are
0 (Chocolate, moves first) and 1 (Vanilla). Each game has its folder: :mod:`donuts_ai.donuts`,
:mod:`donuts_ai.boxes` (Donut Boxes) and :mod:`donuts_ai.connect_four`. At the root sit what
they share (:mod:`donuts_ai.state`, :mod:`donuts_ai.outcomes`, :mod:`donuts_ai.errors`, the
agents of :mod:`donuts_ai.agents`, :func:`make`) and the front ends (the tournament harness,
the tree searches, play, interop, bench, learn, suites, study, the command line);
``docs/architecture.md`` draws the tree.
"""

import importlib
from typing import TYPE_CHECKING, Any

from . import _kernel_cache  # noqa: F401  (first: drops stale cached kernels before any is loaded)
from ._when_imported import when_imported
from .donuts import kernels as kernels  # the compiled API: `from donuts_ai import kernels`
from .donuts.board import Board, Outcome, Termination
from .donuts.errors import LayoutError, PositionError, RulesError, SymmetryError
from .donuts.layout import NUM_ARRANGEMENTS, TILE_FACES, Layout, LayoutSpec
from .donuts.playouts import PlayoutStats, perft, random_playouts
from .donuts.rules import Rules, make_rules
from .donuts.squares import CHOCOLATE, SQUARE_NAMES, VANILLA, parse_square, square_name
from .donuts.symmetry import SYMMETRY_NAMES
from .donuts.vector_env import VectorEnv
from .errors import DonutsError, GameError, GameOverError, IllegalMoveError, InvalidMoveError
from .game import Game, get_game, make, register_game
from .state import BaseState, GameEnd

# isort: split
# The games register themselves in the table of games when their game module is imported,
# Donuts first (the order the table lists them in).
from .donuts.game import DONUTS as _DONUTS  # noqa: F401

# isort: split
from .boxes.game import BOXES as _BOXES  # noqa: F401

# isort: split
from .connect_four.game import CONNECT_FOUR as _CONNECT_FOUR  # noqa: F401

if TYPE_CHECKING:
    from .donuts.alphabeta.solver import MoveValue, Solution, Solver, analyze, solve
    from .suites.evaluation import evaluate

__version__ = "0.6.0"


def _register_with_gymnasium() -> None:
    """``donuts_ai/Donuts-v0`` in Gymnasium's registry (the ``rl`` extra):
    ``gymnasium.make_vec("donuts_ai/Donuts-v0", num_envs=8, vectorization_mode="vector_entry_point")``
    works once ``donuts_ai`` is imported. The module registers on import (this hook may run
    while that module is itself importing Gymnasium)."""
    importlib.import_module(".interop.gymnasium", __name__)


def _register_with_openspiel() -> None:
    """``python_donuts`` in OpenSpiel's registry (the ``spiel`` extra): ``pyspiel.load_game("python_donuts")``
    works once ``donuts_ai`` is imported."""
    importlib.import_module(".interop.openspiel", __name__)


# When each library is imported (now, if it already is): importing them here would cost
# every ``import donuts_ai``, and every agent process of a tournament, tens of milliseconds.
when_imported("gymnasium", _register_with_gymnasium)
when_imported("pyspiel", _register_with_openspiel)

#: Public names loaded when first named, so that ``import donuts_ai`` stays light: the
#: solver (Donuts' search) and ``evaluate`` (accuracy against perfect play, which loads
#: the harness's seats and the suites).
_LAZY = {"MoveValue": "donuts.alphabeta.solver", "Solution": "donuts.alphabeta.solver", "Solver": "donuts.alphabeta.solver",
         "analyze": "donuts.alphabeta.solver", "solve": "donuts.alphabeta.solver", "evaluate": "suites.evaluation"}


# Lazy: importing the solver and ``evaluate`` (the harness and the suites) here would cost
# every ``import donuts_ai``, and every agent process of a tournament, 118 ms of CPU more
# (483 ms against 365 ms, the least of 11 fresh processes; the solver alone 45 ms).
def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "CHOCOLATE",
    "NUM_ARRANGEMENTS",
    "SQUARE_NAMES",
    "SYMMETRY_NAMES",
    "TILE_FACES",
    "VANILLA",
    "BaseState",
    "Board",
    "DonutsError",
    "Game",
    "GameEnd",
    "GameError",
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
    "get_game",
    "make",
    "make_rules",
    "register_game",
    "random_playouts",
    "square_name",
]
