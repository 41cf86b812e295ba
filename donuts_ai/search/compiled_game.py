"""A two-player game as compiled functions: the interface the compiled searches of
:mod:`donuts_ai.search` take (the exact solver :mod:`donuts_ai.search.solver` and the
Monte-Carlo tree search :mod:`donuts_ai.search.mcts`), for any two-player, zero-sum game
of perfect information whose rules are written as Numba ``@njit`` functions.

**The game.** A :class:`CompiledGame` record holds the game's functions. A position
``pos`` is any Numba value (a tuple of plain words, say), always seen **from the side to
move**; ``rules`` is any value the caller passes, handed to every function unchanged; a
move is a bit index (0 to 63) of a ``uint64`` mask.

- ``legal(rules, pos) -> uint64``: the legal moves. A position whose game goes on has one
  at least (one with none scores as a draw);
- ``play(rules, pos, move) -> (pos, status)``: the position after the side to move plays
  ``move`` (the same Numba type as ``pos``) and the move's status: :data:`GOES_ON` (the
  other player moves next; the position is from its side), :data:`MOVES_AGAIN` (the same
  player moves again; the position is still from its side), :data:`WON` or :data:`LOST`
  (the game is over, won or lost for the player who just moved) or :data:`DRAWN`;
- ``key(rules, pos) -> uint64``: the transposition-table key; equal keys must mean the
  same position (a game whose positions do not fit 64 bits hashes them, and a collision
  can then give a wrong score, as in every engine whose table keys are hashes);
- ``max_plies``: an ``int``, the most plies a game lasts from its start (at most
  :data:`MAX_PLIES`). The search counts it down and takes a game that would last longer
  for a draw where the count runs out (so a bound too low gives wrong scores, and a game
  whose positions can repeat still ends);
- ``alternating``: a ``bool``, True when players always alternate and only the player
  who moves can win by a move (no :data:`MOVES_AGAIN`, no :data:`LOST`), as in Connect
  Four. The solver then knows a win comes at an odd distance and a loss at an even one,
  and bisects half as many scores; ``safe`` needs it.

**The hooks** speed a search up and never change a value; each is optional (the helper
:func:`compiled_game` fills in this module's default, which means "not known"), and a
hook that is given must be exact:

- ``winning(rules, pos) -> uint64``: every move that wins at once (default
  :func:`default_winning`: none known, the search finds them by playing each move);
- ``safe(rules, pos) -> uint64``: asked only where no move wins at once, every legal
  move after which the opponent cannot win at once (default :func:`default_safe`: every
  move, nothing known). Used only together with ``winning``;
- ``plies_left(rules, pos) -> int64``: at most this many plies remain (default
  :func:`default_plies_left`: :data:`MAX_PLIES`; the search also counts down from
  ``max_plies``);
- ``order(rules, pos, move) -> int64``: a move-ordering score, higher searched first
  (default :func:`default_order`: 0 for all; ties go in bit order, lowest first);
- ``playout(rules, pos, rng) -> (value, rng)``: a random game from ``pos`` to its end,
  for the MCTS: ``value`` is +1, 0 or -1 for the side to move at ``pos``, ``rng`` a
  xorshift64* state (``uint64``, never 0) to advance and hand back (default
  :func:`default_playout`: the search plays uniformly random legal moves through
  ``legal`` and ``play``, which a game's own playout usually beats several times).

Inside a kernel, :func:`hook_given` tells a game's own hook from the default (a constant
when the kernel compiles), so a search leans on what a hook says only when it is the
game's.

**How to grade a game's record**, in this order: (1) the required functions against a
plain reading of the rules: the legal moves and each move's status, on every position
reachable (a small game) or on a few hundred random ones; (2) ``key``: no two positions
reached share a key; (3) each hook given, against ``legal`` and ``play``: ``winning`` is
the moves whose status is :data:`WON`, ``safe`` (where nothing wins at once) the moves
after which the reply's ``winning`` is empty, ``plies_left`` at least the longest line
left; (4) the solver's scores with every hook equal its scores with the required
functions alone (``compiled_game(legal=..., play=..., key=..., max_plies=...)``) on
sampled positions: the hooks change the speed, never a value. The solver's tests grade
their tiny games by a stronger check still: every score, and every move's, against a
plain minimax over every position (``tests/search/test_compiled_solver.py``).

**Caching.** Numba compiles a kernel that takes a record of functions once for each kind
of record (each set of functions), and ``@njit(cache=True)`` cannot cache a kernel that
names a function as a global to pass it as a value: the function is compiled in as its
address, and the kernel compiles afresh in every process. So a game binds the solver in
a small cached kernel of its own, which builds the record from its functions read as
attributes of their module, every field given (a record built inside a kernel takes no
defaults)::

    from numba import njit
    from donuts_ai.search import compiled_game as cg, solver
    import my_game as G  # the game's @njit functions and MAX_PLIES

    @njit(cache=True)
    def solve_my_game(rules, pos, table, max_nodes):
        game = cg.CompiledGame(G.legal, G.play, G.key, G.MAX_PLIES, True, G.winning, cg.default_safe,
                               cg.default_plies_left, cg.default_order, cg.default_playout)
        return solver.solve(game, rules, pos, table, max_nodes)

``solve_my_game`` is compiled once and loaded from disk in later processes. (Numba
checks a cached kernel against its own file only: after editing ``my_game`` or updating
this library, delete the ``__pycache__`` entries of ``solve_my_game``, numba issue #6845.)
Pass the root typed as ``play`` returns positions (``np.uint64`` boards, not the Python
``int`` a kernel hands back): a root of other types compiles the recursive search twice,
and Numba cannot load such a pair from its cache (numba #6061). Outside a cache,
``solver.solve(compiled_game(legal=G.legal, ...), rules, pos, table, max_nodes)`` works
from Python as it is, compiling in each process.
"""

from __future__ import annotations

from collections.abc import Callable
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
    """A two-player, zero-sum game of perfect information as Numba ``@njit`` functions (the
    module doc gives each contract). Build one with :func:`compiled_game`, or inside a
    kernel with every field given, defaults included."""

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


def compiled_game(
    *,
    legal: Callable[..., Any],
    play: Callable[..., Any],
    key: Callable[..., Any],
    max_plies: int,
    alternating: bool = True,
    winning: Callable[..., Any] | None = None,
    safe: Callable[..., Any] | None = None,
    plies_left: Callable[..., Any] | None = None,
    order: Callable[..., Any] | None = None,
    playout: Callable[..., Any] | None = None,
) -> CompiledGame:
    """A :class:`CompiledGame` with the defaults filled in for the hooks not given (None).

    Args:
        legal: ``(rules, pos) -> uint64``, the legal moves.
        play: ``(rules, pos, move) -> (pos, status)``.
        key: ``(rules, pos) -> uint64``, the table key.
        max_plies: the most plies a game lasts, 1 to :data:`MAX_PLIES`.
        alternating: players always alternate and only the mover wins by a move (False
            where ``play`` can return :data:`MOVES_AGAIN` or :data:`LOST`).
        winning: ``(rules, pos) -> uint64``, every move that wins at once.
        safe: ``(rules, pos) -> uint64``, the moves after which the opponent cannot win at
            once; needs ``winning``.
        plies_left: ``(rules, pos) -> int64``, at most this many plies remain.
        order: ``(rules, pos, move) -> int64``, a move-ordering score, higher first.
        playout: ``(rules, pos, rng) -> (value, rng)``, a random game to the end.

    Returns:
        The record, every field a Numba ``@njit`` function but ``max_plies``.

    Raises:
        TypeError: a function is not a Numba ``@njit`` function.
        ValueError: ``max_plies`` is out of range, ``alternating`` is not a bool, or ``safe``
            is given without ``winning`` or in a game that does not alternate.
    """
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
           "compiled_game", "default_order", "default_playout", "default_plies_left", "default_safe", "default_winning",
           "hook_given"]
