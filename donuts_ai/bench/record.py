"""Speed records in pyperf's format: what every timing benchmark writes with ``--json FILE``.

A record is a pyperf benchmark suite, so ``python -m pyperf stats FILE`` and ``python -m
pyperf compare_to OLD NEW`` read it. It holds one pyperf benchmark per *figure* (random
playouts on one core, perft at depth 6, ...); a figure is made of *runs*, each an
independent process (:func:`run_processes`), and each run keeps its *values*: the seconds
one unit of work took (turned into rates by :func:`~donuts_ai.bench.compare.rate`). Intervals are
computed over runs, not over the values of one (:mod:`donuts_ai.bench.compare`).

:func:`measure_work` calibrates a figure as pyperf calibrates its loops (a repeat lasts at
least :data:`MIN_REPEAT_SECONDS`). Every run carries pyperf's metadata and ours
(:func:`library_metadata`: versions, commit, settings, load); a figure also keeps its CPU
and wall time, what other processes and the hypervisor took meanwhile, and the yardstick's
rate (:mod:`donuts_ai.bench.yardstick`); :func:`starved` tells a figure that lacked CPU.
Benchmarks are not tests: nothing here asserts a speed.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import DonutsError

#: pyperf's unit for times: every value of a record is in seconds.
TIME_UNIT = "second"
#: Metadata key: what one value is the time of ("playout", "leaf", "node", ...).
WORK_UNIT_KEY = "work_unit"
#: Metadata keys: the 1-minute load average when a run started and when it ended.
LOAD_BEFORE_KEY, LOAD_AFTER_KEY = "load_before", "load_after"
#: Metadata key: the benchmark's settings, as text (``quick``, ``full``, ``positions=12 ...``).
SETTINGS_KEY = "bench_settings"
#: Metadata key: the command that made the record (``donuts-ai bench``, ``python -m ...``).
COMMAND_KEY = "bench_command"
#: The hidden option a benchmark's ``main`` takes to measure one run into a file: what
#: :func:`run_processes` starts each run with.
RUN_OPTION = "--record-run"
#: Metadata key: how a run's values make its one time. "median" (the default) for repeats of
#: the same work; "mean" where each value is other work (each decision of an agent is
#: another position: its decisions a second are decisions over their total time).
RUN_STATISTIC_KEY = "run_statistic"
#: Metadata keys that tell machines apart: pyperf's CPU model, count, frequency, host and
#: kernel (``platform``). Two CPUs of one model name run at different clocks.
MACHINE_KEYS = ("cpu_model_name", "cpu_count", "cpu_freq", "hostname", "platform")
#: Every repeat of :func:`measure_work` lasts at least this long (pyperf's 100 ms a value),
#: its calls a repeat calibrated to last :data:`CALIBRATION_MARGIN` times as long.
MIN_REPEAT_SECONDS, CALIBRATION_MARGIN = 0.1, 1.25
#: Metadata keys of a figure measured by :func:`measure_work`: this process's CPU seconds and
#: the wall seconds over its repeats, and the threads its work runs on (0: not this
#: process's: the starved check does not apply).
CPU_SECONDS_KEY, WALL_SECONDS_KEY, THREADS_KEY = "cpu_seconds", "wall_seconds", "threads"
#: Metadata keys: the cores other processes kept busy, and the share of the machine's time
#: the hypervisor stole, while the figure's repeats ran (from ``/proc/stat``).
OTHERS_BUSY_KEY, STEAL_KEY = "others_busy_cores", "steal_share"
#: A figure whose CPU time fell short of its wall time by more than this share a thread was
#: starved: other processes took cores it was measured on.
STARVED_SHARE = 0.10
#: Other processes' use of the cores above which ``bench`` warns at the start (in cores).
BUSY_CORES_WARNING = 0.5


class SpeedRecordError(DonutsError):
    """A speed record that cannot be read (see :func:`load`), a figure asked for that a
    record does not hold, or a benchmark run that failed."""


@dataclass
class Figure:
    """One figure measured in one run: ``values`` are the seconds each repeat took per
    ``work_unit`` (a playout, a leaf, ...); ``params`` are figures of the work that the
    clock does not give (leaves of the tree, nodes searched), kept as metadata."""

    name: str
    work_unit: str
    values: list[float]
    params: dict[str, int | float | str] = field(default_factory=dict)
    run_statistic: str = "median"  # how a run's values make its one time (RUN_STATISTIC_KEY)
    #: pyperf's ``loops``: the units of work of one repeat (a value times ``loops`` is its raw time).
    loops: int = 1
    #: pyperf's warm-ups: (loops, seconds per unit) of the calls made before the repeats.
    warmups: list[tuple[int, float]] = field(default_factory=list)
    #: Wall seconds the figure took, warm-ups included (pyperf's ``duration``); None: unknown.
    duration: float | None = None
    #: The threads the work runs on, this process's CPU and wall seconds over the repeats
    #: (None: not measured), and the machine meanwhile (:func:`machine_use`).
    threads: int = 1
    cpu_seconds: float | None = None
    wall_seconds: float | None = None
    others_busy_cores: float | None = None
    steal_share: float | None = None
    #: The yardstick's rate measured just before the figure (None: not measured).
    yardstick_rate: float | None = None
    #: Calls of the work a repeat made (:func:`measure_work`), and in its warm-ups all together.
    calls: int = 1
    warmup_calls: int = 0
    #: Its time is set by a time limit, not by the machine's speed (a timed move): it keeps
    #: no yardstick, so that no comparison normalises it.
    time_limited: bool = False


def measure_work(name: str, work_unit: str, work: Callable[[], float], repeats: int,
                 params: Mapping[str, int | float | str] | None = None, *, threads: int = 1,
                 min_seconds: float = MIN_REPEAT_SECONDS, prepare: Callable[[], None] | None = None) -> Figure:
    """One figure, measured as pyperf measures.

    The yardstick's rate first (:mod:`~donuts_ai.bench.yardstick`), then ``work`` called
    once to warm up and then as many times a repeat as it takes to last at least
    ``min_seconds`` (the calls that find that number are pyperf's warm-ups), then
    ``repeats`` repeats. Beside the values: this process's CPU time and the wall time over
    the repeats, and what other processes and the hypervisor took meanwhile
    (:func:`machine_use`).

    Args:
        name: the figure's name.
        work_unit: what one unit of work is (``playout``, ``node``, ...).
        work: does some work and returns the units of work it did.
        repeats: the repeats measured (the values).
        params: parameters kept with the figure.
        threads: the threads the work keeps busy (for :func:`starved`).
        min_seconds: the least time a repeat lasts.
        prepare: called before every call of ``work``, off the clock (clearing a table
            the work must find empty).

    Returns:
        The figure: each value the seconds a unit of work took.
    """
    from . import yardstick

    start = time.perf_counter()
    yardstick_rate = yardstick.rate()
    # The first call compiles or loads kernels and fills caches: a warm-up apart, never the calibration.
    seconds, units = _timed_calls(work, 1, prepare)
    warmups: list[tuple[int, float]] = [(max(1, round(units)), seconds / units)]
    calls, warmup_calls = 1, 1
    while True:
        seconds, units = _timed_calls(work, calls, prepare)
        warmups.append((max(1, round(units)), seconds / units))
        warmup_calls += calls
        # A quarter past the threshold, so that a repeat a little faster than its calibration still lasts it.
        if seconds >= CALIBRATION_MARGIN * min_seconds:
            break
        # Aim past it at once where the time is known, at most 10 times more calls a step.
        calls = max(calls + 1, min(calls * 10, math.ceil(calls * 1.1 * CALIBRATION_MARGIN * min_seconds
                                                         / max(seconds, 1e-9))))
    values, units_done = [], []
    cpu, stat = time.process_time(), proc_stat()
    wall = time.perf_counter()
    for _ in range(repeats):
        seconds, units = _timed_calls(work, calls, prepare)
        values.append(seconds / units)
        units_done.append(units)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    others, steal = machine_use(stat, proc_stat(), cpu)
    return Figure(name, work_unit, values, dict(params or {}),
                  loops=max(1, round(statistics.fmean(units_done))), warmups=warmups,
                  duration=time.perf_counter() - start, threads=threads, cpu_seconds=cpu, wall_seconds=wall,
                  others_busy_cores=others, steal_share=steal, yardstick_rate=yardstick_rate, calls=calls,
                  warmup_calls=warmup_calls)


def _timed_calls(work: Callable[[], float], calls: int, prepare: Callable[[], None] | None = None) -> tuple[float, float]:
    """(wall seconds, units of work) of ``calls`` calls of ``work``, each after ``prepare`` off the clock."""
    units = seconds = 0.0
    for _ in range(calls):
        if prepare is not None:
            prepare()
        start = time.perf_counter()
        units += work()
        seconds += time.perf_counter() - start
    return seconds, units


#: The fields of /proc/stat's ``cpu`` line, in order (Linux): jiffies of all cores together.
PROC_STAT_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")


def proc_stat() -> dict[str, int] | None:
    """The machine's CPU jiffies so far by kind (:data:`PROC_STAT_FIELDS`), from
    ``/proc/stat``; None where there is no such file."""
    try:
        with open("/proc/stat") as f:
            first = f.readline().split()
    except OSError:
        return None
    if not first or first[0] != "cpu":
        return None
    numbers = [int(v) for v in first[1:1 + len(PROC_STAT_FIELDS)]]
    return dict(zip(PROC_STAT_FIELDS, numbers + [0] * (len(PROC_STAT_FIELDS) - len(numbers)), strict=True))


def machine_use(before: dict[str, int] | None, after: dict[str, int] | None,
                own_cpu_seconds: float) -> tuple[float | None, float | None]:
    """(cores other processes kept busy, share of the time stolen by the hypervisor) between
    two :func:`proc_stat` readings, this process having used ``own_cpu_seconds`` of CPU
    meanwhile; (None, None) where ``/proc/stat`` is missing or no time passed."""
    if before is None or after is None:
        return None, None
    delta = {k: after[k] - before[k] for k in PROC_STAT_FIELDS}
    total = sum(delta.values())
    if total <= 0:
        return None, None
    cores = os.cpu_count() or 1
    wall = total / cores / _CLOCK_TICKS  # jiffies of all cores over the cores: the elapsed seconds
    busy = total - delta["idle"] - delta["iowait"] - delta["steal"]
    others = max(0.0, busy / _CLOCK_TICKS - own_cpu_seconds) / wall
    return round(others, 3), round(delta["steal"] / total, 4)


#: Jiffies a second (``/proc/stat``'s unit).
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def others_busy_cores(seconds: float = 0.3) -> float | None:
    """The cores other processes keep busy, measured over ``seconds`` while this one sleeps
    (None where ``/proc/stat`` is missing)."""
    before, cpu = proc_stat(), time.process_time()
    time.sleep(seconds)
    return machine_use(before, proc_stat(), time.process_time() - cpu)[0]


def load_average() -> float:
    """The 1-minute load average (0.0 where the system does not say)."""
    try:
        return float(os.getloadavg()[0])
    except (AttributeError, OSError):
        return 0.0


def is_busy(load: float, cores: int | None = None) -> bool:
    """Whether a load average above (cores - 1) says other processes hold a core."""
    return load > (cores or os.cpu_count() or 1) - 1


def busy_warning(load: float, cores: int | None = None, others: float | None = None) -> str | None:
    """One line saying that other processes use a core, so the figures will be low:
    ``others`` (cores other processes kept busy, :func:`others_busy_cores`) at least
    :data:`BUSY_CORES_WARNING`, or, where that is unknown, a load average above
    (cores - 1) (:func:`is_busy`); ``None`` otherwise."""
    cores = cores or os.cpu_count() or 1
    if others is not None:
        if others < BUSY_CORES_WARNING:
            return None
        return (f"warning: other processes are using {others:.1f} of {cores} cores: the figures on the cores they "
                f"hold will be low, and marked starved (the record keeps each figure's CPU and wall time)")
    if not is_busy(load, cores):
        return None
    return (f"warning: load average {load:.2f} at the start, above {cores - 1} (cores - 1): other processes are "
            f"running, so the figures will be low (the record keeps the load)")


def _git(args: list[str], cwd: Path) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout if out.returncode == 0 else None


def library_metadata() -> dict[str, str | int | float]:
    """Our metadata for a run: the library's version, Numba's and NumPy's, Numba's threads,
    and where the package sits in a git checkout, its commit and whether the tree was
    dirty (``git_dirty``: "yes" or "no"; both absent for an installed package)."""
    import numba
    import numpy

    meta: dict[str, str | int | float] = {"donuts_ai_version": package_version(), "numba_version": str(numba.__version__),
                                          "numpy_version": numpy.__version__, "numba_threads": int(numba.get_num_threads())}
    package = Path(__file__).resolve().parents[1]
    top = _git(["rev-parse", "--show-toplevel"], package)
    if top is not None and (Path(top.strip()) / "donuts_ai").resolve() == package:  # our own checkout, not one we sit in
        commit = _git(["rev-parse", "HEAD"], package)
        status = _git(["status", "--porcelain", "--untracked-files=no"], package)
        if commit:
            meta["git_commit"] = commit.strip()
        if status is not None:
            meta["git_dirty"] = "yes" if status.strip() else "no"
    return meta


def package_version() -> str:
    """The version of the package this module is part of: its ``__version__``; where the
    import is shadowed (a folder named like the package, a namespace package), the
    installed distribution's metadata; else ``unknown`` with the reason."""
    from importlib.metadata import PackageNotFoundError, version

    package_name = __name__.rsplit(".", 2)[0]
    found = getattr(sys.modules.get(package_name), "__version__", None)
    if isinstance(found, str) and found:
        return found
    try:
        return version(package_name)
    except PackageNotFoundError:
        return f"unknown ({package_name}.__version__ is missing and no {package_name} distribution is installed)"


def process_seconds() -> float | None:
    """Wall seconds since this process started (from ``/proc``; None elsewhere)."""
    try:
        start_ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        return time.clock_gettime(time.CLOCK_BOOTTIME) - start_ticks / _CLOCK_TICKS
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def suite_of(figures: Sequence[Figure], settings: str, command: str, load_before: float,
             load_after: float | None = None, run_seconds: float | None = None, *,
             yardstick_rate: float | None = None) -> Any:
    """One run's figures as a pyperf suite (a run a figure), with pyperf's metadata of this
    process and ours (see the module doc). ``run_seconds``, the wall time of the whole run
    (start-up and set-up included), is shared out among the figures' durations in
    proportion to them, so that ``pyperf stats`` adds up the time the runs really took.
    ``yardstick_rate``, the yardstick's rate measured before the run's work, is kept with
    every figure that did not measure its own (one timed by hand rather than by
    :func:`measure_work`), so that its record is normalised too; not with a
    ``time_limited`` one."""
    import pyperf

    if not figures:
        raise SpeedRecordError("no figure was measured")
    if yardstick_rate is not None:
        figures = [f if f.yardstick_rate is not None or f.time_limited else dataclasses.replace(f, yardstick_rate=yardstick_rate)
                   for f in figures]
    measured = sum(f.duration for f in figures if f.duration is not None)
    if run_seconds is not None and measured > 0 and run_seconds > measured:
        scale = run_seconds / measured
        figures = [dataclasses.replace(f, duration=f.duration * scale) if f.duration is not None else f for f in figures]
    common: dict[str, str | int | float] = {**library_metadata(), SETTINGS_KEY: settings, COMMAND_KEY: command,
                                            LOAD_BEFORE_KEY: load_before,
                                            LOAD_AFTER_KEY: load_average() if load_after is None else load_after}
    for figure in figures:
        if not figure.values or not all(v > 0 and math.isfinite(v) for v in figure.values):
            raise SpeedRecordError(f"figure {figure.name!r}: its values must be times > 0, got {figure.values!r}")
    # pyperf's metadata of this process, collected once (reading /proc and the clocks) for every figure.
    common.update(pyperf.Run([1.0]).get_metadata())
    return pyperf.BenchmarkSuite([
        pyperf.Benchmark([pyperf.Run(figure.values, warmups=figure.warmups or None, collect_metadata=False, metadata={
            **common, **{f"param_{k}": v for k, v in figure.params.items()}, **_measured_metadata(figure),
            "name": figure.name, "unit": TIME_UNIT, WORK_UNIT_KEY: figure.work_unit,
            RUN_STATISTIC_KEY: figure.run_statistic})])
        for figure in figures])


def _measured_metadata(figure: Figure) -> dict[str, str | int | float]:
    """pyperf's ``loops`` and ``duration`` of a figure, and what :func:`measure_work` saw."""
    from . import yardstick

    meta: dict[str, str | int | float] = {"loops": figure.loops, "calls": figure.calls}
    if figure.duration is not None:
        meta["duration"] = figure.duration
    if figure.cpu_seconds is not None and figure.wall_seconds is not None:
        meta.update({CPU_SECONDS_KEY: figure.cpu_seconds, WALL_SECONDS_KEY: figure.wall_seconds,
                     THREADS_KEY: figure.threads})
    if figure.others_busy_cores is not None:
        meta[OTHERS_BUSY_KEY] = figure.others_busy_cores
    if figure.steal_share is not None:
        meta[STEAL_KEY] = figure.steal_share
    if figure.yardstick_rate is not None:
        meta.update({yardstick.RATE_KEY: figure.yardstick_rate, yardstick.VERSION_KEY: yardstick.VERSION})
    return meta


def dump(suite: Any, path: str | os.PathLike[str]) -> None:
    """Write ``suite`` to ``path`` (pyperf's JSON), replacing it; :class:`SpeedRecordError` when
    it cannot be written."""
    try:
        suite.dump(str(path), replace=True)
    except OSError as exc:
        raise SpeedRecordError(f"cannot write {str(path)!r}: {exc.strerror}") from None


def _ending(returncode: int) -> str:
    """How a run's process ended: ``exit 2``, or ``killed by SIGSEGV`` (a negative return code)."""
    if returncode >= 0:
        return f"exit {returncode}"
    try:
        return f"killed by {signal.Signals(-returncode).name}"
    except ValueError:
        return f"killed by signal {-returncode}"


def run_processes(module: str, argv: Sequence[str], runs: int, progress: Callable[[str], None] | None = None) -> Any:
    """Run ``python -m module *argv --record-run FILE`` ``runs`` times, one process after
    the other, and merge what each wrote into one suite: each figure then has ``runs``
    independent runs. The processes' own output is dropped; a failed run raises
    :class:`SpeedRecordError` with the end of its error output."""
    import pyperf

    merged = None
    with tempfile.TemporaryDirectory(prefix="donuts-bench-") as folder:
        for i in range(runs):
            if progress:
                progress(f"run {i + 1} of {runs}")
            path = Path(folder) / f"run{i}.json"
            proc = subprocess.run([sys.executable, "-m", module, *argv, RUN_OPTION, str(path)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if proc.returncode != 0 or not path.exists():
                tail = " ".join(proc.stderr.strip().splitlines()[-3:])
                raise SpeedRecordError(f"run {i + 1} of {module} failed ({_ending(proc.returncode)})" + (f": {tail}" if tail else ""))
            suite = pyperf.BenchmarkSuite.load(str(path))
            if merged is None:
                merged = suite
            else:
                merged.add_runs(suite)
    return merged


# --- Reading records --------------------------------------------------------------------------------------------

#: Figure names shared by the engine benchmark and the reader of the oldest records.
PLAYOUTS_1 = "random playouts, 1 core"
PLAYOUTS_ALL = "random playouts, all cores"
REFERENCE_PLAYOUTS = "pure-Python reference playouts, 1 core"
MCTS_1 = "MCTS, 1 worker, empty board"
MCTS_ALL = "MCTS, all cores as workers, empty board"


def perft_name(depth: int) -> str:
    return f"perft depth {depth}"


def alphabeta_name(depth: int) -> str:
    return f"alpha-beta depth {depth}, 6 positions"


def solver_name(layout: str, distance: bool = False) -> str:
    return f"solver, value{' and distance' if distance else ''} of the empty {layout}"


def vector_env_name(num_envs: int, observation: bool = False) -> str:
    return f"VectorEnv, {num_envs} games{', observation read' if observation else ''}"


def pettingzoo_name(env: str) -> str:
    return f"PettingZoo {env}"


def boxes_games_name(players: int) -> str:
    return f"Donut Boxes random games, {players} players"


def ismcts_name(players: int, whole_move: bool) -> str:
    return f"Donut Boxes ISMCTS, {players} players, {'whole move' if whole_move else 'in the tree'}"


def _legacy_figures(data: Mapping[str, Any]) -> list[tuple[str, str, float]]:
    """(figure name, unit of work, rate) of an engine record of medians (see :func:`load`)."""
    out: list[tuple[str, str, float]] = []

    def add(name: str, unit: str, stats: Any) -> None:
        if isinstance(stats, Mapping) and isinstance(stats.get("median"), int | float) and stats["median"] > 0:
            out.append((name, unit, float(stats["median"])))

    add(PLAYOUTS_1, "playout", data.get("playouts_1core"))
    add(PLAYOUTS_ALL, "playout", data.get("playouts_all_cores"))
    if isinstance(data.get("perft"), Mapping):
        add(perft_name(data["perft"]["depth"]), "leaf", data["perft"])
    add(REFERENCE_PLAYOUTS, "playout", data.get("reference_playouts"))
    if isinstance(data.get("alphabeta"), Mapping):
        add(alphabeta_name(data["alphabeta"]["depth"]), "node", data["alphabeta"])
    add(MCTS_1, "iteration", data.get("mcts_1"))
    add(MCTS_ALL, "iteration", data.get("mcts_all"))
    for row in (data.get("solver") or {}).get("rows", []):
        out.append((solver_name(row["layout"]), "solve", 1.0 / row["seconds"]))
    vector = data.get("vector_env")
    if isinstance(vector, Mapping):
        add(vector_env_name(vector["num_envs"]), "step", vector.get("steps"))
        add(vector_env_name(vector["num_envs"], observation=True), "step", vector.get("steps_with_observation"))
    pettingzoo = data.get("pettingzoo")
    if isinstance(pettingzoo, Mapping):
        for env_name, env_figures in pettingzoo.items():
            out.append((pettingzoo_name(env_name), "step", float(env_figures["steps_per_s"])))
    boxes = data.get("boxes")
    if isinstance(boxes, Mapping):
        for players, stats in (boxes.get("random_games") or {}).items():
            add(boxes_games_name(int(players)), "game", stats)
        for players, ismcts in (boxes.get("ismcts") or {}).items():
            add(ismcts_name(int(players), whole_move=False), "iteration", ismcts.get("tree"))
            add(ismcts_name(int(players), whole_move=True), "iteration", ismcts.get("move"))
    return out


def _legacy_suite(data: Mapping[str, Any], path: str) -> Any:
    """A record of medians (see :func:`load`) as a one-run suite: a value per figure, the
    seconds per unit of its median rate."""
    import pyperf

    machine = data.get("machine") or {}
    meta: dict[str, str | int | float] = {"unit": TIME_UNIT, SETTINGS_KEY: "quick" if data.get("quick") else "full",
                                          COMMAND_KEY: "donuts-ai bench (a record before 0.5.0: medians only)"}
    if machine.get("cpu"):
        meta["cpu_model_name"] = str(machine["cpu"])
    if isinstance(machine.get("cores"), int):
        meta["cpu_count"] = machine["cores"]
    for ours, theirs in (("python_version", "python"), ("numba_version", "numba"), ("numpy_version", "numpy")):
        if machine.get(theirs):
            meta[ours] = str(machine[theirs])
    figures = _legacy_figures(data)
    if not figures:
        raise SpeedRecordError(f"{path}: neither a pyperf record nor a donuts-ai bench record")
    return pyperf.BenchmarkSuite([pyperf.Benchmark([pyperf.Run([1.0 / rate], metadata={**meta, "name": name,
                                                                                      WORK_UNIT_KEY: unit},
                                                               collect_metadata=False)])
                                  for name, unit, rate in figures])


def load(path: str | os.PathLike[str]) -> Any:
    """The record at a path, as a pyperf suite.

    Reads a pyperf JSON file (``.json`` or ``.json.gz``), and the oldest records of
    ``donuts-ai bench --json`` (0.3 and 0.4: their medians, as one run).

    Args:
        path: the record's file.

    Returns:
        The pyperf suite.

    Raises:
        SpeedRecordError: naming what is wrong with a file that is neither.
    """
    import pyperf

    name = str(path)
    try:
        if name.endswith(".gz"):
            return pyperf.BenchmarkSuite.load(name)
        text = Path(name).read_text()
    except OSError as exc:
        raise SpeedRecordError(f"cannot read {name!r}: {exc.strerror}") from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise SpeedRecordError(f"{name}: not a pyperf record ({exc})") from None
    try:
        data = json.loads(text)
    except ValueError:
        raise SpeedRecordError(f"{name}: not JSON") from None
    if not isinstance(data, dict):
        raise SpeedRecordError(f"{name}: not a speed record (JSON {type(data).__name__})")
    if "benchmarks" in data and "version" in data:
        try:
            return pyperf.BenchmarkSuite.loads(text)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:  # (AttributeError: a field of another type)
            raise SpeedRecordError(f"{name}: a damaged pyperf record ({exc})") from None
    try:
        return _legacy_suite(data, name)
    except SpeedRecordError:
        raise
    except (KeyError, TypeError, ValueError, ZeroDivisionError, AttributeError) as exc:  # (AttributeError: a field of another type)
        raise SpeedRecordError(f"{name}: neither a pyperf record nor a donuts-ai bench record ({exc})") from None


def run_centre(benchmark: Any) -> Callable[[Sequence[float]], float]:
    """How a run's values of ``benchmark`` make one time (:data:`RUN_STATISTIC_KEY`)."""
    mean = _first_run_metadata(benchmark).get(RUN_STATISTIC_KEY) == "mean"
    return statistics.fmean if mean else statistics.median


def run_means(benchmark: Any) -> list[float]:
    """One time per independent run: the median of its values (robust to one value slowed
    by a burst of load), or their mean for figures
    whose values are different work (:data:`RUN_STATISTIC_KEY`)."""
    centre = run_centre(benchmark)
    return [centre(run.values) for run in benchmark.get_runs() if run.values]


def run_cpu_share(run: Any) -> float | None:
    """A run's CPU time over its wall time per thread (1.0: every thread ran all the time);
    None where the run did not measure it or its work ran in other processes."""
    meta = run.get_metadata()
    cpu, wall, threads = meta.get(CPU_SECONDS_KEY), meta.get(WALL_SECONDS_KEY), meta.get(THREADS_KEY)
    if not isinstance(cpu, int | float) or not isinstance(wall, int | float) or not isinstance(threads, int) \
            or threads < 1 or wall <= 0:
        return None
    return float(cpu) / (float(wall) * threads)


def starved(benchmark: Any) -> bool:
    """Whether a run of ``benchmark`` got less CPU time than its wall time by more than
    :data:`STARVED_SHARE` a thread: other processes held cores it was measured on."""
    shares = [run_cpu_share(run) for run in benchmark.get_runs()]
    return any(share is not None and share < 1 - STARVED_SHARE for share in shares)


def yardstick_rates(benchmark: Any) -> list[float] | None:
    """The yardstick's rate of each run of ``benchmark`` at the current yardstick version;
    None unless every run has one."""
    from . import yardstick

    rates = []
    for run in benchmark.get_runs():
        meta = run.get_metadata()
        value = meta.get(yardstick.RATE_KEY)
        if not isinstance(value, int | float) or value <= 0 or meta.get(yardstick.VERSION_KEY) != yardstick.VERSION:
            return None
        rates.append(float(value))
    return rates


def run_values(benchmark: Any, normalised: bool = False) -> list[list[float]]:
    """Each run's values (seconds a unit); ``normalised``: as on a machine whose yardstick
    runs at the reference rate (each value times the run's yardstick rate over
    :data:`~donuts_ai.bench.yardstick.REFERENCE_RATE`). :class:`SpeedRecordError` when a
    normalised figure has a run without the yardstick."""
    from . import yardstick

    runs = [list(run.values) for run in benchmark.get_runs()]
    if not normalised:
        return runs
    rates = yardstick_rates(benchmark)
    if rates is None:
        raise SpeedRecordError(f"figure {benchmark.get_name()!r}: a run without the yardstick "
                               f"(version {yardstick.VERSION}): it cannot be normalised")
    return [[v * r / yardstick.REFERENCE_RATE for v in values] for values, r in zip(runs, rates, strict=True)]


def work_unit(benchmark: Any) -> str:
    """What one value of ``benchmark`` is the time of ("playout", ...; "unit" if unsaid)."""
    return str(_first_run_metadata(benchmark).get(WORK_UNIT_KEY, "unit"))


def _first_run_metadata(benchmark: Any) -> dict[str, Any]:
    runs = benchmark.get_runs()
    return dict(runs[0].get_metadata()) if runs else {}


def metadata_values(suite: Any, key: str) -> list[Any]:
    """Every distinct value of metadata ``key`` over all runs of ``suite``, in order of first sight."""
    seen: list[Any] = []
    for benchmark in suite:
        for run in benchmark.get_runs():
            value = run.get_metadata().get(key)
            if value is not None and value not in seen:
                seen.append(value)
    return seen


def machine_text(suite: Any) -> str:
    """The machine of a record in one line: CPU, its clock, cores, kernel, Python, Numba and
    NumPy, and the yardstick's rate (:mod:`~donuts_ai.bench.yardstick`) where measured."""
    def one(key: str, default: str = "?") -> str:
        values = metadata_values(suite, key)
        return ", ".join(str(v) for v in values) if values else default

    clock = f" at {one('cpu_freq')}" if metadata_values(suite, "cpu_freq") else ""
    kernel = f", {one('platform')}" if metadata_values(suite, "platform") else ""
    return (f"{one('cpu_model_name', 'an unnamed CPU')}{clock}, {one('cpu_count')} cores{kernel}, Python "
            f"{one('python_version')}, Numba {one('numba_version')}, NumPy {one('numpy_version')}{yardstick_text(suite)}")


def yardstick_text(suite: Any) -> str:
    """``, yardstick 123 M steps/s (v1, 6 measures, the highest 2.1% above the lowest)``: the median of a record's yardstick
    rates at the current version and how far apart its lowest and highest were; "" without. Each
    measure counts once: the figures of a run that measured it once, at its start, share it."""
    from . import yardstick

    rates = list(dict.fromkeys(rate for benchmark in suite for rate in (yardstick_rates(benchmark) or [])))
    if not rates:
        return ""
    if len(rates) == 1:
        return f", yardstick {rates[0] / 1e6:.1f} M steps/s (v{yardstick.VERSION}, one measure)"
    spread = max(rates) / min(rates) - 1
    return (f", yardstick {statistics.median(rates) / 1e6:.1f} M steps/s (v{yardstick.VERSION}, "
            f"{len(rates)} measures, the highest {spread:.1%} above the lowest)")


def machine_key(suite: Any) -> tuple[str, ...]:
    """What tells two machines apart (:data:`MACHINE_KEYS`: CPU model, cores, clock, host,
    kernel), each the values the record holds, joined ("" where unknown)."""
    return tuple(",".join(str(v) for v in metadata_values(suite, key)) for key in MACHINE_KEYS)


def same_machine(a: Any, b: Any) -> bool:
    """Whether two records come from one machine, as far as both say: for each of
    :data:`MACHINE_KEYS` that both name, they share a value (a clock read differently
    in one run still leaves the other runs' readings to agree)."""
    for key in MACHINE_KEYS:
        x, y = set(map(str, metadata_values(a, key))), set(map(str, metadata_values(b, key)))
        if x and y and not x & y:
            return False
    return True


def provenance_text(suite: Any) -> str:
    """Version, commit, settings, runs and load of a record, in one line."""
    versions = ", ".join(str(v) for v in metadata_values(suite, "donuts_ai_version")) or "an unknown version"
    commits = metadata_values(suite, "git_commit")
    dirty = "yes" in metadata_values(suite, "git_dirty")
    commit = (f"commit {', '.join(str(c)[:10] for c in commits)}{' (dirty tree)' if dirty else ''}" if commits
              else "commit unknown")
    loads = [float(v) for key in (LOAD_BEFORE_KEY, LOAD_AFTER_KEY, "load_avg_1min") for v in metadata_values(suite, key)]
    load = f"load average {min(loads):.2f}-{max(loads):.2f}" if loads else "load not recorded"
    runs = max((benchmark.get_nrun() for benchmark in suite), default=0)
    settings = ", ".join(str(v) for v in metadata_values(suite, SETTINGS_KEY)) or "settings unknown"
    dates = sorted(str(d) for d in metadata_values(suite, "date"))
    when = f"{dates[0][:10]}" if dates else "date unknown"
    return f"donuts_ai {versions}, {commit}, {settings}, {runs} runs, {load}, {when}"


def figures_of(suite: Any, names: Iterable[str] | None = None) -> dict[str, Any]:
    """The benchmarks of ``suite`` by name (those of ``names``, in that order, when given:
    :class:`SpeedRecordError` for a name the record does not hold)."""
    by_name = {benchmark.get_name(): benchmark for benchmark in suite}
    if names is None:
        return by_name
    out = {}
    for name in names:
        if name not in by_name:
            raise SpeedRecordError(f"no figure {name!r} in the record (it has: {', '.join(by_name)})")
        out[name] = by_name[name]
    return out
