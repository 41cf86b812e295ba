"""The information-set MCTS agent of Donut Boxes: :class:`ISMCTSAgent`, the compiled
search of :mod:`donuts_ai.search.ismcts` bound to the game (:mod:`._bound`)."""

from __future__ import annotations

import time
from typing import TypedDict

import numpy as np

from ..._checks import check_int as _check_int
from ...agents.base import SIMULATIONS, budget, check_exploration, check_flag, check_time_limit, positive_int
from ...search.ismcts import ISMCTSSettings, capacity, clear, grow, new_tree, root_stats
from .. import _kernels as E
from .._kernels.tables import Codes
from ..state import BoxesState
from ._bound import ismcts
from ._search import REWARD_KINDS
from .boxes_agent import SEED_BITS, BoxesAgent, BoxesAgentError, _scratch, _world_arrays, warm_up
from .greedy import DEFAULT_BOX_POINTS, greedy_order

#: Default exploration constant of UCB1 (rewards lie in [0, 1]).
DEFAULT_EXPLORATION = 0.7
#: Default time per move when neither ``time_limit`` nor ``simulations`` is given.
DEFAULT_TIME_LIMIT = 1.0
#: Iterations of the first timed call, before the speed is known: small, so a tiny budget is kept.
FIRST_CHUNK = 2
#: Timed iterations run in calls of about this long, the clock read between them.
CHUNK_SECONDS = 0.004
#: A call is sized to at most this share of the time left.
LEFT_SHARE = 0.5
#: A call runs at most this many times the iterations of the one before.
MAX_CHUNK_GROWTH = 4
#: Most iterations in one timed call.
MAX_CHUNK = 1 << 14
#: Nodes the tree has room for at first; it doubles when a call could fill it.
FIRST_NODES = 1 << 12
#: Most nodes a tree may hold (one node per iteration; 64 + 8 x players bytes each, so at
#: most 160 MB with 10 players): a search stops when it is full, after some 200 s.
MAX_NODES = 1 << 21
#: With the prior, the root holds ``WIDEN_BASE + sqrt(visits)`` of its moves at most
#: (progressive widening), so a short search spends its iterations on the likeliest moves.
WIDEN_BASE = 8
#: The widening factor that lets the root hold every move at once.
NO_WIDENING = -1.0
#: A call is taken to last at least this long when measuring the speed.
MIN_CALL_SECONDS = 1e-6


class ISMCTSInfo(TypedDict, total=False):
    """:attr:`ISMCTSAgent.last_info`: figures of the last searched move (empty before one)."""

    iterations: int
    calls: int
    seconds: float  # the whole move
    search_seconds: float  # in the tree
    root_moves: int
    root_children: int
    nodes: int


class ISMCTSAgent(BoxesAgent):
    """Single-observer information-set MCTS (:mod:`donuts_ai.search.ismcts`): every
    iteration deals the hidden cards afresh, walks the tree of every player's moves legal
    in that world (UCB1 on availability), expands one move, plays out at random in
    compiled code and backs up every player's reward. The played move is the most visited
    root child (then the best mean reward); with a simulation limit and no time limit the
    seed fixes every move.

    A timed search runs in calls of a few milliseconds, the clock read between them, and
    always at least one iteration; a move with a single legal answer is played without
    searching. The tree (64 + 8 x players bytes a node, a node per iteration) is rebuilt
    each move, and a search stops when it holds :data:`MAX_NODES`.
    """

    kind = "ismcts"

    def __init__(self, simulations: int | None = None, time_limit: float | None = None, *,
                 exploration: float = DEFAULT_EXPLORATION, reward: str = "rank", prior: bool = True,
                 box_points: int = DEFAULT_BOX_POINTS, seed: int | None = None, name: str | None = None) -> None:
        """An ISMCTS player.

        Args:
            simulations: ISMCTS iterations a move (each deals a world and walks, expands,
                plays out and backs up once), or ``None``.
            time_limit: seconds a move, or ``None``; :data:`DEFAULT_TIME_LIMIT` when neither
                limit is given; with both, whichever comes first. Capped by a twentieth of
                the clock in a timed game.
            exploration: the exploration constant of UCB1 (rewards lie in [0, 1]).
            reward: ``"rank"`` (the share of the other players beaten, ties half) or
                ``"score"`` (that, half and half with the score over the best score).
            prior: the root tries the observer's moves in the greedy agent's order
                (:func:`~.greedy.greedy_order`, box-early moves its rule leaves out last)
                and holds ``WIDEN_BASE + sqrt(visits)`` of them (progressive widening);
                ``False``: a seeded random order, all at once.
            box_points: the greedy order's box-early threshold (see :class:`~.greedy.GreedyAgent`).
            seed: the seed of the agent's random stream (``None``: drawn at random).
            name: the agent's name in tables (default: its spec).

        Raises:
            BoxesAgentError: a bad option (an :class:`~donuts_ai.errors.AgentError`).
        """
        super().__init__(seed, name)
        #: Simulations (ISMCTS iterations) a move; ``None``: timed.
        self.simulations = positive_int(SIMULATIONS, simulations, error=BoxesAgentError)
        self.time_limit = check_time_limit(time_limit, error=BoxesAgentError)
        if self.time_limit is None and self.simulations is None:
            self.time_limit = DEFAULT_TIME_LIMIT
        self.exploration = check_exploration(exploration, error=BoxesAgentError)
        # Checked at run time: a caller may pass anything.
        value: object = reward
        if not isinstance(value, str) or value not in REWARD_KINDS:
            raise BoxesAgentError(f"reward must be one of {', '.join(REWARD_KINDS)}, got {reward!r}")
        self.reward = value
        self.prior = check_flag("prior", prior, error=BoxesAgentError)
        self.box_points = _check_int("box_points", box_points, minimum=E.MIN_BOX, error=BoxesAgentError)
        self._tree = new_tree(FIRST_NODES, 2)
        #: Figures of the last searched move: ``iterations``, ``calls``, ``seconds`` (the whole
        #: move), ``search_seconds`` (in the tree), ``root_moves``, ``root_children``, ``nodes``.
        self.last_info: ISMCTSInfo = {}
        warm_up()

    def params(self) -> dict[str, object]:
        out: dict[str, object] = {}
        if self.simulations is not None:
            out[SIMULATIONS] = self.simulations
        if self.time_limit is not None:
            out["time_limit"] = self.time_limit
        if self.exploration != DEFAULT_EXPLORATION:
            out["exploration"] = self.exploration
        if self.reward != "rank":
            out["reward"] = self.reward
        if not self.prior:
            out["prior"] = False
        if self.box_points != DEFAULT_BOX_POINTS:
            out["box_points"] = self.box_points
        return out | super().params()

    def _root_order(self, world: BoxesState, codes: Codes) -> tuple[Codes, float]:
        """The root moves in the order the root expands them, and the widening factor."""
        if not self.prior:
            order = list(range(codes.size))
            self.rng.shuffle(order)
            return codes[np.array(order, dtype=np.int64)], NO_WIDENING
        return codes[greedy_order(world, codes, self.box_points, self.rng, keep_boxes=True)], 1.0

    def _select(self, world: BoxesState, codes: Codes, player: int, start: float, time_left: float | None) -> int:
        limit = budget(self.time_limit, time_left)
        deadline = None if limit is None else start + limit
        players = world.num_players
        t, grid = _world_arrays(world)
        work = _scratch(players)
        root_moves, widen = self._root_order(world, codes)
        tree = self._tree
        if tree.value_sum.shape[1] != players:
            tree = new_tree(capacity(tree), players)
        clear(tree)
        reward_kind = REWARD_KINDS.index(self.reward)
        done, chunk, calls, searching = 0, FIRST_CHUNK, 0, 0.0
        while True:
            if deadline is None:
                assert self.simulations is not None  # no time limit, so a simulation limit
                n = self.simulations - done
            else:
                n = chunk
            if self.simulations is not None:
                n = min(n, self.simulations - done)
            n = min(n, MAX_NODES - int(tree.node_count[0]))
            if n <= 0:
                break
            if int(tree.node_count[0]) + n > capacity(tree):
                tree = grow(tree, min(MAX_NODES, max(2 * capacity(tree), int(tree.node_count[0]) + n)))
            settings = ISMCTSSettings(player, n, self.rng.getrandbits(SEED_BITS), float(self.exploration), reward_kind,
                                float(WIDEN_BASE), float(widen))
            began = time.perf_counter()
            ismcts(tree, t, grid, work, root_moves, settings)
            ended = time.perf_counter()
            searching += ended - began
            done += n
            calls += 1
            if self.simulations is not None and done >= self.simulations:
                break
            if deadline is not None:
                left = deadline - ended
                if left <= 0:
                    break
                rate = n / max(ended - began, MIN_CALL_SECONDS)
                chunk = int(min(rate * min(CHUNK_SECONDS, LEFT_SHARE * left), MAX_CHUNK_GROWTH * n, MAX_CHUNK))
                chunk = max(1, chunk)
        self._tree = tree
        moves, visits, means = root_stats(tree, player)
        best = max(range(moves.size), key=lambda k: (visits[k], means[k]))
        self.last_info = {"iterations": done, "calls": calls, "seconds": time.perf_counter() - start,
                            "search_seconds": searching, "root_moves": int(codes.size),
                            "root_children": int(moves.size), "nodes": int(tree.node_count[0])}
        return int(moves[best])
