"""MCTSAgent: UCT with random playouts and MCTS-Solver, in Numba arrays."""

from __future__ import annotations

import numpy as np

from ..._engine.position import game_of, position_of
from ...board import Board
from ...errors import DonutsError
from ...squares import SQUARE_NAMES, squares_of
from ..base import Agent, budget, check_time_limit, now, positive_int, tactical_choice, touch, warm_up
from ._tree import UNKNOWN, descend, new_tree, reset_tree, root_stats, run_tree, run_trees

#: Iterations of the first timed call, before the speed is known.
FIRST_CHUNK = 64
#: Iterations are run in calls of about this long, the clock read between them: the
#: most a move overshoots its budget by, at the measured speed.
CHUNK_SECONDS = 0.004
#: A call is sized to at most this share of the time left, so calls shrink as the
#: deadline nears and a slow one (the machine is busy) overshoots it by less.
LEFT_SHARE = 0.5
#: A call runs at most this many times the iterations of the one before (the speed of
#: one call, e.g. one spent in proven subtrees, is a poor guess for the next).
MAX_CHUNK_GROWTH = 4
#: A call is taken to last at least this long when measuring the speed.
MIN_CALL_SECONDS = 1e-6
#: Fewest and most iterations in one call.
MIN_CHUNK, MAX_CHUNK = 16, 1 << 16
#: A re-rooted tree must keep this share of its nodes free to be kept.
REUSE_MAX_FILL = 0.9


def _compile_one_tree(board: Board) -> None:
    """Compile the kernels of one tree on ``board`` (see :func:`~..base.warm_up`)."""
    tree = new_tree(1, 256)
    reset_tree(tree, 0, 1 - board.turn, 1)
    run_tree(tree, 0, game_of(board.layout, board.rules), position_of(*board.kernel_state()), board.turn, 8, 1.0)
    root_stats(tree, 0)
    descend(tree, 0, np.zeros(0, dtype=np.int64))


def _compile_parallel_trees(board: Board) -> None:
    """Compile the parallel kernel on ``board``."""
    tree = new_tree(2, 256)
    for t in range(2):
        reset_tree(tree, t, 1 - board.turn, 1)
    run_trees(tree, game_of(board.layout, board.rules), position_of(*board.kernel_state()), board.turn, 8, 1.0)


class MCTSAgent(Agent):
    """Monte-Carlo tree search (UCT, exploration constant ``c_uct``) with uniformly random
    playouts and MCTS-Solver backups of proven wins and losses.

    Limits: ``iterations`` per move, or ``time_limit`` seconds per move (default 1.0
    when neither is given), capped in blitz by :func:`~donuts_ai.agents.base.budget`.
    Whatever the limits, every move first gets the tactical pass
    (:func:`~donuts_ai.agents.base.tactical_choice`): a win at once, or the only move that
    does not lose at once, is played without searching, and the search never chooses a
    move that loses at once while another does not. Timed iterations run in calls of a
    few milliseconds with the clock read between them. ``workers`` > 1 runs that many
    independent trees in parallel threads (root parallelism) and sums their root
    visits. The tree is kept between moves and re-rooted at the new position when it
    holds the moves played since (``reuse=True``). With an iteration limit a seed fixes
    every move; with a time limit the number of iterations, hence the move, can vary.
    The trees' arrays are allocated and written when the agent is built.
    """

    kind = "mcts"

    def __init__(
        self,
        iterations: int | None = None,
        time_limit: float | None = None,
        c_uct: float = 1.0,
        workers: int = 1,
        max_nodes: int = 1 << 20,
        reuse: bool = True,
        seed: int | None = None,
        name: str | None = None,
    ):
        super().__init__(seed, name)
        self.iterations = positive_int("iterations", iterations)
        self.time_limit = check_time_limit(time_limit)
        if self.iterations is None and self.time_limit is None:
            self.time_limit = 1.0
        if isinstance(c_uct, bool) or not isinstance(c_uct, (int, float)) or not c_uct >= 0:
            raise DonutsError(f"c_uct must be a number >= 0, got {c_uct!r}")
        self.c_uct = float(c_uct)
        self.workers = positive_int("workers", workers)
        self.max_nodes = positive_int("max_nodes", max_nodes)
        if self.max_nodes < 64:
            raise DonutsError(f"max_nodes must be at least 64, got {max_nodes}")
        self.reuse = bool(reuse)
        warm_up("mcts", _compile_one_tree)
        if self.workers > 1:
            warm_up("mcts-parallel", _compile_parallel_trees)
        self._tree = new_tree(self.workers, self.max_nodes)
        touch(*self._tree)
        self._root_board: Board | None = None
        #: Figures from the last move: iterations, seconds, nodes, whether the tactical
        #: pass chose it (``forced``) and whether the root was proven (``proven``).
        self.last_info: dict = {}

    def params(self) -> dict:
        p = {}
        for key in ("iterations", "time_limit"):
            if getattr(self, key) is not None:
                p[key] = getattr(self, key)
        defaults = {"c_uct": 1.0, "workers": 1, "max_nodes": 1 << 20, "reuse": True}
        p |= {k: getattr(self, k) for k, v in defaults.items() if getattr(self, k) != v}
        return p | super().params()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._root_board = None

    def _new_trees(self, board: Board) -> None:
        """Fresh trees rooted at ``board``.

        The kernel orients each node's reward and proof to the colour that moved into
        it, and gives a new child the side to move of its parent's position (after a
        forfeit, or when the opponent's pool is empty and the same colour moves again,
        that is still the colour the rules say). The root's own colour orients only the
        root's reward and proof, which no choice reads; it is set to the colour that made
        the last placement when the board knows it, else to the other side."""
        root_mover = 1 - board.turn
        if board.move_stack and board.move_stack[-1] is not None:
            before = board.copy()
            before.pop()
            root_mover = before.turn
        for t in range(self.workers):
            reset_tree(self._tree, t, root_mover, self.rng.getrandbits(63))

    def _reroot(self, board: Board) -> bool:
        """Move the trees' roots to ``board`` if they hold the moves played since (none, when
        the same colour moves again)."""
        old = self._root_board
        if not self.reuse or old is None or (old.layout, old.rules) != (board.layout, board.rules):
            return False
        done, now_stack = old.move_stack, board.move_stack
        new = now_stack[len(done) :]
        if now_stack[: len(done)] != done or None in new:
            return False  # another game, or a forfeit: the tree's children assume moves alternate as played
        path = np.array([SQUARE_NAMES.index(m) for m in new], dtype=np.int64)
        if not all(descend(self._tree, t, path) for t in range(self.workers)):
            return False
        # A re-rooted tree must still have room to grow.
        return bool(self._tree.next_free.max() < self.max_nodes * REUSE_MAX_FILL)

    def _select(self, board: Board, time_left: float | None) -> str:
        start = now()
        tree = self._tree
        forced, allowed = tactical_choice(board)
        if forced is not None:
            move = SQUARE_NAMES[forced]
            self.last_info = {"iterations": 0, "seconds": now() - start, "nodes": int(tree.next_free.sum()), "forced": True,
                              "proven": False}
            self._root_board = None  # the trees were not moved to this position
            return move
        if not self._reroot(board):
            self._new_trees(board)
        seconds = budget(self.time_limit, time_left)
        game, pos, colour = game_of(board.layout, board.rules), position_of(*board.kernel_state()), board.turn
        iters0 = int(tree.iterations.sum())

        def run(k: int) -> None:
            if self.workers == 1:
                run_tree(tree, 0, game, pos, colour, k, self.c_uct)
            else:
                run_trees(tree, game, pos, colour, k, self.c_uct)

        if self.iterations is not None and seconds is None:
            run(max(1, self.iterations // self.workers))
        else:
            deadline = start + seconds
            cap = None if self.iterations is None else self.iterations // self.workers
            # At least one iteration per tree, which expands its root; one tree after the
            # other, since a parallel call waits for every thread to be scheduled, which
            # on a busy machine can take longer than a tiny budget.
            for t in range(self.workers):
                run_tree(tree, t, game, pos, colour, 1, self.c_uct)
            k, done, rate = 0, 1, None
            while not self._root_proven():
                left = deadline - now()
                if left <= 0 or (cap is not None and done >= cap):
                    break
                if rate is None:
                    k = FIRST_CHUNK
                else:  # sized at the last call's speed
                    k = max(MIN_CHUNK, min(int(rate * min(left * LEFT_SHARE, CHUNK_SECONDS)), MAX_CHUNK_GROWTH * k, MAX_CHUNK))
                if cap is not None:
                    k = min(k, cap - done)
                t = now()
                run(k)
                done += k
                rate = k / max(now() - t, MIN_CALL_SECONDS)
        move = self._choose(allowed) or SQUARE_NAMES[self.rng.choice(squares_of(allowed))]
        self.last_info = {
            "iterations": int(tree.iterations.sum()) - iters0,
            "seconds": now() - start,
            "nodes": int(tree.next_free.sum()),
            "forced": False,
            "proven": self._root_proven(),
        }
        self._root_board = board.copy()
        self._root_board.push(move)
        if not self._reroot_self(move):
            self._root_board = None
        return move

    def _reroot_self(self, move: str) -> bool:
        path = np.array([SQUARE_NAMES.index(move)], dtype=np.int64)
        return all(descend(self._tree, t, path) for t in range(self.workers))

    def _root_proven(self) -> bool:
        tree = self._tree
        return all(tree.proven[t, tree.root[t]] != UNKNOWN for t in range(self.workers))

    def _choose(self, allowed: int) -> str | None:
        """The move to play among the ``allowed`` squares (a bitboard): a proven win, else
        the most visited move not proven lost; None when the root was never expanded."""
        totals: dict[int, int] = {}
        proven: dict[int, int] = {}
        for t in range(self.workers):
            moves, visits, _, prov = root_stats(self._tree, t)
            for m, v, p in zip(moves.tolist(), visits.tolist(), prov.tolist(), strict=True):
                if allowed >> m & 1:
                    totals[m] = totals.get(m, 0) + v
                    if p != UNKNOWN:
                        proven[m] = p
        wins = [m for m, p in proven.items() if p == 1]
        if wins:
            return SQUARE_NAMES[min(wins)]
        candidates = [m for m in totals if proven.get(m) != -1] or list(totals)
        if not candidates:
            return None  # the root was never expanded (a full tree)
        best = max(candidates, key=lambda m: (totals[m], -m))
        return SQUARE_NAMES[best]
