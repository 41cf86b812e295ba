"""Playing Donuts as a person: ``donuts-ai play`` (terminal), ``donuts-ai serve`` (a local
web page with analysis) and ``donuts-ai replay`` (saved games).

- :mod:`.session` — one game being played between a person and an agent
  (:class:`~.session.PlaySession`): turns, undo, resignation, results.
- :mod:`.analysis` — move analysis for people: every legal move's exact value from the
  first donut on, under node limits, in the background (:class:`~.analysis.AnalysisJob`).
- :mod:`.record` — the saved game format (:class:`~.record.SavedGame`).
- :mod:`.terminal`, :mod:`.server` (with ``static/``) — the two front ends.

The main command line adds these subcommands with :func:`add_commands`; the modules
behind them are imported only when a command runs.
"""

from __future__ import annotations

import argparse
from typing import TypeVar

from ..donuts.rules import add_rules_arguments

DEFAULT_PORT = 8765

_Parser = TypeVar("_Parser", bound=argparse.ArgumentParser)


def _cmd_play(args: argparse.Namespace) -> int:
    from .terminal import run

    return run(args)


def _cmd_serve(args: argparse.Namespace) -> int:
    from .server import run

    return run(args)


def _cmd_replay(args: argparse.Namespace) -> int:
    from .replay import run

    return run(args)


def add_commands(subparsers: argparse._SubParsersAction[_Parser]) -> None:
    """Add ``play``, ``serve`` and ``replay`` to the ``donuts-ai`` subparsers. Each command's
    ``func`` takes the parsed namespace and returns an exit code; bad input raises
    :class:`~donuts_ai.errors.DonutsError`.

    Args:
        subparsers: the ``donuts-ai`` parser's subparsers.
    """
    play = subparsers.add_parser("play", help="play a game against an agent in the terminal")
    play.add_argument("--opponent", default="mcts:time=1", metavar="AGENT",
                      help="agent spec, as in tournaments (default mcts:time=1): random, greedy, alphabeta:time=1, solver, ...")
    play.add_argument("--color", default="chocolate", metavar="COLOR",
                      help="your colour: chocolate (moves first, the default), vanilla, random, or both (you play both sides)")
    play.add_argument("--layout", default=None,
                      help="standard (default), random or grid (a fresh draw; its seed is shown), random:SEED, grid:SEED, or a file")
    play.add_argument("--fen", default=None, help="start from this position string (Board.fen()) instead of an empty board")
    add_rules_arguments(play)
    play.add_argument("--seed", type=int, default=None, help="seed of the opponent's random choices")
    play.add_argument("--style", choices=("auto", "ansi", "plain"), default="auto",
                      help="board drawing: colours on a terminal, plain text otherwise (auto, the default; NO_COLOR is honoured)")
    play.set_defaults(func=_cmd_play)

    serve = subparsers.add_parser("serve", help="a local web page: play against the agents, with analysis")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT,
                       help=f"port (default {DEFAULT_PORT}; 0 picks a free one); the URL is printed")
    serve.add_argument("--max-think", type=float, default=None, metavar="SECONDS",
                       help="most seconds an agent may think per move (default and ceiling 10)")
    serve.add_argument("--max-games", type=int, default=None, help="games kept at once (default 64; the least recently used go)")
    serve.add_argument("--quiet", action="store_true", help="do not log requests")
    serve.set_defaults(func=_cmd_serve)

    replay = subparsers.add_parser("replay", help="replay a saved game (donuts-ai play's save FILE) move by move")
    replay.add_argument("file", metavar="FILE", help="a saved game (the text donuts-ai play's save writes)")
    replay.add_argument("--analyze", action="store_true",
                        help="value every move exactly (within node limits) and mark those that threw a win or draw away")
    replay.add_argument("--style", choices=("auto", "ansi", "plain"), default="auto", help="board drawing (as in play)")
    replay.set_defaults(func=_cmd_replay)


__all__ = ["DEFAULT_PORT", "add_commands"]
