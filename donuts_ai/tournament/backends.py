"""Where a run's units are played: in this process, over a pool of processes, or as Ray
tasks. Tournaments, evaluations and studies hand :func:`execute` a function of
``(config, unit)`` and get its results in completion order."""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TypeVar

from ..errors import DonutsError
from ._shutdown import pool_worker_started, reclaim_signals, stopping_pool
from .config import BACKENDS

_C = TypeVar("_C")
_U = TypeVar("_U")
_R = TypeVar("_R")

#: Times a process pool is rebuilt after one of its workers died, before the run gives up.
MAX_POOL_RESTARTS = 3


def iter_process(fn: Callable[[_C, _U], _R], config: _C, units: Iterable[_U], workers: int) -> Iterator[_R]:
    """``fn(config, unit)`` for every unit over a pool of ``workers`` processes, in
    completion order. A worker that dies (agents run in-process with ``isolation="none"``
    can kill it) breaks the pool: a fresh pool plays the units not yet finished."""
    ctx = multiprocessing.get_context("spawn")  # Numba's threads do not survive fork
    pending = list(units)
    for attempt in range(MAX_POOL_RESTARTS + 1):
        # Stopped or failed, the workers are stopped too, and close their seats (._shutdown).
        with cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=pool_worker_started) as pool, \
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


def iter_ray(fn: Callable[[_C, _U], _R], config: _C, units: Iterable[_U], workers: int, address: str | None
             ) -> Iterator[_R]:
    """``fn(config, unit)`` for every unit as Ray tasks (a cluster at ``address``, else a
    local Ray instance started and stopped here), in completion order."""
    try:
        import ray
    except ImportError:
        raise DonutsError("the ray backend needs Ray: pip install 'donuts_ai[ray]'") from None
    started = False
    if not ray.is_initialized():
        kwargs = {"address": address} if address else {"num_cpus": workers}
        ray.init(include_dashboard=False, log_to_driver=False, **kwargs)
        reclaim_signals()  # a stop must reach the finally below, and ray.shutdown()
        started = True
    try:
        remote = ray.remote(num_cpus=1)(fn)
        pending = [remote.remote(config, u) for u in units]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            result: _R = ray.get(done[0])
            yield result
    finally:
        if started:
            ray.shutdown()


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
