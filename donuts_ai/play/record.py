r"""Saved games: a small PGN-like text format that ``donuts-ai replay FILE`` reads::

    [Game "Donuts"]
    [Chocolate "you"]
    [Vanilla "mcts:time=1"]
    [Layout "-/|\\|/,\\-//-\\,|\\--/|,|/-/-\\,-\\||\\/,/|\\\\|/"]
    [Insertion "group"]
    [Donuts "15"]
    [Result "1-0"]
    [Termination "five"]
    [FEN "<the final position, as Board.fen() writes it>"]

    c3 e3 d3 f3 ...
    1-0

Tag values are quoted, with ``\`` and ``"`` escaped (as in PGN). ``Layout`` is the layout
text's rows joined by ``,``; a ``Start`` tag holds a starting position other than the empty
board. Moves are square names (``pass`` for a forfeited turn; older files' ``--`` is read
too); move numbers and a result token are ignored. :meth:`SavedGame.board` replays the moves,
checking each; the ``FEN`` tag reads the final position back without this module.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..donuts.board import Board
from ..donuts.layout import Layout
from ..donuts.outcomes import RESULTS
from ..donuts.rules import Rules
from ..donuts.squares import PASS
from ..errors import DonutsError

#: How older saved games wrote a forfeited turn (still read; written as :data:`PASS`).
_PASS_BEFORE_0_5 = "--"

_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_MOVE_NUMBER = re.compile(r"^\d+\.+$")
#: The most bytes a record file may have (a game has at most 72 plies: a record is small).
MAX_BYTES = 1 << 20


class SavedGameError(DonutsError):
    """A game record that cannot be read, or whose moves are not legal."""


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


@dataclass
class SavedGame:
    """The record of one played game, as this module's PGN-like text holds it (not a
    tournament's record, :class:`donuts_ai.tournament.records.GameRecord`): the tags
    (``Layout``, ``Insertion``, ``Donuts``, ``Result``, ... in order) and the moves,
    square names with ``None`` for a forfeited turn."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[str | None] = field(default_factory=list)

    @classmethod
    def from_board(cls, board: Board, tags: dict[str, str] | None = None, start: Board | None = None) -> SavedGame:
        """The record of ``board``'s move stack.

        Args:
            board: the game.
            tags: tags to add to the record's own.
            start: the position the stack starts from when that is not the empty board (a game
                begun from a position string).
        """
        layout = ",".join(board.layout.to_text().splitlines())
        out = {"Game": "Donuts"} | dict(tags or {})
        out |= {"Layout": layout, "Insertion": board.rules.insertion, "Donuts": str(board.rules.donuts)}
        if start is not None and start.fen() != Board(board.layout, board.rules).fen():
            out["Start"] = start.fen()
        outcome = board.outcome()
        out.setdefault("Result", "*" if outcome is None else outcome.result())
        if outcome is not None:
            out.setdefault("Termination", str(outcome.reason))
        out["FEN"] = board.fen()
        return cls(out, list(board.move_stack))

    @property
    def rules(self) -> Rules:
        try:
            donuts = int(self.tags.get("Donuts", "15"))
        except ValueError:
            raise SavedGameError(f"tag Donuts must be an integer, got {self.tags['Donuts']!r}") from None
        return Rules(insertion=self.tags.get("Insertion", "group"), donuts=donuts)

    @property
    def layout(self) -> Layout:
        if "Layout" not in self.tags:
            raise SavedGameError("the record has no Layout tag")
        return Layout.from_text("\n".join(self.tags["Layout"].split(",")))

    def start(self) -> Board:
        """The starting position (a fresh board, or the ``Start`` tag's position)."""
        if "Start" in self.tags:
            return Board.from_fen(self.tags["Start"], self.rules)
        return Board(self.layout, self.rules)

    def board(self) -> Board:
        """The game replayed from its start, every move checked; the board keeps the moves
        (``board.move_stack``). Raises :class:`SavedGameError` naming the first bad move."""
        board = self.start()
        for i, move in enumerate(self.moves, 1):
            try:
                if move is None:
                    board.forfeit()
                else:
                    board.push(move)
            except DonutsError as exc:
                raise SavedGameError(f"move {i} ({move or PASS}): {exc}") from None
        return board

    def dumps(self) -> str:
        lines = [f'[{key} "{_escape(value)}"]' for key, value in self.tags.items()]
        lines.append("")
        moves = [PASS if m is None else m for m in self.moves]
        for i in range(0, len(moves), 10):
            lines.append(" ".join(moves[i : i + 10]))
        lines.append(self.tags.get("Result", "*"))
        return "\n".join(lines) + "\n"

    @classmethod
    def loads(cls, text: str) -> SavedGame:
        """Read a record from its text.

        Args:
            text: the record's text.

        Raises:
            SavedGameError: naming what is wrong.
        """
        tags: dict[str, str] = {}
        moves: list[str | None] = []
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith(";"):
                continue
            if line.startswith("["):
                m = _TAG.match(line)
                if not m:
                    raise SavedGameError(f"line {n}: bad tag {line[:60]!r} (expected [Name \"value\"])")
                tags[m.group(1)] = _unescape(m.group(2))
                continue
            for token in line.split():
                if _MOVE_NUMBER.match(token) or token in RESULTS:
                    continue
                if token.lower() in (PASS, _PASS_BEFORE_0_5):
                    moves.append(None)
                    continue
                moves.append(token.lower())
        if not tags:
            raise SavedGameError("not a game record: no tags (a record starts with lines such as [Layout \"...\"])")
        return cls(tags, moves)

    def save(self, path: str) -> None:
        """Write the record to a file.

        Args:
            path: the file.
        """
        try:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(self.dumps())
        except OSError as exc:
            raise SavedGameError(f"cannot write {path!r}: {exc.strerror}") from None
        except ValueError as exc:  # a NUL byte in the path
            raise SavedGameError(f"cannot write {path!r}: {exc}") from None


def load(path: str) -> SavedGame:
    """Read a record file.

    Args:
        path: the file.

    Raises:
        SavedGameError: naming what is wrong.
    """
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise SavedGameError(f"cannot read {path!r}: {exc.strerror}") from None
    except ValueError as exc:
        raise SavedGameError(f"cannot read {path!r}: {exc}") from None
    if len(data) > MAX_BYTES:
        raise SavedGameError(f"{path!r} is too large for a game record (over {MAX_BYTES} bytes)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SavedGameError(f"{path!r} is not UTF-8 text") from None
    try:
        return SavedGame.loads(text)
    except SavedGameError as exc:
        raise SavedGameError(f"{path}: {exc}") from None
