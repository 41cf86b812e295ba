"""Engines in any language: a seat for a program that speaks the Donuts Engine Protocol
(docs/engine_protocol.md), as cutechess-cli seats UCI engines.

An agent spec ``engine:COMMAND[,option.NAME=VALUE]...[,go.LIMIT=N]...`` (:mod:`.specs`)
is seated as an :class:`EngineSeat`: the program runs in a supervised process of its own
(a :class:`~.seats.ProcessSeat` that speaks text lines instead of JSON), started again
after it was killed or died, and what it does wrong costs it the game, never the run:

- it does not answer ``depok`` or ``readyok`` within the start limit, or ``bestmove``
  within its move's limit (then ``stop`` is sent and :data:`~.seats.KILL_GRACE` more
  waited for): ``time`` (killed when still silent);
- its process dies, or it writes a line that is neither ``info ...`` nor ``bestmove
  SQUARE`` while it should be answering a move: ``crash`` (a broken protocol);
- its ``bestmove`` is not a legal move: ``illegal``, judged by the game.

Every such event's detail keeps the last lines the engine wrote to stderr (the status
line last). What the harness says to it, and when: the comment at :class:`EngineSeat`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from typing import Any

from ..game import Game, Move, get_game
from ..state import GameState
from ._lifeline import guarded
from ._shutdown import STOP_GRACE
from .engine_text import (
    BESTMOVE,
    DEP,
    DEPOK,
    ID,
    INFO,
    ISREADY,
    NAME,
    NEWGAME,
    NODES,
    OPTION,
    QUIT,
    READYOK,
    SETOPTION,
    STOP,
    TYPE,
    VALUE,
    go_command,
)
from .seats import CRASH, EXCEPTION, KILL_GRACE, START_LIMIT, TIME, Answer, ProcessSeat, _LineReader
from .specs import ENGINE_KIND, engine_position_writer, parse_engine_spec

#: Seconds an engine is given to leave after ``quit`` before it is killed (with its
#: process group; one grace for all the seats closed together).
QUIT_GRACE = STOP_GRACE
#: The hard per-move limit (seconds) of an engine played as an in-process agent
#: (:class:`EngineAgent`), which no harness limits.
ENGINE_AGENT_MOVE_LIMIT = 300.0


# The harness talks to an engine so: at start ``dep`` (waiting for ``depok``, reading its ``id`` and
# ``option`` lines; anything else before it, a banner, is skipped), then a ``setoption`` per
# ``option.NAME=VALUE`` of the spec; before each game ``setoption name seed value S`` when the engine
# declared an option ``seed`` (any case: the game's seed for this seat, so a rerun plays the same
# games), ``newgame`` and ``isready`` (waiting for ``readyok``); for each move ``position ...``
# (written by the game's writer, specs.ENGINE_POSITIONS) and ``go`` with the seat's clock (``ctime``
# for side 0, Chocolate, ``vtime`` for side 1) and the spec's fixed ``go`` limits; at the end
# ``quit``.
class EngineSeat(ProcessSeat):
    """A program speaking the Donuts Engine Protocol, in a supervised process (see the
    module doc); ``spec`` is its engine spec, ``game`` the game it plays (one of
    :data:`~.specs.ENGINE_POSITIONS`). After :meth:`reset`, ``engine_name`` is what the
    engine's ``id name`` said and ``options`` the options it declared (lower-case name
    -> name)."""

    PROCESS = "engine process"
    #: Politely first (an engine may want to clean up): ``quit``, then :data:`QUIT_GRACE`
    #: before it is killed with its process group (:func:`~.seats.close_all`).
    GOODBYE = f"{QUIT}\n".encode()

    def __init__(self, spec: str, name: str | None = None, start_limit: float = START_LIMIT, *, game: str):
        super().__init__(spec, name, start_limit, game=game)
        self.engine = parse_engine_spec(spec)
        self._write_position = engine_position_writer(game)
        self.engine_name: str | None = None
        self.options: dict[str, str] = {}
        self._spawn_error: str | None = None

    # --- the process -----------------------------------------------------------------
    def _spawn(self) -> None:
        self._stderr = tempfile.TemporaryFile()
        self._spawn_error = None
        program = self.engine.command[0]
        if shutil.which(program) is None:  # gone or not executable since the spec was checked (the guard would only exit 127)
            reason = "No such file or directory" if not os.path.exists(program) and os.sep in program else "not an executable program"
            self._proc, self._spawn_error = None, f"{program}: {reason}"
            return
        try:
            # A session of its own: killing it kills whatever the engine started too; under a
            # guard, so that it ends when this process dies, even by SIGKILL (._lifeline).
            self._proc = subprocess.Popen(guarded(self.engine.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=self._stderr, bufsize=0, start_new_session=True)
        except OSError as exc:  # gone or not executable since the spec was checked
            self._proc, self._spawn_error = None, f"{self.engine.command[0]}: {exc.strerror or exc}"
            return
        proc = self._proc
        assert proc.stdout is not None  # stdout=PIPE
        self._reader = _LineReader(proc.stdout.fileno(), lambda: proc.poll() is None)
        self._ready = False

    def _say(self, *lines: str) -> Answer | None:
        assert self._proc is not None and self._proc.stdin is not None  # said to a running process only
        try:
            self._proc.stdin.write("".join(f"{line}\n" for line in lines).encode())
        except (BrokenPipeError, OSError):
            return self._crashed(0.0)
        return None

    def _with_stderr(self, text: str) -> str:
        tail = self._stderr_tail()
        return (f"{tail}\n" if tail else "") + text  # the status line last: reports show it

    def _line(self, timeout: float | None, start: float) -> tuple[list[str] | None, Answer | None]:
        """(the words of the next line, None); (None, None) on timeout; (None, the crash)
        when the process died."""
        assert self._reader is not None  # read from a running process only
        line = self._reader.readline(None if timeout is None else max(0.0, timeout))
        if line is None:
            return None, None
        if line == b"":
            return None, self._crashed(time.perf_counter() - start)
        return line.decode("utf-8", "replace").split(), None

    def _wait_for(self, word: str, what: str, start: float) -> Answer | None:
        """Read lines until one starts with ``word`` (others are skipped, ``id`` and
        ``option`` lines recorded) within the start limit; the failure, if any."""
        while True:
            words, failure = self._line(self.start_limit - (time.perf_counter() - start), start)
            if failure is not None:
                return failure
            if words is None:
                self._kill()
                detail = self._with_stderr(f"no {word} to {what} within {self.start_limit:g} s; {self.PROCESS} killed")
                self.close()
                return Answer(None, time.perf_counter() - start, TIME, detail)
            if words[:1] == [word]:
                return None
            if words[:2] == [ID, NAME]:
                self.engine_name = " ".join(words[2:])
            elif words[:2] == [OPTION, NAME]:
                end = words.index(TYPE) if TYPE in words else len(words)
                name = " ".join(words[2:end])
                self.options[name.lower()] = name

    def _alive(self) -> Answer | None:
        self.prepare()
        if self._spawn_error is not None:
            return Answer(None, 0.0, EXCEPTION, f"could not start: {self._spawn_error}")
        if self._ready:
            return None
        start = time.perf_counter()
        failure = self._say(DEP) or self._wait_for(DEPOK, DEP, start)
        if failure is not None:
            return failure
        failure = self._say(*(f"{SETOPTION} {NAME} {name} {VALUE} {value}" for name, value in self.engine.options))
        if failure is not None:
            return failure
        self._ready = True
        return None

    # --- requests --------------------------------------------------------------------
    def reset(self, seed: int | None) -> Answer | None:
        failure = self._alive()
        if failure is not None:
            return failure
        lines = [NEWGAME, ISREADY]
        if seed is not None and "seed" in self.options:
            lines.insert(0, f"{SETOPTION} {NAME} {self.options['seed']} {VALUE} {seed}")
        try:
            return self._say(*lines) or self._wait_for(READYOK, ISREADY, time.perf_counter())
        except BaseException:
            self.close()
            raise

    def ask(self, game: Game[Any], state: GameState, side: int, time_left: float | None, limit: float | None) -> Answer:
        if self._proc is None:  # stopped earlier in this game: nothing can answer
            return Answer(None, 0.0, CRASH, f"{self.PROCESS} is not running (it failed earlier in this game)")
        if self._proc.poll() is not None:  # died since its last answer
            return self._crashed(0.0)
        position = self._write_position(game.observation(state, side))
        start = time.perf_counter()
        try:
            return self._say(position, go_command(side, time_left, self.engine.go)) or self._bestmove(limit, start)
        except BaseException:  # interrupted half-way: an answer left unread would answer the next go
            self.close()
            raise

    def _bestmove(self, limit: float | None, start: float) -> Answer:
        """Read the answer to ``go``: ``info`` lines, then ``bestmove SQUARE``. At ``limit``
        the engine is sent ``stop`` and given :data:`KILL_GRACE` more seconds."""
        deadline, stopped, nodes = limit, False, None
        while True:
            left = None if deadline is None else deadline - (time.perf_counter() - start)
            words, failure = self._line(left, start)
            seconds = time.perf_counter() - start
            if failure is not None:
                return failure
            if words is None:  # the limit passed
                if not stopped:
                    assert limit is not None  # no deadline passes without one
                    stopped, deadline = True, limit + KILL_GRACE
                    failure = self._say(STOP)
                    if failure is not None:
                        return failure
                    continue
                self._kill()
                detail = self._with_stderr(f"no bestmove within {limit:g} s, nor {KILL_GRACE:g} s after stop; "
                                           f"{self.PROCESS} killed")
                self.close()
                return Answer(None, seconds, TIME, detail)
            if not words or words[0] == INFO:
                found = _info_nodes(words)
                nodes = nodes if found is None else found  # the last info line that says
                continue
            if words[0] == BESTMOVE and len(words) >= 2:
                # The detail of a move is only read when the game finds it illegal.
                return Answer(words[1], seconds, detail=self._stderr_tail(), nodes=nodes)
            self._kill()
            detail = self._with_stderr(f"{self.PROCESS} broke the protocol: {' '.join(words)[:200]!r} "
                                       "(expected info or bestmove)")
            self.close()
            return Answer(None, seconds, CRASH, detail)


def _info_nodes(words: list[str]) -> int | None:
    """The ``nodes N`` of an ``info`` line's words, or ``None``."""
    for key, value in zip(words, words[1:], strict=False):
        if key == NODES and value.isdigit():
            return int(value)
    return None


class EngineFailure(RuntimeError):
    """An engine played as an in-process agent failed to give a move (the event's detail)."""


class EngineAgent:
    """An engine as an agent object (``make_agent("engine:...")``, e.g. an opponent in
    ``donuts-ai play``): ``select_move`` is one ``position``/``go`` exchange with an
    :class:`EngineSeat`, limited to ``move_limit`` seconds; a failure raises
    :class:`EngineFailure`. The harness seats engine specs as :class:`EngineSeat` s directly."""

    kind = ENGINE_KIND

    def __init__(self, engine: str, game: str = "donuts", seed: int | None = None, name: str | None = None,
                 move_limit: float = ENGINE_AGENT_MOVE_LIMIT):
        self.spec, self.game, self.seed, self.move_limit = engine, game, seed, move_limit
        self.name = name or engine
        self._seat = EngineSeat(engine, game=game)
        self._started = False

    def reset(self, seed: int | None = None) -> None:
        """A new game (``seed``, else the agent's own, sets the engine's ``seed`` option)."""
        failure = self._seat.reset(self.seed if seed is None else seed)
        if failure is not None:
            raise EngineFailure(f"{self.spec}: {failure.detail}")
        self._started = True

    def select_move(self, view: GameState, time_left: float | None = None) -> Move:
        """The engine's move for the player to move in ``view`` (the game's state)."""
        if not self._started:
            self.reset()
        game = get_game(self.game)
        side = view.turn
        if side is None:  # a finished game: asked as for the second player (the engine says it has no move)
            side = 1
        answer = self._seat.ask(game, view, side, time_left, self.move_limit)
        if answer.kind is not None:
            self._started = False  # a fresh process, handshake and newgame next time
            raise EngineFailure(f"{self.spec}: {answer.kind}: {answer.detail}")
        return answer.move

    def close(self) -> None:
        """Stop the engine's process."""
        self._seat.close()

    def __del__(self) -> None:
        seat = getattr(self, "_seat", None)
        if seat is not None:
            seat.close()
