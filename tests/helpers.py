"""Test helpers shared by the test modules: positions from literal diagrams, the engine/reference
pair, the agents' tactical positions, random positions and a fake clock."""

from __future__ import annotations

import random
import subprocess
import sys

from donuts_ai import Board, Layout, Rules
from donuts_ai.boxes import CARD_TYPES, BoxesRules
from donuts_ai.boxes.deck import DECK_SIZE
from donuts_ai.boxes.moves import decode, parse_move
from donuts_ai.donuts.reference import ReferenceGame
from donuts_ai.donuts.squares import SQUARE_NAMES

ALL_HORIZONTAL = "\n".join(["------"] * 6)


def _diagram_rows(diagram: str) -> list[str]:
    rows = [r.replace(" ", "") for r in diagram.strip().splitlines()]
    assert len(rows) == 6 and all(len(r) == 6 for r in rows), rows
    return rows


def position(diagram: str, turn: str = "c", last: str = "-", layout: str = ALL_HORIZONTAL, rules: Rules | None = None,
             placed: tuple[int, int] | None = None) -> Board:
    """A Board from a literal diagram: 6 rows of c/v/. (rank 6 first, spaces ignored).

    Placed counts default to the number of donuts of each colour on the board.
    """
    cells = "/".join(_diagram_rows(diagram))
    if placed is None:
        placed = (cells.count("c"), cells.count("v"))
    lay = ",".join(Layout.from_text(layout).to_text().splitlines())
    return Board.from_fen(f"{lay} {cells} {turn} {last} {placed[0]} {placed[1]}", rules)


def reference_position(diagram: str, turn: str = "c", last: str = "-", layout: str = ALL_HORIZONTAL, rules: Rules | None = None,
                       placed: tuple[int, int] | None = None) -> ReferenceGame:
    """The same diagram as :func:`position`, read straight into a :class:`ReferenceGame`.

    It does not go through ``Board.from_fen`` nor any engine code, so a test that plays a
    move on both and compares them checks the engine against the reference rules.
    """
    rows = _diagram_rows(diagram)
    cells: list[int | None] = [None] * 36
    for i, row in enumerate(rows):
        for f, ch in enumerate(row):
            cells[(5 - i) * 6 + f] = {"c": 0, "v": 1, ".": None}[ch]
    if placed is None:
        placed = (cells.count(0), cells.count(1))
    return ReferenceGame.from_state(Layout.from_text(layout), rules or Rules(), cells, {"c": 0, "v": 1}[turn],
                                    None if last == "-" else SQUARE_NAMES.index(last), placed)


def example(diagram: str, **kwargs) -> tuple[Board, ReferenceGame]:
    """(engine Board, ReferenceGame) of one diagram, built independently of each other."""
    return position(diagram, **kwargs), reference_position(diagram, **kwargs)


def reference_of(board: Board) -> ReferenceGame:
    cells = [board.color_at(sq) for sq in range(36)]
    return ReferenceGame.from_state(board.layout, board.rules, cells, board.turn, board.last, board.placed)


def reference_outcome(game: ReferenceGame):
    return (game.winner, game.reason) if game.over else None


def board_outcome(board: Board):
    o = board.outcome()
    return None if o is None else (o.winner, o.reason.value)


def assert_same_position(board: Board, game: ReferenceGame) -> None:
    """The engine Board and the reference game agree on everything the rules decide."""
    assert [board.color_at(s) for s in range(36)] == game.cells, "cells"
    assert board.turn == game.turn, "side to move"
    assert board.last == game.last, "last square"
    assert board.placed == tuple(game.placed), "placed counts"
    assert board_outcome(board) == reference_outcome(game), "outcome"
    assert board.legal_squares() == game.legal_moves(), "legal moves"


def play_both(board: Board, game: ReferenceGame, move: str) -> list[str]:
    """Play ``move`` on the Board and, independently, in the reference game; check they
    agreed before and agree after (flips included). Returns the engine's flips."""
    assert_same_position(board, game)
    flipped = board.push(move)
    ref_flipped = game.play(SQUARE_NAMES.index(move))
    assert flipped == [SQUARE_NAMES[s] for s in ref_flipped], "flips"
    assert_same_position(board, game)
    return flipped


# Chocolate to move on rank 2 (the "-" line through f2): c2 completes c2-c6.
WIN_NOW = dict(
    diagram="""
        ..c.v.
        v.c.v.
        ..c...
        ..c...
        .....v
        ......""",
    turn="c",
    last="f2",
)

# Vanilla threatens f6 (b6-e6). Chocolate must play on file f ("|" there), and every
# other square of file f hands Vanilla its five: f6 is the only move that does not lose.
BLOCK = dict(
    diagram="""
        cvvvv.
        ......
        .....v
        ......
        .c..c.
        c.c...""",
    turn="c",
    last="f4",
    layout="\n".join(["-----|"] * 6),
)

#: Blitz: the clock a tiny-budget agent is asked to move with (a twentieth of it is its budget).
TINY_CLOCK = 0.003


def random_positions(count: int, seed: int, min_plies: int = 0, lazy: bool = False):
    """Positions from random play with forfeits (uneven pools), open picks included (a
    list, or with ``lazy`` a generator)."""

    def generate():
        rng = random.Random(seed)
        made = 0
        while made < count:
            rules = rng.choice([Rules(), Rules(insertion="single"), Rules(donuts=18)])
            board = Board(Layout.random_grid(rng.randrange(10**6)), rules)
            target = rng.randrange(min_plies, 28)
            while not board.is_game_over() and board.ply < target:
                if rng.random() < 0.08:
                    board.forfeit()
                else:
                    board.push(rng.choice(board.legal_moves()))
            if not board.is_game_over():
                made += 1
                yield board

    return generate() if lazy else list(generate())


class FakeClock:
    """Stands in for the agents' clock: every reading advances it by ``step`` seconds, so
    a search's deadline falls after a fixed number of readings on any machine."""

    def __init__(self, step: float):
        self.t = 0.0
        self.step = step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


def install_fake_clock(monkeypatch, module, step: float) -> FakeClock:
    """Replace ``module``'s clock (an agent module's ``now``) by a :class:`FakeClock`."""
    clock = FakeClock(step)
    monkeypatch.setattr(module, "now", clock)
    return clock


def opening(seed: int = 4) -> Board:
    """A Board four plies into a game on a random layout (each ply the first legal move)."""
    board = Board(Layout.random_grid(seed))
    for _ in range(4):
        board.push(board.legal_moves()[0])
    return board


# Donut Boxes: states built from literal cards (the rules' worked examples).

#: Face of each card type, by index.
TYPE = {face: i for i, face in enumerate(CARD_TYPES)}
TRAY_C = {0: ["CCCC", "HHHH", "SSSS", "BBBB"]}


def build(rules: BoxesRules, cards, trays=None, frozen_cards=(), to_move=0, **extra) -> dict:
    """A state dict: ``cards`` as ``(owner, "FACE@r,c")``, the first the start card;
    ``frozen_cards`` indices into ``cards`` whose quadrants are frozen (boxes won by nobody); ``trays`` maps a
    player to unturned faces (default: their first 4 unplaced types); every other card
    of a deck goes to its pile in type order."""
    rows, frozen = [], []
    for k, (owner, text) in enumerate(cards):
        _, r, c, card_type, rot, flavour = decode(parse_move(text))
        rows.append([owner, card_type, rot, r, c, flavour])
        if k in frozen_cards:
            frozen += [[r + dr, c + dc, None] for dr in (0, 1) for dc in (0, 1)]
    trays = trays or {}
    tray_rows, piles = [], []
    for p in range(rules.players):
        placed = {row[1] for row in rows[1:] if row[0] == p}
        free = [t for t in range(DECK_SIZE) if t not in placed]
        tray = sorted(TYPE[f] for f in trays[p]) if p in trays else free[:4]
        tray_rows.append(tray)
        piles.append([t for t in free if t not in tray])
    data = {
        "rules": rules.to_dict(), "to_move": to_move, "cards": rows, "frozen": sorted(frozen),
        "scores": [0] * rules.players, "boxes": [0] * rules.players, "trays": tray_rows, "piles": piles,
        "pile_known": [0] * rules.players, "trigger": None, "final_turns_left": 0, "stuck_streak": 0,
        "over": False, "moves": [],
    }
    data.update(extra)
    return data


def command_error(capsys, *argv: str, real_process: bool = False, timeout: float | None = None) -> tuple[int, str]:
    """``donuts-ai ARGV`` run in this process, expected to fail: (its exit status, what it
    wrote to stderr). The error-message tests call this rather than start an interpreter
    for each message (half a second each, more on a loaded machine); each command's tests
    keep one run of the real ``python -m donuts_ai`` (``real_process``, within ``timeout``
    seconds) to show a real process says one line too."""
    if real_process:
        proc = subprocess.run([sys.executable, "-m", "donuts_ai", *argv], capture_output=True, text=True, timeout=timeout)
        return proc.returncode, proc.stderr
    from donuts_ai.cli import main

    capsys.readouterr()
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = exc.code
    return status, capsys.readouterr().err
