"""An exact solver for any two-player, zero-sum game of perfect information given as a
:class:`~donuts_ai.search.compiled_game.CompiledGame`: negamax with alpha-beta, a
transposition table and null-window searches for the exact score, after Pascal Pons'
Connect Four solver (blog.gamesolver.org), in Numba kernels that import no game.

- :func:`solve` — a position's exact score and the positions explored;
- :func:`analyze` — the exact score of every legal move (Pons' ``move_scores``);
- :func:`analyze_within` — the same, a horizon of plies ahead at most (what the horizon
  does not decide scores 0): the depth-limited alpha-beta of an agent that deepens;
- :func:`new_table`, :func:`clear_table`, :func:`probe` — the transposition table.

Scores (:mod:`._scores`) count the distance: a win whose winning move is ``d`` plies away
scores ``WIN_SCORE - d``, a loss ``-(WIN_SCORE - d)``, a draw 0 (:func:`plies_to_end`,
:func:`score_before`, :func:`score_again` read and turn them). A search stopped by its node
budget returns :data:`UNKNOWN_SCORE` (nothing raises). The game's hooks (``winning``,
``safe``, ``plies_left``, ``order``) make the search faster and never change a score
(:mod:`._negamax` says what each prunes). A game binds :func:`solve` and :func:`analyze`
in cached kernels of its own, as :mod:`donuts_ai.search.compiled_game` shows.
"""

from ._negamax import NO_NODE_LIMIT, analyze, analyze_within, solve
from ._scores import NO_DISTANCE, NOT_LEGAL, UNKNOWN_SCORE, WIN_SCORE, plies_to_end, score_again, score_before
from ._table import ENTRY_BYTES, NO_LOWER, NO_UPPER, SolverTable, clear_table, new_table, probe

__all__ = ["ENTRY_BYTES", "NOT_LEGAL", "NO_DISTANCE", "NO_LOWER", "NO_NODE_LIMIT", "NO_UPPER", "UNKNOWN_SCORE", "WIN_SCORE",
           "SolverTable", "analyze", "analyze_within", "clear_table", "new_table", "plies_to_end", "probe", "score_again",
           "score_before", "solve"]
