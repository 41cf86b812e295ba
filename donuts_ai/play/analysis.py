"""Analysis for people: the exact value of every legal move, from the first donut on.

Every legal move first gets an alpha-beta estimate (:data:`ESTIMATE_NODES_PER_MOVE`
nodes, about 20 ms), then the solver proves its exact value (win, draw or loss) under
a node limit (:data:`PROOF_NODES`), then the plies to the end under best play under a
smaller one (:data:`DISTANCE_NODES`). A move whose value is not proven within its
limit keeps its estimate; one whose distance is not keeps its value with the distance
unknown (``W?``). Node limits are a fixed amount of work whatever the machine's load,
so nothing here starts work without a bound.

Measured (2 cores, see ``benchmarks/RESULTS.md``, "Exact analysis from the first
donut"): from two donuts on the whole analysis usually takes well under a second; on
the empty board, proving all 36 first moves takes seconds (unless the opening book holds
their values: :meth:`Analyst.from_book`). So the analysis runs in the background, as an
:class:`AnalysisJob` whose :meth:`~AnalysisJob.snapshot` shows the moves proven so far
(and estimates for the rest), cancelled when the position changes; :class:`AnalysisJobs` keeps one per game and bounds how many run.
:meth:`Analyst.analyze` is the same work done at once (``donuts-ai replay --analyze``).

An :class:`Analyst` is not thread-safe (its solver and search tables are its own): one
per thread, or a lock around it. Each job has its own.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from os import PathLike
from typing import TypedDict

from ..donuts.agents.alphabeta import AlphaBetaAgent
from ..donuts.alphabeta import Solver
from ..donuts.alphabeta.solver import available_cores
from ..donuts.board import Board
from ..donuts.book import Book
from ..donuts.squares import COLOR_NAMES
from ..errors import SearchStopped
from ..outcomes import value_for, value_name

#: Search nodes for each legal move's estimate (about 20 ms at 2 M nodes/s; depth 1, and
#: depth 2 with few legal moves, are always searched to the end on top of it).
ESTIMATE_NODES_PER_MOVE = 40_000
#: Solver nodes a move's exact value may take before it is left as an estimate. The
#: dearest first move of the empty boards measured needed 11 M (about 3 s).
PROOF_NODES = 40_000_000
#: Solver nodes a proven move's exact distance may take before it is shown as unknown.
DISTANCE_NODES = 4_000_000
#: Solver nodes a hint may spend proving the position's value (then as many again to
#: find a move that keeps it, and :data:`DISTANCE_NODES` for that move's distance).
HINT_PROOF_NODES = 10_000_000
#: Search nodes for a hint's estimate, when its value is not proven within the limit.
HINT_NODES = 1_000_000
#: The most seconds any one request may let an agent think (``donuts-ai serve``).
MAX_THINK = 10.0
#: Seconds a request for an analysis waits (for every move's value, then for each next step,
#: :meth:`AnalysisJob.wait`) before answering with what is known (the page asks again until
#: it is complete).
ANALYSIS_WAIT = 2.0
#: Analysis jobs kept (one per game); starting one more cancels the least recently asked.
MAX_JOBS = 16
#: Jobs that search at once (the others wait their turn); each job's proofs use every
#: core (:class:`Analyst`), so two at once would only halve each one's share.
JOB_THREADS = 1
#: Seconds a job goes on without anyone asking for it before it cancels itself (a page
#: closed mid-analysis leaves no work behind).
JOB_IDLE = 60.0
#: A table of 2**20 entries (24 MiB) for each job's solver.
JOB_TT_BITS = 20


class MoveAnalysisJSON(TypedDict):
    """A :class:`MoveAnalysis` as the web page receives it (:meth:`MoveAnalysis.to_json`)."""

    move: str
    exact: bool
    #: ``"win"``, ``"draw"``, ``"loss"`` or ``None`` (not proven).
    value: str | None
    distance: int | None
    score: int | None
    #: :meth:`MoveAnalysis.short`.
    short: str
    #: :meth:`MoveAnalysis.describe`.
    text: str


class PositionAnalysisJSON(TypedDict):
    """A :class:`PositionAnalysis` as the web page receives it (:meth:`PositionAnalysis.to_json`)."""

    fen: str
    #: The side to move's colour name.
    mover: str
    exact: bool
    complete: bool
    proven: int
    seconds: float
    verdict: str
    moves: list[MoveAnalysisJSON]


@dataclass(frozen=True)
class MoveAnalysis:
    """One legal move, valued for the player making it.

    Attributes:
        move: the move, a square name.
        value: +1 win, 0 draw, -1 loss: the game-theoretic truth, when known.
        distance: plies to the end of the game under best play, this move included, when known.
        score: alpha-beta's estimate (positive: good for the mover), shown while the value is
            unknown.
    """

    move: str
    value: int | None = None
    distance: int | None = None
    score: int | None = None

    @property
    def exact(self) -> bool:
        """True when the value is proven (the distance may still be unknown)."""
        return self.value is not None

    @property
    def result(self) -> str | None:
        return None if self.value is None else value_name(self.value)

    def order_key(self) -> tuple[float, str]:
        """Sort key, best first: wins soonest, then draws, estimates by score, losses latest."""
        if self.value is not None:
            d = self.distance if self.distance is not None else 50
            return (-self.value * 10_000 + (d if self.value > 0 else -d if self.value < 0 else 0), self.move)
        return (-(self.score or 0) / 10_000, self.move)

    def short(self) -> str:
        """A few characters for a square: ``W7``, ``D12``, ``L4``, ``W?`` (proven, distance
        unknown), ``+120`` (estimate)."""
        if self.value is not None:
            letter = {1: "W", 0: "D", -1: "L"}[self.value]
            return f"{letter}{self.distance}" if self.distance is not None else f"{letter}?"
        return f"{self.score:+d}" if self.score is not None else "?"

    def describe(self) -> str:
        """One phrase: ``wins in 7 plies``, ``draws (12 plies)``, ``loses in 4 plies``,
        ``wins (distance unknown)``, ``search score +120 (estimate)``."""
        if self.value is not None:
            if self.distance is None:
                return {1: "wins", 0: "draws", -1: "loses"}[self.value] + " (distance unknown)"
            if self.value == 0:
                return f"draws ({self.distance} plies to the end)"
            return f"{'wins' if self.value > 0 else 'loses'} in {self.distance} {'ply' if self.distance == 1 else 'plies'}"
        if self.score is None:
            return "not valued yet"
        return f"search score {self.score:+d} (estimate)"

    def describe_for(self, who: str) -> str:
        """The move's value in words with the player named: ``chocolate wins in 7 plies (exact)``,
        ``search score +52 for chocolate (estimate)``.

        Args:
            who: the player's name.
        """
        if self.value is None:
            return f"search score {self.score:+d} for {who} (estimate)" if self.score is not None else self.describe()
        return f"{who} {self.describe()} (exact)"

    def to_json(self) -> MoveAnalysisJSON:
        return {"move": self.move, "exact": self.exact, "value": self.result, "distance": self.distance, "score": self.score,
                "short": self.short(), "text": self.describe()}


@dataclass(frozen=True)
class PositionAnalysis:
    """Every legal move of a position, best first, valued for the side to move. :attr:`exact`
    is True when every move's value is proven.

    Attributes:
        fen: the position.
        mover: the side to move.
        moves: a :class:`MoveAnalysis` per legal move, best first.
        seconds: the time the analysis took.
        depth: the alpha-beta depth of the estimates, if any.
        complete: False while a background job is still working on it.
    """

    fen: str
    mover: int
    moves: list[MoveAnalysis]
    seconds: float
    depth: int | None = None
    complete: bool = True

    @property
    def exact(self) -> bool:
        return all(m.exact for m in self.moves)

    @property
    def proven(self) -> int:
        """How many moves have their exact value."""
        return sum(m.exact for m in self.moves)

    @property
    def best(self) -> MoveAnalysis:
        return self.moves[0]

    def value_known(self) -> bool:
        """True when the position's value is proven: every move's is, or one wins."""
        return self.exact or any(m.value == 1 for m in self.moves)

    def verdict(self) -> str:
        """Who is winning, in one sentence."""
        best, me, other = self.best, COLOR_NAMES[self.mover].capitalize(), COLOR_NAMES[1 - self.mover].capitalize()
        if self.value_known():
            assert best.value is not None  # the best move of a proven position is proven
            if best.value == 0:
                return "Draw with best play" + (f" ({best.distance} plies to the end)" if best.distance is not None else "")
            winner = me if best.value > 0 else other
            if best.distance is None:
                return f"{winner} wins with best play"
            return f"{winner} wins with best play, in {best.distance} {'ply' if best.distance == 1 else 'plies'}"
        score = max((m.score for m in self.moves if m.score is not None), default=0)
        lead = me if score > 0 else other
        how = "about even" if abs(score) < 20 else f"{lead} is better"
        depth = f", alpha-beta depth {self.depth}" if self.depth is not None else ""
        return f"Estimate: {how} (search score {score:+d} for {me.lower()}{depth})"

    def to_json(self) -> PositionAnalysisJSON:
        return {"fen": self.fen, "mover": COLOR_NAMES[self.mover], "exact": self.exact, "complete": self.complete,
                "proven": self.proven, "seconds": round(self.seconds, 3), "verdict": self.verdict(),
                "moves": [m.to_json() for m in self.moves]}


def _mover_value(board: Board, mover: int) -> int:
    outcome = board.outcome()
    assert outcome is not None  # called once the game is over
    return value_for(outcome.winner, mover)


class Analyst:
    """Values of moves under a bound on the work: its own solver and alpha-beta searchers, each
    node limit a parameter.

    Args:
        proof_nodes: solver nodes a move's exact value may take before it is left as an estimate.
        distance_nodes: solver nodes a proven move's exact distance may take.
        estimate_nodes: search nodes for each legal move's estimate.
        hint_nodes: search nodes for a hint's estimate, when its value is not proven.
        hint_proof_nodes: solver nodes a hint may spend proving the position's value.
        tt_bits: the solver's table has ``2**tt_bits`` entries.
        threads: the solver's threads (default: every available core; a node limit bounds
            each of the portfolio's searches).
        book: the opening book the solver reads on an empty board, as :class:`Solver` takes
            it: ``True`` the shipped one, a :class:`~donuts_ai.donuts.book.Book` or a book
            file's path, ``False`` none.
    """

    def __init__(self, *, proof_nodes: int = PROOF_NODES, distance_nodes: int = DISTANCE_NODES,
                 estimate_nodes: int = ESTIMATE_NODES_PER_MOVE, hint_nodes: int = HINT_NODES,
                 hint_proof_nodes: int = HINT_PROOF_NODES, tt_bits: int = 20, threads: int | None = None,
                 book: Book | str | PathLike[str] | bool = True):
        self.proof_nodes = proof_nodes
        self.distance_nodes = distance_nodes
        self.estimate_nodes = estimate_nodes
        self.hint_nodes = hint_nodes
        self.hint_proof_nodes = hint_proof_nodes
        # A person waits for this analysis: its proofs use every core unless told (the
        # values do not depend on the threads; see :class:`Solver`).
        self._solver = Solver(tt_bits, threads=available_cores() if threads is None else threads, book=book)
        self.threads = self._solver.threads
        self._searchers: dict[int, AlphaBetaAgent] = {}

    def stop(self) -> None:
        """Stop the search running in another thread; every later one raises
        :class:`~donuts_ai.errors.SearchStopped` (for a job's own analyst)."""
        self._solver.stop()

    def _searcher(self, nodes: int) -> AlphaBetaAgent:
        if nodes not in self._searchers:
            self._searchers[nodes] = AlphaBetaAgent(nodes=nodes, tt_bits=18)
        return self._searchers[nodes]

    def _estimate(self, board: Board, nodes: int) -> tuple[str, int, bool, int]:
        """(best move, score for the side to move, proven, depth) from a node-limited search.

        When the tactical pass forces a move (a win at once, or the only move that does not
        lose at once), the search gives no score: the forced move is played and the
        position after it estimated instead (at most the game's remaining plies)."""
        agent, mover = self._searcher(nodes), board.turn
        assert mover is not None  # the game is not over
        move = agent.select_move(board)
        info = agent.last_info
        if not info.get("forced"):
            score = info["score"]
            assert score is not None  # a searched move has a score
            score = int(score)
            return move, score, bool(info.get("proven")), int(info.get("depth") or 0)
        after = board.copy(stack=False)
        after.push(move)
        if after.is_game_over():
            value = _mover_value(after, mover)
            return move, value * 10_000, True, 1
        _, score, proven, depth = self._estimate(after, nodes)
        return move, (score if after.turn == mover else -score), proven, depth + 1

    def _estimate_move(self, board: Board, move: str) -> tuple[MoveAnalysis, int | None]:
        """(the move's estimate, the search depth behind it; None when it ends the game)."""
        mover = board.turn
        assert mover is not None  # the game is not over
        after = board.copy(stack=False)
        after.push(move)
        if after.is_game_over():
            return MoveAnalysis(move, _mover_value(after, mover), 1), None
        _, score, proven, depth = self._estimate(after, self.estimate_nodes)
        if after.turn != mover:
            score = -score
        if proven:  # the search reached a win, a loss or the game's end: its score is exact
            return MoveAnalysis(move, (score > 0) - (score < 0), None, score), depth + 1
        return MoveAnalysis(move, score=score), depth + 1

    def from_book(self, board: Board) -> PositionAnalysis | None:
        """The moves of ``board`` whose values the opening book gives with no search (every first
        move of an empty board it holds with their values), the others not valued yet; ``None``
        when it gives none.

        Args:
            board: the position, not over.
        """
        known = self._solver.book_moves(board)
        if not known:
            return None
        mover = board.turn
        assert mover is not None  # the game is not over
        moves = sorted((MoveAnalysis(mv, known.get(mv)) for mv in board.legal_moves()), key=MoveAnalysis.order_key)
        return PositionAnalysis(board.fen(), mover, moves, 0.0, complete=False)

    def analyze(self, board: Board, publish: Callable[[PositionAnalysis], None] | None = None,
                 keep_going: Callable[[], bool] | None = None) -> PositionAnalysis:
        """Every legal move of ``board``, best first, as exact as the node limits allow.

        Args:
            board: the position, not over.
            publish: given each better :class:`PositionAnalysis` as the work goes on (estimates
                first, then each move as it is proven).
            keep_going: asked between moves; False stops the work.

        Returns:
            The last :class:`PositionAnalysis`.
        """
        start, mover = time.perf_counter(), board.turn
        assert mover is not None  # the game is not over
        moves: dict[str, MoveAnalysis] = {}
        depths: list[int] = []
        legal = board.legal_moves()

        def snapshot(complete: bool) -> PositionAnalysis:
            # Every legal move, those not looked at yet blank (only before the estimates).
            ordered = sorted((moves.get(mv) or MoveAnalysis(mv) for mv in legal), key=MoveAnalysis.order_key)
            return PositionAnalysis(board.fen(), mover, ordered, time.perf_counter() - start, min(depths) if depths else None, complete)

        def going() -> bool:
            return keep_going is None or keep_going()

        # An empty board the opening book holds: every first move's value where a study
        # solved them, else the book's move (every move, when the board is lost), exact at
        # once, published before any search.
        for move, book_value in self._solver.book_moves(board).items():
            moves[move] = MoveAnalysis(move, book_value)
        if moves and publish:
            publish(snapshot(False))
        for move in legal:
            if move in moves:
                continue
            moves[move], depth = self._estimate_move(board, move)
            if depth is not None:
                depths.append(depth)
        if publish:
            publish(snapshot(False))
        # Proofs in the estimates' order: a win proven early settles the position's value.
        for m in sorted(moves.values(), key=MoveAnalysis.order_key):
            if m.exact or not going():
                continue
            value = self._solver.move_value(board, m.move, node_limit=self.proof_nodes)
            if value is not None:
                moves[m.move] = replace(m, value=value)
                if publish:
                    publish(snapshot(False))
        for m in sorted(moves.values(), key=MoveAnalysis.order_key):
            if m.distance is not None or not m.exact or not going():
                continue
            distance = self._solver.move_distance(board, m.move, m.value, node_limit=self.distance_nodes)
            if distance is not None:
                moves[m.move] = replace(m, distance=distance)
                if publish:
                    publish(snapshot(False))
        return snapshot(True)

    def hint(self, board: Board) -> MoveAnalysis:
        """A best move for the side to move: exact whenever the position's value is proven within
        :data:`HINT_PROOF_NODES` (the move keeps that value; its distance when proven too), else
        alpha-beta's choice with its estimate.

        Args:
            board: the position.
        """
        move, score, proven, _ = self._estimate(board, self.hint_nodes)
        value = self._solver.bounded_value(board, self.hint_proof_nodes)
        if value is not None:
            # The estimate's move first: it usually keeps the value, and its proof is in the table.
            budget_end = self._solver.nodes + self.hint_proof_nodes
            for candidate in [move] + [mv for mv in board.legal_moves() if mv != move]:
                left = budget_end - self._solver.nodes
                if left <= 0:
                    break
                if self._solver.move_value(board, candidate, node_limit=left) == value:
                    distance = self._solver.move_distance(board, candidate, value, node_limit=self.distance_nodes)
                    return MoveAnalysis(candidate, value, distance)
        if proven:
            return MoveAnalysis(move, (score > 0) - (score < 0), None, score)
        return MoveAnalysis(move, score=score)


class AnalysisJob:
    """One position's analysis (:meth:`Analyst.analyze`) in a thread of its own, with its own
    analyst: :meth:`snapshot` reads what is known so far, :meth:`wait` waits for the end,
    :meth:`cancel` stops it at its next node. Started by :class:`AnalysisJobs`.

    Args:
        board: the position analysed.
        gate: limits how many jobs search at once, if given.
        idle: seconds the job goes on without anyone asking for it before it cancels itself.
        analyst: the analyst (default: a new one).
    """

    def __init__(self, board: Board, gate: threading.Semaphore | None = None, idle: float = JOB_IDLE,
                 analyst: Analyst | None = None):
        if board.is_game_over():
            raise ValueError("cannot analyse: the game is over")
        self.board = board.copy(stack=False)
        self.fen = self.board.fen()
        #: The job's own analyst; dropped when the job ends.
        self._analyst: Analyst | None = analyst or Analyst(tt_bits=JOB_TT_BITS)
        self._gate = gate
        self._idle = idle
        self._lock = threading.Lock()
        self._published = threading.Condition(self._lock)  # notified at each publication and at the end
        self._publications = 0
        self._done = threading.Event()
        self._valued = threading.Event()  # every move's value is known (or the job has ended)
        self._valued_told = False  # a wait(values=True) has returned with every value known
        self._cancelled = threading.Event()
        self._asked = time.monotonic()
        mover = self.board.turn
        assert mover is not None  # the game is not over (checked above)
        self._latest = PositionAnalysis(self.fen, mover, [MoveAnalysis(mv) for mv in self.board.legal_moves()], 0.0, complete=False)
        self._thread = threading.Thread(target=self._run, name=f"analysis {self.fen}", daemon=True)
        self._thread.start()

    def _publish(self, analysis: PositionAnalysis) -> None:
        if analysis.exact:
            self._valued.set()
        with self._published:
            self._latest = analysis
            self._publications += 1
            self._published.notify_all()

    def _keep_going(self) -> bool:
        if time.monotonic() - self._asked > self._idle:  # nobody is asking any more
            self._cancelled.set()
        return not self._cancelled.is_set()

    def _run(self) -> None:
        try:
            analyst = self._analyst
            assert analyst is not None  # dropped only once this run ends
            # What the opening book knows needs no search, so no turn at the gate either.
            known = analyst.from_book(self.board)
            if known is not None:
                self._publish(known)
            if self._gate is not None:
                while not self._gate.acquire(timeout=0.1):
                    if not self._keep_going():
                        return
            try:
                if self._keep_going():
                    self._publish(analyst.analyze(self.board, self._publish, self._keep_going))
            finally:
                if self._gate is not None:
                    self._gate.release()
        except SearchStopped:
            pass
        finally:
            self._done.set()
            self._valued.set()
            with self._published:
                self._published.notify_all()
            self._analyst = None  # its tables (tens of MiB) are not needed once the job ends

    def snapshot(self) -> PositionAnalysis:
        """What is known now: proven moves exact, the others estimated (or not yet),
        ``complete`` once the job has finished."""
        self._asked = time.monotonic()
        with self._lock:
            return self._latest

    def wait(self, timeout: float | None = None, values: bool = False) -> bool:
        """Wait for the job to end; with ``values``, until every move's value is known (an empty
        board the opening book holds has its first moves' values at once), and once a wait has
        returned with them, until the next publication (a distance proved) or the end: a
        client asking again and again is answered as the analysis moves, never in a busy loop.

        Args:
            timeout: the most seconds to wait; ``None``: no limit.
            values: wait for the values first, then for each step of the analysis.

        Returns:
            Whether what was waited for came.
        """
        self._asked = time.monotonic()
        if not values:
            return self._done.wait(timeout)
        if not self._valued_told:
            self._valued_told = self._valued.wait(timeout)
            return self._valued_told
        with self._published:
            seen = self._publications
            return self._published.wait_for(lambda: self._publications != seen or self._done.is_set(), timeout)

    @property
    def done(self) -> bool:
        return self._done.is_set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def cancel(self) -> None:
        """Stop the job at its next node; its snapshot stays as it was."""
        self._cancelled.set()
        analyst = self._analyst
        if analyst is not None:
            analyst.stop()


class AnalysisJobs:
    """At most ``max_jobs`` analysis jobs, one per owner (a game): :meth:`request` gives the
    owner's job for a position, starting it (and cancelling the owner's job for another
    position) when needed.

    Args:
        max_jobs: the jobs kept; starting one more cancels the least recently asked.
        threads: the jobs that search at once (the others wait their turn).
        idle: seconds a job goes on without anyone asking for it before it cancels itself.
    """

    def __init__(self, max_jobs: int = MAX_JOBS, threads: int = JOB_THREADS, idle: float = JOB_IDLE):
        self.max_jobs = max_jobs
        self.idle = idle
        self._gate = threading.Semaphore(threads)
        self._lock = threading.Lock()
        self._jobs: OrderedDict[Hashable, AnalysisJob] = OrderedDict()

    def request(self, owner: Hashable, board: Board) -> AnalysisJob:
        """The owner's job for this position, started when there is none (cancelling the owner's
        job for another position).

        Args:
            owner: the game asking.
            board: the position.
        """
        with self._lock:
            job = self._jobs.pop(owner, None)
            if job is not None and (job.fen != board.fen() or job.cancelled):
                job.cancel()
                job = None
            if job is None:
                job = AnalysisJob(board, self._gate, self.idle)
            self._jobs[owner] = job
            while len(self._jobs) > self.max_jobs:
                self._jobs.popitem(last=False)[1].cancel()
            return job

    def current(self, owner: Hashable, board: Board) -> AnalysisJob | None:
        """The owner's job for this position, if one was started (and not cancelled).

        Args:
            owner: the game asking.
            board: the position.
        """
        with self._lock:
            job = self._jobs.get(owner)
        return job if job is not None and job.fen == board.fen() and not job.cancelled else None

    def cancel(self, owner: Hashable) -> None:
        """Cancel the owner's job (its position changed, or it is gone).

        Args:
            owner: the game.
        """
        with self._lock:
            job = self._jobs.pop(owner, None)
        if job is not None:
            job.cancel()

    def cancel_all(self) -> None:
        with self._lock:
            jobs, self._jobs = list(self._jobs.values()), OrderedDict()
        for job in jobs:
            job.cancel()


__all__ = ["ANALYSIS_WAIT", "DISTANCE_NODES", "ESTIMATE_NODES_PER_MOVE", "HINT_NODES", "HINT_PROOF_NODES", "JOB_IDLE",
           "JOB_THREADS", "MAX_JOBS", "MAX_THINK", "PROOF_NODES", "AnalysisJob", "AnalysisJobs",
           "Analyst", "MoveAnalysis", "MoveAnalysisJSON", "PositionAnalysis", "PositionAnalysisJSON"]
