"""Test helpers: positions from literal diagrams, and the engine/reference pair."""

from __future__ import annotations

from donuts_ai import Board, Layout, Rules
from donuts_ai.reference import ReferenceGame

ALL_HORIZONTAL = "\n".join(["------"] * 6)


def position(diagram: str, turn: str = "c", last: str = "-", layout: str = ALL_HORIZONTAL, rules: Rules | None = None,
             placed: tuple[int, int] | None = None) -> Board:
    """A Board from a literal diagram: 6 rows of c/v/. (rank 6 first, spaces ignored).

    Placed counts default to the number of donuts of each colour on the board.
    """
    rows = [r.replace(" ", "") for r in diagram.strip().splitlines()]
    assert len(rows) == 6 and all(len(r) == 6 for r in rows), rows
    cells = "/".join(rows)
    if placed is None:
        placed = (cells.count("c"), cells.count("v"))
    lay = ",".join(Layout.from_text(layout).to_text().splitlines())
    return Board.from_fen(f"{lay} {cells} {turn} {last} {placed[0]} {placed[1]}", rules)


def reference_of(board: Board) -> ReferenceGame:
    cells = [board.color_at(sq) for sq in range(36)]
    return ReferenceGame.from_state(board.layout, board.rules, cells, board.turn, board.last, board.placed)


def reference_outcome(game: ReferenceGame):
    return (game.winner, game.reason) if game.over else None


def board_outcome(board: Board):
    o = board.outcome()
    return None if o is None else (o.winner, o.reason.value)
