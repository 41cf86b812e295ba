"""``donuts-ai play``: a game against an agent in the terminal.

The board is drawn after every move: in colour (ANSI) on a terminal, in plain text
otherwise (piped output, ``NO_COLOR``, ``--style plain``). Commands are read one a line,
from the keyboard or from a pipe; bad input gets a one-line explanation and a new prompt.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TextIO

from .._checks import check_replaceable, reads_as
from ..donuts.board import Board
from ..donuts.rules import Rules, rules_from_arguments
from ..donuts.squares import COLOR_NAMES
from ..errors import DonutsError
from .analysis import ANALYSIS_WAIT, AnalysisJobs, Analyst, PositionAnalysis
from .record import SavedGameError, load
from .session import PlaySession, Ply, constraint_text, make_layout, parse_color

FILES = "abcdef"

HELP = """commands:
  c3          play on square c3 (files a-f, ranks 1-6; a1 is bottom left)
  undo        take back your last move and the opponent's reply
  hint        a good move, with its value
  analyze     every legal move with its exact value (win, draw, loss; plies to the end):
              on an early board the proofs go on in the background, type analyze again
  fen         the position string (Board.from_fen reads it)
  save FILE   write the game record (donuts-ai replay FILE reads it)
  board       draw the board again
  resign      give up the game
  quit        leave (also end of input or Ctrl-D)"""

_NO_ARGUMENTS = ("quit", "exit", "q", "help", "?", "h", "board", "show", "fen", "undo", "resign", "hint", "analyze", "analyse")
COMMANDS = "a square such as c3, or undo, hint, analyze, fen, save FILE, board, resign, quit, help"

# ANSI: 256-colour backgrounds and foregrounds.
_RESET = "\033[0m"
_BG_SQUARE = "\033[48;5;223m"   # light wood
_BG_ALT = "\033[48;5;180m"      # darker wood (checkered, to tell the squares apart)
_BG_LEGAL = "\033[48;5;114m"    # green: you may play here
_FG_LINE = "\033[38;5;94m"
#: A donut is a square in its colour with a hole; the one placed last has red brackets.
_DONUT = {0: ("\033[48;5;95m", "\033[38;5;223m"), 1: ("\033[48;5;230m", "\033[38;5;137m")}
_FG_LAST = "\033[1;38;5;196m"


def use_ansi(style: str, stream: TextIO) -> bool:
    """Whether to draw in colour.

    Args:
        style: ``"ansi"``, ``"plain"``, or else colour on a terminal (unless ``NO_COLOR`` is
            set or ``TERM`` is ``dumb``).
        stream: where the board is written.
    """
    if style == "ansi":
        return True
    if style == "plain":
        return False
    return stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def draw(board: Board, ansi: bool = False, show_legal: bool = True) -> str:
    """The board as text, rank 6 at the top. Plain: empty squares show their line, ``[/]`` marks
    a legal square, ``c``/``v`` are donuts and ``(C)``/``(V)`` the one placed last. ANSI: the
    same on coloured squares (legal green, last placed red).

    Args:
        board: the position.
        ansi: whether to use colours.
        show_legal: whether to mark the legal squares.
    """
    legal = board.legal_mask() if show_legal else 0
    b0, b1 = board.bitboards
    last = board.last
    header = "     " + ("  " if ansi else "   ").join(FILES)
    rows = [header]
    for rank in range(5, -1, -1):
        cells = []
        for f in range(6):
            sq = rank * 6 + f
            color = 0 if b0 >> sq & 1 else 1 if b1 >> sq & 1 else None
            symbol = board.layout.symbol(sq)
            if not ansi:
                if color is not None:
                    letter = "cv"[color]
                    cells.append(f"({letter.upper()})" if sq == last else f" {letter} ")
                elif legal >> sq & 1:
                    cells.append(f"[{symbol}]")
                else:
                    cells.append(f" {symbol} ")
                continue
            if color is not None:
                bg, hole = _DONUT[color]
                cells.append(f"{bg}{_FG_LAST}({hole}●{_FG_LAST}){_RESET}" if sq == last else f"{bg}{hole} ● {_RESET}")
                continue
            bg = _BG_LEGAL if legal >> sq & 1 else _BG_SQUARE if (rank + f) % 2 else _BG_ALT
            cells.append(f"{bg}{_FG_LINE} {symbol} {_RESET}")
        rows.append(f" {rank + 1}  " + ("" if ansi else " ").join(cells) + f"  {rank + 1}")
    rows.append(header)
    if ansi:
        (c_bg, c_hole), (v_bg, v_hole) = _DONUT[0], _DONUT[1]
        legal_key = f"{_BG_LEGAL}   {_RESET} legal  " if show_legal else ""
        rows.append(f"     {c_bg}{c_hole} ● {_RESET} chocolate  {v_bg}{v_hole} ● {_RESET} vanilla  {legal_key}"
                    f"{_FG_LAST}(●){_RESET} last placed")
    else:
        rows.append("     c chocolate  v vanilla  (C) last placed" + ("  [/] legal square, showing its line" if show_legal else ""))
    return "\n".join(rows)


def _flips(ply: Ply) -> str:
    return f", flipping {' '.join(ply.flips)}" if ply.flips else ""


#: The owner of the terminal's one background analysis (see :class:`AnalysisJobs`).
_ANALYSIS = "terminal"


class TerminalGame:
    """The read-draw-answer loop of ``donuts-ai play`` over text streams.

    Args:
        session: the game being played.
        analyst: what answers ``hint`` and ``analyze``.
        stdin: where the person's commands are read.
        stdout: where the board and answers are written.
        ansi: whether to draw in colour.
        jobs: the background analyses, if any.
    """

    def __init__(self, session: PlaySession, analyst: Analyst, stdin: TextIO, stdout: TextIO, ansi: bool,
                 jobs: AnalysisJobs | None = None):
        self.session = session
        self.analyst = analyst
        #: The background analysis of the position shown (one job, cancelled when it changes).
        self.jobs = jobs or AnalysisJobs(max_jobs=1)
        self.stdin = stdin
        self.out = stdout
        self.ansi = ansi
        self.interactive = stdin.isatty()

    def say(self, text: str = "") -> None:
        """Write a line, flushed.

        Args:
            text: the line.
        """
        self.out.write(text + "\n")
        self.out.flush()

    def status(self) -> None:
        g, b = self.session, self.session.board
        self.say()
        self.say(draw(b, self.ansi, show_legal=not g.is_over()))
        n = b.rules.donuts
        p0, p1 = b.placed
        pools = f"placed: chocolate {p0}/{n}, vanilla {p1}/{n}"
        if g.is_over():
            self.say(f"Game over. {g.result_text()} ({g.result()}). {pools}")
            self.say("Type save FILE to keep the game, undo to take back your move, analyze, or quit.")
            return
        mover = b.turn
        assert mover is not None  # the game is not over
        whose = "you" if g.is_human(mover) and g.human is not None else g.who(mover)
        self.say(f"Ply {b.ply + 1}: {COLOR_NAMES[mover]} ({whose}) to move · {pools}")
        rule = constraint_text(b, "you" if g.human_to_move() and g.human is not None else COLOR_NAMES[mover])
        self.say(rule[0].upper() + rule[1:] + ("" if b.is_open_pick() else f" (legal: {' '.join(b.legal_moves())})"))

    def prompt(self) -> str | None:
        text = "your move> " if self.session.human_to_move() else "> "
        if self.interactive:
            try:
                return input(text)
            except EOFError:
                self.say()
                return None
        self.out.write(text)
        self.out.flush()
        line = self.stdin.readline()
        if not line:
            self.say()
            return None
        line = line.rstrip("\r\n")
        self.say(line)  # echo: a transcript of piped input reads like a session
        return line

    def opponent_moves(self) -> None:
        g = self.session
        while g.ai_to_move():
            color = g.board.turn
            assert color is not None  # the opponent is to move
            if self.interactive:
                self.out.write(f"{g.opponent_name} is thinking...\r")
                self.out.flush()
            ply = g.ai_move()
            if self.interactive:
                self.out.write("\033[K" if self.ansi else " " * 60 + "\r")
            self.say(f"{g.opponent_name} ({COLOR_NAMES[color]}) plays {ply.square}{_flips(ply)}")

    def run(self) -> int:
        g = self.session
        label = f" on layout {g.layout_label}" if g.layout_label else ""
        rules = "" if g.board.rules == Rules() else f" ({g.board.rules.insertion} insertion, {g.board.rules.donuts} donuts)"
        who = "you play both sides" if g.human is None else f"you play {COLOR_NAMES[g.human]} against {g.opponent_name}"
        self.say(f"Donuts{label}{rules}: {who}. Type help for the commands.")
        self.opponent_moves()
        self.status()
        while True:
            line = self.prompt()
            if line is None:
                if not g.is_over():
                    self.say("Input ended; the game is left unfinished.")
                return 0
            words = line.split()
            if not words:
                continue
            fen = g.board.fen()
            try:
                if self.command(words) == "quit":
                    self.jobs.cancel_all()
                    return 0
            except DonutsError as exc:
                self.say(f"? {exc}")
            if g.board.fen() != fen:  # the position changed: its analysis is of no more use
                self.jobs.cancel_all()

    def command(self, words: list[str]) -> str | None:
        """Run one command of the person's.

        Args:
            words: the command and its arguments.

        Returns:
            ``"quit"`` to end the loop, else ``None``.
        """
        g, b = self.session, self.session.board
        cmd, rest = words[0].lower(), words[1:]
        if rest and cmd in _NO_ARGUMENTS:
            raise DonutsError(f"{cmd} takes no argument (got {' '.join(rest)[:30]!r})")
        if cmd in ("quit", "exit", "q"):
            return "quit"
        if cmd in ("help", "?", "h"):
            self.say(HELP)
        elif cmd in ("board", "show"):
            self.status()
        elif cmd == "fen":
            self.say(b.fen())
        elif cmd == "save":
            if len(rest) != 1:
                raise DonutsError("save needs one file name: save FILE")
            check_replaceable("save", rest[0], reads_as(load, SavedGameError), "a saved game")  # (a results file, say, is kept)
            g.record().save(rest[0])
            self.say(f"saved to {rest[0]} (donuts-ai replay {rest[0]})")
        elif cmd == "undo":
            taken = g.undo()
            self.say("took back " + (", ".join(f"{p.square} ({p.by})" for p in reversed(taken)) or "the resignation"))
            self.status()
        elif cmd == "resign":
            g.resign()
            self.status()
        elif cmd == "hint":
            if g.is_over():
                raise DonutsError("the game is over: no hint")
            job = self.jobs.current(_ANALYSIS, b)
            known = job.snapshot() if job is not None else None
            h = known.best if known is not None and known.value_known() else self.analyst.hint(b)
            assert b.turn is not None  # the game is not over
            self.say(f"hint: {h.move} ({h.describe_for(COLOR_NAMES[b.turn])})")
        elif cmd in ("analyze", "analyse"):
            if g.is_over():
                raise DonutsError("the game is over: nothing to analyze")
            # Piped input waits for the whole analysis (a transcript is complete); at a
            # terminal the prompt comes back after ANALYSIS_WAIT with what is proven so far.
            job = self.jobs.request(_ANALYSIS, b)
            job.wait(ANALYSIS_WAIT if self.interactive else None)
            self.show_analysis(job.snapshot())
        elif len(words) == 1 and len(cmd) == 2 and cmd[0] in FILES and cmd[1] in "123456":
            if g.is_over():
                raise DonutsError(f"the game is over ({g.result_text()}): undo, save FILE or quit")
            if not g.human_to_move():
                raise DonutsError("it is not your turn")
            ply = g.play(cmd)
            if ply.flips:
                self.say(f"you play {ply.square}{_flips(ply)}")
            self.opponent_moves()
            self.status()
        else:
            raise DonutsError(f"unknown command {' '.join(words)[:40]!r}: expected {COMMANDS}")
        return None

    def show_analysis(self, a: PositionAnalysis) -> None:
        """Write an analysis: its verdict, then each move's value.

        Args:
            a: the analysis.
        """
        if a.exact:
            how = "exact"
        else:
            how = f"{a.proven} of {len(a.moves)} moves exact, the others alpha-beta estimates"
        self.say(f"{a.verdict()}. [{how}, {a.seconds:.2f} s]")
        for m in a.moves:
            self.say(f"  {m.move}  {m.describe()}")
        if not a.complete:
            self.say("  ... still proving in the background: type analyze again to see more")


def run(args: argparse.Namespace) -> int:
    """``donuts-ai play``.

    Args:
        args: the argparse namespace of :func:`donuts_ai.play.add_commands`.

    Returns:
        The exit status.
    """
    from ..tournament.specs import make_agent

    rules = rules_from_arguments(args)
    if args.fen and args.layout is not None:
        raise DonutsError("--fen gives the layout with the position: leave --layout out")
    if args.fen:
        board = Board.from_fen(args.fen, rules)
        layout, label = board.layout, ""
    else:
        layout, label = make_layout(args.layout or "standard")
        board = Board(layout, rules)
    human = parse_color(args.color)
    opponent = None if human is None else make_agent(args.opponent, seed=args.seed, game="donuts")
    name = args.opponent if human is not None else ""
    game = PlaySession(board, human, opponent, name, label)
    analyst = Analyst()
    term = TerminalGame(game, analyst, sys.stdin, sys.stdout, use_ansi(args.style, sys.stdout))
    try:
        return term.run()
    except KeyboardInterrupt:
        term.say("\ninterrupted; the game is left unfinished")
        return 130


__all__ = ["TerminalGame", "draw", "run"]
