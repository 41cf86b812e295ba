"""One game between a person and an agent (or two people), shared by the terminal and
the web page: whose turn it is, moves with their flips, undo, resignation, the result
in words, and the game record."""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass
from typing import Protocol

from ..donuts.board import Board
from ..donuts.layout import Layout, LayoutSpec
from ..donuts.outcomes import UNFINISHED, result_string
from ..donuts.squares import COLOR_NAMES, square_name
from ..errors import DonutsError, GameOverError, IllegalMoveError
from .record import SavedGame

#: Seeds drawn for a ``random`` / ``grid`` layout: few digits, easy to type again.
LABEL_SEEDS = 1_000_000


def parse_color(text: object) -> int | None:
    """The person's colour.

    Args:
        text: ``chocolate``/``c``/``vanilla``/``v``/``random`` (drawn now) or ``both``.

    Returns:
        0, 1, or ``None`` for both.
    """
    t = str(text).strip().lower()
    if t in ("chocolate", "c", "0"):
        return 0
    if t in ("vanilla", "v", "1"):
        return 1
    if t == "random":
        return random.randrange(2)
    if t in ("both", "none"):
        return None
    raise DonutsError(f"unknown colour {text!r}: expected chocolate, vanilla, random or both")


def make_layout(spec: str) -> tuple[Layout, str]:
    """The layout of a layout spec (:class:`~donuts_ai.donuts.layout.LayoutSpec`).

    Args:
        spec: ``standard``, ``random`` / ``grid`` (a fresh draw, whose seed is given in the
            label so the layout can be had again), ``random:SEED``, ``grid:SEED``, layout
            text, or a layout file (one layout).

    Returns:
        ``(layout, label)``.
    """
    label = str(spec).strip()
    read = LayoutSpec(label)
    if read.fresh:
        seed = random.randrange(LABEL_SEEDS)
        return read.one(seed), f"{read.kind}:{seed}"
    return read.one(), label


def constraint_text(board: Board, who: str) -> str:
    """The line rule for the side to move, in one line: ``you must play on the / line through
    d4`` or ``open pick: anywhere``.

    Args:
        board: the position.
        who: how the side to move is named.
    """
    if board.is_game_over():
        return ""
    if board.last is None:
        return "open pick: anywhere (the first donut goes on any square)"
    line = f"the {board.layout.symbol(board.last)} line through {square_name(board.last)}"
    if board.is_open_pick():
        return f"open pick: anywhere ({line} is full)"
    return f"{who} must play on {line}"


class NotYourTurn(IllegalMoveError):
    """A move out of turn: the person's while the opponent is to move, or the reverse."""


class Opponent(Protocol):
    """What plays the opponent's moves: an agent (a :class:`~donuts_ai.donuts.agents.DonutsAgent`,
    or any object with such a ``select_move``) that answers a move for the board it is given."""

    def select_move(self, board: Board, /) -> str:
        """The opponent's move.

        Args:
            board: the position.
        """
        ...


@dataclass
class Ply:
    """One move of the game: who made it (``by``: ``"you"``, the agent's name, or a
    colour name when two people play), the colour, the square and what it flipped."""

    color: int
    square: str
    flips: list[str]
    by: str


class PlaySession:
    """A game being played against an agent, or by people on both sides.

    Args:
        board: the game.
        human: the person's colour: 0, 1, or ``None`` for both sides.
        opponent: an agent; or ``None``, when people play both sides or when each of the
            opponent's moves is given its agent (:meth:`ai_move`).
        opponent_name: how the opponent is named.
        layout_label: how the layout is named.
    """

    def __init__(self, board: Board, human: int | None, opponent: Opponent | None = None, opponent_name: str = "AI",
                 layout_label: str = ""):
        self.board = board
        self.start = board.copy(stack=False)
        self.human = human
        self.opponent = None if human is None else opponent
        self.opponent_name = opponent_name if human is not None else "nobody"
        self.layout_label = layout_label
        self.plies: list[Ply] = []
        #: The colour that resigned, or None.
        self.resigned: int | None = None
        self.date = datetime.date.today()

    # --- turns -------------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.board.is_game_over() or self.resigned is not None

    def is_human(self, color: int | None) -> bool:
        """Whether a person plays ``color``.

        Args:
            color: 0, 1, or ``None``.
        """
        return color is not None and (self.human is None or color == self.human)

    def human_to_move(self) -> bool:
        return not self.is_over() and self.is_human(self.board.turn)

    def ai_to_move(self) -> bool:
        return not self.is_over() and self.human is not None and self.board.turn != self.human

    def who(self, color: int) -> str:
        """``you``, the opponent's name, or the colour's name when people play both sides.

        Args:
            color: 0 or 1.
        """
        if self.human is None:
            return COLOR_NAMES[color]
        return "you" if color == self.human else self.opponent_name

    # --- moves -------------------------------------------------------------------------
    def play(self, move: str | int) -> Ply:
        """The person's move.

        Args:
            move: a square's name or index.

        Raises:
            DonutsError: the game unchanged, when it is not a square, not legal
                (:class:`~donuts_ai.errors.GameOverError` after the end), or not the person's turn
                (:class:`NotYourTurn`).
        """
        if self.is_over():
            raise GameOverError(f"the game is over: {self.result_text()}")
        turn = self.board.turn
        assert turn is not None  # the game is not over
        if not self.is_human(turn):
            raise NotYourTurn(f"not your turn: {COLOR_NAMES[turn]} ({self.opponent_name}) is to move")
        return self._push(move, self.who(turn))

    def _push(self, move: str | int, by: str) -> Ply:
        color = self.board.turn
        assert color is not None  # the callers check that the game is not over
        flips = self.board.push(move)
        square = self.board.peek()
        assert square is not None  # a placement, not a forfeit
        ply = Ply(color, square, flips, by)
        self.plies.append(ply)
        return ply

    def ai_move(self, agent: Opponent | None = None) -> Ply:
        """The opponent's move.

        Args:
            agent: stands in for the opponent when given.
        """
        if not self.ai_to_move():
            raise GameOverError("the game is over") if self.is_over() else NotYourTurn("it is not the opponent's turn")
        agent = agent or self.opponent
        if agent is None:
            raise DonutsError("no agent to move for the opponent")
        move = agent.select_move(self.board)
        if not self.board.is_legal(move):  # a built-in agent never does this; a user's own class might
            raise DonutsError(f"the opponent {self.opponent_name} chose an illegal move {move!r}")
        return self._push(move, self.opponent_name)

    def undo(self) -> list[Ply]:
        """Take back the person's last move and the opponent's moves after it (one ply when
        people play both sides). Returns the plies taken back, latest first; raises
        :class:`DonutsError` when the person has made no move to take back."""
        if self.resigned is not None and not self.board.is_game_over():
            self.resigned = None  # take back the resignation only
            return []
        if self.human is None:
            if not self.plies:
                raise DonutsError("nothing to undo")
            self.resigned = None
            self.board.pop()
            return [self.plies.pop()]
        if not any(p.color == self.human for p in self.plies):
            raise DonutsError("nothing to undo: you have not moved yet")
        self.resigned = None
        taken = []
        while True:
            self.board.pop()
            ply = self.plies.pop()
            taken.append(ply)
            if ply.color == self.human:
                return taken

    def resign(self) -> None:
        if self.is_over():
            raise GameOverError("the game is already over")
        self.resigned = self.board.turn if self.human is None else self.human

    # --- results -----------------------------------------------------------------------
    def winner(self) -> int | None:
        if self.resigned is not None:
            return 1 - self.resigned
        outcome = self.board.outcome()
        return None if outcome is None else outcome.winner

    def result(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (unfinished)."""
        if not self.is_over():
            return UNFINISHED
        return result_string(self.winner())

    def termination(self) -> str | None:
        if self.resigned is not None:
            return "resignation"
        outcome = self.board.outcome()
        return None if outcome is None else str(outcome.reason)

    def result_text(self) -> str:
        """Who won and why, in one sentence (``""`` while the game goes on)."""
        if not self.is_over():
            return ""
        name = [self._side_name(c) for c in (0, 1)]
        if self.resigned is not None:
            return f"{name[self.resigned]} resigned: {name[1 - self.resigned]} wins"
        o = self.board.outcome()
        assert o is not None  # over, and not by resignation
        if o.winner is None:
            if o.reason == "largest group":
                assert o.scores is not None  # a largest-group end has its scores
                how = f"largest groups {o.scores[0]} and {o.scores[1]}"
            else:
                how = f"{o.scores[0]} donuts each on a full board" if o.scores else str(o.reason)
            return f"Draw: {how}"
        w, lose = o.winner, 1 - o.winner
        if o.reason == "five":
            why = "five in a row"
        else:
            assert o.scores is not None  # a largest-group or majority end has its scores
            if o.reason == "largest group":
                why = f"the largest group, {o.scores[w]} to {o.scores[lose]}"
            else:
                why = f"the majority of a full board, {o.scores[w]} donuts to {o.scores[lose]}"
        return f"{name[w]} wins by {why}"

    def _side_name(self, color: int) -> str:
        text = COLOR_NAMES[color].capitalize()
        if self.human is None:
            return text
        return f"{text} (you)" if color == self.human else f"{text} ({self.opponent_name})"

    def record(self) -> SavedGame:
        players = {0: self.who(0), 1: self.who(1)}
        tags = {"Date": self.date.strftime("%Y.%m.%d"), "Chocolate": players[0], "Vanilla": players[1]}
        if self.layout_label:
            tags["LayoutSpec"] = self.layout_label
        tags["Result"] = self.result()
        termination = self.termination()
        if termination:
            tags["Termination"] = termination
        return SavedGame.from_board(self.board, tags, start=self.start)
