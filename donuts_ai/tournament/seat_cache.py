"""The seats a process holds between units of work: one cache for tournaments, SPRTs
and evaluations (:mod:`donuts_ai.suites.evaluation`).

Seats live as long as their process (a worker) or until :func:`close_seats`: an agent's
process and tables are made once, and ``reset()`` with each game's seed makes every game
independent of what the seat played before. A seat is keyed by :data:`SeatKey`
``(game, record, slot, isolation)``, where ``slot`` counts earlier seats of the same
record in one game: two seats never share an agent. At most :data:`MAX_SEATS` are kept,
the least recently used closed first (each agent process holds 150-270 MB).

Every unit of work carries a token of its run (:func:`new_run`): a process that outlives
a run (a Ray cluster's worker) closes that run's seats when a unit of another run comes,
so it never seats an earlier run's agent under the same record.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence

from ._shutdown import on_stop, stop_pools
from .seats import Seat, close_all

#: A seat's key: ``(game, record, slot, isolation)``.
SeatKey = tuple[str, str, int, str]
#: Seats kept alive at once in one process (at least the seats of one game).
MAX_SEATS = 8

_SEATS: dict[SeatKey, Seat] = {}
#: The run whose seats this process holds (:func:`new_run`'s token).
_seats_run: list[str | None] = [None]


def new_run() -> str:
    """A new run's token, handed to every unit of work of the run."""
    return uuid.uuid4().hex


def seat_keys(game: str, records: Sequence[str], isolation: str) -> list[SeatKey]:
    """The keys of one game's seats, ``records`` in seat order: a record seated twice
    gets a second slot (its own agent)."""
    return [(game, record, records[:i].count(record), isolation) for i, record in enumerate(records)]


def take_seats(run: str | None, keys: Sequence[SeatKey], make: Callable[[SeatKey], Seat]) -> list[Seat]:
    """The seats of ``keys`` for a unit of run ``run``: those this process holds, the
    others made by ``make`` (and kept). The seats of another run are closed first."""
    if run != _seats_run[0]:  # the seats held were an earlier run's
        close_seats()
        _seats_run[0] = run
    for key in keys:
        seat = _SEATS.pop(key, None)
        _SEATS[key] = make(key) if seat is None else seat  # most recently used last
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
