"""The exact solver: game-theoretic values of Donuts positions, with distances.

    >>> from donuts_ai import Board, solve
    >>> solve(Board()).value          # the first player to move wins the standard layout
    1

:func:`solve` gives the value for the side to move (+1 win, 0 draw, -1 loss), a best
move and the distance to the end under best play (the winner wins as fast as
possible, the loser loses as slowly as possible; proved by default on every position
but the empty board, where the value alone is cheap and the distance is not).
:func:`analyze` gives the value of every legal move. Both run the Numba negamax of
:mod:`._negamax` with a transposition table, first with the null window around 0 (who
wins), then with null windows that narrow the distance.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from os import PathLike

import numpy as np
from numpy.typing import NDArray

from ..._checks import check_int
from ..._compile_notice import notice_if_compiling
from ...errors import DonutsError, IllegalMoveError, SearchStopped
from ...outcomes import DRAW, LOSS, WIN
from .._kernels.position import Position, Rulebook, legal_moves, plies_left, position_of, rulebook_of, typed_position
from ..board import Board
from ..book import Book, BookEntry, is_empty_board, shipped_book
from ..layout import Layout
from ..rules import Rules
from ..squares import SQUARE_NAMES, parse_square, squares_of
from . import _dfpn
from ._dfpn import ATTACKER_LOSES, NO_DEADLINE, dfpn_root, new_dfpn_table, new_dfpn_workspace
from ._negamax import root_child, search_root
from ._parallel import available_cores, helper_workspace, race, share_out
from ._scores import EXACT_DEPTH, MATE_BOUND
from ._scores import WIN as WIN_SCORE
from ._table import new_table, table_move
from ._workspace import NODE_LIMIT, new_workspace
from .solution import MoveValue, Solution, candidate_scores, narrowed, plies_after, score_to_value, slowest_first

#: The bounds table the proof-number search gets when it shares none (it never reads it).
_NO_BOUNDS = new_table(1)

#: A node limit that never stops a search.
UNLIMITED = 1 << 62


#: Why the value step of :meth:`Solver.solve` searches by proof numbers under the "single"
#: insertion rule and by alpha-beta under the official one (one core, fresh solvers, the
#: empty boards; ``python -m benchmarks.solver_tail``, ``benchmarks/RESULTS.md``): under
#: "single", 40 tile arrangements took a median of 2.6 s and at most 60 s by alpha-beta,
#: 0.22 s and at most 6.6 s by proof numbers; under the official rule, on random_grid(0..63),
#: alpha-beta a median of 0.084 s and at most 5.4 s, proof numbers 0.10 s and 5.9 s.

#: ``solve(board)`` proves the distance by default once this many donuts have been placed:
#: on the empty board it gives the value only (see :meth:`Solver.solve` for the costs).
DISTANCE_BY_DEFAULT_FROM = 1


class Solver:
    """An exact solver with its own transposition table, kept between calls on the same
    layout and rules and cleared when they change. Not thread-safe: one per thread.

    Args:
        tt_bits: the table has ``2**tt_bits`` entries of ``ENTRY_BYTES`` = 24 bytes (the
            default 2**20 takes 24 MiB).
        threads: searches run at once on the one table (lockless); above 1, every value
            search races the alpha-beta and the proof-number search, and threads beyond two
            add Lazy SMP helpers. Values and distances are the same for every thread count;
            ``best_move`` may differ among moves of the same value, and ``nodes`` varies.
        book: the opening book :meth:`solve` consults on an empty board: ``True`` the shipped
            one, a :class:`~donuts_ai.donuts.book.Book` or a book file's path (a bad file is a
            :class:`~donuts_ai.donuts.book.BookError`), ``False`` none.
    """

    def __init__(self, tt_bits: int = 20, threads: int = 1, *, book: Book | str | PathLike[str] | bool = True):
        # 2**22 entries saved no nodes worth their cost on the empty boards of
        # random_grid(0..63), for the value or for the distance. threads > 1 adds the
        # proof-number search's own table (2**tt_bits rows of 32 bytes and a tag byte each);
        # what it proves goes to the shared table too. With threads=1 the search is the single search (same nodes,
        # same moves). The value searches (solve's first step, all of it with distance=False;
        # each move's value in analyze, move_value and move_distance) run the portfolio; the
        # distance's null-window searches run alpha-beta and threads - 1 Lazy SMP helpers on
        # the same window; move_value with a node limit runs the portfolio too, each search
        # within the limit, and the other node-limited calls (move_distance, bounded_value) one
        # search. Agents and tournaments use one thread, so their games stay reproducible.
        self.tt_bits = check_int("tt_bits", tt_bits, 10, 30)
        self.threads = check_int("threads", threads, 1, 64)
        if not isinstance(book, Book | bool | str | PathLike):
            raise DonutsError(f"book must be True, False, a Book or a book file's path, got {type(book).__name__}")
        # True: the shipped book, read on the first empty board asked; a path is read (and
        # checked) now, so that a bad file fails before any search.
        self._book: Book | bool = book if isinstance(book, Book | bool) else Book.load(book)
        self._tt: NDArray[np.uint64] | None = None
        self._ws = new_workspace()
        # the Lazy SMP helpers' workspaces (threads - 1), their histories seeded apart
        self._helpers: list[NDArray[np.void]] = []
        # (table, workspace) of the proof-number search, made on first use
        self._pn: tuple[NDArray[np.uint64], NDArray[np.void]] | None = None
        self._game: tuple[Layout, Rules] | None = None
        # one-thread solvers on this one's table, proving moves beside each other (_twins)
        self._sharing: list[Solver] = []
        self._stopped = False
        self._count_lock = threading.Lock()  # the racing threads add their nodes to ``nodes``
        self.nodes = 0

    def __getstate__(self) -> dict[str, object]:
        # A lock cannot be pickled (an agent holding a solver travels to its seat process):
        # it is made anew on the other side.
        state = self.__dict__.copy()
        del state["_count_lock"]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._count_lock = threading.Lock()

    @staticmethod
    def _check(board: Board) -> None:
        if not isinstance(board, Board):
            raise TypeError(f"expected a Board, got {type(board).__name__}")
        if board.is_game_over():
            raise DonutsError("cannot solve: the game is over")

    def _prepare(self, board: Board) -> None:
        """Check ``board``, and give this layout and rules a fresh table (kept while they stay)."""
        self._check(board)
        rulebook = (board.layout, board.rules)
        if self._tt is None or self._game != rulebook:
            self._tt = new_table(self.tt_bits)
            self._ws = new_workspace()
            self._helpers = [helper_workspace(k) for k in range(1, self.threads)]
            self._pn = None
            self._sharing = []
            self._game = rulebook

    def clear(self) -> None:
        """Forget everything in the transposition table."""
        self._tt = None
        self._helpers = []
        self._pn = None
        self._sharing = []
        self._game = None

    def _twins(self) -> list[Solver]:
        """``threads`` one-thread solvers on this one's tables, each with its own workspaces, to
        prove several moves at once (:meth:`analyze`); made once a game, after :meth:`_prepare`.
        They share one proof-number table as large as one each would have had together (the
        moves' proofs meet the same positions: ``analyze`` of six random grids took 23.5 s
        against 27.3 s with a table each, ``benchmarks/RESULTS.md``)."""
        if not self._sharing:
            pn_table = new_dfpn_table(self.tt_bits + (self.threads - 1).bit_length())
            for _ in range(self.threads):
                twin = Solver(self.tt_bits, threads=1, book=False)
                twin._tt, twin._game, twin._stopped = self._tt, self._game, self._stopped
                twin._pn = (pn_table, new_dfpn_workspace())
                self._sharing.append(twin)
        return self._sharing

    def _each_move(self, squares: list[int], prove: Callable[[Solver, int], int]) -> list[int]:
        """``prove(solver, square)`` for each square: in this thread with one thread, else shared
        out among the twins (:meth:`_twins`), each taking the next square as it finishes one
        (on two cores, proving two moves at once gains more than two searches of one move)."""
        if self.threads == 1:
            return [prove(self, sq) for sq in squares]
        self._raise_if_stopped()  # a stopped solver starts nothing (its twins are stopped too)
        twins = self._twins()
        before = [twin.nodes for twin in twins]
        try:
            return share_out(squares, twins, prove)
        finally:
            self.nodes += sum(twin.nodes - b for twin, b in zip(twins, before, strict=True))
            self._raise_if_stopped()

    def stop(self) -> None:
        """End the search running in another thread at its next node, and refuse every
        later one: each raises :class:`~donuts_ai.errors.SearchStopped`. For a solver owned
        by a background job (:class:`~donuts_ai.play.analysis.AnalysisJob`) that is
        cancelled; a stopped solver is not used again."""
        self._stopped = True
        for ws in self._all_workspaces():
            ws[0]["stats"][NODE_LIMIT] = 0
        for twin in self._sharing:
            twin.stop()

    def _all_workspaces(self) -> list[NDArray[np.void]]:
        pn = self._pn
        return [self._ws, *self._helpers, *([pn[1]] if pn is not None else [])]

    def _table(self) -> NDArray[np.uint64]:
        """The transposition table, made by :meth:`_prepare` before any search."""
        assert self._tt is not None
        return self._tt

    def _raise_if_stopped(self) -> None:
        if self._stopped:
            raise SearchStopped("the search was stopped")

    def _pn_search(self) -> tuple[NDArray[np.uint64], NDArray[np.void]]:
        if self._pn is None:
            self._pn = (new_dfpn_table(self.tt_bits), new_dfpn_workspace())
        return self._pn

    # --- kernel calls on kernel positions (from the side to move) ---------------------
    def _search(self, rulebook: Rulebook, pos: Position, alpha: int, beta: int, node_limit: int = UNLIMITED) -> int | None:
        """Root-relative score (fail-soft in the window), or None when ``node_limit`` hit.
        Raises SearchStopped once :meth:`stop` was called. Without a node limit and with
        ``threads`` > 1, the Lazy SMP helpers search the same window at once."""
        self._raise_if_stopped()
        if self.threads > 1 and node_limit >= UNLIMITED:
            found = race([(self._alpha_beta(rulebook, pos, alpha, beta, ws), ws) for ws in (self._ws, *self._helpers)])
            self._raise_if_stopped()
            assert found is not None  # no node limit, not stopped: a search finished
            return found
        score, nodes, aborted = search_root(rulebook, pos, EXACT_DEPTH, alpha, beta, self._table(), self._ws, node_limit)
        self.nodes += int(nodes)
        self._raise_if_stopped()  # stop() came during the search: its result is not complete
        return None if aborted else int(score)

    def _alpha_beta(self, rulebook: Rulebook, pos: Position, alpha: int, beta: int, ws: NDArray[np.void],
                    node_limit: int = UNLIMITED) -> Callable[[], int | None]:
        """One alpha-beta search of a race: its score, None when stopped or past ``node_limit``."""
        tt, lock = self._table(), self._count_lock

        def call() -> int | None:
            score, nodes, aborted = search_root(rulebook, pos, EXACT_DEPTH, alpha, beta, tt, ws, node_limit)
            with lock:
                self.nodes += int(nodes)
            return None if aborted else int(score)

        return call

    def _proves(self, rulebook: Rulebook, pos: Position, attacker: bool, share: bool = False,
                node_limit: int = UNLIMITED, deadline: int = int(NO_DEADLINE)) -> int | None:
        """The proof-number search (:mod:`._dfpn`): a move reaching the goal of the side to
        move of ``pos`` (a win when ``attacker``, else not losing; with a ``deadline``, the
        attacker's win within that many plies), or None when it has none. ``share``: read and
        write the shared alpha-beta table too (the portfolio). Raises SearchStopped when
        stopped (by :meth:`stop`, or by the portfolio's other search) or past ``node_limit``."""
        return self._proof(rulebook, pos, attacker, share, node_limit, deadline)[0]

    def _proof(self, rulebook: Rulebook, pos: Position, attacker: bool, share: bool = False,
               node_limit: int = UNLIMITED, deadline: int = int(NO_DEADLINE)) -> tuple[int | None, int]:
        """:meth:`_proves`, and the plies of the fact found at the root (``dfpn_root``): the
        attacker wins within them, or does not win within them."""
        self._raise_if_stopped()
        tt, ws = self._pn_search()
        bounds = self._table() if share else _NO_BOUNDS  # not touched without share
        proved, move, nodes, plies = dfpn_root(rulebook, pos, attacker, tt, ws, node_limit, bounds,
                                               _dfpn.SHARE_PLIES if share else 0, deadline)
        with self._count_lock:
            self.nodes += int(nodes)
        self._raise_if_stopped()
        if proved < 0:
            raise SearchStopped("the proof-number search was stopped")
        return (int(move) if proved == 1 else None), int(plies)

    def _wdl_proof_numbers(self, rulebook: Rulebook, pos: Position, share: bool = False,
                           node_limit: int = UNLIMITED) -> tuple[int, int]:
        """(value, a move keeping it) of a position that is not over, by proof numbers:
        "does the side to move win?", and when not, "does it draw?" (each within ``node_limit``);
        the second search is not needed when the first found every line it refuted lost."""
        move, plies = self._proof(rulebook, pos, True, share, node_limit)
        if move is not None:
            return WIN, move
        if plies != ATTACKER_LOSES:  # (a lost position needs no second search)
            move = self._proves(rulebook, pos, False, share, node_limit)
            if move is not None:
                return DRAW, move
        return LOSS, squares_of(int(legal_moves(rulebook, pos)))[0]

    def _wdl_root(self, rulebook: Rulebook, pos: Position) -> tuple[int, int]:
        """(value, a move keeping it) of a position that is not over, by alpha-beta."""
        score = self._search(rulebook, pos, -1, 1)
        assert score is not None  # no node limit: the search finishes
        return self._move_keeping(rulebook, pos, (score > 0) - (score < 0))

    def _wdl_portfolio(self, rulebook: Rulebook, pos: Position, need_move: bool = True,
                       node_limit: int = UNLIMITED) -> tuple[int, int] | None:
        """(value, a move keeping it) by the portfolio (class doc): alpha-beta, proof
        numbers and the Lazy SMP helpers at once on the shared table, the first to finish
        answers. A value found by alpha-beta gets its move by :meth:`_move_keeping`, or
        -1 without ``need_move``. None when every search reached ``node_limit`` (each
        search has that many nodes)."""
        pn_ws = self._pn_search()[1]

        def proof_numbers() -> tuple[int, int | None] | None:
            try:
                return self._wdl_proof_numbers(rulebook, pos, share=True, node_limit=node_limit)
            except SearchStopped:
                return None  # the other search finished first, stop(), or the node limit

        def alpha_beta(ws: NDArray[np.void]) -> Callable[[], tuple[int, int | None] | None]:
            search = self._alpha_beta(rulebook, pos, -1, 1, ws, node_limit)

            def call() -> tuple[int, int | None] | None:
                score = search()
                return None if score is None else ((score > 0) - (score < 0), None)

            return call

        searches: list[tuple[Callable[[], tuple[int, int | None] | None], NDArray[np.void]]] = [
            (alpha_beta(self._ws), self._ws), (proof_numbers, pn_ws), *((alpha_beta(ws), ws) for ws in self._helpers[1:])]
        found = race(searches)
        self._raise_if_stopped()
        if found is None:  # every search reached the node limit
            return None
        value, move = found
        if move is not None or not need_move:
            return value, -1 if move is None else move
        return self._move_keeping(rulebook, pos, value)

    def _move_keeping(self, rulebook: Rulebook, pos: Position, value: int) -> tuple[int, int]:
        """``(value, a move keeping it)``: the table's move first, then every move in square
        order, each child searched with the null window (mostly from the table)."""
        moves = squares_of(int(legal_moves(rulebook, pos)))
        first = int(table_move(self._table(), pos))
        moves.sort(key=lambda sq: sq != first)  # the table's move proved the value: try it first
        for sq in moves:
            final, child, sign = _child(rulebook, pos, sq)
            if final is None:
                assert child is not None  # the game goes on
                child_score = self._search(rulebook, child, -1, 1)
                assert child_score is not None  # no node limit: the search finishes
                v = sign * ((child_score > 0) - (child_score < 0))
            else:
                v = (final > 0) - (final < 0)
            if v == value:
                return value, sq
        raise AssertionError("a move must keep the position's value")

    def _reaches(self, rulebook: Rulebook, pos: Position, v: int, node_limit: int = UNLIMITED) -> int | None:
        """The null-window test "score >= v" of a won or lost position (``v`` a win's or a
        loss's score) by proof numbers with a deadline, fail-soft: a result ``r >= v`` proves
        score >= r, ``r < v`` proves score <= r (the facts the search found at the root say
        more than was asked: a win sooner than the deadline, no win for longer); None past
        ``node_limit``."""
        try:
            if v > MATE_BOUND:  # a win by ply WIN - v: the winner's win within ``plies``, or none within them
                move, plies = self._proof(rulebook, pos, True, node_limit=node_limit, deadline=WIN_SCORE - v)
                holds, soft = move is not None, (WIN_SCORE - plies if move is not None else WIN_SCORE - plies - 1)
            else:  # a loss no sooner than ply WIN + v: the opponent does not win by the ply before
                move, plies = self._proof(rulebook, pos, False, node_limit=node_limit, deadline=WIN_SCORE + v - 1)
                holds, soft = move is not None, (plies + 1 - WIN_SCORE if move is not None else plies - WIN_SCORE)
        except SearchStopped:
            if self._stopped:
                raise
            return None  # the node limit
        if plies >= NO_DEADLINE:  # no ply in the fact (the attacker wins some time, or never)
            return v if holds else v - 1
        return max(v, soft) if holds else min(v - 1, soft)

    def _exact(self, rulebook: Rulebook, pos: Position, value: int | None = None, node_limit: int | None = None) -> int | None:
        """Exact root-relative score of a position that is not over; ``value`` is its sign
        when already known. With ``node_limit``, None when its searches together need more."""
        budget = [UNLIMITED if node_limit is None else max(1, node_limit)]

        def search(alpha: int, beta: int) -> int | None:
            if beta == alpha + 1 and abs(beta) > MATE_BOUND:
                # A distance's test, by proof numbers with a deadline: analyze of the empty
                # boards of random_grid(0..7) took a median of 5.0 s this way, 9.9 s with
                # alpha-beta's null windows (two threads; ``python -m benchmarks.first_moves
                # grids``, benchmarks/RESULTS.md). Fail-soft, on the facts the tests before
                # it left (_dfpn: 35-46% fewer nodes on random_grid(0..2), one thread).
                before = self.nodes
                score = self._reaches(rulebook, pos, beta, budget[0])
                budget[0] -= self.nodes - before
                return score
            if node_limit is None:  # unlimited: every search may run in parallel
                return self._search(rulebook, pos, alpha, beta)
            before = self.nodes
            score = self._search(rulebook, pos, alpha, beta, budget[0])
            budget[0] -= self.nodes - before
            return score

        if value is None and node_limit is None and self.threads > 1:
            found = self._wdl_portfolio(rulebook, pos, need_move=False)
            assert found is not None  # no node limit: a search finishes
            value = found[0]
        if value is None:
            score = search(-1, 1)
            if score is None:
                return None
            value = (score > 0) - (score < 0)
        else:
            score = value
        if value == 0:
            return 0
        # Only some distances are possible: the winner's own placements (a five) and the
        # game's last ply (largest group or majority). Test them with null windows from
        # the game's end on (:func:`slowest_first`); each fail-soft result also discards
        # every candidate it passes.
        candidates = candidate_scores(pos, rulebook.donuts, winning=value > 0)
        if value > 0:
            candidates = [c for c in candidates if c >= score]
        else:
            candidates = [c for c in candidates if c <= score]
        while len(candidates) > 1:
            if budget[0] <= 0:
                return None
            v = slowest_first(candidates, value)  # test "score >= v"
            r = search(v - 1, v)
            if r is None:
                return None
            candidates = narrowed(candidates, v, r)
        return candidates[0]

    def _move_score(self, rulebook: Rulebook, pos: Position, sq: int, value: int | None = None,
                    node_limit: int | None = None) -> int | None:
        """Exact root-relative score, for the mover, of playing ``sq`` from ``pos``
        (``value``, when known, its value for the mover); None when ``node_limit`` is hit."""
        final, child, sign = _child(rulebook, pos, sq)
        if final is not None:
            return final
        assert child is not None  # the game goes on
        child_score = self._exact(rulebook, child, None if value is None else sign * value, node_limit)
        if child_score is None:
            return None
        score = sign * child_score
        # One ply further from this root than from the child's.
        if score > MATE_BOUND:
            score -= 1
        elif score < -MATE_BOUND:
            score += 1
        return score

    # --- for the package's other searches ----------------------------------------------
    def bounded_value(self, board: Board, node_limit: int) -> int | None:
        """The value for the side to move of ``board`` (not over), within a node budget.

        Calls on positions of one game resume where the last stopped, in few nodes: finished
        subtrees are in the table. For :class:`~donuts_ai.donuts.agents.mcts.MCTSAgent`'s root
        prover, which spends a budget of nodes per move; not part of the public API.

        Args:
            board: the position.
            node_limit: the most nodes searched.

        Returns:
            +1 / 0 / -1, or ``None`` when ``node_limit`` nodes do not settle it (no best move, no
            distance).
        """
        self._prepare(board)
        score = self._search(rulebook_of(board.layout, board.rules), position_of(*board.kernel_state()), -1, 1,
                             max(1, node_limit))
        return None if score is None else (score > 0) - (score < 0)

    # --- public ------------------------------------------------------------------------
    def proof_number_value(self, board: Board) -> int:
        """The value for the side to move of ``board`` by proof-number search alone (df-pn:
        "does the side to move win?", then "does it draw?"), not by the alpha-beta that
        :meth:`solve` runs first: a second, independent search to check a value against.

        Args:
            board: the position, not over.

        Returns:
            1 (a win for the side to move), 0 (a draw) or -1 (a loss).

        Raises:
            DonutsError: the game is over.
        """
        self._prepare(board)
        value, _ = self._wdl_proof_numbers(rulebook_of(board.layout, board.rules), position_of(*board.kernel_state()))
        return value

    def solve(self, board: Board, distance: bool | None = None) -> Solution:
        """The value and best move for the side to move of ``board``, and the distance to the end
        under best play when it is proved.

        **On the empty board the default gives the value only** (there the distance costs many
        times the value: the comment in the code gives the figures). An empty board the
        solver's opening book holds is answered from it with no search (``source="book"``,
        ``nodes`` 0) when the book has what is asked (the distance only where the study proved it).

        Args:
            board: the position, not over.
            distance: ``True`` proves the distance, ``False`` does not (``best_move`` is then a move
                that keeps the value, not necessarily the fastest win, and ``distance`` is
                ``None``); ``None`` proves it on every position except the empty board.

        Returns:
            The :class:`Solution`.

        Raises:
            DonutsError: the game is over, or ``distance`` is not ``True``, ``False`` or ``None``.
        """
        # Why the empty board's default is the value only (one core, the default 2**20 table,
        # fresh, measured on the empty board of random_grid(0..63); see benchmarks/RESULTS.md):
        # there the value alone takes a median of 0.08 s and at most 4.7 s, but the exact
        # distance without slowest_first a median of 2.8 s and up to 22 s, since every faster
        # win must be refuted (with slowest_first and two threads: 1.48 s and at most 11.5 s of
        # wall clock). One donut in (after the alpha-beta agent's first move, same layouts), the
        # distance takes a median of 0.37 s and at most 3.7 s; two in, 0.20 s and at most 3.1 s;
        # four in, 0.03 s and at most 0.24 s. With two threads (the portfolio) on two cores the
        # value took a median of 0.048 s and at most 2.75 s of wall clock (one thread on the
        # same machine: 0.093 s and 4.93 s). Under the "single" insertion rule the value step is
        # a proof-number search (_dfpn): on 40 tile arrangements a median of 0.22 s and at most
        # 6.6 s, where alpha-beta took 2.6 s and 60 s.
        if distance is not None and not isinstance(distance, (bool, np.bool_)):
            raise DonutsError(f"distance must be True, False or None, got {distance!r}")
        self._check(board)
        distance = sum(board.placed) >= DISTANCE_BY_DEFAULT_FROM if distance is None else bool(distance)
        t, nodes0 = time.perf_counter(), self.nodes
        entry = self._book_entry(board)
        if entry is not None and (not distance or entry.distance is not None):
            # Answered before the table is touched: a new layout would cost a fresh table.
            return Solution(entry.value, entry.distance if distance else None, entry.best_move, 0,
                            time.perf_counter() - t, source="book")
        self._prepare(board)
        rulebook, pos = rulebook_of(board.layout, board.rules), position_of(*board.kernel_state())
        if self.threads > 1:
            found = self._wdl_portfolio(rulebook, pos)
            assert found is not None  # no node limit: a search finishes
            value, move = found
        elif rulebook.single:
            value, move = self._wdl_proof_numbers(rulebook, pos)
        else:
            value, move = self._wdl_root(rulebook, pos)
        if not distance:
            return Solution(value, None, SQUARE_NAMES[move], self.nodes - nodes0, time.perf_counter() - t)
        target = self._exact(rulebook, pos, value)
        assert target is not None  # no node limit: the search finishes
        candidates = board.legal_squares()
        first = int(table_move(self._table(), pos))
        for sq in (move, first):  # the likeliest fastest moves first
            if sq in candidates:
                candidates.remove(sq)
                candidates.insert(0, sq)
        best = next(sq for sq in candidates if self._move_score(rulebook, pos, sq) == target)
        value, dist = score_to_value(target, int(plies_left(pos, rulebook.donuts)))
        return Solution(value, dist, SQUARE_NAMES[best], self.nodes - nodes0, time.perf_counter() - t)

    def _book_entry(self, board: Board) -> BookEntry | None:
        """The opening book's entry for ``board`` (an empty board it holds), if this solver
        consults a book."""
        if self._book is False or not is_empty_board(board):
            return None
        return (shipped_book() if self._book is True else self._book).probe(board)

    def book_moves(self, board: Board) -> dict[str, int]:
        """The values of the moves of ``board`` that this solver's opening book gives with no search.

        On an empty board the book holds with its first moves' values, every move; on one it holds
        without them, the book's move (it keeps the board's value), and every move of a lost
        board (they all lose). Checks nothing of ``board`` beyond its being empty.

        Args:
            board: the position.

        Returns:
            Move name -> value for the mover (+1, 0, -1); ``{}`` elsewhere, or without a book.
        """
        entry = self._book_entry(board)
        if entry is None:
            return {}
        if entry.first_moves is not None:
            return dict(entry.first_moves)
        known = {move: LOSS for move in board.legal_moves()} if entry.value == LOSS else {}
        known[entry.best_move] = entry.value
        return known

    def move_value(self, board: Board, move: int | str, node_limit: int | None = None) -> int | None:
        """The game-theoretic value, for the side to move, of playing ``move``: equal to
        ``solve(board).value`` exactly when the move keeps the value.

        Args:
            board: the position.
            move: a legal square name or index.
            node_limit: a positive int: the most nodes searched (with ``threads`` > 1, each of the
                portfolio's searches); ``None``: no limit, it always answers.

        Returns:
            +1, 0 or -1, or ``None`` when ``node_limit`` nodes do not settle it (a later call on the
            same game resumes from the table).
        """
        self._prepare(board)
        if not board.is_legal(move):
            raise IllegalMoveError(f"illegal move {move!r} (legal: {', '.join(board.legal_moves())})")
        limit = 1 << 62 if node_limit is None else check_int("node_limit", node_limit, 1, 1 << 62)
        rulebook = rulebook_of(board.layout, board.rules)
        final, child, sign = _child(rulebook, position_of(*board.kernel_state()), parse_square(move))
        if final is None:
            assert child is not None  # the game goes on
            if self.threads > 1:
                found = self._wdl_portfolio(rulebook, child, need_move=False, node_limit=limit)
                return None if found is None else sign * found[0]
            score = self._search(rulebook, child, -1, 1, limit)
            return None if score is None else sign * ((score > 0) - (score < 0))
        return (final > 0) - (final < 0)

    def move_distance(self, board: Board, move: int | str, value: int | None = None, node_limit: int | None = None) -> int | None:
        """Plies to the end of the game under best play after playing ``move`` (the move included).

        Args:
            board: the position.
            move: a legal square name or index.
            value: the move's value when already known (:meth:`move_value`), which saves a search.
            node_limit: the most nodes searched; ``None``: no limit.

        Returns:
            The plies, or ``None`` when ``node_limit`` nodes do not prove it.
        """
        self._prepare(board)
        if not board.is_legal(move):
            raise IllegalMoveError(f"illegal move {move!r} (legal: {', '.join(board.legal_moves())})")
        if node_limit is not None:
            check_int("node_limit", node_limit, 1, 1 << 62)
        sq = parse_square(move)
        rulebook, pos = rulebook_of(board.layout, board.rules), position_of(*board.kernel_state())
        score = self._move_score(rulebook, pos, sq, value, node_limit)
        if score is None:
            return None
        return score_to_value(score, plies_after(board, sq, rulebook.donuts))[1]

    def analyze(self, board: Board, distance: bool = True) -> list[MoveValue]:
        """The exact value of every legal move for the side to move, and its distance unless
        ``distance=False``, best first (ties in square order).

        The values come first: from the opening book where it holds them (every first move of
        an empty board it holds with first-move values: no search at all), else one value proof
        per move. The distances, asked for, are proved after, each from its known value.

        Args:
            board: the position.
            distance: also prove each move's distance (``False``: ``MoveValue.distance`` is
                ``None``, and the values come at a fraction of the cost).

        Returns:
            A :class:`MoveValue` per legal move.

        Raises:
            DonutsError: the game is over, or ``distance`` is not a bool.
        """
        if not isinstance(distance, (bool, np.bool_)):
            raise DonutsError(f"distance must be True or False, got {distance!r}")
        values = self.move_values(board)  # checks the board before any search
        if not distance:
            return sorted((MoveValue(move, value, None) for move, value in values.items()), key=lambda mv: -mv.score)
        self._prepare(board)
        rulebook, pos = rulebook_of(board.layout, board.rules), position_of(*board.kernel_state())

        def prove(solver: Solver, sq: int) -> int:
            score = solver._move_score(rulebook, pos, sq, values[SQUARE_NAMES[sq]])
            assert score is not None  # no node limit: the search finishes
            return score

        legal = board.legal_squares()
        out = [MoveValue(SQUARE_NAMES[sq], *score_to_value(score, plies_after(board, sq, rulebook.donuts)))
               for sq, score in zip(legal, self._each_move(legal, prove), strict=True)]
        out.sort(key=lambda mv: -mv.score)
        return out

    def move_values(self, board: Board) -> dict[str, int]:
        """The value of every legal move of ``board`` for the side to move, in square order: from
        the opening book where it has them (:meth:`book_moves`), else proved one by one.

        Each move's value is one proof of the position after it, by proof numbers (on the empty
        boards of nine tile arrangements, board by board a median of 5.9 times as fast as
        alpha-beta's null window: ``python -m benchmarks.first_moves values``); with ``threads``
        > 1, that many moves at once.

        Args:
            board: the position, not over.

        Returns:
            Move name -> +1, 0 or -1 for the mover.
        """
        self._check(board)
        known = self.book_moves(board)
        legal = board.legal_squares()
        if len(known) == len(legal):
            return {SQUARE_NAMES[sq]: known[SQUARE_NAMES[sq]] for sq in legal}
        self._prepare(board)
        rulebook, pos = rulebook_of(board.layout, board.rules), position_of(*board.kernel_state())

        def prove(solver: Solver, sq: int) -> int:
            final, child, sign = _child(rulebook, pos, sq)
            if final is not None:
                return (final > 0) - (final < 0)
            assert child is not None  # the game goes on
            return sign * solver._wdl_proof_numbers(rulebook, child)[0]

        searched = [sq for sq in legal if SQUARE_NAMES[sq] not in known]
        values = known | {SQUARE_NAMES[sq]: v for sq, v in zip(searched, self._each_move(searched, prove), strict=True)}
        return {SQUARE_NAMES[sq]: values[SQUARE_NAMES[sq]] for sq in legal}


def _child(rulebook: Rulebook, pos: Position, sq: int) -> tuple[int | None, Position | None, int]:
    """After ``sq``: (its final score when it ends the game, else None; the next position;
    the sign of that position's scores for us: -1 when the opponent moves in it)."""
    ended, score, child, passed = root_child(rulebook, pos, sq)
    if ended:
        return int(score), None, 0
    return None, typed_position(child), -1 if passed else 1


_defaults: dict[tuple[int, bool], Solver] = {}


def _default_solver(threads: int | None, book: bool = True) -> Solver:
    """The shared default solver of ``threads`` threads (``None``: every available core),
    with the shipped opening book or without."""
    count = available_cores() if threads is None else check_int("threads", threads, 1, 64)
    if not isinstance(book, bool):
        raise DonutsError(f"book must be True or False, got {book!r}")
    if (count, book) not in _defaults:
        _defaults[count, book] = Solver(threads=count, book=book)
    return _defaults[count, book]


#: What the first :func:`solve` or :func:`analyze` of a process says when it compiles.
COMPILE_NOTICE = "donuts-ai: compiling the solver, once (later processes load it from Numba's cache)..."
_first_done = False  # the first call of the process has started (the one that may compile)


@contextmanager
def _announced_compile() -> Iterator[None]:
    """The first call of the process runs under the compile notice (later ones do not
    look: their kernels are loaded)."""
    global _first_done
    if _first_done:
        yield
        return
    _first_done = True
    with notice_if_compiling(sys.stderr, COMPILE_NOTICE):
        yield


def solve(board: Board, distance: bool | None = None, threads: int | None = None, *, book: bool = True) -> Solution:
    """Solve ``board`` exactly with a shared default solver (see :meth:`Solver.solve`).

    The value and distance do not depend on ``threads``; the best move may differ from run to
    run among moves of equal value when ``threads`` > 1: pass ``threads=1`` for the same move
    every time. The first call of a process that compiles for more than a second says so on
    stderr, in one line.

    Args:
        board: the position to solve.
        distance: whether to find the distance to the end too (``None``: everywhere but on the
            empty board).
        threads: searches run at once; ``None``: one per available core (:func:`available_cores`).
        book: whether an empty board the shipped opening book holds is answered from it
            (``Solution.source == "book"``).

    Returns:
        The :class:`Solution`: value, distance, best move and the work done.
    """
    with _announced_compile():
        return _default_solver(threads, book).solve(board, distance)


def analyze(board: Board, threads: int | None = None, *, distance: bool = True, book: bool = True) -> list[MoveValue]:
    """The exact value of every legal move of ``board``, best first, from a shared default solver
    (see :meth:`Solver.analyze`).

    Args:
        board: the position.
        threads: searches run at once; ``None``: one per available core. The list does not
            depend on it.
        distance: also prove each move's distance (``False``: the values alone, far sooner).
        book: whether an empty board the shipped opening book holds takes its moves' values
            from it.

    Returns:
        A :class:`MoveValue` per legal move, best first.
    """
    with _announced_compile():
        return _default_solver(threads, book).analyze(board, distance)


__all__ = ["MoveValue", "Solution", "Solver", "analyze", "available_cores", "solve"]
