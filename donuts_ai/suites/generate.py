"""Making suites: positions from seeded games of a mix of agents, labelled by the solver.

    python -m donuts_ai.suites generate --out DIR [--positions 1100] [--seed 1] [--distance-nodes 2000000]

Game ``g`` of seed ``s`` is drawn from its own stream (``random.Random("donuts-suite:s:g")``,
so any game can be replayed alone): a uniformly random tile arrangement, official rules,
and for each colour an agent of :data:`GAME_AGENTS` (limited by nodes and simulations,
not by time, so that the games are the same on every machine). For each phase of
:data:`~.format.PHASES` the game reached, one of its positions with two legal moves or
more is drawn and labelled (:func:`label_position`): every legal move's exact value and
its distance, proved within ``distance_nodes`` nodes a move (else ``?``).

Games go on until every phase suite holds ``positions`` decided positions (drawn ones
are kept too), so the games depend on the seed and the distance nodes alone, and a
larger ``positions`` later goes on where a smaller one stopped. The ``critical`` suite
is every critical position of the three phase suites. Each finished game is appended
to ``DIR/games.jsonl``: a stopped run started again with the same settings goes on from
there (other settings are refused), and the suite files are written at the end."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypedDict

from .._checks import check_int
from ..donuts.alphabeta.solver import Solver
from ..donuts.board import Board
from ..donuts.layout import Layout
from ..errors import DonutsError
from ..outcomes import DRAW
from ..tournament.specs import make_agent, normalize_spec
from .format import (
    CRITICAL,
    PHASES,
    SUITE_NAMES,
    MoveLabel,
    Suite,
    SuitePosition,
    load_suite,
    make_suite,
    parse_position,
    position_of,
)

#: The agents whose games give the positions (each limited by work, not time: the same games on every machine).
GAME_AGENTS = ("random", "greedy", "alphabeta:nodes=20000", "mcts:simulations=2000")
#: Nodes of search the solver may spend proving one move's distance.
DISTANCE_NODES = 2_000_000
#: Decided positions each phase suite gets by default.
DEFAULT_POSITIONS = 1100
#: The file of finished games a generation appends to (and resumes from).
GAMES_FILE = "games.jsonl"
#: A progress line every this many games.
REPORT_EVERY = 25
#: Each suite's description, in its header.
DESCRIPTIONS = {"opening": "positions after 1 to 8 donuts", "middlegame": "positions after 9 to 20 donuts",
                "endgame": "positions after 21 donuts or more",
                CRITICAL: "the positions of opening, middlegame and endgame where some legal move throws the value away"}


def label_position(board: Board, solver: Solver | None = None, distance_nodes: int | None = DISTANCE_NODES) -> SuitePosition:
    """``board`` (a game not over, reached by moves from the empty board) with the exact
    value of every legal move and its distance, proved within ``distance_nodes`` nodes a
    move (``None``: no limit; ``0``: no distances)."""
    solver = solver or Solver()
    labels = []
    for move in board.legal_moves():
        value = solver.move_value(board, move)
        assert value is not None  # no node limit: the solver always answers
        distance = None
        if distance_nodes != 0:
            distance = solver.move_distance(board, move, value, distance_nodes)
        labels.append(MoveLabel(move, value, distance))
    return position_of(board, labels)


def play_game(seed: int, game: int, agents: Sequence[str] = GAME_AGENTS) -> tuple[Board, dict[str, int]]:
    """Game ``game`` of ``seed`` played to its end (see the module doc) and, per phase, the
    ply drawn from it: a position with two legal moves or more (a phase without one, or
    not reached, is left out)."""
    rng = random.Random(f"donuts-suite:{seed}:{game}")
    board = Board(Layout.random(rng.getrandbits(62)))
    players = [make_agent(rng.choice(agents), seed=rng.getrandbits(31), game="donuts") for _ in range(2)]
    choices = []  # the plies whose position has a choice: two legal moves or more
    while not board.is_game_over():
        turn = board.turn
        assert turn is not None  # the game goes on
        if board.legal_mask().bit_count() >= 2:
            choices.append(board.ply)
        board.push(players[turn].select_move(board))
    plies = {}
    for name, (first, last) in PHASES.items():
        candidates = [ply for ply in choices if first <= ply and (last is None or ply <= last)]
        if candidates:
            plies[name] = rng.choice(candidates)
    return board, plies


class GenerationSettings(TypedDict):
    """What a generation is made from (the first line of its games file)."""

    seed: int
    agents: list[str]
    distance_nodes: int | None
    version: int


def _settings(seed: int, distance_nodes: int | None) -> GenerationSettings:
    return {"seed": seed, "agents": list(GAME_AGENTS), "distance_nodes": distance_nodes, "version": 1}


def _comparable(settings: object) -> object:
    """``settings`` with its agent specs normalised (:func:`~donuts_ai.tournament.specs.normalize_spec`):
    a games file written by 0.5 or earlier with ``mcts:iterations=2000`` goes on with
    ``mcts:simulations=2000``, the same agent."""
    if isinstance(settings, dict) and isinstance(settings.get("agents"), list):
        return {**settings, "agents": [normalize_spec(a, "donuts") if isinstance(a, str) else a for a in settings["agents"]]}
    return settings


def _read_games(path: Path, settings: GenerationSettings) -> tuple[list[dict[str, str]], int]:
    """(the positions of the games already in ``path``, one dict per game; the bytes of its
    complete lines), after checking it was made with ``settings``. A last line cut off
    mid-write is left out (its game is played again)."""
    data = path.read_bytes()
    lines = data.split(b"\n")
    try:
        first = json.loads(lines[0])
    except ValueError:
        first = None
    if _comparable(first) != _comparable(settings):
        raise DonutsError(f"{path} was made with other settings ({first}); use another --out or the same settings")
    games, good = [], len(lines[0]) + 1
    for i, line in enumerate(lines[1:], start=2):
        if not line:
            continue
        try:
            games.append(json.loads(line)["positions"])
        except (ValueError, KeyError, TypeError):
            if i == len(lines):
                break
            raise DonutsError(f"{path}:{i}: not a game line") from None
        good += len(line) + 1
    return games, good


def suites_of(games: Sequence[dict[str, str]], positions: int, meta: dict[str, str]) -> dict[str, Suite]:
    """The suites (:data:`SUITE_NAMES`) of the games' positions: each phase's positions in
    game order until it holds ``positions`` decided ones, and the critical ones of all."""
    phases: dict[str, list[SuitePosition]] = {name: [] for name in PHASES}
    decided = dict.fromkeys(PHASES, 0)
    for number, game in enumerate(games):
        for name, line in game.items():
            if decided[name] >= positions:
                continue
            position = parse_position(line, f"game {number}, {name} position")
            phases[name].append(position)
            decided[name] += position.value != DRAW
    meta = {**meta, "games": f"{len(games)} games of {', '.join(GAME_AGENTS)} on random tile arrangements, official rules"}
    out = {name: make_suite(name, found, {"description": DESCRIPTIONS[name], **meta}) for name, found in phases.items()}
    critical = [p for name in PHASES for p in out[name].positions if p.critical]
    out[CRITICAL] = make_suite(CRITICAL, critical, {"description": DESCRIPTIONS[CRITICAL], **meta})
    return out


def _decided(games: Sequence[dict[str, str]]) -> dict[str, int]:
    decided = dict.fromkeys(PHASES, 0)
    for game in games:
        for name, line in game.items():
            decided[name] += parse_position(line).value != DRAW
    return decided


def generate(out: str | Path, positions: int = DEFAULT_POSITIONS, seed: int = 1, distance_nodes: int | None = DISTANCE_NODES,
             report: Callable[[str], object] | None = None) -> dict[str, Suite]:
    """Play and label games (see the module doc) until every phase suite holds
    ``positions`` decided positions, resuming ``out/games.jsonl`` when it is there, and
    write the suites to ``out/NAME.txt``; returns them."""
    positions = check_int("positions", positions, minimum=1)
    seed = check_int("seed", seed, minimum=0)
    distance_nodes = check_int("distance_nodes", distance_nodes, minimum=0, allow_none=True)
    report = report or (lambda _: None)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    settings = _settings(seed, distance_nodes)
    path = folder / GAMES_FILE
    games: list[dict[str, str]] = []
    if path.exists():
        games, good = _read_games(path, settings)
        with open(path, "r+b") as raw:
            raw.truncate(good)
    else:
        path.write_text(json.dumps(settings) + "\n", encoding="utf-8")
    decided = _decided(games)
    solver = Solver()
    start = time.perf_counter()
    with open(path, "a", encoding="utf-8") as fh:
        while min(decided.values()) < positions:
            index = len(games)
            board, plies = play_game(seed, index)
            found: dict[str, str] = {}
            for name, ply in plies.items():
                position = board.copy()
                while position.ply > ply:
                    position.pop()
                labelled = label_position(position, solver, distance_nodes)
                found[name] = labelled.line()
                decided[name] += labelled.value != DRAW
            games.append(found)
            fh.write(json.dumps({"game": index, "positions": found}) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
            if index % REPORT_EVERY == 0:
                report(f"game {index}: decided positions {', '.join(f'{n} {c}' for n, c in decided.items())} "
                       f"({time.perf_counter() - start:.0f} s this run)")
    meta = {"generator": f"python -m donuts_ai.suites generate --positions {positions} --seed {seed} "
                         f"--distance-nodes {distance_nodes}"}
    suites = suites_of(games, positions, meta)
    for name, suite in suites.items():
        suite.write(folder / f"{name}.txt")
    return suites


def main(argv: list[str] | None = None) -> int:
    """``python -m donuts_ai.suites``: ``generate`` (see the module doc) or ``show`` (the suites' counts)."""
    parser = argparse.ArgumentParser(prog="python -m donuts_ai.suites", description="Make and inspect position suites.")
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="play and label games into suites (resumable)")
    gen.add_argument("--out", required=True, help="folder for games.jsonl and the suite files")
    gen.add_argument("--positions", type=int, default=DEFAULT_POSITIONS, help=f"decided positions per phase (default {DEFAULT_POSITIONS})")
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--distance-nodes", type=int, default=DISTANCE_NODES,
                     help=f"nodes to prove each move's distance (default {DISTANCE_NODES:,}; 0: none)")
    show = sub.add_parser("show", help="count the positions of suites")
    show.add_argument("suites", nargs="*", default=list(SUITE_NAMES), help="names or files (default: the shipped suites)")
    args = parser.parse_args(argv)
    try:
        if args.command == "generate":
            start = time.perf_counter()
            suites = generate(args.out, args.positions, args.seed, args.distance_nodes,
                              report=lambda line: print(line, file=sys.stderr, flush=True))
            for name, suite in suites.items():
                print(f"{name}: {summary(suite)}")
            print(f"written to {args.out} in {time.perf_counter() - start:.0f} s")
        else:
            for name in args.suites:
                suite = load_suite(name)
                print(f"{suite.name}: {summary(suite)}")
    except (DonutsError, OSError) as exc:
        print(f"python -m donuts_ai.suites: error: {exc}", file=sys.stderr)
        return 2
    return 0


def summary(suite: Suite) -> str:
    """One line of counts: positions, won / drawn / lost for the side to move, critical, distances proved."""
    values = [p.value for p in suite.positions]
    labels = [label for p in suite.positions for label in p.labels]
    proved = sum(label.distance is not None for label in labels)
    plies = [p.ply for p in suite.positions]
    span = f", plies {min(plies)}-{max(plies)}" if plies else ""
    return (f"{len(suite)} positions{span} ({values.count(1)} won, {values.count(0)} drawn, {values.count(-1)} lost for the "
            f"side to move; {sum(p.critical for p in suite.positions)} critical); {proved} of {len(labels)} move distances proved")
