"""The agent protocol, the one interface between players and the tournament harness, and
the base every agent of every game derives from.

An agent has ``select_move(view, time_left=None) -> move``: the move of the player to move
in ``view``, never changing ``view``. What a view and a move are is the game's
(:meth:`~donuts_ai.game.Game.player_view`: a :class:`~donuts_ai.Board` and a square name
for Donuts, an observation dict and a move text for Donut Boxes, a state and a column
letter for Connect Four). ``time_left`` is the
player's remaining clock in seconds, or ``None``, checked by :func:`check_time_left` and
spent by one rule, :func:`budget`. ``reset(seed=None)`` starts a new game, restarting the
random stream :attr:`Agent.rng`. ``kind``, ``name``, ``seed``, ``params()``, ``spec``
(``kind:key=value,...``, enough to rebuild it) and a ``repr`` that is valid Python
describe it; :class:`Agent` fills ``params()`` from its constructor's arguments.

The harness needs only ``select_move`` (and ``reset`` when there is one): an agent named by
a ``module:Class`` spec need not derive from :class:`Agent`.
:func:`donuts_ai.tournament.make_agent` builds an agent from its spec and
:func:`donuts_ai.tournament.register_agent` gives a class a short name at run time; each
game's built-in kinds are a :class:`~donuts_ai.agents.registry.LazyRegistry` (the how-to
"Plug in an agent" says where a new agent plugs in).
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers
import random
import time
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, Literal, overload

from .._checks import check_int, check_seconds, is_int
from ..errors import AgentError, DonutsError

#: A player on a clock thinks at most one part in this many of the time it has left on
#: one move, so that one long think cannot lose a blitz game on time.
CLOCK_PARTS = 20


def budget(time_limit: float | None, time_left: float | None) -> float | None:
    """Seconds to spend on this move: the per-move limit, capped by a twentieth
    (:data:`CLOCK_PARTS`) of the clock when the game is played on one.

    Args:
        time_limit: the per-move limit (``None``: none).
        time_left: the player's clock (``None``: no clock).
    """
    if time_left is None:
        return time_limit
    share = max(0.0, float(time_left)) / CLOCK_PARTS
    return share if time_limit is None else min(time_limit, share)


def check_time_left(time_left: object) -> float | None:
    """The player's clock handed to ``select_move``, as a float, checked the same way in every
    game (the harness never hands a negative clock: running out loses the game).

    Args:
        time_left: ``None`` (no clock) or a finite number of seconds >= 0.

    Raises:
        AgentError: anything else (a negative number, NaN, infinity, a bool, a string).
    """
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
def positive_int(name: str, value: int, allow_none: bool = True, error: type[DonutsError] = AgentError) -> int: ...
@overload
def positive_int(name: str, value: object, allow_none: Literal[False], error: type[DonutsError] = AgentError) -> int: ...
@overload
def positive_int(name: str, value: object, allow_none: bool = True, error: type[DonutsError] = AgentError) -> int | None: ...
def positive_int(name: str, value: object, allow_none: bool = True, error: type[DonutsError] = AgentError) -> int | None:
    """An agent parameter that must be a positive int, checked.

    Args:
        name: the parameter's name, for the error.
        value: the value.
        allow_none: whether ``None`` is allowed.
        error: the error raised, naming it (:class:`~donuts_ai.errors.AgentError` or a subclass).
    """
    return check_int(name, value, minimum=1, allow_none=allow_none, error=error)


#: The one name of a searching agent's budget, a count a move (MCTS's and ISMCTS's
#: iterations, PUCT's and OpenSpiel's simulations): mctx's ``num_simulations``, and the word
#: of the results.
SIMULATIONS = "simulations"


def check_time_limit(time_limit: object, error: type[DonutsError] = AgentError) -> float | None:
    """A per-move time limit, checked.

    Args:
        time_limit: a positive number of seconds, or ``None``.
        error: the error raised (:class:`~donuts_ai.errors.AgentError` or a subclass).
    """
    return check_seconds("time_limit", time_limit, error=error)


def check_exploration(exploration: object, positive: bool = False, error: type[DonutsError] = AgentError) -> float:
    """The exploration constant of a tree search (UCT's or PUCT's ``exploration``, one name in
    every agent), checked, as a float.

    Args:
        exploration: a finite number >= 0, not a bool.
        positive: whether it must be > 0.
        error: the error raised (:class:`~donuts_ai.errors.AgentError` or a subclass).
    """
    # ``0 <= x < inf`` written as ``not x < 0 and x < inf``, which NaN fails: ``numbers.Real`` types only ``<``.
    if isinstance(exploration, bool) or not isinstance(exploration, numbers.Real) or not (
            not exploration < 0 and exploration < math.inf) or (positive and exploration <= 0):
        raise error(f"exploration must be a finite number {'> 0' if positive else '>= 0'}, got {exploration!r}")
    return float(exploration)


def check_flag(name: str, value: object, error: type[DonutsError] = AgentError) -> bool:
    """A yes/no agent parameter, checked.

    Args:
        name: the parameter's name, for the error.
        value: a bool, or (from a spec) the text true/false in any case.
        error: the error raised (:class:`~donuts_ai.errors.AgentError` or a subclass).
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise error(f"{name} must be True or False, got {value!r}")


#: The instance attribute that keeps the arguments an agent's constructor was called with
#: (:meth:`Agent.params`). The digest of an agent object's state in a results file's record
#: leaves it out (:mod:`donuts_ai.tournament.entries`), so records stay what they were.
ARGUMENTS_ATTRIBUTE = "_agent_arguments"
#: Set on an instance while its outermost constructor runs: the constructors it calls
#: (``super().__init__(...)``) record nothing, the outermost call's arguments are the agent's.
_BUILDING_ATTRIBUTE = "_agent_building"
#: The longest text argument recorded (a longer one, like any value that is not a plain
#: number, bool, ``None`` or short text, is left out of :meth:`Agent.params`).
MAX_ARGUMENT_TEXT = 40
#: Characters a recorded text argument may not hold: a spec could not be read back.
_SPEC_CHARACTERS = frozenset(",:=\n")


def _plain(value: object) -> tuple[bool, object]:
    """(whether ``value`` can stand in a spec as ``key=value`` and be read back, the value
    as a Python number when it is a NumPy one)."""
    if value is None or isinstance(value, bool):
        return True, value
    if isinstance(value, numbers.Integral):
        return True, int(value)
    if isinstance(value, numbers.Real):
        return True, float(value)
    if isinstance(value, str):
        ok = bool(value) and len(value) <= MAX_ARGUMENT_TEXT and value == value.strip() and not _SPEC_CHARACTERS & set(value)
        return ok, value
    return False, value


def _is_default(value: object, default: object) -> bool:
    if default is inspect.Parameter.empty:
        return False
    try:
        return type(value) is type(default) and bool(value == default)
    except Exception:  # a default with an odd __eq__: the value is kept
        return False


def _arguments(signature: inspect.Signature, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, object]:
    """The arguments of one constructor call, by name, in the signature's order: those that
    differ from their defaults and are plain values (:func:`_plain`); ``**kwargs`` spread."""
    try:
        bound = signature.bind(None, *args, **kwargs)  # None stands for self
    except TypeError:  # the constructor itself will say what is wrong
        return {}
    out: dict[str, object] = {}
    for name, value in list(bound.arguments.items())[1:]:
        parameter = signature.parameters[name]
        if parameter.kind is parameter.VAR_POSITIONAL:
            continue
        items = value.items() if parameter.kind is parameter.VAR_KEYWORD else [(name, value)]
        for key, item in items:
            default = parameter.default if parameter.kind is not parameter.VAR_KEYWORD else inspect.Parameter.empty
            ok, plain = _plain(item)
            if ok and not _is_default(plain, default):
                out[key] = plain
    return out


def _recording(init: Callable[..., None]) -> Callable[..., None]:
    """``init``, a constructor of an :class:`Agent` class, made to keep the arguments of
    the outermost call on the instance (:data:`ARGUMENTS_ATTRIBUTE`)."""
    if getattr(init, "_records_arguments", False):
        return init
    try:
        signature = inspect.signature(init)
    except (TypeError, ValueError):  # no signature to read: nothing recorded
        return init

    @functools.wraps(init)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        state = getattr(self, "__dict__", None)
        if not isinstance(state, dict) or state.get(_BUILDING_ATTRIBUTE):
            init(self, *args, **kwargs)
            return
        state[_BUILDING_ATTRIBUTE] = True
        try:
            state[ARGUMENTS_ATTRIBUTE] = _arguments(signature, args, kwargs)
            init(self, *args, **kwargs)
        finally:
            state.pop(_BUILDING_ATTRIBUTE, None)

    __init__._records_arguments = True  # type: ignore[attr-defined]
    return __init__


#: Per class: the constructor parameters that the class's own :meth:`Agent.params`
#: overrides report themselves (:func:`_covered`).
_COVERED: weakref.WeakKeyDictionary[type, frozenset[str]] = weakref.WeakKeyDictionary()


def _covered(cls: type) -> frozenset[str]:
    """The parameters :meth:`Agent.params` leaves to ``cls``'s classes: ``seed`` and
    ``name`` (the base's), and those of the constructor of every class that overrides
    ``params`` (it reports its own, perhaps under other keys or with other values)."""
    covered = _COVERED.get(cls)
    if covered is None:
        names = {"seed", "name"}
        for klass in cls.__mro__:
            if klass is Agent:
                break
            if "params" not in vars(klass):
                continue
            try:
                parameters = inspect.signature(klass.__init__).parameters.values()  # type: ignore[misc]
            except (TypeError, ValueError):
                continue
            names |= {p.name for p in parameters if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
        covered = _COVERED[cls] = frozenset(names)
    return covered


class Agent(ABC):
    """A player of any game. Subclasses set :attr:`kind` and implement :meth:`select_move` (each
    game's base does: :class:`~donuts_ai.donuts.agents.donuts_agent.DonutsAgent`,
    :class:`~donuts_ai.boxes.agents.BoxesAgent`, each checking ``time_left`` with
    :func:`check_time_left` first). :meth:`params` reports the constructor's arguments by
    itself; a subclass may override it (its constructor's parameters are then its own to
    report).

    Args:
        seed: the random stream's seed (``None``: unseeded).
        name: how results name it (default: its kind).
    """

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
        """Prepare for a new game: the random stream restarts.

        Args:
            seed: the stream's seed; ``None``: the agent's own seed.
        """
        seed = self._check_seed(seed, None)
        self.rng = random.Random(self.seed if seed is None else seed)

    @abstractmethod
    # A view and a move are each game's own types (a Board and a square name for Donuts):
    # ``Any`` here, so that each game's base narrows them.
    def select_move(self, view: Any, time_left: float | None = None) -> Any:
        """The move of the player to move in ``view``.

        Args:
            view: what the game shows the player (:meth:`~donuts_ai.game.Game.player_view`),
                unchanged.
            time_left: the player's clock in seconds, or ``None``.

        Raises:
            AgentError: a bad ``time_left`` (:func:`check_time_left`).
            GameOverError: a finished game.
        """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        init = vars(cls).get("__init__")
        if init is not None:  # every constructor keeps its call's arguments (params)
            cls.__init__ = _recording(init)  # type: ignore[method-assign]

    def params(self) -> dict[str, object]:
        """Constructor parameters (for :attr:`spec`, :attr:`name`-less tables and results
        files): the arguments the constructor was called with (the outermost call, keyword
        or positional, by name), those that differ from their defaults and are plain values
        (numbers, bools, ``None``, short text that a spec can hold), then ``seed`` when it is
        set. A subclass that overrides ``params`` reports its own constructor's parameters:
        they are left out here (``{**mine, **super().params()}`` repeats none)."""
        recorded: dict[str, object] = vars(self).get(ARGUMENTS_ATTRIBUTE, {})
        covered = _covered(type(self))
        out = {k: v for k, v in recorded.items() if k not in covered}
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    @property
    def spec(self) -> str:
        """``kind:key=value,...``: enough to rebuild the agent."""
        params = ",".join(f"{k}={v}" for k, v in self.params().items())
        return f"{self.kind}:{params}" if params else self.kind

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params().items())
        return f"{type(self).__name__}({args})"


Agent.__init__ = _recording(Agent.__init__)  # type: ignore[method-assign]
