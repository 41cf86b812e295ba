"""The root prover of :class:`~.mcts.MCTSAgent`: an exact, node-limited search of the
value of the position to move in, with the alpha-beta package's :class:`Solver` (its
null-window search and transposition table, kept for a game's layout and rules).

Why: positions a few plies into a game are mostly small for an exact search (on
positions of random games at ply 6 to 23, a solve of the value takes a median of well
under 1 ms and 20,000 nodes prove 197 in 200), while random playouts need hundreds of
thousands of iterations to prove a narrow win. MCTS-Solver proves too, but an
iteration costs a whole playout.

The node-limited search is :meth:`Solver.bounded_value` (the value, or None when the
node limit is hit).
"""

from __future__ import annotations

from ...outcomes import value_for
from ..alphabeta import Solver
from ..board import Board

#: The prover's transposition table: 2**18 entries of 24 bytes (6 MiB).
PROVER_TT_BITS = 18


class RootProver:
    """Exact values of positions within a node budget (see the module doc)."""

    def __init__(self, tt_bits: int = PROVER_TT_BITS):
        self._solver = Solver(tt_bits)

    @property
    def nodes(self) -> int:
        """Nodes searched since the prover was made."""
        return self._solver.nodes

    def clear(self) -> None:
        """Forget the table (a new game)."""
        self._solver.clear()

    def value(self, board: Board, node_limit: int) -> int | None:
        """-1 / 0 / +1 for the side to move of ``board`` (not over), or None when
        ``node_limit`` nodes do not settle it. Calls on the same board resume where the
        last stopped, in few nodes: finished subtrees are in the table."""
        return self._solver.bounded_value(board, node_limit)

    def child_value(self, board: Board, sq: int, node_limit: int) -> int | None:
        """The value for the side to move of ``board`` of playing ``sq`` there, or None
        when ``node_limit`` nodes do not settle it."""
        child = board.copy(stack=False)
        child.push(sq)
        outcome = child.outcome()
        if outcome is not None:
            assert board.turn is not None  # sq was played: someone was to move
            return value_for(outcome.winner, board.turn)
        reply = self.value(child, node_limit)
        if reply is None:
            return None
        return reply if child.turn == board.turn else -reply
