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
import json
import random
import time
from collections import Counter

from .board import Board
from .errors import DonutsError
from .layout import NUM_ARRANGEMENTS, Layout
from .rules import Rules, make_rules
from .search.alphabeta import Solver
from .symmetry import SYMMETRY_NAMES
from .tournament.results import append_unit, open_results
from .tournament.runner import execute

_SOLVER: dict[int, Solver] = {}


def canonical_text(layout: Layout) -> str:
    """The least layout text among the layout's 8 symmetric images: equal for layouts
    that are the same game."""
    return min(layout.transform(sym).to_text() for sym in SYMMETRY_NAMES)


def study_layouts(arrangements: str | int | None = None, grids: int | None = None, seed: int = 0) -> list[dict]:
    """The layouts to solve, one per symmetry class, each with how many of the drawn
    layouts it stands for (``weight``)."""
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
    classes: dict[str, dict] = {}
    for layout in drawn:
        key = canonical_text(layout)
        entry = classes.setdefault(key, {"layout": key, "weight": 0, "kind": "arrangement" if layout.arrangement else "grid"})
        entry["weight"] += 1
    return [{"unit": i, **c} for i, c in enumerate(classes.values())]


def solve_unit(config: dict, unit: dict) -> dict:
    """Solve one layout's empty board (value, a best move; the distance if configured)."""
    solver = _SOLVER.get(config["tt_bits"])
    if solver is None:  # one Solver (and its table) per process, made on first use
        solver = _SOLVER[config["tt_bits"]] = Solver(config["tt_bits"])
    t = time.perf_counter()
    board = Board(Layout.from_text(unit["layout"]), make_rules(config.get("rules")))
    sol = solver.solve(board, distance=config["distance"])
    row = {**unit, "value": sol.value, "best_move": sol.best_move, "distance": sol.distance, "nodes": sol.nodes}
    if config.get("first_moves"):
        # The value of every first move (each a solve of its own: about 36 times the work).
        values = {mv: solver.move_value(board, mv) for mv in board.legal_moves()}
        row["winning_moves"] = [mv for mv, v in values.items() if v == 1]
        row["drawing_moves"] = [mv for mv, v in values.items() if v == 0]
        row["first_moves"] = len(values)
    solver.clear()  # the next layout is another game
    return {**row, "seconds": round(time.perf_counter() - t, 4)}


def run_study(arrangements=None, grids=None, seed=0, distance=False, results_path=None, resume=False, workers=1,
              backend="process", address=None, tt_bits=20, progress=None, first_moves=False,
              rules: Rules | None = None) -> tuple[dict, list[dict]]:
    """Solve the study's layouts; returns (config, solved units). With ``first_moves``
    each unit also lists its winning (and drawing) first moves, which costs one solve
    per legal first move. ``rules`` (a :class:`~donuts_ai.rules.Rules`, an insertion
    name or a mapping, see :func:`~donuts_ai.rules.make_rules`) plays a variant; the
    official rules by default.

    ``tt_bits=20`` (a 24 MiB table per worker): on 100 arrangement classes it searched 8%
    more nodes than 2**22 entries but took 6% less time (fewer cache and page misses)."""
    config = {"study": "first-player", "arrangements": arrangements, "grids": grids, "seed": seed, "distance": distance,
              "tt_bits": tt_bits}
    if first_moves:  # only when set: results files written before the option still resume
        config["first_moves"] = True
    rules = make_rules(rules)
    if rules != Rules():  # likewise: official-rules files written before variants still resume
        config["rules"] = {"insertion": rules.insertion, "donuts": rules.donuts}
    units = study_layouts(arrangements, grids, seed)
    done: list[dict] = []
    fh = None
    if results_path is not None:
        fh, done = open_results(results_path, config, resume, what="study")
    finished = {u["unit"] for u in done}
    todo = [u for u in units if u["unit"] not in finished]
    try:
        for unit in execute(solve_unit, config, todo, workers, backend, address):
            done.append(unit)
            if fh is not None:
                append_unit(fh, unit)
            if progress is not None:
                progress(len(done), len(units))
    finally:
        if fh is not None:
            fh.close()
    return config, sorted(done, key=lambda u: u["unit"])


def summary(units: list[dict]) -> dict:
    """Shares of first-player wins, draws and losses, weighted by how many drawn layouts
    each solved class stands for, per kind of layout."""
    out = {}
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


def load_study(path) -> tuple[dict, list[dict]]:
    """(config, units sorted by unit number) of a study results file, plain JSON lines or
    gzip-compressed (``.gz``), as :func:`run_study` writes it."""
    opener = gzip.open if str(path).endswith(".gz") else open
    config, units = None, []
    with opener(path, "rt", encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                raise DonutsError(f"{path}: line {number} is not JSON") from None
            if row.get("type") == "config":
                config = row["config"]
            elif row.get("type") == "unit":
                units.append({k: v for k, v in row.items() if k != "type"})
    if config is None:
        raise DonutsError(f"{path}: no config line; not a study results file")
    return config, sorted(units, key=lambda u: u["unit"])


def hardest(units: list[dict], count: int = 10) -> list[dict]:
    """The ``count`` layouts whose solve searched the most nodes, most first."""
    return sorted(units, key=lambda u: -u["nodes"])[:count]


def winning_move_counts(units: list[dict]) -> Counter:
    """How many layouts (weighted by the drawn layouts each class stands for) have 0, 1, 2...
    winning first moves; needs a study run with ``first_moves``."""
    counts: Counter = Counter()
    for u in units:
        if "winning_moves" not in u:
            raise DonutsError(f"unit {u['unit']} has no first-move values: run the study with first_moves")
        counts[len(u["winning_moves"])] += u["weight"]
    return counts
