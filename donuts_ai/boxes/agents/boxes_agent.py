"""What every Donut Boxes agent shares: :class:`BoxesAgent` (a view in, a move text out),
its error, the scratch tables the compiled helpers write to, and :func:`warm_up`."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from ...agents.base import Agent, check_time_left
from ...errors import AgentError, GameOverError
from ...search.ismcts import ISMCTSSettings, clear, new_tree, root_stats
from .. import _kernels as E
from .._kernels.tables import Codes, Grid
from ..errors import BoxesError
from ..moves import move_text
from ..rules import BoxesRules
from ..state import BoxesState
from ._bound import ismcts
from ._search import move_values


class BoxesAgentError(BoxesError, AgentError):
    """A bad agent option, or a view an agent cannot answer (not an observation, not the
    observer's turn). Both a :class:`~donuts_ai.boxes.errors.BoxesError` and an
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
    """A Donut Boxes player: :meth:`select_move` takes what the harness hands a player (the
    observation of the player to move, :meth:`BoxesState.observation`, or a
    :class:`BoxesState`, of which only that observation is read, so no agent sees a hidden
    card) and answers a legal move text.

    Agents sample the hidden cards (:meth:`BoxesState.from_observation`, a
    *determinisation*) and draw every random choice from their own stream, seeded by
    ``seed`` and restarted by ``reset``: the same seed and observations give the same moves.
    The seed, ``reset``, ``params``, ``spec`` and ``repr`` are
    :class:`~donuts_ai.agents.base.Agent`'s. Subclasses implement :meth:`_select`."""

    error = BoxesAgentError
    MIN_SEED = 0

    def select_move(self, view: object, time_left: float | None = None) -> str:
        """The move this agent plays.

        Args:
            view: the observation dict of the player to move, or a :class:`BoxesState`
                (of which only that player's observation is read).
            time_left: the player's clock in seconds, or ``None``
                (:func:`~donuts_ai.agents.base.check_time_left`).

        Returns:
            A legal move text.

        Raises:
            BoxesAgentError: ``view`` is not an observation of the player to move.
            GameOverError: the game is over.
            AgentError: a bad ``time_left``.
        """
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
