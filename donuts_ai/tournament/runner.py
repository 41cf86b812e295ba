"""Running a tournament: :func:`run` plays the schedule's units on a back end and keeps
its results; :func:`play_unit` plays one unit (a pair, a series, a table).

The rest of the harness's run lives beside it, one concern a module: the settings in
:mod:`.config`, the schedule in :mod:`.scheduling`, the seats a process keeps in
:mod:`.seat_cache`, the back ends in :mod:`.backends`, the progress line in :mod:`.progress`.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import sys
import time
from collections.abc import Callable, Iterable
from typing import TypedDict

from .._checks import check_int
from ..game import game_names, get_game
from ._shutdown import stops_cleanly
from .agent_source import AgentSource
from .backends import execute
from .config import FREE_FOR_ALL_MODE, HarnessConfig, given, resolve, tournament_config
from .entries import as_recorded, seat_for, source_of
from .match import PlaySettings, play_game
from .preflight import preflight
from .progress import ProgressBar
from .records import GAMES_PER_KEY, GameRecord, SeriesResult, TournamentConfig, UnitRecord
from .results import Results, append_unit, first_config, import_recorded_game, read_history, results_file, units_from_dicts
from .scheduling import Unit, schedule
from .seat_cache import close_seats, new_run, seat_keys, take_seats


class _SeriesOutcome(TypedDict):
    wins: list[int]
    winner: int | None
    reason: str
    target: int


def work_config(config: TournamentConfig, sources: Iterable[AgentSource]) -> TournamentConfig:
    """The copy of ``config`` handed to :func:`play_unit` (never written): with the game's
    module, so that a game registered by any module plays in a worker, the agents'
    sources by record, so that objects and run-time kinds reach their seats, and a token
    of this run (:func:`.seat_cache.new_run`)."""
    return {**config, "game_module": type(get_game(config["game"])).__module__,
            "sources": {s.record: s for s in sources}, "run": new_run()}


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
    if config.get("game_module") and config["game"] not in game_names():
        importlib.import_module(config["game_module"])  # a worker process: the module registers the game
    game_rules = get_game(config["game"])
    specs, names = unit["seats"], unit["names"]
    sources = config.get("sources", {})
    seats = take_seats(config.get("run"), seat_keys(game_rules.name, specs, config["isolation"]),
                       lambda key: seat_for(sources[key[1]] if key[1] in sources else source_of(key[1], game_rules),
                                            config["isolation"], game_rules))
    games: list[GameRecord] = []
    t = time.perf_counter()

    def game(order: list[int], offset: int, clocks: list[float] | None = None) -> GameRecord:
        settings = PlaySettings(clock=config["clock"] if clocks is None else clocks, illegal=config["illegal"],
                                move_limit=config["move_limit"], ledger=config["ledger"])
        rec = play_game([seats[i] for i in order], unit["setup"], config["rules"], unit["seed"] + offset,
                        game=game_rules, settings=settings)
        rec = dataclasses.replace(rec, names=[names[i] for i in order], unit=unit["unit"])
        games.append(rec)
        return rec

    match = None
    if config["mode"] == FREE_FOR_ALL_MODE:
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


def plan_text(config: TournamentConfig, units: int, todo: int) -> str:
    """What a run will play, said before its first game: its games (a duel's series may
    end early: at most), in how many units, and how many of them a results file holds."""
    if config["mode"] == FREE_FOR_ALL_MODE:
        per_unit, what = int(config.get("players", 2)), "tables"
    elif config["mode"] == "duel":
        per_unit, what = int(config["best_of"] or 1), "series"
    else:
        per_unit, what = 2, "pairs" if config["mode"] == "pairs" else "team pairs"
    at_most = "at most " if config["mode"] == "duel" else ""
    held = f"; {units - todo} {what} in the results file already, {todo} to play" if todo < units else ""
    return f"donuts-ai: {at_most}{units * per_unit} games in {units} {what} of {per_unit}{held}"


def _import_resumed_game(config: HarnessConfig | None, game: str | None, path: str | None) -> None:
    """A resume that names the game of its results file by its name alone (``--game
    connect-four-python``) where that game comes from outside the package: its module, as the
    file records it, is imported first (:func:`~.results.import_recorded_game`), so that
    the name is known when the agents are checked against the game."""
    config = config if isinstance(config, HarnessConfig) else None  # (anything else: refused by resolve)
    resume = config is not None and config.resume
    path = path if path is not None else config.results_path if config is not None else None
    game = game if game is not None else config.game if config is not None else None
    if not resume or not isinstance(path, str | os.PathLike) or not isinstance(game, str) or game in game_names():
        return
    written = first_config(os.fspath(path))
    if written is not None and written.get("game") == game:
        import_recorded_game(written, os.fspath(path))


@stops_cleanly  # SIGTERM and SIGHUP stop it as Ctrl-C does: every seat is closed
def run(agents: Iterable[object] | None = None, *, game: str | None = None, games: int = 2, setups: object = None,
        seed: int = 0, workers: int | None = None, isolation: str = "process", results_path: str | None = None,
        config: HarnessConfig | None = None) -> Results:
    """Run a tournament: every pairing of ``agents`` plays ``games`` games in ``game``.

    The most used settings are keywords; every other one (``format``, ``mode``,
    ``clock``, ``resume``, ``players``, ...) is a field of ``config``, documented in
    :class:`~.config.HarnessConfig`. A keyword left at its default leaves the config's
    value; one that contradicts the config is refused.

    Args:
        agents: specs (``"mcts:time=0.1"``, ``"pkg.mod:Class"``), agent objects or agent
            classes (:mod:`.entries`); each is seated in a supervised process of its own.
        game: a registered game (``"donuts"``, ``"boxes"``, ``"connect-four"``, ...).
        games: games per pairing (colour-swapped pairs on one set-up, rounded up to even;
            a free-for-all game: rounded up to a multiple of the table's seats).
        setups: the game's set-ups: ``None`` draws a fresh one for every unit, seeded from
            ``seed``; else a spec (:func:`~.config.parse_setups`), a set-up or a list of
            them, cycled through.
        seed: seeds every unit: a rerun plays the same games whatever ``workers``.
        workers: processes (``None``: all cores; 1 plays in this process).
        isolation: ``"process"`` (each agent in a supervised process) or ``"none"``
            (agents called in the worker: faster; a hang or a crash stops the run).
        results_path: a JSON-lines file every finished unit is appended to (fsynced);
            ``config=HarnessConfig(resume=True)`` continues it.
        config: every other setting (:class:`~.config.HarnessConfig`).

    Returns:
        The tournament's :class:`~.results.Results`.

    Raises:
        ConfigError: a keyword contradicts ``config``.
        DonutsError: a setting the game refuses, or a results file that cannot be resumed.
    """
    _import_resumed_game(config, game, results_path)  # before the agents are checked against the game
    settings_ = resolve(config, agents, given(game=game, games=games, setups=setups, seed=seed, workers=workers,
                                               isolation=isolation, results_path=results_path), entry="run")
    path = settings_.results_path
    written = first_config(path) if settings_.resume and path is not None else None
    if written is not None and settings_.game is not None:
        # Specs spelt as the file spelt them where only older parameter names differ (a file written by
        # 0.5 or earlier may record mcts:iterations=200; mcts:simulations=200 given): the resume compares
        # equal, its games keep the file's names.
        settings_ = dataclasses.replace(settings_, agents=as_recorded(settings_.sources, written.get("agents"),
                                                                      settings_.game))
    tournament = tournament_config(settings_)
    workers = settings_.workers if settings_.workers is not None else os.cpu_count() or 1
    checked_workers = check_int("workers", workers, minimum=1)
    assert checked_workers is not None  # not allow_none
    if written is not None and tournament["mode"] == FREE_FOR_ALL_MODE:
        if GAMES_PER_KEY not in written:  # a file of version 3: its games are in all
            tournament.pop("games_per", None)  # GAMES_PER_KEY (a TypedDict key must be written out)
    units = schedule(tournament)
    results = Results(tournament)
    # The file first (a quick refusal), then every agent built once: a bad value stops the
    # run there, and the file, created for nothing, goes again.
    with results_file(path, tournament, settings_.resume, convert=lambda lines: units_from_dicts(lines, path or ""),
                      grow=True, new_version=settings_.new_version) as (fh, results.units):
        preflight(settings_.sources, tournament["game"])
        done = {u["unit"] for u in results.units}
        todo = [u for u in units if u["unit"] not in done]
        if settings_.progress is not False:  # before the first game: what the run will play
            sys.stderr.write(plan_text(tournament, len(units), len(todo)) + "\n")
            sys.stderr.flush()
        games = sum(len(u["games"]) for u in results.units)
        bar = ProgressBar(len(units), len(done), settings_.progress, desc="tournament", unit="unit")
        try:
            # Workers learn the game's module, so that a game registered by any module plays there.
            work = work_config(tournament, settings_.sources)
            for unit in execute(play_unit, work, todo, checked_workers, settings_.backend, settings_.address):
                results.units.append(unit)
                if fh is not None:
                    append_unit(fh, unit)
                games += len(unit["games"])
                bar.update(games=games)
        finally:
            bar.close()
            close_seats()  # the agent processes this process started (workers=1)
    results.units.sort(key=lambda u: u["unit"])
    if path is not None:
        results.history = read_history(path)  # what this and earlier resumes changed, on the record
    return results
