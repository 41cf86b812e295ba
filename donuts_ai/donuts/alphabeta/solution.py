"""What the solver answers, and the score arithmetic of its distance proofs.

:class:`Solution` (a position's value, best move and distance) and :class:`MoveValue`
(one move's), and how the search's root-relative scores become values and distances:
the scores a won or lost game can end on (:func:`candidate_scores`), which one a null
window tests next (:func:`slowest_first`), what a test leaves (:func:`narrowed`), and how
long a draw lasts (:func:`plies_after`). The search itself is :mod:`.solver`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...outcomes import DRAW, LOSS, WIN, value_name
from .._kernels.position import Position, plies_left, position_of
from ..board import Board
from ._scores import MATE_BOUND
from ._scores import WIN as WIN_SCORE


def _score(value: int, distance: int | None) -> int:
    if value == 0 or distance is None:
        return value
    return value * (WIN_SCORE - distance)


class _Valued:
    """What :class:`Solution` and :class:`MoveValue` share: a ``value`` and a ``distance``."""

    value: int
    distance: int | None

    @property
    def result(self) -> str:
        """``"win"``, ``"draw"`` or ``"loss"``."""
        return value_name(self.value)

    @property
    def score(self) -> int:
        """One number ordering outcomes: wins sooner > wins later > draw > losses later > sooner
        (without a distance, the value alone: +1, 0 or -1)."""
        return _score(self.value, self.distance)


@dataclass(frozen=True)
class Solution(_Valued):
    """The solved value of a position for the side to move.

    Attributes:
        value: +1 (win), 0 (draw) or -1 (loss).
        distance: plies to the end of the game under best play (``None`` when not proved:
            ``distance=False``, or the empty board by default).
        best_move: a square name.
        nodes: the nodes this call searched.
        seconds: the time this call took.
        source: where the answer came from: ``"search"``, or ``"book"`` (the opening book,
            :mod:`donuts_ai.donuts.book`: no node searched).
    """

    value: int
    distance: int | None
    best_move: str
    nodes: int
    seconds: float
    source: str = "search"


@dataclass(frozen=True)
class MoveValue(_Valued):
    """The value of one legal move for the player making it (see :func:`~.solver.analyze`).

    Attributes:
        move: the move, a square name.
        value: +1 (win), 0 (draw) or -1 (loss).
        distance: plies to the end of the game under best play after the move (``None`` when
            not asked for: ``analyze(board, distance=False)``).
    """

    move: str
    value: int
    distance: int | None


def score_to_value(score: int, remaining: int) -> tuple[int, int]:
    """The value and distance of a root-relative score.

    Args:
        score: the score.
        remaining: the plies a draw lasts.

    Returns:
        ``(value, distance)``.
    """
    if score > MATE_BOUND:
        return WIN, WIN_SCORE - score
    if score < -MATE_BOUND:
        return LOSS, WIN_SCORE + score
    return DRAW, remaining


def candidate_scores(pos: Position, n: int, winning: bool) -> list[int]:
    """Every score a won or lost game could have from ``pos``, ascending.

    The players alternate while both have donuts, then the one with donuts left moves on. Own
    wins come on own placements (a five) or at the last ply; losses on the opponent's
    placements, or at the last ply, or on our own last placement when it ends the game.

    Args:
        pos: the position.
        n: the donuts each player has.
        winning: whether the game is won (else lost).
    """
    left = [n - pos.placed_own, n - pos.placed_opp]
    end = int(plies_left(pos, n))
    mover, scores = 0, []  # 0 = the side to move in ``pos``
    for ply in range(1, end + 1):
        left[mover] -= 1
        if (mover == 0) == winning or ply == end:
            scores.append(WIN_SCORE - ply if winning else -(WIN_SCORE - ply))
        if left[1 - mover] > 0:
            mover = 1 - mover
    return sorted(scores)


# Why not the middle (a binary search): from the opening most games are decided at or near
# their last ply, and proving "no win faster than the slowest" is the one expensive refutation
# the answer needs anyway; testing a faster score first adds a refutation of its own. Measured
# with two threads on the empty boards of random_grid(0..11): solve(distance=True) median
# 3.76 s -> 1.73 s, slowest 13.5 s -> 10.0 s (239 M -> 177 M nodes); analyze of
# random_grid(0..7) median 15.0 s -> 12.4 s; positions 4, 10 and 16 random plies in as fast
# or faster (benchmarks/RESULTS.md).
def slowest_first(candidates: list[int], value: int) -> int:
    """The next score to test ("score >= v") of a won or lost game: the one next to the slowest
    end, so that one null window settles the slowest result: for a win, "does it win faster
    than the slowest candidate?"; for a loss, "does it lose as late as the latest?".

    Args:
        candidates: the scores left, ascending, at least two.
        value: the game's value, > 0 for a win.
    """
    return candidates[1] if value > 0 else candidates[-1]


def narrowed(candidates: list[int], v: int, r: int) -> list[int]:
    """The candidate scores left after a null-window test "score >= v" (fail-soft: ``r >= v``
    proves score >= r, else score <= r).

    Args:
        candidates: the scores left.
        v: the score tested.
        r: what the test returned.
    """
    if r >= v:
        return [c for c in candidates if c >= max(r, v)]
    return [c for c in candidates if c <= r]


def plies_after(board: Board, sq: int, donuts: int) -> int:
    """How long a draw after ``sq`` lasts: this ply and every one left after it.

    Args:
        board: the position.
        sq: the move.
        donuts: the donuts each player has.
    """
    after = board.copy(stack=False)
    after.push(sq)
    return 1 + (0 if after.is_game_over() else int(plies_left(position_of(*after.kernel_state()), donuts)))
