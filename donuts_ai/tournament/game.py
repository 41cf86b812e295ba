"""Playing one game between seats, in every mode the rulebook knows.

A game has seats: two (Chocolate, Vanilla) or, in a team battle, four in the order
Chocolate A, Vanilla A, Chocolate B, Vanilla B, where each team shares one pool (the
colour's) and its two players take the team's turns alternately. A seat is a
:class:`~donuts_ai.tournament.seats.Seat` (the tournament runs every agent in a
supervised process of its own) or an agent object (called in this process).

What ends a game besides the rules (its ``reason``, an :class:`Adjudication`):

- ``time``: the player's clock ran out (blitz), or one answer took longer than the hard
  per-move limit ``move_limit``; an agent that never answers is stopped there;
- ``crash``: the agent's process died;
- ``exception`` / ``illegal move``: the agent raised, or answered with a move that is
  not legal. With ``illegal="lose"`` (as engine tournaments do) that loses the game;
  with ``illegal="forfeit"`` (the rulebook's penalty) the turn is forfeited: the donut
  stays in the pool and the opponent moves under the same line constraint;
- ``forfeits``: a player's :data:`MAX_FORFEITS`-th forfeit in one game loses it, so that
  every game ends even between two agents that never play a legal move.

Every such event is logged in the record with the agent's error.

The score ledger (the rulebook's): +3 for a win by five, +2 for a win by majority
control of a full board, +1 for a player who made 3 or more insertions in the game.
``ledger="end-win"`` gives +2 for any win at the end (largest group or majority).
"""

from __future__ import annotations

import enum

from ..board import Board, Termination
from ..errors import DonutsError
from ..layout import Layout
from ..rules import Rules
from .seats import CRASH, EXCEPTION, ILLEGAL, TIME, Answer, LocalSeat, Seat

ILLEGAL_POLICIES = ("lose", "forfeit")
#: Score ledgers: the rulebook's, and +2 for any win at the end of the pools.
LEDGERS = ("rulebook", "end-win")
#: A player's third forfeit in one game loses it.
MAX_FORFEITS = 3
#: Insertions in one game that earn a player the ledger's bonus point.
INSERTION_BONUS_AT = 3
FIVE_POINTS, BOARD_WIN_POINTS, INSERTION_POINTS = 3, 2, 1


class Adjudication(enum.StrEnum):
    """Reasons a game ended other than by the rules (beside :class:`~donuts_ai.board.Termination`)."""

    TIME = "time"
    CRASH = "crash"
    EXCEPTION = "exception"
    ILLEGAL = "illegal move"
    FORFEITS = "forfeits"


_LOSS_BY_EVENT = {TIME: Adjudication.TIME, CRASH: Adjudication.CRASH, EXCEPTION: Adjudication.EXCEPTION,
                  ILLEGAL: Adjudication.ILLEGAL}


def _seat_seed(seed: int, seat: int) -> int:
    return (seed * 1_000_003 + seat * 7_919) % (2**63)


def check_seconds(name: str, value) -> float | None:
    """``value`` as a float when it is a positive number of seconds (or None), else a DonutsError."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise DonutsError(f"{name} must be a positive number of seconds, got {value!r}")
    return float(value)


def win_points(reason: str, ledger: str = "rulebook") -> int:
    """Ledger points for winning a game that ended by ``reason``."""
    if reason == Termination.FIVE:
        return FIVE_POINTS
    if reason == Termination.MAJORITY or (ledger == "end-win" and reason == Termination.LARGEST_GROUP):
        return BOARD_WIN_POINTS
    return 0


def play_game(agents, layout: Layout, rules: Rules, seed: int, clock: float | None = None, illegal: str = "lose",
              move_limit: float | None = None, ledger: str = "rulebook", clocks: list[float] | None = None) -> dict:
    """Play one game; ``agents`` are 2 or 4 seats (see the module doc). Returns its record.

    ``clock`` gives every seat that many seconds for this game; ``clocks`` (one per
    seat) gives each the seconds it has left instead (a clock that runs over a whole
    match). ``move_limit`` is a hard limit on one answer, clock or not. The record's
    ``clock_left`` holds each seat's remaining time (``None`` without a clock)."""
    if len(agents) not in (2, 4):
        raise DonutsError(f"a game needs 2 or 4 seats, got {len(agents)}")
    if illegal not in ILLEGAL_POLICIES:
        raise DonutsError(f"illegal-move policy must be one of {', '.join(ILLEGAL_POLICIES)}, got {illegal!r}")
    if ledger not in LEDGERS:
        raise DonutsError(f"ledger must be one of {', '.join(LEDGERS)}, got {ledger!r}")
    clock, move_limit = check_seconds("clock", clock), check_seconds("move_limit", move_limit)
    seats: list[Seat] = [a if isinstance(a, Seat) else LocalSeat(a) for a in agents]
    n_seats = len(seats)
    if clocks is not None:
        if len(clocks) != n_seats:
            raise DonutsError(f"clocks needs one time per seat, got {len(clocks)} for {n_seats} seats")
        left = [float(c) for c in clocks]
    else:
        left = None if clock is None else [clock] * n_seats
    failed_start: dict[int, Answer] = {}
    for i, seat in enumerate(seats):
        failure = seat.reset(_seat_seed(seed, i))
        if failure is not None:
            failed_start[i] = failure  # it loses at its first turn, with the reason it gave
    board = Board(layout, rules)
    used = [0.0] * n_seats  # thinking time per seat
    insertions, forfeits, turns = [0] * n_seats, [0] * n_seats, [0] * n_seats
    team_turns = [0, 0]
    events: list[dict] = []
    winner, reason = None, None

    def log(seat: int, kind: str, detail: str) -> None:
        events.append({"ply": board.ply, "seat": seat, "kind": kind, "detail": detail.strip()})

    while not board.is_game_over():
        colour = board.turn
        seat = colour if n_seats == 2 else colour + 2 * (team_turns[colour] % 2)
        turns[seat] += 1
        time_left = None if left is None else left[seat] - used[seat]
        limit = min((x for x in (time_left, move_limit) if x is not None), default=None)
        answer = failed_start.pop(seat, None) or seats[seat].ask(board, time_left, limit)
        used[seat] += answer.seconds
        kind, detail = answer.kind, answer.detail
        # Over time is over time, whatever the answer was (a process that died stays a crash).
        if kind in (None, EXCEPTION) and time_left is not None and answer.seconds > time_left:
            kind, detail = TIME, f"clock ran out: {answer.seconds:.3f} s used with {time_left:.3f} s left"
        elif kind in (None, EXCEPTION) and move_limit is not None and answer.seconds > move_limit:
            kind, detail = TIME, f"{answer.seconds:.3f} s for one move, over the per-move limit of {move_limit:g} s"
        if kind is None and not _is_legal(board, answer.move):
            kind, detail = ILLEGAL, f"illegal move {answer.move!r} (legal: {', '.join(board.legal_moves())})"
        if kind is not None:
            log(seat, kind, detail)
            if kind in (TIME, CRASH) or illegal == "lose":
                winner, reason = 1 - colour, _LOSS_BY_EVENT[kind]
                break
            forfeits[seat] += 1
            if forfeits[seat] >= MAX_FORFEITS:
                winner, reason = 1 - colour, Adjudication.FORFEITS
                break
            board.forfeit()
            team_turns[colour] += 1
            continue
        if board.push(answer.move):
            insertions[seat] += 1
        team_turns[colour] += 1
    if reason is None:
        outcome = board.outcome()
        winner, reason = outcome.winner, outcome.reason
    points = [0] * n_seats
    for s in range(n_seats):
        if winner is not None and s % 2 == winner:
            points[s] += win_points(reason, ledger)
        if insertions[s] >= INSERTION_BONUS_AT:
            points[s] += INSERTION_POINTS
    return {
        "layout": layout.to_text(),
        "rules": {"insertion": rules.insertion, "donuts": rules.donuts},
        "seats": [s.spec for s in seats],
        "names": [s.name for s in seats],
        "seed": seed,
        "moves": board.move_stack,
        "winner": winner,
        "reason": str(reason),
        "plies": board.ply,
        "times": [round(u, 4) for u in used],
        "clock_left": None if left is None else [round(max(0.0, c - u), 4) for c, u in zip(left, used, strict=True)],
        "turns": turns,
        "insertions": insertions,
        "forfeits": forfeits,
        "ledger": points,
        "events": events,
    }


def _is_legal(board: Board, move) -> bool:
    try:
        return board.is_legal(move)
    except Exception:  # whatever an agent returned, a move that cannot be read is not legal
        return False


def score_of(record: dict, seat: int) -> float:
    """1, 0.5 or 0 for ``seat`` in a finished game record."""
    w = record["winner"]
    return 0.5 if w is None else float(w == seat % 2)
