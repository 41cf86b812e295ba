"""Nothing outlives its driver: the processes a run starts end when the process that
started them dies, even by SIGKILL (an out-of-memory kill, a dying Jupyter kernel,
``timeout -s KILL``), when none of the run's own clean-up (:mod:`._shutdown`) can run.

A dead process runs nothing, so each process a run starts watches its own parent:
seat processes and ``engine:`` programs run under a guard (:func:`guarded`), pool
workers watch the driver from a thread (:func:`watch_parent`), and a Ray instance the
run started itself is watched from outside (:func:`watch_descendants`).

The bounds: a guard notices within :data:`CHECK_EVERY` seconds, a pool worker within
:data:`CHECK_EVERY` once it holds Python's lock again (an agent playing in the worker
itself, ``isolation="none"``, inside a compiled kernel, finishes its move first).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence

#: Seconds between two checks that the parent is alive (a guard, a pool worker).
CHECK_EVERY = 0.25

#: The guard, run as ``python -S -c GUARD PARENT_PID CHECK_EVERY PROGRAM ARGS...`` in a process group
#: of its own (``start_new_session=True``). ``-S``: no site packages, so it starts in
#: milliseconds and imports nothing of the user's. SIGCHLD wakes it the moment the program
#: ends (a wakeup pipe read by ``select``), so the guard adds no wait to the harness.
GUARD = """
import os, select, signal, sys
parent, check, command = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3:]
wake_read, wake_write = os.pipe()
os.set_blocking(wake_write, False)
signal.set_wakeup_fd(wake_write)
signal.signal(signal.SIGCHLD, lambda signum, frame: None)
program = os.fork()
if program == 0:
    os.close(wake_read); os.close(wake_write)
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        os.write(2, f"{command[0]}: {exc.strerror}\\n".encode())
        os._exit(127)
# The pipes are the program's alone: a copy held here would hide the program's end of output.
null = os.open(os.devnull, os.O_RDWR)
os.dup2(null, 0); os.dup2(null, 1)
# A second watcher, in the group, for the guard itself: a parent that kills its own
# children as it dies (a Ray worker does) kills the guard before the guard can act.
guard = os.getpid()
if os.fork() == 0:
    os.close(wake_read); os.close(wake_write)
    signal.set_wakeup_fd(-1)
    while os.getppid() == guard:
        select.select([], [], [], check)
    os.killpg(0, signal.SIGKILL)
while True:
    ended, status = os.waitpid(program, os.WNOHANG)  # the program only: the watcher is reaped by the system
    if ended:
        break
    if os.getppid() != parent:
        os.killpg(0, signal.SIGKILL)
    woken, _, _ = select.select([wake_read], [], [], check)
    if woken:
        os.read(wake_read, 512)
if os.WIFSIGNALED(status):  # ended by a signal: so does the guard, that the harness reads the same status
    try:
        signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
    except (OSError, ValueError):  # SIGKILL and SIGSTOP keep their default
        pass
    os.kill(os.getpid(), os.WTERMSIG(status))
sys.exit(os.waitstatus_to_exitcode(status) if not os.WIFSIGNALED(status) else 1)
"""


# The guard: a small Python process, the leader of the seat's own process group, that starts the
# program in that group with the pipes going straight to it, then waits. When the program ends, the
# guard ends with the program's status (exit code or signal), so the harness sees what it saw before.
# When the guard's parent is no longer the process that started it (the parent died: the system gave
# the guard another one), it kills its whole process group: the program and whatever the program
# started. A second watcher in the group watches the guard in turn, for a parent that kills its direct
# children as it dies (a Ray worker does): the guard then cannot act, its watcher does. The watcher
# outlives a program that ends by itself by one check, and takes whatever the program left running in
# its group with it.
#
# Why not ``prctl(PR_SET_PDEATHSIG)``: it fires when the *thread* that spawned the child exits (a
# pool's management thread, say), grandchildren do not inherit it, it cannot be set safely from
# ``preexec_fn`` in a process with threads, and it is Linux only. Watching the parent works on every
# POSIX system, for any program, and for its children.
def guarded(command: Sequence[str]) -> list[str]:
    """``command`` run under a guard that ends it, and its process group, once this process
    is gone. Start the result with ``start_new_session=True`` (the guard leads the group)."""
    return [sys.executable, "-S", "-c", GUARD, str(os.getpid()), str(CHECK_EVERY), *command]


# A pool worker kills itself when the driver is gone; its seats' guards then see their own parent
# gone, and multiprocessing's resource tracker sees the last holder of its pipe leave and exits by
# itself.
def watch_parent(parent: int) -> None:
    """Kill this process once its parent is no longer ``parent`` (it died), checked every
    :data:`CHECK_EVERY` seconds from a daemon thread. For a process whose parent holds
    nothing it must hand back: a pool worker, whose results are its parent's to write."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(CHECK_EVERY)
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, name="donuts-ai lifeline", daemon=True).start()


#: The watcher of :func:`watch_descendants`, run as ``python -c WATCHER DRIVER_PID CHECK_EVERY``:
#: the driver's descendants, listed every check, are killed once the driver is gone
#: (psutil checks a process's start time: a number reused by a new process is left alone).
WATCHER = """
import os, sys, time
import psutil
driver, check, me, known = int(sys.argv[1]), float(sys.argv[2]), os.getpid(), {}
while os.getppid() == driver:
    try:
        for child in psutil.Process(driver).children(recursive=True):
            if child.pid != me:
                known[child.pid] = child
    except psutil.Error:
        break
    known = {pid: p for pid, p in known.items() if p.is_running()}
    time.sleep(check)
for process in known.values():
    try:
        process.kill()
    except psutil.Error:
        pass
"""


# Ray ends its raylet with the driver, but not every process the raylet started (its agents): a
# watcher process keeps the list of the driver's descendants, and kills what is left of them once the
# driver is gone.
def watch_descendants() -> subprocess.Popen[bytes]:
    """Start a watcher process that kills every descendant of this process once this
    process is gone (a Ray instance started here: Ray's raylet dies with its driver, its
    agents do not). Stop it (``terminate()``) once those processes have ended cleanly.
    Needs psutil (Ray's own dependency)."""
    return subprocess.Popen([sys.executable, "-c", WATCHER, str(os.getpid()), str(CHECK_EVERY)], stdin=subprocess.DEVNULL,
                            start_new_session=True)
