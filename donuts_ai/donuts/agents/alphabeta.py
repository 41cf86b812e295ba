"""The alpha-beta agents: :class:`AlphaBetaAgent` (iterative-deepening negamax with the
solver's table and move order, a heuristic at the horizon) and :class:`SolverAgent`
(perfect play from the exact :class:`~donuts_ai.donuts.alphabeta.solver.Solver`)."""

from __future__ import annotations

from typing import TypedDict

from ..._checks import check_int
from ...agents.base import budget, check_flag, check_time_limit, now, positive_int
from ...errors import AgentError, DonutsError
from .._kernels.position import plies_left, position_of, rulebook_of
from ..alphabeta import MATE_BOUND, Solver, new_table, new_workspace, search_moves, search_root
from ..board import Board
from ..layout import Layout
from ..rules import Rules
from ..squares import SQUARE_NAMES
from .donuts_agent import DonutsAgent
from .search_base import tactical_choice, touch, warm_up

#: A node limit that never stops a search.
UNLIMITED = 1 << 62
#: Depth 2 is searched to the end whatever the limits when the side to move has at most
#: this many legal moves (then it costs at most a few hundred nodes); depth 1 always is.
ALWAYS_DEPTH_2_MOVES = 8
#: A timed iteration runs in node-limited slices of about this long, the clock read
#: between them: the most a move overshoots its budget by, at the measured speed.
SLICE_SECONDS = 0.004
#: A slice is sized to at most this share of the time left, so slices shrink as the
#: deadline nears and a slow one (the machine is busy) overshoots it by less.
LEFT_SHARE = 0.5
#: Fewest nodes in a slice: enough to get past the re-descent to where the last one stopped.
MIN_SLICE_NODES = 500
#: Nodes per second assumed before the first measurement: low, so a first slice ends early, not late.
INITIAL_NPS = 300_000.0
#: Slices shorter than this say too little about the speed to update it.
MIN_RATE_SECONDS = 0.001


def _compile_search(board: Board) -> None:
    """Compile the search kernels on ``board`` (see :func:`~.search_base.warm_up`)."""
    rulebook, pos = rulebook_of(board.layout, board.rules), position_of(*board.kernel_state())
    search_moves(rulebook, pos, 2, new_table(10), new_workspace(), 1000, -1)
    search_root(rulebook, pos, 2, -1, 1, new_table(10), new_workspace(), 1000)


class AlphaBetaInfo(TypedDict, total=False):
    """:attr:`AlphaBetaAgent.last_info`: figures from the last move (empty before the first)."""

    depth: int  # the depth reached
    nodes: int
    seconds: float
    score: int | None  # None when the tactical pass chose the move
    forced: bool  # the tactical pass chose the move
    proven: bool  # the score is the exact value


class AlphaBetaAgent(DonutsAgent):
    """Iterative deepening negamax (:func:`donuts_ai.donuts.alphabeta.search_moves`) with a
    heuristic score at the horizon, after the tactical pass (a win at once, the only block).

    Args:
        depth: the most plies searched.
        time_limit: seconds per move, capped in blitz by :func:`~donuts_ai.agents.base.budget`
            (1.0 when no limit is given); the tactical pass and depth 1 may overshoot it.
        nodes: the most nodes per move.
        exact_plies: with this many plies left or fewer, it searches to the end (exact).
        tt_bits: the transposition table has ``2**tt_bits`` entries (10 to 30), kept for a
            game's layout and rules.
        seed: the random stream's seed.
        name: how results name it.
    """

    kind = "alphabeta"

    def __init__(
        self,
        depth: int | None = None,
        time_limit: float | None = None,
        *,
        nodes: int | None = None,
        exact_plies: int = 14,
        tt_bits: int = 20,
        seed: int | None = None,
        name: str | None = None,
    ):
        # Whatever the limits, every move first gets the tactical pass (search_base.tactical_choice:
        # it takes a win at once and plays the only move that does not lose at once without
        # searching) and a complete depth-1 iteration (depth 2 as well with few legal moves), so
        # it never misses a five in one nor the only block. Later iterations run in short
        # node-limited slices with the clock read between them, until the budget is spent, the
        # value is proven, or the depth reaches its limit. The move is the best of the deepest
        # finished iteration, or of the unfinished one when its first move (the previous best)
        # was searched to the end. The table is allocated and written when the agent is built.
        super().__init__(seed, name)
        self.depth = positive_int("depth", depth)
        self.nodes = positive_int("nodes", nodes)
        self.time_limit = check_time_limit(time_limit)
        if self.depth is None and self.nodes is None and self.time_limit is None:
            self.time_limit = 1.0
        self.exact_plies = positive_int("exact_plies", exact_plies)
        self.tt_bits = check_int("tt_bits", tt_bits, 10, 30, error=AgentError)  # as the Solver's
        warm_up("search", _compile_search)
        self._tt = new_table(self.tt_bits)
        touch(self._tt)
        self._ws = new_workspace()
        #: The (layout, rules) the table's entries belong to; None: the table is empty.
        self._game: tuple[Layout, Rules] | None = None
        #: Measured search speed (nodes/s), kept from move to move to size the slices.
        self._nps = INITIAL_NPS
        #: Figures from the last move: depth reached, nodes, seconds, score (None when the
        #: tactical pass chose the move, ``forced``), and whether the score is the exact
        #: value (``proven``: a win or loss found, or the search reached the game's end).
        self.last_info: AlphaBetaInfo = {}

    def params(self) -> dict[str, object]:
        p: dict[str, object] = {}
        for key in ("depth", "time_limit", "nodes"):
            if getattr(self, key) is not None:
                p[key] = getattr(self, key)
        if self.exact_plies != 14:
            p["exact_plies"] = self.exact_plies
        if self.tt_bits != 20:
            p["tt_bits"] = self.tt_bits
        return p | super().params()

    def reset(self, seed: int | None = None) -> None:
        """A new game: the random stream restarts and the table is cleared.

        Args:
            seed: the stream's seed (default: the agent's own).
        """
        super().reset(seed)
        self._clear_table()
        self._ws = new_workspace()

    def _clear_table(self) -> None:
        # Between games, outside any move's time, when it holds anything.
        if self._game is not None:
            self._tt[:] = 0
            self._game = None

    def _slice(self, deadline: float | None, nodes_left: int) -> int:
        """Node limit of the next slice of a timed iteration; 0 when the budget is spent."""
        if deadline is None:
            return nodes_left
        left = deadline - now()
        if left <= 0:
            return 0
        return min(nodes_left, max(MIN_SLICE_NODES, int(self._nps * min(left * LEFT_SHARE, SLICE_SECONDS))))

    def _select(self, board: Board, time_left: float | None) -> str:
        start = now()
        seconds = budget(self.time_limit, time_left)
        deadline = None if seconds is None else start + seconds
        forced, allowed = tactical_choice(board)
        if forced is not None:
            self.last_info = {"depth": 0, "nodes": 0, "seconds": now() - start, "score": None, "forced": True, "proven": False}
            return SQUARE_NAMES[forced]
        game = (board.layout, board.rules)
        if game != self._game:  # the table's entries belong to one layout and rules
            self._clear_table()
            self._game = game
        rulebook, pos = rulebook_of(board.layout, board.rules), position_of(*board.kernel_state())
        remaining = int(plies_left(pos, rulebook.donuts))
        max_depth = remaining if self.depth is None else min(self.depth, remaining)
        if remaining <= self.exact_plies:
            max_depth = remaining  # few enough plies left: solve exactly
        always_depth = 2 if board.legal_mask().bit_count() <= ALWAYS_DEPTH_2_MOVES else 1
        best_move, best_score, total_nodes, reached, proven = -1, None, 0, 0, False
        for depth in range(1, max_depth + 1):
            always = depth <= always_depth
            finished, partial = False, None
            while True:
                nodes_left = UNLIMITED if self.nodes is None else self.nodes - total_nodes
                limit = UNLIMITED if always else self._slice(deadline, nodes_left)
                if limit <= 0:
                    break
                t = now()
                move, score, nodes, aborted = search_moves(rulebook, pos, depth, self._tt, self._ws, limit, best_move)
                elapsed = now() - t
                total_nodes += int(nodes)
                if elapsed >= MIN_RATE_SECONDS:
                    self._nps = nodes / elapsed
                if not aborted:
                    finished = True
                    break
                # The root searches the previous best first: a move found means that one was
                # searched to the end, and the move is at least as good. The next slice walks
                # back to where this one stopped in few nodes: finished subtrees are in the table.
                if move >= 0:
                    partial = int(move), int(score)
            if not finished:
                if partial is not None:
                    best_move, best_score = partial
                    # A win found is a win; a loss of the moves searched so far proves nothing.
                    proven = best_score > MATE_BOUND
                break
            best_move, best_score, reached = int(move), int(score), depth
            # A win or loss found, or every line searched to the end of the game: an exact value.
            proven = abs(best_score) > MATE_BOUND or reached >= remaining
            if proven:
                break  # deeper search cannot change the outcome
        if best_move < 0 or not allowed >> best_move & 1:
            best_move = (allowed & -allowed).bit_length() - 1  # a safeguard: depth 1 already ranks losing moves last
        self.last_info = {"depth": reached, "nodes": total_nodes, "seconds": now() - start, "score": best_score, "forced": False,
                          "proven": proven}
        return SQUARE_NAMES[best_move]


class SolverInfo(TypedDict, total=False):
    """:attr:`SolverAgent.last_info`: figures from the last move (empty before the first)."""

    nodes: int
    seconds: float
    value: int  # the position's exact value for the side to move
    distance: int | None  # plies to the end under best play (fastest=True), else None
    source: str  # "book" (the opening book answered: no search) or "search"


class SolverAgent(DonutsAgent):
    """Plays a move that keeps the game-theoretic value of the position. :attr:`last_info` gives
    the last move's nodes, seconds, the position's value, (with ``fastest``) its distance, and
    its source.

    Args:
        fastest: also win as fast as possible and lose as slowly as possible (the exact
            distance costs far more search).
        book: the first move of a game on a layout the shipped opening book holds comes from
            the book (``solver:book=false`` searches it).
        tt_bits: the transposition table has ``2**tt_bits`` entries (10 to 30), kept between
            moves of a game on one layout.
        threads: the solver's threads: with one, the same moves every run, as a seeded
            tournament needs; with more, any move of the same value (and distance).
        seed: the random stream's seed.
        name: how results name it.
    """

    kind = "solver"

    def __init__(self, fastest: bool = False, *, book: bool = True, tt_bits: int = 20, threads: int = 1,
                 seed: int | None = None, name: str | None = None):
        super().__init__(seed, name)
        self.fastest = check_flag("fastest", fastest)
        self.book = check_flag("book", book)
        self.tt_bits = check_int("tt_bits", tt_bits, 10, 30, error=AgentError)
        self.threads = positive_int("threads", threads, allow_none=False)
        try:
            self.solver = Solver(self.tt_bits, threads=self.threads, book=self.book)
        except DonutsError as exc:  # the solver's own range checks (tt_bits), said as the agent's
            raise AgentError(str(exc)) from None
        warm_up("search", _compile_search)
        self.last_info: SolverInfo = {}

    def params(self) -> dict[str, object]:
        p: dict[str, object] = {}
        if self.fastest:
            p["fastest"] = True
        if not self.book:
            p["book"] = False
        if self.tt_bits != 20:
            p["tt_bits"] = self.tt_bits
        if self.threads != 1:
            p["threads"] = self.threads
        return p | super().params()

    def _select(self, board: Board, time_left: float | None) -> str:
        solution = self.solver.solve(board, distance=self.fastest)
        self.last_info = {"nodes": solution.nodes, "seconds": solution.seconds, "value": solution.value,
                          "distance": solution.distance, "source": solution.source}
        return solution.best_move
