"""Verify a results file: replay every recorded game from its set-up, rules and moves.

A results file records each game's set-up, rules, seed, moves and the events that ended
or penalised a turn (a time loss, a crash, an exception, an illegal move). Nothing in a
file needs to be believed: :func:`~.results.verify_file` plays each game again through the same
harness loop that played it (:func:`~.match._play`), with seats that answer from the
record instead of agents (:class:`_ReplaySeat`): the recorded move at each turn, or the
recorded event at its ply. The game's own rules (its compiled engine where it has one)
then decide what each move does and how the game ends, and the replayed record is
compared with the file's: the moves, the winner or the places and scores, the reason,
the plies, the turns and forfeits, the game's counts, the ledger, and the events (ply,
seat, kind). A damaged line, a wrong result or a move the rules refuse is named by its
line, unit and game, and how it differs.

What a replay cannot check: timings (an event's time loss is taken as recorded), and
what an agent would have played (the moves are the record's).

Files of every readable version verify (0.3 and 0.4 included): they record the same.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..game import Game, get_game
from ..state import GameState
from .match import _play
from .records import DIGEST_KEY, EventKind, line_digest
from .seats import Answer, Seat

#: The fields of a game record a replay recomputes and compares (two-sided and free-for-all).
CHECKED = ("moves", "winner", "reason", "plies", "turns", "forfeits", "stats", "ledger", "ranking", "scores")
#: The detail of the crash a replay seat answers with where the record has no move left.
_NO_MOVE = "the record has no move here"
#: An answer no game takes as a move: a recorded illegal move is replayed with it.
_ILLEGAL = "\x00recorded illegal move"


class _ReplaySeat(Seat):
    """A seat that answers from a recorded game: at each turn the recorded move, or the
    event the record holds for this seat at this ply (by its kind, in no time)."""

    def __init__(self, name: str, spec: str, moves: Sequence[object], events: Sequence[Mapping[str, Any]], seat: int):
        self.name, self.spec = name, spec
        self._moves = moves
        self._events = [e for e in events if e.get("seat") == seat]

    def reset(self, seed: int) -> Answer | None:
        return None

    def ask(self, game: Game[Any], state: GameState, side: int, time_left: float | None, limit: float | None) -> Answer:
        ply = len(state.move_stack)  # a forfeit is a None in the stack: plies and the stack agree
        for event in self._events:
            if event.get("ply") == ply:
                self._events.remove(event)
                kind = event.get("kind")
                if kind == EventKind.ILLEGAL:
                    return Answer(_ILLEGAL, 0.0)
                return Answer(None, 0.0, str(kind), str(event.get("detail", "")))
        if ply >= len(self._moves):
            return Answer(None, 0.0, EventKind.CRASH, _NO_MOVE)
        move = self._moves[ply]
        return Answer(_ILLEGAL if move is None else move, 0.0)


@dataclass
class Mismatch:
    """A game that does not replay as recorded: its ``line`` in the file (1 the
    configuration; ``None`` for results in memory), ``unit``, ``game`` (its index in the
    unit; -1 for the line itself) and ``differences``
    (``field: recorded X, replayed Y``)."""

    line: int | None
    unit: object
    game: int
    differences: list[str]

    def __str__(self) -> str:
        where = "" if self.line is None else f"line {self.line}, "
        game = "" if self.game < 0 else f", game {self.game}"
        return f"{where}unit {self.unit}{game}: {'; '.join(self.differences)}"


@dataclass
class Verification:
    """What :func:`~.results.verify_file` found: ``games`` replayed, ``seconds`` it took, and every
    :class:`Mismatch` (none: the file proves itself)."""

    path: str
    games: int = 0
    seconds: float = 0.0
    mismatches: list[Mismatch] = field(default_factory=list)
    #: The file's last line was cut off mid-write (a run killed): its unit is not replayed
    #: (a resume plays it again).
    cut_off: bool = False

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def __str__(self) -> str:
        rate = f"{self.games / self.seconds:,.0f} games/s" if self.seconds > 0 else "-"
        head = (f"{self.path}: {self.games} games replayed ({rate}): "
                + ("every one as recorded" if self.ok else f"{len(self.mismatches)} "
                   f"finding{'s' if len(self.mismatches) > 1 else ''}, below"))
        if self.cut_off:
            head += "; the last line is cut off (a run killed mid-write): not replayed"
        return "\n".join([head, *(f"  {m}" for m in self.mismatches)])


def _events(record: Mapping[str, Any]) -> list[tuple[object, object, object]]:
    return [(e.get("ply"), e.get("seat"), e.get("kind")) for e in record.get("events") or []]


def _replay(game: Game[Any], record: Mapping[str, Any], illegal: str, ledger: str) -> list[str]:
    """The differences between a recorded game and its replay (none: it replays)."""
    try:  # the record's fields, read apart from the replay: what fails here is the record's
        moves = list(record["moves"])
        names, specs = list(record["names"]), list(record["seats"])
        events = list(record.get("events") or [])
        seats: list[Seat] = [_ReplaySeat(names[i], specs[i], moves, events, i) for i in range(len(names))]
        setup, rules, seed = record["setup"], record["rules"], int(record["seed"])
    except KeyError as exc:  # a damaged record: a missing field
        return [f"cannot be replayed: the game's record has no {exc.args[0]!r}"]
    except (TypeError, AttributeError, ValueError, IndexError) as exc:  # a field of another type than the format's
        return [f"cannot be replayed: a field of the game's record is of the wrong type ({exc})"]
    try:
        replayed = _play(game, seats, setup, rules, seed, None, illegal, None, ledger, None).to_dict()
    except Exception as exc:  # a set-up the game cannot read, a move it refuses, the game's own failure
        return [f"cannot be replayed: {type(exc).__name__}: {exc}"]
    out = []
    if any(e.get("detail") == _NO_MOVE for e in replayed.get("events") or []):
        out.append(f"moves: the record ends after {len(moves)} moves, before the rules end the game")
    for key in CHECKED:
        if key in record or replayed.get(key) is not None:
            if record.get(key) != replayed.get(key):
                out.append(f"{key}: recorded {json.dumps(record.get(key))}, replayed {json.dumps(replayed.get(key))}")
    if _events(record) != _events(replayed):
        out.append(f"events: recorded {_events(record)}, replayed {_events(replayed)}")
    return out


def unit_lines(path: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, unit line) for every unit line of the file, in order (the reader has
    checked each line's digest)."""
    with open(path, "rb") as fh:
        for number, raw in enumerate(fh, start=1):
            if not raw.endswith(b"\n"):
                continue  # a last line cut off mid-write: the reader skips it too (Verification.cut_off)
            try:
                line = json.loads(raw)
            except ValueError:
                continue  # the reader has refused the file at such a line
            if isinstance(line, dict) and line.get("type") == "unit":
                yield number, line


def verify_units(config: Mapping[str, Any], units: Iterable[tuple[int | None, Mapping[str, Any]]],
                 where: str = "results") -> Verification:
    """Replay every game of ``units`` (``(line number or None, unit as a file holds it)``)
    of a tournament of ``config`` (see the module doc)."""
    game = get_game(str(config["game"]))
    illegal, ledger = str(config.get("illegal", "lose")), str(config.get("ledger"))
    result = Verification(where)
    start = time.perf_counter()
    for number, unit in units:
        if DIGEST_KEY in unit and unit[DIGEST_KEY] != line_digest(unit):
            result.mismatches.append(Mismatch(number, unit.get("unit"), -1, [
                "the line was changed after it was written (its digest does not match its contents)"]))
        for index, record in enumerate(unit.get("games") or []):
            result.games += 1
            differences = _replay(game, record, illegal, ledger)
            if differences:
                result.mismatches.append(Mismatch(number, unit.get("unit"), index, differences))
    result.seconds = time.perf_counter() - start
    return result
