"""A dataset of perfect play: positions of varied games, each labelled by the exact solver
(``python -m benchmarks.distill``; issue 40, item 1).

Self-play teaches the network with its own games; this is the other source: positions
drawn from games of a mix of players (:data:`PLAYERS`: random, greedy, alpha-beta, MCTS
and, when asked for, the shipped network's own search; each move replaced by a random one with probability ``noise``), on seeded tile
arrangements, every position from ``min_ply`` on labelled by
:func:`~.teacher.label_position` (the value of every legal move within ``nodes`` solver
nodes: the position's value and the squares keeping it when all are settled). Positions
that are images of one another under the board's symmetries are kept once (the first met),
as their canonical image (:func:`~.teacher.canonical`): the same game, in one frame.

The dataset is written in the format of :mod:`.dataset` (``read_dataset`` reads it), with
``visits`` all 0, ``policy`` uniform over the squares keeping the value (0 where not
settled), ``result`` the played game's result for the side to move and ``explored``
False. A shard holds ``games_per_shard`` whole games, so a run killed between shards and
resumed (``resume=True``) writes the dataset a run never stopped writes: game ``g`` is
drawn from ``(seed, g)`` alone, :data:`PROGRESS_FILE` says how many games the written
shards hold, and the positions already kept are read back first (to skip their repeats).
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .._checks import check_int
from ..agents.base import Agent
from ..donuts import kernels as K
from ..donuts.agents.alphabeta import AlphaBetaAgent
from ..donuts.agents.greedy import GreedyAgent
from ..donuts.agents.mcts import MCTSAgent
from ..donuts.agents.random_agent import RandomAgent
from ..donuts.alphabeta.solver import Solver
from ..donuts.board import Board
from ..donuts.layout import Layout
from ..donuts.rules import Rules
from ..donuts.squares import NUM_SQUARES
from ..outcomes import UNKNOWN
from .buffer import SAMPLE
from .dataset import META_FILE, DatasetWriter, read_dataset, rows_of
from .errors import LearnError
from .teacher import DEFAULT_MIN_PLY, DEFAULT_NODES, TEACHER_TT_BITS, Canonical, Label, canonical, label_position

#: Simulations a move of the ``az`` player: the network's own choices, a little searched.
AZ_SIMS = 16


def _network_player(seed: int) -> Agent:
    """The shipped network's PUCT search (:data:`AZ_SIMS` simulations a move): the positions
    the network itself steers into. Loaded here only: the other players need no JAX."""
    from .agent import AlphaZeroAgent

    return AlphaZeroAgent(simulations=AZ_SIMS, seed=seed)


#: The players whose games the positions come from, by name: each a maker of a seeded
#: agent whose moves depend on the seed alone (node, iteration and simulation budgets, no
#: clocks).
PLAYERS: dict[str, Callable[[int], Agent]] = {
    "random": lambda seed: RandomAgent(seed=seed),
    "greedy": lambda seed: GreedyAgent(seed=seed),
    "alphabeta": lambda seed: AlphaBetaAgent(depth=3, seed=seed),
    "mcts": lambda seed: MCTSAgent(simulations=400, seed=seed),
    "az": _network_player,
}
#: The players a run mixes unless told otherwise (``az`` needs the learn extra's JAX and
#: the shipped network).
DEFAULT_PLAYERS = ("random", "greedy", "alphabeta", "mcts")
#: The share of moves replaced by a random legal move, so that the games leave the
#: players' own lines (a position every player reaches is kept once anyway).
DEFAULT_NOISE = 0.1
#: Games a shard holds: a killed run loses at most the shard being made.
DEFAULT_GAMES_PER_SHARD = 20
#: The file beside the shards that says how far a run got: ``{"games": ..., "positions": ...}``,
#: replaced (atomically) after each shard.
PROGRESS_FILE = "distill.json"
#: The phases the summary counts positions in, by ply (first ply of each).
PHASES = {"opening": 0, "middlegame": 9, "endgame": 21}


@dataclass
class DistillSummary:
    """What a run wrote: ``games`` played in all, ``positions`` kept (after merging
    symmetric ones), ``duplicates`` skipped, ``settled_values`` and ``settled_policies``
    (labels whose value, and whose every move, the solver settled), ``labelled``
    positions, ``nodes`` and ``seconds`` spent labelling them (this run's), and
    ``by_phase`` (positions by phase)."""

    games: int = 0
    positions: int = 0
    duplicates: int = 0
    settled_values: int = 0
    settled_policies: int = 0
    labelled: int = 0
    nodes: int = 0
    seconds: float = 0.0
    by_phase: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PHASES, 0))


def _phase(ply: int) -> str:
    return [name for name, first in PHASES.items() if ply >= first][-1]


def _records(boards: Sequence[Board]) -> np.ndarray:
    """:data:`~.buffer.SAMPLE` records of ``boards`` (the fields :func:`~.teacher.canonical` reads)."""
    records = np.zeros(len(boards), dtype=SAMPLE)
    for i, board in enumerate(boards):
        pos = K.position(board)
        records[i]["own"], records[i]["opp"], records[i]["last"] = pos.own, pos.opp, pos.last
        records[i]["placed_own"], records[i]["placed_opp"], records[i]["color"] = pos.placed_own, pos.placed_opp, board.turn
        records[i]["directions"] = board.layout.directions
    return records


def _labelled(position: Canonical, turn: int, result: int, label: Label) -> np.ndarray:
    """A one-record :data:`~.buffer.SAMPLE` array of a labelled canonical position (``turn``
    to move; ``result`` its game's for that side), its policy uniform over the squares
    keeping the value where every move was settled: what :func:`~.dataset.rows_of` writes."""
    record = np.zeros(1, dtype=SAMPLE)
    record["own"], record["opp"], record["last"] = position.own, position.opp, position.last
    record["placed_own"], record["placed_opp"], record["color"] = position.placed_own, position.placed_opp, turn
    record["directions"] = position.directions
    record["value"] = result
    record["label_flags"] = label.flags
    record["label_value"] = 0 if label.value is None else label.value
    record["label_keep"] = label.keep or 0
    record["label_nodes"] = label.nodes
    if label.keep:
        squares = [sq for sq in range(NUM_SQUARES) if label.keep >> sq & 1]
        record["policy"][0, squares] = 1.0 / len(squares)
    return record


def play_game(seed: int, game: int, players: Sequence[str], rules: Rules, noise: float) -> list[Board]:
    """Game ``game`` of a run seeded ``seed``: its tile arrangement, its two players (drawn
    from ``players``) and every random choice come from ``(seed, game)`` alone. Returns
    every position of it, the final one last."""
    rng = random.Random(f"distill {seed} {game}")
    board = Board(Layout.random(rng.randrange(2**32)), rules)
    agents = [PLAYERS[rng.choice(list(players))](rng.randrange(2**32)) for _ in range(2)]
    positions = [board.copy(stack=False)]
    while not board.is_game_over():
        turn = board.turn
        assert turn is not None  # the game goes on
        move = rng.choice(board.legal_moves()) if rng.random() < noise else agents[turn].select_move(board.copy())
        board.push(move)
        positions.append(board.copy(stack=False))
    return positions


@dataclass(frozen=True)
class DistillSettings:
    """What a :func:`distill` dataset holds (a resumed run must ask for the same).

    Attributes:
        players: the players the games are drawn from (names of :data:`PLAYERS`).
        nodes: solver nodes for each legal move's value.
        min_ply: positions from this ply on are labelled.
        noise: the probability that a move is replaced by a random one.
        games_per_shard: whole games a shard holds (a resumed run starts at a shard).
    """

    players: Sequence[str] = DEFAULT_PLAYERS
    nodes: int = DEFAULT_NODES
    min_ply: int = DEFAULT_MIN_PLY
    noise: float = DEFAULT_NOISE
    games_per_shard: int = DEFAULT_GAMES_PER_SHARD


def distill(path: str | Path, *, games: int, rules: Rules | None = None, seed: int = 0, resume: bool = False,
            progress: Callable[[DistillSummary], None] | None = None,
            settings: DistillSettings | None = None) -> DistillSummary:
    """Write a dataset of ``games`` games' positions, labelled by the solver, into the folder
    ``path`` (see the module).

    Args:
        path: the dataset's folder.
        games: games to play (all of them, a resumed run's included).
        rules: the rules they are played under; ``None``: the official ones.
        seed: game ``g`` is drawn from ``(seed, g)`` alone.
        resume: continue a dataset this function wrote with the same settings.
        progress: called with the summary after each shard.
        settings: what the dataset holds (:class:`DistillSettings`); ``None``: the defaults.

    Returns:
        The summary of the whole dataset (``nodes`` and ``seconds``: this run's).

    Raises:
        LearnError: a bad setting, nothing to resume, or a resume with other settings.
    """
    settings = DistillSettings() if settings is None else settings
    players, nodes, min_ply = settings.players, settings.nodes, settings.min_ply
    noise, games_per_shard = settings.noise, settings.games_per_shard
    games = check_int("games", games, 1, error=LearnError)
    nodes = check_int("nodes", nodes, 1, error=LearnError)
    min_ply = check_int("min_ply", min_ply, 0, error=LearnError)
    games_per_shard = check_int("games_per_shard", games_per_shard, 1, error=LearnError)
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise LearnError(f"rules must be a Rules, got {type(rules).__name__}")
    players = tuple(players)
    unknown = [p for p in players if p not in PLAYERS]
    if not players or unknown:
        raise LearnError(f"players must be among {', '.join(PLAYERS)}, got {', '.join(unknown) or 'none'}")
    if isinstance(noise, bool) or not isinstance(noise, int | float) or not 0 <= noise <= 1:
        raise LearnError(f"noise must be a share in 0..1, got {noise!r}")
    recorded = {"source": "distill", "seed": seed, "players": list(players), "teacher": "solver", "teacher_nodes": nodes,
                "min_ply": min_ply, "noise": noise, "games_per_shard": games_per_shard}
    meta = {"rules": rules.to_dict(), **recorded}
    path = Path(path)
    summary, seen, first_game, written = DistillSummary(), set(), 0, None
    if resume:
        if not (path / META_FILE).is_file() or not (path / PROGRESS_FILE).is_file():
            raise LearnError(f"nothing to resume in {str(path)!r} (no {META_FILE} and {PROGRESS_FILE})")
        old = read_dataset(path)
        asked = {"rules": rules.to_dict(), **recorded}
        differ = [f"{k} {old.meta.get(k)!r} (this run: {v!r})" for k, v in asked.items() if old.meta.get(k) != v]
        if differ:
            raise LearnError(f"{str(path)!r} was written with other settings: {', '.join(differ)}")
        done = json.loads((path / PROGRESS_FILE).read_text())
        first_game, written = int(done["games"]), int(done["positions"])
        if written > len(old):
            raise LearnError(f"{str(path)!r}: {PROGRESS_FILE} counts {written} positions, the shards hold {len(old)}")
        a = {name: array[:written] for name, array in old.arrays.items()}  # a shard past the progress is written again
        boards = [old[i].board() for i in range(written)]
        seen = {c.key for c in canonical(_records(boards))} if boards else set()
        summary.games, summary.positions = first_game, written
        summary.settled_values = int((a["label"] != UNKNOWN).sum())
        summary.settled_policies = int((a["keep"] != 0).sum())
        for ply in a["ply"].tolist():
            summary.by_phase[_phase(ply)] += 1
    writer = DatasetWriter(path, meta, written=written)
    solver = Solver(tt_bits=TEACHER_TT_BITS, threads=1, book=False)
    for game in range(first_game, games):
        boards = play_game(seed, game, players, rules, noise)
        final = boards[-1].outcome()
        assert final is not None  # played to the end
        kept = [(ply, b) for ply, b in enumerate(boards[:-1]) if ply >= min_ply]
        for (ply, board), position in zip(kept, canonical(_records([b for _, b in kept])), strict=True):
            if position.key in seen:
                summary.duplicates += 1
                continue
            seen.add(position.key)
            turn = board.turn
            assert turn is not None  # not the final position
            result = 0 if final.winner is None else 1 if final.winner == turn else -1
            start = time.perf_counter()
            label = label_position(solver, position, rules, nodes)
            summary.seconds += time.perf_counter() - start
            summary.nodes += label.nodes
            summary.labelled += 1
            writer.add(rows_of(_labelled(position, turn, result, label), np.zeros((1, NUM_SQUARES), dtype=np.uint16),
                               np.array([game]), np.array([ply])))
            summary.positions += 1
            summary.settled_values += label.value is not None
            summary.settled_policies += label.keep is not None
            summary.by_phase[_phase(ply)] += 1
        summary.games = game + 1
        if summary.games % games_per_shard == 0 or summary.games == games:
            writer.flush()
            _save_progress(path, summary)
            if progress is not None:
                progress(summary)
    return summary


def _save_progress(path: Path, summary: DistillSummary) -> None:
    """How far the run got, written after its shard (so the shard is on disk first)."""
    partial = path / (PROGRESS_FILE + ".part")
    partial.write_text(json.dumps({"games": summary.games, "positions": summary.positions}) + "\n")
    os.replace(partial, path / PROGRESS_FILE)


def describe(summary: DistillSummary) -> str:
    """A few lines for a person: size, phases, settled shares, labelling cost."""
    n = max(summary.positions, 1)
    per = summary.seconds / max(summary.labelled, 1) * 1000
    return (f"{summary.games} games, {summary.positions} positions ({summary.duplicates} symmetric repeats merged); "
            f"by phase {summary.by_phase}; values settled {summary.settled_values / n:.1%}, every move settled "
            f"{summary.settled_policies / n:.1%}; this run labelled {summary.labelled} positions, {summary.nodes:,} nodes "
            f"in {summary.seconds:.1f} s ({per:.2f} ms a position)")


__all__ = ["AZ_SIMS", "DEFAULT_GAMES_PER_SHARD", "DEFAULT_NOISE", "DEFAULT_PLAYERS", "PHASES", "PLAYERS", "PROGRESS_FILE",
           "DistillSettings", "DistillSummary", "describe", "distill", "play_game"]
