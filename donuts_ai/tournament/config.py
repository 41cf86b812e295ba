"""One configuration for the harness: :class:`HarnessConfig`, taken by tournaments
(:func:`~.runner.run`), SPRTs (:func:`~.sprt.run_sprt`) and studies
(:func:`~donuts_ai.study.run_study`).

The most used settings are keywords of the entry points; every setting is a field of
one frozen object, which can be kept, compared, printed and varied
(:meth:`HarnessConfig.replace`)::

    tournament.run(["random", "greedy"], game="donuts", games=20, seed=1)
    config = tournament.HarnessConfig(game="donuts", games=20, seed=1, clock=10.0)
    tournament.run(["random", "mcts:time=0.1"], config=config.replace(seed=2))

A keyword may give a setting the config leaves at its default; one that contradicts the
config is refused (:class:`ConfigError`), as is a setting the entry point does not use.
:func:`make_config` turns the settings into the tournament's configuration line (a
:class:`~.records.TournamentConfig`: what a results file records and ``--resume``
compares), checking each against its game.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, Unpack, cast

from .._checks import check_int, check_seconds
from ..errors import DonutsError
from ..game import Game, get_game
from .agent_source import AgentSource
from .entries import names_of, sources_of
from .match import ILLEGAL_POLICIES, ISOLATIONS
from .records import CODE_KEY, GAME_SOURCE_KEY, GAMES_PER_KEY, GAMES_PER_PAIRING, SETUPS_KEY, TournamentConfig, game_source

FORMATS = ("round-robin", "gauntlet")
#: pairs, duel and team are the modes of two-sided games; free-for-all games are played
#: in tables of ``players`` seats, every table in all its seat rotations (:func:`~.scheduling.schedule`).
#: The mode of free-for-all games (a game's :attr:`~donuts_ai.game.Game.FREE_FOR_ALL` says
#: whether it is one).
FREE_FOR_ALL_MODE = "free-for-all"
MODES = ("pairs", "duel", "team", FREE_FOR_ALL_MODE)
#: The lengths a best-of series (duel mode) may have.
BEST_OF = (1, 3, 5, 7)
#: Where the units of a run are played (:mod:`.backends`).
BACKENDS = ("process", "ray")
#: The hard per-move limit (seconds) of a run without a clock: generous, since an exact
#: solver may think for minutes on an empty board, yet every game of a run ends.
DEFAULT_MOVE_LIMIT = 300.0

#: How a run reports its progress: ``True`` prints a line on stderr, a callable is called
#: (tournament: ``(units done, units)``; SPRT: ``(state, pairs)``; study: ``(solved, layouts)``).
Progress = bool | Callable[..., object]


class ConfigError(DonutsError):
    """Settings given twice and differently (a config and a keyword), or given to an
    entry point that does not use them."""


def check_backend(backend: object, address: object, error: type[DonutsError] = DonutsError) -> None:
    """A run's ``backend``, one of :data:`BACKENDS`, and its ``address`` (a Ray cluster's:
    only with the Ray backend), for every entry point that runs games (tournaments and
    evaluations alike)."""
    if backend not in BACKENDS:
        raise error(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise error(f"address is a Ray cluster's: it needs backend='ray', not {backend!r}")


def checked_results_path(path: object, error: type[DonutsError] = DonutsError) -> str | None:
    """A run's ``results_path`` as a str (``None`` for none): a str or ``os.PathLike``; an int
    would be taken for an open file's number."""
    if path is None:
        return None
    if not isinstance(path, (str, os.PathLike)):
        raise error(f"results_path must be a file's path (a str or os.PathLike), got {path!r}")
    return os.fspath(path)


@dataclass(frozen=True, kw_only=True)
class HarnessConfig:
    """Every setting of a harness run, in one frozen object (see the module doc).

    Each field is documented where it is defined. A tournament reads them all; an SPRT
    reads :data:`SPRT_FIELDS`, a study :data:`STUDY_FIELDS`, and each refuses the others.
    The agents are kept as their :class:`~.entries.AgentSource` s (cloudpickled, with
    their records), checked when the config is made.
    """

    #: A registered game (:mod:`donuts_ai.game`); every tournament and SPRT names one.
    game: str | None = None
    #: Entries (:mod:`.entries`): specs, agent objects or agent classes.
    agents: Sequence[object] = ()
    #: ``"round-robin"`` or ``"gauntlet"`` (the first agent against each other).
    format: str = "round-robin"
    #: Games per pairing: colour-swapped pairs (rounded up to even), series in duel mode,
    #: or, in a free-for-all game, games of each set of agents that fills a table
    #: (rounded up to a multiple of the seats: every table plays all its rotations).
    games: int = 2
    #: The game's set-ups: ``None`` draws a fresh one for every unit, seeded from ``seed``;
    #: else a spec (:func:`parse_setups`), a set-up or a list of them, cycled through.
    setups: object = None
    #: Seeds every unit: a rerun plays the same games whatever the number of workers.
    seed: int = 0
    #: ``"pairs"``, ``"duel"`` (best-of-``best_of`` series), ``"team"`` (4 agents, 2v2) or
    #: ``"free-for-all"``; ``None``: ``"pairs"``, or a free-for-all game's own.
    mode: str | None = None
    #: The length of a duel's series (:data:`BEST_OF`).
    best_of: int = 3
    #: Seconds per player (per series in duel mode, else per game); ``None``: no clock.
    clock: float | None = None
    #: The penalty for an exception or an illegal move: ``"lose"`` or ``"forfeit"``.
    illegal: str = "lose"
    #: The game's variant (``None``: its default).
    rules: object = None
    #: The hard limit on one move, in seconds (an agent that hangs loses on time there).
    move_limit: float | None = DEFAULT_MOVE_LIMIT
    #: One of the game's score ledgers (``None``: its first).
    ledger: str | None = None
    #: ``"process"`` (each agent in a supervised process) or ``"none"`` (called in the worker).
    isolation: str = "process"
    #: Seats at a free-for-all game's tables (``None``: what its rules say).
    players: int | None = None
    #: Worker processes (``None``: the entry point's default; all cores for a tournament).
    workers: int | None = None
    #: Where units are played: ``"process"`` or ``"ray"`` (:mod:`.backends`).
    backend: str = "process"
    #: A Ray cluster's address (``None``: a local instance).
    address: str | None = None
    #: The JSON-lines file every finished unit is appended to.
    results_path: str | None = None
    #: Continue the file at ``results_path`` (with more ``games``: the run grows, on the record).
    resume: bool = False
    #: Let a resume go on after an agent's code changed (:func:`~.entries.code_of`), as a new version.
    new_version: bool = False
    #: ``True`` prints a line on stderr; a callable is called (:data:`Progress`).
    progress: Progress = False

    def __post_init__(self) -> None:
        # Agents are checked and kept as sources at once: a bad spec, or an object that
        # cannot travel to its seat process, is refused here, never half-way through a run.
        if isinstance(self.agents, (str, bytes)):
            raise ConfigError(f"agents must be a list of entries, got the text {self.agents!r}")
        agents = tuple(self.agents)
        if agents:
            if self.game is None:
                raise ConfigError("agents are named in a game: give game= (\"donuts\", \"boxes\", ...)")
            agents = tuple(sources_of(agents, self.game))
        object.__setattr__(self, "agents", agents)
        check_backend(self.backend, self.address, ConfigError)
        check_int("workers", self.workers, minimum=1, allow_none=True)
        object.__setattr__(self, "results_path", checked_results_path(self.results_path, ConfigError))

    def replace(self, **changes: Any) -> HarnessConfig:
        """A copy with some fields changed, checked again.

        Args:
            **changes: new values of fields, by name.

        Returns:
            The changed copy.
        """
        fields: dict[str, Any] = _field_names(changes, "replace")  # values checked when used
        return dataclasses.replace(self, **fields)

    @property
    def sources(self) -> tuple[AgentSource, ...]:
        """The agents as the harness carries them (:class:`~.entries.AgentSource`: the
        objects cloudpickled, with their records); ``agents`` holds the same."""
        return cast(tuple[AgentSource, ...], self.agents)  # made so by __post_init__

    @property
    def records(self) -> list[str]:
        """The agents' records (what results files keep)."""
        return [a.record for a in self.sources]


class Settings(TypedDict, total=False):
    """The keywords :func:`~.sprt.run_sprt` and :func:`~donuts_ai.study.run_study` take
    besides a config: the fields of :class:`HarnessConfig`."""

    game: str
    format: str
    games: int
    setups: object
    seed: int
    mode: str | None
    best_of: int
    clock: float | None
    illegal: str
    rules: object
    move_limit: float | None
    ledger: str | None
    isolation: str
    players: int | None
    workers: int | None
    backend: str
    address: str | None
    results_path: str | None
    resume: bool
    new_version: bool
    progress: Progress


FIELDS = tuple(f.name for f in dataclasses.fields(HarnessConfig))
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(HarnessConfig)}
#: What each entry point reads of a config: any other setting it is given is refused.
TOURNAMENT_FIELDS = frozenset(FIELDS)
SPRT_FIELDS = frozenset({"game", "agents", "setups", "seed", "rules", "clock", "illegal", "move_limit", "ledger", "isolation",
                         "progress"})
STUDY_FIELDS = frozenset({"game", "seed", "rules", "workers", "backend", "address", "results_path", "resume", "progress"})


def _field_names(settings: Mapping[str, object], entry: str) -> dict[str, object]:
    """``settings`` checked to be fields; a name that is no field is a :class:`TypeError`,
    as Python reports an unexpected keyword."""
    for key in settings:
        if key not in _DEFAULTS:
            raise TypeError(f"{entry}() got an unexpected keyword argument {key!r}")
    return dict(settings)


def given(**keywords: object) -> dict[str, object]:
    """The keywords of an entry point that differ from their field's default: those a
    caller gave (a keyword left at its default leaves a config's value)."""
    return {name: value for name, value in keywords.items() if not _same(value, _DEFAULTS[name])}


def _same(value: object, default: object) -> bool:
    if value is default:
        return True
    try:
        return bool(value == default)
    except (TypeError, ValueError):  # a value whose == is no truth (an array): given
        return False


def _is_set(config: HarnessConfig, name: str) -> bool:
    return bool(getattr(config, name) != _DEFAULTS[name])


def resolve(config: HarnessConfig | None, agents: Iterable[object] | None, settings: Mapping[str, object], *, entry: str,
            uses: frozenset[str] = TOURNAMENT_FIELDS) -> HarnessConfig:
    """The one :class:`HarnessConfig` of a call to ``entry``: ``config`` completed by the
    keywords ``settings`` and ``agents`` (each may give what ``config`` leaves at its
    default; one that contradicts ``config`` is a :class:`ConfigError`), with no setting
    set that ``entry`` does not use (``uses``)."""
    fields = _field_names(settings, entry)
    path = fields.get("results_path")
    if isinstance(path, os.PathLike):  # compared as the config keeps it: a str
        fields["results_path"] = os.fspath(path)
    if agents is not None:
        if isinstance(agents, (str, bytes)):
            raise ConfigError(f"agents must be a list of entries, got the text {agents!r}")
        fields["agents"] = tuple(agents)
    if config is None:
        resolved = HarnessConfig(**fields)  # type: ignore[arg-type]  # names checked above; values when used (tournament_config)
    else:
        if not isinstance(config, HarnessConfig):
            raise ConfigError(f"config must be a HarnessConfig, got {type(config).__name__}")
        game = fields.get("game", config.game)
        conflicts = []
        for name, value in fields.items():
            if not _is_set(config, name):
                continue
            if name == "agents":
                if game is None or [s.record for s in sources_of(value, str(game))] != config.records:  # type: ignore[arg-type]
                    conflicts.append(name)
            elif value != getattr(config, name):
                conflicts.append(name)
        if conflicts:
            shown = ", ".join(f"{n}={fields[n]!r} (the config has {getattr(config, n)!r})" if n != "agents"
                              else "agents (the config has its own)" for n in conflicts)
            raise ConfigError(f"{entry}: the config and the keywords disagree on {shown}; "
                              "give each setting once (config.replace(...) makes a changed copy)")
        resolved = dataclasses.replace(config, **fields) if fields else config  # type: ignore[arg-type]
    unused = [n for n in FIELDS if n not in uses and _is_set(resolved, n)]
    if unused:
        raise ConfigError(f"{entry} does not use {', '.join(unused)}: leave "
                          f"{'it' if len(unused) == 1 else 'them'} unset")
    if resolved.resume and resolved.results_path is None:
        raise ConfigError(f"{entry}: resume=True continues a results file: give results_path")
    if resolved.new_version and not resolved.resume:
        raise ConfigError(f"{entry}: new_version=True goes with resume=True (a run continued with a newer version)")
    return resolved


def parse_setups(spec: str, game: str) -> list[object] | str:
    """The set-ups a spec names, as ``setups=`` and ``--setups`` take it.

    Args:
        spec: the game's set-up spec (:meth:`~donuts_ai.game.Game.parse_setups`).
        game: a registered game's name.

    Returns:
        The set-ups (for Donuts its :class:`~donuts_ai.Layout` s), or a word for a fresh
        draw per unit.
    """
    return get_game(game).parse_setups(spec)


def make_config(agents: Iterable[object] | None = None, *, config: HarnessConfig | None = None,
                **settings: Unpack[Settings]) -> TournamentConfig:
    """Check every setting and return the tournament's configuration line.

    Args:
        agents: the entries, as :func:`~.runner.run` takes them.
        config: the settings (:class:`HarnessConfig`).
        **settings: settings as keywords (:class:`Settings`), completing ``config``.

    Returns:
        What a results file records and ``--resume`` compares: the agents' records, their
        names, and every setting checked against the game.

    Raises:
        ConfigError: a keyword contradicts ``config``.
        DonutsError: a setting the game refuses.
    """
    return tournament_config(resolve(config, agents, settings, entry="make_config"))


def tournament_config(config: HarnessConfig) -> TournamentConfig:
    """The configuration line of a tournament of ``config`` (see :func:`make_config`)."""
    if config.game is None:
        raise ConfigError("a tournament names its game: give game= (\"donuts\", \"boxes\", ...)")
    game_rules = get_game(config.game)
    records = config.records
    names = names_of(config.sources)
    if config.format not in FORMATS:
        raise DonutsError(f"unknown format {config.format!r}; expected one of {', '.join(FORMATS)}")
    mode = _mode(game_rules, config.mode)
    if mode == "team" and len(records) != 4:
        raise DonutsError(f"a team battle needs 4 agents (Chocolate A, Vanilla A, Chocolate B, Vanilla B), got {len(records)}")
    if mode != "team" and len(records) < 2:
        raise DonutsError("a tournament needs at least 2 agents")
    rules = game_rules.rules_dict(config.rules)
    if config.players is not None:
        count = check_int("players", config.players, minimum=2)
        assert count is not None  # not allow_none
        rules = game_rules.with_players(rules, count)
    games = check_int("games per pairing", config.games, minimum=1)
    if mode == "duel" and config.best_of not in BEST_OF:
        raise DonutsError(f"best_of must be {', '.join(map(str, BEST_OF[:-1]))} or {BEST_OF[-1]}, got {config.best_of!r}")
    if mode != "duel" and config.best_of != HarnessConfig.best_of:  # (the command line says so as --best-of)
        raise DonutsError(f"best_of={config.best_of!r} is a duel's series length: it needs mode='duel', not {mode!r}")
    clock, move_limit, ledger = _check_play_settings(game_rules, config)
    setups = _setups(game_rules, config.setups)
    seed = check_int("seed", config.seed)
    # The line's keys in the order results files have always written them (free-for-all
    # tournaments also give their table size, after the mode).
    line: dict[str, object] = {"game": game_rules.name, "agents": records, "names": names, "format": config.format,
                               "games": games, SETUPS_KEY: setups, "seed": seed, "mode": mode}
    if mode == FREE_FOR_ALL_MODE:
        line["players"] = game_rules.num_players(rules)
        line[GAMES_PER_KEY] = GAMES_PER_PAIRING
    line |= {
        "best_of": config.best_of if mode == "duel" else None,
        "clock": clock,
        "clock_per": None if clock is None else "series" if mode == "duel" else "game",
        "move_limit": move_limit,
        "illegal": config.illegal,
        "ledger": ledger,
        "isolation": config.isolation,
        "rules": rules,
        CODE_KEY: [source.code for source in config.sources],
    }
    source = game_source(game_rules, config.game)
    if source is not None:  # a game from outside the package: where a reader finds it
        line[GAME_SOURCE_KEY] = source
    return cast(TournamentConfig, line)


def _mode(game_rules: Game[Any], mode: str | None) -> str:
    """The tournament's mode, checked against the game's kind: ``None`` is ``"pairs"`` for
    a two-sided game, and a free-for-all game has only its own."""
    if game_rules.FREE_FOR_ALL:
        if mode not in (None, FREE_FOR_ALL_MODE):
            raise DonutsError(f"{game_rules.name} is a free-for-all game: its mode is {FREE_FOR_ALL_MODE!r}, not {mode!r} "
                              "(tables of players seats, every table in all its seat rotations)")
        return FREE_FOR_ALL_MODE
    mode = "pairs" if mode is None else mode
    two_sided = [m for m in MODES if m != FREE_FOR_ALL_MODE]
    if mode not in two_sided:
        raise DonutsError(f"unknown mode {mode!r}; expected one of {', '.join(two_sided)}")
    return mode


def _check_play_settings(game_rules: Game[Any], config: HarnessConfig) -> tuple[float | None, float | None, str]:
    """The settings every kind of tournament shares, checked: ``(clock, move_limit,
    ledger)`` with the game's default ledger filled in."""
    clock, move_limit = check_seconds("clock", config.clock), check_seconds("move_limit", config.move_limit)
    if config.illegal not in ILLEGAL_POLICIES:
        raise DonutsError(f"illegal-move policy must be one of {', '.join(ILLEGAL_POLICIES)}, got {config.illegal!r}")
    if config.illegal == "forfeit" and not game_rules.CAN_FORFEIT:
        raise DonutsError(f"{game_rules.name} has no forfeited turn: use the illegal-move policy 'lose'")
    ledger = game_rules.LEDGERS[0] if config.ledger is None else config.ledger
    if ledger not in game_rules.LEDGERS:
        raise DonutsError(f"ledger must be one of {', '.join(game_rules.LEDGERS)}, got {ledger!r}")
    if config.isolation not in ISOLATIONS:
        raise DonutsError(f"isolation must be one of {', '.join(ISOLATIONS)}, got {config.isolation!r}")
    return clock, move_limit, ledger


def _setups(game_rules: Game[Any], setups: object) -> list[str] | str:
    """The set-ups of a configuration: a word for a fresh draw per unit, or their texts."""
    if setups is None:
        return "random"
    if isinstance(setups, str):
        setups = game_rules.parse_setups(setups)
        if isinstance(setups, str):
            return setups
    chosen = list(setups) if isinstance(setups, (list, tuple)) else [setups]
    if not chosen:
        raise DonutsError("setups must name at least one set-up")
    return [game_rules.setup_text(x) for x in chosen]
