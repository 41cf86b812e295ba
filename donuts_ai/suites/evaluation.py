"""An agent's accuracy against perfect play: :func:`evaluate`, and ``donuts-ai evaluate``.

    from donuts_ai import evaluate
    result = evaluate(["greedy", "alphabeta:time=0.1"], suite="critical", limit=100)
    print(result.table())

Every agent is asked for its move on every position of the suites (:mod:`.format`; with
``limit``, on ``limit`` positions of each drawn by :meth:`~.format.Suite.sample`), and the
move is checked against the labels: did it keep the value, was it a fastest win
(:mod:`.report`). The agents are seated as a tournament seats them: by default each in a
supervised process of its own, so an exception, an illegal move, a hang past the move
limit or a crash costs that position, never the run. Before each position the agent is
reset with a seed drawn from ``seed`` and the position alone, so a run gives the same
moves whatever the order, the workers or a resume (for agents whose moves do not depend
on timing). A seat's first question is a warm-up that is not scored.

The positions are shared out in units of :data:`UNIT_POSITIONS` positions of one agent,
run here, over processes or as Ray tasks (:class:`EvaluationSettings`). With
``results_path`` every finished unit is appended to a JSON-lines file, and ``resume=True``
continues it; a file of other settings is refused and left unchanged."""

from __future__ import annotations

import inspect
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict, cast

from .._checks import check_int, check_seconds
from ..donuts.board import Board
from ..errors import DonutsError
from ..game import Game, get_game, legal_move
from ..tournament import stops_cleanly
from ..tournament.agent_source import AgentSource
from ..tournament.backends import execute
from ..tournament.config import check_backend, checked_results_path
from ..tournament.entries import as_recorded, names_of, seat_for, sources_of
from ..tournament.match import ISOLATIONS
from ..tournament.preflight import preflight
from ..tournament.progress import ProgressBar
from ..tournament.records import EventKind
from ..tournament.results import ResultsFileError, append_unit, first_config, results_file
from ..tournament.seat_cache import close_seats, new_run, seat_keys, take_seats
from ..tournament.seats import Answer, Seat
from ..tournament.specs import SpecError, is_engine_spec, parse_engine_spec, resolve
from .format import PHASES, Suite, load_suite, parse_position
from .report import Answered, Scores, plot, score, table

#: The game the suites are of.
GAME = "donuts"
#: The suite :func:`evaluate` uses when none is named.
DEFAULT_SUITE = "middlegame"
#: Positions of one agent in one unit of work (one line of a results file).
UNIT_POSITIONS = 25
#: Seconds one answer may take before it costs its position (``time``): generous, since
#: the exact solver thinks for seconds on the first plies.
DEFAULT_MOVE_LIMIT = 60.0
#: Characters of a failure's detail kept in a results file.
DETAIL_CHARS = 400
#: The results file's format (the ``format`` of its settings). 2: ``limit`` draws the
#: positions across the suite (:meth:`~.format.Suite.sample`), recorded with ``limit`` and
#: each suite's ``total``; 1 took each suite's first positions.
RESULTS_FORMAT = 2
#: The seed of a new seat's warm-up question (see :func:`_seat`).
WARM_UP_SEED = 0

#: An agent as :func:`evaluate` takes it: a spec, an agent object, or an agent class.
AgentArg = Any


class SuiteRecord(TypedDict):
    """A suite as a results file records it: ``name``, ``sha256`` of its text, the number
    of ``positions`` evaluated and the ``total`` it holds (the positions evaluated are
    :meth:`~.format.Suite.sample` ``(config["limit"], config["seed"])`` of it: all of them
    without a limit). An answer's ``index`` is its position's among those evaluated."""

    name: str
    sha256: str
    positions: int
    total: int


class EvaluationConfig(TypedDict):
    """The settings of an evaluation (a results file's first line; ``resume`` compares them)."""

    kind: str
    format: int
    game: str
    agents: list[str]
    names: list[str]
    suites: list[SuiteRecord]
    limit: int | None
    time: float | None
    seed: int
    move_limit: float
    isolation: str
    unit_positions: int


class EvaluationUnit(TypedDict):
    """A unit of work: agent ``agent`` on the positions (index, line, seed) of suite ``suite``."""

    unit: int
    agent: int
    suite: str
    positions: list[tuple[int, str, int]]


class UnitResult(TypedDict):
    """A finished unit (a results file's unit line): every position's :class:`~.report.Answered`."""

    unit: int
    agent: int
    suite: str
    answers: list[Answered]


class _Work(TypedDict):
    """What a worker needs: the agents' sources (specs with the time applied, objects:
    :mod:`donuts_ai.tournament.entries`), how to seat them, and a token of the run (a worker
    that outlives a run, a Ray cluster's, never seats an earlier run's agent)."""

    agents: list[AgentSource]
    isolation: str
    move_limit: float
    run: str


# --- agents ---------------------------------------------------------------------------


def with_time(spec: str, seconds: float | None, game: Game[Any] | str = GAME) -> str:
    """``spec`` with a time a move of ``seconds`` when it gives none and its agent takes
    one (``time_limit``, or ``time``; an engine: ``go.movetime``); otherwise ``spec``."""
    if seconds is None:
        return spec
    if is_engine_spec(spec):
        if any(key == "movetime" for key, _ in parse_engine_spec(spec).go):
            return spec
        return f"{spec},go.movetime={max(1, round(seconds * 1000))}"
    cls, params = resolve(spec, game)
    if "time_limit" in params or "time" in params:
        return spec
    try:
        accepted = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return spec
    if "time_limit" not in accepted and "time" not in accepted:
        return spec
    for candidate in (f"{spec},time={seconds:g}", f"{spec}:time={seconds:g}"):
        try:
            _, got = resolve(candidate, game)
        except SpecError:
            continue
        if got.get("time_limit", got.get("time")) == seconds:
            return candidate
    return spec


def _agents(agents: AgentArg | Sequence[AgentArg]) -> list[AgentArg]:
    items = list(agents) if isinstance(agents, list | tuple) else [agents]
    if not items:
        raise DonutsError("evaluate needs at least one agent")
    return items


# --- seats ----------------------------------------------------------------------------


def _seat(work: _Work, index: int, game: Game[Any], warm_up: Board) -> Seat:
    """Agent ``index``'s seat in this process, from the harness's one seat cache
    (:mod:`donuts_ai.tournament.seat_cache`: made on first use and kept, at most
    ``MAX_SEATS``, the least recently used closed first; an earlier run's seats closed).
    A new seat first answers one question on ``warm_up``, not scored, so that one-off
    loading (imports, compiled code a first move loads) is not charged to a move."""
    source = work["agents"][index]

    def new_seat(key: object) -> Seat:
        seat = seat_for(source, work["isolation"], game)  # seated as tournaments seat it
        ask(seat, game, warm_up, -1, WARM_UP_SEED, work["move_limit"])  # its answer, or its failure, is not kept
        return seat

    return take_seats(work["run"], seat_keys(game.name, [source.record], work["isolation"]), new_seat)[0]


# --- one position, one unit -----------------------------------------------------------


def _failed(index: int, answer: Answer) -> Answered:
    assert answer.kind is not None
    return {"index": index, "move": None, "seconds": answer.seconds, "nodes": None, "event": str(answer.kind),
            "detail": answer.detail[-DETAIL_CHARS:]}


def ask(seat: Seat, game: Game[Any], board: Board, index: int, seed: int, move_limit: float) -> Answered:
    """The seat's answer on ``board`` (a position not over), reset with ``seed`` first."""
    failure = seat.reset(seed)
    if failure is not None:
        return _failed(index, failure)
    side = board.turn
    assert side is not None  # suite positions are not over
    answer = seat.ask(game, board, side, None, move_limit)
    if answer.kind is not None:
        return _failed(index, answer)
    move = legal_move(game, board, answer.move)
    if move is None:
        shown = answer.move if isinstance(answer.move, str) else repr(answer.move)
        return {"index": index, "move": shown[:DETAIL_CHARS], "seconds": answer.seconds, "nodes": answer.nodes,
                "event": str(EventKind.ILLEGAL), "detail": f"not a legal move: {shown[:DETAIL_CHARS]}"}
    return {"index": index, "move": move, "seconds": answer.seconds, "nodes": answer.nodes, "event": None}


def play_unit(work: _Work, unit: EvaluationUnit) -> UnitResult:
    """Ask agent ``unit["agent"]`` for its move on every position of the unit."""
    game = get_game(GAME)
    boards = [parse_position(line).board() for _, line, _ in unit["positions"]]
    seat = _seat(work, unit["agent"], game, boards[0])
    answers = [ask(seat, game, board, index, seed, work["move_limit"])
               for board, (index, _, seed) in zip(boards, unit["positions"], strict=True)]
    return {"unit": unit["unit"], "agent": unit["agent"], "suite": unit["suite"], "answers": answers}


def position_seed(seed: int, suite: str, index: int) -> int:
    """The seed an agent is reset with before position ``index`` of ``suite``."""
    return random.Random(f"donuts-evaluate:{seed}:{suite}:{index}").getrandbits(62)


def schedule(config: EvaluationConfig, suites: Mapping[str, Suite]) -> list[EvaluationUnit]:
    """Every unit of the evaluation, in a fixed order: per suite and block of positions, each agent."""
    units: list[EvaluationUnit] = []
    size = config["unit_positions"]
    for record in config["suites"]:
        suite = suites[record["name"]]
        for start in range(0, record["positions"], size):
            block = [(i, suite.positions[i].line(), position_seed(config["seed"], suite.name, i))
                     for i in range(start, min(start + size, record["positions"]))]
            for agent in range(len(config["agents"])):
                units.append({"unit": len(units), "agent": agent, "suite": suite.name, "positions": block})
    return units


# --- the result -----------------------------------------------------------------------


@dataclass
class Evaluation:
    """The result of :func:`evaluate`: the ``config`` (settings, as a results file's
    first line), the ``suites`` evaluated (by name: the positions evaluated, a sample of
    each suite with ``limit``) and every agent's ``answers`` (by agent name, then suite
    name, in position order; an answer's ``index`` is its position's in ``suites[name]``)."""

    config: EvaluationConfig
    suites: dict[str, Suite]
    answers: dict[str, dict[str, list[Answered]]] = field(default_factory=dict)

    @property
    def agents(self) -> list[str]:
        """The agents' names, in the order given."""
        return list(self.config["names"])

    def scores(self) -> dict[str, dict[str, Scores]]:
        """Per agent name and suite name, its :class:`~.report.Scores`."""
        return {agent: {name: score(self.suites[name], answers) for name, answers in by_suite.items()}
                for agent, by_suite in self.answers.items()}

    def _totals(self) -> dict[str, int]:
        return {r["name"]: r["total"] for r in self.config["suites"]}

    def table(self) -> str:
        """The scores as a text table, one block per suite, saying which positions were
        evaluated (how many of the suite's, their plies and phases), and what the columns
        mean under it (see :func:`~.report.table`)."""
        sampled = self.config["limit"] is not None
        return table(self.suites, self.scores(), self._totals(), self.config["seed"] if sampled else None)

    def to_json(self) -> dict[str, object]:
        """The settings, each suite's counts (of the positions evaluated: ``positions`` of
        the suite's ``total``, how many ``winning`` and ``critical``, and per ``phases``
        and ``plies`` how many), and per agent and suite its scores."""
        totals = self._totals()
        suites = {}
        for name, s in self.suites.items():
            phases, plies = Counter(p.phase for p in s.positions), Counter(p.ply for p in s.positions)
            suites[name] = {"positions": len(s.positions), "total": totals.get(name, len(s.positions)), "sha256": s.sha256,
                            "winning": sum(p.value == 1 for p in s.positions), "critical": sum(p.critical for p in s.positions),
                            "phases": [{"phase": phase, "positions": phases[phase]} for phase in PHASES if phases[phase]],
                            "plies": [{"ply": ply, "positions": n} for ply, n in sorted(plies.items())]}
        return {"config": dict(self.config), "suites": suites, "agents": self.scores()}

    def plot(self, path: str) -> None:
        """Draw the accuracy by ply, one line per agent (see :func:`~.report.plot`)."""
        plot(self.scores(), path)


# --- evaluate -------------------------------------------------------------------------


def _check_game(game: Game[Any] | str) -> None:
    """Refuse, with one line, a game that has no labelled suites: every game but Donuts
    (an unknown name: the table of games' own error, naming the games it knows)."""
    name = get_game(game).name
    if name != GAME:
        raise DonutsError(f"evaluate needs labelled positions with exact values; they exist for {GAME} only, not for {name}")


def _suites(suite: object, limit: int | None, seed: int) -> tuple[dict[str, Suite], dict[str, int]]:
    """The positions to evaluate of every suite (``limit`` of each drawn across it from
    ``seed``: :meth:`~.format.Suite.sample`), by name, and each whole suite's size."""
    items = list(suite) if isinstance(suite, list | tuple) else [suite]
    if not items:
        raise DonutsError("evaluate needs at least one suite")
    suites: dict[str, Suite] = {}
    totals: dict[str, int] = {}
    for item in items:
        whole = load_suite(item)
        if whole.name in suites:
            raise DonutsError(f"suite {whole.name!r} is named twice")
        if not whole.positions:
            raise DonutsError(f"suite {whole.name!r} has no positions")
        suites[whole.name], totals[whole.name] = whole.sample(limit, seed), len(whole)
    return suites, totals


def make_config(agents: Sequence[AgentArg], suites: Mapping[str, Suite], time: float | None, seed: int, move_limit: float,
                isolation: str, *, limit: int | None = None,
                totals: Mapping[str, int] | None = None) -> tuple[EvaluationConfig, list[AgentSource]]:
    """The checked settings, and the agents as seated (specs with ``time`` applied), as
    the harness carries them (:mod:`donuts_ai.tournament.entries`: an object that cannot
    travel to its seat process is refused here). ``suites`` are the positions evaluated:
    with a ``limit``, each drawn from a whole suite of ``totals[name]`` positions."""
    time = check_seconds("time", time)
    move_limit = check_seconds("move_limit", move_limit, allow_none=False)
    seed = check_int("seed", seed)
    if isolation not in ISOLATIONS:
        raise DonutsError(f"isolation must be one of {', '.join(ISOLATIONS)}, got {isolation!r}")
    # A bad spec, or an object that cannot travel, is refused before anything runs.
    seated = sources_of([with_time(a, time) if isinstance(a, str) else a for a in agents], GAME)
    config: EvaluationConfig = {
        "kind": "evaluation", "format": RESULTS_FORMAT, "game": GAME,
        "agents": [a.record for a in seated], "names": names_of(seated),
        "suites": [{"name": s.name, "sha256": s.sha256, "positions": len(s),
                    "total": len(s) if totals is None else totals.get(s.name, len(s))} for s in suites.values()],
        "limit": limit, "time": time, "seed": int(seed), "move_limit": move_limit, "isolation": isolation, "unit_positions": UNIT_POSITIONS,
    }
    return config, seated


def _read_units(lines: list[dict[str, Any]], path: str, units: Sequence[EvaluationUnit]) -> list[UnitResult]:
    """The finished units of a results file's unit lines, each checked against the unit of
    the schedule it names (agent, suite, positions); :class:`ResultsFileError` names the first bad line."""
    out: list[UnitResult] = []
    for line, u in enumerate(lines, start=2):
        try:
            answers = [cast(Answered, {**a, "index": int(a["index"]), "event": a["event"], "move": a["move"],
                                       "seconds": float(a["seconds"]), "nodes": a["nodes"]}) for a in u["answers"]]
            result: UnitResult = {"unit": int(u["unit"]), "agent": int(u["agent"]), "suite": str(u["suite"]), "answers": answers}
        except (KeyError, TypeError, ValueError):
            raise ResultsFileError(f"{path}: line {line} is not a unit of an evaluation") from None
        unit = units[result["unit"]] if 0 <= result["unit"] < len(units) else None
        if (unit is None or (unit["agent"], unit["suite"]) != (result["agent"], result["suite"])
                or [a["index"] for a in answers] != [i for i, _, _ in unit["positions"]]):
            raise ResultsFileError(f"{path}: line {line} is not a unit of this evaluation's schedule")
        out.append(result)
    return out


@dataclass(frozen=True)
class EvaluationSettings:
    """How :func:`evaluate` runs: where the agents sit and the work goes.

    Attributes:
        workers: processes the positions are shared out over (1: this process).
        backend: ``"process"`` (a pool of local processes) or ``"ray"``.
        address: the Ray cluster's address with ``backend="ray"``; ``None``: a local Ray.
        isolation: ``"process"`` (each agent in a supervised process of its own) or
            ``"none"`` (spec agents called as objects in the worker: faster, unsupervised).
        move_limit: seconds one answer may take before it costs its position.
        progress: draw a progress bar (:mod:`~donuts_ai.tournament.progress`).
    """

    workers: int = 1
    backend: str = "process"
    address: str | None = None
    isolation: str = "process"
    move_limit: float = DEFAULT_MOVE_LIMIT
    progress: bool = False


@stops_cleanly  # SIGTERM and SIGHUP stop it as Ctrl-C does: every seat is closed
def evaluate(agents: AgentArg | Sequence[AgentArg], suite: object = DEFAULT_SUITE, time: float | None = None, *,
             limit: int | None = None, seed: int = 0, results_path: str | None = None, resume: bool = False,
             game: Game[Any] | str = GAME, settings: EvaluationSettings | None = None) -> Evaluation:
    """Every agent's moves on every position of the suites, checked against perfect play
    (see the module doc).

    Every seat first answers one question that is not scored (a warm-up: one-off loading
    is not charged to a move).

    Args:
        agents: one agent or a list of them: specs (``"greedy"``, ``"mcts:time=0.1"``,
            ``"pkg.mod:Class"``, ``"engine:./my_engine"``, ``"az"``), agent objects, or agent
            classes, each seated as tournaments seat it (:mod:`donuts_ai.tournament.entries`).
        suite: a name of :data:`~.format.SUITE_NAMES`, a suite file's path, a
            :class:`~.format.Suite`, or a list of them.
        time: seconds a move, given to every spec that sets no time of its own and whose
            agent takes one (a time in the spec wins).
        limit: evaluate ``limit`` positions of each suite, drawn across it
            (:meth:`~.format.Suite.sample`: stratified by phase and ply, from ``seed``).
        seed: every position's reset seed, and the positions ``limit`` draws, come from it.
        results_path: the JSON-lines file each finished unit is appended to.
        resume: continue ``results_path`` (other settings are refused, the file unchanged).
        game: the game of the suites (a registered name, ``"module:name"`` or a game):
            Donuts, the only game with labelled positions; any other is refused first.
        settings: how it runs (:class:`EvaluationSettings`); ``None``: the defaults.

    Returns:
        An :class:`Evaluation` (``.table()``, ``.scores()``, ``.to_json()``, ``.plot(path)``).

    Raises:
        DonutsError: a bad agent, suite, setting or results file (a ``ValueError``).
    """
    settings = EvaluationSettings() if settings is None else settings
    workers, backend, address, isolation = settings.workers, settings.backend, settings.address, settings.isolation
    move_limit, progress = settings.move_limit, settings.progress
    _check_game(game)
    agent_list = _agents(agents)
    limit = check_int("limit", limit, minimum=1, allow_none=True)
    workers = check_int("workers", workers, minimum=1)
    seed = check_int("seed", seed)
    suites, totals = _suites(suite, limit, seed)
    config, seated = make_config(agent_list, suites, time, seed, move_limit, isolation, limit=limit, totals=totals)
    check_backend(backend, address)
    if resume and results_path is None:
        raise DonutsError("evaluate: resume=True continues a results file: give results_path")
    path = checked_results_path(results_path)
    written = first_config(path) if resume and path is not None else None
    if written is not None:  # specs spelt as the file spelt them where only older names differ (0.5 or earlier)
        seated = as_recorded(seated, written.get("agents"), GAME)
        config["agents"], config["names"] = [a.record for a in seated], names_of(seated)
    units = schedule(config, suites)
    # The file first (a quick refusal), then every agent built once: a bad value stops the
    # evaluation there, and the file, created for nothing, goes again.
    with results_file(path, config, resume, what="evaluation",
                      convert=lambda lines: _read_units(lines, path or "", units)) as (fh, done):
        preflight(seated, GAME)
        finished = {u["unit"] for u in done}
        todo = [u for u in units if u["unit"] not in finished]
        work: _Work = {"agents": seated, "isolation": isolation, "move_limit": config["move_limit"], "run": new_run()}
        bar = ProgressBar(len(units), len(finished), progress, desc="evaluation", unit="unit")
        try:
            for result in execute(play_unit, work, todo, workers, backend, address):
                done.append(result)
                if fh is not None:
                    append_unit(fh, result)
                bar.update()
        finally:
            bar.close()
            close_seats()
    return _collect(config, suites, done)


def _collect(config: EvaluationConfig, suites: dict[str, Suite], units: Iterable[UnitResult]) -> Evaluation:
    """The :class:`Evaluation` of finished units (in any order)."""
    result = Evaluation(config, suites, {name: {s: [] for s in suites} for name in config["names"]})
    for unit in sorted(units, key=lambda u: u["unit"]):
        result.answers[config["names"][unit["agent"]]][unit["suite"]].extend(unit["answers"])
    for by_suite in result.answers.values():
        for answers in by_suite.values():
            answers.sort(key=lambda a: a["index"])
    return result
