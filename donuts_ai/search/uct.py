"""UCT over the state API: Monte-Carlo tree search with uniformly random playouts for any
game whose state speaks :class:`~donuts_ai.state.GameState` (``turn``, ``legal_moves()``,
``push``, ``pop``, ``outcome()``), in plain Python, played by
:class:`~donuts_ai.agents.generic.GenericMCTSAgent`.

One simulation descends from the root by UCB1, expands a leaf visited before with all its
legal moves (the root is expanded first), plays one uniformly random game to its end from
the new node, and backs the result up the path. Everything is played on the one state it
is given, with ``push`` and ``pop`` (no copy per simulation), and the state is left as it
came. The tree is plain Python: a :class:`UCTNode` per node, its children in a dict keyed
by move text, in the order ``legal_moves()`` lists them.

A finished game is worth to each player the share of the other players it finished above
(:func:`rewards_of`), so a free-for-all of any size is searched the same way; in two-player
games MCTS-Solver proves wins and losses, and a proven root stops the search. The random
stream is the caller's ``random.Random``: the same seed, position and budget give the same
tree and move.
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..state import GameState

#: UCB1's exploration constant by default, on rewards in [0, 1] (Donuts' MCTS's default;
#: OpenSpiel's ``uct_c = 2`` on rewards in [-1, 1] scores the same).
DEFAULT_EXPLORATION = 1.0
#: A node's proven value for its mover (:attr:`UCTNode.proven`; ``None`` while open).
WON, DRAWN, LOST = 1, 0, -1
#: The mover of the root: no player (the root's own reward is never read).
NO_PLAYER = -1
#: Players of a game whose outcomes MCTS-Solver proves.
SOLVER_PLAYERS = 2
#: The rewards (player 0's, player 1's) of a two-player node proven ``value`` for
#: ``mover``, by ``(mover, value)``.
_PROVEN_REWARDS = {(mover, value): ((1 + value) / 2, (1 - value) / 2)[:: 1 if mover == 0 else -1]
                   for mover in (0, 1) for value in (WON, DRAWN, LOST)}


class UCTNode:
    """A node of the tree: ``visits``, ``total`` (the rewards backed up through it, for its
    mover), ``children`` (move text -> node, ``None`` while not expanded) and ``proven``
    (:data:`WON`, :data:`DRAWN`, :data:`LOST` for its mover, or ``None``).

    Args:
        move: the move into it.
        mover: the player who played that move (:data:`NO_PLAYER` at the root).
    """

    __slots__ = ("move", "mover", "visits", "total", "children", "proven")

    def __init__(self, move: str, mover: int) -> None:
        self.move = move
        self.mover = mover
        self.visits = 0
        self.total = 0.0
        self.children: dict[str, UCTNode] | None = None
        self.proven: int | None = None


@dataclass(frozen=True)
class ChildStats:
    """One root move after a search: its visits, mean reward for the player to move, and
    proven value for that player (``None`` while open)."""

    move: str
    visits: int
    mean: float
    proven: int | None


@dataclass(frozen=True)
class UCTResult:
    """What :func:`uct_search` found: the move to play, the simulations run, the nodes of
    the tree, whether the root was proven, the move's value for the player to move (its
    mean reward in [0, 1], or 1 / 0.5 / 0 when proven) and every root move's figures."""

    move: str
    simulations: int
    nodes: int
    proven: bool
    value: float
    children: tuple[ChildStats, ...]


def rewards_of(places: Sequence[int]) -> tuple[float, ...]:
    """Each player's reward for a finished game with competition ``places`` (0 first).

    Args:
        places: each player's place, in player order (``outcome().places``).

    Returns:
        Per player, (players placed below + 0.5 x others tied) / (players - 1): a
        two-player win 1, draw 0.5, loss 0; a game of one player is worth 1.
    """
    n = len(places)
    if n < 2:
        return (1.0,) * n
    return tuple((sum(q > p for q in places) + 0.5 * (sum(q == p for q in places) - 1)) / (n - 1) for p in places)


# MCTS-Solver, in two-player games (an outcome with two places): a node whose game is over is
# proven (won, drawn or lost for its mover); a node whose chooser has a child proven won is
# proven won for the chooser, one whose children are all proven takes the best of them.
# Proven nodes end the descents and back up their exact value; proven-lost children are never
# chosen again while another is open. A proven root stops the search and picks the
# proven-best move.
def _prove(node: UCTNode) -> bool:
    """MCTS-Solver at an expanded ``node``: prove it from its children when they allow it;
    returns whether it is proven now."""
    assert node.children is not None  # only parents on a path are proven from below
    best, open_child, chooser = LOST - 1, False, NO_PLAYER
    for child in node.children.values():
        chooser = child.mover
        if child.proven is None:
            open_child = True
        elif child.proven > best:
            best = child.proven
            if best == WON:
                break
    if best != WON and (open_child or best < LOST):
        return False
    # The children's mover chose at ``node``; its own mover may be the same player (a
    # game where a player moves twice running) or the other one.
    node.proven = best if node.mover == chooser else -best
    return True


def _expand(node: UCTNode, moves: Sequence[str], mover: int) -> dict[str, UCTNode]:
    """``node``'s children, one per legal move of ``mover``, in the order given."""
    children = node.children = {move: UCTNode(move, mover) for move in moves}
    return children


def _choose(root: UCTNode) -> UCTNode:
    """The root move to play: a proven win, else the most visited move not proven lost
    (the first listed among equals); when every move is lost, the most visited."""
    assert root.children is not None  # the root is expanded before the first simulation
    children = list(root.children.values())
    wins = [c for c in children if c.proven == WON]
    if wins:
        return max(wins, key=lambda c: c.visits)
    return max([c for c in children if c.proven != LOST] or children, key=lambda c: c.visits)


def _stats(child: UCTNode) -> ChildStats:
    mean = child.total / child.visits if child.visits else 0.0
    return ChildStats(child.move, child.visits, mean, child.proven)


def _result(root: UCTNode, simulations: int, nodes: int) -> UCTResult:
    assert root.children is not None  # the root is expanded before the first simulation
    best = _choose(root)
    value = (1 + best.proven) / 2 if best.proven is not None else _stats(best).mean
    return UCTResult(best.move, simulations, nodes, root.proven is not None, value,
                     tuple(_stats(c) for c in root.children.values()))


def _play_out(state: GameState, moves: Sequence[str], random_unit: Callable[[], float],
              reward_table: dict[tuple[int, ...], tuple[float, ...]]) -> tuple[tuple[float, ...], int]:
    """Uniformly random moves from ``state`` (``moves`` its legal moves) to the end of the
    game, taken back after: (each player's reward, plies played). ``reward_table`` keeps
    the rewards of the places met."""
    push, legal_moves = state.push, state.legal_moves
    plies = 0
    while moves:
        push(moves[int(random_unit() * len(moves))])
        plies += 1
        moves = legal_moves()
    end = state.outcome()
    if end is None:
        raise ValueError(f"{type(state).__name__}: legal_moves() is empty but outcome() is None")
    places = tuple(end.places)
    rewards = reward_table.get(places)
    if rewards is None:
        rewards = reward_table[places] = rewards_of(places)
    pop = state.pop
    for _ in range(plies):
        pop()
    return rewards, plies


def uct_search(state: GameState, *, rng: random.Random, simulations: int | None = None, deadline: float | None = None,
               exploration: float = DEFAULT_EXPLORATION, clock: Callable[[], float] = time.perf_counter) -> UCTResult:
    """UCT from ``state`` (a game that goes on), left as it came.

    Args:
        state: the position, searched in place with ``push`` and ``pop``.
        rng: every random choice of the playouts.
        simulations: the most simulations; ``None``: until ``deadline``.
        deadline: stop once ``clock()`` reaches it (read before every simulation but the
            first); ``None``: ``simulations`` alone.
        exploration: UCB1's constant (rewards lie in [0, 1]).
        clock: the clock ``deadline`` is on.

    Returns:
        The move and figures (:class:`UCTResult`): at least one simulation is run, fewer
        than asked when the root is proven.

    Raises:
        ValueError: no limit at all, a finished game, or a state whose ``legal_moves()``
            is empty while ``outcome()`` says it goes on.
    """
    if simulations is None and deadline is None:
        raise ValueError("uct_search needs a limit: simulations or a deadline")
    push, pop, legal_moves = state.push, state.pop, state.legal_moves
    random_unit, sqrt, log = rng.random, math.sqrt, math.log
    reward_table: dict[tuple[int, ...], tuple[float, ...]] = {}
    moves = legal_moves()
    if not moves or state.turn is None:
        raise ValueError("uct_search: the game is over")
    root = UCTNode("", NO_PLAYER)
    _expand(root, moves, state.turn)
    nodes, done = 1 + len(moves), 0
    limit = sys.maxsize if simulations is None else simulations
    while done < limit and root.proven is None and (deadline is None or not done or clock() < deadline):
        node, path, new_proof = root, [], False
        children: dict[str, UCTNode] | None = root.children
        # Selection: UCB1, unvisited children first in their order, a proven win at once,
        # never a proven loss while another child is open.
        while children is not None and node.proven is None:
            log_parent = log(node.visits or 1)  # the root is expanded before its first visit
            best, best_score = None, -1.0
            for child in children.values():
                visits = child.visits
                if not visits:
                    best = child
                    break
                proof = child.proven
                if proof is not None:
                    if proof == WON:
                        best = child
                        break
                    if proof == LOST:
                        continue
                score = child.total / visits + exploration * sqrt(log_parent / visits)
                if score > best_score:
                    best, best_score = child, score
            node = best if best is not None else next(iter(children.values()))
            push(node.move)
            path.append(node)
            children = node.children
        if node.proven is None:
            moves = legal_moves()
            if node.visits and moves:  # expansion of a leaf visited before; then its first child
                mover = state.turn
                assert mover is not None  # a game with legal moves goes on
                node = _expand(node, moves, mover)[moves[0]]
                nodes += len(moves)
                push(node.move)
                path.append(node)
                moves = legal_moves()
            rewards, plies = _play_out(state, moves, random_unit, reward_table)
            if not plies and len(rewards) == SOLVER_PLAYERS:  # the node's own game is over: proven
                node.proven = round(2 * rewards[node.mover] - 1)
                new_proof = True
        else:  # a proven node ends the descent with its exact value
            rewards = _PROVEN_REWARDS[node.mover, node.proven]
        root.visits += 1
        for on_path in path:
            on_path.visits += 1
            on_path.total += rewards[on_path.mover]
        if new_proof:
            for parent in reversed([root, *path[:-1]]):
                if parent.proven is not None or not _prove(parent):
                    break
        for _ in path:
            pop()
        done += 1
    return _result(root, done, nodes)
