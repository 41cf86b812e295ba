"""Scheduling and running a tournament: units of games, seeds, workers, resume."""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import importlib
import multiprocessing
import os
import random
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TypedDict, TypeVar

from .._checks import check_int, check_seconds
from ..errors import DonutsError
from ._shutdown import on_stop, pool_worker_started, reclaim_signals, stop_pools, stopping_pool, stops_cleanly
from .entries import AgentSource, names_of, seat_for, source_of, sources_of

# ISOLATIONS: how agents are run: each in a supervised process of its own (the default: a
# hang or a crash costs one game, never the run), or as objects in the worker (fast, trusting).
from .game import ILLEGAL_POLICIES, ISOLATIONS, play_game
from .protocol import GAMES, Game, get_game
from .records import GameRecord, SeriesResult, TournamentConfig, UnitRecord
from .results import Results, append_unit, open_results, units_from_dicts
from .seats import Seat, close_all

FORMATS = ("round-robin", "gauntlet")
#: pairs, duel and team are the modes of two-sided games; free-for-all games are played
#: in tables of ``players`` seats, every table in all its seat rotations (:func:`schedule`).
MODES = ("pairs", "duel", "team", "free-for-all")
FREE_FOR_ALL = "free-for-all"
BACKENDS = ("process", "ray")
#: The hard per-move limit (seconds) of a run without a clock: generous, since an exact
#: solver may think for minutes on an empty board, yet every game of a run ends.
DEFAULT_MOVE_LIMIT = 300.0

_C = TypeVar("_C")
_U = TypeVar("_U")
_R = TypeVar("_R")


class Unit(TypedDict):
    """One unit of a tournament's schedule (:func:`schedule`): its number, the ``seats``
    (agent specs) and their ``names`` in seat order, its set-up text and its seed."""

    unit: int
    seats: list[str]
    names: list[str]
    layout: str
    seed: int


class _SeriesOutcome(TypedDict):
    wins: list[int]
    winner: int | None
    reason: str
    target: int


def parse_layouts(spec: str, game: str) -> list[object] | str:
    """The set-ups of ``game`` that ``spec`` names (:meth:`~.protocol.Game.parse_setups`;
    for Donuts its :class:`~donuts_ai.Layout` s), or a word for a fresh draw per unit."""
    return get_game(game).parse_setups(spec)


def make_config(agents: Iterable[object], format: str = "round-robin", games: int = 2, layouts: object = None, seed: int = 0,
                mode: str | None = None, best_of: int = 3, clock: float | None = None, illegal: str = "lose",
                rules: object = None, move_limit: float | None = DEFAULT_MOVE_LIMIT, ledger: str | None = None,
                isolation: str = "process", *, game: str, players: int | None = None) -> TournamentConfig:
    """Check every setting and return the tournament's configuration (what a results
    file records and ``--resume`` compares). ``game`` names a registered game
    (:mod:`.protocol`; every caller names one): ``layouts`` are its set-ups (``None``: a
    fresh seeded draw for every unit, ``"random"``), ``rules`` its variant, ``ledger``
    one of its score ledgers (``None``: its first), agent specs name its agent kinds.
    ``mode`` ``None`` is ``"pairs"`` for a two-sided game and ``"free-for-all"`` for a
    free-for-all one, whose ``players`` (default: what its rules say) sit at every table.
    ``agents`` are entries (:mod:`.entries`: specs, agent objects or classes): the
    configuration keeps their records, and names them by their ``names``."""
    game_rules = get_game(game)
    sources = sources_of(agents, game_rules)
    records = [s.record for s in sources]
    names = names_of(sources)
    if format not in FORMATS:
        raise DonutsError(f"unknown format {format!r}; expected one of {', '.join(FORMATS)}")
    if game_rules.FREE_FOR_ALL:
        return _free_for_all_config(game_rules, records, names, format, games, layouts, seed, mode, clock, illegal, rules,
                                    move_limit, ledger, isolation, players)
    mode = "pairs" if mode is None else mode
    if mode not in MODES[:3]:
        raise DonutsError(f"unknown mode {mode!r}; expected one of {', '.join(MODES[:3])}")
    if players is not None:
        count = check_int("players", players, minimum=2)
        assert count is not None  # not allow_none
        game_rules.with_players(game_rules.rules_dict(rules), count)
    if mode == "team" and len(records) != 4:
        raise DonutsError(f"a team battle needs 4 agents (Chocolate A, Vanilla A, Chocolate B, Vanilla B), got {len(records)}")
    if mode != "team" and len(records) < 2:
        raise DonutsError("a tournament needs at least 2 agents")
    checked_games = check_int("games per pairing", games, minimum=1)
    assert checked_games is not None  # not allow_none
    if mode == "duel" and best_of not in (1, 3, 5, 7):
        raise DonutsError(f"best_of must be 1, 3, 5 or 7, got {best_of!r}")
    clock, move_limit, checked_ledger = _check_play_settings(game_rules, clock, move_limit, illegal, ledger, isolation)
    checked_seed = check_int("seed", seed)
    assert checked_seed is not None  # not allow_none
    layout_config = _setups(game_rules, layouts)
    return {
        "game": game_rules.name,
        "agents": records,
        "names": names,
        "format": format,
        "games": checked_games,
        "layouts": layout_config,
        "seed": checked_seed,
        "mode": mode,
        "best_of": best_of if mode == "duel" else None,
        "clock": clock,
        "clock_per": None if clock is None else "series" if mode == "duel" else "game",
        "move_limit": move_limit,
        "illegal": illegal,
        "ledger": checked_ledger,
        "isolation": isolation,
        "rules": game_rules.rules_dict(rules),
    }


def _check_play_settings(game_rules: Game, clock: float | None, move_limit: float | None, illegal: str, ledger: str | None,
                         isolation: str) -> tuple[float | None, float | None, str]:
    """The settings every kind of tournament shares, checked: ``(clock, move_limit,
    ledger)`` with the game's default ledger filled in."""
    clock, move_limit = check_seconds("clock", clock), check_seconds("move_limit", move_limit)
    if illegal not in ILLEGAL_POLICIES:
        raise DonutsError(f"illegal-move policy must be one of {', '.join(ILLEGAL_POLICIES)}, got {illegal!r}")
    if illegal == "forfeit" and not game_rules.CAN_FORFEIT:
        raise DonutsError(f"{game_rules.name} has no forfeited turn: use the illegal-move policy 'lose'")
    ledger = game_rules.LEDGERS[0] if ledger is None else ledger
    if ledger not in game_rules.LEDGERS:
        raise DonutsError(f"ledger must be one of {', '.join(game_rules.LEDGERS)}, got {ledger!r}")
    if isolation not in ISOLATIONS:
        raise DonutsError(f"isolation must be one of {', '.join(ISOLATIONS)}, got {isolation!r}")
    return clock, move_limit, ledger


def _free_for_all_config(game_rules: Game, agents: list[str], names: list[str], format: str, games: int, layouts: object, seed: int,
                         mode: str | None, clock: float | None, illegal: str, rules: object, move_limit: float | None,
                         ledger: str | None, isolation: str, players: int | None) -> TournamentConfig:
    """The configuration of a free-for-all tournament (see :func:`make_config`)."""
    if mode not in (None, FREE_FOR_ALL):
        raise DonutsError(f"{game_rules.name} is a free-for-all game: its mode is {FREE_FOR_ALL!r}, not {mode!r} "
                          "(tables of players seats, every table in all its seat rotations)")
    if len(agents) < 2:
        raise DonutsError("a tournament needs at least 2 agents")
    rules_dict = game_rules.rules_dict(rules)
    if players is not None:
        count = check_int("players", players, minimum=2)
        assert count is not None  # not allow_none
        rules_dict = game_rules.with_players(rules_dict, count)
    seats = game_rules.num_players(rules_dict)
    checked_games = check_int("games", games, minimum=1)
    assert checked_games is not None  # not allow_none
    checked_clock, checked_limit, checked_ledger = _check_play_settings(game_rules, clock, move_limit, illegal, ledger,
                                                                        isolation)
    layout_config = _setups(game_rules, layouts)
    checked_seed = check_int("seed", seed)
    assert checked_seed is not None  # not allow_none
    return {
        "game": game_rules.name,
        "agents": agents,
        "names": names,
        "format": format,
        "games": checked_games,
        "layouts": layout_config,
        "seed": checked_seed,
        "mode": FREE_FOR_ALL,
        "players": seats,
        "best_of": None,
        "clock": checked_clock,
        "clock_per": None if checked_clock is None else "game",
        "move_limit": checked_limit,
        "illegal": illegal,
        "ledger": checked_ledger,
        "isolation": isolation,
        "rules": rules_dict,
    }


def _setups(game_rules: Game, layouts: object) -> list[str] | str:
    """The set-ups of a configuration: a word for a fresh draw per unit, or their texts."""
    if layouts is None:
        return "random"
    if isinstance(layouts, str):
        layouts = game_rules.parse_setups(layouts)
        if isinstance(layouts, str):
            return layouts
    setups = list(layouts) if isinstance(layouts, (list, tuple)) else [layouts]
    if not setups:
        raise DonutsError("layouts must name at least one set-up")
    return [game_rules.setup_text(x) for x in setups]


def _table(n_agents: int, players: int, seats_so_far: list[int], rng: random.Random, gauntlet: bool) -> list[int]:
    """The agents of one table of ``players`` seats, in no order: every agent sits
    ``players // n_agents`` times, and the ``players % n_agents`` seats left go to the
    agents that have sat least so far (ties drawn by ``rng``), never two of them to one
    agent; in a gauntlet the first agent is always among them (when not every agent is)."""
    base, extra = divmod(players, n_agents)
    table = [i for i in range(n_agents) for _ in range(base)]
    candidates = list(range(n_agents))
    if gauntlet and base == 0:
        table.append(0)
        candidates.remove(0)
        extra -= 1
    keys = {i: (seats_so_far[i], rng.random()) for i in candidates}
    table += sorted(candidates, key=keys.__getitem__)[:extra]
    for i in table:
        seats_so_far[i] += 1
    return table


def _schedule_free_for_all(config: TournamentConfig) -> list[Unit]:
    """The units of a free-for-all tournament: ``ceil(games / players)`` tables, each
    played as one unit of ``players`` games, one per rotation of its seats, so that every
    agent at the table starts once (and sits once in every seat)."""
    names, specs, players = config["names"], config["agents"], config["players"]
    rng = random.Random(config["seed"])
    layouts = config["layouts"]
    seats_so_far = [0] * len(names)
    units: list[Unit] = []
    for k in range(-(-config["games"] // players)):
        seed = rng.getrandbits(62)
        if isinstance(layouts, str):  # a fresh set-up (a deal) for every unit
            layout = get_game(config["game"]).draw_setup(layouts, rng.getrandbits(62))
        else:
            layout = layouts[k % len(layouts)]
        table = _table(len(names), players, seats_so_far, rng, config["format"] == "gauntlet")
        rng.shuffle(table)  # who sits next to whom changes from table to table; the rotations keep it
        units.append({"unit": len(units), "seats": [specs[i] for i in table], "names": [names[i] for i in table],
                      "layout": layout, "seed": seed})
    return units


def schedule(config: TournamentConfig) -> list[Unit]:
    """Every unit of the tournament, in a fixed order, each with its own seed and layout."""
    if config["mode"] == FREE_FOR_ALL:
        return _schedule_free_for_all(config)
    names, specs = config["names"], config["agents"]
    rng = random.Random(config["seed"])
    if config["mode"] == "team":
        pairings: list[tuple[int, ...]] = [(0, 1, 2, 3)]
    elif config["format"] == "gauntlet":
        pairings = [(0, j) for j in range(1, len(names))]
    else:
        pairings = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    per_pairing = config["games"] if config["mode"] == "duel" else (config["games"] + 1) // 2
    layouts = config["layouts"]
    units: list[Unit] = []
    for k in range(per_pairing):
        for seats in pairings:
            seed = rng.getrandbits(62)
            if isinstance(layouts, str):  # a fresh layout for every unit, as the game is played
                layout = get_game(config["game"]).draw_setup(layouts, rng.getrandbits(62))
            else:
                layout = layouts[k % len(layouts)]
            units.append({
                "unit": len(units),
                "seats": [specs[s] for s in seats],
                "names": [names[s] for s in seats],
                "layout": layout,
                "seed": seed,
            })
    return units


# Seats live as long as their process (a worker) or until close_seats(): an agent's
# process and tables are made once, and reset() with each game's seed makes every game
# independent of what the seat played before. Keyed by (game, record, slot, isolation), where
# slot counts earlier seats of the same record in the game: two seats never share an agent.
# At most MAX_SEATS are kept, the least recently used closed first (each agent process
# holds 150-270 MB).
_SEATS: dict[tuple[str, str, int, str], Seat] = {}
MAX_SEATS = 8


def _seats_for(records: list[str], isolation: str, game: Game, sources: Mapping[str, AgentSource] | None = None) -> list[Seat]:
    sources = sources or {}
    keys = [(game.name, record, records[:i].count(record), isolation) for i, record in enumerate(records)]
    for key in keys:
        seat = _SEATS.pop(key, None)
        if seat is None:
            record = key[1]
            seat = seat_for(sources[record] if record in sources else source_of(record, game), isolation, game)
        _SEATS[key] = seat  # most recently used last
    while len(_SEATS) > max(MAX_SEATS, len(keys)):
        _SEATS.pop(next(iter(_SEATS))).close()
    seats = [_SEATS[key] for key in keys]
    for seat in seats:
        seat.prepare()  # start every agent process at once: their start-ups overlap
    return seats


@on_stop  # at exit, and when a pool worker ends or is stopped
def close_seats() -> None:
    """Stop every agent process this process started, all at once (told to leave, one
    short grace, then killed: :func:`.seats.close_all`), and the pool workers of a run
    stopped half-way, which close theirs."""
    stop_pools()
    seats = list(_SEATS.values())
    _SEATS.clear()
    close_all(seats)


def work_config(config: TournamentConfig, sources: Iterable[AgentSource]) -> TournamentConfig:
    """The copy of ``config`` handed to :func:`play_unit` (never written): with the game's
    module, so that a game registered by any module plays in a worker, the agents'
    sources by record, so that objects and run-time kinds reach their seats, and a token
    of this run, so that a worker that outlives a run (a Ray cluster's) never seats an
    earlier run's agent under the same record."""
    return {**config, "game_module": type(get_game(config["game"])).__module__,
            "sources": {s.record: s for s in sources}, "run": uuid.uuid4().hex}


#: The run whose seats this process holds (:func:`work_config`'s token).
_seats_run: list[str | None] = [None]


def _series(config: TournamentConfig, game: Callable[[list[int], int, list[float] | None], GameRecord]) -> _SeriesOutcome:
    """A best-of series (the rulebook's match): the first player alternates; draws count
    for nobody; it ends when a player reaches the target number of wins, or when the
    series length is spent (then more wins takes it, equal wins draw it). With a clock
    it runs over the whole series, and a player whose clock runs out loses the match."""
    best_of = config["best_of"]
    assert best_of is not None  # a duel's configuration has it
    target = best_of // 2 + 1
    wins = [0, 0]
    clocks = None if config["clock"] is None else [config["clock"]] * 2
    flagged: int | None = None
    for g in range(best_of):
        order = [0, 1] if g % 2 == 0 else [1, 0]
        rec = game(order, g, None if clocks is None else [clocks[i] for i in order])
        if rec["winner"] is not None:
            wins[order[rec["winner"]]] += 1
        if clocks is not None:
            for seat, who in enumerate(order):
                clocks[who] = rec["clock_left"][seat]
            flagged = next((who for who in (0, 1) if clocks[who] <= 0), None)
        if max(wins) >= target or flagged is not None:
            break
    winner: int | None
    if flagged is not None:
        winner, why = 1 - flagged, "clock"
    elif max(wins) >= target:
        winner, why = wins.index(max(wins)), "target"
    else:
        winner, why = (None, "equal") if wins[0] == wins[1] else (wins.index(max(wins)), "more wins")
    return {"wins": wins, "winner": winner, "reason": why, "target": target}  # wins and winner index the unit's names


def play_unit(config: TournamentConfig, unit: Unit) -> UnitRecord:
    """Play one unit: a colour-swapped pair (pairs, team), a best-of series (duel), or a
    table in all its seat rotations (free-for-all: game ``r`` seats the unit's agent
    ``(s + r) % players`` in seat ``s``, with the unit's set-up and seed + ``r``)."""
    if config.get("game_module") and config["game"] not in GAMES:
        importlib.import_module(config["game_module"])  # a worker process: the module registers the game
    game_rules = get_game(config["game"])
    if config.get("run") != _seats_run[0]:  # the seats held were an earlier run's
        close_seats()
        _seats_run[0] = config.get("run")
    specs, names = unit["seats"], unit["names"]
    seats = _seats_for(specs, config["isolation"], game_rules, config.get("sources", {}))
    games: list[GameRecord] = []
    t = time.perf_counter()

    def game(order: list[int], offset: int, clocks: list[float] | None = None) -> GameRecord:
        rec = play_game([seats[i] for i in order], unit["layout"], config["rules"], unit["seed"] + offset,
                        None if clocks is not None else config["clock"], config["illegal"], config["move_limit"],
                        config["ledger"], clocks, game=game_rules)
        rec = dataclasses.replace(rec, names=[names[i] for i in order], unit=unit["unit"])
        games.append(rec)
        return rec

    match = None
    if config["mode"] == FREE_FOR_ALL:
        players = len(specs)
        for r in range(players):
            game([(s + r) % players for s in range(players)], r)
    elif config["mode"] == "team":  # teams (0, 2) and (1, 3); the second game swaps team sides
        game([0, 1, 2, 3], 0)
        game([1, 0, 3, 2], 1)
    elif config["mode"] == "pairs":
        game([0, 1], 0)
        game([1, 0], 1)
    else:
        match = SeriesResult(players=list(names), **_series(config, game))
    return UnitRecord(unit["unit"], games, round(time.perf_counter() - t, 3), match)


class _Progress:
    """One line on stderr: units (pairs or series) done, games done, rate, time left."""

    def __init__(self, total: int, done: int, games: int, enabled: bool):
        self.total, self.done, self.games, self.enabled = total, done, games, enabled
        self.start, self.start_done = time.perf_counter(), done

    def update(self, games: int) -> None:
        self.done += 1
        self.games += games
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.start
        rate = (self.done - self.start_done) / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        width = 30
        filled = int(width * self.done / max(self.total, 1))
        eta = f"{left:5.0f}s" if left == left else "   --"
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} units, {self.games} games "
                         f"{rate:5.2f} units/s  ETA {eta} ")
        if self.done >= self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


#: Times a process pool is rebuilt after one of its workers died, before the run gives up.
MAX_POOL_RESTARTS = 3


def iter_process(fn: Callable[[_C, _U], _R], config: _C, units: Iterable[_U], workers: int) -> Iterator[_R]:
    """``fn(config, unit)`` for every unit over a pool of ``workers`` processes, in
    completion order. A worker that dies (agents run in-process with ``isolation="none"``
    can kill it) breaks the pool: a fresh pool plays the units not yet finished."""
    ctx = multiprocessing.get_context("spawn")  # Numba's threads do not survive fork
    pending = list(units)
    for attempt in range(MAX_POOL_RESTARTS + 1):
        # Stopped or failed, the workers are stopped too, and close their seats (._shutdown).
        with cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=pool_worker_started) as pool, \
                stopping_pool(pool):
            futures = {pool.submit(fn, config, u): u for u in pending}
            try:
                for fut in cf.as_completed(futures):
                    result = fut.result()
                    pending.remove(futures[fut])
                    yield result
                return
            except cf.process.BrokenProcessPool:
                if attempt == MAX_POOL_RESTARTS:
                    raise DonutsError(f"worker processes died {attempt + 1} times; {len(pending)} units not played") from None


def iter_ray(fn: Callable[[_C, _U], _R], config: _C, units: Iterable[_U], workers: int, address: str | None
             ) -> Iterator[_R]:
    """``fn(config, unit)`` for every unit as Ray tasks (a cluster at ``address``, else a
    local Ray instance started and stopped here), in completion order."""
    try:
        import ray
    except ImportError:
        raise DonutsError("the ray backend needs Ray: pip install 'donuts_ai[ray]'") from None
    started = False
    if not ray.is_initialized():
        kwargs = {"address": address} if address else {"num_cpus": workers}
        ray.init(include_dashboard=False, log_to_driver=False, **kwargs)
        reclaim_signals()  # a stop must reach the finally below, and ray.shutdown()
        started = True
    try:
        remote = ray.remote(num_cpus=1)(fn)
        pending = [remote.remote(config, u) for u in units]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            result: _R = ray.get(done[0])
            yield result
    finally:
        if started:
            ray.shutdown()


def execute(fn: Callable[[_C, _U], _R], config: _C, units: Sequence[_U], workers: int, backend: str = "process",
            address: str | None = None) -> Iterator[_R]:
    """The results of ``fn(config, unit)`` for ``units`` on the chosen backend."""
    if backend == "ray":
        return iter_ray(fn, config, units, workers, address)
    if workers == 1 or len(units) <= 1:
        return (fn(config, u) for u in units)
    return iter_process(fn, config, units, workers)


@stops_cleanly  # SIGTERM and SIGHUP stop it as Ctrl-C does: every seat is closed
def run(agents: Iterable[object], format: str = "round-robin", games: int = 2, layouts: object = None, seed: int = 0,
        mode: str | None = None, best_of: int = 3, clock: float | None = None, illegal: str = "lose", rules: object = None,
        workers: int | None = None, backend: str = "process", address: str | None = None, results_path: str | None = None,
        resume: bool = False, progress: bool = False, move_limit: float | None = DEFAULT_MOVE_LIMIT, ledger: str | None = None,
        isolation: str = "process", *, game: str, players: int | None = None) -> Results:
    """Run a tournament and return its :class:`Results`.

    ``agents`` are specs (``"mcts:time=0.1"``, ``"random:seed=3"``, ``"pkg.mod:Class"``),
    agent objects or agent classes (:mod:`.entries`: an object travels to its supervised
    seat process with cloudpickle, even one of a class defined in ``__main__``);
    every pairing plays ``games`` games (pairs mode: in colour-swapped pairs on the same
    layout, so ``games`` is rounded up to even; duel mode: ``games`` series). Layouts:
    by default every unit (pair, series) is played on a freshly drawn tile arrangement
    seeded from ``seed``, as the game is played; ``layouts`` may instead name a fixed
    set, cycled through (see :func:`parse_layouts`). ``mode`` is ``"pairs"``, ``"duel"``
    (best-of-``best_of`` series, first player alternating, see :func:`_series`) or
    ``"team"`` (4 agents, 2v2). ``clock`` makes it blitz: seconds per player for the
    whole series in duel mode, per game otherwise. ``move_limit`` is a hard limit on one
    move (an agent that hangs loses on time there). ``illegal`` is the penalty for an
    exception or an illegal move (``"lose"`` or ``"forfeit"``); ``ledger`` the score
    ledger (``"rulebook"`` or ``"end-win"``). ``isolation="process"`` (default) runs
    every agent in a supervised process of its own; ``"none"`` calls agent objects in
    the worker (faster; a hang or a crash there stops the run). ``workers`` processes (default: all cores; 1 runs in this process) or
    ``backend="ray"`` (``address`` of a cluster, else a local Ray instance). Every unit
    is seeded from ``seed``: a rerun plays the same games whatever the number of
    workers (for agents whose moves do not depend on timing). With ``results_path``
    every finished unit is appended and fsynced; ``resume=True`` continues that file.

    ``game`` names the game (:mod:`.protocol`; ``"donuts"``, ``"boxes"`` or one a module
    registered; always given: the harness has no game of its own). A free-for-all
    game (``"boxes"``) is played at tables of ``players`` seats (default: what its
    ``rules`` say), each table one unit of ``players`` games, one per rotation of its
    seats, so that every agent at it starts once; ``games`` is the number of games in
    all, rounded up to a multiple of ``players``. Tables seat the agents evenly: with
    fewer agents than seats some sit twice (separate instances), with more the agents
    that sat least so far fill the table (``format="gauntlet"``: the first agent at every
    table). Ratings then come from the final rankings (Plackett–Luce, :mod:`.plackett_luce`).
    """
    agents = sources_of(agents, game)  # checked once: make_config takes the sources as they are
    config = make_config(agents, format, games, layouts, seed, mode, best_of, clock, illegal, rules, move_limit, ledger,
                         isolation, game=game, players=players)
    if backend not in BACKENDS:
        raise DonutsError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if workers is None:
        workers = os.cpu_count() or 1
    checked_workers = check_int("workers", workers, minimum=1)
    assert checked_workers is not None  # not allow_none
    units = schedule(config)
    results = Results(config)
    fh = None
    if results_path is not None:
        fh, results.units = open_results(results_path, config, resume,
                                         convert=lambda units: units_from_dicts(units, results_path))
    done = {u["unit"] for u in results.units}
    todo = [u for u in units if u["unit"] not in done]
    bar = _Progress(len(units), len(done), sum(len(u["games"]) for u in results.units), progress)
    try:
        # Workers learn the game's module, so that a game registered by any module plays there.
        work = work_config(config, agents)
        stream = execute(play_unit, work, todo, checked_workers, backend, address)
        for unit in stream:
            results.units.append(unit)
            if fh is not None:
                append_unit(fh, unit)
            bar.update(len(unit["games"]))
    finally:
        if fh is not None:
            fh.close()
        close_seats()  # the agent processes this process started (workers=1)
    results.units.sort(key=lambda u: u["unit"])
    return results
