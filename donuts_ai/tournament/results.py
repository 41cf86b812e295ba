"""Results: the JSON-lines file and the object notebooks and reports read.

The file's first line is the tournament's configuration; each further line is one
finished unit (a colour-swapped pair of games, one best-of series, or a free-for-all
table in all its seat rotations), written in one ``write`` and flushed and fsynced, so a
crash loses at most the unit being written. A last line cut off mid-write is reported
and skipped (and cut away on ``--resume``). A unit is counted once: a line that repeats
an earlier unit's line exactly (a file copied into itself, a unit pasted twice) is
skipped, and one that names an earlier unit with other contents makes the file
unreadable (:class:`ResultsFileError`, the file unchanged), since no reader could tell
which of the two was played. A run that fails before it finishes its first unit leaves
no file behind (:func:`results_file`).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, Any, TypeVar, cast, overload

from ..errors import DonutsError
from ..game import JSONObject, game_names
from .match import score_of
from .plackett_luce import fit_plackett_luce
from .records import (
    AGENT_CODE,
    CODE_KEY,
    DIGEST_KEY,
    GAME_SOURCE_KEY,
    GAMES_KEY,
    GROWN,
    READABLE_VERSIONS,
    RETUNED,
    EventRow,
    GameRecord,
    LedgerRow,
    RecordError,
    TournamentConfig,
    UnitRecord,
    config_as_read,
    line_digest,
    version_for,
)
from .report import text_report
from .specs import SpecError
from .stats import RatingFit, fit_ratings, pair_category
from .verify import Verification, unit_lines, verify_units

_U = TypeVar("_U")


class ResultsFileError(DonutsError):
    """A results file that cannot be read, or belongs to another tournament."""


class AgentCodeError(ResultsFileError, SpecError):
    """A resume whose agent's code differs from the code the file was played with
    (:func:`~.entries.code_of`): refused, the file unchanged, unless asked to go on as a
    new version (``new_version=True``, ``--new-version``)."""


#: How a message raised in Python asks to go on with a new version (the command line says ``--new-version``).
NEW_VERSION_KEYWORD = "new_version=True"


def effective_config(config: Mapping[str, object], history: list[JSONObject]) -> JSONObject:
    """The configuration a results file holds now: its first line, with the games of its
    last ``grown`` line, the code of its last ``agent_code`` line and the settings of its
    ``retuned`` lines."""
    out = dict(config)
    for line in history:
        if line.get("type") == GROWN:
            out[GAMES_KEY] = line.get("games")
        elif line.get("type") == AGENT_CODE:
            out[CODE_KEY] = line.get(CODE_KEY)
        elif line.get("type") == RETUNED and isinstance(line.get("settings"), dict):
            out.update(cast(JSONObject, line["settings"]))
    return out


def _amendments(path: str, old: Mapping[str, object], new: Mapping[str, object], units: int, what: str,
                new_version: bool, warn: Callable[[str], object], speed_settings: tuple[str, ...] = ()) -> list[JSONObject]:
    """The lines a resume of ``old`` (the file's configuration now) with ``new`` appends
    before its first unit: a ``grown`` line when ``new`` asks for more games; an
    ``agent_code`` line when the agents' code is recorded anew; a ``retuned`` line when
    one of ``speed_settings`` changed. Raises, the file unchanged, for fewer games, and for
    a changed agent without ``new_version``."""
    lines: list[JSONObject] = []
    retuned = [key for key in speed_settings if old.get(key) != new.get(key)]
    if retuned:
        lines.append({"type": RETUNED, "settings": {key: new.get(key) for key in retuned},
                      "from": {key: old.get(key) for key in retuned}, "after_units": units})
    if GAMES_KEY in new and old.get(GAMES_KEY) != new.get(GAMES_KEY):
        before, after = old.get(GAMES_KEY), new.get(GAMES_KEY)
        if isinstance(before, int) and isinstance(after, int) and after < before:
            raise ResultsFileError(f"{path} holds a {what} of {GAMES_KEY}={before}; {after} is fewer: a run grows, "
                                   f"never shrinks (give {GAMES_KEY}={before} or more)")
        lines.append({"type": GROWN, GAMES_KEY: after, "from_games": before, "after_units": units})
    if CODE_KEY in new and old.get(CODE_KEY) != new.get(CODE_KEY):
        before_code, after_code = old.get(CODE_KEY), new[CODE_KEY]
        names = cast(list[str], new.get("names") or new.get("agents") or [])
        if before_code is None:
            warn(f"{path} was written before agents' code was recorded: the versions of the agents that played "
                 "its units are unknown; this run's are recorded from here on")
            changed = []
        else:
            assert isinstance(before_code, list) and isinstance(after_code, list)
            changed = [f"{name} ({was} -> {now})"
                       for name, was, now in zip(names, before_code, after_code, strict=False) if was != now]
            if not new_version:
                raise AgentCodeError(f"{path}: the code of {'; '.join(changed)} changed since its units were played; "
                                     f"its games would mix two versions: pass {NEW_VERSION_KEYWORD} to go on as a new "
                                     "version (on the record), or use another file")
        lines.append({"type": AGENT_CODE, CODE_KEY: after_code, "changed": changed, "after_units": units})
    return lines


def import_recorded_game(config: Mapping[str, object], path: str) -> None:
    """Make the game of a results file of ``config`` known before it is read: when its
    name is not in the table of games, import the module its configuration records
    (:data:`~.records.GAME_SOURCE_KEY`, ``"module:name"``), which registers it. Raises
    :class:`ResultsFileError` with one line naming the game and the module when that
    module cannot be imported or does not register the game, and when the file records
    no module (a file written before files recorded it) for a game not registered."""
    name, source = config.get("game"), config.get(GAME_SOURCE_KEY)
    if not isinstance(name, str) or name in game_names():
        return
    if not isinstance(source, str) or ":" not in source:
        raise ResultsFileError(f"results file {path}: game {name!r} is not in the table of games "
                               f"({', '.join(game_names())}) and the file does not say which module registers it (a game "
                               "defined in a script, or a file written before files recorded it): import that module first")
    module = source.rpartition(":")[0]
    try:
        importlib.import_module(module)
    except Exception as exc:  # noqa: BLE001 - whatever stops the import, said in one line
        why = str(exc) if isinstance(exc, ImportError) else f"{type(exc).__name__}: {exc}"
        raise ResultsFileError(f"results file {path}: game {name!r} comes from module {module!r}, which cannot be "
                               f"imported ({why}); make it importable (PYTHONPATH) and run again") from None
    if name not in game_names():
        raise ResultsFileError(f"results file {path}: game {name!r} comes from module {module!r}, which was imported "
                               "but registers no game of that name (register_game)")


def _header(config: Mapping[str, object]) -> str:
    return json.dumps({"type": "config", "version": version_for(config), "config": config}) + "\n"


def append_unit(fh: IO[str], unit: UnitRecord | Mapping[str, object]) -> None:
    """Append one unit (a record with ``to_dict``, or a dict) in one write, with its
    digest (:func:`line_digest`), flushed and fsynced."""
    data = unit.to_dict() if hasattr(unit, "to_dict") else unit
    line = {"type": "unit", **data}
    line[DIGEST_KEY] = line_digest(line)
    fh.write(json.dumps(line) + "\n")
    fh.flush()
    os.fsync(fh.fileno())


def _lock(fh: IO[str], path: str) -> None:
    """Hold ``path`` for this run alone (an advisory lock, released when ``fh`` closes):
    two runs appending to one file would write over each other."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        return
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        fh.close()
        raise ResultsFileError(f"{path} is being written by another run; wait for it or choose another file") from None


@overload
def open_results(path: str, config: Mapping[str, object], resume: bool, what: str = "tournament",
                 convert: None = None) -> tuple[IO[str], list[JSONObject]]: ...
@overload
def open_results(path: str, config: Mapping[str, object], resume: bool, what: str = "tournament", *,
                 convert: Callable[[list[JSONObject]], list[_U]]) -> tuple[IO[str], list[_U]]: ...
def open_results(path: str, config: Mapping[str, object], resume: bool, what: str = "tournament",
                 convert: Callable[[list[JSONObject]], list[_U]] | None = None
                 ) -> tuple[IO[str], list[JSONObject]] | tuple[IO[str], list[_U]]:
    """Open ``path`` for appending units: (file, units already there).

    A new file is created exclusively (if another run creates it first, this one stops)
    and gets the configuration line. With ``resume`` an existing file is read and must
    hold the same configuration, and its units must pass ``convert`` (which returns them
    as records, or raises); only then is a cut-off last line cut away. A refused file is
    left exactly as it was. Without ``resume`` an existing file is refused, so results
    are never overwritten. The file is locked while open: a second run on it is refused."""
    fh, units, _ = _open(path, config, resume, what, convert)
    return fh, units


def _kind(config: Mapping[str, object]) -> str:
    """What wrote a results file of ``config``, as a message names it: a study, an evaluation or a tournament."""
    if "study" in config:
        return "a study"
    return "an evaluation" if "suites" in config else "a tournament"


#: How a message raised in Python asks to continue a results file (the command line says ``--resume``).
RESUME_KEYWORD = "resume=True"


def _open(path: str, config: Mapping[str, object], resume: bool, what: str,
          convert: Callable[[list[JSONObject]], list[Any]] | None, grow: bool = False,
          new_version: bool = False, speed_settings: tuple[str, ...] = ()) -> tuple[IO[str], list[Any], bool]:
    """:func:`open_results`, and whether the file was created now."""
    if os.path.isdir(path):
        raise ResultsFileError(f"{path} is a folder: a results file is a file")
    try:
        fh = open(path, "x", encoding="utf-8")  # noqa: SIM115 - the caller closes it
    except FileExistsError:
        if not resume:
            raise ResultsFileError(f"{path} exists: pass {RESUME_KEYWORD} to continue it, or choose another file") from None
    except OSError as exc:
        raise ResultsFileError(f"cannot create results file {path!r}: {exc.strerror}") from None
    else:
        _lock(fh, path)
        fh.write(_header(config))
        fh.flush()
        os.fsync(fh.fileno())
        return fh, [], True
    fh = open(path, "r+", encoding="utf-8")  # noqa: SIM115 - the caller closes it
    _lock(fh, path)
    try:
        header, units, good_bytes, history = _read(path)  # read under the lock: no other run appends now
        old_config = effective_config(header, history)
        # Where the game comes from is no setting of the tournament: a file written before
        # it was recorded, or with the module named otherwise (moved, or named from another
        # folder), resumes with the game of the same name.
        amended = ((GAMES_KEY, CODE_KEY, GAME_SOURCE_KEY) if grow else (CODE_KEY, GAME_SOURCE_KEY)) + speed_settings
        diff = sorted(k for k in set(config) | set(old_config) if k not in amended and config.get(k) != old_config.get(k))
        if diff and _kind(old_config) != _kind(config):
            raise ResultsFileError(f"{path} is {_kind(old_config)}'s results file, not {_kind(config)}'s: "
                                   f"use another file or drop {RESUME_KEYWORD}")
        if diff:
            played_by = ""
            if "agents" in diff:  # say who: an agent object must come back with the same record
                played_by = (f"; it was played by {old_config.get('agents')!r}, not {config.get('agents')!r} (an agent "
                             "object is recorded by its class and its spec or repr, and must come back with the same)")
            raise ResultsFileError(f"{path} holds a different {what} (differs in: {', '.join(diff)}){played_by}; "
                                   f"use another file or drop {RESUME_KEYWORD}")
        converted = None if convert is None else convert(units)
        amendments = _amendments(path, old_config, config, len(units), what, new_version,
                                 lambda message: print(f"donuts-ai: warning: {message}", file=sys.stderr), speed_settings)
    except BaseException:
        fh.close()
        raise
    fh.truncate(good_bytes)  # a last line cut off mid-write goes; nothing else changes
    fh.seek(good_bytes)
    for line in amendments:  # appended, never rewritten: the header stays as it was
        fh.write(json.dumps(line) + "\n")
    if amendments:
        fh.flush()
        os.fsync(fh.fileno())
    return (fh, units, False) if converted is None else (fh, converted, False)


@overload
def results_file(path: str | None, config: Mapping[str, object], resume: bool, what: str = "tournament",
                 convert: None = None, *, grow: bool = False, new_version: bool = False,
                 speed_settings: tuple[str, ...] = ()) -> contextlib.AbstractContextManager[tuple[IO[str] | None, list[JSONObject]]]: ...
@overload
def results_file(path: str | None, config: Mapping[str, object], resume: bool, what: str = "tournament", *,
                 convert: Callable[[list[JSONObject]], list[_U]], grow: bool = False, new_version: bool = False,
                 speed_settings: tuple[str, ...] = ()) -> contextlib.AbstractContextManager[tuple[IO[str] | None, list[_U]]]: ...
def results_file(path: str | None, config: Mapping[str, object], resume: bool, what: str = "tournament",
                 convert: Callable[[list[JSONObject]], list[_U]] | None = None, *, grow: bool = False,
                 new_version: bool = False, speed_settings: tuple[str, ...] = ()
                 ) -> contextlib.AbstractContextManager[tuple[IO[str] | None, list[Any]]]:
    """:func:`open_results` for the length of a run (``path`` ``None``: no file, no units),
    closed when the block ends. A file this block created is removed again when the block
    fails (an error, a stop) before a unit was appended: a run that never finished a unit
    leaves no file that a retry would have to resume.

    A resume compares the file's configuration as it is now with ``config``, and refuses
    any difference but two, each recorded in a line of its own (:func:`_amendments`): more
    games, where ``grow`` (the run grows: only the missing units are played), and the
    agents' code, where ``new_version`` or where the file did not record it. The
    ``speed_settings`` (keys of ``config`` that change no result, only the speed) may change
    too, recorded in a line of their own as well."""
    return _results_file(path, config, resume, what, convert, grow, new_version, speed_settings)


@contextlib.contextmanager
def _results_file(path: str | None, config: Mapping[str, object], resume: bool, what: str,
                  convert: Callable[[list[JSONObject]], list[Any]] | None, grow: bool = False,
                  new_version: bool = False, speed_settings: tuple[str, ...] = ()) -> Iterator[tuple[IO[str] | None, list[Any]]]:
    """:func:`results_file`'s block."""
    if path is None:
        yield None, []
        return
    fh, units, created = _open(path, config, resume, what, convert, grow, new_version, speed_settings)
    empty_size = fh.tell()
    try:
        yield fh, units
    except BaseException:
        if created and fh.tell() == empty_size:
            fh.close()
            with contextlib.suppress(OSError):
                os.unlink(path)
        raise
    finally:
        fh.close()


def read_file(path: str, warn: Callable[[str], object] | None = None) -> tuple[JSONObject, list[JSONObject]]:
    """(config, units) of a results file: the configuration as it is now (a run that grew:
    its games now; :func:`effective_config`). A corrupt last line is reported through
    ``warn`` (default: stderr) and skipped; the file is never changed."""
    config, units, _, history = _read(path, warn)
    return effective_config(config, history), units


def first_config(path: str) -> JSONObject | None:
    """The configuration line of the file at ``path`` as written, or ``None`` when there
    is no readable one (reading the file properly reports why)."""
    try:
        with open(path, "rb") as fh:
            line = json.loads(fh.readline())
    except (OSError, ValueError, RecursionError):
        return None
    config = line.get("config") if isinstance(line, dict) else None
    return config_as_read(config) if isinstance(config, dict) else None


def read_history(path: str) -> list[JSONObject]:
    """The lines of a results file that amend its configuration, in file order: each
    ``grown`` line (a resume with more games) and ``agent_code`` line (an agent's code
    recorded anew), each with ``after_units``, the units written before it."""
    return _read(path, lambda message: None)[3]


def _read(path: str, warn: Callable[[str], object] | None = None, check_digests: bool = True
          ) -> tuple[JSONObject, list[JSONObject], int, list[JSONObject]]:
    """(config line, units, bytes of complete lines, the lines that amend the configuration
    (``grown``, ``agent_code``, ``retuned``), in file order) of a results file; see :func:`read_file`."""
    warn = warn or (lambda msg: print(f"donuts-ai: warning: {msg}", file=sys.stderr))
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise ResultsFileError(f"cannot read results file {path!r}: {exc.strerror}") from None
    if not data.strip():
        raise ResultsFileError(f"{path} is empty: not a donuts-ai results file (no configuration line); "
                               "remove it or choose another file")
    lines = data.split(b"\n")
    ends_clean = data.endswith(b"\n")
    if ends_clean:
        lines = lines[:-1]
    records: list[JSONObject] = []
    good_bytes = 0
    for i, raw in enumerate(lines):
        last = i == len(lines) - 1
        try:
            rec = json.loads(raw)
            if last and not ends_clean:
                raise ValueError("incomplete")
        except (ValueError, RecursionError):  # RecursionError: a line nested too deeply to be ours
            if last and records:
                warn(f"{path}: line {i + 1} is incomplete (cut off mid-write?); skipped")
                break
            raise ResultsFileError(f"{path}: line {i + 1} is not valid JSON") from None
        if not isinstance(rec, dict):
            raise ResultsFileError(f"{path}: line {i + 1} is JSON but not an object (a results file's lines are objects)")
        if rec.get("type") == "unit" and DIGEST_KEY in rec:  # checked, then dropped (older lines have none)
            if check_digests and rec[DIGEST_KEY] != line_digest(rec):
                raise ResultsFileError(f"{path}: line {i + 1} (unit {rec.get('unit')!r}) was changed after it was "
                                       "written: its digest does not match its contents (the file is unchanged; "
                                       "donuts-ai verify replays every game)")
            rec = {k: v for k, v in rec.items() if k != DIGEST_KEY}
        records.append(rec)
        good_bytes += len(raw) + 1
    if not records or records[0].get("type") != "config" or not isinstance(records[0].get("config"), dict):
        raise ResultsFileError(f"{path}: not a donuts-ai results file (no configuration line)")
    version = records[0].get("version")
    if version not in READABLE_VERSIONS:
        raise ResultsFileError(f"{path}: results format version {version!r} is not one of "
                               f"{', '.join(map(str, READABLE_VERSIONS))}")
    config: JSONObject = config_as_read(records[0]["config"])
    history = [r for r in records[1:] if r.get("type") in (GROWN, AGENT_CODE, RETUNED)]
    return config, each_unit_once(path, records[1:]), good_bytes, history


def each_unit_once(path: str, records: list[JSONObject]) -> list[JSONObject]:
    """The unit lines of ``records`` (the lines after the configuration), each unit once:
    a line equal to an earlier line of the same unit is skipped; one that differs from it
    is a :class:`ResultsFileError` (see the module doc)."""
    units: dict[object, tuple[int, JSONObject]] = {}
    for line, record in enumerate(records, start=2):
        if record.get("type") != "unit":
            continue
        key = json.dumps(record.get("unit"))  # a unit's number (any JSON value: a key that compares as it reads)
        first = units.setdefault(key, (line, record))
        if first[1] != record:
            raise ResultsFileError(f"{path}: lines {first[0]} and {line} both hold unit {record.get('unit')!r}, "
                                   "with different contents; remove the one that was not played (the file is unchanged)")
    return [record for _, record in units.values()]


@dataclass
class Results:
    """A tournament's results: ``config``, ``units`` (:class:`~.records.UnitRecord`) and
    ``games`` (every :class:`~.records.GameRecord`, with its ``unit`` and the seats'
    agent ``names``)."""

    config: TournamentConfig
    units: list[UnitRecord] = field(default_factory=list)
    #: The file's lines that changed its configuration, in order (:func:`read_history`).
    history: list[JSONObject] = field(default_factory=list)

    @classmethod
    def from_file(cls, path: str) -> Results:
        if not isinstance(path, (str, os.PathLike)):
            raise ResultsFileError(f"a results file is named by its path (a str or os.PathLike), got {path!r}")
        path = os.fspath(path)
        header, units, _, history = _read(path)
        import_recorded_game(header, path)  # a game from outside the package: its module registers it
        # The configuration line, as make_config wrote it (the file's version was checked),
        # with what the file's later lines changed (a run that grew, an agent's new version).
        return cls(cast(TournamentConfig, effective_config(header, history)), units_from_dicts(units, path), history)

    @property
    def games(self) -> list[GameRecord]:
        return [g for u in sorted(self.units, key=lambda u: u.unit) for g in u.games]

    @property
    def agents(self) -> list[str]:
        return list(self.config["names"])

    @property
    def free_for_all(self) -> bool:
        """Whether the games are free-for-all (ranked) games: see :mod:`donuts_ai.game`."""
        return self.config.get("mode") == "free-for-all"

    def two_player_games(self) -> list[GameRecord]:
        """The games of two-sided tournaments with two seats (none in a free-for-all one)."""
        return [] if self.free_for_all else [g for g in self.games if len(g["names"]) == 2]

    def crosstable(self) -> dict[str, dict[str, tuple[float, int]]]:
        """crosstable[a][b] = (points of a against b, games). In a free-for-all
        tournament a point for every game a placed above b at the same table (a shared
        place: half), games = the games they played together."""
        table = {a: {b: (0.0, 0) for b in self.agents if b != a} for a in self.agents}
        if self.free_for_all:
            for g in self.games:
                places = g.places()
                for s, a in enumerate(g.names):
                    for t, b in enumerate(g.names):
                        if a != b:
                            pts, n = table[a][b]
                            table[a][b] = (pts + (1.0 if places[s] < places[t] else 0.5 if places[s] == places[t] else 0.0),
                                           n + 1)
            return table
        for g in self.two_player_games():
            a, b = g["names"]
            pa = score_of(g, 0)
            pts, n = table[a][b]
            table[a][b] = (pts + pa, n + 1)
            pts, n = table[b][a]
            table[b][a] = (pts + 1 - pa, n + 1)
        return table

    def ratings(self, anchor: str | None = None, prior_draws: float = 2.0, bootstrap: int = 0, seed: int = 0) -> RatingFit:
        """Ratings on the Elo scale, ``anchor`` (default: the first random agent, else the
        first agent) at 0: Bradley–Terry with Davidson draws and a first-player term on
        two-player games (:func:`~.stats.fit_ratings`), or Plackett–Luce on the final
        rankings of a free-for-all tournament (:func:`~.plackett_luce.fit_plackett_luce`;
        ``bootstrap=B`` takes its intervals from B resamples of the units, seeded by
        ``seed``, instead of the observed information)."""
        if anchor is None:
            anchor = next((n for n in self.agents if n.split(":")[0] == "random"), self.agents[0])
        if self.free_for_all:
            games = self.games
            if not games:
                raise DonutsError("no games to rate")
            if anchor not in {n for g in games for n in g.names}:
                anchor = next(n for n in self.agents if any(n in g.names for g in games))
            return fit_plackett_luce([(g.names, g.places()) for g in games], self.agents, anchor,
                                     prior_draws=prior_draws, groups=[g.unit for g in games], bootstrap=bootstrap, seed=seed)
        if bootstrap:
            raise DonutsError("bootstrap intervals are for free-for-all tournaments; two-sided ratings use the observed information")
        scored = [(g.names[0], g.names[1], score_of(g, 0)) for g in self.two_player_games()]
        if not scored:
            raise DonutsError("no two-player games to rate")
        return fit_ratings(scored, self.agents, anchor, prior_draws)

    def ledger(self) -> dict[str, LedgerRow]:
        """Per agent: games, wins, draws, losses and score-ledger points. In a
        free-for-all tournament: games, ``wins`` (first place alone), ``shared`` (first
        place shared), ``mean_place`` (1 first), ledger ``points``, and the game's counts
        summed in ``stats`` (e.g. boxes delivered)."""
        if self.free_for_all:
            return self._ledger_free_for_all()
        out: dict[str, LedgerRow] = {a: {"games": 0, "wins": 0, "draws": 0, "losses": 0, "points": 0} for a in self.agents}
        for g in self.games:
            for seat, name in enumerate(g["names"]):
                row = out[name]
                row["games"] += 1
                s = score_of(g, seat)
                if s == 1:
                    row["wins"] += 1
                elif s == 0.5:
                    row["draws"] = row.get("draws", 0) + 1
                else:
                    row["losses"] = row.get("losses", 0) + 1
                row["points"] += g["ledger"][seat]
        return out

    def _ledger_free_for_all(self) -> dict[str, LedgerRow]:
        out: dict[str, LedgerRow] = {
            a: {"games": 0, "wins": 0, "shared": 0, "mean_place": float("nan"), "points": 0, "stats": {}} for a in self.agents
        }
        place_sum = {a: 0 for a in self.agents}
        for g in self.games:
            places = g.places()
            for seat, name in enumerate(g.names):
                row = out[name]
                row["games"] += 1
                if places[seat] == 0 and places.count(0) == 1:
                    row["wins"] += 1
                elif places[seat] == 0:
                    row["shared"] = row.get("shared", 0) + 1
                place_sum[name] += places[seat] + 1
                row["points"] += g.ledger[seat]
                stats = row.setdefault("stats", {})
                for key, count in g.stats[seat].items():
                    if isinstance(count, (int, float)) and not isinstance(count, bool):
                        stats[key] = stats.get(key, 0) + count
        for a, row in out.items():
            if row["games"]:
                row["mean_place"] = place_sum[a] / row["games"]
        return out

    def seat_firsts(self) -> list[tuple[int, float]]:
        """Per seat of a free-for-all tournament (0 starts): (games, first places), a
        shared first place counted as its share: does starting pay?"""
        players = self.config.get("players") or 2
        games, firsts = [0] * players, [0.0] * players
        for g in self.games:
            places = g.places()
            winners = places.count(0)
            for seat, place in enumerate(places):
                games[seat] += 1
                if place == 0:
                    firsts[seat] += 1 / winners
        return list(zip(games, firsts, strict=True))

    def pentanomial(self, a: str, b: str) -> list[int]:
        """Counts of A's score (0, 1/2, 1, 3/2, 2) over the colour-swapped pairs against B."""
        counts = [0] * 5
        for u in self.units:
            games = u["games"]
            if len(games) != 2 or any(len(g["names"]) != 2 for g in games) or set(games[0]["names"]) != {a, b}:
                continue
            score = sum(score_of(g, g["names"].index(a)) for g in games)
            counts[pair_category(score)] += 1
        return counts

    def matches(self) -> dict[str, dict[str, int]]:
        """Per agent, over the best-of series (duel mode): matches, won, drawn, lost."""
        out = {a: {"matches": 0, "won": 0, "drawn": 0, "lost": 0} for a in self.agents}
        for u in self.units:
            if u.match is None:
                continue
            for i, name in enumerate(u.match.players):
                row = out[name]
                row["matches"] += 1
                row["drawn" if u.match.winner is None else "won" if u.match.winner == i else "lost"] += 1
        return out

    def events(self) -> list[EventRow]:
        """Exceptions, illegal moves, time losses and crashes, with the game they happened in."""
        return [{"unit": g.unit, "agent": g.names[e.seat], **e.to_dict()} for g in self.games for e in g.events]

    def table(self) -> str:
        """Crosstable, ratings and ledger as text."""
        return text_report(self)

    def verify(self) -> Verification:
        """Replay every game from its set-up, rules and moves and compare it with its
        record (:mod:`.verify`); ``.ok`` when every game replays as recorded."""
        return verify_units(self.config, ((None, u.to_dict()) for u in self.units))


def verify_file(path: str) -> Verification:
    """Replay every game of a results file and check each against its record (``donuts-ai verify``).

    Args:
        path: the results file.

    Returns:
        The :class:`~.verify.Verification`: a line changed after it was written (its digest)
        is a finding, and its games are replayed too.

    Raises:
        ResultsFileError: the file cannot be read at all.
    """
    config, _, _, _ = _read(path, check_digests=False)  # a changed line is reported there, with the rest
    if "game" not in config:  # a study's file: solved layouts, no games to replay
        kind = "a study's results file" if "study" in config else "not a file of games"
        raise ResultsFileError(f"{path} is {kind}: verify replays the games of tournament and evaluation files, "
                               "and it holds none")
    import_recorded_game(config, path)
    verification = verify_units(config, unit_lines(path), path)
    with open(path, "rb") as fh:
        size = fh.seek(0, os.SEEK_END)
        if size:
            fh.seek(size - 1)
        verification.cut_off = size > 0 and fh.read(1) != b"\n"  # a last line without its end, as the reader takes it
    return verification


def units_from_dicts(units: list[JSONObject], path: str) -> list[UnitRecord]:
    """The unit records of a results file's unit lines; :class:`ResultsFileError` names the first bad one."""
    try:
        return [UnitRecord.from_dict(u) for u in units]
    except RecordError as exc:
        raise ResultsFileError(f"{path}: {exc}") from None
