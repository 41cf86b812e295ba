"""MCTSAgent: UCT with random playouts and MCTS-Solver, in Numba arrays."""

from __future__ import annotations

import numpy as np

from .._engine import mcts as M
from ..board import Board
from ..errors import DonutsError
from ..squares import SQUARE_NAMES
from .alphabeta import _positive_int
from .base import Agent, budget, check_time_limit, now, warm_up


class MCTSAgent(Agent):
    """Monte-Carlo tree search (UCT, exploration constant ``c_uct``) with uniformly random
    playouts and MCTS-Solver backups of proven wins and losses.

    Limits: ``iterations`` per move, or ``time_limit`` seconds per move (default 1.0
    when neither is given). ``workers`` > 1 runs that many independent trees in
    parallel threads (root parallelism) and sums their root visits. The tree is kept
    between moves and re-rooted at the new position when it holds the moves played
    since (``reuse=True``). With an iteration limit a seed fixes every move; with a
    time limit the number of iterations, hence the move, can vary.
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
        self.iterations = _positive_int("iterations", iterations)
        self.time_limit = check_time_limit(time_limit)
        if self.iterations is None and self.time_limit is None:
            self.time_limit = 1.0
        if isinstance(c_uct, bool) or not isinstance(c_uct, (int, float)) or not c_uct >= 0:
            raise DonutsError(f"c_uct must be a number >= 0, got {c_uct!r}")
        self.c_uct = float(c_uct)
        self.workers = _positive_int("workers", workers)
        self.max_nodes = _positive_int("max_nodes", max_nodes)
        if self.max_nodes < 64:
            raise DonutsError(f"max_nodes must be at least 64, got {max_nodes}")
        self.reuse = bool(reuse)
        warm_up("mcts" if self.workers == 1 else "mcts-parallel")
        self._forest = M.new_forest(self.workers, self.max_nodes)
        self._root_board: Board | None = None
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
        root_mover = 1 - board.turn
        for t in range(self.workers):
            M.reset_tree(self._forest, t, root_mover, self.rng.getrandbits(63))

    def _reroot(self, board: Board) -> bool:
        """Move the trees' roots to ``board`` if they hold the moves played since."""
        old = self._root_board
        if not self.reuse or old is None or (old.layout, old.rules) != (board.layout, board.rules):
            return False
        done, now_stack = old.move_stack, board.move_stack
        new = now_stack[len(done) :]
        if now_stack[: len(done)] != done or None in new or not new:
            return False
        path = np.array([SQUARE_NAMES.index(m) for m in new], dtype=np.int64)
        if not all(M.descend(self._forest, t, path) for t in range(self.workers)):
            return False
        # A re-rooted tree must still have room to grow.
        return bool(self._forest[7][:, M.M_FREE].max() < self.max_nodes * 0.9)

    def _select(self, board: Board, time_left: float | None) -> str:
        start = now()
        if not self._reroot(board):
            self._new_trees(board)
        seconds = budget(self.time_limit, time_left)
        lm = board.layout.line_masks
        n, single = board.rules.donuts, board.rules.single
        state = board.kernel_state()
        meta = self._forest[7]
        iters0 = int(meta[:, M.M_ITERS].sum())

        def run(k: int) -> None:
            if self.workers == 1:
                M.run_tree(self._forest, 0, lm, *state, n, single, k, self.c_uct)
            else:
                M.run_forest(self._forest, lm, *state, n, single, k, self.c_uct)

        if self.iterations is not None and seconds is None:
            run(max(1, self.iterations // self.workers))
        else:
            deadline = start + seconds
            cap = None if self.iterations is None else self.iterations // self.workers
            run(1)  # at least one iteration, which expands the root
            chunk, done = 64, 1
            while True:
                left = deadline - now()
                if left <= 0 or (cap is not None and done >= cap):
                    break
                k = chunk if cap is None else min(chunk, cap - done)
                t = now()
                run(k)
                done += k
                rate = k / max(now() - t, 1e-6)
                chunk = max(16, min(int(rate * min(left, 0.02)), 1 << 16))  # ~20 ms a call
                if self._root_proven():
                    break
        move = self._choose() or self.rng.choice(board.legal_moves())
        self.last_info = {
            "iterations": int(meta[:, M.M_ITERS].sum()) - iters0,
            "seconds": now() - start,
            "nodes": int(meta[:, M.M_FREE].sum()),
        }
        self._root_board = board.copy()
        self._root_board.push(move)
        if not self._reroot_self(move):
            self._root_board = None
        return move

    def _reroot_self(self, move: str) -> bool:
        path = np.array([SQUARE_NAMES.index(move)], dtype=np.int64)
        return all(M.descend(self._forest, t, path) for t in range(self.workers))

    def _root_proven(self) -> bool:
        visits, reward, first, count, move, mover, proven, meta = self._forest
        return all(proven[t, meta[t, M.M_ROOT]] != M.UNKNOWN for t in range(self.workers))

    def _choose(self) -> str | None:
        totals: dict[int, int] = {}
        proven: dict[int, int] = {}
        for t in range(self.workers):
            moves, visits, _, prov = M.root_stats(self._forest, t)
            for m, v, p in zip(moves.tolist(), visits.tolist(), prov.tolist(), strict=True):
                totals[m] = totals.get(m, 0) + v
                if p != M.UNKNOWN:
                    proven[m] = p
        wins = [m for m, p in proven.items() if p == 1]
        if wins:
            return SQUARE_NAMES[min(wins)]
        candidates = [m for m in totals if proven.get(m) != -1] or list(totals)
        if not candidates:
            return None  # the root was never expanded (a full tree)
        best = max(candidates, key=lambda m: (totals[m], -m))
        return SQUARE_NAMES[best]
