"""``donuts-ai bench compare OLD NEW``: is NEW faster, slower, no different, or is the noise too wide to say?

For each figure the two records share: the ratio of NEW's speed to OLD's with an interval,
the smallest change the comparison could have detected, and a verdict
(:func:`verdict_of`). Intervals are computed over *runs*, the independent processes a
record is made of (:mod:`donuts_ai.bench.record`), not over the repeats within one (which
agree to 1% where processes differ by several percent); records made side by side
(``python -m benchmarks.compare``) are compared round by round, pair by pair. The
intervals are family-wise (95% for all the figures together, by Holm's step-down
correction). *Faster* or *slower* needs the whole interval beyond 1 and a change of at
least ``min_change``; *no difference* needs it within ``--margin``; otherwise
*inconclusive*. Starved figures get no verdict. Across machines, figures are normalised
by the yardstick where both records measured it (:mod:`donuts_ai.bench.yardstick`).
``--fail-slower PCT`` exits 1 when a figure is slower by more than PCT percent beyond the
noise: the regression gate for CI. The method, step by step, is in the comment below.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Literal

from .._argparse import OneLineParser
from .._units import seconds_text
from ..errors import DonutsError
from . import record

# The method:
# - Each run counts once, by the median of its values (robust to one value slowed by a
#   burst of load). On the log scale (speed ratios are multiplicative), the interval of the
#   difference of the two sides' means is Student's pooled t interval when both sides have
#   as many runs, Welch's otherwise (Welch-Satterthwaite degrees of freedom).
# - Runs numbered by round (metadata ``round``, side by side) are compared pair by pair: a
#   t interval of the rounds' log ratios, which takes a shared machine's drift out.
# - A side with one run borrows the other side's spread between runs; with one run on each
#   side, the interval comes from the runs' values alone, and the table says so.
# - Holm: the figure whose difference is the clearest is tested at 5% over the number of
#   figures, the next at 5% over one fewer, ... until one is not different; the rest keep
#   that level (an uncorrected 95% interval over 20 figures calls one of them different in
#   most honest runs of a commit against itself).
# - Verdicts: faster/slower when the whole interval lies beyond 1 and the estimated change
#   is at least min_change (2% by default, as pyperf's --min-speed); no difference when the
#   whole interval lies within the margin (±10% by default): two one-sided tests, Holm over
#   those figures, the interval shown at confidence 1 - 2 alpha; otherwise inconclusive, with
#   about how many more runs would decide. Starved figures (record.starved) are left out of
#   the family.
# - Detectable change: the least change the comparison would have called 80% of the time
#   (POWER), from its interval's spread and level.
# - Records of different machines: the report names both; ratios compare normalised
#   figures (each value scaled by its run's yardstick rate) where both measured it.

#: The confidence of the intervals, family-wise over the figures compared together.
CONFIDENCE = 0.95
#: The least change called faster or slower (a share: 0.02 is 2%).
MIN_CHANGE = 0.02
#: The margin within which a figure is called no different (a share: 0.10 is ±10%).
MARGIN = 0.10
#: The detectable change of a line is the change called this often (80%: the usual power).
POWER = 0.80
#: Units of work whose time per unit reads better than a rate (a solve takes 0.02 s).
TIME_READ_UNITS = frozenset({"solve", "start", "move", "tournament"})
#: Plurals of the units of work that are not the unit and an "s".
PLURALS = {"leaf": "leaves", "search": "searches"}

Verdict = Literal["faster", "slower", "same", "inconclusive", "starved"]
#: What the verdicts print as.
VERDICT_TEXT = {"faster": "faster", "slower": "slower", "same": "no difference", "inconclusive": "inconclusive",
                "starved": "starved: no verdict"}
#: Where an interval's spread came from: runs (independent processes), pairs of runs made
#: side by side, or the values within one run on each side (the noise between runs missing).
Basis = Literal["runs", "pairs", "values", "none"]


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularised incomplete beta function (modified Lentz)."""
    tiny, qab, qap, qam = 1e-300, a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        for numerator in (m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-14:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b), 0 <= x <= 1."""
    if x <= 0.0 or x >= 1.0:
        return 0.0 if x <= 0.0 else 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_continued_fraction(a, b, x) / a
    return 1.0 - front * _beta_continued_fraction(b, a, 1.0 - x) / b


def t_cdf(x: float, df: float) -> float:
    """Student's t distribution function with ``df`` degrees of freedom (any real ``df`` > 0;
    the normal's past 1,000), from the incomplete beta function (no SciPy needed)."""
    if df > 1000:
        return NormalDist().cdf(x)
    tail = 0.5 * _betainc(df / 2, 0.5, df / (df + x * x))
    return 1.0 - tail if x >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile (0.5 < p < 1) of Student's t with ``df`` degrees of freedom (any
    real ``df`` >= 1; the normal's past 1,000): bisection on :func:`t_cdf`."""
    if df > 1000:
        return NormalDist().inv_cdf(p)
    low, high = 0.0, 2.0
    while t_cdf(high, df) < p:  # the bracket grows until it holds the quantile (about 12.7 for df=1, p=0.975)
        low, high = high, high * 2
    for _ in range(60):
        mid = (low + high) / 2
        low, high = (mid, high) if t_cdf(mid, df) < p else (low, mid)
    return (low + high) / 2


@dataclass(frozen=True)
class LogInterval:
    """A difference of mean log times with its interval (``low``, ``high``), ``basis`` saying
    where the spread came from and ``n`` how many runs, pairs or values on each side;
    ``se`` and ``df`` its standard error and degrees of freedom (nan where unknown)."""

    estimate: float
    low: float
    high: float
    basis: Basis
    n: tuple[int, int]
    se: float = math.nan
    df: float = math.nan

    def at(self, confidence: float) -> LogInterval:
        """The same estimate with its interval at another ``confidence``."""
        if math.isnan(self.se):
            return self
        half = t_quantile((1 + confidence) / 2, max(self.df, 1.0)) * self.se
        return dataclasses.replace(self, low=self.estimate - half, high=self.estimate + half)

    def p_equivalence(self, margin: float) -> float:
        """The p-value of "a change of at least ``margin``" by two one-sided tests (TOST): the
        larger of the two one-sided p-values against the margin's two ends; 1.0 where the
        spread is unknown. Below a level alpha exactly when the (1 - 2 alpha) interval lies
        within the margin."""
        bound = math.log1p(margin)
        if math.isnan(self.se):
            return 1.0
        if self.se == 0:
            return 0.0 if abs(self.estimate) < bound else 1.0
        df = max(self.df, 1.0)
        return max(1 - t_cdf((self.estimate + bound) / self.se, df), 1 - t_cdf((bound - self.estimate) / self.se, df))

    def p_value(self) -> float:
        """Two-sided p-value of "no change" (log ratio 0); 1.0 where the spread is unknown."""
        if math.isnan(self.se):
            return 1.0
        if self.se == 0:
            return 0.0 if self.estimate != 0 else 1.0
        return 2 * (1 - t_cdf(abs(self.estimate) / self.se, max(self.df, 1.0)))


def _mean_var(xs: Sequence[float]) -> tuple[float, float]:
    return statistics.fmean(xs), (statistics.variance(xs) if len(xs) > 1 else 0.0)


def log_interval(old: Sequence[Sequence[float]], new: Sequence[Sequence[float]],
                 pairs: Sequence[tuple[int, int]] | None = None, confidence: float = CONFIDENCE,
                 centre: Callable[[Sequence[float]], float] = statistics.median) -> LogInterval:
    """The interval of log(NEW time / OLD time) from the runs of each side (each run a list
    of values), at ``confidence`` for this figure alone: see the module doc. ``pairs``
    (indices of an OLD and a NEW run made side by side), when given, compares pair by pair."""
    lo = [math.log(centre(v)) for v in old if v]
    ln = [math.log(centre(v)) for v in new if v]
    if not lo or not ln:
        raise record.SpeedRecordError("a figure without values")
    if pairs and len(pairs) >= 2:
        diffs = [ln[j] - lo[i] for i, j in pairs]
        mean, var = _mean_var(diffs)
        return LogInterval(mean, mean, mean, "pairs", (len(diffs), len(diffs)), math.sqrt(var / len(diffs)),
                           float(len(diffs) - 1)).at(confidence)
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
    elif len(lo) == len(ln) and basis == "runs":
        # As many runs a side: Student's pooled interval, which is then robust to unequal
        # spreads and keeps all 2n - 2 degrees of freedom (Welch's estimate of them falls
        # to 2 when one run of three strays, and the quantile to the tables' far end).
        se2 = (vo + vn) / len(lo)
        df_f = float(2 * len(lo) - 2)
    else:
        a, b = vo / len(lo), vn / len(ln)
        se2 = a + b
        denominator = (a * a / (len(lo) - 1) if a else 0.0) + (b * b / (len(ln) - 1) if b else 0.0)
        df_f = se2 * se2 / denominator if denominator > 0 else float(len(lo) + len(ln) - 2)
    return LogInterval(estimate, estimate, estimate, basis, (len(lo), len(ln)), math.sqrt(se2),
                       max(df_f, 1.0)).at(confidence)


def holm_levels(p_values: Sequence[float], alpha: float = 1 - CONFIDENCE) -> list[float]:
    """The level each hypothesis is tested at by Holm's step-down procedure: sorted by
    p-value, the i-th (from 0) at ``alpha / (m - i)`` while each before it was rejected;
    from the first that is not, every later one keeps that level."""
    m = len(p_values)
    levels = [alpha / m] * m if m else []
    stopped: float | None = None
    for i, k in enumerate(sorted(range(m), key=lambda j: p_values[j])):
        level = stopped if stopped is not None else alpha / (m - i)
        levels[k] = level
        if stopped is None and p_values[k] > level:
            stopped = level
    return levels


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
    """One figure of two records: rates (units of work a second, over all runs, as
    measured), ``speed`` NEW's rate over OLD's with its family-wise interval (of
    normalised figures when ``normalised``), the verdict, the change it could have
    detected (``detectable``, a share) and, when inconclusive, about how many more runs
    a side would decide it (``more_runs``; None when more runs may not)."""

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
    detectable: float = math.nan
    more_runs: int | None = None
    confidence: float = CONFIDENCE
    normalised: bool = False

    def slower_beyond(self, share: float) -> bool:
        """Slower by more than ``share`` (0.1: 10%) even at the interval's end nearest 1."""
        return self.verdict == "slower" and self.speed_high < 1 / (1 + share)


def verdict_of(interval: LogInterval, min_change: float = MIN_CHANGE, margin: float = MARGIN) -> Verdict:
    """The verdict on an interval of log(NEW time / OLD time) (see the module doc): slower or
    faster when it lies wholly beyond 0 and the estimate changes by at least
    ``min_change``; no difference ("same") when it lies wholly within ±``margin``;
    inconclusive otherwise."""
    if math.isnan(interval.low):
        return "inconclusive"
    if interval.low > 0 and interval.estimate >= math.log1p(min_change):
        return "slower"
    if interval.high < 0 and -interval.estimate >= math.log1p(min_change):
        return "faster"
    bound = math.log1p(margin)
    if -bound <= interval.low and interval.high <= bound:
        return "same"
    return "inconclusive"


def detectable_change(interval: LogInterval, confidence: float, power: float = POWER) -> float:
    """The least change (a share) that an interval of this spread and level calls
    ``power`` of the time: (t of the level + t of the power) standard errors."""
    if math.isnan(interval.se):
        return math.nan
    df = max(interval.df, 1.0)
    return math.expm1((t_quantile((1 + confidence) / 2, df) + t_quantile(power, df)) * interval.se)


def more_runs_needed(interval: LogInterval, margin: float = MARGIN) -> int | None:
    """About how many more runs a side (rounds, for pairs) would narrow an inconclusive
    interval enough to decide it: to within the margin when the estimate lies inside it,
    else to exclude no change; the half-width shrinking as one over the root of the runs.
    None where the spread is unknown or the estimate sits on the margin."""
    if math.isnan(interval.se):
        return None
    half = (interval.high - interval.low) / 2
    bound = math.log1p(margin)
    target = bound - abs(interval.estimate) if abs(interval.estimate) < bound else abs(interval.estimate)
    if target <= 0.1 * half or half <= 0:
        return None
    runs = min(interval.n)
    return max(1, math.ceil(runs * (half / target) ** 2) - runs)


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


def normalise_by_default(old_figure: Any, new_figure: Any, across_machines: bool) -> bool:
    """Whether a figure of two records is compared normalised by the yardstick unless told:
    when the records come from different machines and every run of the figure, on both
    sides, measured it (a figure without it is compared as measured, the others still
    normalised)."""
    return (across_machines and record.yardstick_rates(old_figure) is not None
            and record.yardstick_rates(new_figure) is not None)


def compare_figures(old: Any, new: Any, min_change: float = MIN_CHANGE, margin: float = MARGIN, *,
                    normalised: bool | None = None, confidence: float = CONFIDENCE) -> list[Comparison]:
    """Every figure both records hold, compared, in OLD's order (see the module doc).

    Args:
        old: the OLD record (a pyperf suite).
        new: the NEW record.
        min_change: the least change called faster or slower (a share).
        margin: the margin within which a figure is called no different (a share).
        normalised: compare the figures scaled by the yardstick (None: each figure whose
            runs measured it on both sides, when the machines differ:
            :func:`normalise_by_default`).
        confidence: the family-wise confidence of the intervals.

    Returns:
        One row a figure: its ratio, interval and verdict.
    """
    across = not record.same_machine(old, new)
    new_by_name = record.figures_of(new)
    found = []
    for benchmark in old:
        name = benchmark.get_name()
        if name not in new_by_name:
            continue
        other = new_by_name[name]
        scaled = normalise_by_default(benchmark, other, across) if normalised is None else normalised
        rounds_old, rounds_new = _runs_by_round(benchmark), _runs_by_round(other)
        shared = sorted(rounds_old.keys() & rounds_new.keys())
        pairs = [(rounds_old[r], rounds_new[r]) for r in shared] if len(shared) >= 2 else None
        interval = log_interval(record.run_values(benchmark, scaled), record.run_values(other, scaled), pairs,
                                confidence, centre=record.run_centre(benchmark))
        found.append((benchmark, other, interval, record.starved(benchmark) or record.starved(other), scaled))
    alpha = 1 - confidence
    # Two families, each family-wise at alpha by Holm: "different" (two-sided), then, among
    # the figures not called different, "no difference" (two one-sided tests on the margin).
    family = [i for i, (_, _, interval, starved, _) in enumerate(found) if not starved and not math.isnan(interval.se)]
    levels = dict(zip(family, holm_levels([found[i][2].p_value() for i in family], alpha), strict=True))
    shown: dict[int, tuple[LogInterval, float]] = {}
    verdicts: dict[int, Verdict] = {}
    for i in family:
        level = 1 - levels[i]
        corrected = found[i][2].at(level)
        shown[i] = (corrected, level)
        different = verdict_of(corrected, min_change, margin)
        verdicts[i] = different if different in ("faster", "slower") else "inconclusive"
    not_different = [i for i in family if verdicts[i] == "inconclusive"]
    equivalence = dict(zip(not_different, holm_levels([found[i][2].p_equivalence(margin) for i in not_different], alpha),
                           strict=True))
    for i in not_different:
        level = 1 - 2 * equivalence[i]  # TOST at a level is the interval of twice its confidence gap
        tost = found[i][2].at(level)
        if verdict_of(tost, min_change, margin) == "same":
            shown[i], verdicts[i] = (tost, level), "same"
    rows = []
    for i, (benchmark, other, interval, starved, scaled) in enumerate(found):
        corrected, level = shown.get(i, (interval.at(confidence), confidence))
        verdict: Verdict = "starved" if starved else verdicts.get(i, "inconclusive")
        rows.append(Comparison(benchmark.get_name(), record.work_unit(benchmark), rate(benchmark), rate(other),
                               *speed_of(corrected), verdict, corrected.basis, corrected.n,
                               detectable_change(corrected, level),
                               more_runs_needed(corrected, margin) if verdict == "inconclusive" else None,
                               level, scaled))
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
        if value >= scale * 0.9995:  # 999,999.9 is 1.00 M, not 1e+03 k
            return f"{value / scale:.3g}{prefix}"
    return f"{value:.3g}"


def ratio_text(row: Comparison) -> str:
    """NEW's speed over OLD's with its interval, as the tables print it."""
    if math.isnan(row.speed_low):
        return f"{row.speed:.3f} (one value a side: no interval)"
    return f"{row.speed:.3f} [{row.speed_low:.3f}, {row.speed_high:.3f}]"


def verdict_text(row: Comparison, margin: float = MARGIN) -> str:
    """The verdict as a line ends: ``no difference (within ±10%)``, ``inconclusive: ~4 more runs``."""
    if row.verdict == "same":
        return f"{VERDICT_TEXT['same']} (within ±{margin:.0%})"
    if row.verdict == "inconclusive":
        more = f"~{row.more_runs} more run{'s' if row.more_runs != 1 else ''} a side" if row.more_runs else "more runs"
        return f"{VERDICT_TEXT['inconclusive']}: {more}" if row.basis != "none" else f"{VERDICT_TEXT['inconclusive']}: no interval"
    return VERDICT_TEXT[row.verdict]


def detectable_text(row: Comparison) -> str:
    """The change a line could have detected: ``±4.2%``, or ``-`` where unknown."""
    return "-" if math.isnan(row.detectable) else f"±{row.detectable:.1%}"


BASIS_TEXT = {"runs": "over independent runs", "pairs": "over rounds run side by side",
              "values": "within one run a side (the noise between runs is NOT in it)", "none": "none"}


def intervals_text(rows: Sequence[Comparison]) -> str:
    """What the intervals of ``rows`` are: their family-wise confidence and correction, and
    where each kind's spread came from."""
    bases = sorted({f"{BASIS_TEXT[r.basis]} ({r.n[0]} and {r.n[1]})" for r in rows})
    decided = sum(r.verdict != "starved" for r in rows)
    return (f"{CONFIDENCE:.0%} family-wise over {decided} figures (Holm); {'; '.join(bases)}; detects: the change "
            f"called {POWER:.0%} of the time")


def machines_text(old: Any, new: Any, old_name: str = "OLD", new_name: str = "NEW", normalised: bool = False,
                  as_measured: Sequence[str] = ()) -> list[str]:
    """The machine lines of a comparison: one when both records share a machine, else both
    and what the ratios then are: of normalised figures (but ``as_measured``, figures a
    record holds without the yardstick), or across machines."""
    if record.same_machine(old, new):
        return [f"machine: {record.machine_text(old)}"]
    lines = [f"{old_name} machine: {record.machine_text(old)} (host {record.machine_key(old)[3] or '?'})",
             f"{new_name} machine: {record.machine_text(new)} (host {record.machine_key(new)[3] or '?'})"]
    if normalised:
        from . import yardstick

        which = "each ratio" if not as_measured else "each ratio but those named below"
        lines.append(f"the records come from different machines: {which} compares figures normalised by the "
                     f"yardstick (v{yardstick.VERSION}) of their own runs, the rates are as measured")
        if as_measured:
            lines.append(f"compared as measured, across machines (a record holds them without the yardstick): "
                         f"{'; '.join(as_measured)}")
    else:
        lines.append("the records come from different machines: each ratio is across machines, not a change of the "
                     "code alone (a record without the yardstick cannot be normalised)")
    return lines


def report(old: Any, new: Any, rows: Sequence[Comparison], old_name: str = "OLD", new_name: str = "NEW", *,
           min_change: float = MIN_CHANGE, margin: float = MARGIN) -> str:
    """The comparison as a table, with both records' provenance and machines.

    Args:
        old: the OLD record.
        new: the NEW record.
        rows: what :func:`compare_figures` returned.
        old_name: OLD's name in the table.
        new_name: NEW's name in the table.
        min_change: the least change called (a share), as the rows were compared.
        margin: the margin (a share), as the rows were compared.

    Returns:
        The table's text.
    """
    normalised = any(r.normalised for r in rows)
    lines = [f"{old_name}: {record.provenance_text(old)}", f"{new_name}: {record.provenance_text(new)}",
             *machines_text(old, new, old_name, new_name, normalised, [r.name for r in rows if not r.normalised])]
    width = max([44, *(len(r.name) + 1 for r in rows)])
    lines.append(f"{'figure':{width}s} {old_name:>22s} {new_name:>22s}   {'speed NEW/OLD [interval]':28s} "
                 f"{'detects':>8s}  verdict")
    for r in rows:
        lines.append(f"{r.name:{width}s} {rate_text(r.old_rate, r.work_unit):>22s} {rate_text(r.new_rate, r.work_unit):>22s}   "
                     f"{ratio_text(r):28s} {detectable_text(r):>8s}  {verdict_text(r, margin)}")
    only_old = [b.get_name() for b in old if b.get_name() not in {r.name for r in rows}]
    only_new = [b.get_name() for b in new if b.get_name() not in {r.name for r in rows}]
    if only_old:
        lines.append(f"only in {old_name} (not compared): {', '.join(only_old)}")
    if only_new:
        lines.append(f"only in {new_name} (not compared): {', '.join(only_new)}")
    lines.append(summary_text(rows, min_change, margin))
    lines.append(f"intervals: {intervals_text(rows)}")
    return "\n".join(lines)


def summary_text(rows: Sequence[Comparison], min_change: float = MIN_CHANGE, margin: float = MARGIN) -> str:
    """``20 figures: 0 faster, 1 slower, 15 no difference (within ±10%), 4 inconclusive, 0 starved; ...``"""
    counts = {v: sum(r.verdict == v for r in rows) for v in VERDICT_TEXT}
    return (f"{len(rows)} figures: {counts['faster']} faster, {counts['slower']} slower, {counts['same']} no difference "
            f"(within ±{margin:.0%}), {counts['inconclusive']} inconclusive, {counts['starved']} starved (no verdict: "
            f"a run got less CPU time than its wall time); changes under {min_change:.0%} are not called")


def undecided(rows: Sequence[Comparison]) -> list[Comparison]:
    """The rows without a verdict yet: inconclusive, or starved."""
    return [r for r in rows if r.verdict in ("inconclusive", "starved")]


def _percent(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"must be a percentage >= 0, got {text!r}")
    return value


def add_verdict_options(parser: argparse.ArgumentParser) -> None:
    """``--fail-slower PCT``, ``--min-change PCT`` and ``--margin PCT``: the options of
    every command that gives verdicts (``bench compare``, ``benchmarks.compare``)."""
    parser.add_argument("--fail-slower", metavar="PCT", type=_percent,
                        help="exit 1 when a figure is slower than OLD by more than PCT percent beyond the noise")
    parser.add_argument("--min-change", metavar="PCT", type=_percent, default=100 * MIN_CHANGE,
                        help=f"the least change called faster or slower (default {100 * MIN_CHANGE:g})")
    parser.add_argument("--margin", metavar="PCT", type=_percent, default=100 * MARGIN,
                        help=f"'no difference' when the whole interval lies within ±PCT percent (default {100 * MARGIN:g}); "
                             "a wider interval is 'inconclusive'")


def main(argv: list[str] | None = None, prog: str = "donuts-ai bench compare") -> int:
    """``donuts-ai bench compare OLD NEW [--fail-slower PCT] [--min-change PCT] [--margin PCT] [--absolute]``.

    Args:
        argv: the arguments (default: the command line's).
        prog: the command's name in messages.

    Returns:
        The exit status: 0, 1 when ``--fail-slower`` finds a figure slower beyond the noise
        by more than PCT percent, 2 (with one line) for a record that cannot be read.
    """
    parser = OneLineParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("old", metavar="OLD", help="a record (pyperf JSON of donuts-ai bench --json)")
    parser.add_argument("new", metavar="NEW", help="the record compared with OLD")
    add_verdict_options(parser)
    parser.add_argument("--absolute", action="store_true",
                        help="compare the figures as measured, even across machines (default: normalised by the "
                             "yardstick when the machines differ and both records measured it)")
    args = parser.parse_args(argv)
    try:
        old, new = record.load(args.old), record.load(args.new)
        rows = compare_figures(old, new, args.min_change / 100, args.margin / 100,
                               normalised=False if args.absolute else None)
    except DonutsError as exc:
        parser.exit(2, f"{prog}: error: {exc}\n")
    if not rows:
        parser.exit(2, f"{prog}: error: {args.old} and {args.new} share no figure\n")
    print(report(old, new, rows, min_change=args.min_change / 100, margin=args.margin / 100))
    if args.fail_slower is not None:
        failed = [r for r in rows if r.slower_beyond(args.fail_slower / 100)]
        if failed:
            print(f"slower than {args.old} by more than {args.fail_slower:g}% beyond the noise: "
                  f"{', '.join(r.name for r in failed)}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(prog="python -m donuts_ai.bench.compare"))
