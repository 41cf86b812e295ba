"""``donuts-ai engine SPEC``: any of our agents as an engine that speaks the Donuts Engine
Protocol on stdin and stdout (the protocol: docs/engine_protocol.md).

The command loop reads one command a line while a search runs in a thread of its own, so
that ``stop`` (and the engine's own watchdog, when ``go`` gave a time) answers
``bestmove`` at once. An agent cannot be interrupted in the middle of a move, so a search
stopped early answers with a one-ply greedy move (:class:`~donuts_ai.donuts.agents.greedy.GreedyAgent`)
and its own move is dropped when it comes; the next ``go`` (and ``newgame``, ``setoption``)
waits for it to end. Bad input is reported on stderr and changes nothing; it never ends
the engine. What the agent prints goes to stderr, never into the protocol.

Options are the agent's constructor parameters (``option name depth type string default
none``): ``setoption`` builds the agent afresh with the new value, but ``seed`` only
restarts its random stream at the next ``newgame`` (what the harness sets for every game,
so a rerun plays the same games).
"""

from __future__ import annotations

import os
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from .._checks import is_int
from ..donuts.agents.greedy import GreedyAgent
from ..donuts.board import Board
from ..donuts.squares import PASS
from ..tournament.engine_text import AUTHOR as AUTHOR_WORD
from ..tournament.engine_text import (
    BESTMOVE,
    DEFAULT,
    DEP,
    DEPOK,
    GO,
    ID,
    INFO,
    ISREADY,
    NAME,
    NEWGAME,
    NODES,
    OPTION,
    POSITION,
    QUIT,
    READYOK,
    SETOPTION,
    STOP,
    TYPE,
    VALUE,
    EngineProtocolError,
    GoLimits,
    parse_go,
)
from ..tournament.specs import AgentLike, Params, SpecError, agent_arguments, agent_parameters, call_agent, make_agent, resolve
from .position import parse_position

GAME = "donuts"
#: What ``dep`` answers as the engine's author.
AUTHOR = "donuts_ai"
#: The agent limits a ``go`` command sets for one move (its attributes by ``go`` keyword;
#: ``nodes`` is an alpha-beta agent's ``nodes`` and a searching agent's ``simulations``).
LIMIT_ATTRIBUTES = {"movetime": ("time_limit",), "depth": ("depth",), NODES: ("nodes", "simulations")}
#: A search given ``movetime`` is asked to finish in this share of it: the rest covers a
#: search's overshoot (its tactical pass and first iteration always complete) and the
#: answer's way back to the harness.
MOVETIME_SHARE = 0.9
#: Seconds past ``movetime`` after which the watchdog answers for a search still running.
WATCHDOG_GRACE = 0.1
#: With only a clock, the watchdog answers once this share of the time left is spent (the
#: agent itself plans a twentieth of it, :func:`donuts_ai.agents.base.budget`).
WATCHDOG_CLOCK_SHARE = 0.5


def _option_type(default: object) -> str:
    if isinstance(default, bool):
        return "check"
    if isinstance(default, int):
        return "spin"
    return "string"


def _option_text(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _option_value(text: str, check: bool) -> int | float | bool | str | None:
    """An option's value from its text: ``none`` is None, ``true``/``false`` for a check,
    otherwise a number or the text itself."""
    text = text.strip()
    lowered = text.lower()
    if lowered == "none":
        return None
    if check or lowered in ("true", "false"):
        return lowered == "true"
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        pass
    return text


class _Search:
    """One ``go``: the thread that runs the agent, and whether ``bestmove`` was written."""

    def __init__(self, board: Board, limits: GoLimits):
        self.board, self.limits = board, limits
        self.answered = False
        self.thread: threading.Thread | None = None
        self.watchdog: threading.Timer | None = None


class EngineServer:
    """The engine's state and commands; :meth:`handle` takes one line, :func:`serve` feeds it stdin.

    Args:
        spec: the agent's spec.
        out: the protocol's text stream.
        err: the diagnostics' text stream.
    """

    def __init__(self, spec: str, out: TextIO, err: TextIO):
        self.spec, self.out, self.err = spec, out, err
        self._lock = threading.Lock()  # one writer at a time, and one answer per search
        cls, params = resolve(spec, GAME)
        self._cls = cls  # resolved once
        self.kind = spec.partition(":")[0]
        self._types: dict[str, str] = {}  # option name -> spin, check or string
        self.defaults = self._defaults(cls, params)
        self.params = dict(params)
        self.seed: int | None = None
        self.board: Board | None = None
        self.search: _Search | None = None
        self.agent: AgentLike | None = None
        self._fallback: GreedyAgent | None = None
        self._build_error: str | None = None
        #: The commands this engine knows, by their word (``quit`` aside: :meth:`handle` ends on it).
        self._commands: dict[str, Callable[[list[str]], None]] = {
            DEP: self._cmd_dep, SETOPTION: self._cmd_setoption, ISREADY: self._cmd_isready, NEWGAME: self._cmd_newgame,
            POSITION: self._cmd_position, GO: self._cmd_go, STOP: self._cmd_stop}
        # Built in the background, so that dep is answered at once; isready waits for it.
        self._builder = threading.Thread(target=self._build, daemon=True)
        self._builder.start()

    def _defaults(self, cls: type[Any], params: Params) -> Params:
        """Every option (a spec parameter but ``name``: a settings object's fields in its
        place) with its value in the spec."""
        parameters = agent_parameters(cls).values()
        if not parameters:
            return dict(params)
        out: Params = {}
        for p in parameters:
            if p.name == "name" or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            default = None if p.default is p.empty else p.default
            out[p.name] = params.get(p.name, default)
            self._types[p.name] = _option_type(default)  # the class's, whatever the spec gives
        return out

    # --- output ----------------------------------------------------------------------
    def send(self, line: str) -> None:
        """Write one line of the protocol, flushed (one writer at a time).

        Args:
            line: the line.
        """
        with self._lock:
            self._write(line)

    def _write(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def say(self, text: str) -> None:
        """A diagnostic, on stderr.

        Args:
            text: the diagnostic.
        """
        self.err.write(f"donuts-ai engine: {text}\n")
        self.err.flush()

    # --- the agent -------------------------------------------------------------------
    def _build(self) -> None:
        try:
            agent = make_agent(self.spec, game=GAME)
            fallback = GreedyAgent(seed=0)
            board = Board()
            fallback.select_move(board)  # loads the rule kernels before readyok
            self.agent, self._fallback = agent, fallback
        except Exception as exc:  # a spec that resolves but cannot be built (a bad value)
            self._build_error = f"{type(exc).__name__}: {exc}"

    def _make(self) -> AgentLike:
        try:
            agent = self._cls(**agent_arguments(self._cls, self.params))
        except (ValueError, TypeError, OverflowError, MemoryError) as exc:
            raise SpecError(f"agent {self.kind} with {self.params}: {exc}") from None
        if not getattr(agent, "name", None):
            agent.name = self.kind
        built: AgentLike = agent
        return built

    def end_if_unbuildable(self) -> None:
        """Wait for the agent's build; if it failed, say why and end the process with status 2
        (holding the protocol's lock, so that no answer is cut off): :func:`serve`'s watch."""
        self._builder.join()
        if self._build_error is not None:
            with self._lock:
                self.say(f"error: the agent cannot be built: {self._build_error}")
                os._exit(2)

    def _ready(self) -> bool:
        """Wait until the agent is built and no search runs; False when it cannot be built."""
        self._builder.join()
        if self.search is not None and self.search.thread is not None:
            self.search.thread.join()
        if self._build_error is not None:
            self.say(f"error: the agent cannot be built: {self._build_error}")
            return False
        return True

    # --- commands --------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Do one command line. Nothing raises: bad input is said on stderr.

        Args:
            line: the command line.

        Returns:
            False after ``quit``, else True.
        """
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        try:
            if command == QUIT:
                return False
            handler = self._commands.get(command)
            if handler is None:
                self.say(f"unknown command ignored: {line.strip()[:200]}")
            else:
                handler(args)
        except (EngineProtocolError, SpecError) as exc:
            self.say(f"error: {exc}")
        except Exception as exc:  # never end the engine on bad input
            self.say(f"error: {command}: {type(exc).__name__}: {exc}\n{traceback.format_exc(limit=3)}")
        return True

    def _cmd_dep(self, args: list[str]) -> None:
        lines = [f"{ID} {NAME} donuts-ai {self.spec}", f"{ID} {AUTHOR_WORD} {AUTHOR}"]
        for name, default in self.defaults.items():
            kind = self._types.get(name, _option_type(default))
            lines.append(f"{OPTION} {NAME} {name} {TYPE} {kind} {DEFAULT} {_option_text(default)}")
        with self._lock:
            for line in [*lines, DEPOK]:
                self._write(line)

    def _cmd_isready(self, args: list[str]) -> None:
        self._builder.join()  # not the search: isready is answered while one runs
        if self._build_error is not None:
            self.say(f"error: the agent cannot be built: {self._build_error}")
            return
        self.send(READYOK)

    def _cmd_setoption(self, args: list[str]) -> None:
        if len(args) < 4 or args[0] != NAME or VALUE not in args[2:]:
            raise EngineProtocolError(f"{SETOPTION} needs '{NAME} <N> {VALUE} <V>'")
        at = args.index(VALUE, 2)
        name, text = " ".join(args[1:at]), " ".join(args[at + 1:])
        known = {k.lower(): k for k in self.defaults}
        if name.lower() not in known:
            raise EngineProtocolError(f"unknown option {name!r} (options: {', '.join(self.defaults)})")
        name = known[name.lower()]
        value = _option_value(text, self._types.get(name) == "check")
        if name == "seed":  # a new random stream at the next newgame, not a new agent
            if value is not None and not is_int(value):
                raise EngineProtocolError(f"setoption seed: a whole number or none, got {text!r}")
            self.seed = None if value is None else int(value)
            return
        if not self._ready():
            return
        old = self.params.get(name, self.defaults[name])
        self.params[name] = value
        try:
            self.agent = self._make()
        except SpecError as exc:
            self.params[name] = old
            raise EngineProtocolError(f"setoption {name}: {exc}") from None

    def _cmd_newgame(self, args: list[str]) -> None:
        if not self._ready():
            return
        self.board = None
        agent = self.agent
        if agent is not None and hasattr(agent, "reset"):
            agent.reset(self.seed)
        elif self.seed is not None and "seed" in self.defaults:
            self.params["seed"] = self.seed
            self.agent = self._make()

    def _cmd_position(self, args: list[str]) -> None:
        self.board = None  # a bad position leaves none: go then answers bestmove pass
        self.board = parse_position(args)

    def _cmd_go(self, args: list[str]) -> None:
        limits = parse_go(args)
        if not self._ready():
            self.send(f"{BESTMOVE} {PASS}")
            return
        board = self.board
        if board is None or board.is_game_over():
            self.say("go: " + ("no position (send position first)" if board is None else "the game is over"))
            self.send(f"{BESTMOVE} {PASS}")
            return
        search = _Search(board.copy(), limits)
        self.search = search
        search.thread = threading.Thread(target=self._run, args=(search,), daemon=True)
        side = board.turn
        assert side is not None  # the game is not over
        seconds = self._watchdog_seconds(limits, side)
        if seconds is not None:
            search.watchdog = threading.Timer(seconds, self._stop, args=(search, "its time is up"))
            search.watchdog.daemon = True
            search.watchdog.start()
        search.thread.start()

    def _cmd_stop(self, args: list[str]) -> None:
        if self.search is not None:
            self._stop(self.search, "stop")

    # --- searching -------------------------------------------------------------------
    @staticmethod
    def _watchdog_seconds(limits: GoLimits, side: int) -> float | None:
        if limits.movetime is not None:
            return limits.movetime / 1000 + WATCHDOG_GRACE
        clock = limits.clock(side)
        return None if clock is None else clock * WATCHDOG_CLOCK_SHARE

    def _run(self, search: _Search) -> None:
        """The search thread: the agent's move, then ``info`` and ``bestmove`` unless a
        stop answered first."""
        move, info = None, None
        try:
            assert self.agent is not None and search.board.turn is not None  # built, and the game is not over
            with self._limits(search.limits):
                move = call_agent(self.agent, search.board.copy(), search.limits.clock(search.board.turn))
            info = info_line(getattr(self.agent, "last_info", None))
        except Exception as exc:
            self.say(f"error: the agent failed: {type(exc).__name__}: {exc}")
        with self._lock:
            if search.watchdog is not None:
                search.watchdog.cancel()
            if search.answered:
                self.say(f"the search ended after bestmove was given; its move {move} is dropped")
                return
            if not (isinstance(move, str) and search.board.is_legal(move)):
                if move is not None:
                    self.say(f"the agent answered {move!r}, not a legal move: a greedy move instead")
                move = self._fallback_move(search.board)
            search.answered = True
            if info:
                self._write(info)
            self._write(f"{BESTMOVE} {move}")

    def _stop(self, search: _Search, why: str) -> None:
        """Answer for ``search`` now (``stop``, or the watchdog), unless it already did."""
        with self._lock:
            if search.answered:
                return
            search.answered = True
            move = self._fallback_move(search.board)
            self.say(f"{why}: the search was still running; answered the greedy move {move}")
            self._write(f"{BESTMOVE} {move}")
        stop = getattr(self.agent, "stop", None)
        if callable(stop):
            stop()

    def _fallback_move(self, board: Board) -> str:
        assert self._fallback is not None  # built before readyok, and go waits for it
        return self._fallback.select_move(board.copy())

    @contextmanager
    def _limits(self, limits: GoLimits) -> Iterator[None]:
        """The agent's per-move limits for one ``go``: when it gave limits the agent has,
        those alone, else the agent's own."""
        agent = self.agent
        wanted: dict[str, float | int] = {}
        for key, attributes in LIMIT_ATTRIBUTES.items():
            given: int | None = getattr(limits, key)
            if given is None:
                continue
            value = max(1, given) / 1000 * MOVETIME_SHARE if key == "movetime" else max(1, given)
            wanted.update({a: value for a in attributes if hasattr(agent, a)})
        if not wanted:
            yield
            return
        every = [a for attributes in LIMIT_ATTRIBUTES.values() for a in attributes if hasattr(agent, a)]
        saved = {a: getattr(agent, a) for a in every}
        try:
            for a in every:
                setattr(agent, a, wanted.get(a))
            yield
        finally:
            for a, value in saved.items():
                setattr(agent, a, value)


def info_line(info: object) -> str | None:
    """The ``info`` line of an agent's figures for its last move, or ``None`` when it gave none.

    Args:
        info: the agent's ``last_info`` (depth, nodes, seconds, score, proven, proof).
    """
    if not isinstance(info, dict) or info.get("forced"):
        return None
    words = [INFO]
    if info.get("depth"):
        words += ["depth", str(int(info["depth"]))]
    if info.get("nodes") is not None:
        words += [NODES, str(int(info["nodes"]))]
    if info.get("seconds") is not None:
        words += ["time", str(round(float(info["seconds"]) * 1000))]
    value = info.get("proof") if info.get("proof") is not None else info.get("score")
    if value is not None:
        if info.get("proven"):
            words += ["score", "win" if value > 0 else "loss" if value < 0 else "draw"]
        else:
            words += ["score", "cp", str(int(value))]
    return " ".join(words) if len(words) > 1 else None


def serve(spec: str) -> int:
    """Run the engine on this process's stdin and stdout until ``quit`` or end of input.

    Args:
        spec: the agent's spec.

    Returns:
        The exit status.
    """
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # the agent's prints must not reach the protocol
    sys.stdout = sys.stderr
    server = EngineServer(spec, out, sys.stderr)
    # A spec whose values the agent refuses (alphabeta:depth=x) ends the engine with its error
    # and status 2, as an unknown name or parameter does at once: an engine that cannot build
    # its agent would only forfeit every move.
    watcher = threading.Thread(target=server.end_if_unbuildable, daemon=True)
    watcher.start()
    for line in sys.stdin:
        if not server.handle(line):
            break
    else:  # the end of input (not quit, which leaves at once): the build decides the status
        watcher.join()
    out.flush()
    search = server.search
    if search is not None and search.thread is not None and search.thread.is_alive():
        # A stopped search cannot be interrupted: leave without waiting for it.
        sys.stderr.flush()
        os._exit(0)
    return 0
