"""What a tournament writes down: one record type per thing in a results file.

A results file (JSON lines, see :mod:`.results`) holds a configuration line (the
tournament's settings) and one :class:`UnitRecord` per line; a unit holds its
:class:`GameRecord` s and, for a best-of series, its :class:`SeriesResult`. Each type
has ``to_dict`` and ``from_dict``, the only code that writes or reads those keys;
``from_dict`` checks what it reads and raises :class:`RecordError` naming the field.

How a game ended is one vocabulary, :data:`REASONS`: the game's own endings (Donuts:
``five``, ``largest group``, ``majority``) and the harness's adjudications
(:class:`Adjudication`). Events (:data:`EVENT_KINDS`) say what an agent did wrong.

Records also read like dicts (``record["moves"]``).

Version 3 adds what free-for-all games (:mod:`donuts_ai.game`) need: a game's ``ranking`` and
``scores`` per seat, and a ``winner`` that is a seat of any index. A file is written with
the lowest version that holds its records (:func:`version_for`): files of two-sided
games are version 2; readers take every version of :data:`READABLE_VERSIONS`.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, NotRequired, TypedDict, TypeVar, cast, overload

from .._checks import is_int
from ..errors import DonutsError
from ..game import Game, JSONObject, Move, Score, Stats

if TYPE_CHECKING:
    from .agent_source import AgentSource

_T = TypeVar("_T")

#: Version of the records (and of the older results files of free-for-all games, whose
#: ``games`` are in all).
RECORD_VERSION = 3
#: The version of files of free-for-all games whose ``games`` are per pairing, as in
#: two-sided tournaments (:data:`GAMES_PER_KEY`): the records are those of version 3.
PER_PAIRING_VERSION = 4
#: The version of files of two-sided games, whose records are those of version 2.
TWO_SIDED_VERSION = 2
#: Versions a results file may have to be read.
READABLE_VERSIONS = (2, 3, 4)
#: The configuration key that says what a free-for-all tournament's ``games`` count:
#: :data:`GAMES_PER_PAIRING`; absent, the games in all (files of version 3).
GAMES_PER_KEY = "games_per"
#: ``games`` per pairing: at a table of P seats, a pairing is a set of P agents.
GAMES_PER_PAIRING = "pairing"


def version_for(config: Mapping[str, object]) -> int:
    """The version a results file of the tournament ``config`` is written with: 4 for a
    free-for-all tournament of games per pairing, 3 for one of games in all (an older
    file, resumed), else 2."""
    if config.get("mode") != "free-for-all":
        return TWO_SIDED_VERSION
    return PER_PAIRING_VERSION if config.get(GAMES_PER_KEY) == GAMES_PER_PAIRING else RECORD_VERSION


# The lines that amend a results file's configuration, appended by a resume (never a
# rewritten header; ``results.effective_config`` reads them), and the keys they change.

#: The configuration key a run may change on a resume, growing: its games.
GAMES_KEY = "games"
#: The configuration key of the agents' code identities.
CODE_KEY = "agent_code"
#: The line a run that grew appends (append-only: the header is never rewritten):
#: ``{"type": "grown", "games": N, "from_games": M, "after_units": K}``.
GROWN = "grown"
#: The line a resume appends when it records the agents' code anew (a new version of an
#: agent, or versions unknown before): ``{"type": "agent_code", "agent_code": [...],
#: "changed": [names], "after_units": K}``; the units after it were played by that code.
AGENT_CODE = "agent_code"
#: The line a resume appends when it changes a setting that changes no answer, only the speed
#: (a study's ``tt_bits``: its searches are exact at any table size):
#: ``{"type": "retuned", "settings": {key: value}, "from": {key: value}, "after_units": K}``;
#: the units after it ran with those settings (their ``nodes`` and ``seconds`` are of them).
RETUNED = "retuned"
#: The key of a unit line's digest: a check of the line's own contents, made when it is
#: written and checked on every read (a changed line is refused, naming it). It proves a
#: line unchanged, not its games right: ``donuts-ai verify`` replays them.
DIGEST_KEY = "digest"
#: Hex digits of a line's digest.
LINE_DIGEST_DIGITS = 16
#: The configuration key of a game from outside the package: where it comes from,
#: ``"module:name"`` (the module that registers it; see :func:`game_source`). A reader
#: imports that module when the game's name is not registered yet. Absent for the
#: package's own games, for a game whose module cannot be imported again (``__main__``),
#: and in older files.
GAME_SOURCE_KEY = "game_source"
#: The configuration key of the tournament's set-ups: a word (a fresh set-up per unit) or their texts.
SETUPS_KEY = "setups"
#: The same key in files written by 0.5 and earlier, read as :data:`SETUPS_KEY`.
OLD_SETUPS_KEY = "layouts"
#: The modules a game's class may come from without a source on the record: the package's own.
PACKAGE = "donuts_ai"


def game_source(game: Game[Any], given: object = None) -> str | None:
    """Where a game from outside the package comes from, as a results file records it:
    ``"module:name"``, the module of ``given`` when it is a ``"module:name"`` (what the
    user named), else the module of the game's class; ``None`` for a game of the package
    itself, and for one defined in ``__main__`` (a script: no other process can import
    it by that name)."""
    defined_in = type(game).__module__
    if defined_in == PACKAGE or defined_in.startswith(f"{PACKAGE}."):
        return None
    module = given.rpartition(":")[0] if isinstance(given, str) and ":" in given else defined_in
    if not module or module == "__main__":
        return None
    return f"{module}:{game.name}"


def config_as_read(config: JSONObject) -> JSONObject:
    """A results file's configuration line as this version names its keys (files written
    by 0.5 and earlier say ``layouts`` for ``setups``)."""
    if OLD_SETUPS_KEY in config and SETUPS_KEY not in config:
        return {(SETUPS_KEY if k == OLD_SETUPS_KEY else k): v for k, v in config.items()}
    return config


def line_digest(line: Mapping[str, object]) -> str:
    """The digest of a unit line: SHA-256 of its canonical JSON (sorted keys, no spaces),
    without its own digest."""
    canonical = json.dumps({k: v for k, v in line.items() if k != DIGEST_KEY}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:LINE_DIGEST_DIGITS]



class RecordError(DonutsError):
    """A record that cannot be read: a missing or mistyped field."""


class Adjudication(enum.StrEnum):
    """Reasons a game ended other than by its rules."""

    TIME = "time"  # the clock ran out, or one answer took longer than the per-move limit
    CRASH = "crash"  # the agent's process died
    EXCEPTION = "exception"  # the agent raised (policy "lose")
    ILLEGAL = "illegal move"  # the agent answered an illegal move (policy "lose")
    FORFEITS = "forfeits"  # a player's third forfeit in one game


class EventKind(enum.StrEnum):
    """What an agent did wrong on one turn."""

    EXCEPTION = "exception"
    ILLEGAL = "illegal"
    TIME = "time"
    CRASH = "crash"


EVENT_KINDS = tuple(k.value for k in EventKind)
#: The loss each event gives when it ends the game.
LOSS_BY_EVENT = {EventKind.TIME: Adjudication.TIME, EventKind.CRASH: Adjudication.CRASH,
                 EventKind.EXCEPTION: Adjudication.EXCEPTION, EventKind.ILLEGAL: Adjudication.ILLEGAL}


class _MappingView:
    """``record["key"]`` and ``record.get("key")`` read the field of that name: records
    were dicts before version 2, and code that reads them so keeps working."""

    # Every record is a dataclass: its fields are the keys.
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def __getitem__(self, key: str) -> Any:
        if key not in self.keys():
            raise KeyError(key)
        return getattr(self, key)

    def get(self, key: str, default: object = None) -> Any:
        return getattr(self, key, default) if key in self.keys() else default

    def keys(self) -> list[str]:
        return [f.name for f in dataclasses.fields(self)]

    def __contains__(self, key: object) -> bool:
        return key in self.keys()


@overload
def _need(data: object, key: str, kind: type[_T], where: str) -> _T: ...
@overload
def _need(data: object, key: str, kind: type[_T], where: str, optional: bool) -> _T | None: ...
def _need(data: object, key: str, kind: type[_T], where: str, optional: bool = False) -> _T | None:
    """``data[key]``, checked to be a ``kind`` (``None`` allowed when ``optional``)."""
    if not isinstance(data, dict):
        raise RecordError(f"{where}: expected an object, got {type(data).__name__}")
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{where}: field {key!r} is missing or not {kind.__name__}")
    return value


class TournamentConfig(TypedDict):
    """A tournament's settings (:func:`~.config.make_config`): the first line of its results
    file, what ``--resume`` compares. ``agent_code`` is each agent's code identity
    (:func:`~.entries.code_of`; absent from older files). ``setups`` is a word (a fresh set-up per unit) or
    the set-up texts; ``players`` is set for free-for-all tournaments only; ``game_source``
    (:data:`GAME_SOURCE_KEY`) for a game from outside the package only; ``game_module``
    ``sources`` (the agents by record, :mod:`.entries`) and ``run`` (a token of the run)
    only in the copy handed to workers (never written)."""

    game: str
    agents: list[str]
    names: list[str]
    format: str
    games: int
    setups: list[str] | str
    seed: int
    mode: str
    players: NotRequired[int]
    games_per: NotRequired[str]
    best_of: int | None
    clock: float | None
    clock_per: str | None
    move_limit: float | None
    illegal: str
    ledger: str
    isolation: str
    rules: JSONObject
    agent_code: NotRequired[list[str]]
    game_source: NotRequired[str]
    game_module: NotRequired[str]
    sources: NotRequired[dict[str, AgentSource]]
    run: NotRequired[str]


class EventDict(TypedDict):
    """An :class:`Event` as a results file holds it."""

    ply: int
    seat: int
    kind: str
    detail: str


class LedgerRow(TypedDict):
    """An agent's line of :meth:`~.results.Results.ledger`: ``games``, ``wins`` and ledger ``points``;
    for two-sided games ``draws`` and ``losses``; for free-for-all games ``shared`` (first
    places shared), ``mean_place`` (1 first) and the game's counts summed in ``stats``."""

    games: int
    wins: int
    points: Score
    draws: NotRequired[int]
    losses: NotRequired[int]
    shared: NotRequired[int]
    mean_place: NotRequired[float]
    stats: NotRequired[dict[str, Score]]


class EventRow(EventDict):
    """An event of :meth:`~.results.Results.events`: the record's event with its ``unit`` and the ``agent``'s name."""

    unit: int | None
    agent: str



class _GameFields(TypedDict):
    """The fields every :class:`GameRecord` writes, in the order a results file has them:
    :meth:`GameRecord.to_dict` writes these keys from the record's fields of the same names."""

    game: str
    setup: str
    rules: JSONObject
    seats: list[str]
    names: list[str]
    seed: int
    moves: list[Move]
    winner: int | None
    reason: str
    plies: int
    times: list[float]
    clock_left: list[float] | None
    turns: list[int]
    forfeits: list[int]
    stats: list[Stats]
    ledger: list[Score]


class GameDict(_GameFields):
    """A :class:`GameRecord` as a results file holds it: a two-sided game's (version 2),
    or the fields every game has."""

    events: list[EventDict]


class FreeForAllGameDict(_GameFields):
    """A free-for-all game's record (version 3): a :class:`GameDict` with the seats'
    ``ranking`` and ``scores``."""

    ranking: list[int]
    scores: list[Score] | None
    events: list[EventDict]


class SeriesDict(TypedDict):
    """A :class:`SeriesResult` as a results file holds it."""

    players: list[str]
    wins: list[int]
    winner: int | None
    reason: str
    target: int


class UnitDict(TypedDict):
    """A :class:`UnitRecord` as a results file holds it (after its ``"type": "unit"``)."""

    unit: int
    games: list[GameDict]
    seconds: float
    match: NotRequired[SeriesDict]


@dataclass(frozen=True)
class Event(_MappingView):
    """One thing an agent did wrong: at ``ply``, the agent in ``seat``, of ``kind``
    (:class:`EventKind`), with the agent's error in ``detail``."""

    ply: int
    seat: int
    kind: str
    detail: str

    def to_dict(self) -> EventDict:
        return {"ply": self.ply, "seat": self.seat, "kind": str(self.kind), "detail": self.detail}

    @classmethod
    def from_dict(cls, data: object, where: str = "event") -> Event:
        kind = _need(data, "kind", str, where)
        if kind not in EVENT_KINDS:
            raise RecordError(f"{where}: unknown event kind {kind!r}")
        return cls(_need(data, "ply", int, where), _need(data, "seat", int, where), kind, _need(data, "detail", str, where))


@dataclass(frozen=True)
class GameRecord(_MappingView):
    """One finished game.

    ``game`` names the game (``"donuts"``), ``setup`` its starting layout (text) and
    ``rules`` its variant; ``seats`` the agents' specs and ``names`` their names in the
    tournament, in seat order; ``moves`` what was played (``None`` for a forfeit);
    ``winner`` the winning side (0 or 1) or ``None`` for a draw, and ``reason`` how it
    ended (:data:`REASONS` of the game, or an :class:`Adjudication`). Per seat: ``times``
    (seconds thinking, on the harness's clock), ``clock_left`` (``None`` without a
    clock), ``turns``, ``forfeits``, ``stats`` (the game's own counts, e.g. insertions)
    and ``ledger`` points. ``unit`` is the unit the game belongs to (set on reading).

    A free-for-all game (version 3) also has, per seat, its ``ranking`` (competition
    places: 0 first, a shared place is shared, players who dropped out share the last)
    and the game's ``scores``; its ``winner`` is the seat alone in first place, else
    ``None``. Two-sided games have ``None`` in both (and do not write them)."""

    game: str
    setup: str
    rules: JSONObject
    seats: list[str]
    names: list[str]
    seed: int
    moves: list[Move]
    winner: int | None
    reason: str
    plies: int
    times: list[float]
    clock_left: list[float] | None
    turns: list[int]
    forfeits: list[int]
    stats: list[Stats]
    ledger: list[Score]
    events: list[Event] = field(default_factory=list)
    ranking: list[int] | None = None
    scores: list[Score] | None = None
    unit: int | None = None

    @property
    def insertions(self) -> list[int]:
        """Donuts insertions per seat (from ``stats``)."""
        return [s.get("insertions", 0) for s in self.stats]

    def keys(self) -> list[str]:
        return [*super().keys(), "insertions"]

    def with_names(self, names: list[str]) -> GameRecord:
        return dataclasses.replace(self, names=list(names))

    def places(self) -> list[int]:
        """Every seat's place (0 first, shared places shared): the ``ranking`` of a
        free-for-all game; for a two-sided game from ``winner`` (a side: team seats share it)."""
        if self.ranking is not None:
            return list(self.ranking)
        return [0 if self.winner is None or s % 2 == self.winner else 1 for s in range(len(self.names))]

    def to_dict(self) -> GameDict:
        # The keys every game record writes are _GameFields', in its order; each is a field of this class.
        out = cast(_GameFields, {key: getattr(self, key) for key in _GameFields.__annotations__})
        events = [e.to_dict() for e in self.events]
        if self.ranking is not None:  # version 3 only: two-sided records stay as version 2 wrote them
            ffa: FreeForAllGameDict = {**out, "ranking": self.ranking, "scores": self.scores, "events": events}
            return ffa
        return {**out, "events": events}

    @classmethod
    def from_dict(cls, data: object, unit: int | None = None, where: str = "game") -> GameRecord:
        names = _need(data, "names", list, where)
        n = len(names)
        if n < 2:
            raise RecordError(f"{where}: a game needs at least 2 names, got {n}")
        ranking = _need(data, "ranking", list, where, optional=True)
        if ranking is not None and (len(ranking) != n or not all(is_int(p) and 0 <= int(p) < n for p in ranking)):
            raise RecordError(f"{where}: field 'ranking' needs one place 0..{n - 1} per seat, got {ranking!r}")
        scores = _need(data, "scores", list, where, optional=True)
        if scores is not None and (len(scores) != n or not all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                              for x in scores)):
            raise RecordError(f"{where}: field 'scores' needs one number per seat, got {scores!r}")
        winner = data.get("winner") if isinstance(data, dict) else None
        winners = range(n) if ranking is not None else (0, 1)  # a seat of a free-for-all game, else a side
        if winner is not None and (isinstance(winner, bool) or winner not in winners):
            raise RecordError(f"{where}: winner must be {', '.join(map(str, winners))} or null, got {winner!r}")
        per_seat: dict[str, list[Any]] = {}
        for key in ("seats", "times", "turns", "forfeits", "stats", "ledger"):
            value = _need(data, key, list, where)
            if len(value) != n:
                raise RecordError(f"{where}: field {key!r} needs one entry per seat ({n}), got {len(value)}")
            per_seat[key] = value
        clock_left = _need(data, "clock_left", list, where, optional=True)
        events = [Event.from_dict(e, f"{where} event") for e in _need(data, "events", list, where)]
        return cls(
            game=_need(data, "game", str, where), setup=_need(data, "setup", str, where), rules=_need(data, "rules", dict, where),
            names=names, seed=_need(data, "seed", int, where), moves=_need(data, "moves", list, where), winner=winner,
            reason=_need(data, "reason", str, where), plies=_need(data, "plies", int, where), clock_left=clock_left,
            events=events, ranking=ranking, scores=scores, unit=unit, **per_seat,
        )



@dataclass(frozen=True)
class SeriesResult(_MappingView):
    """A best-of series (the rulebook's match): its ``players`` in the unit's order, their
    ``wins`` (draws count for nobody), the ``winner`` (an index into ``players``, or
    ``None`` for a drawn match), the ``reason`` (``target``: reached ``target`` wins;
    ``more wins`` / ``equal``: the series length was spent; ``clock``: a player's match
    clock ran out) and the ``target``."""

    players: list[str]
    wins: list[int]
    winner: int | None
    reason: str
    target: int

    REASONS = ("target", "more wins", "equal", "clock")

    def to_dict(self) -> SeriesDict:
        return {"players": self.players, "wins": self.wins, "winner": self.winner, "reason": self.reason, "target": self.target}

    @classmethod
    def from_dict(cls, data: object, where: str = "match") -> SeriesResult:
        winner = data.get("winner") if isinstance(data, dict) else None
        if winner is not None and (isinstance(winner, bool) or winner not in (0, 1)):
            raise RecordError(f"{where}: winner must be 0, 1 or null, got {winner!r}")
        reason = _need(data, "reason", str, where)
        if reason not in cls.REASONS:
            raise RecordError(f"{where}: unknown series reason {reason!r}")
        players, wins = _need(data, "players", list, where), _need(data, "wins", list, where)
        if len(players) != 2 or len(wins) != 2 or not all(is_int(w) for w in wins):
            raise RecordError(f"{where}: a series needs 2 players and 2 integer win counts")
        return cls(players, wins, winner, reason, _need(data, "target", int, where))


@dataclass(frozen=True)
class UnitRecord(_MappingView):
    """One finished unit of a tournament: a colour-swapped pair, a team pair, or a best-of
    series (then ``match`` holds its result); ``seconds`` of wall time."""

    unit: int
    games: list[GameRecord]
    seconds: float = 0.0
    match: SeriesResult | None = None

    def to_dict(self) -> UnitDict:
        out: UnitDict = {"unit": self.unit, "games": [g.to_dict() for g in self.games], "seconds": self.seconds}
        if self.match is not None:
            out["match"] = self.match.to_dict()
        return out

    @classmethod
    def from_dict(cls, data: object, where: str = "unit") -> UnitRecord:
        unit = _need(data, "unit", int, where)
        assert isinstance(data, dict)  # _need checked it
        where = f"{where} {unit}"
        games = _need(data, "games", list, where)
        if not games:
            raise RecordError(f"{where}: a unit needs at least one game")
        seconds = data.get("seconds", 0.0)
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise RecordError(f"{where}: field 'seconds' is not a number")
        match = None if data.get("match") is None else SeriesResult.from_dict(data["match"], f"{where} match")
        return cls(unit, [GameRecord.from_dict(g, unit, f"{where} game {i}") for i, g in enumerate(games)], float(seconds), match)
