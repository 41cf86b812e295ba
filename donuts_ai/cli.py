"""The ``donuts-ai`` command line.

Errors print one line to stderr (``donuts-ai: error: ...``) and exit with status 2;
``verify`` and ``check-game`` exit with status 1 when a file or a game fails a check.
Every ``--game`` takes a registered game or ``module:name`` of a game of one's own
(:data:`GAME_HELP`). A ``module:Class`` agent spec or ``module:name`` game names an
importable module: installed, on ``PYTHONPATH`` (``PYTHONPATH=.`` for a module in the
current folder), or in the current folder under ``python -m donuts_ai``.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from ._argparse import OneLineParser
from ._checks import check_output_file, check_seconds
from .donuts.board import Board
from .donuts.layout import Layout
from .donuts.rules import Rules, RulesDict, add_rules_arguments, given_rules, rules_from_arguments
from .donuts.squares import COLOR_NAMES
from .errors import DonutsError
from .learn.cli import add_train_command
from .play import add_commands as _add_play_commands
from .suites.cli import add_evaluate_command
from .tournament.config import BACKENDS, BEST_OF, DEFAULT_MOVE_LIMIT, FORMATS, MODES
from .tournament.match import ILLEGAL_POLICIES, ISOLATIONS
from .tournament.results import NEW_VERSION_KEYWORD, RESUME_KEYWORD

if TYPE_CHECKING:
    from typing import TypeAlias

    from .donuts.book import Book

    #: The subcommands' parsers, as ``add_subparsers`` gives them.
    Subparsers: TypeAlias = "argparse._SubParsersAction[OneLineParser]"

#: A value of ``--rules KEY=VALUE``: a boolean, a whole number or text.
RuleValue = bool | int | str
#: What every ``--game`` takes, said once: a name in the one table of games, or
#: ``module:name``, whose module is imported first (it registers the game).
GAME_HELP = ("a registered game (donuts, boxes, connect-four) or module:name of a game of your own, whose module is imported first "
             "(examples.connect_four:connect-four-python)")


def _layout_arg(text: str) -> Layout:
    """One layout, in the library's layout grammar (:meth:`donuts_ai.Layout.from_spec`):
    ``standard``, ``random`` / ``grid`` (a fresh draw), ``random:SEED``, ``grid:SEED``,
    layout text, or a file."""
    try:
        return Layout.from_spec(text)
    except DonutsError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _cmd_game(args: argparse.Namespace) -> int:
    """A game between two uniformly random players, printed move by move."""
    rng = random.Random(args.seed)
    board = Board(args.layout, rules_from_arguments(args))
    print(f"Donuts demo: two random players, seed {args.seed}")
    print(board)
    while not board.is_game_over():
        mover = board.turn
        assert mover is not None  # the game is not over
        open_pick = board.is_open_pick()
        move = rng.choice(board.legal_moves())
        flipped = board.push(move)
        note = " (open pick)" if open_pick and board.ply > 1 else ""
        flips = f", flips {' '.join(flipped)}" if flipped else ""
        print(f"{board.ply:2d}. {COLOR_NAMES[mover]:9s} {move}{note}{flips}")
    print()
    print(board)
    outcome = board.outcome()
    assert outcome is not None  # the game is over
    scores = f" {outcome.scores[0]}-{outcome.scores[1]}" if outcome.scores else ""
    print(f"Result: {outcome.result()} — {outcome.winner_text()} by {outcome.reason}{scores} after {board.ply} moves")
    return 0


DEMO_AGENTS = ["random", "greedy", "alphabeta:time=0.1", "mcts:time=0.1", "solver"]
DEMO_LAYOUTS = "random:10:2"


def _cmd_demo(args: argparse.Namespace) -> int:
    """The main job: a short round robin of every kind of agent, ending with ratings."""
    from . import tournament

    print(f"Round robin of {', '.join(DEMO_AGENTS)}")
    print(f"on layouts {DEMO_LAYOUTS} (colour-swapped pairs), {args.workers or 'all'} worker(s), seed {args.seed}")
    results = tournament.run(DEMO_AGENTS, game="donuts", games=4, setups=DEMO_LAYOUTS, seed=args.seed, workers=args.workers,
                             config=tournament.HarnessConfig(progress=sys.stderr.isatty()))
    print(results.table())
    return 0


def _rules_arg(text: str) -> dict[str, RuleValue]:
    """``--rules KEY=VALUE[,KEY=VALUE...]``: a game's rules; ``true``/``false`` are booleans,
    whole numbers ints, anything else text (``grid=splitzkies,matching=perfect,closers=true``)."""
    rules: dict[str, RuleValue] = {}
    for item in filter(None, (x.strip() for x in text.split(","))):
        key, sep, value = (x.strip() for x in item.partition("="))
        if not sep or not key.isidentifier() or not value:
            raise argparse.ArgumentTypeError(f"expected KEY=VALUE[,KEY=VALUE...], got {item!r}")
        if value.lower() in ("true", "false"):
            rules[key] = value.lower() == "true"
        else:
            try:
                rules[key] = int(value)
            except ValueError:
                rules[key] = value
    return rules


def _tournament_rules(args: argparse.Namespace) -> RulesDict | dict[str, RuleValue] | None:
    """The game's rules from ``--rules`` and, for Donuts, ``--insertion`` / ``--donuts``."""
    rules: dict[str, RuleValue] = dict(args.rules or {})
    given = given_rules(args)
    if args.game != "donuts":
        if given:
            name = args.game.rpartition(":")[2]  # module:name: the game's name
            raise DonutsError(f"--{next(iter(given))} is a Donuts rule; give {name}'s rules with --rules KEY=VALUE,...")
        return rules or None  # None: the game's own defaults
    twice = sorted(set(given) & set(rules))
    if twice:
        raise DonutsError(f"the Donuts rule {twice[0]!r} is given twice (--{twice[0]} and --rules)")
    return Rules.from_dict({**given, **rules}).to_dict()


def _progress(quiet: bool) -> bool | Callable[[int, int], None]:
    """A run's progress on the command line: the bar on a terminal; elsewhere (a log, a
    pipe) no bar, but the run's plan line still; nothing with ``--quiet``."""
    if quiet:
        return False
    return True if sys.stderr.isatty() else (lambda done, total: None)


def _cmd_tournament(args: argparse.Namespace) -> int:
    from . import tournament

    if args.resume and not args.out:
        raise DonutsError("--resume needs --out (the results file to continue)")
    if args.best_of is not None and args.mode != "duel":
        raise DonutsError("--best-of is a duel's series length: it needs --mode duel")
    config = tournament.HarnessConfig(
        format=args.format, games=args.games, setups=args.setups, seed=args.seed, mode=args.mode,
        best_of=tournament.HarnessConfig.best_of if args.best_of is None else args.best_of,
        clock=args.clock, illegal=args.illegal, rules=_tournament_rules(args),
        workers=args.workers, backend=args.backend, address=args.address, results_path=args.out, resume=args.resume,
        progress=_progress(args.quiet), move_limit=args.move_limit, ledger=args.ledger,
        isolation=args.isolation, game=args.game, players=args.players, new_version=args.new_version,
    )
    results = tournament.run(args.agents, config=config)
    print(results.table())
    if args.out:
        print(f"results: {args.out}")
    return 0


def _cmd_report(args: argparse.Namespace) -> int:
    from .tournament import Results, plot

    if args.png and os.path.exists(args.png) and not os.path.isdir(args.png):  # before the report, not after
        raise DonutsError(f"--png {args.png!r} is a file: name a folder for the pictures")
    results = Results.from_file(args.results)
    print(results.table())
    if args.png:
        for path in plot(results, args.png):
            print(f"wrote {path}")
    return 0


def _cmd_verify(args: argparse.Namespace) -> int:
    from .tournament import verify_file

    for path in args.results:  # every file there before the first is replayed
        if not os.path.isfile(path):
            raise DonutsError(f"{path}: no such file")
    failed = False
    for path in args.results:
        verification = verify_file(path)
        print(verification)
        failed = failed or not verification.ok
    return 1 if failed else 0


def _cmd_sprt(args: argparse.Namespace) -> int:
    from .tournament import run_sprt

    state, played = run_sprt(args.a, args.b, args.elo0, args.elo1, args.alpha, args.beta, max_pairs=args.max_pairs,
                             setups=args.setups, seed=args.seed, rules=_tournament_rules(args),
                             progress=not args.quiet and sys.stderr.isatty(), game=args.game)
    verdict = {"H1": f"accept H1: {args.a} is at least {args.elo1:g} Elo stronger than {args.b}",
               "H0": f"accept H0: {args.a} is not {args.elo1:g} Elo stronger (at most {args.elo0:g})",
               None: "undecided after the maximum number of pairs"}[state.decision]
    print(f"{played} pairs, pentanomial {list(state.pentanomial)}, LLR {state.llr:+.3f} "
          f"(bounds {state.lower:.3f}, {state.upper:.3f}): {verdict}")
    return 0


def _cmd_study(args: argparse.Namespace) -> int:
    import time

    from .study import DEFAULT_TT_BITS, run_study, summary

    if args.resume and not args.out:
        raise DonutsError("--resume needs --out (the results file to continue)")
    arrangements = args.arrangements
    if arrangements is not None and arrangements != "all":
        try:
            arrangements = int(arrangements)
        except ValueError:
            raise DonutsError(f"--arrangements must be 'all' or a count, got {arrangements!r}") from None

    t = time.perf_counter()
    config, units = run_study(arrangements, args.grids, distance=args.distance, first_moves=args.first_moves, seed=args.seed,
                              results_path=args.out, resume=args.resume, workers=args.workers or (os.cpu_count() or 1),
                              backend=args.backend, address=args.address, progress=not args.quiet and sys.stderr.isatty(),
                              rules=rules_from_arguments(args), tt_bits=DEFAULT_TT_BITS if args.tt_bits is None else args.tt_bits)
    if sys.stderr.isatty() and not args.quiet:
        sys.stderr.write("\n")
    print(f"solved {len(units)} layout classes in {time.perf_counter() - t:.1f} s (this run)")
    for kind, row in summary(units).items():
        print(f"{kind}s: {row['layouts']} layouts ({row['classes']} up to symmetry): first player wins "
              f"{row['first_player_wins']:.1%}, draws {row['draws']:.1%}, second player wins {row['second_player_wins']:.1%}; "
              f"solve time median {row['solve_seconds_median']:.2f} s, max {row['solve_seconds_max']:.1f} s, "
              f"total {row['solve_seconds_total']:.0f} s")
    if args.first_moves:
        from .study import winning_move_counts

        counts = winning_move_counts(units)
        print("winning first moves: " + ", ".join(f"{k}: {counts[k]} layouts" for k in sorted(counts)))
    return 0


def _cmd_book_build(args: argparse.Namespace) -> int:
    from .donuts.book import Book
    from .study import build_book

    if os.path.exists(args.out):
        raise DonutsError(f"{args.out!r} exists: choose another file (a book is never overwritten)")
    check_output_file("--out", args.out)  # before the book is built
    base = None
    if args.extend is not None:  # '' (the flag alone): the shipped book; else a book file
        base = Book.load(args.extend or None)
    book = build_book(args.studies, base=base)
    book.save(args.out)
    print(f"{args.out}: {len(book)} entries")
    _print_book(book)
    return 0


def _cmd_book_show(args: argparse.Namespace) -> int:
    from .donuts.book import SHIPPED_BOOK, Book

    book = Book.load(args.file)
    print(f"{args.file or SHIPPED_BOOK}: {len(book)} entries")
    _print_book(book)
    return 0


def _print_book(book: Book) -> None:
    """Each variant of ``book``: its rules, entries, who wins, the distances it holds, its sources."""
    for variant in book.variants():
        counts = book.value_counts(variant["rules"])
        print(f"  rules {Rules.from_dict(variant['rules']).to_dict()}: {variant['entries']} classes, first player wins "
              f"{counts['win']}, draws {counts['draw']}, loses {counts['loss']}; distance proved for {counts['distance']}; "
              f"every first move's value for {counts['first_moves']}")
        for source in variant["source"].get("sources", []):
            print(f"    from {source.get('study')} (sha256 {str(source.get('sha256'))[:12]}, {source.get('classes')} classes, "
                  f"{source.get('built_by')})")


def _cmd_bench(args: argparse.Namespace) -> int:
    from .bench.engine import main as bench_main

    return bench_main(args.bench_argv, prog="donuts-ai bench")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _positive_float(text: str) -> float:
    try:
        seconds = check_seconds("the value", float(text), allow_none=False)
    except (ValueError, DonutsError):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}") from None
    assert seconds is not None  # not allow_none
    return seconds


def _add_demo(sub: Subparsers) -> None:
    demo = sub.add_parser("demo", help="a short round robin of every kind of agent, ending with ratings (10 to 30 s once installed)")
    demo.add_argument("--seed", type=int, default=1, help="the round robin's seed (default 1)")
    demo.add_argument("--workers", type=_positive_int, default=None, help="processes (default: all cores)")
    demo.set_defaults(func=_cmd_demo)


def _add_game(sub: Subparsers) -> None:
    game = sub.add_parser("game", help="a game between two random players, printed move by move")
    game.add_argument("--seed", type=int, default=1, help="seed of the random players (default 1)")
    game.add_argument(
        "--layout", type=_layout_arg, default=Layout.standard(), help="standard, random[:SEED], grid[:SEED] or a layout file"
    )
    add_rules_arguments(game)
    game.set_defaults(func=_cmd_game)


def _add_tournament(sub: Subparsers) -> None:
    tour = sub.add_parser("tournament", help="play a tournament between agents")
    tour.add_argument("agents", nargs="+", metavar="AGENT",
                      help="agent specs: random[:seed=N], greedy, alphabeta:depth=6, mcts:time=0.1, mcts:simulations=2000, "
                           "solver, az:simulations=400, module:Class[:k=v] of an importable module (PYTHONPATH=. for one "
                           "in this folder) (for --game boxes: its agents, e.g. random, "
                           "greedy, ismcts:time=0.1, ismcts:simulations=1000); a search's budget is simulations=")
    tour.add_argument("--game", default="donuts",
                      help=f"donuts (default: the board game), boxes (Donut Boxes, the card game: free-for-all, 2-10 "
                           f"players): {GAME_HELP}; a results file records where a game of your own comes from, and "
                           "report, verify and --resume import its module")
    tour.add_argument("--players", type=_positive_int, default=None,
                      help="free-for-all games: players at every table (default: the rules' count); each table is "
                           "played in all its seat rotations, so every agent at it starts once")
    tour.add_argument("--rules", type=_rules_arg, default=None, metavar="KEY=VALUE[,...]",
                      help="the game's rules, e.g. for boxes grid=splitzkies,matching=perfect,closers=true "
                           "(for donuts insertion=single,donuts=18, as --insertion/--donuts)")
    tour.add_argument("--format", choices=FORMATS, default=FORMATS[0],
                      help="gauntlet: the first agent against each of the others (free-for-all: at every table)")
    tour.add_argument("--games", type=_positive_int, default=2,
                      help="games per pairing, in every game (pairs: rounded up to even; duel: series; at tables of "
                           "--players seats a pairing is a set of agents that fills a table, and its games are rounded up "
                           "to a multiple of the seats; with no more agents than seats, one set)")
    tour.add_argument("--setups", default="random",
                      help="the game's set-ups, in the game's own spec: random (default: a fresh one for every unit, "
                           "seeded from --seed) or a fixed set, cycled through; see the game's parse_setups (donuts: "
                           "standard, random:SEED[:COUNT], grid:SEED[:COUNT] or a file of layouts)")
    tour.add_argument("--seed", type=int, default=0, help="tournament seed (every game's seed derives from it)")
    tour.add_argument("--mode", choices=MODES, default=None,
                      help="pairs (default for donuts): colour-swapped pairs; duel: best-of series; team: 2v2 with 4 "
                           "agents; free-for-all (the only mode, and the default, of boxes)")
    tour.add_argument("--best-of", type=int, choices=BEST_OF, default=None, help="duel series length (default 3; --mode duel)")
    _add_tournament_play(tour)


def _add_tournament_play(tour: argparse.ArgumentParser) -> None:
    """The tournament's clocks, penalties, scoring and how it runs."""
    tour.add_argument("--clock", type=_positive_float, default=None,
                      help="blitz: a chess clock of this many seconds per player, for the whole series in duel mode "
                           "(running out loses the game and the match), per game in pairs and team modes")
    tour.add_argument("--move-limit", type=_positive_float, default=DEFAULT_MOVE_LIMIT,
                      help=f"hard limit in seconds on one move, clock or not: an agent that hangs loses on time "
                           f"(default {DEFAULT_MOVE_LIMIT:g})")
    tour.add_argument("--illegal", choices=ILLEGAL_POLICIES, default=ILLEGAL_POLICIES[0],
                      help="penalty for an illegal move or an exception: lose the game, or forfeit the turn (a player's "
                           "third forfeit in a game loses it); a hang loses on time and a crashed agent process loses")
    tour.add_argument("--ledger", default=None,
                      help="score ledger: for donuts rulebook (default: +3 five, +2 majority of a full board, +1 for 3+ "
                           "insertions) or end-win (+2 for any win at the end instead); for boxes points (the game's score)")
    tour.add_argument("--isolation", choices=ISOLATIONS, default=ISOLATIONS[0],
                      help="process (default): every agent in a supervised process of its own; none: in the worker "
                           "(faster, but a hanging or crashing agent stops the run)")
    add_rules_arguments(tour)  # Donuts rules only: a flag given is told apart from one left out
    tour.add_argument("--workers", type=_positive_int, default=None, help="processes (default: all cores)")
    tour.add_argument("--backend", choices=BACKENDS, default=BACKENDS[0],
                      help="where the units run: process (default: worker processes of this machine) or ray (a Ray cluster, --address)")
    tour.add_argument("--address", default=None, help="Ray cluster address (default: start a local Ray instance)")
    tour.add_argument("--out", default=None, help="results file (JSON lines)")
    tour.add_argument("--resume", action="store_true",
                      help="continue the results file given with --out; with more --games than it holds, the run grows "
                           "(only the missing units are played, the growth recorded in the file)")
    tour.add_argument("--new-version", action="store_true",
                      help="with --resume: go on although an agent's code changed, as a new version of it (recorded in "
                           "the file; report shows from which unit on)")
    tour.add_argument("--quiet", action="store_true", help="no progress bar")
    tour.set_defaults(func=_cmd_tournament)


def _add_report(sub: Subparsers) -> None:
    rep = sub.add_parser("report", help="tables (and pictures) from a results file",
                         description="Ratings, crosstable and ledger of a results file. A game of your own is found by "
                                     "the module:name the file records (its module is imported: make it importable).")
    rep.add_argument("results", metavar="FILE", help="a results file (JSON lines) of tournament, sprt or evaluate")
    rep.add_argument("--png", metavar="DIR", default=None, help="also draw ratings.png and crosstable.png into DIR")
    rep.set_defaults(func=_cmd_report)


def _add_verify(sub: Subparsers) -> None:
    ver = sub.add_parser("verify", help="replay every game of results files and check each against its record",
                         description="Replay every recorded game from its set-up, rules and moves, and check the "
                                     "winner or places, the reason, the plies, the forfeits, the events and the ledger "
                                     "against the record. Exit 0 when every game replays as recorded, 1 otherwise "
                                     "(each line, unit and game that does not is named), 2 for a file that cannot be read "
                                     "(or whose game cannot be found: a game of your own is found by the module:name "
                                     "the file records, whose module must be importable).")
    ver.add_argument("results", nargs="+", metavar="FILE", help="results files (JSON lines) to replay")
    ver.set_defaults(func=_cmd_verify)


def _add_sprt(sub: Subparsers) -> None:
    sp = sub.add_parser("sprt", help="SPRT: is agent A at least ELO1 stronger than agent B?")
    sp.add_argument("a", metavar="A", help="agent spec of A, as in tournament (the game's kinds, or module:Class[:k=v])")
    sp.add_argument("b", metavar="B", help="agent spec of B")
    sp.add_argument("--elo0", type=float, default=0.0, help="the Elo difference of the null hypothesis (default 0)")
    sp.add_argument("--elo1", type=float, default=20.0, help="the Elo difference of the alternative: A stronger by this (default 20)")
    sp.add_argument("--alpha", type=float, default=0.05, help="the false-positive rate: accepting ELO1 when ELO0 holds (default 0.05)")
    sp.add_argument("--beta", type=float, default=0.05, help="the false-negative rate: accepting ELO0 when ELO1 holds (default 0.05)")
    sp.add_argument("--max-pairs", type=_positive_int, default=2000,
                    help="stop undecided after this many game pairs (default 2000)")
    sp.add_argument("--game", default="donuts", help=f"the game (default donuts): {GAME_HELP}; a two-sided one")
    sp.add_argument("--setups", default="random",
                    help="the set-ups, as in tournament (default: a fresh seeded one per pair; for donuts a tile arrangement)")
    sp.add_argument("--seed", type=int, default=0, help="the run's seed: every pair's set-up and the agents' seeds derive from it")
    sp.add_argument("--rules", type=_rules_arg, default=None, metavar="KEY=VALUE[,...]",
                    help="the game's rules, as in tournament")
    add_rules_arguments(sp)
    sp.add_argument("--quiet", action="store_true", help="no progress line")
    sp.set_defaults(func=_cmd_sprt)


def _add_study(sub: Subparsers) -> None:
    study = sub.add_parser("study", help="solve the empty board of many layouts: who wins Donuts?")
    study.add_argument("question", choices=("first-player",), help="what to study: first-player (who wins the empty board)")
    study.add_argument("--arrangements", default=None, help="'all' tile arrangements, or a seeded sample of N")
    study.add_argument("--grids", type=_positive_int, default=None, help="also N uniformly random direction grids")
    study.add_argument("--seed", type=int, default=0, help="the seed of the sampled arrangements and grids (default 0)")
    study.add_argument("--distance", action="store_true", help="also solve the exact game lengths (much slower)")
    study.add_argument("--out", default=None, help="results file (JSON lines), appended as layouts finish")
    study.add_argument("--resume", action="store_true", help="continue the results file given with --out")
    study.add_argument("--workers", type=_positive_int, default=None, help="processes (default: all cores)")
    study.add_argument("--backend", choices=BACKENDS, default=BACKENDS[0],
                       help="where the units run: process (default: worker processes of this machine) or ray (a Ray cluster, --address)")
    study.add_argument("--address", default=None, help="Ray cluster address")
    study.add_argument("--first-moves", action="store_true",
                       help="also solve every first move of each layout (about 36 times the work)")
    study.add_argument("--tt-bits", type=int, default=None,
                       help="each worker's transposition table, 2**N entries (default 20); a resume may change it "
                            "(it changes the speed, not the answers): the file records the change")
    study.add_argument("--quiet", action="store_true", help="no progress line")
    add_rules_arguments(study)
    study.set_defaults(func=_cmd_study)


def _add_book(sub: Subparsers) -> None:
    book = sub.add_parser("book", help="the solver's opening book: show it, or build one from study files")
    commands = book.add_subparsers(dest="book_command", required=True)
    show = commands.add_parser("show", help="what a book holds (default: the shipped book)")
    show.add_argument("file", nargs="?", default=None, help="a book file (.npz)")
    show.set_defaults(func=_cmd_book_show)
    build = commands.add_parser("build", help="a book from first-player study files (donuts-ai study ... --out FILE)")
    build.add_argument("studies", nargs="+", help="study files (JSON lines, .gz too), each under its own rules")
    build.add_argument("--out", required=True, help="the book file to write (.npz; never overwritten)")
    build.add_argument("--extend", nargs="?", const="", default=None, metavar="BOOK",
                       help="add the studies to a book: the shipped one, or BOOK (a book file)")
    build.set_defaults(func=_cmd_book_build)


def _add_bench(sub: Subparsers) -> None:
    # Every argument after `bench` goes, unread, to donuts_ai.bench.engine.main, whose parser
    # is the one of `donuts-ai bench` and `python -m donuts_ai.bench`
    # (`bench compare` included): no character starts an option here (prefix_chars), so
    # `--quick` and `--help` reach it as they are.
    bench = sub.add_parser("bench", add_help=False, prefix_chars="\0",
                           help="measure engine and search speed on this machine into a record; bench compare OLD NEW "
                                "compares two; bench --agent SPEC [--game GAME] an agent's speed (GAME: a registered game "
                                "or module:name)")
    bench.add_argument("bench_argv", nargs=argparse.REMAINDER, metavar="ARGS",
                       help="the arguments of donuts-ai bench (see donuts-ai bench --help)")
    bench.set_defaults(func=_cmd_bench)


def _cmd_check_game(args: argparse.Namespace) -> int:
    """The game contract's checks on a game (:func:`donuts_ai.testing.check_game`): a
    line per check passed, or the first failure as one line on stderr and exit 1."""
    from .testing import GameCheckError, check_game  # the checks: loaded by this command only
    from .tournament import get_game

    game = get_game(args.game)  # an unknown name, or a module that cannot be imported: exit 2
    try:
        passed = check_game(game, seed=args.seed)
    except GameCheckError as exc:
        print(f"donuts-ai: error: {exc}", file=sys.stderr)
        return 1
    for name in passed:
        print(f"ok  {name}")
    print(f"{game.name}: {len(passed)} checks passed")
    return 0


def _add_check_game(sub: Subparsers) -> None:
    check = sub.add_parser("check-game", help="check a game against the game contract (for a game of your own)",
                           description="Play a game through the game contract's checks (donuts_ai.testing.check_game): "
                                       "a line for each check passed and exit 0; the first failure as one line on stderr "
                                       "and exit 1; a game that cannot be found, exit 2.")
    check.add_argument("game", metavar="GAME", help=GAME_HELP)
    check.add_argument("--seed", type=int, default=0, help="the seed of the checks' set-ups and random games (default 0)")
    check.set_defaults(func=_cmd_check_game)


def _cmd_engine(args: argparse.Namespace) -> int:
    from .engine_protocol.server import serve

    return serve(args.agent)


def _add_engine(sub: Subparsers) -> None:
    engine = sub.add_parser("engine", help="an agent as an engine speaking the Donuts Engine Protocol on stdin/stdout "
                                           "(for other tools; see docs/engine_protocol.md)")
    engine.add_argument("agent", metavar="AGENT", help="agent spec: random, greedy, alphabeta:depth=6, mcts:time=0.5, solver, "
                                                       "module:Class[:k=v]")
    engine.set_defaults(func=_cmd_engine)


#: Python keywords the library's messages name, and the flags that give them here.
KEYWORD_FLAGS = {RESUME_KEYWORD: "--resume", NEW_VERSION_KEYWORD: "--new-version", "backend='ray'": "--backend ray"}


def build_parser() -> argparse.ArgumentParser:
    """The whole command line, one function per subcommand, in the order ``--help`` shows them."""
    # The package's version, read where the package (imported before any of its modules) keeps it.
    version = getattr(sys.modules[__name__.rsplit(".", 1)[0]], "__version__", "?")
    parser = OneLineParser(prog="donuts-ai", description="Play, search and study the board game Donuts.")
    parser.add_argument("--version", action="version", version=f"donuts-ai {version}",
                        help="print the version of donuts_ai and exit")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_play_commands(sub)
    for add in (_add_demo, _add_game, _add_tournament, _add_report, _add_verify, _add_sprt, _add_study, _add_book, _add_bench, _add_engine,
                add_train_command, add_evaluate_command, _add_check_game):
        add(sub)
    return parser


def _command_parser(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the (sub)command ``args`` chose, down every level of subcommands."""
    while True:
        subparsers = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        chosen = getattr(args, subparsers[0].dest, None) if subparsers else None
        if chosen is None:
            return parser
        parser = subparsers[0].choices[chosen]


def main(argv: list[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``) and return its exit status."""
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # named by the command's own parser, whose usage the line points to
        _command_parser(parser, args).error(f"unrecognized arguments: {' '.join(unknown)}")
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except DonutsError as exc:
        message = str(exc)
        for keyword, flag in KEYWORD_FLAGS.items():  # the library's messages name Python keywords
            message = message.replace(keyword, flag)
        parser.exit(2, f"donuts-ai: error: {message}\n")
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP during a run (tournament._shutdown.Stopped)
        signum = getattr(exc, "signum", signal.SIGINT)
        how = "interrupted" if signum == signal.SIGINT else f"stopped by {signal.Signals(signum).name}"
        parser.exit(128 + signum, f"\ndonuts-ai: {how}; finished games are in the results file (continue with --resume)\n")
    except BrokenPipeError:  # the reader went away (`donuts-ai game | head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
