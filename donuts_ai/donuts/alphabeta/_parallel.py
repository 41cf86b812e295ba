"""The solver's parallel driver: searches raced in threads on one table, tasks shared out
among threads, the Lazy SMP helpers' workspaces, and the cores there are.

:class:`~.solver.Solver` with ``threads`` > 1 runs its searches through :func:`race`: the
alpha-beta search, the proof-number search and the Lazy SMP helpers (alpha-beta searches
whose move orders start from the random histories of :func:`helper_workspace`), each in a
thread of its own, all on the shared transposition table; the first to finish answers and
the others are stopped through their workspaces' node limits. The kernels release the
GIL, so the threads run on separate cores.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

from ._ordering import history_bonus
from ._workspace import NODE_LIMIT, new_workspace

_T = TypeVar("_T")
_W = TypeVar("_W")
_R = TypeVar("_R")

#: The Lazy SMP helpers' move orders differ from the main search's by a random start
#: history per helper (seeded by its number: the same helpers every run), of at most the
#: weight of this many cut-offs at this depth: enough to change the first orders, little
#: beside what the search learns (a cut-off 40 plies deep weighs ``history_bonus(40)``).
HELPER_HISTORY_CUTOFFS, HELPER_HISTORY_DEPTH = 4, 24
#: How often (seconds) the caller of a parallel search sets the stop again while the
#: stopped threads finish: a thread that was just starting its search may have reset it.
STOP_POLL_SECONDS = 0.001
#: How often (seconds) the caller wakes to see whether every search has ended without a result.
RACE_POLL_SECONDS = 0.05


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it,
    else ``os.cpu_count()``): :func:`~.solver.solve` and :func:`~.solver.analyze` use them
    all by default."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def helper_workspace(k: int) -> NDArray[np.void]:
    """The workspace of Lazy SMP helper ``k`` (1, 2, ...): its start history drawn from a
    generator seeded by ``k``, so its move order differs from the main search's and from
    the other helpers', the same way every run."""
    ws = new_workspace()
    rng = np.random.default_rng(k)
    ws[0]["history"][:] = rng.integers(0, HELPER_HISTORY_CUTOFFS * history_bonus(HELPER_HISTORY_DEPTH), ws[0]["history"].shape)
    return ws


def race(searches: list[tuple[Callable[[], _T | None], NDArray[np.void]]]) -> _T | None:
    """Run ``searches`` (each a call returning its result, or None when stopped, and the
    workspace whose node limit stops it) in threads at once; the first result wins and the
    others are stopped. None when every one was stopped; the first error raised in a thread
    is raised here."""
    done = threading.Event()
    lock = threading.Lock()
    results: list[_T] = []
    errors: list[BaseException] = []

    def run(call: Callable[[], _T | None]) -> None:
        try:
            if done.is_set():
                return
            result = call()
        except BaseException as e:  # noqa: BLE001 - handed to the caller's thread
            with lock:
                errors.append(e)
            done.set()
            return
        if result is not None:
            with lock:
                results.append(result)
            done.set()

    workers = [threading.Thread(target=run, args=(call,), daemon=True) for call, _ in searches]
    for w in workers:
        w.start()
    while not done.is_set() and any(w.is_alive() for w in workers):
        done.wait(RACE_POLL_SECONDS)
    while any(w.is_alive() for w in workers):
        # Stop the searches still running: a node limit of 0 ends each at its next node
        # (set again each round: a thread may have been just starting its search).
        for _, ws in searches:
            ws[0]["stats"][NODE_LIMIT] = 0
        for w in workers:
            w.join(STOP_POLL_SECONDS)
    if errors:
        raise errors[0]
    return results[0] if results else None


def share_out(tasks: list[_T], workers: list[_W], work: Callable[[_W, _T], _R]) -> list[_R]:
    """``work(worker, task)`` for every task, each of ``workers`` in a thread of its own taking
    the next task as it finishes one (so one long task does not hold the others back); the
    results in the order of ``tasks``. After an error no task is started; the first error
    raised in a thread is raised here once every thread has ended."""
    lock = threading.Lock()
    results: dict[int, _R] = {}
    errors: list[BaseException] = []
    next_task = [0]

    def run(worker: _W) -> None:
        while True:
            with lock:
                i = next_task[0]
                if errors or i >= len(tasks):
                    return
                next_task[0] += 1
            try:
                result = work(worker, tasks[i])
            except BaseException as e:  # noqa: BLE001 - handed to the caller's thread
                with lock:
                    errors.append(e)
                return
            with lock:
                results[i] = result

    threads = [threading.Thread(target=run, args=(w,), daemon=True) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return [results[i] for i in range(len(tasks))]
