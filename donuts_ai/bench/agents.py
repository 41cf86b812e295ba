"""``donuts-ai bench --agent SPEC``: any agent's speed, beside ours, in one run.

Decisions/s and, where the agent reports ``last_info["nodes"]`` after a move (as our
searching agents do), nodes/s, of every agent given (a spec: a built-in kind,
``module:Class``, ``engine:COMMAND``; or an agent object), on a fixed set of positions
drawn from a seed, beside our alpha-beta and MCTS at the same time limit. A spec that sets
no time of its own gets the run's (``time=T``) when its class takes ``time_limit``.

Each agent first answers one position off the clock (compiling its kernels), then every
position in turn, ``reset(seed)`` before each, the clock read around ``select_move``
alone. An illegal answer is counted; an exception stops the run, naming the agent and the
position. Benchmarks are not tests: nothing here asserts a speed.

    donuts-ai bench --agent examples.compiled_negamax:Agent --agent greedy --time 0.1

``game=`` (``--game``: a registered game, or ``module:name``) measures on that game's
positions instead (:func:`game_positions`), with the agents built for that game, beside
those of our alpha-beta and MCTS the game's agents include; its record names the game.
"""

from __future__ import annotations

import inspect
import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from .._checks import check_int, check_seconds, is_int
from .._units import seconds_text
from ..donuts.board import Board
from ..donuts.layout import Layout
from ..errors import DonutsError
from ..game import Game, get_game, legal_move
from ..tournament import make_agent, resolve
from . import compare, record
from .record import Figure
from .reporting import Machine, machine

#: What the agents are measured beside: our alpha-beta and MCTS, at the run's time limit.
BASELINES = ("alphabeta", "mcts")
#: The default number of positions, time limit (seconds a move) and seed.
DEFAULT_POSITIONS, DEFAULT_TIME, DEFAULT_SEED = 12, 0.1, 1
#: The positions' plies run from FIRST_PLY to LAST_PLY, evenly spread (openings and middlegames,
#: where a move is searched; later, random games are mostly decided by a five in one).
FIRST_PLY, LAST_PLY = 2, 16
#: The game the agents play unless told otherwise (their specs are then Donuts specs).
GAME = "donuts"
#: The parameters that set an agent's time a move (either spelling).
TIME_PARAMS = frozenset({"time_limit", "time"})
#: The positions of another game lie up to this many random plies into its games, spread
#: evenly from the start (a game whose set-ups are openings starts after them).
GAME_LAST_PLY = 8


class AgentSpeed(TypedDict):
    """One agent's figures (:func:`agent_speed`): ``nodes`` and ``nodes_per_s`` are ``None``
    unless it reported ``last_info["nodes"]`` after every move."""

    agent: str  # the spec it ran with, or the object's spec or class name
    decisions: int
    seconds: float  # thinking time in all
    decisions_per_s: float
    mean_move_s: float
    max_move_s: float
    nodes: int | None
    nodes_per_s: float | None
    illegal: int
    move_seconds: list[float]  # each decision's thinking time, in the order of the positions
    move_nodes: list[int | None]  # the nodes each decision reported (None: none reported)


class AgentBench(TypedDict):
    """Every agent's figures on one position set (:func:`agent_speed`), of ``game``."""

    machine: Machine
    game: str
    time_limit: float
    positions: int
    seed: int
    agents: list[AgentSpeed]


def bench_positions(count: int = DEFAULT_POSITIONS, seed: int = DEFAULT_SEED) -> list[Board]:
    """Donuts positions to measure agents on, the same for the same arguments.

    Each on a random tile arrangement of its own, reached by seeded random moves at plies
    spread evenly from :data:`FIRST_PLY` to :data:`LAST_PLY` (a game that ends sooner is
    drawn again).

    Args:
        count: how many positions.
        seed: the seed of the arrangements and the moves.

    Returns:
        The boards.
    """
    count = check_int("positions", count, minimum=1)
    rng, boards = random.Random(seed), []
    for i in range(count):
        target = FIRST_PLY + (LAST_PLY - FIRST_PLY) * i // max(1, count - 1)
        while True:
            board = Board(Layout.random(seed=rng.getrandbits(32)))
            while board.ply < target and not board.is_game_over():
                board.push(rng.choice(board.legal_moves()))
            if not board.is_game_over():
                boards.append(board)
                break
    return boards


def game_positions(game: Game[Any] | str, count: int = DEFAULT_POSITIONS, seed: int = DEFAULT_SEED) -> list[Any]:
    """States of any game to measure agents on, the same for the same arguments, none over.

    Each on a set-up of its own drawn from ``seed`` (``game.draw_setup(game.FRESH_SETUP,
    ...)``, the game's official rules), then seeded random moves at plies spread evenly from
    0 to :data:`GAME_LAST_PLY`, never one that ends the game.

    Args:
        game: a :class:`~donuts_ai.game.Game` or a name in the table of games.
        count: how many states.
        seed: the seed of the set-ups and the moves.

    Returns:
        The states.
    """
    game = get_game(game)
    count = check_int("positions", count, minimum=1)
    rng, rules, states = random.Random(seed), game.rules_dict(None), []
    for i in range(count):
        target = GAME_LAST_PLY * i // max(1, count - 1)
        state = game.new_state(game.draw_setup(game.FRESH_SETUP, rng.getrandbits(32)), rules)
        if state.is_game_over():
            raise DonutsError(f"bench: a set-up of {game.name} is a game already over: no position to measure on")
        for _ in range(target):
            moves = list(state.legal_moves())
            rng.shuffle(moves)
            for move in moves:
                state.push(move)
                if not state.is_game_over():
                    break
                state.pop()
            else:  # every move ends the game: the position stays as it is
                break
        states.append(state)
    return states


def _with_time(spec: str, time_limit: float, game: Game[Any] | str = GAME) -> str:
    """``spec`` with ``time=time_limit`` added when it sets no time and its class takes one."""
    cls, params = resolve(spec, game)
    try:
        accepted = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return spec
    if not TIME_PARAMS.isdisjoint(params) or TIME_PARAMS.isdisjoint(accepted):
        return spec
    head, _, rest = spec.strip().partition(":")
    if rest and rest.partition(":")[0].isidentifier():  # module:Class[:k=v,...]
        cls_name, _, param_text = rest.partition(":")
        head, rest = f"{head}:{cls_name}", param_text
    return f"{head}:{rest + ',' if rest else ''}time={time_limit:g}"


def _sets_time(spec: str, game: str) -> bool:
    """Whether the agent of ``spec`` ran under a time limit (its decisions then take the
    limit's time on any machine); False for a label that is not a spec (an object's class name)."""
    try:
        _, params = resolve(spec, game)
    except DonutsError:
        return False
    return not TIME_PARAMS.isdisjoint(params)


def _nodes(agent: Any) -> int | None:
    info = getattr(agent, "last_info", None)
    nodes = info.get("nodes") if isinstance(info, Mapping) else None
    # A count from a compiled search is a NumPy integer: any whole number counts.
    return int(nodes) if is_int(nodes) else None


def _label(agent: Any) -> str:
    """An object's name in the table: its ``spec`` when it has one, else ``module:Class (object)``."""
    spec = getattr(agent, "spec", None)
    return spec if isinstance(spec, str) and spec else f"{type(agent).__module__}:{type(agent).__qualname__} (object)"


def measure(agent: Any, boards: Sequence[Any], seed: int = DEFAULT_SEED, label: str | None = None, *,
            game: Game[Any] | str = GAME) -> AgentSpeed:
    """One agent's figures on the given positions (see the module doc).

    Args:
        agent: the agent (an object with ``select_move``).
        boards: the positions, states of ``game``.
        seed: the seed given to ``reset`` before each position.
        label: the agent's name in the table.
        game: the game of the positions (Donuts by default).

    Returns:
        Its decision times, nodes and illegal answers.
    """
    label = label or _label(agent)
    if not callable(getattr(agent, "select_move", None)) or inspect.isclass(agent):
        raise DonutsError(f"bench: {label} is not an agent object (needs select_move; pass an instance, not a class)")
    rules = get_game(game)
    donuts = rules.name == GAME
    reset = getattr(agent, "reset", None)
    times, nodes, illegal = [], [], 0
    for i, board in enumerate([boards[0], *boards]):  # the first answer warms the agent up, unmeasured
        if callable(reset):
            reset(seed)
        view = board.copy() if donuts else rules.player_view(board, board.turn)  # what the harness hands an agent
        start = time.perf_counter()
        try:
            move = agent.select_move(view)
        except Exception as exc:  # an agent's failure is reported, with where it happened
            where = board.fen() if donuts else board.to_text()
            raise DonutsError(f"bench: {label} raised {type(exc).__name__}: {exc} on position {where}") from exc
        seconds = time.perf_counter() - start
        if i == 0:
            continue
        times.append(seconds)
        nodes.append(_nodes(agent))
        illegal += not board.is_legal(move) if donuts else legal_move(rules, board, move) is None
    total = sum(times)
    all_nodes = None if any(n is None for n in nodes) else sum(n for n in nodes if n is not None)
    return {"agent": label, "decisions": len(times), "seconds": total, "decisions_per_s": len(times) / total,
            "mean_move_s": total / len(times), "max_move_s": max(times), "nodes": all_nodes,
            "nodes_per_s": None if all_nodes is None else all_nodes / total, "illegal": illegal, "move_seconds": times,
            "move_nodes": nodes}


def baselines_of(game: Game[Any] | str) -> list[str]:
    """Our agents of :data:`BASELINES` that ``game``'s agents include (both for Donuts;
    for a game of one's own, those its kinds name)."""
    out = []
    for kind in BASELINES:
        try:
            resolve(kind, game)
        except DonutsError:  # not an agent of this game
            continue
        out.append(kind)
    return out


def agent_speed(agents: Sequence[object], time_limit: float = DEFAULT_TIME, positions: int = DEFAULT_POSITIONS,
                seed: int = DEFAULT_SEED, baselines: bool = True, *, game: Game[Any] | str = GAME) -> AgentBench:
    """Decisions/s and nodes/s of each agent, beside our alpha-beta and MCTS.

    A spec without a time of its own gets ``time_limit`` (see the module doc); a baseline
    given among ``agents`` is measured once.

    Args:
        agents: agent specs or agent objects.
        time_limit: seconds a move of the baselines (and of specs without a time).
        positions: how many positions (:func:`bench_positions`, or :func:`game_positions`).
        seed: the seed of the positions.
        baselines: whether to measure our alpha-beta and MCTS too (those the game has:
            :func:`baselines_of`).
        game: a registered name, ``"module:name"`` or a game (Donuts by default).

    Returns:
        The figures, as :func:`agent_report` prints them.

    Raises:
        DonutsError: naming what was wrong (a :class:`~donuts_ai.tournament.SpecError` for
            a bad spec, the agent and position for an exception).
    """
    time_limit = check_seconds("time_limit", time_limit, allow_none=False)
    seed = check_int("seed", seed)
    rules = get_game(game)
    if isinstance(agents, str):
        agents = [agents]
    boards = bench_positions(positions, seed) if rules.name == GAME else game_positions(rules, positions, seed)
    entries: list[tuple[Any, str | None]] = []
    given = len(agents)
    for i, agent in enumerate([*agents, *(baselines_of(rules) if baselines else ())]):
        if isinstance(agent, str):
            spec = _with_time(agent, time_limit, rules)
            if any(label == spec for _, label in entries):
                if i < given:
                    raise DonutsError(f"agent {agent!r} is given twice: each agent is measured once")
                continue  # a baseline the caller measures already
            entries.append((make_agent(spec, seed, game=rules), spec))
        else:
            entries.append((agent, None))
    rows = [measure(agent, boards, seed, label, game=rules) for agent, label in entries]
    return {"machine": machine(), "game": rules.name, "time_limit": time_limit, "positions": len(boards), "seed": seed,
            "agents": rows}


def decisions_name(label: str) -> str:
    return f"{label}: decisions"


def nodes_name(label: str) -> str:
    return f"{label}: nodes"


def _game_of(r: AgentBench) -> str:
    return r.get("game", GAME)  # a figure set made before it named its game: Donuts'


def agent_figures(r: AgentBench) -> list[Figure]:
    """The figures of :func:`agent_speed` for a record: for each agent, the seconds of each
    decision (unit "decision") and, where it reports nodes, the seconds a node of each
    decision (unit "node"). Every figure's ``game`` parameter names the game; on a game
    other than Donuts its name does too (``greedy on connect-four: decisions``), so that
    no comparison takes it for a figure of Donuts."""
    out, game = [], _game_of(r)
    for a in r["agents"]:
        params: dict[str, int | float | str] = {"illegal": a["illegal"], "time_limit": r["time_limit"], "game": game}
        label = a["agent"] if game == GAME else f"{a['agent']} on {game}"
        # Each decision is another position: a run's decisions a second are its decisions over
        # their total time, the mean of the values (not their median).
        out.append(Figure(decisions_name(label), "decision", a["move_seconds"], params, run_statistic="mean",
                          time_limited=_sets_time(a["agent"], game)))
        # Nodes a second are all nodes over all thinking time: one value a run (the seconds a
        # node per decision would weigh a forced answer's few nodes as much as a search's many).
        if a["nodes"]:
            out.append(Figure(nodes_name(label), "node", [a["seconds"] / a["nodes"]], params))
    return out


def agent_settings(r: AgentBench) -> str:
    """The settings of an agent run as its record keeps them (the game's name first)."""
    return (f"agents on {_game_of(r)}, {r['positions']} positions, seed {r['seed']}, "
            f"time limit {r['time_limit']:g} s")


def agent_report_of(suite: Any) -> str:
    """A record of ``donuts-ai bench --agent`` as a table.

    Args:
        suite: the record (a pyperf suite).

    Returns:
        Each agent's decisions/s and nodes/s over all runs, with 95% intervals over the runs.
    """
    from .tables import rate_interval

    figures = record.figures_of(suite)
    games = sorted({str(run.get_metadata().get("param_game", GAME)) for benchmark in figures.values()
                    for run in benchmark.get_runs()})
    lines = [f"machine: {record.machine_text(suite)}", f"record: {record.provenance_text(suite)}",
             f"game: {', '.join(games) or GAME} (the positions the agents answered on)",
             f"{'agent':44s} {'decisions/s':>12s} {'(95% interval)':>22s} {'nodes/s':>12s} {'(95% interval)':>22s} {'illegal':>8s}"]

    def cells(benchmark: Any | None) -> tuple[str, str]:
        if benchmark is None:
            return "—", ""
        rate, low, high, _ = rate_interval(benchmark)
        interval = "" if math.isnan(low) else f"{compare.number_text(low)} – {compare.number_text(high)}"
        return f"{rate:,.1f}" if rate < 1000 else f"{rate:,.0f}", interval

    for name, benchmark in figures.items():
        if not name.endswith(": decisions"):
            continue
        label = name.removesuffix(": decisions")
        decisions, decisions_interval = cells(benchmark)
        nodes, nodes_interval = cells(figures.get(nodes_name(label)))
        illegal = sum(int(run.get_metadata().get("param_illegal", 0)) for run in benchmark.get_runs())
        lines.append(f"{label:44s} {decisions:>12s} {decisions_interval:>22s} {nodes:>12s} {nodes_interval:>22s} {illegal:>8d}")
    lines.append("decisions/s: decisions over their thinking time (select_move alone); illegal: answers over all runs")
    lines.append("nodes: what each agent reports in last_info['nodes'] after a move (alpha-beta: positions searched; "
                 "MCTS: nodes of its tree); — where it reports none")
    return "\n".join(lines)


def agent_report(r: AgentBench) -> str:
    """The figures of :func:`agent_speed` as a table.

    Args:
        r: what :func:`agent_speed` returned.

    Returns:
        The table's text.
    """
    m = r["machine"]
    lines = [f"machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, Numba {m['numba']}, NumPy {m['numpy']}",
             f"{r['positions']} positions of {_game_of(r)} (seed {r['seed']}), time limit {r['time_limit']:g} s a move "
             "where the spec sets none",
             f"{'agent':44s} {'decisions/s':>12s} {'mean move':>10s} {'max move':>10s} {'nodes/s':>12s} {'illegal':>8s}"]
    for a in r["agents"]:
        nodes = "—" if a["nodes_per_s"] is None else f"{a['nodes_per_s']:,.0f}"
        lines.append(f"{a['agent']:44s} {a['decisions_per_s']:>12,.1f} {seconds_text(a['mean_move_s']):>10s} "
                     f"{seconds_text(a['max_move_s']):>10s} "
                     f"{nodes:>12s} {a['illegal']:>8d}")
    lines.append("mean move, max move: thinking time a decision (select_move alone), its mean and its most")
    lines.append("nodes: what each agent reports in last_info['nodes'] after a move (alpha-beta: positions searched; "
                 "MCTS: nodes of its tree); — where it reports none")
    return "\n".join(lines)
