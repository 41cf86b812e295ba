"""The agent protocol, the one interface between players and the tournament harness, and
the base every agent of both games derives from.

An agent has:

- ``select_move(view, time_left=None) -> move``: the move of the player to move in
  ``view``, never changing ``view``. What a view is, and what a move is, is the game's
  (:meth:`~donuts_ai.tournament.protocol.Game.player_view`): a
  :class:`~donuts_ai.Board` and a square name for Donuts (:class:`~.board_agent.BoardAgent`),
  an observation dict and a move text for Donut Boxes
  (:class:`~donuts_ai.boxes.agents.BoxesAgent`). ``time_left`` is the player's remaining
  clock in seconds (blitz games), or ``None``; searching agents also take a per-move
  budget ``time_limit`` at construction, capped by :func:`budget`.
- ``reset(seed=None)``: a new game; the random stream :attr:`Agent.rng` restarts from
  ``seed`` (default: the agent's own ``seed``), so the same seed, the same set-up and the
  same opponent moves give the same game.
- ``kind`` (its registry name, the head of its spec), ``name`` (how results name it),
  ``seed``, ``params()`` (its constructor parameters), ``spec`` (``kind:key=value,...``,
  enough to rebuild it) and a ``repr`` that is valid Python.

The harness needs only ``select_move`` (and uses ``reset`` when there is one): an agent
named by a ``module:Class`` spec need not derive from :class:`Agent`.

Where a new agent plugs in: derive from the game's base, implement its move choice, and
hand the object or class to the harness (:mod:`donuts_ai.tournament.entries`), give it a
short name at run time (:func:`donuts_ai.tournament.register_agent`), or add the class to
the game's registry (Donuts: :data:`donuts_ai.agents.AGENTS`; Donut Boxes:
:data:`donuts_ai.boxes.agents.BOXES_AGENTS`).
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from typing import Any, Literal, overload

from .._checks import check_int, check_seconds, is_int
from ..errors import DonutsError

#: A player on a clock thinks at most one part in this many of the time it has left on
#: one move, so that one long think cannot lose a blitz game on time.
CLOCK_PARTS = 20


def budget(time_limit: float | None, time_left: float | None) -> float | None:
    """Seconds to spend on this move: the per-move limit ``time_limit`` (``None``: none),
    capped by the clock ``time_left`` over :data:`CLOCK_PARTS` (a twentieth of it) when
    the game is played on one."""
    if time_left is None:
        return time_limit
    share = max(0.0, float(time_left)) / CLOCK_PARTS
    return share if time_limit is None else min(time_limit, share)


def now() -> float:
    """The clock agents measure their thinking time on (``time.perf_counter``)."""
    return time.perf_counter()


@overload
def positive_int(name: str, value: int, allow_none: bool = True, error: type[DonutsError] = DonutsError) -> int: ...
@overload
def positive_int(name: str, value: object, allow_none: Literal[False], error: type[DonutsError] = DonutsError) -> int: ...
@overload
def positive_int(name: str, value: object, allow_none: bool = True, error: type[DonutsError] = DonutsError) -> int | None: ...
def positive_int(name: str, value: object, allow_none: bool = True, error: type[DonutsError] = DonutsError) -> int | None:
    """An agent parameter that must be a positive int (``None`` allowed unless ``allow_none`` is False)."""
    return check_int(name, value, minimum=1, allow_none=allow_none, error=error)


def check_time_limit(time_limit: float | None, error: type[DonutsError] = DonutsError) -> float | None:
    """A per-move time limit: a positive number of seconds, or ``None``."""
    return check_seconds("time_limit", time_limit, error=error)


class Agent(ABC):
    """A player of any game (see the module doc). Subclasses set :attr:`kind`, implement
    :meth:`select_move` (each game's base does: :class:`~.board_agent.BoardAgent`,
    :class:`~donuts_ai.boxes.agents.BoxesAgent`) and extend :meth:`params` with their own
    constructor parameters."""

    #: Registry name, e.g. "random" (set by each subclass).
    kind = "agent"
    #: The error a bad argument raises (a game's agents may raise their own subclass).
    error: type[DonutsError] = DonutsError
    #: The least seed accepted (``None``: any int).
    MIN_SEED: int | None = None

    def __init__(self, seed: int | None = None, name: str | None = None):
        if name is not None and not isinstance(name, str):
            raise self.error(f"name must be a str, got {name!r}")
        self.seed = self._check_seed(seed, self.MIN_SEED)
        self.name = name or self.kind
        self.rng = random.Random(self.seed)

    def _check_seed(self, seed: object, minimum: int | None) -> int | None:
        if seed is None:
            return None
        if not is_int(seed) or (minimum is not None and seed < minimum):
            least = "" if minimum is None else f" >= {minimum}"
            raise self.error(f"seed must be an int{least} or None, got {seed!r}")
        return int(seed)

    def reset(self, seed: int | None = None) -> None:
        """Prepare for a new game: the random stream restarts from ``seed`` or, if
        ``None``, from the agent's own seed."""
        seed = self._check_seed(seed, None)
        self.rng = random.Random(self.seed if seed is None else seed)

    @abstractmethod
    # A view and a move are each game's own types (a Board and a square name for Donuts):
    # ``Any`` here, so that each game's base narrows them.
    def select_move(self, view: Any, time_left: float | None = None) -> Any:
        """The move of the player to move in ``view`` (see the module doc)."""

    def params(self) -> dict[str, object]:
        """Constructor parameters (for :attr:`spec` and results files)."""
        return {} if self.seed is None else {"seed": self.seed}

    @property
    def spec(self) -> str:
        """``kind:key=value,...``: enough to rebuild the agent."""
        params = ",".join(f"{k}={v}" for k, v in self.params().items())
        return f"{self.kind}:{params}" if params else self.kind

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params().items())
        return f"{type(self).__name__}({args})"
