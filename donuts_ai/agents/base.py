"""The agent protocol, the one interface between players and the tournament harness, and
the base every agent of both games derives from.

An agent has:

- ``select_move(view, time_left=None) -> move``: the move of the player to move in
  ``view``, never changing ``view``. What a view is, and what a move is, is the game's
  (:meth:`~donuts_ai.tournament.protocol.Game.player_view`): a
  :class:`~donuts_ai.Board` and a square name for Donuts (:class:`~.board_agent.BoardAgent`),
  an observation dict (or a :class:`~donuts_ai.boxes.BoxesState`, of which only the
  observation of the player to move is read) and a move text for Donut Boxes
  (:class:`~donuts_ai.boxes.agents.BoxesAgent`). ``time_left`` is the player's remaining
  clock in seconds (blitz games), or ``None``; both games check it the same way, with
  :func:`check_time_left` (a finite number >= 0, not a bool, or
  :class:`~donuts_ai.errors.AgentError`), and spend it by the same rule, :func:`budget`
  (searching agents take a per-move budget ``time_limit`` at construction, capped by it).
  A view of a finished game is refused with :class:`~donuts_ai.errors.GameOverError`
  in both games.
- ``reset(seed=None)``: a new game; the random stream :attr:`Agent.rng` restarts from
  ``seed`` (default: the agent's own ``seed``), so the same seed, the same set-up and the
  same opponent moves give the same game.
- ``kind`` (its registry name, the head of its spec), ``name`` (how results name it),
  ``seed``, ``params()`` (its constructor parameters), ``spec`` (``kind:key=value,...``,
  enough to rebuild it) and a ``repr`` that is valid Python.

The harness needs only ``select_move`` (and uses ``reset`` when there is one): an agent
named by a ``module:Class`` spec need not derive from :class:`Agent`.

Both games' agents are made and entered through the same calls:
:func:`donuts_ai.tournament.make_agent` (``make_agent("greedy", game="boxes")``) builds
one from its spec, and :func:`donuts_ai.tournament.register_agent` (``game=`` names the
game) gives a class a short name at run time. Each game's built-in kinds are a
:class:`~donuts_ai.agents.registry.LazyRegistry` (Donuts: :data:`donuts_ai.agents.AGENTS`;
Donut Boxes: :data:`donuts_ai.boxes.agents.BOXES_AGENTS`), which a game's adapter hands
the harness (:meth:`~donuts_ai.tournament.protocol.Game.agent_registry`).

Where a new agent plugs in: derive from the game's base, implement its move choice, and
hand the object or class to the harness (:mod:`donuts_ai.tournament.entries`), give it a
short name at run time (:func:`donuts_ai.tournament.register_agent`), or add the class's
dotted path to the game's registry.
"""

from __future__ import annotations

import math
import numbers
import random
import time
from abc import ABC, abstractmethod
from typing import Any, Literal, overload

from .._checks import check_int, check_seconds, is_int
from ..errors import AgentError, DonutsError

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


def check_time_left(time_left: object) -> float | None:
    """``time_left``, the player's clock handed to ``select_move``, as a float: ``None``
    (no clock) or a finite number of seconds >= 0 (the harness never hands a negative
    clock: running out loses the game). Anything else (a negative number, NaN, infinity,
    a bool, a string) raises :class:`~donuts_ai.errors.AgentError`, in both games."""
    if time_left is None:
        return None
    # ``0 <= x < inf`` written as ``not x < 0 and x < inf``, which NaN fails: ``numbers.Real`` types only ``<``.
    if isinstance(time_left, bool) or not isinstance(time_left, numbers.Real) or not (
            not time_left < 0 and time_left < math.inf):
        raise AgentError(f"time_left must be None or a finite number of seconds >= 0, got {time_left!r}")
    return float(time_left)


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
    :class:`~donuts_ai.boxes.agents.BoxesAgent`, each checking ``time_left`` with
    :func:`check_time_left` first) and extend :meth:`params` with their own constructor
    parameters."""

    #: Registry name, e.g. "random" (set by each subclass).
    kind = "agent"
    #: The error a bad constructor argument raises (a game's agents may raise their own subclass).
    error: type[DonutsError] = AgentError
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
        """The move of the player to move in ``view`` (see the module doc): ``time_left``
        checked by :func:`check_time_left`, a finished game refused with
        :class:`~donuts_ai.errors.GameOverError`."""

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
