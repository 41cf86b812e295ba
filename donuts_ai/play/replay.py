"""``donuts-ai replay FILE``: a saved game move by move, checked, with the final board."""

from __future__ import annotations

import argparse
import sys

from ..donuts.outcomes import RESULT_STRINGS, UNFINISHED
from ..donuts.squares import COLOR_NAMES
from .analysis import Analyst, PositionAnalysis
from .record import SavedGameError, load
from .terminal import draw, use_ansi


def _annotation(analysis: PositionAnalysis, move: str) -> str:
    """``?? loss (a win was there: c3)`` for a move that threw the value away, else what
    the move is worth (exact when proven within the node limits, else an estimate)."""
    best, played = analysis.best, next(m for m in analysis.moves if m.move == move)
    if played.value is not None and analysis.value_known() and best.value is not None and played.value < best.value:
        return f"  ?? {played.result} (a {best.result} was there: {best.move})"
    return f"  ({played.describe()})"


def run(args: argparse.Namespace) -> int:
    """``donuts-ai replay``: a saved game, move by move, every move checked first.

    Args:
        args: the parsed command line.

    Returns:
        The exit status.
    """
    record = load(args.file)
    start = record.start()
    final = record.board()  # every move checked before anything is printed
    analyst = Analyst() if args.analyze else None
    ansi = use_ansi(args.style, sys.stdout)
    for key in ("Date", "Chocolate", "Vanilla", "LayoutSpec", "Insertion", "Donuts"):
        if key in record.tags:
            print(f"{key}: {record.tags[key]}")
    board = start.copy(stack=False)
    print(draw(board, ansi, show_legal=False))
    for i, move in enumerate(record.moves, 1):
        mover = board.turn
        assert mover is not None  # record.board() checked that every move is played before the end
        note = ""
        if analyst is not None and move is not None:
            note = _annotation(analyst.analyze(board), move)
        if move is None:
            board.forfeit()
            print(f"{i:3d}. {COLOR_NAMES[mover]:9s} -- (forfeit)")
            continue
        flips = board.push(move)
        print(f"{i:3d}. {COLOR_NAMES[mover]:9s} {move}" + (f", flips {' '.join(flips)}" if flips else "") + note)
    print(draw(board, ansi, show_legal=False))
    outcome = final.outcome()
    result = record.tags.get("Result", UNFINISHED)
    winner_by_result = {text: winner for winner, text in RESULT_STRINGS.items()}
    resignation_winner = winner_by_result.get(result)
    if outcome is not None:
        print(f"Result {outcome.result()}: {outcome.winner_text()} by {outcome.reason} after {final.ply} moves")
    elif record.tags.get("Termination") == "resignation" and resignation_winner is not None:
        loser = 1 - resignation_winner
        print(f"Result {result}: {COLOR_NAMES[loser]} resigned after {final.ply} moves")
    else:
        assert final.turn is not None  # no outcome: the game goes on
        print(f"Unfinished after {final.ply} moves ({COLOR_NAMES[final.turn]} to move)")
    if "FEN" in record.tags and record.tags["FEN"] != final.fen():
        raise SavedGameError(f"{args.file}: the moves do not lead to the FEN tag's position")
    return 0
