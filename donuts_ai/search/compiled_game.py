"""A two-player game as compiled functions: the interface the compiled searches of
:mod:`donuts_ai.search` take (the exact solver :mod:`donuts_ai.search.solver` and the
Monte-Carlo tree search :mod:`donuts_ai.search.mcts`), for any two-player, zero-sum game
of perfect information whose rules are written as Numba ``@njit`` functions.

A :class:`CompiledGame` record holds the game's functions. A position ``pos`` is any
Numba value (a tuple of plain words, say), always seen from the side to move; ``rules``
is any value the caller passes, handed to every function unchanged; a move is a bit
index (0 to 63) of a ``uint64`` mask. The required functions (``legal``, ``play``,
``key``) and the game's bounds (``max_plies``, ``alternating``) are :func:`compiled_game`'s
arguments; the optional hooks (:class:`GameHooks`) speed a search up and never change a
value, and a hook left out is this module's default, which means "not known". Inside a
kernel, :func:`hook_given` tells a game's own hook from the default (a constant when the
kernel compiles).

``docs/howto/compile_your_game.md`` shows how to grade a game's record against a plain
reading of its rules, and how to bind the searches in cached kernels of one's own: a
kernel that names a function as a global compiles it in as its address and never caches,
so a game builds the record inside its own ``@njit(cache=True)`` kernel, every field of
:class:`CompiledGame` given, from its functions read as attributes of their module."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numba import njit, types
from numba.core.dispatcher import Dispatcher
from numba.extending import overload

from .._numba_types import Int64

#: A move's status (``play``'s second result): the game goes on, the other player to move.
GOES_ON = 0
#: A move's status: the player who just moved has won.
WON = 1
#: A move's status: the game ended drawn.
DRAWN = 2
#: A move's status: the player who just moved has lost (only where ``alternating`` is False).
LOST = 3
#: A move's status: the game goes on and the same player moves again (only where
#: ``alternating`` is False).
MOVES_AGAIN = 4
#: Moves are the bits of a ``uint64``: at most this many.
MAX_MOVES = 64
#: Every move: the mask with all 64 bits set (:func:`default_safe`).
ALL_MOVES = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
#: The longest game the interface takes, in plies (``max_plies`` at most this): the
#: solver's scores tell every distance apart in 16 bits.
MAX_PLIES = (1 << 14) - 1


class CompiledGame(NamedTuple):
    """A two-player, zero-sum game of perfect information as Numba ``@njit`` functions
    (:func:`compiled_game` and :class:`GameHooks` give each contract). Build one with
    :func:`compiled_game`, or inside a kernel with every field given, defaults included."""

    legal: Callable[..., Any]  # (rules, pos) -> uint64: the legal moves
    play: Callable[..., Any]  # (rules, pos, move) -> (pos, status): the move played, the next player to move
    key: Callable[..., Any]  # (rules, pos) -> uint64: equal keys, same position
    max_plies: int  # the most plies a game lasts, at most MAX_PLIES
    alternating: bool  # players alternate and only the mover wins by a move (no MOVES_AGAIN, no LOST)
    winning: Callable[..., Any]  # (rules, pos) -> uint64: every move that wins at once
    safe: Callable[..., Any]  # (rules, pos) -> uint64: the moves after which the opponent cannot win at once
    plies_left: Callable[..., Any]  # (rules, pos) -> int64: at most this many plies remain
    order: Callable[..., Any]  # (rules, pos, move) -> int64: higher is searched first
    playout: Callable[..., Any]  # (rules, pos, rng) -> (value, rng): a random game to the end, value for the side to move


@njit(cache=True)
def default_winning(rules: Any, pos: Any) -> np.uint64:
    """The default ``winning`` hook: no winning move known (the search plays each move)."""
    return np.uint64(0)


@njit(cache=True)
def default_safe(rules: Any, pos: Any) -> np.uint64:
    """The default ``safe`` hook: :data:`ALL_MOVES` (nothing known; the search keeps every
    legal move)."""
    return ALL_MOVES


@njit(cache=True)
def default_plies_left(rules: Any, pos: Any) -> np.int64:
    """The default ``plies_left`` hook: :data:`MAX_PLIES` (the record's ``max_plies``
    bounds the game)."""
    return np.int64(MAX_PLIES)


@njit(cache=True)
def default_order(rules: Any, pos: Any, move: Int64) -> np.int64:
    """The default ``order`` hook: every move scores 0 (the moves go in bit order)."""
    return np.int64(0)


@njit(cache=True)
def default_playout(rules: Any, pos: Any, rng: np.uint64) -> tuple[np.int64, np.uint64]:
    """The default ``playout`` hook, never called: a search that finds it plays uniformly
    random legal moves through the game's ``legal`` and ``play`` instead."""
    return np.int64(0), rng


#: The default hooks: a hook that is one of these is not the game's own.
DEFAULT_HOOKS: tuple[Callable[..., Any], ...] = (default_winning, default_safe, default_plies_left, default_order,
                                                  default_playout)


def hook_given(hook: Callable[..., Any]) -> bool:
    """Whether ``hook`` is the game's own rather than one of :data:`DEFAULT_HOOKS`; inside a
    kernel, a constant fixed when the kernel compiles (so a branch on it costs nothing).

    Args:
        hook: a field of a :class:`CompiledGame`.

    Returns:
        False for a default hook, True for any other function.
    """
    return not any(hook is default for default in DEFAULT_HOOKS)


@overload(hook_given)
def _hook_given_in_kernels(hook: Any) -> Callable[[Any], bool]:
    """:func:`hook_given` in a kernel: decided from the hook's Numba type at compile time."""
    given = not (isinstance(hook, types.Dispatcher) and any(hook.dispatcher is default for default in DEFAULT_HOOKS))

    # Numba wants the implementation's parameters as the overload's, annotations included.
    def implementation(hook: Any) -> bool:
        return given

    return implementation


@dataclass(frozen=True)
class GameHooks:
    """A compiled game's optional hooks (:func:`compiled_game`); each must be exact, and
    ``None`` is this module's default ("not known").

    Attributes:
        winning: ``(rules, pos) -> uint64``, every move that wins at once.
        safe: ``(rules, pos) -> uint64``, asked only where no move wins at once: the legal
            moves after which the opponent cannot win at once; needs ``winning``.
        plies_left: ``(rules, pos) -> int64``, at most this many plies remain.
        order: ``(rules, pos, move) -> int64``, a move-ordering score, higher searched first
            (ties in bit order, lowest first).
        playout: ``(rules, pos, rng) -> (value, rng)``, for the MCTS: a random game to its
            end, ``value`` +1, 0 or -1 for the side to move, ``rng`` a xorshift64* state
            (``uint64``, never 0) advanced and handed back.
    """

    winning: Callable[..., Any] | None = None
    safe: Callable[..., Any] | None = None
    plies_left: Callable[..., Any] | None = None
    order: Callable[..., Any] | None = None
    playout: Callable[..., Any] | None = None


def compiled_game(
    *,
    legal: Callable[..., Any],
    play: Callable[..., Any],
    key: Callable[..., Any],
    max_plies: int,
    alternating: bool = True,
    hooks: GameHooks | None = None,
) -> CompiledGame:
    """A :class:`CompiledGame` with the defaults filled in for the hooks not given.

    Args:
        legal: ``(rules, pos) -> uint64``, the legal moves; a position whose game goes on
            has one at least (one with none scores as a draw).
        play: ``(rules, pos, move) -> (pos, status)``: the position after the side to move
            plays ``move`` (the same Numba type as ``pos``, from the side of the player to
            move next) and the move's status: :data:`GOES_ON`, :data:`MOVES_AGAIN` (the
            same player moves again), :data:`WON` or :data:`LOST` (for the player who just
            moved) or :data:`DRAWN`.
        key: ``(rules, pos) -> uint64``, the table key: equal keys must mean the same
            position (a hash's collision can give a wrong score, as in every engine).
        max_plies: the most plies a game lasts, 1 to :data:`MAX_PLIES`; the search takes a
            game that would last longer for a draw (a bound too low gives wrong scores).
        alternating: players always alternate and only the mover wins by a move (no
            :data:`MOVES_AGAIN`, no :data:`LOST`): the solver then bisects half as many
            scores, and ``safe`` needs it.
        hooks: the game's own hooks (:class:`GameHooks`); ``None``: none.

    Returns:
        The record, every field a Numba ``@njit`` function but ``max_plies`` and ``alternating``.

    Raises:
        TypeError: a function is not a Numba ``@njit`` function.
        ValueError: ``max_plies`` is out of range, ``alternating`` is not a bool, or ``safe``
            is given without ``winning`` or in a game that does not alternate.
    """
    hooks = GameHooks() if hooks is None else hooks
    winning, safe, plies_left, order, playout = hooks.winning, hooks.safe, hooks.plies_left, hooks.order, hooks.playout
    functions = {"legal": legal, "play": play, "key": key, "winning": winning, "safe": safe,
                 "plies_left": plies_left, "order": order, "playout": playout}
    for name, function in functions.items():
        if function is not None and not isinstance(function, Dispatcher):
            raise TypeError(f"{name} must be a Numba @njit function, not {type(function).__name__}")
    if isinstance(max_plies, bool) or not isinstance(max_plies, int | np.integer) or not 1 <= max_plies <= MAX_PLIES:
        raise ValueError(f"max_plies must be an int from 1 to {MAX_PLIES}, not {max_plies!r}")
    if not isinstance(alternating, bool | np.bool_):
        raise ValueError(f"alternating must be a bool, not {alternating!r}")
    if safe is not None and winning is None:
        raise ValueError("safe is asked only where no move wins at once: give winning with it")
    if safe is not None and not alternating:
        raise ValueError("safe speaks of the opponent's reply: it needs a game whose players alternate (alternating=True)")
    return CompiledGame(
        legal=legal,
        play=play,
        key=key,
        max_plies=int(max_plies),
        alternating=bool(alternating),
        winning=default_winning if winning is None else winning,
        safe=default_safe if safe is None else safe,
        plies_left=default_plies_left if plies_left is None else plies_left,
        order=default_order if order is None else order,
        playout=default_playout if playout is None else playout,
    )


__all__ = ["ALL_MOVES", "DEFAULT_HOOKS", "DRAWN", "GOES_ON", "LOST", "MAX_MOVES", "MAX_PLIES", "MOVES_AGAIN", "WON", "CompiledGame",
           "GameHooks", "compiled_game", "default_order", "default_playout", "default_plies_left", "default_safe", "default_winning",
           "hook_given"]
