"""A tournament's schedule: its units (pairs, series, tables), each with its seats, its
set-up and its seed, in a fixed order drawn from the tournament's seed."""

from __future__ import annotations

import itertools
import random
from typing import TypedDict

from ..game import get_game
from .config import FREE_FOR_ALL_MODE
from .records import GAMES_PER_KEY, GAMES_PER_PAIRING, TournamentConfig


class Unit(TypedDict):
    """One unit of a tournament's schedule (:func:`schedule`): its number, the ``seats``
    (agent records) and their ``names`` in seat order, its ``setup`` (the game's set-up
    text) and its seed."""

    unit: int
    seats: list[str]
    names: list[str]
    setup: str
    seed: int


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


def _pairings_free_for_all(n_agents: int, players: int, gauntlet: bool) -> list[tuple[int, ...]] | None:
    """The pairings of a free-for-all tournament whose games are per pairing: every set
    of ``players`` agents (in a gauntlet, every set with the first agent), or ``None``
    when no more agents than seats make one set, some of them sitting twice (:func:`_table`)."""
    if n_agents <= players:
        return None
    groups = list(itertools.combinations(range(n_agents), players))
    return [g for g in groups if 0 in g] if gauntlet else groups


def _schedule_free_for_all(config: TournamentConfig) -> list[Unit]:
    """The units of a free-for-all tournament, each a table of ``players`` seats played as
    one unit of ``players`` games, one per rotation of its seats, so that every agent at
    the table starts once (and sits once in every seat): ``ceil(games / players)`` tables
    of every pairing (:func:`_pairings_free_for_all`), round by round as two-sided
    pairings are, each seated in a drawn order; with one pairing of fewer agents than
    seats, the seats left go to those who sat least (:func:`_table`). A file of version 3
    (no :data:`~.records.GAMES_PER_KEY`) counted ``games`` in all, with tables drawn so."""
    names, specs, players = config["names"], config["agents"], config["players"]
    rng = random.Random(config["seed"])
    setups = config["setups"]
    gauntlet = config["format"] == "gauntlet"
    per_pairing = config.get(GAMES_PER_KEY) == GAMES_PER_PAIRING
    pairings = _pairings_free_for_all(len(names), players, gauntlet) if per_pairing else None
    seats_so_far = [0] * len(names)
    units: list[Unit] = []
    groups: list[tuple[int, ...] | None] = list(pairings) if pairings else [None]
    for k in range(-(-config["games"] // players)):
        for group in groups:
            seed = rng.getrandbits(62)
            if isinstance(setups, str):  # a fresh set-up (a deal) for every unit
                setup = get_game(config["game"]).draw_setup(setups, rng.getrandbits(62))
            else:
                setup = setups[k % len(setups)]
            table = list(group) if group is not None else _table(len(names), players, seats_so_far, rng, gauntlet)
            rng.shuffle(table)  # who sits next to whom changes from table to table; the rotations keep it
            units.append({"unit": len(units), "seats": [specs[i] for i in table], "names": [names[i] for i in table],
                          "setup": setup, "seed": seed})
    return units


def schedule(config: TournamentConfig) -> list[Unit]:
    """Every unit of a tournament, in a fixed order.

    Args:
        config: the tournament's configuration line (:func:`~.config.make_config`).

    Returns:
        The units (pairs, series or tables), each with its seats, its set-up and its own seed.
    """
    if config["mode"] == FREE_FOR_ALL_MODE:
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
    setups = config["setups"]
    units: list[Unit] = []
    for k in range(per_pairing):
        for seats in pairings:
            seed = rng.getrandbits(62)
            if isinstance(setups, str):  # a fresh set-up for every unit, as the game is played
                setup = get_game(config["game"]).draw_setup(setups, rng.getrandbits(62))
            else:
                setup = setups[k % len(setups)]
            units.append({
                "unit": len(units),
                "seats": [specs[s] for s in seats],
                "names": [names[s] for s in seats],
                "setup": setup,
                "seed": seed,
            })
    return units
