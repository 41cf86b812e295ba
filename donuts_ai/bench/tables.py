"""Tables from speed records: the text ``donuts-ai bench`` prints, and the Markdown tables
of one record or of two compared, which ``python -m benchmarks.tables`` writes into the
pages. Each table opens with its machine line, read from the record, so no table claims
one machine for figures measured on another.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from .._units import seconds_text
from . import compare, record
from .record import MCTS_1, MCTS_ALL, PLAYOUTS_1, PLAYOUTS_ALL, REFERENCE_PLAYOUTS

#: Parameters of a figure shown beside its name (what the clock does not give).
SHOWN_PARAMS = ("leaves", "nodes", "value", "move", "distance")


def rate_interval(benchmark: Any) -> tuple[float, float, float, compare.Basis]:
    """The rate of a figure (units a second, over all runs) and its 95% interval over the
    runs (over the values when there is one run; no interval with one value)."""
    means = record.run_means(benchmark)
    if len(means) >= 2:
        logs, basis = [math.log(m) for m in means], "runs"
    else:
        logs, basis = [math.log(v) for v in benchmark.get_runs()[0].values], "values"  # the spread of its values
    estimate = 1.0 / statistics.fmean(means)  # as compare.rate
    if len(logs) < 2:
        return estimate, math.nan, math.nan, "none"
    half = compare.t_quantile((1 + compare.CONFIDENCE) / 2, len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs))
    centre = statistics.fmean(logs)
    return estimate, math.exp(-centre - half), math.exp(-centre + half), basis  # type: ignore[return-value]


def _params_text(benchmark: Any) -> str:
    meta = benchmark.get_runs()[0].get_metadata()
    shown = []
    for key in SHOWN_PARAMS:
        value = meta.get(f"param_{key}")
        if value is not None:
            shown.append(f"{value:,} {key}" if isinstance(value, int) and key in ("leaves", "nodes") else f"{key} {value}")
    return f" ({', '.join(shown)})" if shown else ""


def _interval_text(benchmark: Any) -> tuple[str, str, str]:
    unit = record.work_unit(benchmark)
    rate, low, high, basis = rate_interval(benchmark)
    if math.isnan(low):
        interval = "-"
    elif unit in compare.TIME_READ_UNITS:
        interval = f"{seconds_text(1 / high)} – {seconds_text(1 / low)}"
    else:
        interval = f"{compare.number_text(low)} – {compare.number_text(high)}"
    counts = f"{benchmark.get_nrun()} × {len(benchmark.get_runs()[0].values)}"
    return compare.rate_text(rate, unit), interval + (" (one run)" if basis == "values" else ""), counts


def normalised_text(benchmark: Any) -> str:
    """A figure's rate normalised by the yardstick (:mod:`~donuts_ai.bench.yardstick`: as on
    a machine whose yardstick runs at its reference rate), or ``-`` without it."""
    if record.yardstick_rates(benchmark) is None:
        return "-"
    means = [record.run_centre(benchmark)(values) for values in record.run_values(benchmark, normalised=True)]
    return compare.rate_text(1.0 / statistics.fmean(means), record.work_unit(benchmark))


def cpu_text(benchmark: Any) -> str:
    """A figure's least CPU share a thread over its runs (``98%``), ``STARVED`` appended when
    a run fell short by more than the starved share; ``-`` where not measured."""
    shares = [share for run in benchmark.get_runs() if (share := record.run_cpu_share(run)) is not None]
    if not shares:
        return "-"
    return f"{min(shares):.0%}{' STARVED' if record.starved(benchmark) else ''}"


def _load_warning(suite: Any) -> list[str]:
    """The record's warning line about contention: its starved figures, where its figures
    measured their CPU time; else (a record without it) a run started at a load average
    above (cores - 1)."""
    measured = [b for b in suite if any(record.run_cpu_share(run) is not None for run in b.get_runs())]
    if measured:
        starved = [b.get_name() for b in measured if record.starved(b)]
        if not starved:
            return []
        return [f"warning: {len(starved)} of {len(measured)} figures starved (other processes held cores they were "
                f"measured on): their figures are low"]
    cores = record.metadata_values(suite, "cpu_count")
    busy = [float(v) for v in record.metadata_values(suite, record.LOAD_BEFORE_KEY)
            if cores and isinstance(cores[0], int) and record.is_busy(float(v), cores[0])]
    if not busy:
        return []
    return [f"warning: a run started at load average {max(busy):.2f}, above (cores - 1): its figures are low"]


def record_text(suite: Any, derived: Sequence[tuple[str, float, float, float]] = ()) -> str:
    """One record as the text table ``donuts-ai bench`` prints."""
    lines = [f"machine: {record.machine_text(suite)}", f"record: {record.provenance_text(suite)}", *_load_warning(suite)]
    width = max([44, *(len(b.get_name() + _params_text(b)) + 1 for b in suite)])
    lines.append(f"{'figure':{width}s} {'rate':>22s}   {'95% interval over runs':34s} {'runs × values':13s} "
                 f"{'normalised':>22s}  CPU a thread")
    for benchmark in suite:
        rate, interval, counts = _interval_text(benchmark)
        lines.append(f"{benchmark.get_name() + _params_text(benchmark):{width}s} {rate:>22s}   {interval:34s} {counts:13s} "
                     f"{normalised_text(benchmark):>22s}  {cpu_text(benchmark)}")
    for name, ratio, low, high in derived:
        lines.append(f"{name:{width}s} {compare.number_text(ratio) + 'x':>22s}   "
                     f"{compare.number_text(low)} – {compare.number_text(high)}")
    return "\n".join(lines)


def record_markdown(suite: Any, derived: Sequence[tuple[str, float, float, float]] = ()) -> str:
    """One record as a Markdown table, opening with its machine and provenance."""
    lines = [f"Machine: {record.machine_text(suite)}; {record.provenance_text(suite)}.", "",
             "| figure | rate | 95% interval over runs | runs × values | normalised | CPU a thread |",
             "|---|---|---|---|---|---|"]
    for benchmark in suite:
        rate, interval, counts = _interval_text(benchmark)
        lines.append(f"| {benchmark.get_name()}{_params_text(benchmark)} | {rate} | {interval} | {counts} | "
                     f"{normalised_text(benchmark)} | {cpu_text(benchmark)} |")
    for name, ratio, low, high in derived:
        lines.append(f"| {name} | {compare.number_text(ratio)}× | {compare.number_text(low)} – {compare.number_text(high)} "
                     f"| | | |")
    return "\n".join(lines)


def comparison_markdown(old: Any, new: Any, old_name: str, new_name: str) -> str:
    """Two records compared (:func:`compare.compare_figures`) as a Markdown table."""
    rows = compare.compare_figures(old, new)
    normalised = any(r.normalised for r in rows)
    lines = [f"{old_name}: {record.provenance_text(old)}.", f"{new_name}: {record.provenance_text(new)}.",
             *(f"{line[0].upper()}{line[1:]}." for line in compare.machines_text(old, new, old_name, new_name, normalised,
                                                                                    [r.name for r in rows if not r.normalised])),
             "", f"| figure | {old_name} | {new_name} | speed {new_name} / {old_name} [interval] | detects | verdict |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r.name} | {compare.rate_text(r.old_rate, r.work_unit)} | "
                     f"{compare.rate_text(r.new_rate, r.work_unit)} | {compare.ratio_text(r)} | "
                     f"{compare.detectable_text(r)} | {compare.verdict_text(r)} |")
    lines += ["", f"{compare.summary_text(rows)}.", f"Intervals: {compare.intervals_text(rows)}."]
    return "\n".join(lines)


def derived_ratios(suite: Any) -> list[tuple[str, float, float, float]]:
    """(name, ratio, low, high) of the figures derived from two stored times of the same
    runs: the engine over the pure-Python reference, and all cores over one."""
    by_name = record.figures_of(suite)
    out = []
    for name, fast, slow in (("engine / pure-Python reference (playouts)", PLAYOUTS_1, REFERENCE_PLAYOUTS),
                             ("all cores / 1 core (playouts)", PLAYOUTS_ALL, PLAYOUTS_1),
                             ("all cores / 1 worker (MCTS)", MCTS_ALL, MCTS_1)):
        if fast in by_name and slow in by_name and fast != slow:
            out.append((name, *compare.speed_within(by_name[slow], by_name[fast])))
    return out + peer_ratios(suite)


#: The ``bot`` parameter of a figure of the generic MCTS, and of its peer on the same game
#: (``python -m benchmarks.generic_search``): OpenSpiel's Python ``MCTSBot``.
GENERIC_MCTS_BOT, PEER_BOT = "generic-mcts", "openspiel-python"
#: The settings two figures of a pair must share: the game and the search's.
PAIRED_SETTINGS = ("game", "simulations", "uct_c", "rollouts")


def peer_ratios(suite: Any) -> list[tuple[str, float, float, float]]:
    """(name, ratio, low, high): the generic MCTS's simulations a second over its peer's, on
    the same game at the same settings, from the record's paired runs."""
    def param(benchmark: Any, key: str) -> Any:
        return benchmark.get_runs()[0].get_metadata().get(f"param_{key}")

    def settings(benchmark: Any) -> tuple[Any, ...]:
        return tuple(param(benchmark, key) for key in PAIRED_SETTINGS)

    peers = {settings(b): b for b in suite if param(b, "bot") == PEER_BOT}
    out = []
    for benchmark in suite:
        peer = peers.get(settings(benchmark))
        if param(benchmark, "bot") == GENERIC_MCTS_BOT and peer is not None:
            game, simulations = settings(benchmark)[:2]
            out.append((f"generic-mcts / OpenSpiel Python MCTSBot, {game}, {simulations:,} simulations",
                        *compare.speed_within(peer, benchmark)))
    return out
