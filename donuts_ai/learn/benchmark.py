"""The learned agent measured against perfect play, on the position suites.

The positions are those of :mod:`donuts_ai.suites` (one home for accuracy against
perfect play): :func:`load_positions` gives the **decided** positions (won or lost for the
side to move) of the shipped phase suites, and :func:`label_positions` labels fresh ones
from the suites' generator with another seed. :func:`measure` then reports, for a
network, the share of those positions where

- ``policy``: the raw policy's most probable legal square keeps the position's value;
- ``value``: the value head's sign is the position's value;
- ``searched[N]``: the PUCT search with ``N`` simulations plays a move that keeps the value;

and the same shares over the **critical** positions only: those where some legal move
does not keep the value (in a lost position every move keeps it, so those count for the
value head only). ``donuts-ai train`` measures its checkpoints on the first positions of
:func:`load_positions`. (The agent itself, ``az``, is measured like any other by
``donuts-ai evaluate az``.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import zip_longest
from typing import TypedDict

import numpy as np
import numpy.typing as npt

from ..donuts.alphabeta.solver import Solver
from ..donuts.squares import SQUARE_NAMES
from ..outcomes import DRAW
from ..suites.format import PHASES, SuitePosition, load_suite
from ..suites.generate import label_position, play_game
from .batched_search import BatchSearch, best_squares, masked_policy, network_predictor, predict_roots
from .buffer import legal_flags
from .network import Network

#: The suites whose decided positions :func:`load_positions` gives by default: the phases.
PROBE_SUITES = tuple(PHASES)
#: Decided positions of the shipped suites a training run measures at each checkpoint
#: (:func:`probe_positions`: fast, every phase, the same every time).
PROBE_POSITIONS = 300
#: The seed of the shipped suites' games (:func:`label_positions` with another seed gives fresh positions).
SHIPPED_SEED = 1


def load_positions(suites: Sequence[str] = PROBE_SUITES) -> list[SuitePosition]:
    """The decided positions of ``suites`` (names or files, :func:`~donuts_ai.suites.load_suite`),
    interleaved: the first of each suite, then the second of each, ... so that the first
    positions mix the phases."""
    decided = [[p for p in load_suite(name).positions if p.value != DRAW] for name in suites]
    return [p for group in zip_longest(*decided) for p in group if p is not None]


def label_positions(count: int, seed: int = 0, solver: Solver | None = None) -> list[SuitePosition]:
    """``count`` fresh decided positions: one of each phase from each game of the suites'
    generator (:func:`donuts_ai.suites.generate.play_game`) with ``seed`` (any but
    :data:`SHIPPED_SEED`, whose games made the shipped suites), labelled by the solver
    (values only, no distances)."""
    solver = solver or Solver()
    out: list[SuitePosition] = []
    game = 0
    while len(out) < count:
        board, plies = play_game(seed, game)
        game += 1
        for ply in plies.values():
            position = board.copy()
            while position.ply > ply:
                position.pop()
            labelled = label_position(position, solver, distance_nodes=0)
            if labelled.value != DRAW and len(out) < count:
                out.append(labelled)
    return out


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


def _roots(positions: list[SuitePosition]) -> np.ndarray:
    from .agent import root_record

    return np.concatenate([root_record(p.board()) for p in positions])


def _keeps(positions: list[SuitePosition], moves: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    return np.array([p.keeps(SQUARE_NAMES[m]) for p, m in zip(positions, moves, strict=True)])


def measure(network: Network, positions: list[SuitePosition], simulations: tuple[int, ...] = (), batch: int = 256) -> Accuracy:
    """The accuracy of ``network`` on ``positions`` (all of one rule set), raw and with
    each number of simulations in ``simulations`` (searched ``batch`` positions at a time)."""
    if not positions:
        raise ValueError("measure needs positions")
    rules = positions[0].board().rules
    predictor = network_predictor(network)
    critical = np.array([p.critical for p in positions])
    values = np.array([p.value for p in positions])
    raw_keeps, value_right = [], []
    searched: dict[int, list[npt.NDArray[np.bool_]]] = {n: [] for n in simulations}
    for start in range(0, len(positions), batch):
        chunk = positions[start:start + batch]
        roots = _roots(chunk)
        legal = legal_flags(roots)
        logits, predicted = predict_roots(predictor, roots, rules.donuts)
        raw_keeps.append(_keeps(chunk, masked_policy(logits, legal).argmax(axis=1)))
        value_right.append(np.sign(predicted) == values[start:start + batch])
        for n in simulations:
            search = BatchSearch(len(chunk), n)
            result = search.run(predictor, roots, np.ones(len(chunk), dtype=np.bool_), rules)
            searched[n].append(_keeps(chunk, best_squares(result, legal)))
    raw, right = np.concatenate(raw_keeps), np.concatenate(value_right)
    found = {n: np.concatenate(v) for n, v in searched.items()}

    def share(flags: npt.NDArray[np.bool_], mask: npt.NDArray[np.bool_] | None = None) -> float:
        chosen = flags if mask is None else flags[mask]
        return float(chosen.mean()) if len(chosen) else float("nan")

    return Accuracy(positions=len(positions), critical_positions=int(critical.sum()), policy=share(raw), value=share(right),
                    critical_policy=share(raw, critical), searched={n: share(f) for n, f in found.items()},
                    critical_searched={n: share(f, critical) for n, f in found.items()})


def probe_positions() -> list[SuitePosition]:
    """The :data:`PROBE_POSITIONS` first of :func:`load_positions`: what ``donuts-ai train``
    and ``benchmarks.supervised`` measure their checkpoints on, so that their curves share
    an axis."""
    return load_positions()[:PROBE_POSITIONS]


def probe_baselines(positions: list[SuitePosition], seed: int = 0) -> dict[str, float]:
    """What two agents that know nothing of the network score on ``positions``, the share a
    policy's move is measured by (it keeps the solver's value), so that a training curve has
    its baselines beside it: ``"random"``, the expected share of a uniformly random legal
    move (exact: the share of value-keeping moves, averaged), and ``"greedy"``, the greedy
    agent's (one ply of heuristics; seeded by ``seed`` for its ties)."""
    from ..donuts.agents.greedy import GreedyAgent

    greedy = GreedyAgent(seed=seed)
    random_shares, greedy_keeps = [], []
    for position in positions:
        board = position.board()
        legal = board.legal_moves()
        random_shares.append(sum(position.keeps(move) for move in legal) / len(legal))
        greedy_keeps.append(position.keeps(greedy.select_move(board)))
    return {"random": float(np.mean(random_shares)), "greedy": float(np.mean(greedy_keeps))}


def accuracy_probe(positions: list[SuitePosition]) -> Callable[[Network], tuple[float, float]]:
    """``measure(network) -> (policy share, value share)`` on ``positions``: what the trainer
    reports at each checkpoint."""

    def probe(network: Network) -> tuple[float, float]:
        result = measure(network, positions)
        return result["policy"], result["value"]

    return probe
