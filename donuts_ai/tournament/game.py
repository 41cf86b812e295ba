"""Playing one game between seats, in every mode the rulebook knows, for any game of
the protocol (:mod:`.protocol`; Donuts by default).

A game has seats: two (side 0, side 1; for Donuts Chocolate and Vanilla) or, in a
team battle, four in the order side 0 A, side 1 A, side 0 B, side 1 B, where each team
plays one side and its two players take the side's turns alternately. A seat is a
:class:`~donuts_ai.tournament.seats.Seat` (the tournament runs every agent in a
supervised process of its own) or an agent object (called in this process).

What ends a game besides its rules (its ``reason``, an :class:`~.records.Adjudication`):

- ``time``: the player's clock ran out (blitz), or one answer took longer than the hard
  per-move limit ``move_limit``; an agent that never answers is stopped there;
- ``crash``: the agent's process died;
- ``exception`` / ``illegal move``: the agent raised, or answered with a move that is
  not legal. With ``illegal="lose"`` (as engine tournaments do) that loses the game;
  with ``illegal="forfeit"`` (the rulebook's penalty) the turn is forfeited: for
  Donuts the donut stays in the pool and the opponent moves under the same line
  constraint;
- ``forfeits``: a player's :data:`MAX_FORFEITS`-th forfeit in one game loses it, so that
  every game ends even between two agents that never play a legal move.

Every such event is logged in the record with the agent's error. The score ledger is
the game's (Donuts: :func:`~.donuts.win_points`).
"""

from __future__ import annotations

from .._checks import check_seconds
from ..errors import DonutsError
from .donuts import DONUTS, win_points
from .protocol import Game
from .records import LOSS_BY_EVENT, Adjudication, Event, EventKind, GameRecord
from .seats import LocalSeat, Seat

ILLEGAL_POLICIES = ("lose", "forfeit")
#: A player's third forfeit in one game loses it.
MAX_FORFEITS = 3

__all__ = ["ILLEGAL_POLICIES", "MAX_FORFEITS", "Adjudication", "play_game", "score_of", "win_points"]


def _seat_seed(seed: int, seat: int) -> int:
    return (seed * 1_000_003 + seat * 7_919) % (2**63)


def play_game(agents, layout, rules, seed: int, clock: float | None = None, illegal: str = "lose",
              move_limit: float | None = None, ledger: str | None = None, clocks: list[float] | None = None,
              game: Game = DONUTS) -> GameRecord:
    """Play one game of ``game`` (Donuts by default) on set-up ``layout`` (for Donuts a
    :class:`~donuts_ai.Layout` or its text) under ``rules``; ``agents`` are 2 or 4 seats
    (see the module doc). Returns its :class:`~.records.GameRecord`.

    ``clock`` gives every seat that many seconds for this game; ``clocks`` (one per
    seat) gives each the seconds it has left instead (a clock that runs over a whole
    match). ``move_limit`` is a hard limit on one answer, clock or not. The record's
    ``clock_left`` holds each seat's remaining time (``None`` without a clock)."""
    if len(agents) not in (2, 4):
        raise DonutsError(f"a game needs 2 or 4 seats, got {len(agents)}")
    if illegal not in ILLEGAL_POLICIES:
        raise DonutsError(f"illegal-move policy must be one of {', '.join(ILLEGAL_POLICIES)}, got {illegal!r}")
    ledger = game.LEDGERS[0] if ledger is None else ledger
    if ledger not in game.LEDGERS:
        raise DonutsError(f"ledger must be one of {', '.join(game.LEDGERS)}, got {ledger!r}")
    clock, move_limit = check_seconds("clock", clock), check_seconds("move_limit", move_limit)
    setup, rules = game.setup_text(layout), game.rules_dict(rules)
    seats: list[Seat] = [a if isinstance(a, Seat) else LocalSeat(a) for a in agents]
    n_seats = len(seats)
    if clocks is not None:
        if len(clocks) != n_seats:
            raise DonutsError(f"clocks needs one time per seat, got {len(clocks)} for {n_seats} seats")
        left = [float(c) for c in clocks]
    else:
        left = None if clock is None else [clock] * n_seats
    failed_start = {}
    for i, seat in enumerate(seats):
        failure = seat.reset(_seat_seed(seed, i))
        if failure is not None:
            failed_start[i] = failure  # it loses at its first turn, with the reason it gave
    state = game.new_state(setup, rules)
    used = [0.0] * n_seats  # thinking time per seat
    forfeits, turns = [0] * n_seats, [0] * n_seats
    stats = [game.new_stats() for _ in range(n_seats)]
    side_turns = [0, 0]  # turns each side took: in a team battle its two players alternate
    events: list[Event] = []
    winner, reason = None, None
    plies = 0

    while (side := game.to_move(state)) is not None:
        seat = side if n_seats == 2 else side + 2 * (side_turns[side] % 2)
        turns[seat] += 1
        time_left = None if left is None else left[seat] - used[seat]
        limit = min((x for x in (time_left, move_limit) if x is not None), default=None)
        failed = failed_start.pop(seat, None)  # an agent that could not start loses, whatever the policy
        answer = failed or seats[seat].ask(game, state, side, time_left, limit)
        used[seat] += answer.seconds
        kind, detail = _judge(answer, time_left, move_limit, game, state)
        if kind is not None:
            events.append(Event(plies, seat, str(kind), detail.strip()))
            if kind in (EventKind.TIME, EventKind.CRASH) or illegal == "lose" or failed is not None:
                winner, reason = 1 - side, LOSS_BY_EVENT[EventKind(kind)]
                break
            forfeits[seat] += 1
            if forfeits[seat] >= MAX_FORFEITS:
                winner, reason = 1 - side, Adjudication.FORFEITS
                break
            game.forfeit(state)
        else:
            for key, count in game.play(state, answer.move).items():
                stats[seat][key] = stats[seat].get(key, 0) + count
        side_turns[side] += 1
        plies += 1
    if reason is None:
        winner, reason = game.result(state)
    return GameRecord(
        game=game.name, setup=setup, rules=rules, seats=[s.spec for s in seats], names=[s.name for s in seats], seed=seed,
        moves=game.moves(state), winner=winner, reason=str(reason), plies=plies, times=[round(u, 4) for u in used],
        clock_left=None if left is None else [round(max(0.0, c - u), 4) for c, u in zip(left, used, strict=True)],
        turns=turns, forfeits=forfeits, stats=stats,
        ledger=[game.ledger_points(winner, str(reason), s % 2, stats[s], ledger) for s in range(n_seats)], events=events,
    )


def _judge(answer, time_left: float | None, move_limit: float | None, game: Game, state) -> tuple[str | None, str]:
    """(event kind, detail) of an answer: ``None`` when it is a legal move in time."""
    kind, detail = answer.kind, answer.detail
    # Over time is over time, whatever the answer was (a process that died stays a crash).
    if kind in (None, EventKind.EXCEPTION) and time_left is not None and answer.seconds > time_left:
        return EventKind.TIME, f"clock ran out: {answer.seconds:.3f} s used with {time_left:.3f} s left"
    if kind in (None, EventKind.EXCEPTION) and move_limit is not None and answer.seconds > move_limit:
        return EventKind.TIME, f"{answer.seconds:.3f} s for one move, over the per-move limit of {move_limit:g} s"
    if kind is None and not game.is_legal(state, answer.move):
        return EventKind.ILLEGAL, f"illegal move {answer.move!r} (legal: {', '.join(map(str, game.legal_moves(state)))})"
    return kind, detail


def score_of(record, seat: int) -> float:
    """1, 0.5 or 0 for ``seat`` in a finished game record."""
    w = record["winner"]
    return 0.5 if w is None else float(w == seat % 2)
