"""Players of Donut Boxes on the harness protocol: random, greedy and information-set MCTS.

Every agent has ``select_move(view, time_left=None) -> str`` and ``reset(seed=None)``,
``kind``, ``name``, ``seed`` and ``spec``: they derive from the agent base of both games,
:class:`donuts_ai.agents.base.Agent`. ``view`` is what the tournament harness hands a player: the
observation of the player to move (:meth:`BoxesState.observation`, a JSON dict); a
:class:`BoxesState` is also taken, and only its observation for the player to move is
used, so no agent ever sees a hidden card. The answer is a legal move text. ``time_left``
is checked as in the board game (:func:`~donuts_ai.agents.base.check_time_left`:
:class:`~donuts_ai.errors.AgentError` for a bad value), and a finished game is refused
with :class:`~donuts_ai.errors.GameOverError`, as in the board game.

Agents sample the hidden cards with :meth:`BoxesState.from_observation` (a
*determinisation*) and draw every random choice from their own stream, seeded by
``seed`` and restarted by :meth:`~BoxesAgent.reset`: the same seed and the same
observations give the same moves (for :class:`ISMCTSAgent`, with an iteration limit).

Kinds (:data:`AGENTS`, a :class:`~donuts_ai.agents.registry.LazyRegistry` like the
board game's :data:`donuts_ai.donuts.agents.AGENTS`; the names of agent specs such as
``ismcts:time=0.1``, made with :func:`donuts_ai.tournament.make_agent` with
``game="boxes"``):

- ``random`` :class:`RandomAgent`: a uniformly random legal move.
- ``greedy`` :class:`GreedyAgent`: the best immediate score, with a box-early rule.
- ``ismcts`` :class:`ISMCTSAgent`: single-observer information-set MCTS, compiled.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any, TypedDict

import numpy as np
from numpy.typing import NDArray

from .._checks import check_int as _check_int
from ..agents.base import (
    SIMULATIONS,
    Agent,
    budget,
    check_exploration,
    check_flag,
    check_time_left,
    check_time_limit,
    positive_int,
)
from ..agents.registry import LazyRegistry
from ..errors import AgentError, GameOverError
from ..search.ismcts import ISMCTSSettings, capacity, clear, grow, new_tree, root_stats
from . import _kernels as E
from ._bound import ismcts
from ._kernels.tables import Codes, Grid
from ._search import (
    CARD_QUADRANTS,
    REWARD_KINDS,
    V_BOX_LEAD,
    V_BOX_POINTS,
    V_OTHERS,
    V_OWN,
    V_POTENTIAL,
    move_values,
)
from .errors import BoxesError
from .moves import move_text
from .rules import BoxesRules
from .state import BoxesState


class BoxesAgentError(BoxesError, AgentError):
    """A bad agent option, or a view an agent cannot answer (not an observation, not the
    observer's turn). Both a :class:`~.errors.BoxesError` and an
    :class:`~donuts_ai.errors.AgentError`; a bad ``time_left`` is an
    :class:`~donuts_ai.errors.AgentError` and a finished game a
    :class:`~donuts_ai.errors.GameOverError`, as in the board game."""


#: Seeds drawn from an agent's stream for a determinisation or a search call: 0 .. 2**SEED_BITS - 1
#: (the compiled random generator takes 32-bit seeds).
SEED_BITS = 32


_tables_cache: dict[int, E.Tables] = {}


def _scratch(players: int) -> E.Tables:
    """Scratch tables for ``players`` (one set per process: agents take turns, never at once)."""
    if players not in _tables_cache:
        _tables_cache[players] = E.empty_tables(players)
    return _tables_cache[players]


def _world_arrays(world: BoxesState) -> tuple[E.Tables, Grid]:
    """The engine arrays of ``world`` (the kernels here only read them)."""
    return world.kernel_state()


_warmed = False


def warm_up() -> None:
    """Load (or compile) every kernel the agents run, once per process, so that no timed
    move pays for it: a few moves of a 2-player game, a greedy evaluation and a search."""
    global _warmed
    if _warmed:
        return
    state = BoxesState(BoxesRules(players=2), seed=0)
    for k in range(3):
        state.push_id(state.random_move_id(k))
    player = state.turn
    assert player is not None  # three moves do not end a game
    world = BoxesState.from_observation(state.observation(player), 0)
    t, grid = _world_arrays(world)
    codes = world.legal_move_ids()
    move_values(t, grid, codes, _scratch(2))
    tree = new_tree(8, 2)
    ismcts(tree, t, grid, _scratch(2), codes, ISMCTSSettings(player, 2, 0, 0.7, 0, 1.0, 0.0))
    root_stats(tree, player)
    clear(tree)
    _warmed = True


class BoxesAgent(Agent):
    """A Donut Boxes player (see the module doc; the seed, the random stream, ``reset``,
    ``params``, ``spec`` and ``repr`` are :class:`~donuts_ai.agents.base.Agent`'s).
    Subclasses implement :meth:`_select`."""

    error = BoxesAgentError
    MIN_SEED = 0

    def select_move(self, view: object, time_left: float | None = None) -> str:
        """A legal move text for the player to move in ``view`` (an observation dict, or a
        :class:`BoxesState`, of which only the player to move's observation is read).
        ``time_left`` is the player's clock in seconds, or ``None``
        (:func:`~donuts_ai.agents.base.check_time_left`)."""
        time_left = check_time_left(time_left)
        obs = self._observation(view)
        start = time.perf_counter()
        world = BoxesState.from_observation(obs, self.rng.getrandbits(SEED_BITS))
        codes = world.legal_move_ids()
        if codes.size == 1:  # nothing to choose: answer at once, whatever the budget
            return move_text(int(codes[0]))
        return move_text(int(self._select(world, codes, obs["player"], start, time_left)))

    def _observation(self, view: object) -> Mapping[str, Any]:
        """The observation dict in ``view``, its basics checked (:meth:`BoxesState.from_observation`
        checks the rest): JSON values, read by the code that checks them."""
        if isinstance(view, BoxesState):
            if view.is_game_over():
                raise GameOverError("select_move: the game is over")
            player = view.turn
            assert player is not None  # the game goes on
            return view.observation(player)
        if not isinstance(view, dict):
            raise BoxesAgentError(f"select_move needs an observation dict or a BoxesState, got {type(view).__name__}")
        if view.get("over"):
            raise GameOverError("select_move: the game is over")
        if "player" not in view or view.get("to_move") != view["player"]:
            raise BoxesAgentError(f"select_move: the observation is player {view.get('player')!r}'s but player "
                                  f"{view.get('to_move')!r} is to move")
        return view

    def _select(self, world: BoxesState, codes: Codes, player: int, start: float,
                time_left: float | None) -> int:
        """The code of the move to play: ``codes`` are the legal moves (two or more) in
        ``world``, a determinisation of the observation of ``player`` (to move); ``start``
        is when the move was asked (``time.perf_counter``)."""
        raise NotImplementedError


class RandomAgent(BoxesAgent):
    """A uniformly random legal move, drawn from the agent's seeded stream."""

    kind = "random"

    def _select(self, world: BoxesState, codes: Codes, player: int, start: float, time_left: float | None) -> int:
        return int(codes[self.rng.randrange(codes.size)])


#: Default least points a run must be worth for :class:`GreedyAgent` to box it early. Against
#: greedy players boxing from 6 points (40-80 games, 2 and 4 players), 10 scored 55-65%
#: of the places, 3 and 4 only 20-42%, never boxing early 48-56%.
DEFAULT_BOX_POINTS = 10


class GreedyAgent(BoxesAgent):
    """The best immediate score for the mover, with a box-early rule.

    Every legal move is played on a copy (compiled: :func:`~._search.move_values`) and the
    move with the largest key wins, keys compared in order:

    1. the points the mover scores with it (boxes it seals and wins, a box early, the
       end-of-game runs when the move ends the game);
    2. fewer points for the best-served other player (a seal can hand a box to the
       majority holder);
    3. the mover's *potential* after it: the points the open runs of 3 or more would give
       the mover if the game ended now, less the largest other player's (so it grows
       runs it holds and spoils runs others hold);
    4. a seeded random draw.

    **Box-early rule.** A box-early move is considered only when the run is *worth it*, at
    least ``box_points`` points (default :data:`DEFAULT_BOX_POINTS`; a roll doubles a
    run), and *at risk*: under Coffee's For Closers (whoever seals it would score it),
    or when the mover's lead in it (their donuts less the most any other player holds)
    is at most 4, the donuts one card can add, so that the next player could tie or
    take it. Otherwise the run is left to grow. A considered box-early move competes on
    the same keys (its points are its immediate score).
    """

    kind = "greedy"

    def __init__(self, seed: int | None = None, *, box_points: int = DEFAULT_BOX_POINTS, name: str | None = None) -> None:
        super().__init__(seed, name)
        self.box_points = _check_int("box_points", box_points, minimum=E.MIN_BOX, error=BoxesAgentError)
        warm_up()

    def params(self) -> dict[str, object]:
        out: dict[str, object] = super().params()
        if self.box_points != DEFAULT_BOX_POINTS:
            out["box_points"] = self.box_points
        return out

    def _select(self, world: BoxesState, codes: Codes, player: int, start: float, time_left: float | None) -> int:
        return int(codes[greedy_order(world, codes, self.box_points, self.rng, keep_boxes=False)[0]])


def _box_considered(row: NDArray[np.int64], closers: bool, box_points: int) -> bool:
    """The box-early rule (:class:`GreedyAgent`) on a row of :func:`~._search.move_values`."""
    considered: bool = row[V_BOX_POINTS] >= box_points and (closers or row[V_BOX_LEAD] <= CARD_QUADRANTS)
    return considered


def greedy_order(world: BoxesState, codes: Codes, box_points: int, rng: random.Random,
                 keep_boxes: bool) -> NDArray[np.int64]:
    """Indices into ``codes`` (the legal moves of ``world``), best first by
    :class:`GreedyAgent`'s keys (ties broken by ``rng``). Box-early moves the box-early
    rule leaves out are dropped, or, with ``keep_boxes``, ranked as scoring nothing."""
    t, grid = _world_arrays(world)
    values = move_values(t, grid, codes, _scratch(world.num_players))
    closers = world.rules.closers
    # (own points, less the best other's, potential, a random draw, the index): best last.
    keys: list[tuple[int, int, int, float, int]] = []
    for i in range(codes.size):
        row = values[i]
        own = int(row[V_OWN])
        if row[V_BOX_POINTS] >= 0 and not _box_considered(row, closers, box_points):
            if not keep_boxes:
                continue
            own = 0
        keys.append((own, -int(row[V_OTHERS]), int(row[V_POTENTIAL]), rng.random(), i))
    if not keys:  # only box-early moves left out: cannot happen (a placement or stuck move is always legal)
        keys = [(0, 0, 0, 0.0, i) for i in range(codes.size)]
    keys.sort(reverse=True)
    return np.array([k[-1] for k in keys], dtype=np.int64)


#: Default exploration constant of UCB1 (rewards lie in [0, 1]).
DEFAULT_EXPLORATION = 0.7
#: Default time per move when neither ``time_limit`` nor ``simulations`` is given.
DEFAULT_TIME_LIMIT = 1.0
#: Iterations of the first timed call, before the speed is known: small, so a tiny budget is kept.
FIRST_CHUNK = 2
#: Timed iterations run in calls of about this long, the clock read between them.
CHUNK_SECONDS = 0.004
#: A call is sized to at most this share of the time left.
LEFT_SHARE = 0.5
#: A call runs at most this many times the iterations of the one before.
MAX_CHUNK_GROWTH = 4
#: Most iterations in one timed call.
MAX_CHUNK = 1 << 14
#: Nodes the tree has room for at first; it doubles when a call could fill it.
FIRST_NODES = 1 << 12
#: Most nodes a tree may hold (one node per iteration; 64 + 8 x players bytes each, so at
#: most 160 MB with 10 players): a search stops when it is full, after some 200 s.
MAX_NODES = 1 << 21
#: The widening factor that lets the root hold every move at once.
NO_WIDENING = -1.0
#: A call is taken to last at least this long when measuring the speed.
MIN_CALL_SECONDS = 1e-6


class ISMCTSInfo(TypedDict, total=False):
    """:attr:`ISMCTSAgent.last_info`: figures of the last searched move (empty before one)."""

    iterations: int
    calls: int
    seconds: float  # the whole move
    search_seconds: float  # in the tree
    root_moves: int
    root_children: int
    nodes: int


class ISMCTSAgent(BoxesAgent):
    """Single-observer information-set MCTS (:mod:`donuts_ai.search.ismcts`): every iteration deals the
    hidden cards afresh, walks the tree of every player's moves among those legal in that
    world (UCB1 on availability, exploration ``exploration``), expands one move, plays
    out at random in compiled code and backs up every player's reward.

    ``reward``: ``"rank"`` (default: the share of the other players beaten, ties half) or
    ``"score"`` (that, half and half with the score over the best score).

    ``prior`` (default ``True``): the root tries the observer's moves in the greedy
    agent's order (:class:`GreedyAgent`'s keys with the same ``box_points``; box-early
    moves its rule leaves out come last among the moves scoring nothing) and holds
    ``widen_base + sqrt(visits)`` of them at most (progressive widening), so a short
    search spends its iterations on the likeliest moves; ``False`` tries them in a
    seeded random order, all at once.

    Limits: ``simulations`` per move (ISMCTS iterations: each deals a world and walks,
    expands, plays out and backs up once), or ``time_limit`` seconds per move (default
    :data:`DEFAULT_TIME_LIMIT` when neither is given; with both, whichever comes first),
    capped by a twentieth of the clock in a timed game. A timed search runs in calls of a
    few milliseconds, the clock read between them, and always at least one iteration; a
    move with a single legal answer is played without searching. The played move is the
    most visited root child (then the best mean reward). With a simulation limit (and no
    time limit) the seed fixes every move. The tree (64 + 8 x players bytes a node, a node
    per iteration) is rebuilt each move; a search stops when it holds :data:`MAX_NODES`.
    """

    kind = "ismcts"

    def __init__(self, simulations: int | None = None, time_limit: float | None = None, *,
                 exploration: float = DEFAULT_EXPLORATION, reward: str = "rank", prior: bool = True,
                 widen_base: int = 8, box_points: int = DEFAULT_BOX_POINTS,
                 seed: int | None = None, name: str | None = None) -> None:
        super().__init__(seed, name)
        #: Simulations (ISMCTS iterations) a move; ``None``: timed.
        self.simulations = positive_int(SIMULATIONS, simulations, error=BoxesAgentError)
        self.time_limit = check_time_limit(time_limit, error=BoxesAgentError)
        if self.time_limit is None and self.simulations is None:
            self.time_limit = DEFAULT_TIME_LIMIT
        self.exploration = check_exploration(exploration, error=BoxesAgentError)
        # Checked at run time: a caller may pass anything.
        value: object = reward
        if not isinstance(value, str) or value not in REWARD_KINDS:
            raise BoxesAgentError(f"reward must be one of {', '.join(REWARD_KINDS)}, got {reward!r}")
        self.reward = value
        self.prior = check_flag("prior", prior, error=BoxesAgentError)
        self.widen_base = _check_int("widen_base", widen_base, minimum=1, error=BoxesAgentError)
        self.box_points = _check_int("box_points", box_points, minimum=E.MIN_BOX, error=BoxesAgentError)
        self._tree = new_tree(FIRST_NODES, 2)
        #: Figures of the last searched move: ``iterations``, ``calls``, ``seconds`` (the whole
        #: move), ``search_seconds`` (in the tree), ``root_moves``, ``root_children``, ``nodes``.
        self.last_info: ISMCTSInfo = {}
        warm_up()

    def params(self) -> dict[str, object]:
        out: dict[str, object] = {}
        if self.simulations is not None:
            out[SIMULATIONS] = self.simulations
        if self.time_limit is not None:
            out["time_limit"] = self.time_limit
        if self.exploration != DEFAULT_EXPLORATION:
            out["exploration"] = self.exploration
        if self.reward != "rank":
            out["reward"] = self.reward
        if not self.prior:
            out["prior"] = False
        if self.widen_base != 8:
            out["widen_base"] = self.widen_base
        if self.box_points != DEFAULT_BOX_POINTS:
            out["box_points"] = self.box_points
        return out | super().params()

    def _root_order(self, world: BoxesState, codes: Codes) -> tuple[Codes, float]:
        """The root moves in the order the root expands them, and the widening factor."""
        if not self.prior:
            order = list(range(codes.size))
            self.rng.shuffle(order)
            return codes[np.array(order, dtype=np.int64)], NO_WIDENING
        return codes[greedy_order(world, codes, self.box_points, self.rng, keep_boxes=True)], 1.0

    def _select(self, world: BoxesState, codes: Codes, player: int, start: float, time_left: float | None) -> int:
        limit = budget(self.time_limit, time_left)
        deadline = None if limit is None else start + limit
        players = world.num_players
        t, grid = _world_arrays(world)
        work = _scratch(players)
        root_moves, widen = self._root_order(world, codes)
        tree = self._tree
        if tree.value_sum.shape[1] != players:
            tree = new_tree(capacity(tree), players)
        clear(tree)
        reward_kind = REWARD_KINDS.index(self.reward)
        done, chunk, calls, searching = 0, FIRST_CHUNK, 0, 0.0
        while True:
            if deadline is None:
                assert self.simulations is not None  # no time limit, so a simulation limit
                n = self.simulations - done
            else:
                n = chunk
            if self.simulations is not None:
                n = min(n, self.simulations - done)
            n = min(n, MAX_NODES - int(tree.node_count[0]))
            if n <= 0:
                break
            if int(tree.node_count[0]) + n > capacity(tree):
                tree = grow(tree, min(MAX_NODES, max(2 * capacity(tree), int(tree.node_count[0]) + n)))
            settings = ISMCTSSettings(player, n, self.rng.getrandbits(SEED_BITS), float(self.exploration), reward_kind,
                                float(self.widen_base), float(widen))
            began = time.perf_counter()
            ismcts(tree, t, grid, work, root_moves, settings)
            ended = time.perf_counter()
            searching += ended - began
            done += n
            calls += 1
            if self.simulations is not None and done >= self.simulations:
                break
            if deadline is not None:
                left = deadline - ended
                if left <= 0:
                    break
                rate = n / max(ended - began, MIN_CALL_SECONDS)
                chunk = int(min(rate * min(CHUNK_SECONDS, LEFT_SHARE * left), MAX_CHUNK_GROWTH * n, MAX_CHUNK))
                chunk = max(1, chunk)
        self._tree = tree
        moves, visits, means = root_stats(tree, player)
        best = max(range(moves.size), key=lambda k: (visits[k], means[k]))
        self.last_info = {"iterations": done, "calls": calls, "seconds": time.perf_counter() - start,
                            "search_seconds": searching, "root_moves": int(codes.size),
                            "root_children": int(moves.size), "nodes": int(tree.node_count[0])}
        return int(moves[best])


#: Agent classes by ``kind``: the names agent specs use (``ismcts:time=0.1,seed=3``); a
#: :class:`~donuts_ai.agents.registry.LazyRegistry`, the type of the board game's
#: :data:`donuts_ai.donuts.agents.AGENTS`, each class named by its dotted path.
AGENTS: LazyRegistry[type[BoxesAgent]] = LazyRegistry({
    "random": "donuts_ai.boxes.agents:RandomAgent",
    "greedy": "donuts_ai.boxes.agents:GreedyAgent",
    "ismcts": "donuts_ai.boxes.agents:ISMCTSAgent",
})

__all__ = ["AGENTS", "BoxesAgent", "BoxesAgentError", "GreedyAgent", "ISMCTSAgent", "RandomAgent", "warm_up"]
