"""``donuts-ai evaluate``: agents' accuracy against perfect play on the position suites
(:func:`~.evaluation.evaluate`), as a table, JSON and a picture."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from typing import Any

from .._checks import check_output_file, check_replaceable
from ..errors import DonutsError
from ..tournament.config import BACKENDS
from ..tournament.match import ISOLATIONS
from .evaluation import DEFAULT_MOVE_LIMIT, DEFAULT_SUITE, GAME, EvaluationSettings, evaluate
from .format import SUITE_NAMES
from .report import check_picture_file


def _positive(kind: type[int] | type[float]) -> Any:
    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}") from None
        if not 0 < value < math.inf:
            raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
        return value

    return parse


def _without_nan(value: Any) -> Any:
    """``value`` with every NaN as ``None`` (JSON has no NaN)."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _without_nan(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_without_nan(v) for v in value]
    return value


def _is_scores(path: str) -> bool:
    """Whether ``path`` holds what ``evaluate --json`` writes."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and set(data) == {"config", "suites", "agents"}


def _cmd_evaluate(args: argparse.Namespace) -> int:
    if args.resume and not args.results:
        raise DonutsError("--resume needs --results (the results file to continue)")
    outputs = [(flag, os.path.realpath(path)) for flag, path in (("--results", args.results), ("--json", args.json),
                                                                 ("--plot", args.plot)) if path]
    for i, (flag, path) in enumerate(outputs):
        for other, same in outputs[i + 1:]:
            if path == same:
                raise DonutsError(f"{flag} and {other} name the same file: each output needs its own")
    if args.json:  # the outputs checked before the evaluation, so that it is not played for nothing
        check_replaceable("--json", check_output_file("--json", args.json), _is_scores, "an evaluation's scores")
    if args.plot:
        check_picture_file("--plot", args.plot)
    suites = [name.strip() for item in (args.suite or [DEFAULT_SUITE]) for name in item.split(",") if name.strip()]
    settings = EvaluationSettings(workers=args.workers, backend=args.backend, address=args.address,
                                  isolation=args.isolation, move_limit=args.move_limit,
                                  progress=not args.quiet and sys.stderr.isatty())
    result = evaluate(args.agents, suite=suites, time=args.time, limit=args.limit, seed=args.seed, results_path=args.results,
                      resume=args.resume, game=args.game, settings=settings)
    print(result.table())
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as fh:
                json.dump(_without_nan(result.to_json()), fh, indent=1)
        except OSError as exc:
            raise DonutsError(f"cannot write {args.json!r}: {exc.strerror}") from None
        print(f"json: {args.json}")
    if args.plot:
        result.plot(args.plot)
        print(f"picture: {args.plot}")
    if args.results:
        print(f"results: {args.results}")
    return 0


def add_evaluate_command(sub: Any) -> None:
    """``donuts-ai evaluate SPEC... [--suite NAME] [--time T] [--json FILE] ...``"""
    ev = sub.add_parser("evaluate", help="agents' accuracy against perfect play on the position suites",
                        description="How often each agent's move keeps the exact value of the position, on suites of "
                                    "positions labelled by the solver.")
    ev.add_argument("agents", nargs="+", metavar="AGENT",
                    help="agent specs: random, greedy, alphabeta:time=0.1, mcts:time=0.1, solver, solver:fastest=true, az, "
                         "module:Class[:k=v], engine:PATH")
    ev.add_argument("--game", default=GAME,
                    help=f"the game: {GAME} (the default), the only one with labelled positions; any other (a "
                         "registered game, or module:name of a game of your own) is refused before any work")
    ev.add_argument("--suite", action="append", metavar="NAME",
                    help=f"{', '.join(SUITE_NAMES)} or a suite file; repeat or separate by commas for several "
                         f"(default {DEFAULT_SUITE})")
    ev.add_argument("--limit", type=_positive(int), default=None, metavar="N",
                    help="N positions of each suite, drawn across its phases and plies from --seed (the same for every "
                         "agent; default: all)")
    ev.add_argument("--time", type=_positive(float), default=None, metavar="T",
                    help="seconds a move for every agent whose spec sets no time of its own (a time in the spec wins)")
    ev.add_argument("--move-limit", type=_positive(float), default=DEFAULT_MOVE_LIMIT, metavar="S",
                    help=f"seconds one move may take before it costs its position (default {DEFAULT_MOVE_LIMIT:g})")
    ev.add_argument("--seed", type=int, default=0, metavar="S",
                    help="every position's seed for the agents, and the positions --limit draws, derive from it (default 0)")
    ev.add_argument("--workers", type=_positive(int), default=1, metavar="N", help="processes (default 1)")
    ev.add_argument("--backend", choices=BACKENDS, default=BACKENDS[0],
                    help="where the units run: process (default: worker processes of this machine) or ray (a Ray cluster, --address)")
    ev.add_argument("--address", default=None, help="Ray cluster address (default: start a local Ray instance)")
    ev.add_argument("--isolation", choices=ISOLATIONS, default=ISOLATIONS[0],
                    help="process (default): every agent in a supervised process of its own; none: in the worker (faster, "
                         "but a hanging or crashing agent stops the run)")
    ev.add_argument("--results", metavar="FILE", default=None, help="results file (JSON lines), appended as units finish")
    ev.add_argument("--resume", action="store_true", help="continue the results file given with --results")
    ev.add_argument("--json", metavar="FILE", default=None, help="also write the scores as JSON")
    ev.add_argument("--plot", metavar="FILE", default=None, help="also draw the accuracy by ply (needs matplotlib)")
    ev.add_argument("--quiet", action="store_true", help="no progress line")
    ev.set_defaults(func=_cmd_evaluate)
