"""The study "who wins Donuts?": solve the empty board of many layouts.

``donuts-ai study first-player`` solves the empty board of every tile arrangement
(``--arrangements all``: 4!·8⁴ = 98,304, fewer after merging arrangements that are
images of each other under the board's 8 symmetries, since those are the same game),
a seeded sample of them (``--arrangements N``), or ``--grids N`` uniformly random
direction grids. Each solved layout is appended to a results file as it finishes
(same format and guarantees as tournament results: fsync, ``--resume``), over a
process pool or a Ray cluster (``--backend ray --address ...``).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import time
import zlib
from collections import Counter
from collections.abc import Sequence
from importlib import metadata
from os import PathLike
from pathlib import Path
from typing import Any, NotRequired, TypedDict, Unpack, cast

from ._checks import check_int
from .donuts.alphabeta import Solver
from .donuts.board import Board
from .donuts.book import Book
from .donuts.canonical import canonical_layout_text as canonical_text  # re-exported: the study's name of a layout class
from .donuts.layout import NUM_ARRANGEMENTS, Layout
from .donuts.rules import Rules, RulesDict, make_rules
from .errors import DonutsError
from .tournament.backends import execute
from .tournament.config import STUDY_FIELDS, HarnessConfig, Settings, resolve
from .tournament.progress import ProgressBar
from .tournament.results import append_unit, each_unit_once, results_file

_SOLVER: dict[int, Solver] = {}


#: A variant's rules in a study's configuration: the rules' one dict form.
StudyRules = RulesDict


class StudyConfig(TypedDict):
    """A study's settings (:func:`run_study`): the first line of its results file, what
    ``--resume`` compares. ``first_moves`` and ``rules`` are only set when used, so that
    files written before those options still resume."""

    study: str
    arrangements: str | int | None
    grids: int | None
    seed: int
    distance: bool
    tt_bits: int
    first_moves: NotRequired[bool]
    rules: NotRequired[StudyRules]


class StudyLayout(TypedDict):
    """A layout to solve (:func:`study_layouts`): one symmetry class, its canonical
    ``layout`` text, how many drawn layouts it stands for (``weight``) and their ``kind``
    (``"arrangement"`` or ``"grid"``)."""

    unit: int
    layout: str
    weight: int
    kind: str


class _Solved(StudyLayout):
    value: int
    best_move: str
    distance: int | None
    nodes: int
    winning_moves: NotRequired[list[str]]
    drawing_moves: NotRequired[list[str]]
    first_moves: NotRequired[int]


class StudyRow(_Solved):
    """A solved layout (:func:`solve_unit`): the empty board's ``value`` for the first
    player (+1, 0, -1), a ``best_move``, the ``distance`` (when solved), the ``nodes``
    searched; with ``first_moves`` its winning and drawing first moves and how many it
    has; the ``seconds`` it took."""

    seconds: float


class StudySummary(TypedDict):
    """One kind of layout in :func:`summary`."""

    layouts: int
    classes: int
    first_player_wins: float
    draws: float
    second_player_wins: float
    solve_seconds_total: float
    solve_seconds_median: float
    solve_seconds_max: float


def study_layouts(arrangements: str | int | None = None, grids: int | None = None, seed: int = 0) -> list[StudyLayout]:
    """The layouts to solve, one per symmetry class, each with how many of the drawn layouts it
    stands for (``weight``).

    Args:
        arrangements: the tile arrangements: ``"all"`` or how many to sample (``None``: none).
        grids: how many random direction grids to draw (``None``: none).
        seed: which arrangements are sampled, which grids drawn.
    """
    seed = check_int("seed", seed)
    drawn: list[Layout] = []
    if arrangements is not None:
        all_arr = list(Layout.arrangements())
        if arrangements == "all":
            chosen = all_arr
        else:
            count = int(arrangements)
            if not 1 <= count <= NUM_ARRANGEMENTS:
                raise DonutsError(f"--arrangements must be 'all' or 1..{NUM_ARRANGEMENTS}, got {arrangements!r}")
            chosen = random.Random(seed).sample(all_arr, count)
        drawn += [Layout.from_tiles(a) for a in chosen]
    if grids is not None:
        if grids < 1:
            raise DonutsError(f"--grids must be a positive int, got {grids}")
        drawn += [Layout.random_grid(seed * 1_000_003 + i) for i in range(grids)]
    if not drawn:
        raise DonutsError("nothing to solve: give --arrangements and/or --grids")
    classes: dict[str, tuple[str, int, str]] = {}  # canonical text -> (text, weight, kind)
    for layout in drawn:
        key = canonical_text(layout)
        text, weight, kind = classes.get(key, (key, 0, "arrangement" if layout.arrangement else "grid"))
        classes[key] = (text, weight + 1, kind)
    return [{"unit": i, "layout": text, "weight": weight, "kind": kind} for i, (text, weight, kind) in enumerate(classes.values())]


def solve_unit(config: StudyConfig, unit: StudyLayout) -> StudyRow:
    """Solve one layout's empty board (value, a best move; the distance if configured).

    Args:
        config: the study's settings.
        unit: the layout.
    """
    solver = _SOLVER.get(config["tt_bits"])
    if solver is None:  # one Solver (and its table) per process, made on first use
        solver = _SOLVER[config["tt_bits"]] = Solver(config["tt_bits"], book=False)  # a study searches: it makes books
    t, nodes = time.perf_counter(), solver.nodes
    board = Board(Layout.from_text(unit["layout"]), make_rules(config.get("rules")))
    values: dict[str, int] = {}
    if config.get("first_moves"):
        # The value of every first move, each a proof of its own (about 36 times the board's
        # work): the board's value is its best move's, so without the distance the board itself
        # is not searched (a book built from the study without first moves checks it).
        values = solver.move_values(board)
    if values and not config["distance"]:
        value = max(values.values())
        best, distance = next(mv for mv, v in values.items() if v == value), None
    else:
        sol = solver.solve(board, distance=config["distance"])
        value, best, distance = sol.value, sol.best_move, sol.distance
    row: _Solved = {"unit": unit["unit"], "layout": unit["layout"], "weight": unit["weight"], "kind": unit["kind"],
                    "value": value, "best_move": best, "distance": distance, "nodes": solver.nodes - nodes}
    if values:
        row["winning_moves"] = [mv for mv, v in values.items() if v == 1]
        row["drawing_moves"] = [mv for mv, v in values.items() if v == 0]
        row["first_moves"] = len(values)
    solver.clear()  # the next layout is another game
    return {**row, "seconds": round(time.perf_counter() - t, 4)}


#: The study's default transposition table: ``tt_bits=20`` (a 24 MiB table per worker): on
#: 100 arrangement classes it searched 8% more nodes than 2**22 entries but took 6% less
#: time (fewer cache and page misses). With ``first_moves`` and no distance (each search
#: smaller) smaller tables are faster still: ``make first-moves`` passes its own
#: (the Makefile says what was measured).
DEFAULT_TT_BITS = 20


def run_study(arrangements: str | int | None = None, grids: int | None = None, *, distance: bool = False,
              tt_bits: int = DEFAULT_TT_BITS, first_moves: bool = False, config: HarnessConfig | None = None,
              **settings: Unpack[Settings]) -> tuple[StudyConfig, list[StudyRow]]:
    """Solve the study's layouts.

    The harness's settings come as keywords or as a :class:`~donuts_ai.tournament.HarnessConfig`
    (``config=``), as for a tournament; a study uses ``seed`` (which arrangements are sampled,
    which grids drawn), ``rules`` (a variant, as :func:`~donuts_ai.donuts.rules.make_rules`
    takes it; the official rules by default), ``workers`` (default 1), ``backend``,
    ``address``, ``results_path``, ``resume`` and ``progress`` (a callable, called with
    ``(layouts solved, layouts)``; ``True``: a bar), and refuses the others.

    Args:
        arrangements: the tile arrangements: ``"all"`` or how many to sample.
        grids: how many random direction grids to draw.
        distance: also find how long the win (or loss) takes.
        tt_bits: sizes each worker's transposition table (:data:`DEFAULT_TT_BITS`), 10 to 30.
            It changes the speed, never an answer, so a resume may change it: the file
            records the change in a line of its own (``retuned``).
        first_moves: each unit also lists its winning (and drawing) first moves, which costs
            one solve per legal first move.
        config: the harness's settings.
        settings: the harness's settings as keywords.

    Returns:
        ``(config, solved units)``.
    """
    harness = resolve(config, None, settings, entry="run_study", uses=STUDY_FIELDS)
    check_int("tt_bits", tt_bits, 10, 30)
    if harness.game not in (None, "donuts"):
        raise DonutsError(f"the study solves Donuts layouts, not {harness.game!r} games")
    seed, workers = harness.seed, 1 if harness.workers is None else harness.workers
    config_line: StudyConfig = {"study": "first-player", "arrangements": arrangements, "grids": grids, "seed": seed,
                                "distance": distance, "tt_bits": tt_bits}
    if first_moves:  # only when set: results files written before the option still resume
        config_line["first_moves"] = True
    played = make_rules(harness.rules)  # type: ignore[arg-type]  # make_rules checks what it is given
    if played != Rules():  # likewise: official-rules files written before variants still resume
        config_line["rules"] = played.to_dict()
    units = study_layouts(arrangements, grids, seed)
    with results_file(harness.results_path, config_line, harness.resume, what="study", speed_settings=("tt_bits",)) as (fh, rows):
        done = cast(list[StudyRow], rows)  # the unit lines solve_unit wrote (the configuration matched)
        finished = {u["unit"] for u in done}
        todo = [u for u in units if u["unit"] not in finished]
        with ProgressBar(len(units), len(finished), harness.progress, desc="study", unit="layout") as bar:
            for unit in execute(solve_unit, config_line, todo, workers, harness.backend, harness.address):
                done.append(unit)
                if fh is not None:
                    append_unit(fh, unit)
                bar.update()
    return config_line, sorted(done, key=lambda u: u["unit"])


def summary(units: list[StudyRow]) -> dict[str, StudySummary]:
    """Shares of first-player wins, draws and losses, weighted by how many drawn layouts each
    solved class stands for, per kind of layout.

    Args:
        units: the solved units.
    """
    out: dict[str, StudySummary] = {}
    for kind in ("arrangement", "grid"):
        rows = [u for u in units if u["kind"] == kind]
        if not rows:
            continue
        total = sum(u["weight"] for u in rows)
        counts = {v: sum(u["weight"] for u in rows if u["value"] == v) for v in (1, 0, -1)}
        secs = sorted(u["seconds"] for u in rows)
        out[kind] = {"layouts": total, "classes": len(rows), "first_player_wins": counts[1] / total,
                     "draws": counts[0] / total, "second_player_wins": counts[-1] / total,
                     "solve_seconds_total": sum(secs), "solve_seconds_median": secs[len(secs) // 2], "solve_seconds_max": secs[-1]}
    return out


def load_study(path: str | PathLike[str]) -> tuple[StudyConfig, list[StudyRow]]:
    """A study results file, plain JSON lines or gzip-compressed (``.gz``), as :func:`run_study`
    writes it.

    Args:
        path: the file.

    Returns:
        ``(config, units sorted by unit number)``.
    """
    config: StudyConfig | None = None
    records: list[dict[str, Any]] = []
    try:
        with (gzip.open(path, "rt", encoding="utf-8") if str(path).endswith(".gz") else open(path, encoding="utf-8")) as fh:
            for number, line in enumerate(fh, 1):
                try:
                    row = json.loads(line)
                except json.JSONDecodeError:
                    raise DonutsError(f"{path}: line {number} is not JSON") from None
                if not isinstance(row, dict):
                    raise DonutsError(f"{path}: line {number} is not a JSON object")
                if row.get("type") == "config":
                    config = row["config"]
                else:
                    records.append(row)
    except (OSError, EOFError, UnicodeDecodeError, zlib.error) as exc:  # missing, unreadable, not gzip, damaged, cut off, not text
        raise DonutsError(f"cannot read the study file {str(path)!r}: {getattr(exc, 'strerror', None) or exc}") from None
    if not isinstance(config, dict) or "study" not in config:
        raise DonutsError(f"{path}: no study's config line; not a study results file")
    # A unit line as solve_unit wrote it, less its "type"; a unit repeated is counted once.
    units = [cast(StudyRow, {k: v for k, v in row.items() if k != "type"}) for row in each_unit_once(str(path), records)]
    return config, sorted(units, key=lambda u: u["unit"])


def hardest(units: list[StudyRow], count: int = 10) -> list[StudyRow]:
    """The ``count`` layouts whose solve searched the most nodes, most first.

    Args:
        units: the solved units.
        count: how many.
    """
    return sorted(units, key=lambda u: -u["nodes"])[:count]


def winning_move_counts(units: list[StudyRow]) -> Counter[int]:
    """How many layouts (weighted by the drawn layouts each class stands for) have 0, 1, 2...
    winning first moves; needs a study run with ``first_moves``.

    Args:
        units: the solved units.
    """
    counts: Counter[int] = Counter()
    for u in units:
        if "winning_moves" not in u:
            raise DonutsError(f"unit {u['unit']} has no first-move values: run the study with first_moves")
        counts[len(u["winning_moves"])] += u["weight"]
    return counts


#: The studies of every class's empty board (``notebooks/``), one per variant the book serves.
ARRANGEMENT_STUDIES = ("study_all_arrangements.jsonl.gz", "study_all_arrangements_donuts18.jsonl.gz",
                       "study_all_arrangements_single.jsonl.gz")
#: The studies of the first moves' values: a sample of 50 official classes, and the runs over
#: every class of each variant that ``make first-moves`` grows, in pieces.
FIRST_MOVE_STUDIES = ("study_first_moves.jsonl", "study_first_moves_all.jsonl", "study_first_moves_all_donuts18.jsonl",
                      "study_first_moves_all_single.jsonl")
#: The studies the shipped book is built from, in order.
BOOK_STUDIES = ARRANGEMENT_STUDIES + FIRST_MOVE_STUDIES


def build_book(paths: Sequence[str | PathLike[str]], base: Book | None = None) -> Book:
    """A :class:`~donuts_ai.donuts.book.Book` of the empty boards the study files solved (each
    under its own rules). Each variant records where its entries came from: the study file's
    name, its SHA-256, its configuration and its solved classes.

    Args:
        paths: the study files.
        base: a book to add them to (say the shipped book, to extend it with a study of one's
            own).
    """
    book = base or Book()
    for path in paths:
        config, rows = load_study(path)
        if config.get("study") != "first-player":
            raise DonutsError(f"{path}: a book is built from first-player studies, not {config.get('study')!r}")
        source = {"study": Path(path).name, "sha256": hashlib.sha256(Path(path).read_bytes()).hexdigest(),
                  "config": dict(config), "classes": len(rows), "built_by": f"donuts_ai {metadata.version('donuts_ai')}"}
        book = Book.from_rows(config.get("rules"), rows, source, base=book)
    return book
