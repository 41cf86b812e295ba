"""donuts_ai: play, search and study the board game Donuts (Bruno Cathala, Funforge 2023).

The public API::

    from donuts_ai import Board, Layout, Rules, perft, random_playouts
    from donuts_ai import make            # a fresh state of either game: make("donuts"), make("boxes", players=3)
    from donuts_ai import evaluate        # accuracy against perfect play (loaded when first used)

Squares are ints 0..35 (a1 = 0, f6 = 35; see :mod:`donuts_ai.squares`); colours are
0 (Chocolate, moves first) and 1 (Vanilla). The Numba kernels behind it live in the
private package ``donuts_ai._engine``; a pure-Python statement of the same rules is
:mod:`donuts_ai.reference`.
"""

import importlib
from typing import TYPE_CHECKING, Any

from . import _kernel_cache  # noqa: F401  (first: drops stale cached kernels before any is loaded)
from .agents import AGENTS, OPTIONAL_AGENTS
from .board import Board, Outcome, Termination
from .errors import DonutsError, GameOverError, IllegalMoveError, InvalidMoveError, LayoutError, PositionError, RulesError, SymmetryError
from .games import make
from .layout import NUM_ARRANGEMENTS, TILE_FACES, Layout, LayoutSpec
from .playouts import PlayoutStats, perft, random_playouts
from .rules import Rules, make_rules
from .squares import CHOCOLATE, SQUARE_NAMES, VANILLA, parse_square, square_name
from .symmetry import SYMMETRY_NAMES
from .tournament.protocol import KNOWN_GAMES
from .tournament.specs import ENGINE_POSITIONS
from .vector_env import VectorEnv

if TYPE_CHECKING:
    from .search.alphabeta.solver import MoveValue, Solution, Solver, analyze, solve
    from .suites.evaluation import evaluate

__version__ = "0.4.0"

# The registries by name of the lower layers, filled here: the package root runs before any
# of its modules, and only it may name every layer. Each entry is a dotted path, imported
# when first used, so this loads none of them (``import donuts_ai.agents`` loads no search).
AGENTS.add("alphabeta", "donuts_ai.search.alphabeta.agent:AlphaBetaAgent")
AGENTS.add("mcts", "donuts_ai.search.mcts.agent:MCTSAgent")
AGENTS.add("solver", "donuts_ai.search.alphabeta.agent:SolverAgent")
AGENTS.add("az", "donuts_ai.learn.agent:AlphaZeroAgent")
OPTIONAL_AGENTS["openspiel-mcts"] = ("donuts_ai.interop.openspiel:OpenSpielMCTSAgent", "spiel")
KNOWN_GAMES.update({"donuts": "donuts_ai.donuts_game", "boxes": "donuts_ai.boxes.game"})
ENGINE_POSITIONS["donuts"] = "donuts_ai.engine_protocol.position:position_command"

#: Public names loaded when first named, so that ``import donuts_ai`` stays light: the
#: solver (the search layer) and ``evaluate`` (accuracy against perfect play, which loads
#: the harness's seats and the suites).
_LAZY = {"MoveValue": "search.alphabeta.solver", "Solution": "search.alphabeta.solver", "Solver": "search.alphabeta.solver",
         "analyze": "search.alphabeta.solver", "solve": "search.alphabeta.solver", "evaluate": "suites.evaluation"}


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
    "make",
    "make_rules",
    "random_playouts",
    "square_name",
]
