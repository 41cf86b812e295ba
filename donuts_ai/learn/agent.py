"""AlphaZeroAgent (spec ``az``): the learned network, searched by PUCT or played raw.

``az`` plays the network shipped with the library (:data:`SHIPPED_NETWORK`);
``az:checkpoint=PATH`` another one (a folder saved by :func:`~.network.save_network`, or a
training run's folder, whose last checkpoint it reads). ``simulations=N`` simulations a move
(``simulations=0``: the raw policy's most probable legal square, no search), ``time=S`` seconds a
move at most (the search stops between rounds when it is up, and is capped in blitz by
:func:`~donuts_ai.agents.base.budget`). The search is the self-play's, without the root's
Dirichlet noise: the most visited square is played, ties going to the higher prior. With
a simulation limit the moves are fixed by the position; with a time limit the number of
simulations, hence the move, can vary. ``search=gumbel`` searches by Gumbel root selection
and Sequential Halving instead (:meth:`~.batched_search.BatchSearch.run_gumbel`, leaves the
solver settles cheaply made terminal) and plays the move it chooses; its Gumbel noise
comes from the agent's seed, so a seeded agent plays the same moves. ``exploration=C`` is
PUCT's exploration constant.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .._checks import check_int
from ..agents.base import SIMULATIONS, budget, check_exploration, check_time_limit, now
from ..donuts import kernels as K
from ..donuts.agents.donuts_agent import DonutsAgent
from ..donuts.board import Board
from ..donuts.planes import NUM_PLANES, SEARCH_ROOT
from ..donuts.squares import SIZE, SQUARE_NAMES
from ..errors import AgentError
from .batched_search import C_PUCT, BatchSearch, Predictor, best_squares, masked_policy, network_predictor, predict_roots
from .buffer import legal_flags
from .network import Network, load_network, network_in

#: The network shipped with the library (trained by ``donuts-ai train``; see RESULTS).
SHIPPED_NETWORK = Path(__file__).parent / "data"
#: Most simulations a move.
MAX_SIMS = 100_000
DEFAULT_SIMS = 200
#: The searches ``search=`` names.
AGENT_SEARCHES = ("puct", "gumbel")
#: Batch sizes the Gumbel search asks the network about (compiled before the first move).
GUMBEL_BATCHES = (2, 4, 8, 16)  # and 1, compiled for every search

_NETWORKS: dict[str, Network] = {}
_LOCK = threading.Lock()


def network_folder(path: str | Path | None) -> Path:
    """The folder holding the network named by ``path``: the shipped one for ``None``, else
    :func:`~.network.network_in` (a saved network, a training run's last checkpoint, a
    supervised run's last network)."""
    return SHIPPED_NETWORK if path is None else network_in(path)


def cached_network(path: str | Path | None) -> Network:
    """The network at ``path`` (see :func:`network_folder`), loaded once per process."""
    folder = network_folder(path)
    key = str(folder.resolve())
    with _LOCK:
        if key not in _NETWORKS:
            _NETWORKS[key] = load_network(folder)
        return _NETWORKS[key]


def root_record(board: Board) -> np.ndarray:
    """A one-game :data:`~donuts_ai.donuts.planes.SEARCH_ROOT` array of ``board``'s position (the
    search's root), from its side to move."""
    _, _, turn, _, p0, p1 = board.kernel_state()
    pos = K.position(board)
    record = np.zeros(1, dtype=SEARCH_ROOT)
    record["own"], record["opp"], record["last"] = pos.own, pos.opp, pos.last
    record["placed_own"], record["placed_opp"], record["color"] = pos.placed_own, pos.placed_opp, turn
    record["legal"] = np.uint64(board.legal_mask())
    record["plies"] = p0 + p1
    record["line_masks"][0] = board.layout.line_masks
    record["directions"][0] = board.layout.directions
    return record


def _padded_to_powers_of_two(predictor: Predictor) -> Predictor:
    """``predictor`` asked about batches padded with zeros to the next power of two (one
    compiled network call per power, whatever the batch), its answers cut back."""

    def padded(planes: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        n = len(planes)
        size = 1 << max(n - 1, 0).bit_length()
        if size == n:
            return predictor(planes)
        filled = np.zeros((size, *planes.shape[1:]), dtype=planes.dtype)
        filled[:n] = planes
        logits, values = predictor(filled)
        return logits[:n], values[:n]

    return padded


class AlphaZeroAgent(DonutsAgent):
    """Plays by the learned policy/value network: PUCT with ``simulations`` simulations (and/or
    ``time_limit`` seconds) a move, or the raw policy with ``simulations=0`` (see the module).
    ``exploration`` is PUCT's exploration constant (:data:`~.batched_search.C_PUCT` by
    default); ``checkpoint`` the network (the shipped one by default). A bad argument is an
    :class:`~donuts_ai.errors.AgentError` naming it (a checkpoint that holds no readable
    network, a ``LearnError``)."""

    kind = "az"

    def __init__(self, simulations: int | None = None, time_limit: float | None = None, *, checkpoint: str | None = None,
                 exploration: float = C_PUCT, search: str = "puct", seed: int | None = None,
                 name: str | None = None):
        super().__init__(seed, name)
        simulations = check_int(SIMULATIONS, simulations, 0, MAX_SIMS, allow_none=True, error=AgentError)
        self.time_limit = check_time_limit(time_limit)
        #: Simulations a move (0: the raw policy); ``None``: as many as the time allows, or the default.
        self.simulations = simulations
        if checkpoint is not None and not isinstance(checkpoint, str | Path):
            raise AgentError(f"checkpoint must be a path, got {checkpoint!r}")
        self.checkpoint = None if checkpoint is None else str(checkpoint)
        self.exploration = check_exploration(exploration, positive=True)
        if not isinstance(search, str) or search not in AGENT_SEARCHES:
            raise AgentError(f"search must be one of {', '.join(AGENT_SEARCHES)}, got {search!r}")
        self.search = search
        self.network = cached_network(self.checkpoint)
        self._predictor = network_predictor(self.network)
        limit = simulations if simulations is not None else (MAX_SIMS if time_limit is not None else DEFAULT_SIMS)
        self._limit = limit
        self._search = BatchSearch(1, limit, self.exploration) if limit > 0 else None
        # Compile the network's one-position call now (once per process and network shape),
        # not inside the first timed move.
        self._predictor(np.zeros((1, SIZE, SIZE, NUM_PLANES), dtype=np.float32))
        if search == "gumbel":
            # Sequential Halving's first phase asks about every considered child at once (1 to
            # 16 positions): padded to a power of two, the network compiles five shapes, now.
            self._predictor = _padded_to_powers_of_two(self._predictor)
            for batch in GUMBEL_BATCHES:
                self._predictor(np.zeros((batch, SIZE, SIZE, NUM_PLANES), dtype=np.float32))
        #: Figures of the last move: simulations run, seconds, the network's value of the
        #: root for the side to move, and the chosen square's visit share (1.0 raw).
        self.last_info: dict[str, Any] = {}

    def params(self) -> dict[str, Any]:
        p: dict[str, Any] = {}
        if self.checkpoint is not None:
            p["checkpoint"] = self.checkpoint
        if self.simulations is not None:
            p[SIMULATIONS] = self.simulations
        if self.time_limit is not None:
            p["time_limit"] = self.time_limit
        if self.exploration != C_PUCT:
            p["exploration"] = self.exploration
        if self.search != "puct":
            p["search"] = self.search
        return p | super().params()

    def _select(self, board: Board, time_left: float | None) -> str:
        start = now()
        root = root_record(board)
        legal = legal_flags(root)
        if self._search is None:
            logits, value = predict_roots(self._predictor, root, board.rules.donuts)
            policy = masked_policy(logits, legal)[0]
            sq = int(np.argmax(policy))
            self.last_info = {"sims": 0, "seconds": now() - start, "value": float(value[0]), "share": 1.0}
            return SQUARE_NAMES[sq]
        seconds = budget(self.time_limit, time_left)
        deadline = None if seconds is None else (lambda: now() >= start + seconds)
        if self.search == "gumbel":
            found = self._search.run_gumbel(self._predictor, root, np.ones(1, dtype=np.bool_), board.rules,
                                            gumbel=np.random.default_rng(self.rng.getrandbits(64)), deadline=deadline)
            visits, sq = found.visits[0], int(found.actions[0])
            total = float(visits.sum())
            self.last_info = {"sims": int(found.simulations[0]), "seconds": now() - start,
                              "value": float(found.root_value[0]), "share": float(visits[sq]) / total if total else 1.0}
            return SQUARE_NAMES[sq]
        result = self._search.run(self._predictor, root, np.ones(1, dtype=np.bool_), board.rules, deadline=deadline)
        visits = result.visits[0]
        sq = int(best_squares(result, legal)[0])
        total = float(visits.sum())
        self.last_info = {"sims": result.simulations, "seconds": now() - start, "value": float(result.root_value[0]),
                          "share": float(visits[sq]) / total if total else 1.0}
        return SQUARE_NAMES[sq]
