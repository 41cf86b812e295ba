"""Budgeted analysis for people: exact values when the end is near, a search estimate before.

The exact solver (:class:`donuts_ai.Solver`) has no budget of its own: from the empty
board, the exact distance of every move can take minutes. So :class:`Analyst` solves
exactly only when at most :data:`EXACT_PLIES` plies remain (measured on a 2-core
machine: every position tried there was analysed in well under a second, see
:data:`EXACT_PLIES`), and before that gives a search estimate from alpha-beta under a
node budget (a fixed amount of work, whatever the machine's load). Nothing here
starts work without a bound.

An :class:`Analyst` is not thread-safe (its solver and search tables are its own):
one per thread, or a lock around it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..board import Board
from ..outcomes import value_name
from ..search.alphabeta import Solver
from ..squares import COLOR_NAMES
from ..tournament.specs import make_agent

#: Exact analysis (every legal move's value and distance) only when at most this many
#: plies remain. Measured with ``Solver.analyze`` on positions from games on random tile
#: arrangements and random direction grids: at 24 plies left the slowest took 0.3 s
#: (most take a few ms); at 26 up to 0.5 s; at 28 one took 21 s.
EXACT_PLIES = 24
#: Search nodes per legal move for an estimate (about 20 ms at 2 M nodes/s; depth 1,
#: and depth 2 with few legal moves, are always searched to the end on top of it).
ESTIMATE_NODES_PER_MOVE = 40_000
#: Search nodes for a hint when the position is too far from the end to solve.
HINT_NODES = 1_000_000
#: The most seconds any one request may let an agent think (``donuts-ai serve``).
MAX_THINK = 10.0



def remaining_plies(board: Board) -> int:
    """The most plies the game can still last: both pools emptied, or the board full."""
    return board.plies_left()


def solvable(board: Board, exact_plies: int = EXACT_PLIES) -> bool:
    return not board.is_game_over() and remaining_plies(board) <= exact_plies


@dataclass(frozen=True)
class MoveEval:
    """One legal move, valued for the player making it.

    ``exact``: ``value`` (+1 win, 0 draw, -1 loss) and ``distance`` (plies to the end of
    the game under best play, this move included) are the game-theoretic truth.
    Otherwise ``score`` is alpha-beta's estimate (positive: good for the mover), and
    ``value`` is set only when the search proved a win or a loss (``distance`` unknown)."""

    move: str
    exact: bool
    value: int | None = None
    distance: int | None = None
    score: int | None = None

    @property
    def result(self) -> str | None:
        return None if self.value is None else value_name(self.value)

    def order_key(self) -> tuple:
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
        ``wins (proven by search)``, ``search score +120 (estimate)``."""
        if self.value is not None:
            if self.distance is None:
                return {1: "wins", 0: "draws", -1: "loses"}[self.value] + " (proven by search)"
            if self.value == 0:
                return f"draws ({self.distance} plies to the end)"
            return f"{'wins' if self.value > 0 else 'loses'} in {self.distance} {'ply' if self.distance == 1 else 'plies'}"
        return f"search score {self.score:+d} (estimate)"

    def describe_for(self, who: str) -> str:
        """The same with the player named: ``chocolate wins in 7 plies (exact)``,
        ``search score +52 for chocolate (estimate)``."""
        if self.value is None:
            return f"search score {self.score:+d} for {who} (estimate)"
        return f"{who} {self.describe()}" + (" (exact)" if self.exact else "")

    def to_json(self) -> dict:
        return {"move": self.move, "exact": self.exact, "value": self.result, "distance": self.distance, "score": self.score,
                "short": self.short(), "text": self.describe()}


@dataclass(frozen=True)
class Analysis:
    """Every legal move of a position, best first, valued for the side to move (``mover``)."""

    fen: str
    mover: int
    exact: bool
    moves: list[MoveEval]
    seconds: float
    depth: int | None = None

    @property
    def best(self) -> MoveEval:
        return self.moves[0]

    def verdict(self) -> str:
        """Who is winning, in one sentence."""
        best, me, other = self.best, COLOR_NAMES[self.mover].capitalize(), COLOR_NAMES[1 - self.mover].capitalize()
        if best.value is not None:
            if best.value == 0:
                return "Draw with best play" + (f" ({best.distance} plies to the end)" if best.distance is not None else "")
            winner = me if best.value > 0 else other
            if best.distance is None:
                return f"{winner} wins with best play (proven by search)"
            return f"{winner} wins with best play, in {best.distance} {'ply' if best.distance == 1 else 'plies'}"
        score = best.score or 0
        lead = me if score > 0 else other
        how = "about even" if abs(score) < 20 else f"{lead} is better"
        return f"Estimate: {how} (search score {score:+d} for {me.lower()}, alpha-beta depth {self.depth})"

    def to_json(self) -> dict:
        return {"fen": self.fen, "mover": COLOR_NAMES[self.mover], "exact": self.exact, "seconds": round(self.seconds, 3),
                "verdict": self.verdict(), "moves": [m.to_json() for m in self.moves]}


def _mover_value(board: Board, mover: int) -> int:
    winner = board.outcome().winner
    return 0 if winner is None else 1 if winner == mover else -1


class Analyst:
    """Values of moves under a bound on the work: exact (the solver) when at most
    ``exact_plies`` plies remain, else alpha-beta estimates under node budgets."""

    def __init__(self, exact_plies: int = EXACT_PLIES, estimate_nodes: int = ESTIMATE_NODES_PER_MOVE,
                 hint_nodes: int = HINT_NODES, tt_bits: int = 20):
        self.exact_plies = exact_plies
        self.estimate_nodes = estimate_nodes
        self.hint_nodes = hint_nodes
        self._solver = Solver(tt_bits)
        self._searchers: dict[int, object] = {}

    def _searcher(self, nodes: int):
        if nodes not in self._searchers:
            self._searchers[nodes] = make_agent(f"alphabeta:nodes={nodes},tt_bits=18", game="donuts")
        return self._searchers[nodes]

    def _estimate(self, board: Board, nodes: int) -> tuple[str, int | None, bool, int]:
        """(best move, score for the side to move, proven, depth) from a node-limited search.

        When the tactical pass forces a move (a win at once, or the only move that does not
        lose at once), the search gives no score: the forced move is played and the
        position after it estimated instead (at most the game's remaining plies)."""
        agent, mover = self._searcher(nodes), board.turn
        move = agent.select_move(board)
        info = agent.last_info
        if not info.get("forced"):
            score = int(info["score"])
            return move, score, bool(info.get("proven")), int(info.get("depth") or 0)
        after = board.copy(stack=False)
        after.push(move)
        if after.is_game_over():
            value = _mover_value(after, mover)
            return move, value * 10_000, True, 1
        _, score, proven, depth = self._estimate(after, nodes)
        return move, (score if after.turn == mover else -score), proven, depth + 1

    def analyze(self, board: Board) -> Analysis:
        """Every legal move of ``board`` (not over) valued for the side to move, best first."""
        start, mover = time.perf_counter(), board.turn
        if solvable(board, self.exact_plies):
            moves = [MoveEval(mv.move, True, mv.value, mv.distance) for mv in self._solver.analyze(board)]
            return Analysis(board.fen(), mover, True, moves, time.perf_counter() - start)
        moves, depths = [], []
        for move in board.legal_moves():
            after = board.copy(stack=False)
            after.push(move)
            if after.is_game_over():
                moves.append(MoveEval(move, True, _mover_value(after, mover), 1))
                continue
            _, score, proven, depth = self._estimate(after, self.estimate_nodes)
            depths.append(depth + 1)
            if after.turn != mover:
                score = -score
            moves.append(MoveEval(move, False, ((score > 0) - (score < 0)) if proven else None, None, None if proven else score))
        moves.sort(key=MoveEval.order_key)
        depth = min(depths) if depths else None
        return Analysis(board.fen(), mover, False, moves, time.perf_counter() - start, depth)

    def hint(self, board: Board) -> MoveEval:
        """A best move for the side to move, with its value (exact when solvable)."""
        if solvable(board, self.exact_plies):
            s = self._solver.solve(board)
            return MoveEval(s.best_move, True, s.value, s.distance)
        move, score, proven, _ = self._estimate(board, self.hint_nodes)
        if proven:
            return MoveEval(move, False, (score > 0) - (score < 0))
        return MoveEval(move, False, score=score)
