"""The pre-flight: every agent of a run is built once, here, before the first game.

A run seats its agents in processes of their own, where a bad parameter value
(``mcts:time=-1``) would show only as a loss at every one of that agent's turns, after
the whole run had been played. Parsing a spec checks its kind and its parameter names
(:func:`~.specs.resolve`); only building the agent checks the values. So before anything
is played or written, :func:`preflight` builds every distinct agent of the run once in
the caller (an engine is started and asked ``isready``) and refuses the run with a
:class:`~.specs.SpecError` naming the agent when one cannot be built.

Building them here does a second thing: what the agents and the game compile (Numba
kernels) is compiled once, in this process, into the on-disk cache, before the seats
start, so that each seat process loads it instead of compiling it again for itself, all
seats at the same time. A pre-flight that
takes more than a second and compiles says so on stderr, on one line
(:func:`~donuts_ai._compile_notice.notice_if_compiling`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

from .._compile_notice import notice_if_compiling
from ..game import Game, get_game
from .agent_source import AgentSource
from .engine_seat import EngineSeat
from .specs import SpecError, is_engine_spec

#: The notice (completed with the seconds the pre-flight took).
NOTICE = "donuts-ai: compiling the agents' kernels, once (later runs load them from Numba's cache)..."


def _check_engine(source: AgentSource, game: Game[Any]) -> None:
    """Start the engine, ask it ``isready``, and stop it: one that cannot is refused."""
    assert source.spec is not None  # an engine is a spec
    seat = EngineSeat(source.spec, name=source.name, game=game.name)
    try:
        failure = seat.reset(None)
    finally:
        seat.close()
    if failure is not None:
        detail = (failure.detail or "").strip().splitlines()
        raise SpecError(f"agent {source.name!r}: the engine did not start ({detail[-1] if detail else failure.kind})")


def _build(source: AgentSource, game: Game[Any]) -> None:
    """Build the agent once and let it go: its parameter values are checked, its kernels compiled."""
    try:
        agent = source.build(game)
    except SpecError:
        raise
    except Exception as exc:  # a constructor of the user's may raise anything: the run cannot seat it
        raise SpecError(f"agent {source.name!r} cannot be built: {type(exc).__name__}: {exc}") from None
    close = getattr(agent, "close", None)
    if callable(close):
        try:
            close()
        except Exception:  # closing a probe is best effort: the run has not started
            pass


def preflight(sources: Iterable[AgentSource], game: Game[Any] | str, *, quiet: bool = False) -> None:
    """Build every distinct agent of ``sources`` once in this process (an engine: start it
    and ask ``isready``; an agent instance was built by its owner and is skipped), after
    loading the game's own compiled code (its ``warm_up``), so that a bad value is a
    :class:`~.specs.SpecError` naming the agent before any game is played or file
    written, and the run's kernels are compiled once, here (see the module doc). A slow
    pre-flight that compiles says so on stderr, unless ``quiet``."""
    sources = [s for s in sources if not (s.is_object and not s.is_class)]  # an instance: its owner built it already
    if not sources:
        return
    game = get_game(game)
    seen: set[str] = set()
    with notice_if_compiling(None if quiet else sys.stderr, NOTICE):
        game.warm_up()
        for source in sources:
            if source.record in seen:
                continue
            seen.add(source.record)
            if source.spec is not None and is_engine_spec(source.spec):
                _check_engine(source, game)
            else:
                _build(source, game)
