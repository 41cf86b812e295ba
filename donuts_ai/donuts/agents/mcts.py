"""MCTSAgent: UCT with random playouts and MCTS-Solver, in Numba arrays."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TypedDict

import numpy as np
from numpy.typing import NDArray

from ...agents.base import SIMULATIONS, budget, check_exploration, check_flag, check_time_limit, now, positive_int
from ...errors import AgentError
from ...outcomes import UNKNOWN
from ...search.mcts import MAX_TREE_NODES, NODE_BYTES, MCTSSettings, compact, descend, grown, reset_tree, root_stats
from .._kernels.position import Position, Rulebook, position_of, rulebook_of
from ..board import Board
from ..squares import NUM_SQUARES, SQUARE_NAMES, squares_of
from ._mcts_bound import new_tree, run_tree, run_trees
from ._mcts_proof import PROVER_TT_BITS, RootProver
from .donuts_agent import DonutsAgent
from .search_base import tactical_choice, touch, warm_up

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
#: Default exploration constant of UCT (``exploration``; rewards lie in [0, 1]).
DEFAULT_EXPLORATION = 1.0
#: Default bound on the trees' node arrays, all trees together, in MiB.
DEFAULT_MAX_MEMORY_MB = 512
#: Bytes in a MiB.
MB = 1 << 20
#: Fewest nodes a tree may have (``max_nodes``, or what ``max_memory_mb`` leaves a tree).
MIN_NODES = 64
#: A tree starts with room for at least this many nodes (about 1 s of search on one
#: core)...
FIRST_NODES = 1 << 20
#: ... or for this many nodes per second of the time limit (a guess, on the high side, at
#: how fast a tree grows: about 1.3 million nodes/s on a shared 2-core EPYC), so that a
#: timed move seldom waits for the arrays to be copied into larger ones...
GUESSED_NODES_PER_SECOND = 2_000_000
#: ... but never more than this many when the agent is built (160 MB a tree); the rest
#: comes by growing, and only when a search fills it.
MAX_FIRST_NODES = 1 << 23
#: Most children of one node (one per square): the room an expansion may need.
MAX_CHILDREN = NUM_SQUARES
#: A full tree at its largest is recycled (:func:`donuts_ai.search.mcts.compact`) down to this share of its nodes.
KEEP_SHARE = 0.5
#: Seconds per used node that a growth (copying the used nodes into fresh memory) and a
#: recycling (walking the reachable nodes, sliding the kept ones) are expected to take
#: before one has been timed: on the slow side (measured on a shared 2-core EPYC: about
#: 13 ns and 60 ns), so that a timed move only starts one when it has the time for it.
GUESSED_GROW_SECONDS_PER_NODE = 3e-8
GUESSED_COMPACT_SECONDS_PER_NODE = 1.5e-7
#: Visit counts are int32: a tree's root stops at this many (about 45 minutes of one
#: tree's search at today's speed), so that no count wraps around.
MAX_VISITS = (1 << 31) - 1
#: Default share of a move's budget first given to the root prover (:mod:`._mcts_proof`).
DEFAULT_PROOF_SHARE = 0.2
#: With a simulation limit the prover gets this many nodes per simulation of its share:
#: about as long as an iteration takes (4 M prover nodes/s, 0.8 M iterations/s here).
PROOF_NODES_PER_ITERATION = 5
#: Prover nodes per second assumed before the first measurement: low, so a first slice ends early.
INITIAL_PROOF_NPS = 1_000_000.0
#: Fewest nodes in a slice of a timed proof.
MIN_PROOF_SLICE = 500


def _compile_one_tree(board: Board) -> None:
    """Compile the kernels of one tree on ``board`` (see :func:`~.search_base.warm_up`)."""
    turn = board.turn
    assert turn is not None  # a game that goes on
    tree = new_tree(1, 256)
    reset_tree(tree, 0, 1 - turn, 1)
    run_tree(tree, 0, rulebook_of(board.layout, board.rules), position_of(*board.kernel_state()), turn, 8,
             MCTSSettings(1.0, True), True)
    root_stats(tree, 0)
    descend(tree, 0, np.zeros(0, dtype=np.int64))
    compact(tree, 0, 128)
    RootProver(tt_bits=10).value(board, 1000)


def _compile_parallel_trees(board: Board) -> None:
    """Compile the parallel kernel on ``board``."""
    turn = board.turn
    assert turn is not None  # a game that goes on
    tree = new_tree(2, 256)
    for t in range(2):
        reset_tree(tree, t, 1 - turn, 1)
    run_trees(tree, rulebook_of(board.layout, board.rules), position_of(*board.kernel_state()), turn,
              np.full(2, 8, dtype=np.int64), np.ones(2, dtype=np.bool_), MCTSSettings(1.0, True), np.zeros(2, dtype=np.int64),
              np.zeros(2, dtype=np.bool_))


class MCTSInfo(TypedDict, total=False):
    """:attr:`MCTSAgent.last_info`: figures from the last move (empty before the first)."""

    iterations: int
    seconds: float
    nodes: int  # in all trees after this move's search (0 when no tree was searched: forced, or proved by the prover)
    capacity: int  # nodes per tree
    grows: int  # growths during the move
    compactions: int  # recyclings during the move
    forced: bool  # the tactical pass chose the move
    proof: int | None  # the value the prover proved (-1 / 0 / +1 for the side to move), or None
    proof_nodes: int
    proven: bool  # the root was proven (by the prover, or by the tree's MCTS-Solver backups)


@dataclass(frozen=True)
class TreeMemory:
    """The bound on :class:`MCTSAgent`'s trees.

    Attributes:
        max_memory_mb: MiB the trees' node arrays may take, all trees together, at any
            moment, a growth included (:data:`~donuts_ai.search.mcts.NODE_BYTES` a node).
        max_nodes: the most nodes a tree may have; ``None``: what the memory allows.
    """

    max_memory_mb: int = DEFAULT_MAX_MEMORY_MB
    max_nodes: int | None = None


class MCTSAgent(DonutsAgent):
    """Monte-Carlo tree search (UCT) with uniformly random playouts and MCTS-Solver backups
    of proven wins and losses, its trees in Numba arrays.

    Every move first gets the tactical pass (:func:`~.search_base.tactical_choice`: a win at
    once, or the only move that does not lose at once, is played without searching). Then
    the root prover (:mod:`._mcts_proof`) gets ``proof_share`` of the budget and plays a
    proven win or draw; else the tree search has the rest. The trees are kept between moves
    (``reuse``), grow with thinking time within :class:`TreeMemory`'s bound and, once full,
    recycle their least-visited subtrees. With a simulation limit a seed fixes every move.
    """

    kind = "mcts"

    def __init__(
        self,
        simulations: int | None = None,
        time_limit: float | None = None,
        *,
        exploration: float = DEFAULT_EXPLORATION,
        workers: int = 1,
        proof_share: float = DEFAULT_PROOF_SHARE,
        reuse: bool = True,
        memory: TreeMemory | None = None,
        seed: int | None = None,
        name: str | None = None,
    ):
        """An agent that searches with these limits and knobs.

        Args:
            simulations: MCTS iterations a move, all workers together; ``None``: timed.
            time_limit: seconds a move (1.0 when neither limit is given), capped in blitz by
                :func:`~donuts_ai.agents.base.budget`.
            exploration: UCT's exploration constant (rewards lie in [0, 1]).
            workers: independent trees searched in parallel threads (root parallelism).
            proof_share: the share of a move's budget first given to the root prover (with a
                simulation limit, ``proof_share * simulations * 5`` nodes); 0: pure MCTS.
            reuse: keep the tree between moves, re-rooted at the new position.
            memory: the bound on the trees (:class:`TreeMemory`); ``None``: its defaults.
            seed: the seed of the random playouts.
            name: the agent's name.
        """
        super().__init__(seed, name)
        #: Simulations (MCTS iterations) a move, all workers together; ``None``: timed.
        self.simulations = positive_int(SIMULATIONS, simulations)
        self.time_limit = check_time_limit(time_limit)
        if self.simulations is None and self.time_limit is None:
            self.time_limit = 1.0
        self.exploration = check_exploration(exploration)
        self._settings = MCTSSettings(self.exploration, True)  # MCTS-Solver always on
        self.workers = positive_int("workers", workers, allow_none=False)
        if memory is None:
            memory = TreeMemory()
        elif not isinstance(memory, TreeMemory):
            raise AgentError(f"memory must be a TreeMemory, got {memory!r}")
        #: The bound on the trees.
        self.memory = memory
        max_nodes, max_memory_mb = memory.max_nodes, memory.max_memory_mb
        self.max_nodes = positive_int("max_nodes", max_nodes)
        if self.max_nodes is not None and not MIN_NODES <= self.max_nodes <= MAX_TREE_NODES:
            raise AgentError(f"max_nodes must be at least {MIN_NODES} and at most {MAX_TREE_NODES}, got {max_nodes}")
        self.max_memory_mb = positive_int("max_memory_mb", max_memory_mb, allow_none=False)
        # Memory: the node arrays start with room for what the time limit is likely to fill
        # (FIRST_NODES to MAX_FIRST_NODES), allocated and written now. When a search fills
        # them they are copied into arrays up to twice as large while the bound allows (old
        # and new arrays together within it: grown ones end between one half and two thirds
        # of it); after that a full tree is recycled in place (search.mcts.compact): the
        # least-visited nodes lose their children, down to KEEP_SHARE of its nodes, which
        # borrows 8 bytes per kept node with children for a moment. A timed move starts a
        # growth or a recycling only when it has the time (it measures what they cost);
        # else that tree stops growing for the rest of the move. With a simulation limit
        # every growth and recycling is done, at the same points for the same seed. The
        # prover's table (2**18 entries, 6 MiB) comes on top of the bound; it is kept from
        # move to move and cleared by reset().
        #: Nodes per tree that the memory bound allows (arrays old and new, while growing, count together).
        self._memory_nodes = self.max_memory_mb * MB // (self.workers * NODE_BYTES)
        if self._memory_nodes < MIN_NODES:
            raise AgentError(f"max_memory_mb={max_memory_mb} leaves fewer than {MIN_NODES} nodes per tree for "
                              f"{self.workers} workers ({NODE_BYTES} bytes a node)")
        if self.max_nodes is not None and self.max_nodes > self._memory_nodes:
            raise AgentError(f"max_nodes={max_nodes} does not fit in max_memory_mb={max_memory_mb} with "
                              f"{self.workers} worker(s): {NODE_BYTES} bytes a node; raise max_memory_mb")
        #: The most nodes a tree may have.
        self._node_limit = min(self._memory_nodes, MAX_TREE_NODES, self.max_nodes or MAX_TREE_NODES)
        if isinstance(proof_share, bool) or not isinstance(proof_share, (int, float)) or not 0 <= proof_share < 1:
            raise AgentError(f"proof_share must be a number in [0, 1), got {proof_share!r}")
        self.proof_share = float(proof_share)
        self.reuse = check_flag("reuse", reuse)
        warm_up("mcts", _compile_one_tree)
        if self.workers > 1:
            warm_up("mcts-parallel", _compile_parallel_trees)
        wanted = FIRST_NODES if self.time_limit is None else max(FIRST_NODES, int(self.time_limit * GUESSED_NODES_PER_SECOND))
        self._tree = new_tree(self.workers, min(self._node_limit, wanted, MAX_FIRST_NODES))
        touch(*self._tree)
        #: Measured seconds per node of a growth and of a recycling (the slowest seen).
        self._grow_cost = GUESSED_GROW_SECONDS_PER_NODE
        self._compact_cost = GUESSED_COMPACT_SECONDS_PER_NODE
        self._prover = RootProver(PROVER_TT_BITS) if self.proof_share > 0 else None
        self._proof_nps = INITIAL_PROOF_NPS
        self._root_board: Board | None = None
        #: Figures from the last move: iterations, seconds, nodes (in all trees now),
        #: capacity (nodes per tree), growths and recyclings during the move, whether the
        #: tactical pass chose it (``forced``), the prover's nodes and the value it proved
        #: (``proof``: -1 / 0 / +1 for the side to move, or None), and whether the root
        #: was proven (``proven``: by the prover, or by the tree's MCTS-Solver backups).
        self.last_info: MCTSInfo = {}

    def params(self) -> dict[str, object]:
        p: dict[str, object] = {}
        for key in (SIMULATIONS, "time_limit"):
            if getattr(self, key) is not None:
                p[key] = getattr(self, key)
        # ``memory`` is no plain value a spec can hold: left out.
        defaults = {"exploration": DEFAULT_EXPLORATION, "workers": 1, "proof_share": DEFAULT_PROOF_SHARE, "reuse": True}
        p |= {k: getattr(self, k) for k, v in defaults.items() if getattr(self, k) != v}
        return p | super().params()

    @property
    def capacity(self) -> int:
        """Nodes each tree has room for now."""
        return int(self._tree.visits.shape[1])

    @property
    def memory_mb(self) -> float:
        """MiB the trees' node arrays take now."""
        return self.workers * self.capacity * NODE_BYTES / MB

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._root_board = None
        if self._prover is not None:
            self._prover.clear()  # games stay independent of what the agent played before

    def _new_trees(self, board: Board) -> None:
        """Fresh trees rooted at ``board``.

        The kernel orients each node's reward and proof to the color that moved into
        it, and gives a new child the side to move of its parent's position (after a
        forfeit, or when the opponent's pool is empty and the same color moves again,
        that is still the color the rules say). The root's own color orients only the
        root's reward and proof, which no choice reads; it is set to the color that made
        the last placement when the board knows it, else to the other side."""
        assert board.turn is not None  # a game that goes on
        root_mover = 1 - board.turn
        if board.move_stack and board.move_stack[-1] is not None:
            before = board.copy()
            before.pop()
            assert before.turn is not None  # a move was played from it
            root_mover = before.turn
        for t in range(self.workers):
            reset_tree(self._tree, t, root_mover, self.rng.getrandbits(63))

    def _reroot(self, board: Board) -> bool:
        """Move the trees' roots to ``board`` if they hold the moves played since (none, when
        the same color moves again) and the new roots have children. (A full re-rooted
        tree is recycled when the search needs room: what lies outside the new root goes
        first.)"""
        old = self._root_board
        if not self.reuse or old is None or (old.layout, old.rules) != (board.layout, board.rules):
            return False
        done, now_stack = old.move_stack, board.move_stack
        new = now_stack[len(done) :]
        if now_stack[: len(done)] != done or None in new:
            return False  # another game, or a forfeit: the tree's children assume moves alternate as played
        path = np.array([SQUARE_NAMES.index(m) for m in new if m is not None], dtype=np.int64)  # (no None: see above)
        if not all(descend(self._tree, t, path) for t in range(self.workers)):
            return False
        tree = self._tree
        return all(tree.first_child[t, tree.root[t]] >= 0 for t in range(self.workers))

    def _make_room(self, t: int, deadline: float | None) -> bool:
        """Room for an expansion in full tree ``t``: grow every tree's arrays (twice as
        large, within the bounds) or else recycle tree ``t``. With a ``deadline``, only
        if the work is expected to end well before it. Returns whether there is room now."""
        tree, capacity = self._tree, self.capacity
        if capacity - int(tree.node_count[t]) >= MAX_CHILDREN:
            return True  # another full tree's growth made room in this one too
        used = int(tree.node_count.max())
        grow_to = min(2 * capacity, self._node_limit, self._memory_nodes - capacity)
        growing = grow_to - used >= MAX_CHILDREN and grow_to > capacity
        if deadline is not None:
            cost = used * self.workers * self._grow_cost if growing else int(tree.node_count[t]) * self._compact_cost
            if cost > (deadline - now()) * LEFT_SHARE:
                return False
        start = now()
        if growing:
            self._tree = grown(tree, grow_to)
            self._grow_cost = max(self._grow_cost, (now() - start) / max(1, used * self.workers))
            self._grows += 1
            return True
        before = int(tree.node_count[t])
        kept = int(compact(tree, t, max(MIN_NODES, int(capacity * KEEP_SHARE))))
        self._compact_cost = max(self._compact_cost, (now() - start) / max(1, before))
        self._compactions += 1
        return capacity - kept >= MAX_CHILDREN

    def _run(self, todo: NDArray[np.int64], frozen: NDArray[np.bool], rulebook: Rulebook, pos: Position,
             color: int) -> tuple[NDArray[np.int64], NDArray[np.bool]]:
        """``todo[t]`` iterations on each tree ``t`` (a tree stops when full unless
        ``frozen[t]``): the iterations run and whether each tree is full."""
        if self.workers == 1:
            d, f = run_tree(self._tree, 0, rulebook, pos, color, int(todo[0]), self._settings, not frozen[0])
            return np.array([d], dtype=np.int64), np.array([f], dtype=np.bool_)
        done = np.zeros(self.workers, dtype=np.int64)
        full = np.zeros(self.workers, dtype=np.bool_)
        run_trees(self._tree, rulebook, pos, color, todo, ~frozen, self._settings, done, full)
        return done, full

    def _headroom(self) -> np.ndarray:
        """Iterations each tree's root can still count (see :data:`MAX_VISITS`)."""
        tree = self._tree
        return np.array([MAX_VISITS - int(tree.visits[t, tree.root[t]]) for t in range(self.workers)], dtype=np.int64)

    def _proven_roots(self) -> np.ndarray:
        tree = self._tree
        return np.array([tree.proven[t, tree.root[t]] != UNKNOWN for t in range(self.workers)])

    def _info(self, start: float, iterations: int, forced: bool, proof: int | None, proof_nodes: int,
              proven: bool, searched: bool = False) -> MCTSInfo:
        # The trees' nodes only when this move searched them: otherwise they hold another position's search.
        nodes = int(self._tree.node_count.sum()) if searched else 0
        return {"iterations": iterations, "seconds": now() - start, "nodes": nodes,
                "capacity": self.capacity, "grows": self._grows, "compactions": self._compactions, "forced": forced,
                "proof": proof, "proof_nodes": proof_nodes, "proven": proven}

    def _select(self, board: Board, time_left: float | None) -> str:
        start = now()
        forced, allowed = tactical_choice(board)
        self._grows = self._compactions = 0
        if forced is not None:
            self.last_info = self._info(start, 0, True, None, 0, False)
            self._root_board = None  # the trees were not moved to this position
            return SQUARE_NAMES[forced]
        seconds = budget(self.time_limit, time_left)
        proof, proof_move, proof_nodes = None, None, 0
        if self._prover is not None:
            nodes0 = self._prover.nodes
            if seconds is None:
                proof, proof_move = self._prove(board, allowed, None, None)
            else:
                proof, proof_move = self._prove(board, allowed, start + self.proof_share * seconds, start + seconds)
            proof_nodes = self._prover.nodes - nodes0
            if proof_move is not None:
                self.last_info = self._info(start, 0, False, proof, proof_nodes, True)
                self._root_board = None
                return SQUARE_NAMES[proof_move]
        if not self._reroot(board):
            self._new_trees(board)
        rulebook, pos, color = rulebook_of(board.layout, board.rules), position_of(*board.kernel_state()), board.turn
        assert color is not None  # a game that goes on
        iters0 = int(self._tree.iterations.sum())
        #: Trees that stay full for the rest of this move (no room could be made in time).
        frozen = np.zeros(self.workers, dtype=np.bool_)
        if self.simulations is not None and seconds is None:
            todo = np.full(self.workers, max(1, self.simulations // self.workers), dtype=np.int64)
            while True:
                todo[self._proven_roots()] = 0
                todo = np.minimum(todo, self._headroom())
                if not todo.any():
                    break
                done, full = self._run(todo, frozen, rulebook, pos, color)
                todo -= done
                for t in np.flatnonzero(full & ~frozen & (todo > 0)):
                    frozen[t] = not self._make_room(int(t), None)
        else:
            assert seconds is not None  # without a simulation limit there is a time limit
            self._timed_search(start + seconds, rulebook, pos, color, frozen)
        move = self._choose(allowed) or SQUARE_NAMES[self.rng.choice(squares_of(allowed))]
        self.last_info = self._info(start, int(self._tree.iterations.sum()) - iters0, False, proof, proof_nodes,
                                    proof is not None or bool(self._proven_roots().all()), searched=True)
        self._root_board = board.copy()
        self._root_board.push(move)
        if not self._reroot_self(move):
            self._root_board = None
        return move

    def _prove(self, board: Board, allowed: int, proof_deadline: float | None,
               deadline: float | None) -> tuple[int | None, int | None]:
        """The root prover's turn: ``(value, move)``, the value (-1 / 0 / +1 for the side to
        move) or None when not proven, and a move among ``allowed`` keeping a proven win or
        draw (None for a loss, or when none was confirmed). Timed: node-limited slices of
        about :data:`CHUNK_SECONDS` with the clock read between them, the value until
        ``proof_deadline``, then a move keeping a proven win or draw until ``deadline``
        (the move's: a proven value is worth the time); else
        ``proof_share * simulations * PROOF_NODES_PER_ITERATION`` nodes for the value and
        as many for each move tried."""
        prover = self._prover
        assert prover is not None  # the prover's turn comes only when there is one
        if proof_deadline is None:
            assert self.simulations is not None  # untimed: a simulation limit
            limit = max(1, int(self.proof_share * self.simulations * PROOF_NODES_PER_ITERATION))
            value = prover.value(board, limit)
            if value is None or value < 0:
                return value, None
            return value, next((sq for sq in squares_of(allowed) if prover.child_value(board, sq, limit) == value), None)
        value = None
        while value is None:
            limit = self._proof_slice(proof_deadline)
            if limit == 0:
                return None, None
            value = self._timed_proof(lambda n: prover.value(board, n), limit)
        if value < 0:
            return value, None
        assert deadline is not None  # timed: both deadlines
        pending = squares_of(allowed)
        while pending:
            for sq in list(pending):
                limit = self._proof_slice(deadline)
                if limit == 0:
                    return value, None
                v = self._timed_proof(partial(prover.child_value, board, sq), limit)
                if v is not None:
                    if v == value:
                        return value, sq
                    pending.remove(sq)
        return value, None

    def _proof_slice(self, deadline: float) -> int:
        """Node limit of the prover's next slice before ``deadline``; 0 when it has passed."""
        left = deadline - now()
        if left <= 0:
            return 0
        return max(MIN_PROOF_SLICE, int(self._proof_nps * min(left * LEFT_SHARE, CHUNK_SECONDS)))

    def _timed_proof(self, search: Callable[[int], int | None], limit: int) -> int | None:
        """``search(limit)``, measuring the prover's speed."""
        prover = self._prover
        assert prover is not None  # the prover's turn comes only when there is one
        nodes0, t0 = prover.nodes, now()
        result = search(limit)
        elapsed = now() - t0
        if elapsed >= CHUNK_SECONDS / 4:  # long enough to say something about the speed
            self._proof_nps = (prover.nodes - nodes0) / elapsed
        return result

    def _timed_search(self, deadline: float, rulebook: Rulebook, pos: Position, color: int, frozen: NDArray[np.bool]) -> None:
        """Iterations until ``deadline`` (and at most ``simulations`` per move when that is
        set too), in calls sized to the measured speed, making room in full trees between
        calls when there is time for it."""
        cap = None if self.simulations is None else max(1, self.simulations // self.workers)
        done_total = np.zeros(self.workers, dtype=np.int64)
        # At least one iteration per tree, which expands its root; one tree after the
        # other, since a parallel call waits for every thread to be scheduled, which
        # on a busy machine can take longer than a tiny budget.
        for t in range(self.workers):
            d, _ = run_tree(self._tree, t, rulebook, pos, color, 1, self._settings, False)
            done_total[t] += d
        k, rate = 0, None
        while not self._proven_roots().all():
            left = deadline - now()
            if left <= 0 or (cap is not None and done_total.min() >= cap):
                break
            if rate is None:
                k = FIRST_CHUNK
            else:  # sized at the last call's speed
                k = max(MIN_CHUNK, min(int(rate * min(left * LEFT_SHARE, CHUNK_SECONDS)), MAX_CHUNK_GROWTH * k, MAX_CHUNK))
            todo = np.minimum(np.full(self.workers, k, dtype=np.int64), self._headroom())
            if cap is not None:
                todo = np.maximum(0, np.minimum(todo, cap - done_total))
            if not todo.any():
                break
            t0 = now()
            done, full = self._run(todo, frozen, rulebook, pos, color)
            done_total += done
            if not full.any():  # a call cut short by a full tree says little about the speed
                rate = int(done.max()) / max(now() - t0, MIN_CALL_SECONDS)
            for full_tree in np.flatnonzero(full & ~frozen):
                frozen[full_tree] = not self._make_room(int(full_tree), deadline)

    def _reroot_self(self, move: str) -> bool:
        path = np.array([SQUARE_NAMES.index(move)], dtype=np.int64)
        return all(descend(self._tree, t, path) for t in range(self.workers))

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
            return None  # the root was never expanded
        best = max(candidates, key=lambda m: (totals[m], -m))
        return SQUARE_NAMES[best]
