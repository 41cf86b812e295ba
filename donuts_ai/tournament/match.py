"""Playing one game between seats, in every mode the rulebook knows, for any game of
the protocol (:mod:`donuts_ai.game`): :func:`play_game`.

A game has seats: two (side 0, side 1; for Donuts Chocolate and Vanilla) or, in a team
battle, four in the order side 0 A, side 1 A, side 0 B, side 1 B, where each team plays
one side and its two players take the side's turns alternately; a free-for-all game
has one seat per player. A seat is a :class:`~donuts_ai.tournament.seats.Seat` or an
agent object (called in this process).

What ends a game besides its rules (its ``reason``, an :class:`~.records.Adjudication`):
``time`` (the clock ran out, or one answer took longer than ``move_limit``), ``crash``
(the agent's process died), ``exception`` / ``illegal move`` (with ``illegal="lose"``
that loses the game; with ``"forfeit"``, the rulebook's penalty, the turn is forfeited),
and ``forfeits`` (a player's :data:`MAX_FORFEITS`-th forfeit in one game loses it, so
that every game ends). Every such event is logged in the record with the agent's
error; the score ledger is the game's (:meth:`~donuts_ai.game.Game.ledger_points`).
In a free-for-all game those events drop the player out instead (see :func:`_play`).
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from .._checks import check_seconds
from ..errors import DonutsError
from ..game import Ending, Game, JSONObject, Score, get_game, legal_move
from ..state import GameOutcome, GameState
from ._shutdown import stops_cleanly
from .entries import seat_for, source_of
from .preflight import preflight
from .records import LOSS_BY_EVENT, Adjudication, Event, EventKind, GameRecord
from .seats import Answer, LocalSeat, Seat, close_all
from .specs import AgentLike

ILLEGAL_POLICIES = ("lose", "forfeit")
#: How an entry given to :func:`play_game` is seated (as in tournaments, :mod:`.seat_cache`):
#: in a supervised process of its own, or called in this process.
ISOLATIONS = ("process", "none")
#: A player's third forfeit in one game loses it.
MAX_FORFEITS = 3

__all__ = ["ILLEGAL_POLICIES", "MAX_FORFEITS", "Adjudication", "PlaySettings", "play_game", "score_of"]


def _seat_seed(seed: int, seat: int) -> int:
    return (seed * 1_000_003 + seat * 7_919) % (2**63)


#: The stream of the moves played for players who dropped out (:func:`_seat_seed` of a
#: seat no game has).
DROPOUT_STREAM = 1_000


@dataclass(frozen=True, kw_only=True)
class PlaySettings:
    """How :func:`play_game` adjudicates a game beyond its rules (see the module doc)."""

    #: Seconds every seat has for the game, or one time left per seat (a clock that runs
    #: over a whole match); ``None``: no clock. The record's ``clock_left`` holds what is left.
    clock: float | Sequence[float] | None = None
    #: The penalty for an exception or an illegal move: ``"lose"`` or ``"forfeit"``.
    illegal: str = "lose"
    #: A hard limit in seconds on one answer, clock or not (``None``: none).
    move_limit: float | None = None
    #: One of the game's score ledgers (``None``: its first).
    ledger: str | None = None


@stops_cleanly
def play_game(agents: Sequence[Seat | AgentLike | str | type[Any]], setup: object, rules: object, seed: int, *,
              game: Game[Any] | str, isolation: str = "process", settings: PlaySettings | None = None) -> GameRecord:
    """Play one game between seats and return its :class:`~.records.GameRecord`.

    A seat is a :class:`~.seats.Seat` (used as it is), or an entry (:mod:`.entries`: a
    spec, an agent object or an agent class) seated for this game alone, as tournaments
    seat them; engines always get a process of their own. The seats made here are closed
    before it returns.

    Args:
        agents: the seats: 2 or 4 for a two-sided game (see the module doc), one per
            player for a free-for-all game.
        setup: the game's set-up or its text (for Donuts a :class:`~donuts_ai.Layout`).
        rules: the game's variant (``None``: its default).
        seed: seeds the agents' seats and the moves played for players who dropped out.
        game: a :class:`~donuts_ai.game.Game` or a registered game's name.
        isolation: ``"process"``: each entry in a supervised process of its own, so that a
            hang or a crash loses the game instead of stopping the caller; ``"none"``:
            called in this process (an object's own state, such as its ``last_info``,
            is then the caller's to read).
        settings: the clock, the illegal-move policy, the move limit and the ledger
            (:class:`PlaySettings`; ``None``: its defaults).

    Returns:
        The game's record.

    Raises:
        DonutsError: a setting the game refuses, or a wrong number of seats.
    """
    settings = PlaySettings() if settings is None else settings
    illegal, ledger = settings.illegal, settings.ledger
    clocks = None if settings.clock is None or isinstance(settings.clock, int | float) else list(settings.clock)
    clock = settings.clock if clocks is None else None
    if illegal not in ILLEGAL_POLICIES:
        raise DonutsError(f"illegal-move policy must be one of {', '.join(ILLEGAL_POLICIES)}, got {illegal!r}")
    game = get_game(game)
    ledger = game.LEDGERS[0] if ledger is None else ledger
    if ledger not in game.LEDGERS:
        raise DonutsError(f"ledger must be one of {', '.join(game.LEDGERS)}, got {ledger!r}")
    clock, move_limit = check_seconds("clock", cast(float | None, clock)), check_seconds("move_limit", settings.move_limit)
    setup, rules = game.setup_text(setup), game.rules_dict(rules)
    _check_seats(game, rules, len(agents), illegal)
    if isolation not in ISOLATIONS:
        raise DonutsError(f"isolation must be one of {', '.join(ISOLATIONS)}, got {isolation!r}")
    # Every spec and class that gets a seat here is built once first: a bad value is refused
    # before the game (an object was built by its owner already).
    preflight([source_of(entry, game) for entry in agents if isinstance(entry, str) or inspect.isclass(entry)], game)
    made: list[Seat] = []
    try:
        for i, entry in enumerate(agents):
            if isinstance(entry, Seat):
                continue
            # Two seats never share an agent: an object given twice gets a copy in its second seat.
            repeated = any(other is entry for other in agents[:i])
            if isolation == "none" and not isinstance(entry, str) and not inspect.isclass(entry) and not repeated:
                made.append(LocalSeat(cast(AgentLike, entry)))  # the caller's own object, not a copy
            else:
                made.append(seat_for(source_of(entry, game), isolation, game))
        fresh = iter(made)
        seats = [a if isinstance(a, Seat) else next(fresh) for a in agents]
        return _play(game, seats, setup, rules, seed, clock, illegal, move_limit, ledger, clocks)
    finally:
        close_all(made)  # together: one shared grace for the processes that do not leave at once


# In a free-for-all game what ends a two-sided game instead drops the player out there: it is ranked
# last (players who dropped out share the last place, whatever their score), gets no ledger points,
# and the others play on, the harness playing the dropped player's turns with a uniformly random legal
# move (from a stream seeded by the game's seed, DROPOUT_STREAM) so that the rules, and the others'
# game, go on unchanged. When only one player is left the game stops there: that player is first, and
# the record's ``reason`` is the last drop's (as a two-player game ends). Games without a forfeited
# turn (``CAN_FORFEIT = False``) refuse the ``forfeit`` policy. For Donuts a forfeited turn leaves the
# donut in the pool, and the opponent moves under the same line constraint.
def _play(game: Game[Any], seats: list[Seat], setup: str, rules: JSONObject, seed: int, clock: float | None, illegal: str,
          move_limit: float | None, ledger: str, clocks: Sequence[float] | None) -> GameRecord:
    """:func:`play_game` once its arguments are checked and its seats made."""
    n_seats = len(seats)
    left: list[float] | None
    if clocks is not None:
        if len(clocks) != n_seats:
            raise DonutsError(f"clocks needs one time per seat, got {len(clocks)} for {n_seats} seats")
        left = [float(c) for c in clocks]
    else:
        left = None if clock is None else [clock] * n_seats
    failed_start: dict[int, Answer] = {}
    for i, each in enumerate(seats):
        failure = each.reset(_seat_seed(seed, i))
        if failure is not None:
            failed_start[i] = failure  # it loses at its first turn, with the reason it gave
    state = game.new_state(setup, rules)
    play = _Play(game, n_seats, seed)
    used = [0.0] * n_seats  # thinking time per seat
    side_turns = [0] * n_seats  # turns each side took: in a team battle its two players alternate
    winner: int | None = None
    reason: Adjudication | str | None = None

    while (side := state.turn) is not None:
        if game.FREE_FOR_ALL:
            seat = side
            if seat in play.out:  # dropped out: the harness plays its turns, the others play on
                play.move(state, seat, play.rng.choice(state.legal_moves()))
                continue
        else:
            seat = side if n_seats == 2 else side + 2 * (side_turns[side] % 2)
        play.turns[seat] += 1
        time_left = None if left is None else left[seat] - used[seat]
        limit = min((x for x in (time_left, move_limit) if x is not None), default=None)
        failed = failed_start.pop(seat, None)  # an agent that could not start loses, whatever the policy
        answer = failed or seats[seat].ask(game, state, side, time_left, limit)
        used[seat] += answer.seconds
        kind, detail, move = _judge(answer, time_left, move_limit, game, state)
        if kind is None:
            assert move is not None  # _judge found it legal
            play.move(state, seat, move)
            side_turns[side] += 1
            continue
        lost = play.penalty(seat, kind, detail, illegal == "lose" or failed is not None)
        if lost is not None and not game.FREE_FOR_ALL:
            winner, reason = 1 - side, lost
            break
        if lost is not None:
            play.out.append(seat)
            if len(play.out) >= n_seats - 1:  # one player left (or none): nothing left to decide
                reason = lost
                break
            continue  # the dropped player's turn is played for it at once
        state.forfeit()
        side_turns[side] += 1
        play.plies += 1

    winner, reason, ranking, scores, points = play.finish(state, winner, reason, ledger)
    return GameRecord(
        game=game.name, setup=setup, rules=rules, seats=[s.spec for s in seats], names=[s.name for s in seats], seed=seed,
        moves=list(state.move_stack), winner=winner, reason=str(reason), plies=play.plies, times=[round(u, 4) for u in used],
        clock_left=None if left is None else [round(max(0.0, c - u), 4) for c, u in zip(left, used, strict=True)],
        turns=play.turns, forfeits=play.forfeits, stats=play.stats, ledger=points, events=play.events,
        ranking=ranking, scores=scores,
    )


def _check_seats(game: Game[Any], rules: JSONObject, n_seats: int, illegal: str) -> None:
    """Refuse a game of ``n_seats`` that ``game`` cannot seat, or a policy it cannot apply."""
    if game.FREE_FOR_ALL:
        players = game.num_players(rules)
        if n_seats != players:
            raise DonutsError(f"a game of {game.name} under these rules needs {players} seats, got {n_seats}")
        if illegal == "forfeit" and not game.CAN_FORFEIT:
            raise DonutsError(f"{game.name} has no forfeited turn: use the illegal-move policy 'lose'")
    elif n_seats not in (2, 4):
        raise DonutsError(f"a game needs 2 or 4 seats, got {n_seats}")


class _Play:
    """What the harness counts while a game is played: plies, turns, forfeits and the
    game's counts per seat, events, and (free-for-all) the seats that dropped out, in order."""

    def __init__(self, game: Game[Any], n_seats: int, seed: int):
        self.game = game
        self.plies = 0
        self.turns, self.forfeits = [0] * n_seats, [0] * n_seats
        self.stats = [dict.fromkeys(game.STATS, 0) for _ in range(n_seats)]
        self.events: list[Event] = []
        self.out: list[int] = []
        # The moves played for dropped players: their own stream, from the game's seed.
        self.rng = random.Random(_seat_seed(seed, DROPOUT_STREAM))

    def penalty(self, seat: int, kind: str, detail: str, loses: bool) -> Adjudication | None:
        """Log what ``seat`` did wrong; the :class:`Adjudication` it loses by (a two-sided
        game) or drops out by (free-for-all), or ``None`` when it forfeits the turn. Time
        and crashes always lose; exceptions and illegal moves when ``loses``; a player's
        :data:`MAX_FORFEITS`-th forfeit in a game loses too."""
        self.events.append(Event(self.plies, seat, str(kind), detail.strip()))
        if kind in (EventKind.TIME, EventKind.CRASH) or loses:
            return LOSS_BY_EVENT[EventKind(kind)]
        self.forfeits[seat] += 1
        return Adjudication.FORFEITS if self.forfeits[seat] >= MAX_FORFEITS else None

    def finish(self, state: GameState, winner: int | None, reason: Adjudication | str | None, ledger: str
               ) -> tuple[int | None, Adjudication | str, list[int] | None, list[Score] | None, list[Score]]:
        """(winner, reason, ranking, scores, ledger points per seat) of the game played:
        ``winner`` and ``reason`` are set when an event ended it, else the state's outcome says."""
        game, n = self.game, len(self.turns)
        if not game.FREE_FOR_ALL:
            if reason is None:
                end = _outcome(state)
                winner, reason = end.winner, end.reason
            # The ledgers see the two sides (a team battle's seat s plays for side s % 2).
            sides = Ending(winner, (0, 0) if winner is None else (int(winner != 0), int(winner != 1)), None, str(reason))
            points: list[Score] = [game.ledger_points(sides, s % 2, self.stats[s], ledger) for s in range(n)]
            return winner, reason, None, None, points
        winner, reason, ranking, scores = self.outcome(state, reason)
        self.stats = game.final_stats(state, self.stats)
        ending = Ending(winner, tuple(ranking), None if scores is None else tuple(scores), str(reason))
        points = [0 if s in self.out else game.ledger_points(ending, s, self.stats[s], ledger) for s in range(n)]
        return winner, reason, ranking, scores, points

    def move(self, state: GameState, seat: int, move: str) -> None:
        """Push ``move`` (a legal move's text) for ``seat``, adding its counts to the seat's."""
        for key, count in self.game.move_stats(state.push(move)).items():
            self.stats[seat][key] = self.stats[seat].get(key, 0) + count
        self.plies += 1

    def outcome(self, state: GameState, reason: Adjudication | str | None
                ) -> tuple[int | None, Adjudication | str, list[int], list[Score] | None]:
        """(winner seat, reason, places, scores) of a free-for-all game. Players who
        dropped out share the last place; the others keep the game's order among
        themselves. A game stopped with one player left (``reason`` set) ranks that one
        first; its scores are those of the unfinished game (:meth:`~donuts_ai.game.Game.running_scores`)."""
        game, n = self.game, len(self.turns)
        raw: Sequence[Score] | None
        if reason is None:
            end = _outcome(state)
            reason, ranks, raw = end.reason, list(end.places), end.scores
            if len(ranks) != n:
                raise DonutsError(f"{game.name}'s outcome gave {len(ranks)} places for {n} players")
        else:
            ranks, raw = [0] * n, game.running_scores(state)
        scores = None if raw is None else [_number(x) for x in raw]
        stayed = [s for s in range(n) if s not in self.out]
        places = [0] * n
        for s in stayed:
            places[s] = sum(1 for t in stayed if ranks[t] < ranks[s])
        for s in self.out:
            places[s] = len(stayed)
        first = [s for s in range(n) if places[s] == 0]
        return (first[0] if len(first) == 1 else None), reason, places, scores


def _outcome(state: GameState) -> GameOutcome:
    """The outcome of a game the harness played to its end."""
    end = state.outcome()
    assert end is not None  # the loop stops at the end (turn None) unless an event ended the game
    return end


def _number(x: Score) -> Score:
    """A score as JSON writes it: an int when it is whole."""
    x = float(x)
    return int(x) if x.is_integer() else x


def _judge(answer: Answer, time_left: float | None, move_limit: float | None, game: Game[Any], state: GameState
           ) -> tuple[str | None, str, str | None]:
    """(event kind, detail, move) of an answer: kind ``None`` and the move's text when it
    is a legal move in time, else the event and no move."""
    kind, detail = answer.kind, answer.detail
    # The detail of an answer that gave a move is what the seat kept for an event (an
    # engine's stderr): the harness's own line comes last, as reports show a detail's last line.
    kept = f"{detail}\n" if kind is None and detail else ""
    # Over time is over time, whatever the answer was (a process that died stays a crash).
    if kind in (None, EventKind.EXCEPTION) and time_left is not None and answer.seconds > time_left:
        return EventKind.TIME, f"{kept}clock ran out: {answer.seconds:.3f} s used with {time_left:.3f} s left", None
    if kind in (None, EventKind.EXCEPTION) and move_limit is not None and answer.seconds > move_limit:
        return EventKind.TIME, f"{kept}{answer.seconds:.3f} s for one move, over the per-move limit of {move_limit:g} s", None
    if kind is not None:
        return kind, detail, None
    move = legal_move(game, state, answer.move)
    if move is None:
        return EventKind.ILLEGAL, f"{kept}illegal move {answer.move!r} (legal: {', '.join(state.legal_moves())})", None
    return None, detail, move


def score_of(record: GameRecord | Mapping[str, Any], seat: int) -> float:
    """1, 0.5 or 0 for ``seat`` in a finished game record of a two-sided game; in a
    free-for-all game the share of the other seats it placed above (a shared place: half)."""
    ranking = record.get("ranking") if hasattr(record, "get") else None
    if ranking is not None:
        mine = ranking[seat]
        others = [p for t, p in enumerate(ranking) if t != seat]
        return sum(1.0 if mine < p else 0.5 if mine == p else 0.0 for p in others) / len(others)
    w = record["winner"]
    return 0.5 if w is None else float(w == seat % 2)
