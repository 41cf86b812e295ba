"""Stopping cleanly: nothing a run started outlives it, however it ends.

When a tournament, an SPRT or an evaluation ends, fails or is stopped (Ctrl-C, SIGTERM,
SIGHUP), every seat process and external engine it started is gone within seconds, even
one that ignores SIGTERM or hangs mid-move, as cutechess-cli stops its engines: the main
process turns a stop signal into an exception (:func:`stopping_cleanly`,
:func:`stops_cleanly`), every seat process is ended in order (:func:`end_processes`),
and pool workers close the seats they own (:func:`pool_worker_started`,
:func:`stopping_pool`).

For a new kind of run (an evaluation): register what closes its processes with
:func:`on_stop` (at import, once; it also runs at exit and in a stopped pool worker),
call it in the run's ``finally``, and run the work under :func:`stops_cleanly`::

    on_stop(close_seats)

    @stops_cleanly
    def evaluate(...): ...

A SIGKILL of the run's driver runs none of this: :mod:`._lifeline` covers it. POSIX only.
"""

from __future__ import annotations

import atexit
import concurrent.futures as cf
import contextlib
import functools
import multiprocessing
import multiprocessing.util
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from types import FrameType
from typing import ParamSpec, TypeVar

from ._lifeline import watch_parent

#: Seconds a process told to leave (``quit``, end of input) is given before it is killed:
#: one grace for all the processes closed together.
STOP_GRACE = 0.5
#: Seconds a pool worker sent SIGTERM is given to close its seats (a grace of its own)
#: and exit before it is killed.
WORKER_STOP_LIMIT = 5.0
#: Seconds waited for a killed process to be reaped (a process in uninterruptible sleep
#: cannot die at once; it is left to the system rather than hanging the harness).
KILL_WAIT = 5.0
#: The longest sleep between two checks that the processes being stopped have left.
_POLL = 0.02

_P = ParamSpec("_P")
_R = TypeVar("_R")

#: The signals a run turns into an exception (SIGHUP is absent on Windows).
STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


# The main process: SIGTERM's and SIGHUP's default action kills a Python process on the spot, without
# running ``finally`` blocks or ``atexit`` handlers, so the seats would never be closed. SIGTERM and
# SIGHUP raise Stopped (a KeyboardInterrupt, so code that handles Ctrl-C handles them alike), Ctrl-C
# raises KeyboardInterrupt; once the run is stopping, further signals are not raised again
# (its clean-up is bounded), and clean-up that must not be cut short holds them until it is done
# (signals_held).
class Stopped(KeyboardInterrupt):
    """The run was stopped by a signal (SIGTERM, SIGHUP), raised in the main thread so that
    its clean-up runs; ``signum`` is the signal. A :class:`KeyboardInterrupt`, so that code
    that handles Ctrl-C handles a stop alike."""

    def __init__(self, signum: int):
        super().__init__(f"stopped by {signal.Signals(signum).name}")
        self.signum = signum


# --- what stops, in this process -------------------------------------------------------

_closers: list[Callable[[], None]] = []


def on_stop(close: Callable[[], None]) -> Callable[[], None]:
    """Register what stops every process of some kind that this process started.

    It runs at exit (``atexit``), and in a pool worker when it ends or is stopped.

    Args:
        close: stops the processes.

    Returns:
        ``close``, so that it can decorate.
    """
    if close not in _closers:
        _closers.append(close)
        atexit.register(close)
    return close


def close_everything() -> None:
    """Run every closer :func:`on_stop` registered (an error in one does not stop the others)."""
    for close in list(_closers):
        try:
            close()
        except Exception as exc:  # the others must run: report it and go on
            sys.stderr.write(f"donuts-ai: error while closing ({close.__qualname__}): {type(exc).__name__}: {exc}\n")


# --- signals ---------------------------------------------------------------------------

_installed = 0  # depth of stopping_cleanly blocks in the main thread
_previous: dict[int, Callable[[int, FrameType | None], object] | int | None] = {}  # the handlers replaced
_held = 0  # depth of signals_held blocks in the main thread
_pending: int | None = None  # a signal received while held
_stopping = False  # a stop was raised: the run is unwinding
_raised: int | None = None  # the signal whose exception was raised (while _stopping)
_in_worker = False  # this process is a pool worker (pool_worker_started)


def _is_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _on_signal(signum: int, frame: FrameType | None) -> None:
    """The handler of the stop signals (main process and pool workers alike)."""
    global _pending, _stopping, _raised
    if _in_worker:
        if signum != signal.SIGTERM:  # Ctrl-C, a hang-up: the parent decides, and stops the worker with SIGTERM
            return
        if _held:
            _pending = signum
            return
        _close_and_exit(signum)
        return
    if _held or _stopping:  # held: raised at the end of the block; stopping: the run already unwinds
        _pending = _pending or signum
        return
    _stopping, _raised = True, signum
    raise KeyboardInterrupt() if signum == signal.SIGINT else Stopped(signum)


def _close_and_exit(signum: int) -> None:
    """A pool worker told to stop: close its seats, then leave at once (``os._exit``: the
    pool's own machinery must not catch an exception and carry on)."""
    try:
        close_everything()
    finally:
        sys.stderr.flush()
        os._exit(128 + signum)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """A block that a stop signal must not cut short (clean-up, starting a process and
    recording it): a signal received meanwhile acts when the block ends. Only in the main
    thread, where signal handlers run; elsewhere the block runs as it is."""
    global _held, _pending
    if not _is_main_thread():
        yield
        return
    _held += 1
    try:
        yield
    finally:
        _held -= 1
        if _held == 0 and _pending is not None:  # act on the signal now (unless the run already stops)
            signum, _pending = _pending, None
            _on_signal(signum, None)


def _replaceable(signum: int, handler: object) -> bool:
    """Is ``handler`` Python's default for ``signum``, which a run may replace? (A signal
    that is ignored, ``nohup``'s SIGHUP, or one the user handles, is left alone.)"""
    if signum == signal.SIGINT:
        return handler is signal.default_int_handler
    return handler == signal.SIG_DFL


@contextlib.contextmanager
def stopping_cleanly() -> Iterator[None]:
    """Run a block so that a stop leaves nothing behind: in it, SIGTERM and SIGHUP raise
    :class:`Stopped` and Ctrl-C :class:`KeyboardInterrupt` in the main thread, so that
    ``finally`` blocks (closing the seats) run; once one was raised, further stop signals
    are not raised again while the block unwinds. Signals whose handler is not the default
    (ignored, or the user's) are left alone, and the previous handlers come back at the
    end. Installed only from the main thread (elsewhere the block runs as it is); nested
    blocks share the outermost's handlers."""
    global _installed, _stopping, _pending, _raised
    if not _is_main_thread() or _in_worker:
        yield
        return
    if _installed == 0:
        _previous.clear()
        for signum in STOP_SIGNALS:
            handler = signal.getsignal(signum)
            if _replaceable(signum, handler):
                _previous[signum] = handler
                signal.signal(signum, _on_signal)
    _installed += 1
    try:
        yield
    except KeyboardInterrupt as exc:
        # Ray's waits raise a plain KeyboardInterrupt in place of the handler's Stopped: the
        # stop keeps the signal that caused it (SIGTERM's exit status, its message).
        if _installed == 1 and _raised not in (None, signal.SIGINT) and not isinstance(exc, Stopped):
            raise Stopped(_raised) from exc
        raise
    finally:
        _installed -= 1
        if _installed == 0:
            for number, handler in _previous.items():
                signal.signal(number, handler)
            _previous.clear()
            _stopping, _pending, _raised = False, None, None


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """A block that SIGINT interrupts (``KeyboardInterrupt``) even where this process
    inherited SIGINT ignored: a Ray worker of a cluster started in the background (a
    shell's ``&`` ignores SIGINT in what it starts, and a cluster's workers inherit it).
    Ray cancels a running task through SIGINT's handler (``_thread.interrupt_main``),
    which does nothing for a signal ignored or left to the system, so the task would run
    on, its engines with it. A handler set by Python is kept; only in the main thread."""
    if not _is_main_thread() or signal.getsignal(signal.SIGINT) not in (signal.SIG_IGN, signal.SIG_DFL):
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def reclaim_signals() -> None:
    """Inside :func:`stopping_cleanly`, take back the stop signals a library took meanwhile
    (``ray.init`` installs a SIGTERM handler that aborts the process, leaving its workers'
    seats behind)."""
    if _installed and _is_main_thread():
        for signum in _previous:
            signal.signal(signum, _on_signal)


def stops_cleanly(run: Callable[_P, _R]) -> Callable[_P, _R]:
    """Decorate a function that runs games so that it runs under :func:`stopping_cleanly`.

    Args:
        run: the function.

    Returns:
        The function, whose SIGTERM and SIGHUP stop it as Ctrl-C does.
    """

    @functools.wraps(run)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with stopping_cleanly():
            return run(*args, **kwargs)

    return wrapper


# --- ending processes ------------------------------------------------------------------


def _has_ended(proc: subprocess.Popen[bytes]) -> bool:
    """Has ``proc`` ended? Checked without reaping it where the system allows (``waitid``
    with ``WNOWAIT``), so that its process group ID cannot be given to another process
    before the group is killed."""
    if proc.returncode is not None:
        return True
    if not hasattr(os, "waitid"):
        return proc.poll() is not None
    try:
        return os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:  # reaped already
        return True


def _tell_to_leave(proc: subprocess.Popen[bytes], goodbye: bytes) -> None:
    """Write ``goodbye`` (never blocking: a process that does not read must not hang the
    harness) and close the process's input."""
    stdin = proc.stdin
    if stdin is None:
        return
    with contextlib.suppress(OSError, ValueError):  # gone already, a full pipe, a closed file
        if goodbye and not stdin.closed:
            fd = stdin.fileno()
            os.set_blocking(fd, False)
            os.write(fd, goodbye)
    with contextlib.suppress(OSError):
        stdin.close()


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL ``proc``'s process group (it was started in a session of its own): the
    process and everything it started."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):  # the group is gone (or only a zombie is left)
        if proc.returncode is None and proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()


# Every seat process is told to leave (an engine ``quit``, an agent process the end of its input),
# given one grace period (STOP_GRACE, shared by all the processes closed together), then killed with
# its whole process group (SIGKILL: whatever it started goes too). A process that leaves at once costs
# no grace.
def end_processes(procs: Sequence[tuple[subprocess.Popen[bytes], bytes]], grace: float = STOP_GRACE) -> None:
    """End every process of ``procs`` (``(process, goodbye)`` pairs; each started with
    ``start_new_session=True``) in order: each is sent its ``goodbye`` (an engine's
    ``quit``; may be empty) and the end of its input, all are given one ``grace`` (in
    seconds, no longer than the slowest needs), then each is killed with its process group
    (what it started is gone even when it left by itself) and reaped. Never raises for a
    process that is gone already; a stop signal waits until it is done."""
    with signals_held():
        for proc, goodbye in procs:
            if not _has_ended(proc):
                _tell_to_leave(proc, goodbye)
        deadline = time.monotonic() + grace
        delay = 0.001
        waiting = [proc for proc, _ in procs if not _has_ended(proc)]
        while waiting and time.monotonic() < deadline:
            time.sleep(min(delay, max(0.0, deadline - time.monotonic())))
            delay = min(2 * delay, _POLL)
            waiting = [proc for proc in waiting if not _has_ended(proc)]
        for proc, _ in procs:
            kill_group(proc)
        for proc, _ in procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=KILL_WAIT)  # with a timeout: never blocks on a lock an interrupted wait holds
            for pipe in (proc.stdin, proc.stdout):
                if pipe is not None:
                    with contextlib.suppress(OSError):
                        pipe.close()


# --- pool workers ----------------------------------------------------------------------

_pools: set[cf.ProcessPoolExecutor] = set()  # pools running now (stopping_pool blocks)


# Pool workers (``workers > 1``) own the seats they play: each worker starts with pool_worker_started
# (the pool's initializer), so that SIGTERM makes it close its seats and exit, Ctrl-C and a hang-up
# (sent by the terminal to the whole foreground process group) leave the decision to the parent, and
# its normal end closes its seats too (a multiprocessing finalizer: a forked worker leaves without
# ``atexit``). The parent stops its workers when the run stops or fails (stopping_pool): SIGTERM, a
# grace (WORKER_STOP_LIMIT), then SIGKILL.
def pool_worker_started(parent: int | None = None) -> None:
    """The initializer of a pool worker (``ProcessPoolExecutor(initializer=...,
    initargs=(os.getpid(),))``): the worker ends when ``parent`` (the run's driver) dies,
    even by SIGKILL (:func:`~._lifeline.watch_parent`); SIGTERM
    closes its seats (every :func:`on_stop` closer) and ends it; Ctrl-C and a hang-up are
    the parent's to act on (they reach the whole foreground process group); its normal end
    closes its seats too (``atexit`` in a spawned worker; a finalizer, which a forked
    worker leaving by ``os._exit`` runs too). Handlers, not ignored signals, so that the processes it starts
    get the default ones."""
    global _in_worker
    _in_worker = True
    for signum in STOP_SIGNALS:
        signal.signal(signum, _on_signal)
    multiprocessing.util.Finalize(None, close_everything, exitpriority=100)
    if parent is not None:
        watch_parent(parent)


def stop_pool(pool: cf.ProcessPoolExecutor) -> None:
    """Stop ``pool`` now: queued work is dropped; its workers are sent SIGTERM (they close
    their seats and exit, :func:`pool_worker_started`), given :data:`WORKER_STOP_LIMIT`
    seconds, then killed. Safe to call on a pool that has ended."""
    with signals_held():
        workers = list((pool._processes or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            if worker.is_alive():
                with contextlib.suppress(ProcessLookupError):
                    worker.terminate()
        deadline = time.monotonic() + WORKER_STOP_LIMIT
        for worker in workers:
            worker.join(max(0.0, deadline - time.monotonic()))
        for worker in workers:
            if worker.is_alive():
                worker.kill()
                worker.join(KILL_WAIT)


@contextlib.contextmanager
def stopping_pool(pool: cf.ProcessPoolExecutor) -> Iterator[None]:
    """Use ``pool`` in a block that stops it (:func:`stop_pool`) if the block does not end
    normally (an error, Ctrl-C, a stop, a generator closed early); meanwhile
    :func:`stop_pools` can stop it too (a run's clean-up does, should the block be left
    waiting for the garbage collector)."""
    _pools.add(pool)
    try:
        yield
    except BaseException:
        stop_pool(pool)
        raise
    finally:
        _pools.discard(pool)


def stop_pools() -> None:
    """Stop every pool still in a :func:`stopping_pool` block (a run that stopped half-way)."""
    while _pools:
        stop_pool(_pools.pop())
