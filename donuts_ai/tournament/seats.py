"""Seats: how the harness asks an agent for a move, in its own process or in this one.

A tournament runs every agent the way engine testers run untrusted engines
(cutechess-cli, fishtest): in a process of its own, spoken to over a pipe, one JSON
line per request and per answer, every answer timed on the harness's own clock. What
an agent does wrong then costs that agent one game and never the run:

- it raises: the answer says so (``exception``, with the traceback's last lines);
- it answers something that is not a legal move: the harness finds out (``illegal``);
- it does not answer within its limit (a hang, an endless loop): the harness stops
  waiting, kills the process (``time``), and starts a fresh one for the next game;
- its process dies (a segfault, ``os._exit``): the pipe closes (``crash``, with the exit
  status and the last lines the process wrote to stderr), and a fresh process serves
  the next game.

:class:`ProcessSeat` is that supervised seat (its pipe protocol: :func:`serve`);
:class:`LocalSeat` calls an agent object in this process (fast and trusting: a hang
there hangs the caller). Both answer :meth:`Seat.ask` with an :class:`Answer`.
"""

from __future__ import annotations

import base64
import faulthandler
import importlib
import json
import os
import pickle
import select
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, Literal, TypedDict

from .._checks import is_int
from ..game import Game, JSONObject, Move, get_game
from ..state import GameState
from ._lifeline import guarded
from ._shutdown import end_processes, signals_held
from .records import EventKind
from .specs import AgentLike, call_agent

if TYPE_CHECKING:
    from .agent_source import AgentSource

EXCEPTION, TIME, CRASH = EventKind.EXCEPTION, EventKind.TIME, EventKind.CRASH

#: Seconds the harness keeps waiting after a limit has passed before it kills the
#: process: a late answer is still a loss on time, but reading it keeps the process
#: (and its warm tables) for the next game.
KILL_GRACE = 1.0
#: Seconds an agent process may take to start (import, build the agent, load or compile
#: its kernels): generous, since a cold Numba cache compiles every kernel on a busy machine.
START_LIMIT = 300.0
#: The fourth argument of an agent process whose agent's source comes on its stdin (:func:`serve`).
SOURCE_ON_STDIN = "--source-on-stdin"
#: The SPEC argument of such a process: the agent is its source's.
SPEC_ON_STDIN = "-"
#: Lines of an agent's stderr kept in a crash report.
STDERR_TAIL_LINES = 5
#: The most bytes read back from the end of an agent's stderr for that report.
STDERR_TAIL_BYTES = 8192


class ResetRequest(TypedDict):
    """``{"op": "reset", "seed": S}``: start a new game (see the module doc)."""

    op: Literal["reset"]
    seed: int


class MoveRequest(TypedDict):
    """``{"op": "move", ...}``: the move of the player ``observation`` is for."""

    op: Literal["move"]
    game: str
    observation: JSONObject
    time_left: float | None


#: A line the harness writes to an agent process.
Request = ResetRequest | MoveRequest


class Reply(TypedDict, total=False):
    """A line an agent process writes: ``ready`` (started), ``ok`` (reset), ``move``, or
    an ``error`` (one line) with its ``detail`` (the traceback's last lines)."""

    ready: bool
    ok: bool
    move: object
    nodes: int
    error: str
    detail: str


@dataclass(frozen=True)
class Answer:
    """One answer of a seat: the ``move`` (whatever the agent returned; ``None`` when it
    gave none), the ``seconds`` it took on the harness's clock, and, when the agent
    failed, the event ``kind`` (an :class:`~.records.EventKind` other than ``illegal``,
    which only the game can tell) and its ``detail``. With a move, ``detail`` is what the
    seat keeps for the event should the move be illegal or late (an engine's stderr)."""

    move: object
    seconds: float
    kind: str | None = None
    detail: str = ""
    #: The nodes the agent says it searched for this move (its ``last_info["nodes"]``; an
    #: engine's last ``info ... nodes N``), ``None`` when it says nothing.
    nodes: int | None = None


def reported_nodes(agent: object) -> int | None:
    """``agent.last_info["nodes"]`` when it is a whole number >= 0, else ``None``."""
    info = getattr(agent, "last_info", None)
    return _node_count(info.get("nodes") if isinstance(info, dict) else None)


def _node_count(value: object) -> int | None:
    """``value`` as a count of nodes: a whole number >= 0, else ``None``."""
    return int(value) if is_int(value) and int(value) >= 0 else None


class Seat:
    """Where a player sits: ``name`` (as in results), ``spec``, :meth:`reset`, :meth:`ask`."""

    name: str
    spec: str

    def reset(self, seed: int) -> Answer | None:
        """Start a new game with the random stream at ``seed``; an :class:`Answer` with a
        ``kind`` when the agent failed to (it then loses the game at its first turn)."""
        raise NotImplementedError

    def ask(self, game: Game[Any], state: GameState, side: int, time_left: float | None, limit: float | None) -> Answer:
        """The agent's move for ``side`` (the player to move) in ``state`` of ``game``;
        ``time_left`` is its clock, ``limit`` the most seconds the harness waits
        (``None``: no limit)."""
        raise NotImplementedError

    def prepare(self) -> None:
        """Get ready without waiting (start a process), so several seats start at once."""

    def close(self) -> None:
        """Release the seat's resources (its process)."""


def _error_text(exc: BaseException) -> tuple[str, str]:
    """(one line, the traceback's last lines) for an agent's exception."""
    return f"{type(exc).__name__}: {exc}", traceback.format_exc(limit=3).strip()


class LocalSeat(Seat):
    """An agent object called in this process; exceptions are caught, hangs are not.
    ``factory(seed)`` builds a fresh agent for each game when the agent has no ``reset``."""

    def __init__(self, agent: AgentLike, factory: Callable[[int], AgentLike] | None = None):
        self.agent = agent
        self.factory = factory
        self.name = getattr(agent, "name", None) or type(agent).__name__
        spec = getattr(agent, "spec", None)
        self.spec = spec if isinstance(spec, str) else type(agent).__name__

    def reset(self, seed: int) -> Answer | None:
        try:
            if hasattr(self.agent, "reset"):
                self.agent.reset(seed)
            elif self.factory is not None:
                self.agent = self.factory(seed)
        except Exception as exc:  # a broken agent loses its game, it does not stop the harness
            line, detail = _error_text(exc)
            return Answer(None, 0.0, EXCEPTION, detail or line)
        return None

    def ask(self, game: Game[Any], state: GameState, side: int, time_left: float | None, limit: float | None) -> Answer:
        view = game.player_view(state, side)
        start = time.perf_counter()
        try:
            move = call_agent(self.agent, view, time_left)
        except Exception as exc:
            line, detail = _error_text(exc)
            return Answer(None, time.perf_counter() - start, EXCEPTION, detail or line)
        return Answer(move, time.perf_counter() - start, nodes=reported_nodes(self.agent))


#: Seconds between checks that the agent process still lives while the harness waits: a
#: child it forked may hold the pipe open, so its death need not show as end of file.
LIVENESS_CHECK = 0.25


class _LineReader:
    """Lines from a pipe, each waited for with a timeout (``select``, so a silent
    process cannot block the harness; POSIX only)."""

    def __init__(self, fd: int, alive: Callable[[], bool]):
        self.fd = fd
        self.alive = alive  # () -> bool: does the writer still live?
        self.buffer = b""

    def readline(self, timeout: float | None) -> bytes | None:
        """The next line; ``b""`` at end of file or when the writer died; ``None`` on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            wait = LIVENESS_CHECK if left is None else min(left, LIVENESS_CHECK)
            ready, _, _ = select.select([self.fd], [], [], wait)
            if not ready:
                if not self.alive():
                    return b""
                if left is not None and left <= wait:
                    return None
                continue
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                return b""
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line + b"\n"


class ProcessSeat(Seat):
    """An agent built from ``spec`` in a supervised process of its own (see the module
    doc). The process starts at the first request and again after it was killed or died;
    its start-up (imports, kernel loading, tables) is never charged to a move."""

    #: What reports call the process.
    PROCESS = "agent process"
    #: What the process is told before its input closes, to leave of itself (the end of
    #: its input is enough for an agent process).
    GOODBYE = b""

    def __init__(self, spec: str, name: str | None = None, start_limit: float = START_LIMIT,
                 game_module: str | None = None, *, game: str, source: AgentSource | None = None):
        # An agent given as an object, or a spec naming a kind registered at run time,
        # travels to the process as its source (the first line on its stdin).
        self.source = source if source is not None and (source.is_object or source.kinds) else None
        self.spec = spec if source is None else source.record
        # Imported by the agent process when set: it registers the game (known games load by name).
        self.game_module = game_module or ""
        self.game = game  # whose agent kinds the spec names
        self.name = name or spec
        self.start_limit = start_limit
        self._proc: subprocess.Popen[bytes] | None = None
        self._reader: _LineReader | None = None
        self._stderr: IO[bytes] | None = None
        self._ready = False

    # --- the process -----------------------------------------------------------------
    def prepare(self) -> None:
        if self._proc is None or self._proc.poll() is not None:
            self.close()
            with signals_held():  # a stop must not fall between starting the process and recording it
                self._spawn()

    def _spawn(self) -> None:
        self._stderr = tempfile.TemporaryFile()
        env = dict(os.environ)
        # The child imports what this process can import (agents defined in test modules,
        # in packages added to sys.path at run time).
        env["PYTHONPATH"] = os.pathsep.join(p or os.getcwd() for p in sys.path)
        # A session of its own: killing it kills whatever the agent started too; under a
        # guard, so that it ends when this process dies, even by SIGKILL (._lifeline).
        # An agent that comes on stdin needs no spec: its record (a repr, maybe long) stays off the command line.
        spec = self.spec if self.source is None else SPEC_ON_STDIN
        command = [sys.executable, "-m", "donuts_ai.tournament._seat_process", spec, self.game_module, self.game]
        self._proc = subprocess.Popen(
            guarded(command + ([SOURCE_ON_STDIN] if self.source is not None else [])),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, env=env, bufsize=0,
            start_new_session=True,
        )
        proc = self._proc
        if self.source is not None:
            assert proc.stdin is not None  # stdin=PIPE
            try:
                proc.stdin.write(base64.b64encode(pickle.dumps(self.source)) + b"\n")
            except OSError:  # it died at once: the start-up read reports the crash
                pass
        assert proc.stdout is not None  # stdout=PIPE
        self._reader = _LineReader(proc.stdout.fileno(), lambda: proc.poll() is None)
        self._ready = False

    def _alive(self) -> Answer | None:
        """Make sure the process runs and has built its agent; an Answer with a kind when
        it could not start."""
        self.prepare()
        if self._ready:
            return None
        reply, failure = self._receive(self.start_limit, "start")
        if failure is not None:
            return failure
        if "error" in reply:
            self.close()
            return Answer(None, 0.0, EXCEPTION, f"could not start: {reply['error']}")
        self._ready = True
        return None

    def _stderr_tail(self) -> str:
        if self._stderr is None:
            return ""
        try:
            size = self._stderr.seek(0, os.SEEK_END)
            self._stderr.seek(max(0, size - STDERR_TAIL_BYTES))
            lines = self._stderr.read().decode("utf-8", "replace").strip().splitlines()
        except (OSError, ValueError):
            return ""
        return "\n".join(lines[-STDERR_TAIL_LINES:])

    def _kill(self) -> None:
        if self._proc is None:
            return
        try:
            os.killpg(self._proc.pid, signal.SIGKILL)  # the process and everything it started
        except (ProcessLookupError, PermissionError):
            if self._proc.poll() is None:
                self._proc.kill()

    def close(self) -> None:
        """Stop the process (:func:`close_all`): told to leave, a grace, then killed."""
        close_all([self])

    def _forget(self) -> None:
        """Drop the ended process and its files."""
        if self._stderr is not None:
            self._stderr.close()
        self._proc, self._reader, self._stderr = None, None, None

    def _send(self, request: Request) -> Answer | None:
        assert self._proc is not None and self._proc.stdin is not None  # sent to a running process only
        try:
            self._proc.stdin.write((json.dumps(request) + "\n").encode())
        except (BrokenPipeError, OSError):
            return self._crashed(0.0)
        return None

    def _crashed(self, seconds: float) -> Answer:
        assert self._proc is not None  # only a process that ran can crash
        try:
            self._proc.wait(timeout=KILL_GRACE)
        except subprocess.TimeoutExpired:  # it closed its pipe but lives on: stop it
            self._kill()
            self._proc.wait()
        code = self._proc.returncode
        status = f"signal {-code}" if code is not None and code < 0 else f"exit status {code}"
        tail = self._stderr_tail()
        self.close()
        # The status line last: reports show a detail's last line.
        return Answer(None, seconds, CRASH, (f"{tail}\n" if tail else "") + f"{self.PROCESS} died ({status})")

    def _receive(self, limit: float | None, what: str, start: float | None = None) -> tuple[Reply, Answer | None]:
        """(reply, None), or ({}, the failure) when the process died, fell silent past
        ``limit`` (plus :data:`KILL_GRACE`) or wrote something that is not a reply."""
        start = time.perf_counter() if start is None else start
        wait = None if limit is None else limit + KILL_GRACE
        assert self._reader is not None  # read from a running process only
        line = self._reader.readline(wait)
        seconds = time.perf_counter() - start
        if line is None:
            self._kill()
            self.close()
            return {}, Answer(None, seconds, TIME, f"no answer to {what} within {limit:g} s; agent process killed")
        if line == b"":
            return {}, self._crashed(seconds)
        try:
            reply: Reply = json.loads(line)
            if not isinstance(reply, dict):
                raise ValueError("not an object")
        except ValueError:
            self.close()
            return {}, Answer(None, seconds, CRASH, f"agent process broke the protocol: {line[:200]!r}")
        return reply, None

    # --- requests --------------------------------------------------------------------
    def _exchange(self, request: Request, limit: float | None, what: str) -> tuple[Reply, Answer | None, float]:
        """Send ``request`` and read its reply: (reply, failure, seconds). Interrupted
        half-way (Ctrl-C, a cancelled task), the process is stopped: a reply left unread
        would answer the next request."""
        start = time.perf_counter()
        try:
            failure = self._send(request)
            if failure is not None:
                return {}, failure, 0.0
            reply, failure = self._receive(limit, what, start)
        except BaseException:
            self.close()
            raise
        return reply, failure, time.perf_counter() - start

    def reset(self, seed: int) -> Answer | None:
        """Start the next game; the only request that (re)starts the process."""
        failure = self._alive()
        if failure is not None:
            return failure
        reply, failure, _ = self._exchange({"op": "reset", "seed": seed}, self.start_limit, "reset")
        if failure is not None:
            return failure
        if "error" in reply:
            return Answer(None, 0.0, EXCEPTION, reply.get("detail") or reply["error"])
        return None

    def ask(self, game: Game[Any], state: GameState, side: int, time_left: float | None, limit: float | None) -> Answer:
        if self._proc is None:  # stopped earlier in this game: nothing can answer
            return Answer(None, 0.0, CRASH, "agent process is not running (it failed earlier in this game)")
        if self._proc.poll() is not None:  # died since its last answer: that is a crash, not a restart
            return self._crashed(0.0)
        request: MoveRequest = {"op": "move", "game": game.name, "observation": game.observation(state, side), "time_left": time_left}
        reply, failure, seconds = self._exchange(request, limit, "a move request")
        if failure is not None:
            return failure
        if "error" in reply:
            return Answer(None, seconds, EXCEPTION, reply.get("detail") or reply["error"])
        return Answer(reply.get("move"), seconds, nodes=_node_count(reply.get("nodes")))


def close_all(seats: Iterable[Seat]) -> None:
    """Close ``seats`` together: every process is told to leave at once (an engine
    ``quit``, :attr:`ProcessSeat.GOODBYE`, then the end of its input), all share one grace
    (:data:`._shutdown.STOP_GRACE`, only while one has not left), then each is killed with
    its process group (:func:`._shutdown.end_processes`); other seats just close."""
    seats = list(seats)
    supervised = [seat for seat in seats if isinstance(seat, ProcessSeat)]
    end_processes([(seat._proc, seat.GOODBYE) for seat in supervised if seat._proc is not None])
    for seat in seats:
        if isinstance(seat, ProcessSeat):
            seat._forget()
        else:
            seat.close()


# --- the agent's side of the pipe ------------------------------------------------------


def _reply_value(move: Move) -> object:
    """What goes back over the pipe: square names and indices as they are, anything else
    as its repr (the game then finds it illegal and says what it was)."""
    if isinstance(move, str):
        return move
    if is_int(move):
        return int(move)
    return repr(move)


# The pipe protocol (``python -m donuts_ai.tournament._seat_process SPEC GAME_MODULE GAME [--source-
# on-stdin]``): the process imports the game's module, builds the agent (a kind of that game's, specs;
# with ``--source-on-stdin`` from the AgentSource on its first input line, for an agent given as an
# object or a spec naming a kind registered at run time) and writes ``{"ready": true}`` (or
# ``{"error": ...}``); then, per request line, ``{"op": "reset", "seed": S}`` is answered ``{"ok":
# true}`` and ``{"op": "move", "game": NAME, "observation": {...}, "time_left": T}`` is answered
# ``{"move": MOVE}`` (with ``"nodes": N`` when the agent's ``last_info`` reports its nodes) or
# ``{"error": ..., "detail": ...}``, where the observation is what the game sends the player to move
# and the agent receives the game's ``agent_view`` of it. An agent without ``reset`` is built afresh
# with the game's seed instead. The agent's own prints go to the process's stderr, never into the
# protocol.
def serve(spec: str, game_module: str, game_name: str, source_flag: str) -> int:
    """The agent process's loop (see the module doc); returns at end of input.
    ``game_module`` (when not empty) is imported first: it registers ``game_name``, the
    game the agent will play (whose agent kinds ``spec`` names) with
    :func:`~donuts_ai.game.register_game`. With ``source_flag``
    :data:`SOURCE_ON_STDIN` (else ``""``) the first input line is the agent's
    :class:`~.entries.AgentSource` (an object, or a spec naming a run-time kind), pickled
    and base64-encoded, and the agent is built from it instead of ``spec``."""
    source: AgentSource | None = None
    if source_flag == SOURCE_ON_STDIN:
        source = pickle.loads(base64.b64decode(sys.stdin.buffer.readline()))
    faulthandler.enable()  # a segfault leaves its Python stack in the crash report
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # the agent's prints must not reach the protocol
    sys.stdout = sys.stderr

    def reply(obj: Reply) -> None:
        out.write(json.dumps(obj) + "\n")
        out.flush()

    from .specs import make_agent

    try:
        if game_module:
            importlib.import_module(game_module)
        game = get_game(game_name)

        def build(seed: int | None = None) -> AgentLike:
            built: AgentLike = make_agent(spec, seed, game=game) if source is None else source.build(game, seed)
            return built

        agent = build()
        game.warm_up()  # one-off loading (kernels) before "ready", never charged to a move
    except Exception as exc:
        reply({"error": _error_text(exc)[0]})
        return 1
    reply({"ready": True})
    for line in sys.stdin:
        try:
            request = json.loads(line)
            if request["op"] == "reset":
                if hasattr(agent, "reset"):
                    agent.reset(request["seed"])
                else:
                    agent = build(request["seed"])
                reply({"ok": True})
            else:
                view = get_game(request["game"]).agent_view(request["observation"])
                answer: Reply = {"move": _reply_value(call_agent(agent, view, request["time_left"]))}
                nodes = reported_nodes(agent)
                if nodes is not None:
                    answer["nodes"] = nodes
                reply(answer)
        except Exception as exc:
            line, detail = _error_text(exc)
            reply({"error": line, "detail": detail})
    return 0
