"""Playing one game between agents, in every mode the rulebook knows.

A game has seats: two (Chocolate, Vanilla) or, in a team battle, four in the order
Chocolate A, Vanilla A, Chocolate B, Vanilla B, where each team shares one pool (the
colour's) and its two players take the team's turns alternately. Blitz gives every seat
a clock; an agent is told its time left and loses when its clock runs out. An agent
that returns an illegal move or raises loses the game (``illegal="lose"``, as engine
tournaments do) or forfeits the turn (``illegal="forfeit"``, the rulebook's penalty:
the donut stays in its pool and the opponent moves under the same line constraint; a
forfeit that would hand the turn straight back, because the opponent's pool is empty,
loses). Every such event is logged with the agent's error.

The score ledger: +3 for a five, +2 for winning on the board at the end (largest
group or majority), +1 for a player who made 3 or more insertions in the game.
"""

from __future__ import annotations

import time
import traceback

from ..board import Board, Termination
from ..errors import DonutsError
from ..layout import Layout
from ..rules import Rules

ILLEGAL_POLICIES = ("lose", "forfeit")


def _seat_seed(seed: int, seat: int) -> int:
    return (seed * 1_000_003 + seat * 7_919) % (2**63)


def play_game(agents, layout: Layout, rules: Rules, seed: int, clock: float | None = None, illegal: str = "lose") -> dict:
    """Play one game; ``agents`` are 2 or 4 seats (see the module doc). Returns its record."""
    if len(agents) not in (2, 4):
        raise DonutsError(f"a game needs 2 or 4 seats, got {len(agents)}")
    if illegal not in ILLEGAL_POLICIES:
        raise DonutsError(f"illegal-move policy must be one of {', '.join(ILLEGAL_POLICIES)}, got {illegal!r}")
    seats = len(agents)
    for i, agent in enumerate(agents):
        agent.reset(_seat_seed(seed, i))
    board = Board(layout, rules)
    used = [0.0] * seats  # thinking time per seat
    insertions = [0] * seats
    turns = [0] * seats  # turns taken (moves and forfeits) per seat
    team_turns = [0, 0]
    events: list[dict] = []
    winner, reason = None, None
    while not board.is_game_over():
        colour = board.turn
        seat = colour if seats == 2 else colour + 2 * (team_turns[colour] % 2)
        agent = agents[seat]
        turns[seat] += 1
        time_left = None if clock is None else clock - used[seat]
        t = time.perf_counter()
        error = None
        try:
            move = agent.select_move(board.copy(), time_left)
        except Exception as exc:  # an agent's crash must not stop the tournament
            move, error = None, f"{type(exc).__name__}: {exc}"
            detail = traceback.format_exc(limit=3)
        used[seat] += time.perf_counter() - t
        if clock is not None and used[seat] > clock:
            events.append({"ply": board.ply, "seat": seat, "kind": "time", "detail": f"{used[seat]:.3f} s > {clock} s"})
            winner, reason = 1 - colour, "time"
            break
        if error is None and not board.is_legal(move):
            error = f"illegal move {move!r} (legal: {', '.join(board.legal_moves())})"
            detail = error
        if error is not None:
            kind = "crash" if "illegal move" not in error else "illegal"
            events.append({"ply": board.ply, "seat": seat, "kind": kind, "detail": detail.strip()})
            if illegal == "lose":
                winner, reason = 1 - colour, "crash" if kind == "crash" else "illegal move"
                break
            board.forfeit()
            team_turns[colour] += 1
            if board.turn == colour:
                winner, reason = 1 - colour, "forfeit"
                break
            continue
        flipped = board.push(move)
        if flipped:
            insertions[seat] += 1
        team_turns[colour] += 1
    outcome = board.outcome()
    if reason is None:
        winner, reason = outcome.winner, outcome.reason.value
    ledger = [0] * seats
    if winner is not None:
        points = 3 if reason == Termination.FIVE.value else 2 if reason in ("largest group", "majority") else 0
        for s in range(seats):
            if s % 2 == winner:
                ledger[s] += points
    for s in range(seats):
        if insertions[s] >= 3:
            ledger[s] += 1
    return {
        "layout": layout.to_text(),
        "rules": {"insertion": rules.insertion, "donuts": rules.donuts},
        "seats": [getattr(a, "spec", type(a).__name__) for a in agents],
        "names": [a.name for a in agents],
        "seed": seed,
        "moves": board.move_stack,
        "winner": winner,
        "reason": reason,
        "plies": board.ply,
        "times": [round(u, 4) for u in used],
        "turns": turns,
        "insertions": insertions,
        "ledger": ledger,
        "events": events,
    }


def score_of(record: dict, seat: int) -> float:
    """1, 0.5 or 0 for ``seat`` in a finished game record."""
    w = record["winner"]
    return 0.5 if w is None else float(w == seat % 2)
