"""The Donuts Engine Protocol's ``go`` command, written and read in one place
(docs/engine_protocol.md):

    go ctime 60000 vtime 60000 movetime 200 depth 6 nodes 100000

Each keyword is followed by a whole number >= 0: Chocolate's and Vanilla's clocks and a
fixed time for this move, in milliseconds; a depth in plies; a node count. The harness
writes it for the engines it seats (:func:`go_command`, from a seat's clock and the
limits an engine spec fixes, :data:`GO_LIMITS`); our engines read it (:func:`parse_go`,
in :mod:`donuts_ai.engine_protocol`). It lives in the harness, the lowest layer that
speaks the protocol, so that both sides import the same grammar: the engine protocol
may import the harness, never the other way round.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import DonutsError

# The protocol's words (docs/engine_protocol.md), named once: the harness writes the
# commands and reads the answers, our engines the other way round.
#: Commands to the engine: the handshake (answered by ``id``/``option`` lines, then
#: :data:`DEPOK`), an option set, the readiness check (answered :data:`READYOK`), a new
#: game, the position, the search (answered by ``info`` lines, then :data:`BESTMOVE`), stop
#: searching, and exit.
DEP, SETOPTION, ISREADY, NEWGAME, POSITION, GO, STOP, QUIT = (
    "dep", "setoption", "isready", "newgame", "position", "go", "stop", "quit")
#: Answers from the engine.
DEPOK, READYOK, ID, OPTION, INFO, BESTMOVE = "depok", "readyok", "id", "option", "info", "bestmove"
#: The words inside ``id``, ``option`` and ``setoption`` lines: ``id name <text>``, ``id
#: author <text>``, ``option name <N> type <T> default <V>``, ``setoption name <N> value <V>``.
NAME, AUTHOR, TYPE, DEFAULT, VALUE = "name", "author", "type", "default", "value"
#: The ``info`` word before a node count (``info ... nodes <n>``), as in ``go``.
NODES = "nodes"

#: The clock keywords of a ``go`` command, by side: Chocolate's (side 0) and Vanilla's.
GO_CLOCKS = ("ctime", "vtime")
#: The other keywords, limits an engine spec may fix (``go.movetime=200``): a fixed time
#: for the move in milliseconds, a depth in plies, a node count.
GO_LIMITS = ("movetime", "depth", NODES)
#: Every keyword of a ``go`` command, each followed by a whole number >= 0.
GO_KEYS = (*GO_CLOCKS, *GO_LIMITS)
#: Milliseconds in a second: the protocol's times are whole milliseconds.
MS_PER_SECOND = 1000


class EngineProtocolError(DonutsError):
    """A command of the Donuts Engine Protocol that cannot be read, or that names an
    impossible position (an illegal move in its move list)."""


@dataclass(frozen=True)
class GoLimits:
    """The limits of a ``go`` command (``None``: not given): Chocolate's and Vanilla's
    clocks and a fixed time for this move, in milliseconds; a depth in plies; a node count."""

    ctime: int | None = None
    vtime: int | None = None
    movetime: int | None = None
    depth: int | None = None
    nodes: int | None = None

    def clock(self, side: int) -> float | None:
        """Seconds left on the clock of ``side`` (0 Chocolate, 1 Vanilla), if given."""
        ms = self.ctime if side == 0 else self.vtime
        return None if ms is None else ms / MS_PER_SECOND


def go_command(side: int, time_left: float | None, fixed: tuple[tuple[str, int], ...] = ()) -> str:
    """The ``go`` command for ``side`` to move with ``time_left`` seconds on its clock
    (``None``: no clock) and the ``fixed`` limits of the engine's spec (keyword of
    :data:`GO_LIMITS`, whole number); :func:`parse_go` reads it back."""
    words = [GO]
    if time_left is not None:
        words += [GO_CLOCKS[side], str(max(0, int(time_left * MS_PER_SECOND)))]
    for key, value in fixed:
        words += [key, str(value)]
    return " ".join(words)


def parse_go(words: list[str]) -> GoLimits:
    """The limits of a ``go`` command's words (after ``go``); unknown keywords (and the
    value after them, when it is a number) are skipped, as the protocol ignores what it
    does not know; a known keyword without a whole number >= 0 after it is an
    :class:`EngineProtocolError`."""
    limits: dict[str, int] = {}
    i = 0
    while i < len(words):
        key = words[i]
        if key not in GO_KEYS:
            i += 2 if i + 1 < len(words) and words[i + 1].isdigit() else 1
            continue
        value = words[i + 1] if i + 1 < len(words) else ""
        if not value.isdigit():
            raise EngineProtocolError(f"go: {key} needs a whole number >= 0, got {value or 'nothing'}")
        limits[key] = int(value)
        i += 2
    return GoLimits(**limits)

