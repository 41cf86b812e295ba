"""Negamax with alpha-beta over the state API, for any two-sided two-player game whose
state speaks :class:`~donuts_ai.state.GameState` (``turn``, ``legal_moves()``, ``push``,
``pop``, ``outcome()``), in plain Python, played by
:class:`~donuts_ai.agents.generic.GenericAlphaBetaAgent` and
:class:`~donuts_ai.agents.generic.GenericSolverAgent`.

:class:`NegamaxSearch` deepens iteratively (depth 1, 2, ... plies) on the one state it is
given, with ``push`` and ``pop``, and leaves it as it came. Scores are for the player to
move, integers:

- a finished game: a win :data:`WIN` minus the plies from the root to it (a quicker win
  scores more, a slower loss less), a loss the opposite, a draw 0;
- a game that goes on at the depth limit (a *leaf*): the game's heuristic (a number in
  [-1, 1] for the player who moved into it) times :data:`HEURISTIC_SCALE`, below any win;
  0 when the game gives none (those leaves are counted: :attr:`NegamaxResult.unscored_leaves`).

A player may move twice running (the score is then not negated). The result is
``proven`` when every line reached the end of the game (the comment above
:class:`NegamaxSearch` says how the table and the limits work).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from ..state import GameOutcome, GameState

#: The score of a win at the root; a win ``k`` plies away scores ``WIN - k``.
WIN = 1_000_000_000
#: Longest game, in plies, whose win scores tell apart from the heuristic's.
MAX_PLIES = 1_000_000
#: A score above this is a forced win, below its negative a forced loss.
MATE_BOUND = WIN - MAX_PLIES
#: A heuristic of 1 scores this: below :data:`MATE_BOUND`, so no heuristic outweighs a win.
HEURISTIC_SCALE = 1_000_000
#: Above every score.
INFINITY = WIN + 1
#: An entry's bound: its value is exact, a lower bound (the search failed high), or an upper
#: bound (it failed low).
EXACT, LOWER, UPPER = 0, 1, 2
#: The depth of an entry whose subtree met no depth limit: good at any depth.
EXACT_DEPTH = 1 << 30
#: Nodes between looks at the node limit and the clock.
CHECK_NODES = 256
#: Entries of the table by default; it is emptied when it reaches its size (a few hundred
#: bytes an entry: about 100 MB).
DEFAULT_TABLE_ENTRIES = 1 << 19
#: The two players of a two-sided game.
TWO_PLAYERS = (0, 1)


class TableEntry(NamedTuple):
    """A transposition table entry: the ``depth`` searched (:data:`EXACT_DEPTH`: to the end
    of every line), the ``value`` (a win or loss counted from this node), its ``bound``
    and the best ``move`` found (``None``: none searched)."""

    depth: int
    value: int
    bound: int
    move: str | None


@dataclass(frozen=True)
class NegamaxResult:
    """What :meth:`NegamaxSearch.search` found: the move, its score for the player to move,
    the deepest finished iteration (``depth``), the nodes (moves pushed), whether the score
    is the exact value (``proven``), whether the search stopped of itself (proven, or at its
    depth limit) rather than for its node or time budget (``finished``), and the leaves
    scored by the heuristic and without one (scored 0)."""

    move: str
    score: int
    depth: int
    nodes: int
    proven: bool
    finished: bool
    scored_leaves: int
    unscored_leaves: int


class NotTwoSidedError(ValueError):
    """The searched game has a third player: negamax searches two-sided games only."""


class _Stopped(Exception):
    """The node or time budget ran out in the middle of an iteration."""


def _key_of_text(state: Any) -> Hashable:
    """The default key of a state: its text (``to_text()``)."""
    text: str = state.to_text()
    return text


# The transposition table is a dict keyed on the game's state_key(state); an entry holds the
# depth searched, the value, its bound (EXACT, LOWER, UPPER) and the best move, which is
# searched first the next time. A subtree whose every line reached the end of the game is
# stored at EXACT_DEPTH (good at any depth), so an iteration that met no leaf, nor leaned on
# an entry that did, has the exact value: the result is then proven, as it is when a forced
# win or loss is found. The node and time limits are read every CHECK_NODES nodes; a search
# stopped by them keeps the move of the last finished iteration (or of the unfinished one,
# when its first move, the previous best, was searched to the end). Depth 1 always finishes.
class NegamaxSearch:
    """Iterative-deepening negamax with alpha-beta and a transposition table (module doc).

    Args:
        heuristic: ``(state, player) -> float in [-1, 1] | None``, how good a position that
            goes on looks for ``player`` (the game's :meth:`~donuts_ai.game.Game.heuristic`);
            ``None``, or a ``None`` answer: the leaf scores 0.
        key: ``state -> Hashable``, the table's key (:meth:`~donuts_ai.game.Game.state_key`);
            default ``state.to_text()``.
        table_entries: the most entries of the table, which is kept from search to search
            (:meth:`clear` empties it) and emptied when full.
    """

    def __init__(self, heuristic: Callable[[Any, int], float | None] | None = None, key: Callable[[Any], Hashable] = _key_of_text,
                 table_entries: int = DEFAULT_TABLE_ENTRIES) -> None:
        self._heuristic = heuristic
        self._key = key
        self._table_entries = table_entries
        self.table: dict[Hashable, TableEntry] = {}
        self._state: Any = None
        self._nodes = self._next_check = self._scored = self._unscored = self._cut_lines = 0
        self._node_limit: int | None = None
        self._deadline: float | None = None
        self._clock: Callable[[], float] = time.perf_counter
        self._partial: tuple[str, int] | None = None

    def clear(self) -> None:
        """Empty the transposition table."""
        self.table.clear()

    def search(self, state: GameState, *, depth: int | None = None, nodes: int | None = None, deadline: float | None = None,
               clock: Callable[[], float] = time.perf_counter) -> NegamaxResult:
        """The best move of the player to move in ``state`` (a game that goes on, left as it came).

        Args:
            state: the position, searched in place with ``push`` and ``pop``.
            depth: the deepest iteration, in plies; ``None``: until proven.
            nodes: stop once this many moves were pushed (depth 1 aside); ``None``: no limit.
            deadline: stop once ``clock()`` reaches it (depth 1 aside); ``None``: no limit.
            clock: the clock ``deadline`` is on.

        Returns:
            The move and figures (:class:`NegamaxResult`).

        Raises:
            ValueError: a finished game.
            NotTwoSidedError: a player other than 0 and 1 is to move, here or in the search.
        """
        moves = list(state.legal_moves())
        if not moves or state.turn is None:
            raise ValueError("negamax: the game is over")
        if state.turn not in TWO_PLAYERS:
            raise NotTwoSidedError(f"player {state.turn} is to move: negamax searches two-player games")
        self._state, self._node_limit, self._deadline, self._clock = state, nodes, deadline, clock
        self._nodes = self._scored = self._unscored = 0
        base = len(state.move_stack)
        best_move, best_score, reached, proven, finished = moves[0], 0, 0, False, False
        iteration = 1
        while depth is None or iteration <= depth:
            self._next_check = INFINITY if iteration == 1 else self._nodes  # depth 1 always finishes
            cut_before = self._cut_lines
            try:
                move, score = self._root(iteration, moves)
            except _Stopped:
                while len(state.move_stack) > base:
                    state.pop()
                if self._partial is not None:  # its first move, the previous best, was searched to the end
                    best_move, best_score = self._partial
                    proven = best_score > MATE_BOUND
                break
            best_move, best_score, reached = move, score, iteration
            # No leaf met (nor an entry that met one): every line ended; or a forced win or loss.
            proven = self._cut_lines == cut_before or abs(score) > MATE_BOUND
            if proven:
                finished = True
                break
            moves = [move, *(m for m in moves if m != move)]
            iteration += 1
        else:
            finished = True
        self._state = None
        return NegamaxResult(best_move, best_score, reached, self._nodes, proven, finished, self._scored, self._unscored)

    def _check(self) -> None:
        """Stop (:class:`_Stopped`) when the node or time budget is spent; else set the next check."""
        if self._node_limit is not None and self._nodes >= self._node_limit:
            raise _Stopped
        if self._deadline is not None and self._clock() >= self._deadline:
            raise _Stopped
        self._next_check = self._nodes + CHECK_NODES
        if self._node_limit is not None:
            self._next_check = min(self._next_check, self._node_limit)

    def _root(self, depth: int, moves: Sequence[str]) -> tuple[str, int]:
        """One iteration at the root: (best move, its exact score) at ``depth`` plies, the
        moves searched in the order given; :attr:`_partial` holds the best so far."""
        player, cut_before = self._state.turn, self._cut_lines
        alpha, best_move, self._partial = -INFINITY, moves[0], None
        for move in moves:
            score = self._child_score(move, player, depth, alpha, INFINITY, 0)
            if score > alpha:
                alpha, best_move = score, move
            self._partial = best_move, alpha
        self._store(self._key(self._state), EXACT_DEPTH if self._cut_lines == cut_before else depth, alpha, EXACT, best_move, 0)
        return best_move, alpha

    def _child_score(self, move: str, player: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The score for ``player`` (to move at ``ply``) of ``move`` searched to ``depth`` plies."""
        state = self._state
        state.push(move)
        self._nodes += 1
        if self._nodes >= self._next_check:
            self._check()
        end = state.outcome()
        if end is not None:
            score = self._terminal(end, player, ply + 1)
        elif depth <= 1:
            score = self._leaf(player)
        else:
            after = state.turn
            if after == player:  # the same player moves again
                score = self._value(depth - 1, alpha, beta, ply + 1)
            elif after == 1 - player:
                score = -self._value(depth - 1, -beta, -alpha, ply + 1)
            else:
                raise NotTwoSidedError(f"player {after} is to move: negamax searches two-player games")
        state.pop()
        return score

    def _value(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The alpha-beta value at ``depth`` plies for the player to move (a game that goes on)."""
        state = self._state
        key = self._key(state)
        entry = self.table.get(key)
        first = None
        if entry is not None:
            stored_depth, value, bound, first = entry
            if stored_depth >= depth:
                value = value - ply if value > MATE_BOUND else value + ply if value < -MATE_BOUND else value
                if bound == EXACT or (bound == LOWER and value >= beta) or (bound == UPPER and value <= alpha):
                    if stored_depth != EXACT_DEPTH:
                        self._cut_lines += 1  # a value that leans on leaves
                    return value
        moves = state.legal_moves()
        if first is not None and first in moves:
            moves = [first, *(m for m in moves if m != first)]
        player, alpha_in, cut_before = state.turn, alpha, self._cut_lines
        best, best_move = -INFINITY, None
        for move in moves:
            score = self._child_score(move, player, depth, alpha, beta, ply)
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        bound = UPPER if best <= alpha_in else LOWER if best >= beta else EXACT
        self._store(key, EXACT_DEPTH if self._cut_lines == cut_before else depth, best, bound, best_move, ply)
        return best

    def _store(self, key: Hashable, depth: int, value: int, bound: int, move: str | None, ply: int) -> None:
        """Keep an entry, a win or loss counted from its node (not from the root)."""
        if len(self.table) >= self._table_entries:
            self.table.clear()
        value = value + ply if value > MATE_BOUND else value - ply if value < -MATE_BOUND else value
        self.table[key] = TableEntry(depth, value, bound, move)

    @staticmethod
    def _terminal(end: GameOutcome, player: int, ply: int) -> int:
        """A finished game's score for ``player``, ``ply`` plies from the root."""
        winner = end.winner
        if winner is None:
            return 0
        return WIN - ply if winner == player else ply - WIN

    def _leaf(self, player: int) -> int:
        """A position at the depth limit, scored for ``player`` by the heuristic (0 without one)."""
        self._cut_lines += 1
        value = None if self._heuristic is None else self._heuristic(self._state, player)
        if value is None:
            self._unscored += 1
            return 0
        self._scored += 1
        return round(max(-1.0, min(1.0, value)) * HEURISTIC_SCALE)
