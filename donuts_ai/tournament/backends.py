"""Where a run's units are played: in this process, over a pool of processes, or as Ray
tasks. Tournaments, evaluations and studies hand :func:`execute` a function of
``(config, unit)`` and get its results in completion order."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from multiprocessing import context, spawn
from typing import Any, TypeVar

from ..errors import DonutsError
from ._lifeline import watch_descendants
from ._shutdown import WORKER_STOP_LIMIT, close_everything, interruptible, pool_worker_started, reclaim_signals, signals_held, stopping_pool
from .config import BACKENDS

_C = TypeVar("_C")
_U = TypeVar("_U")
_R = TypeVar("_R")

#: Times a process pool is rebuilt after one of its workers died, before the run gives up.
MAX_POOL_RESTARTS = 3
#: Times Ray runs a unit again after the worker or the node running it died (a node lost
#: or removed, a worker killed for memory), before the run fails. Safe, and so the
#: harness's decision rather than Ray's default: a unit is a function of its settings and
#: seed alone (a rerun plays the same games) and writes nothing itself; the driver alone
#: appends to the results file, once per task, from the one result Ray hands back for it,
#: so a retried unit is never written twice. The same bound as a process pool's restarts.
RAY_TASK_RETRIES = MAX_POOL_RESTARTS
#: An exception raised by the unit itself (not the loss of its worker) is not retried: it
#: would be raised again, and the run stops on it as it does on a process pool.
RAY_RETRY_EXCEPTIONS = False
#: ``ray.init``'s address for a Ray instance of the run's own, started here.
LOCAL_RAY = "local"


#: What a spawned process is told to run of its parent's ``__main__`` (multiprocessing's
#: preparation data): nothing, for a pool worker (:class:`_WorkerContext`).
_MAIN_KEYS = ("init_main_from_path", "init_main_from_name")
_launching = threading.Lock()  # one worker launched at a time while the preparation data is changed


class _WorkerProcess(context.SpawnProcess):
    """A spawned pool worker that never runs its parent's ``__main__``.

    multiprocessing's spawn start method runs the parent's main script (or module) again
    in every worker, as ``__mp_main__``, so that functions and classes defined there can
    be unpickled. A user's script that calls :func:`~.runner.run` at its top level (no
    ``if __name__ == "__main__":`` guard) would then start the run again in each worker
    (multiprocessing refuses: a ``RuntimeError`` per worker), and a script read from stdin
    or a notebook cell has no file to run at all. The harness's workers need nothing of
    ``__main__``: what they run is the library's, and agents travel by value
    (:mod:`.entries`, cloudpickle). So the worker is launched with the parent's path and
    working directory but without the instruction to run its main, as a Ray worker is."""

    @staticmethod
    def _Popen(process_obj: Any) -> Any:
        original = spawn.get_preparation_data

        def without_main(name: str) -> dict[str, Any]:
            data: dict[str, Any] = original(name)
            for key in _MAIN_KEYS:
                data.pop(key, None)
            return data

        with _launching:
            spawn.get_preparation_data = without_main  # read by the spawning Popen's launch, below
            try:
                return context.SpawnProcess._Popen(process_obj)
            finally:
                spawn.get_preparation_data = original


class _WorkerContext(context.SpawnContext):
    """The spawn start method with :class:`_WorkerProcess` workers."""

    Process = _WorkerProcess


def iter_process(fn: Callable[[_C, _U], _R], config: _C, units: Iterable[_U], workers: int) -> Iterator[_R]:
    """``fn(config, unit)`` for every unit over a pool of ``workers`` processes, in
    completion order. A worker that dies (agents run in-process with ``isolation="none"``
    can kill it) breaks the pool: a fresh pool plays the units not yet finished."""
    ctx = _WorkerContext()  # spawn: Numba's threads do not survive fork; no __main__ (_WorkerProcess)
    pending = list(units)
    for attempt in range(MAX_POOL_RESTARTS + 1):
        # Stopped or failed, the workers are stopped too, and close their seats (._shutdown).
        with cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=pool_worker_started,
                                    initargs=(os.getpid(),)) as pool, \
                stopping_pool(pool):
            futures = {pool.submit(fn, config, u): u for u in pending}
            try:
                for fut in cf.as_completed(futures):
                    result = fut.result()
                    pending.remove(futures[fut])
                    yield result
                return
            except cf.process.BrokenProcessPool:
                if attempt == MAX_POOL_RESTARTS:
                    raise DonutsError(f"worker processes died {attempt + 1} times; {len(pending)} units not played") from None


def _ray_unit(fn: Callable[[_C, _U], _R], config: _C, unit: _U) -> _R:
    """``fn(config, unit)`` in a Ray worker, which closes the worker's seats (every
    :func:`~._shutdown.on_stop` closer) when the unit does not finish: cancelled by a
    stopped run (:func:`_cancel`: a ``KeyboardInterrupt`` raised in the task), the worker
    told to leave, or a failure that ends the run. Otherwise the seats stay for the
    worker's next unit. A worker that inherited SIGINT ignored is cancelled all the same
    (:func:`~._shutdown.interruptible`)."""
    with interruptible():
        try:
            return fn(config, unit)
        except BaseException:
            close_everything()
            raise


def _cancel(ray: Any, pending: list[Any]) -> None:
    """Cancel the tasks of ``pending`` and wait (up to :data:`WORKER_STOP_LIMIT`) for the
    running ones to end. Ray cancels a running task by raising ``KeyboardInterrupt`` in
    it (``force=False``: the worker lives on), so that :func:`_ray_unit` closes the
    worker's seats and engines on whichever node it runs, an engine hung mid-move too,
    before the run's end lets Ray stop its workers (which kills a worker in a tenth of a
    second, leaving its engines only the end of their input). A stop signal meanwhile
    waits (the stop is under way already)."""
    if not pending:
        return
    with signals_held():
        for ref in pending:
            ray.cancel(ref, force=False)
        ray.wait(pending, num_returns=len(pending), timeout=WORKER_STOP_LIMIT)


def iter_ray(fn: Callable[[_C, _U], _R], config: _C, units: Iterable[_U], workers: int, address: str | None
             ) -> Iterator[_R]:
    """``fn(config, unit)`` for every unit as Ray tasks (a cluster at ``address``, else a
    local Ray instance started and stopped here), in completion order. A task whose
    worker or node is lost is run again (:data:`RAY_TASK_RETRIES`); a run that stops or
    fails cancels its tasks, which close their seats (:func:`_cancel`)."""
    with ray_session(address, workers) as ray:
        yield from _ray_units(ray, fn, config, units)


@contextlib.contextmanager
def ray_session(address: str | None, cpus: int) -> Iterator[Any]:
    """Ray, connected: to the cluster at ``address``, else to a local instance of ``cpus``
    CPUs started here and shut down on leaving (a session already connected is used as
    it is, and left so). Raises :class:`~donuts_ai.errors.DonutsError` without Ray."""
    try:
        import ray
    except ImportError:
        raise DonutsError("the ray backend needs Ray: pip install 'donuts_ai[ray]'") from None
    started, watcher = False, None
    if not ray.is_initialized():
        # "local": a new instance of its own even where a cluster runs on this machine
        # (ray.init without an address joins the latest one `ray start` made).
        kwargs = {"address": address} if address else {"address": LOCAL_RAY, "num_cpus": cpus}
        # A Ray of its own ends with this process, even one killed (._lifeline).
        watcher = None if address else watch_descendants()
        try:
            ray.init(include_dashboard=False, log_to_driver=False, **kwargs)
        except BaseException:
            if watcher is not None:
                watcher.terminate()
            raise
        reclaim_signals()  # a stop must reach the caller's finally, and ray.shutdown()
        started = True
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()
            if watcher is not None:
                watcher.terminate()
                watcher.wait()


def _ray_units(ray: Any, fn: Callable[[_C, _U], _R], config: _C, units: Iterable[_U]) -> Iterator[_R]:
    pending: list[Any] = []
    try:
        remote: Any = ray.remote(_ray_unit).options(num_cpus=1, max_retries=RAY_TASK_RETRIES,
                                                    retry_exceptions=RAY_RETRY_EXCEPTIONS)
        pending = [remote.remote(fn, config, u) for u in units]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            result: _R = ray.get(done[0])
            yield result
    except BaseException:  # stopped (Ctrl-C, SIGTERM), a unit failed, or the caller stopped early
        _cancel(ray, pending)
        raise


def execute(fn: Callable[[_C, _U], _R], config: _C, units: Sequence[_U], workers: int, backend: str = "process",
            address: str | None = None) -> Iterator[_R]:
    """The results of ``fn(config, unit)`` for ``units`` on the chosen backend."""
    if backend not in BACKENDS:
        raise DonutsError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if backend == "ray":
        return iter_ray(fn, config, units, workers, address)
    if workers == 1 or len(units) <= 1:
        return (fn(config, u) for u in units)
    return iter_process(fn, config, units, workers)
