"""Scheduling and running a tournament: units of games, seeds, workers, resume."""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import random
import sys
import time

from ..errors import DonutsError
from ..layout import Layout
from ..rules import Rules
from .game import ILLEGAL_POLICIES, play_game, score_of
from .results import Results, append_unit, open_results
from .specs import make_agent, resolve

FORMATS = ("round-robin", "gauntlet")
MODES = ("pairs", "duel", "team")
BACKENDS = ("process", "ray")


def parse_layouts(text: str) -> list[Layout]:
    """``standard``, ``random:SEED[:COUNT]`` (tile arrangements), ``grid:SEED[:COUNT]``
    (random direction grids), or a path to a file of layouts (6 lines each, separated
    by blank lines)."""
    if text == "standard":
        return [Layout.standard()]
    kind, _, rest = text.partition(":")
    if kind in ("random", "grid") and rest:
        seed_text, _, count_text = rest.partition(":")
        try:
            seed, count = int(seed_text), int(count_text or 1)
        except ValueError:
            raise DonutsError(f"bad layouts {text!r}: expected {kind}:SEED[:COUNT] with integers") from None
        if count < 1:
            raise DonutsError(f"bad layouts {text!r}: COUNT must be at least 1")
        make = Layout.random if kind == "random" else Layout.random_grid
        return [make(seed + i) for i in range(count)]
    try:
        with open(text, encoding="utf-8") as fh:
            blocks = [b for b in fh.read().split("\n\n") if b.strip()]
    except OSError as exc:
        raise DonutsError(f"cannot read layouts file {text!r}: {exc.strerror}") from None
    if not blocks:
        raise DonutsError(f"layouts file {text!r} holds no layout")
    try:
        return [Layout.from_text(b) for b in blocks]
    except DonutsError as exc:
        raise DonutsError(f"layouts file {text!r}: {exc}") from None


def _names(specs: list[str]) -> list[str]:
    names, seen = [], {}
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        names.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return names


def make_config(agents, format="round-robin", games=2, layouts=None, seed=0, mode="pairs", best_of=3, clock=None,
                illegal="lose", rules=None) -> dict:
    """Check every setting and return the tournament's configuration (what a results
    file records and ``--resume`` compares)."""
    agents = list(agents)
    for spec in agents:
        resolve(spec)
    if format not in FORMATS:
        raise DonutsError(f"unknown format {format!r}; expected one of {', '.join(FORMATS)}")
    if mode not in MODES:
        raise DonutsError(f"unknown mode {mode!r}; expected one of {', '.join(MODES)}")
    if mode == "team" and len(agents) != 4:
        raise DonutsError(f"a team battle needs 4 agents (Chocolate A, Vanilla A, Chocolate B, Vanilla B), got {len(agents)}")
    if mode != "team" and len(agents) < 2:
        raise DonutsError("a tournament needs at least 2 agents")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise DonutsError(f"games per pairing must be a positive int, got {games!r}")
    if mode == "duel" and best_of not in (1, 3, 5, 7):
        raise DonutsError(f"best_of must be 1, 3, 5 or 7, got {best_of!r}")
    if clock is not None and not (isinstance(clock, (int, float)) and clock > 0):
        raise DonutsError(f"clock must be a positive number of seconds, got {clock!r}")
    if illegal not in ILLEGAL_POLICIES:
        raise DonutsError(f"illegal-move policy must be one of {', '.join(ILLEGAL_POLICIES)}, got {illegal!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise DonutsError(f"seed must be an int, got {seed!r}")
    if layouts is None:
        layouts = [Layout.standard()]
    elif isinstance(layouts, str):
        layouts = parse_layouts(layouts)
    elif isinstance(layouts, Layout):
        layouts = [layouts]
    layouts = list(layouts)
    if not layouts or not all(isinstance(x, Layout) for x in layouts):
        raise DonutsError("layouts must be Layout objects or a layouts string")
    rules = rules or Rules()
    return {
        "agents": agents,
        "names": _names(agents),
        "format": format,
        "games": games,
        "layouts": [x.to_text() for x in layouts],
        "seed": seed,
        "mode": mode,
        "best_of": best_of if mode == "duel" else None,
        "clock": clock,
        "illegal": illegal,
        "rules": {"insertion": rules.insertion, "donuts": rules.donuts},
    }


def schedule(config: dict) -> list[dict]:
    """Every unit of the tournament, in a fixed order, each with its own seed."""
    names, specs = config["names"], config["agents"]
    rng = random.Random(config["seed"])
    if config["mode"] == "team":
        pairings = [(0, 1, 2, 3)]
    elif config["format"] == "gauntlet":
        pairings = [(0, j) for j in range(1, len(names))]
    else:
        pairings = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    per_pairing = config["games"] if config["mode"] == "duel" else (config["games"] + 1) // 2
    units = []
    for k in range(per_pairing):
        for seats in pairings:
            units.append({
                "unit": len(units),
                "seats": [specs[s] for s in seats],
                "names": [names[s] for s in seats],
                "layout": config["layouts"][k % len(config["layouts"])],
                "seed": rng.getrandbits(62),
            })
    return units


_AGENT_CACHE: dict[str, object] = {}


def _agent(spec: str):
    # One agent per spec and process: its tables are allocated once, and reset() with
    # the game's seed makes every game independent of what the process played before.
    if spec not in _AGENT_CACHE:
        _AGENT_CACHE[spec] = make_agent(spec)
    return _AGENT_CACHE[spec]


def play_unit(config: dict, unit: dict) -> dict:
    """Play one unit: a colour-swapped pair (pairs, team) or a best-of series (duel)."""
    layout = Layout.from_text(unit["layout"])
    rules = Rules(**config["rules"])
    specs, names = unit["seats"], unit["names"]
    games = []
    t = time.perf_counter()

    def game(order, seed):
        rec = play_game([_agent(specs[i]) for i in order], layout, rules, seed, config["clock"], config["illegal"])
        rec["names"] = [names[i] for i in order]
        games.append(rec)
        return rec

    if config["mode"] == "team":  # teams (0, 2) and (1, 3); the second game swaps team colours
        game([0, 1, 2, 3], unit["seed"])
        game([1, 0, 3, 2], unit["seed"] + 1)
    elif config["mode"] == "pairs":
        game([0, 1], unit["seed"])
        game([1, 0], unit["seed"] + 1)
    else:
        need, won = config["best_of"] // 2 + 1, [0.0, 0.0]
        for g in range(config["best_of"]):
            order = [0, 1] if g % 2 == 0 else [1, 0]
            rec = game(order, unit["seed"] + g)
            for seat, who in enumerate(order):
                won[who] += score_of(rec, seat)
            if max(won) >= need:
                break
    return {"unit": unit["unit"], "games": games, "seconds": round(time.perf_counter() - t, 3)}


class _Progress:
    """One line on stderr: units (pairs or series) done, games done, rate, time left."""

    def __init__(self, total: int, done: int, games: int, enabled: bool):
        self.total, self.done, self.games, self.enabled = total, done, games, enabled
        self.start, self.start_done = time.perf_counter(), done

    def update(self, games: int) -> None:
        self.done += 1
        self.games += games
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.start
        rate = (self.done - self.start_done) / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        width = 30
        filled = int(width * self.done / max(self.total, 1))
        eta = f"{left:5.0f}s" if left == left else "   --"
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} units, {self.games} games "
                         f"{rate:5.2f} units/s  ETA {eta} ")
        if self.done >= self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def iter_process(fn, config, units, workers):
    """``fn(config, unit)`` for every unit over a pool of ``workers`` processes, in
    completion order."""
    ctx = multiprocessing.get_context("spawn")  # Numba's threads do not survive fork
    with cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        futures = [pool.submit(fn, config, u) for u in units]
        try:
            for fut in cf.as_completed(futures):
                yield fut.result()
        except BaseException:
            for fut in futures:
                fut.cancel()
            raise


def iter_ray(fn, config, units, workers, address):
    """``fn(config, unit)`` for every unit as Ray tasks (a cluster at ``address``, else a
    local Ray instance started and stopped here), in completion order."""
    try:
        import ray
    except ImportError:
        raise DonutsError("the ray backend needs Ray: pip install 'donuts_ai[ray]'") from None
    started = False
    if not ray.is_initialized():
        kwargs = {"address": address} if address else {"num_cpus": workers}
        ray.init(include_dashboard=False, log_to_driver=False, **kwargs)
        started = True
    try:
        remote = ray.remote(num_cpus=1)(fn)
        pending = [remote.remote(config, u) for u in units]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        if started:
            ray.shutdown()


def execute(fn, config, units, workers, backend="process", address=None):
    """The results of ``fn(config, unit)`` for ``units`` on the chosen backend."""
    if backend == "ray":
        return iter_ray(fn, config, units, workers, address)
    if workers == 1 or len(units) <= 1:
        return (fn(config, u) for u in units)
    return iter_process(fn, config, units, workers)


def run(agents, format="round-robin", games=2, layouts=None, seed=0, mode="pairs", best_of=3, clock=None,
        illegal="lose", rules=None, workers=None, backend="process", address=None, results_path=None,
        resume=False, progress=False) -> Results:
    """Run a tournament and return its :class:`Results`.

    ``agents`` are specs (``"mcts:time=0.1"``, ``"random:seed=3"``, ``"pkg.mod:Class"``);
    every pairing plays ``games`` games (pairs mode: in colour-swapped pairs on the same
    layout, so ``games`` is rounded up to even), cycling through ``layouts``. ``mode``
    is ``"pairs"``, ``"duel"`` (best-of-``best_of`` series, first player alternating)
    or ``"team"`` (4 agents, 2v2). ``clock`` makes it blitz (seconds per seat per game).
    ``workers`` processes (default: all cores; 1 runs in this process) or
    ``backend="ray"`` (``address`` of a cluster, else a local Ray instance). Every unit
    is seeded from ``seed``: a rerun plays the same games whatever the number of
    workers (for agents whose moves do not depend on timing). With ``results_path``
    every finished unit is appended and fsynced; ``resume=True`` continues that file.
    """
    config = make_config(agents, format, games, layouts, seed, mode, best_of, clock, illegal, rules)
    if backend not in BACKENDS:
        raise DonutsError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise DonutsError(f"workers must be a positive int, got {workers!r}")
    units = schedule(config)
    results = Results(config)
    fh = None
    if results_path is not None:
        fh, results.units = open_results(results_path, config, resume)
    done = {u["unit"] for u in results.units}
    todo = [u for u in units if u["unit"] not in done]
    bar = _Progress(len(units), len(done), sum(len(u["games"]) for u in results.units), progress)
    try:
        stream = execute(play_unit, config, todo, workers, backend, address)
        for unit in stream:
            results.units.append(unit)
            if fh is not None:
                append_unit(fh, unit)
            bar.update(len(unit["games"]))
    finally:
        if fh is not None:
            fh.close()
    results.units.sort(key=lambda u: u["unit"])
    return results
