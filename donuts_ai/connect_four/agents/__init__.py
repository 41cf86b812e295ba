"""Connect Four's own agents, each a :class:`ConnectFourAgent`, on the compiled engine
(:mod:`donuts_ai.connect_four.kernels`): :class:`GreedyAgent`
(a win at once, else a move that does not lose at once), :class:`SolverAgent` (perfect
play, by the generic compiled solver of :mod:`donuts_ai.search.solver`),
:class:`AlphaBetaAgent` (that solver, deepened as time allows) and :class:`MCTSAgent` (UCT
with MCTS-Solver, the compiled tree of :mod:`donuts_ai.search.mcts`). The game's other
kind (``random``) and the ``generic-*`` kinds are the generic agents of every game
(:mod:`donuts_ai.agents.generic`). :data:`AGENTS` names the classes by dotted path."""

from __future__ import annotations

from typing import Any, TypedDict

from ...agents.base import Agent, budget, check_exploration, check_flag, check_time_limit, now, positive_int
from ...agents.registry import LazyRegistry
from ...errors import AgentError, GameOverError
from ..kernels import CELLS, WIDTH, legal, position, safe, winning
from ..solve import MAX_TABLE_BITS
from ..state import COLUMN_NAMES, ConnectFourState

#: The agent kinds of Connect Four's own, by spec name (dotted paths, imported when first used).
AGENTS: LazyRegistry[type[Agent]] = LazyRegistry({
    "greedy": "donuts_ai.connect_four.agents:GreedyAgent",
    "solver": "donuts_ai.connect_four.agents:SolverAgent",
    "alphabeta": "donuts_ai.connect_four.agents:AlphaBetaAgent",
    "mcts": "donuts_ai.connect_four.agents:MCTSAgent",
})


def _columns(mask: int) -> list[str]:
    """The letters of the columns whose bits are set in ``mask``, left to right."""
    return [name for column, name in enumerate(COLUMN_NAMES) if mask >> column & 1]


class ConnectFourAgent(Agent):
    """A Connect Four player: :meth:`select_move` takes a
    :class:`~donuts_ai.connect_four.state.ConnectFourState` and answers a column letter.
    Subclasses implement :meth:`_select`."""

    def select_move(self, view: Any, time_left: float | None = None) -> str:
        """The move this agent plays.

        Args:
            view: a :class:`~donuts_ai.connect_four.state.ConnectFourState` whose game goes on.
            time_left: the player's clock in seconds, or ``None``.

        Returns:
            A column letter.

        Raises:
            AgentError: ``view`` is not a Connect Four state.
            GameOverError: the game is over.
        """
        who = type(self).__name__
        if not isinstance(view, ConnectFourState):
            raise AgentError(f"{who}.select_move needs a ConnectFourState, got {type(view).__name__}")
        if view.is_game_over():
            raise GameOverError(f"{who}.select_move: the game is over")
        return self._select(view, time_left)

    def _select(self, board: ConnectFourState, time_left: float | None) -> str:
        """The column letter to play in ``board`` (a game that goes on)."""
        raise NotImplementedError


class GreedyAgent(ConnectFourAgent):
    """One ply, exact: a move that wins at once, else a seeded random move among those after
    which the opponent cannot win at once, else (every move loses) a random legal one."""

    kind = "greedy"

    def _select(self, board: ConnectFourState, time_left: float | None) -> str:
        pos = position(board)
        for mask in (winning(0, pos), safe(0, pos), legal(0, pos)):
            if mask:
                return str(self.rng.choice(_columns(int(mask))))
        raise AgentError("no legal move")  # never: a game that goes on has a legal move


class SolverInfo(TypedDict, total=False):
    """:attr:`SolverAgent.last_info`: figures of the last move (empty before the first)."""

    score: int | None  # Pons' score of the position for the side to move (None when the budget ran out)
    nodes: int  # positions explored
    seconds: float
    proven: bool


class SolverAgent(ConnectFourAgent):
    """Perfect play: a move of the best Pons score (:func:`donuts_ai.connect_four.solve`),
    the first such column from the centre out; ``nodes`` caps the positions explored a move
    (then the best move found so far is played, ``proven`` False)."""

    kind = "solver"

    def __init__(self, *, nodes: int | None = None, table_bits: int = 22, seed: int | None = None,
                 name: str | None = None) -> None:
        """A perfect player.

        Args:
            nodes: the most positions explored a move (``None``: no limit).
            table_bits: the solver's table holds ``2**table_bits`` entries.
            seed: the seed of the agent's random stream.
            name: the agent's name in tables (default: its spec).

        Raises:
            AgentError: a bad option.
        """
        super().__init__(seed, name)
        self.nodes = positive_int("nodes", nodes)
        self.table_bits = positive_int("table_bits", table_bits, allow_none=False)
        self.last_info: SolverInfo = {}

    def _select(self, board: ConnectFourState, time_left: float | None) -> str:
        from ..solve import analyze

        start = now()
        analysis = analyze(board, max_nodes=self.nodes, table_bits=self.table_bits)
        known = [m for m in analysis.moves if m.score is not None]
        best = max(known, key=lambda m: (m.score, -abs(COLUMN_NAMES.index(m.move) - 3))) if known else None
        move = best.move if best is not None else self.rng.choice(board.legal_moves())
        self.last_info = {"score": analysis.score, "nodes": analysis.nodes, "seconds": now() - start,
                          "proven": analysis.score is not None}
        return move


class AlphaBetaInfo(TypedDict, total=False):
    """:attr:`AlphaBetaAgent.last_info`: figures of the last move (empty before the first)."""

    depth: int  # the deepest horizon searched to the end, in plies
    score: int  # Pons' score of the move played where the search decided it, else 0 (a draw, or not decided)
    nodes: int  # positions explored, every horizon together
    seconds: float
    proven: bool  # the value is exact: a win found, every move lost, or a horizon past the end of the game


#: Nodes a second the node budgets assume until a horizon of :data:`RATE_NODES` nodes at least
#: has measured the agent's own speed.
ASSUMED_NODES_PER_SECOND = 2_000_000
RATE_NODES = 10_000


class AlphaBetaAgent(ConnectFourAgent):
    """Iterative deepening on the generic compiled solver (:func:`donuts_ai.search.solver.analyze_within`,
    every hook of the engine): every move searched to a horizon of 1 ply, then 2, and so on,
    each from an empty table, while ``time_limit`` seconds a move last (the clock checked
    through a node budget from the speed measured so far) or up to ``depth`` plies. A line
    the horizon reaches undecided scores 0, as a draw, so a win or loss found is exact and
    the search stops there. It plays the best move of the deepest horizon finished (ties to
    the centre). Deterministic: ``seed`` changes nothing."""

    kind = "alphabeta"

    def __init__(self, time_limit: float | None = None, *, depth: int | None = None, table_bits: int = 20,
                 seed: int | None = None, name: str | None = None) -> None:
        """An iterative-deepening player.

        Args:
            time_limit: seconds a move (``None``: none, then ``depth`` must bound it).
            depth: the deepest horizon, in plies (``None``: no limit).
            table_bits: the solver's table holds ``2**table_bits`` entries.
            seed: the seed of the agent's random stream (changes nothing: it is deterministic).
            name: the agent's name in tables (default: its spec).

        Raises:
            AgentError: a bad option.
        """
        super().__init__(seed, name)
        self.time_limit = check_time_limit(time_limit)
        self.depth = positive_int("depth", depth)
        if self.time_limit is None and self.depth is None:
            self.time_limit = 1.0
        self.table_bits = positive_int("table_bits", table_bits, allow_none=False)
        if self.table_bits > MAX_TABLE_BITS:
            raise AgentError(f"table_bits must be at most {MAX_TABLE_BITS}, got {table_bits}")
        self._table: Any = None  # allocated at the first move
        self.last_info: AlphaBetaInfo = {}

    def _select(self, board: ConnectFourState, time_left: float | None) -> str:
        import numpy as np

        from ...search import solver
        from ..rules import RULES
        from ..solve import _analyze_within, _centre_first, pons_score

        start = now()
        seconds = budget(self.time_limit, time_left)
        deadline = None if seconds is None else start + seconds
        pos = position(board)
        stones = int(pos[2])
        if self._table is None:
            self._table = solver.new_table(self.table_bits)
        playable = int(legal(0, pos))
        columns = [c for c in range(WIDTH) if playable >> c & 1]
        best: list[int] | None = None
        depth = nodes = 0
        rate = float(ASSUMED_NODES_PER_SECOND)
        exact = False
        for horizon in range(1, min(self.depth or CELLS, CELLS - stones) + 1):
            if best is not None and deadline is not None and now() >= deadline:
                break
            limit = solver.NO_NODE_LIMIT if deadline is None or best is None else max(1, int((deadline - now()) * rate))
            solver.clear_table(self._table)  # its bounds hold for the horizon they were found at
            began = now()
            scores, explored = _analyze_within(np.int64(RULES), pos, self._table, np.int64(limit), np.int64(horizon))
            nodes += int(explored)
            elapsed = now() - began
            if explored >= RATE_NODES and elapsed > 0:  # a small search times its overhead (or compiling), not its nodes
                rate = int(explored) / elapsed
            found = [int(scores[c]) for c in columns]
            if solver.UNKNOWN_SCORE in found:
                break  # out of time within this horizon: the last finished one decides
            best, depth = found, horizon
            exact = max(found) > 0 or max(found) < 0 or horizon >= CELLS - stones
            if exact:
                break
        assert best is not None  # the first horizon always finishes (no node limit)
        top = max(best)
        column = _centre_first([c for c, score in zip(columns, best, strict=True) if score == top])
        self.last_info = {"depth": depth, "score": pons_score(top, stones) or 0, "nodes": nodes,
                          "seconds": now() - start, "proven": exact}
        return COLUMN_NAMES[column]


class MCTSInfo(TypedDict, total=False):
    """:attr:`MCTSAgent.last_info`: figures of the last move (empty before the first)."""

    simulations: int  # MCTS iterations run
    seconds: float
    nodes: int  # nodes in the tree after the search
    proven: bool  # the root was proven by the MCTS-Solver backups


#: Iterations of one call of the compiled search, the clock read between calls (a few
#: hundred: well under a millisecond at about a million iterations a second).
MCTS_SLICE = 512
#: Default room of the tree, in nodes (20 bytes a node: 80 MiB). A full tree stops
#: growing: later iterations play out from its leaves.
MCTS_MAX_NODES = 1 << 22
#: Fewest nodes a tree may have: the root and its children.
MCTS_MIN_NODES = 64


class MCTSAgent(ConnectFourAgent):
    """Monte-Carlo tree search on the compiled engine: UCT (exploration constant
    ``exploration``; rewards 1 / 0.5 / 0) with uniformly random playouts and MCTS-Solver
    backups (:mod:`donuts_ai.search.mcts`, bound to Connect Four in
    :mod:`donuts_ai.connect_four.agents._mcts`); ``solver=False`` turns the proofs off (plain UCT,
    as OpenSpiel's ``MCTSBot`` with ``solve=False``).

    Limits: ``simulations`` per move, or ``time_limit`` seconds per move (default 1.0 when
    neither is given), capped on a clock by :func:`~donuts_ai.agents.base.budget`; with
    both, whichever comes first. The search runs in calls of :data:`MCTS_SLICE` iterations,
    the clock read between them. It plays a proven win when the tree found one, else the
    most-visited move not proven lost (ties to the lower column). A fresh tree each move,
    of at most ``max_nodes`` nodes (20 bytes a node; a full tree stops growing). With a
    simulation limit and a seed the move is fixed."""

    kind = "mcts"

    def __init__(self, simulations: int | None = None, time_limit: float | None = None, *, exploration: float = 1.0,
                 solver: bool = True, max_nodes: int = MCTS_MAX_NODES, seed: int | None = None,
                 name: str | None = None) -> None:
        """A Monte-Carlo tree search player.

        Args:
            simulations: iterations a move, or ``None``.
            time_limit: seconds a move, or ``None`` (1.0 when neither limit is given).
            exploration: the UCT exploration constant.
            solver: MCTS-Solver backups (``False``: plain UCT).
            max_nodes: the most nodes of a move's tree.
            seed: the seed of the agent's random stream.
            name: the agent's name in tables (default: its spec).

        Raises:
            AgentError: a bad option.
        """
        super().__init__(seed, name)
        self.simulations = positive_int("simulations", simulations)
        self.time_limit = check_time_limit(time_limit)
        if self.simulations is None and self.time_limit is None:
            self.time_limit = 1.0
        self.exploration = check_exploration(exploration)
        self.solver = check_flag("solver", solver)
        self.max_nodes = positive_int("max_nodes", max_nodes, allow_none=False)
        if self.max_nodes < MCTS_MIN_NODES:
            raise AgentError(f"max_nodes must be at least {MCTS_MIN_NODES}, got {max_nodes}")
        self._tree: Any = None  # allocated at the first move
        self.last_info: MCTSInfo = {}

    def _select(self, board: ConnectFourState, time_left: float | None) -> str:
        from ...outcomes import UNKNOWN
        from ...search.mcts import MCTSSettings, reset_tree, root_stats
        from ._mcts import new_tree, run_tree

        start = now()
        seconds = budget(self.time_limit, time_left)
        deadline = None if seconds is None else start + seconds
        pos, to_move = position(board), board.turn
        assert to_move is not None  # a game that goes on
        if self._tree is None:
            self._tree = new_tree(1, self.max_nodes)
        tree = self._tree
        reset_tree(tree, 0, 1 - to_move, self.rng.getrandbits(63))
        settings = MCTSSettings(self.exploration, self.solver)
        done = 0
        # At least one iteration, which expands the root.
        while done == 0 or ((self.simulations is None or done < self.simulations)
                            and (deadline is None or now() < deadline) and tree.proven[0, tree.root[0]] == UNKNOWN):
            todo = MCTS_SLICE if self.simulations is None else min(MCTS_SLICE, self.simulations - done)
            ran, _ = run_tree(tree, 0, pos, to_move, max(1, todo), settings, False)
            if ran == 0:
                break
            done += int(ran)
        moves, visits, _, proven = root_stats(tree, 0)
        wins = [int(m) for m, p in zip(moves, proven, strict=True) if p == 1]
        if wins:
            column = min(wins)
        else:
            candidates = [i for i in range(len(moves)) if proven[i] != -1] or list(range(len(moves)))
            column = int(moves[max(candidates, key=lambda i: (int(visits[i]), -int(moves[i])))])
        self.last_info = {"simulations": done, "seconds": now() - start, "nodes": int(tree.node_count[0]),
                          "proven": bool(tree.proven[0, tree.root[0]] != UNKNOWN)}
        return COLUMN_NAMES[column]


__all__ = ["AGENTS", "ASSUMED_NODES_PER_SECOND", "RATE_NODES", "AlphaBetaAgent", "AlphaBetaInfo", "ConnectFourAgent", "GreedyAgent",
           "MCTSAgent", "MCTSInfo",
           "SolverAgent", "SolverInfo"]
