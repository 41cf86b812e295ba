"""The learned agent measured against perfect play.

:func:`label_positions` plays games on random tile arrangements (greedy moves, a
quarter of them random, from a seed), stops each at a ply drawn in ``4..24``, and keeps the
position when the solver says it is **decided** (won or lost for the side to move, not
drawn), with the exact value of every legal move. :func:`measure` then reports, for a
network, the share of those positions where

- ``policy``: the raw policy's most probable legal square keeps the position's value;
- ``value``: the value head's sign is the position's value;
- ``sims_N``: the PUCT search with ``N`` simulations plays a move that keeps the value;

and the same shares over the **critical** positions only: those where some legal move
does not keep the value (in a lost position every move keeps it, so those count for the
value head only). The labelled set the library ships (:data:`LABELLED_POSITIONS`, made by
``python -m benchmarks.learning --label``) is what ``donuts-ai train`` measures its
checkpoints on.
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

import numpy as np
import numpy.typing as npt

from ..agents.greedy import GreedyAgent
from ..board import Board
from ..layout import Layout
from ..rules import Rules
from ..search.alphabeta.solver import Solver
from ..squares import NUM_SQUARES, parse_square
from .network import Network
from .replay import legal_flags
from .search import BatchSearch, best_squares, evaluate_roots, masked_policy, network_evaluator

#: The labelled positions shipped with the library.
LABELLED_POSITIONS = Path(__file__).parent / "data" / "positions.jsonl.gz"
#: Plies of the labelled positions (first and last), and the share of random moves in the games.
FIRST_PLY, LAST_PLY = 4, 24
RANDOM_MOVES = 0.25


@dataclass(frozen=True)
class LabelledPosition:
    """A decided position and the solver's value (for the side to move) of every legal move."""

    fen: str
    insertion: str
    donuts: int
    value: int  # +1 won, -1 lost for the side to move
    move_values: tuple[int, ...]  # per square (36): the move's value, or NO_MOVE when illegal

    def board(self) -> Board:
        return Board.from_fen(self.fen, Rules(insertion=self.insertion, donuts=self.donuts))

    @property
    def critical(self) -> bool:
        """Some legal move does not keep the value."""
        return any(v != NO_MOVE and v != self.value for v in self.move_values)

    def to_json(self) -> dict[str, object]:
        return {"fen": self.fen, "insertion": self.insertion, "donuts": self.donuts, "value": self.value,
                "move_values": list(self.move_values)}


#: ``move_values`` of an illegal square.
NO_MOVE = -9


def label_positions(count: int, seed: int = 0, rules: Rules | None = None, solver: Solver | None = None
                    ) -> list[LabelledPosition]:
    """``count`` decided positions from seeded games (see the module), labelled by the solver."""
    rules = rules or Rules()
    solver = solver or Solver()
    rng = random.Random(seed)
    out: list[LabelledPosition] = []
    while len(out) < count:
        board = Board(Layout.random(rng.randrange(1 << 62)), rules)
        agent = GreedyAgent(seed=rng.randrange(1 << 62))
        stop = rng.randint(FIRST_PLY, LAST_PLY)
        while not board.is_game_over() and board.ply < stop:
            move = rng.choice(board.legal_moves()) if rng.random() < RANDOM_MOVES else agent.select_move(board)
            board.push(move)
        if board.is_game_over():
            continue
        values = [NO_MOVE] * NUM_SQUARES
        for move in board.legal_moves():
            value = solver.move_value(board, move)
            assert value is not None  # no node limit: the solver always answers
            values[parse_square(move)] = value
        value = max(v for v in values if v != NO_MOVE)
        if value != 0:
            out.append(LabelledPosition(board.fen(), rules.insertion, rules.donuts, value, tuple(values)))
    return out


def save_positions(positions: list[LabelledPosition], path: str | Path) -> None:
    with gzip.open(path, "wt") as f:
        for p in positions:
            f.write(json.dumps(p.to_json()) + "\n")


def load_positions(path: str | Path = LABELLED_POSITIONS) -> list[LabelledPosition]:
    with gzip.open(path, "rt") as f:
        return [LabelledPosition(d["fen"], d["insertion"], int(d["donuts"]), int(d["value"]), tuple(d["move_values"]))
                for d in map(json.loads, f)]


class Accuracy(TypedDict):
    """Shares of :func:`measure` (see the module): over all the decided positions, and over
    the critical ones (``critical_*``)."""

    positions: int
    critical_positions: int
    policy: float
    value: float
    critical_policy: float
    searched: dict[int, float]  # simulations -> share keeping the value
    critical_searched: dict[int, float]


def _roots(positions: list[LabelledPosition]) -> np.ndarray:
    from .agent import root_record

    return np.concatenate([root_record(p.board()) for p in positions])


def _keeps(positions: list[LabelledPosition], moves: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    return np.array([p.move_values[m] == p.value for p, m in zip(positions, moves, strict=True)])


def measure(network: Network, positions: list[LabelledPosition], sims: tuple[int, ...] = (), batch: int = 256) -> Accuracy:
    """The accuracy of ``network`` on ``positions`` (all of one rule set), raw and with
    each number of simulations in ``sims`` (searched ``batch`` positions at a time)."""
    if not positions:
        raise ValueError("measure needs positions")
    rules = positions[0].board().rules
    evaluator = network_evaluator(network)
    critical = np.array([p.critical for p in positions])
    values = np.array([p.value for p in positions])
    raw_keeps, value_right = [], []
    searched: dict[int, list[npt.NDArray[np.bool_]]] = {n: [] for n in sims}
    for start in range(0, len(positions), batch):
        chunk = positions[start:start + batch]
        roots = _roots(chunk)
        legal = legal_flags(roots)
        logits, predicted = evaluate_roots(evaluator, roots, rules.donuts)
        raw_keeps.append(_keeps(chunk, masked_policy(logits, legal).argmax(axis=1)))
        value_right.append(np.sign(predicted) == values[start:start + batch])
        for n in sims:
            search = BatchSearch(len(chunk), n)
            result = search.run(evaluator, roots, np.ones(len(chunk), dtype=np.bool_),
                                np.ascontiguousarray(roots["directions"]), rules.donuts, rules.single)
            searched[n].append(_keeps(chunk, best_squares(result, legal)))
    raw, right = np.concatenate(raw_keeps), np.concatenate(value_right)
    found = {n: np.concatenate(v) for n, v in searched.items()}

    def share(flags: npt.NDArray[np.bool_], mask: npt.NDArray[np.bool_] | None = None) -> float:
        chosen = flags if mask is None else flags[mask]
        return float(chosen.mean()) if len(chosen) else float("nan")

    return Accuracy(positions=len(positions), critical_positions=int(critical.sum()), policy=share(raw), value=share(right),
                    critical_policy=share(raw, critical), searched={n: share(f) for n, f in found.items()},
                    critical_searched={n: share(f, critical) for n, f in found.items()})


def accuracy_probe(positions: list[LabelledPosition]) -> Callable[[Network], tuple[float, float]]:
    """``measure(network) -> (policy share, value share)`` on ``positions``: what the trainer
    reports at each checkpoint."""

    def probe(network: Network) -> tuple[float, float]:
        result = measure(network, positions)
        return result["policy"], result["value"]

    return probe
