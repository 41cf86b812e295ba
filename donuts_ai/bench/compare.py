"""``donuts-ai bench compare OLD NEW``: is NEW faster, slower, or no different beyond the noise?

For each figure the two records share, the ratio of NEW's speed to OLD's with a 95%
interval and a verdict. The interval is computed over *runs*, the independent processes
a record is made of (:mod:`donuts_ai.bench.record`), not over the repeats within one: a
run's repeats agree to 1% where separate processes of one commit differ by 10 to 30% on
a shared machine, and an interval from the repeats would call that noise a change.

- Each run counts once, by the median of its values (robust to one value slowed by a burst
  of load; records before 0.5.0 kept medians too). On the log scale (speed ratios are
  multiplicative), the interval of the difference of the two sides' means is Welch's t
  interval (unequal variances, Welch-Satterthwaite degrees of freedom).
- Records made side by side (``python -m benchmarks.compare``) number their runs by round
  (metadata ``round``), the two versions run one after the other in each round; they are
  compared pair by pair (a t interval of the rounds' log ratios), which takes the drift
  of a shared machine between rounds out.
- A side with one run borrows the other side's spread between runs; with one run on each
  side, the interval comes from the values of the runs alone, and the table says that the
  noise between runs is not in it.
- The verdict is *faster* or *slower* when the interval excludes 1 and the estimated
  change is at least ``min_change`` (2% by default: changes smaller than that are not
  called, however steady, as pyperf's ``--min-speed`` and asv's factor do);
  otherwise *no difference beyond the noise*.
- When the records come from different machines (CPU model, cores or host differ), the
  report names both and says that each ratio is across machines.
- ``--fail-slower PCT`` exits with status 1 when any figure is slower by more than PCT
  percent beyond the noise: when even the interval's end nearest to 1 is more than PCT
  percent slower. It is the regression gate for CI.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Literal

from .._units import seconds_text
from ..errors import DonutsError
from . import record

#: The confidence of every interval.
CONFIDENCE = 0.95
#: The least change called faster or slower (a share: 0.02 is 2%).
MIN_CHANGE = 0.02
#: Units of work whose time per unit reads better than a rate (a solve takes 0.02 s).
TIME_READ_UNITS = frozenset({"solve", "start", "move", "tournament"})
#: Plurals of the units of work that are not the unit and an "s".
PLURALS = {"leaf": "leaves", "search": "searches"}

Verdict = Literal["faster", "slower", "same"]
#: What the verdicts print as.
VERDICT_TEXT = {"faster": "faster", "slower": "slower", "same": "no difference beyond the noise"}
#: Where an interval's spread came from: runs (independent processes), pairs of runs made
#: side by side, or the values within one run on each side (the noise between runs missing).
Basis = Literal["runs", "pairs", "values", "none"]


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile (0.5 < p < 1) of Student's t with ``df`` degrees of freedom (any
    real ``df`` >= 1; the normal's past 1,000): bisection on the t distribution function,
    integrated by Simpson's rule (no SciPy needed)."""
    if df > 1000:
        return NormalDist().inv_cdf(p)
    log_norm = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)

    def pdf(x: float) -> float:
        return math.exp(log_norm - (df + 1) / 2 * math.log1p(x * x / df))

    def cdf(x: float, steps: int = 400) -> float:
        h = x / steps
        total = pdf(0.0) + pdf(x) + sum((4 if i % 2 else 2) * pdf(i * h) for i in range(1, steps))
        return 0.5 + total * h / 3

    low, high = 0.0, 2.0
    while cdf(high) < p:  # the bracket grows until it holds the quantile (about 12.7 for df=1, p=0.975)
        low, high = high, high * 2
    for _ in range(50):
        mid = (low + high) / 2
        low, high = (mid, high) if cdf(mid) < p else (low, mid)
    return (low + high) / 2


@dataclass(frozen=True)
class LogInterval:
    """A difference of mean log times with its interval (``low``, ``high``), ``basis`` saying
    where the spread came from and ``n`` how many runs, pairs or values on each side."""

    estimate: float
    low: float
    high: float
    basis: Basis
    n: tuple[int, int]


def _mean_var(xs: Sequence[float]) -> tuple[float, float]:
    return statistics.fmean(xs), (statistics.variance(xs) if len(xs) > 1 else 0.0)


def log_interval(old: Sequence[Sequence[float]], new: Sequence[Sequence[float]],
                 pairs: Sequence[tuple[int, int]] | None = None, confidence: float = CONFIDENCE,
                 centre: Callable[[Sequence[float]], float] = statistics.median) -> LogInterval:
    """The interval of log(NEW time / OLD time) from the runs of each side (each run a list
    of values): see the module doc. ``pairs`` (indices of an OLD and a NEW run made side by
    side), when given, compares pair by pair."""
    p = (1 + confidence) / 2
    lo = [math.log(centre(v)) for v in old if v]
    ln = [math.log(centre(v)) for v in new if v]
    if not lo or not ln:
        raise record.SpeedRecordError("a figure without values")
    if pairs and len(pairs) >= 2:
        diffs = [ln[j] - lo[i] for i, j in pairs]
        mean, var = _mean_var(diffs)
        half = t_quantile(p, len(diffs) - 1) * math.sqrt(var / len(diffs))
        return LogInterval(mean, mean - half, mean + half, "pairs", (len(diffs), len(diffs)))
    basis: Basis = "runs"
    if len(lo) == 1 and len(ln) == 1:  # the noise between runs is unknown: the values within each run
        lo = [math.log(v) for v in old[0]]
        ln = [math.log(v) for v in new[0]]
        basis = "values"
    (mo, vo), (mn, vn) = _mean_var(lo), _mean_var(ln)
    estimate = mn - mo
    if len(lo) == 1 and len(ln) == 1:
        return LogInterval(estimate, math.nan, math.nan, "none", (1, 1))
    if len(lo) == 1 or len(ln) == 1:  # one side has a single run: it borrows the other side's spread
        var, df = (vn, len(ln) - 1) if len(lo) == 1 else (vo, len(lo) - 1)
        se2, df_f = var * (1 / len(lo) + 1 / len(ln)), float(df)
    else:
        a, b = vo / len(lo), vn / len(ln)
        se2 = a + b
        denominator = (a * a / (len(lo) - 1) if a else 0.0) + (b * b / (len(ln) - 1) if b else 0.0)
        df_f = se2 * se2 / denominator if denominator > 0 else float(len(lo) + len(ln) - 2)
    half = t_quantile(p, max(df_f, 1.0)) * math.sqrt(se2)
    return LogInterval(estimate, estimate - half, estimate + half, basis, (len(lo), len(ln)))


def speed_of(interval: LogInterval) -> tuple[float, float, float]:
    """NEW's speed over OLD's (estimate, low, high) from the interval of log(NEW time / OLD time)."""
    return math.exp(-interval.estimate), math.exp(-interval.high), math.exp(-interval.low)


def speed_within(slow: Any, fast: Any) -> tuple[float, float, float]:
    """How many times faster figure ``fast`` is than figure ``slow`` (estimate, low, high),
    both of one record: the same processes measured both, so their runs are paired one by
    one (a derived figure, such as the engine over the reference, or two cores over one)."""
    runs = min(slow.get_nrun(), fast.get_nrun())
    return speed_of(log_interval([r.values for r in slow.get_runs()], [r.values for r in fast.get_runs()],
                                 [(i, i) for i in range(runs)], centre=record.run_centre(slow)))


@dataclass(frozen=True)
class Comparison:
    """One figure of two records: rates (units of work a second, over all runs),
    ``speed`` NEW's rate over OLD's with its interval, and the verdict."""

    name: str
    work_unit: str
    old_rate: float
    new_rate: float
    speed: float
    speed_low: float
    speed_high: float
    verdict: Verdict
    basis: Basis
    n: tuple[int, int]

    def slower_beyond(self, share: float) -> bool:
        """Slower by more than ``share`` (0.1: 10%) even at the interval's end nearest 1."""
        return self.verdict == "slower" and self.speed_high < 1 / (1 + share)


def verdict_of(interval: LogInterval, min_change: float = MIN_CHANGE) -> Verdict:
    """Faster or slower when the interval of log(NEW time / OLD time) excludes 0 and the
    estimate changes by at least ``min_change``; the same otherwise."""
    threshold = math.log1p(min_change)
    if math.isnan(interval.low):
        return "same"
    if interval.low > 0 and interval.estimate >= threshold:
        return "slower"
    if interval.high < 0 and -interval.estimate >= threshold:
        return "faster"
    return "same"


def rate(benchmark: Any) -> float:
    """Units of work a second: one over the mean of the runs' median times."""
    return 1.0 / statistics.fmean(record.run_means(benchmark))


def _runs_by_round(benchmark: Any) -> dict[int, int]:
    out = {}
    for i, run in enumerate(benchmark.get_runs()):
        value = run.get_metadata().get("round")
        if isinstance(value, int):
            out[value] = i
    return out


def compare_figures(old: Any, new: Any, min_change: float = MIN_CHANGE) -> list[Comparison]:
    """Every figure both records hold, in OLD's order (see the module doc)."""
    new_by_name = record.figures_of(new)
    rows = []
    for benchmark in old:
        name = benchmark.get_name()
        if name not in new_by_name:
            continue
        other = new_by_name[name]
        rounds_old, rounds_new = _runs_by_round(benchmark), _runs_by_round(other)
        shared = sorted(rounds_old.keys() & rounds_new.keys())
        pairs = [(rounds_old[r], rounds_new[r]) for r in shared] if len(shared) >= 2 else None
        interval = log_interval([r.values for r in benchmark.get_runs()], [r.values for r in other.get_runs()], pairs,
                                centre=record.run_centre(benchmark))
        rows.append(Comparison(name, record.work_unit(benchmark), rate(benchmark), rate(other), *speed_of(interval),
                               verdict_of(interval, min_change), interval.basis, interval.n))
    return rows


def plural(unit: str) -> str:
    return PLURALS.get(unit, unit if unit.endswith("s") else unit + "s")


def rate_text(value: float, unit: str) -> str:
    """A rate as text (``1.25 M playouts/s``), or, for units read as times, the time a unit
    takes (``0.021 s a solve``)."""
    if unit in TIME_READ_UNITS:
        return f"{seconds_text(1 / value)} a {unit}"
    return f"{number_text(value)} {plural(unit)}/s"


def number_text(value: float) -> str:
    """A positive number in three significant digits with its SI prefix (``1.25 M``, ``812``)."""
    for scale, prefix in ((1e9, " G"), (1e6, " M"), (1e3, " k")):
        if value >= scale:
            return f"{value / scale:.3g}{prefix}"
    return f"{value:.3g}"


def ratio_text(row: Comparison) -> str:
    """NEW's speed over OLD's with its interval, as the tables print it."""
    if math.isnan(row.speed_low):
        return f"{row.speed:.3f} (one value a side: no interval)"
    return f"{row.speed:.3f} [{row.speed_low:.3f}, {row.speed_high:.3f}]"


BASIS_TEXT = {"runs": "over independent runs", "pairs": "over rounds run side by side",
              "values": "within one run a side (the noise between runs is NOT in it)", "none": "none"}


def intervals_text(rows: Sequence[Comparison]) -> str:
    """What the intervals of ``rows`` are: their confidence, and where each kind's spread came from."""
    bases = sorted({f"{BASIS_TEXT[r.basis]} ({r.n[0]} and {r.n[1]})" for r in rows})
    return f"{CONFIDENCE:.0%}, {'; '.join(bases)}"


def machines_text(old: Any, new: Any, old_name: str = "OLD", new_name: str = "NEW") -> list[str]:
    """The machine lines of a comparison: one when both records share a machine, else both
    and a warning that the ratios are across machines."""
    if record.same_machine(old, new):
        return [f"machine: {record.machine_text(old)}"]
    return [f"{old_name} machine: {record.machine_text(old)} (host {record.machine_key(old)[2] or '?'})",
            f"{new_name} machine: {record.machine_text(new)} (host {record.machine_key(new)[2] or '?'})",
            "the records come from different machines: each ratio is across machines, not a change of the code alone"]


def report(old: Any, new: Any, rows: Sequence[Comparison], old_name: str = "OLD", new_name: str = "NEW",
           min_change: float = MIN_CHANGE) -> str:
    """The comparison as a table, with both records' provenance and machines."""
    lines = [f"{old_name}: {record.provenance_text(old)}", f"{new_name}: {record.provenance_text(new)}",
             *machines_text(old, new, old_name, new_name)]
    width = max([44, *(len(r.name) + 1 for r in rows)])
    lines.append(f"{'figure':{width}s} {old_name:>22s} {new_name:>22s}   {'speed NEW/OLD [95% interval]':32s} verdict")
    for r in rows:
        lines.append(f"{r.name:{width}s} {rate_text(r.old_rate, r.work_unit):>22s} {rate_text(r.new_rate, r.work_unit):>22s}   "
                     f"{ratio_text(r):32s} {VERDICT_TEXT[r.verdict]}")
    only_old = [b.get_name() for b in old if b.get_name() not in {r.name for r in rows}]
    only_new = [b.get_name() for b in new if b.get_name() not in {r.name for r in rows}]
    if only_old:
        lines.append(f"only in {old_name} (not compared): {', '.join(only_old)}")
    if only_new:
        lines.append(f"only in {new_name} (not compared): {', '.join(only_new)}")
    counts = {v: sum(r.verdict == v for r in rows) for v in ("faster", "slower", "same")}
    lines.append(f"{len(rows)} figures: {counts['faster']} faster, {counts['slower']} slower, {counts['same']} "
                 f"{VERDICT_TEXT['same']}; changes under {min_change:.0%} are not called")
    lines.append(f"intervals: {intervals_text(rows)}")
    return "\n".join(lines)


def _percent(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"must be a percentage >= 0, got {text!r}")
    return value


def main(argv: list[str] | None = None, prog: str = "donuts-ai bench compare") -> int:
    """``donuts-ai bench compare OLD NEW [--fail-slower PCT] [--min-change PCT]``: the table,
    exit status 1 when ``--fail-slower`` finds a figure slower beyond the noise by more than
    PCT percent, 2 with one line for a record that cannot be read."""
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("old", metavar="OLD", help="a record (pyperf JSON of donuts-ai bench --json)")
    parser.add_argument("new", metavar="NEW", help="the record compared with OLD")
    parser.add_argument("--fail-slower", metavar="PCT", type=_percent,
                        help="exit 1 when a figure is slower than OLD by more than PCT percent beyond the noise")
    parser.add_argument("--min-change", metavar="PCT", type=_percent, default=100 * MIN_CHANGE,
                        help=f"the least change called faster or slower (default {100 * MIN_CHANGE:g})")
    args = parser.parse_args(argv)
    try:
        old, new = record.load(args.old), record.load(args.new)
        rows = compare_figures(old, new, args.min_change / 100)
    except DonutsError as exc:
        parser.exit(2, f"{prog}: error: {exc}\n")
    if not rows:
        parser.exit(2, f"{prog}: error: {args.old} and {args.new} share no figure\n")
    print(report(old, new, rows, min_change=args.min_change / 100))
    if args.fail_slower is not None:
        failed = [r for r in rows if r.slower_beyond(args.fail_slower / 100)]
        if failed:
            print(f"slower than {args.old} by more than {args.fail_slower:g}% beyond the noise: "
                  f"{', '.join(r.name for r in failed)}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(prog="python -m donuts_ai.bench.compare"))
