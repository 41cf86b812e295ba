"""Calibration of the rating fit and the SPRT on simulated results with a known truth.

    python -m benchmarks.calibration [--quick] [--seed N] [--json FILE]

Ratings: round-robin tournaments drawn from the model :func:`~donuts_ai.tournament.stats.fit_ratings`
fits (Bradley–Terry on the Elo scale, Davidson draws with a known nu, a first-player
advantage), each fitted with the default prior: how often the 95% intervals of the
rating differences to the anchor hold the true ones, the bias and RMSE of the
first-player advantage and how often its 95% interval holds it, and nu's mean and RMSE.

SPRT: colour-swapped pairs whose games are trinomial (a given logistic Elo, draw rate and
first-player advantage, the advantage drawn per pair from a list as layouts differ),
with the true Elo at elo0 (H0 true) and at elo1 (H1 true): how often each test decides
wrongly (alpha and beta are 0.05) and the mean number of pairs to a decision. A normal
approximation (Fishtest's ``LLR_alt2`` with a variance floor) is run for comparison, from
the same seed.

The tests in ``tests/tournament/test_stats_calibration.py`` run small versions of the same
simulations and assert bounds. Not a test: nothing here asserts anything.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NotRequired, TypedDict

import numpy as np
from numpy.typing import NDArray

from donuts_ai.bench.reporting import Machine, machine, write_json
from donuts_ai.tournament.stats import elo_to_score, fit_ratings, sprt_bounds, sprt_llr

#: An LLR of pentanomial counts (the last axis) between two Elo hypotheses: :func:`~donuts_ai.tournament.stats.sprt_llr`
#: or :func:`llr_normal_approximation`.
LLR = Callable[[NDArray[np.float64], float, float], NDArray[np.float64] | float]
#: Pentanomial categories of simulated pairs of a given shape.
PairSampler = Callable[[np.random.Generator, tuple[int, ...]], NDArray[np.int64]]


class RatingSetting(TypedDict, total=False):
    """What a row of :data:`RATING_SETTINGS` changes of :func:`rating_trials`' defaults."""

    advantage: float
    nu: float
    games_per_order: int
    prior_draws: float


class RatingSummary(TypedDict):
    """The calibration of the rating fit over simulated tournaments (:func:`rating_summary`)."""

    tournaments: int
    coverage: float
    elo_bias: float
    advantage_bias: float
    advantage_rmse: float
    advantage_sd_mean: float
    advantage_coverage: float
    nu_mean: float
    nu_rmse: float


class RatingRow(RatingSummary):
    """A :class:`RatingSummary` for one setting, with its label and seconds."""

    setting: str
    seconds: float


class SPRTSummary(TypedDict):
    """The SPRT's error rates and mean pairs (:func:`sprt_summary`)."""

    trials: int
    false_positive: float
    false_negative: float
    undecided: float
    pairs_h0: float
    pairs_h1: float


class SPRTRow(SPRTSummary):
    """An :class:`SPRTSummary` for one setting and method."""

    elo0: float
    elo1: float
    draw_rate: float
    advantages: list[float]
    method: str
    seconds: float


class AllOrNothingRow(TypedDict):
    """False positives of one method on :func:`all_or_nothing` pairs."""

    method: str
    trials: int
    false_positive: float
    pairs: float


class CalibrationBench(TypedDict):
    """Every figure of this benchmark (:func:`run`)."""

    machine: Machine
    quick: bool
    seed: int
    ratings: list[RatingRow]
    sprt: list[SPRTRow]
    all_or_nothing: list[AllOrNothingRow]
    seconds: NotRequired[float]  # the whole run's, set by main

#: The agents of the simulated tournaments and their true Elo (the first is the anchor).
TRUE_ELO = {"A": 0.0, "B": 60.0, "C": 140.0, "D": 220.0, "E": 330.0}
#: Planted first-player advantage (Elo) and Davidson draw parameter.
ADVANTAGE = 60.0
NU = 0.6
#: Games of each ordered pair (first, second) in one tournament.
GAMES_PER_ORDER = 12
#: Two-sided 95% normal quantile.
Z_95 = 1.959964
#: Bisection steps to find the rating offset that gives a pair its true Elo.
_BISECTION_STEPS = 80
#: Pairs simulated at once per undecided SPRT.
_CHUNK_PAIRS = 64


# --- ratings -----------------------------------------------------------------------------


def davidson(elo_first: float, elo_second: float, advantage: float, nu: float) -> np.ndarray:
    """(P(first wins), P(draw), P(second wins)) in the model that ``fit_ratings`` fits."""
    u = (elo_first + advantage - elo_second) * math.log(10) / 400
    weights = np.array([math.exp(u / 2), nu, math.exp(-u / 2)])
    probabilities: np.ndarray = weights / weights.sum()
    return probabilities


def simulate_tournaments(rng: np.random.Generator, n: int, elo: dict[str, float], advantage: float, nu: float,
                         games_per_order: int) -> tuple[list[tuple[str, str]], np.ndarray]:
    """``n`` double round robins, ``games_per_order`` games per ordered pair: the ordered
    pairs and the counts (tournament, ordered pair, [first wins, draws, second wins])."""
    orders = [(a, b) for a in elo for b in elo if a != b]
    counts = np.stack([rng.multinomial(games_per_order, davidson(elo[a], elo[b], advantage, nu), size=n) for a, b in orders],
                      axis=1)
    return orders, counts


def games_of(orders: list[tuple[str, str]], counts: np.ndarray) -> list[tuple[str, str, float]]:
    """One tournament's counts as the (first, second, score of first) games ``fit_ratings`` takes."""
    games = []
    for (a, b), (wins, draws, losses) in zip(orders, counts.tolist(), strict=True):
        games += [(a, b, 1)] * wins + [(a, b, 0.5)] * draws + [(a, b, 0)] * losses
    return games


def rating_trials(rng: np.random.Generator, n: int, *, elo: dict[str, float] = TRUE_ELO, advantage: float = ADVANTAGE,
                  nu: float = NU, games_per_order: int = GAMES_PER_ORDER, prior_draws: float = 2.0) -> dict[str, np.ndarray]:
    """Fit ``n`` simulated tournaments (anchor: the first agent of ``elo``). Returns arrays:
    ``true``, ``elo``, ``lower``, ``upper`` (tournament, agent other than the anchor),
    ``advantage``, ``advantage_sd``, ``nu``, ``nu_sd`` (tournament)."""
    names = list(elo)
    orders, counts = simulate_tournaments(rng, n, elo, advantage, nu, games_per_order)
    rest = names[1:]
    # Per tournament: a float, or one per agent but the anchor.
    out: dict[str, list[object]] = {k: [] for k in ("elo", "lower", "upper", "advantage", "advantage_sd", "nu", "nu_sd")}
    for t in range(n):
        fit = fit_ratings(games_of(orders, counts[t]), names, names[0], prior_draws)
        by_name = {r.name: r for r in fit.ratings}
        out["elo"].append([by_name[x].elo for x in rest])
        out["lower"].append([by_name[x].lower for x in rest])
        out["upper"].append([by_name[x].upper for x in rest])
        out["advantage"].append(fit.first_player_advantage)
        out["advantage_sd"].append(fit.first_player_sd)
        out["nu"].append(fit.draw_nu)
        out["nu_sd"].append(fit.draw_nu_sd)
    arrays = {k: np.array(v, dtype=np.float64) for k, v in out.items()}
    arrays["true"] = np.array([elo[x] - elo[names[0]] for x in rest])
    return arrays


def rating_summary(trials: dict[str, np.ndarray], advantage: float, nu: float) -> RatingSummary:
    """Interval coverage of the rating differences, first-player bias / RMSE / coverage, nu."""
    covered = (trials["lower"] <= trials["true"]) & (trials["true"] <= trials["upper"])
    adv_err = trials["advantage"] - advantage
    adv_half = Z_95 * trials["advantage_sd"]
    return {"tournaments": len(trials["advantage"]), "coverage": float(covered.mean()),
            "elo_bias": float((trials["elo"] - trials["true"]).mean()),
            "advantage_bias": float(adv_err.mean()), "advantage_rmse": float(np.sqrt((adv_err**2).mean())),
            "advantage_sd_mean": float(trials["advantage_sd"].mean()),
            "advantage_coverage": float((np.abs(adv_err) <= adv_half).mean()),
            "nu_mean": float(trials["nu"].mean()), "nu_rmse": float(np.sqrt(((trials["nu"] - nu) ** 2).mean()))}


# --- SPRT --------------------------------------------------------------------------------


def _expected_score(elo: np.ndarray | float) -> np.ndarray:
    return 1 / (1 + 10 ** (-np.asarray(elo, dtype=np.float64) / 400))


def pair_offset(true_elo: float, advantages: list[float]) -> float:
    """The Elo ``d`` at which A's mean expected score over both colours and the (equally
    likely) first-player ``advantages`` is that of ``true_elo`` logistic Elo, which is
    what the SPRT's hypotheses are about: mean of E(d + a) and E(d - a) = E(true_elo)."""
    target = elo_to_score(true_elo)
    adv = np.asarray(advantages, dtype=np.float64)
    lo, hi = true_elo - 2000.0, true_elo + 2000.0
    for _ in range(_BISECTION_STEPS):
        mid = 0.5 * (lo + hi)
        score = 0.5 * (_expected_score(mid + adv) + _expected_score(mid - adv)).mean()
        lo, hi = (mid, hi) if score < target else (lo, mid)
    return 0.5 * (lo + hi)


def simulate_pairs(rng: np.random.Generator, shape: tuple[int, ...], offset: float, draw_rate: float,
                   advantages: list[float]) -> np.ndarray:
    """Pentanomial categories (0..4: A's pair score times 2) of colour-swapped pairs. Each
    game is trinomial with A's expected score ``E(offset +- a)`` (A first, then second;
    ``a`` drawn per pair from ``advantages``) and draws at ``draw_rate``."""
    a = rng.choice(np.asarray(advantages, dtype=np.float64), size=shape)
    halves = np.zeros(shape, dtype=np.int64)
    for sign in (1, -1):
        score = _expected_score(offset + sign * a)
        p_win = score - draw_rate / 2
        if (p_win < 0).any() or (p_win + draw_rate > 1).any():
            raise ValueError(f"draw rate {draw_rate} impossible at an expected score of {float(score.min()):.3f}..{float(score.max()):.3f}")
        x = rng.random(shape)
        halves += np.where(x < p_win, 2, np.where(x < p_win + draw_rate, 1, 0))
    return halves


def llr_normal_approximation(counts: np.ndarray, elo0: float, elo1: float) -> np.ndarray:
    """A normal-approximation LLR (Fishtest's ``LLR_alt2`` with a 1/(16 n) variance
    floor), kept for comparison only."""
    n = counts.sum(-1)
    scores = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    p = counts / np.maximum(n, 1)[..., None]
    mean = (p * scores).sum(-1)
    var = np.maximum((p * (scores - mean[..., None]) ** 2).sum(-1), 1 / (16 * np.maximum(n, 1)))
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    return np.where(n >= 2, n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var), 0.0)


def all_or_nothing(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Pairs with mean score 1/2 (true Elo 0) that A wins 2-0 or loses 0-2 at even odds,
    as when each layout decides the pair: the hardest case for a test that estimates the
    pairs' variance (a run of 2-0 pairs looks like a strong A with no variance)."""
    return np.where(rng.random(shape) < 0.5, 4, 0)


@dataclass(frozen=True)
class SPRTTrials:
    """The settings of simulated SPRTs (:func:`sprt_trials`)."""

    #: The share of a pair's games drawn.
    draw_rate: float = 0.3
    #: First-player advantages (Elo), one drawn a pair, as layouts differ.
    advantages: tuple[float, ...] = (0.0, 120.0)
    #: The test's error rates.
    alpha: float = 0.05
    beta: float = 0.05
    #: The most pairs a test plays before it stops undecided.
    max_pairs: int = 20000


def sprt_trials(rng: np.random.Generator, n: int, true_elo: float, elo0: float, elo1: float,
                settings: SPRTTrials = SPRTTrials(), *, llr: LLR = sprt_llr,
                sample: PairSampler | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Run ``n`` SPRTs on simulated pairs until each decides or reaches ``settings.max_pairs``.

    Args:
        rng: the random generator.
        n: how many tests.
        true_elo: the true Elo difference of the simulated pairs.
        elo0: the test's H0.
        elo1: the test's H1.
        settings: draw rate, advantages, error rates and the most pairs.
        llr: the log-likelihood ratio of the counts.
        sample: ``sample(rng, shape)`` gives pentanomial categories instead of
            :func:`simulate_pairs` (``true_elo``, the draw rate and advantages are then unused).

    Returns:
        (decision: +1 H1, -1 H0, 0 none; pairs played), one a test.
    """
    alpha, beta, max_pairs = settings.alpha, settings.beta, settings.max_pairs
    draw_rate, advantages = settings.draw_rate, settings.advantages
    lower, upper = sprt_bounds(alpha, beta)
    if sample is None:
        offset = pair_offset(true_elo, list(advantages))

        def simulated(rng: np.random.Generator, shape: tuple[int, ...]) -> NDArray[np.int64]:
            return simulate_pairs(rng, shape, offset, draw_rate, list(advantages))

        sample = simulated
    counts = np.zeros((n, 5))
    decision = np.zeros(n, dtype=np.int64)
    pairs = np.zeros(n, dtype=np.int64)
    active = np.arange(n)
    played = 0
    while active.size and played < max_pairs:
        step = min(_CHUNK_PAIRS, max_pairs - played)
        cats = sample(rng, (active.size, step))
        running = counts[active, None, :] + np.cumsum(cats[..., None] == np.arange(5), axis=1)  # (active, step, 5)
        value = np.asarray(llr(running, elo0, elo1))
        crossed = (value >= upper) | (value <= lower)
        hit = crossed.any(axis=1)
        first = crossed.argmax(axis=1)
        done = active[hit]
        decision[done] = np.where(value[hit, first[hit]] >= upper, 1, -1)
        pairs[done] = played + first[hit] + 1
        counts[active] = running[:, -1, :]
        played += step
        pairs[active[~hit]] = played
        active = active[~hit]
    return decision, pairs


def sprt_summary(rng: np.random.Generator, n: int, elo0: float, elo1: float, *, draw_rate: float, advantages: tuple[float, ...],
                 llr: LLR = sprt_llr) -> SPRTSummary:
    """Error rates and mean pairs with the truth at elo0 (false positive: H1) and at elo1 (false negative: H0)."""
    trials = SPRTTrials(draw_rate=draw_rate, advantages=advantages)
    d0, p0 = sprt_trials(rng, n, elo0, elo0, elo1, trials, llr=llr)
    d1, p1 = sprt_trials(rng, n, elo1, elo0, elo1, trials, llr=llr)
    return {"trials": n, "false_positive": float((d0 == 1).mean()), "false_negative": float((d1 == -1).mean()),
            "undecided": float(((d0 == 0).sum() + (d1 == 0).sum()) / (2 * n)),
            "pairs_h0": float(p0.mean()), "pairs_h1": float(p1.mean())}


# --- the benchmark -----------------------------------------------------------------------

#: (label, tournament keyword arguments)
RATING_SETTINGS: list[tuple[str, RatingSetting]] = [
    ("adv 60, nu 0.6, 240 games", {}),
    ("adv 60, nu 0.6, 240 games, no prior", {"prior_draws": 0.0}),
    ("adv 0, no draws, 240 games", {"advantage": 0.0, "nu": 0.0}),
    ("adv 60, nu 0.6, 800 games", {"games_per_order": 40}),
    ("adv 60, nu 0.1, 800 games", {"games_per_order": 40, "nu": 0.1}),
]
#: (elo0, elo1, draw rate, per-pair first-player advantages)
SPRT_SETTINGS = [
    (0.0, 50.0, 0.0, (0.0,)),
    (0.0, 50.0, 0.3, (0.0, 120.0)),
    (0.0, 50.0, 0.5, (0.0, 80.0)),
    (0.0, 20.0, 0.3, (0.0, 120.0)),
    (-10.0, 10.0, 0.3, (60.0,)),
]

#: (elo0, elo1) of the SPRTs on :func:`all_or_nothing` pairs (true Elo 0).
ALL_OR_NOTHING_BOUNDS = (0.0, 50.0)


def run(quick: bool, seed: int) -> CalibrationBench:
    rng = np.random.default_rng(seed)
    n_tournaments = 200 if quick else 1000
    n_sprts = 200 if quick else 1000
    res: CalibrationBench = {"machine": machine(), "quick": quick, "seed": seed, "ratings": [], "sprt": [], "all_or_nothing": []}
    for label, kwargs in RATING_SETTINGS:
        t = time.perf_counter()
        trials = rating_trials(rng, n_tournaments, **kwargs)
        row: RatingRow = {"setting": label, **rating_summary(trials, kwargs.get("advantage", ADVANTAGE), kwargs.get("nu", NU)),
               "seconds": time.perf_counter() - t}
        res["ratings"].append(row)
        print("  ", row, flush=True)
    for i, (elo0, elo1, draw_rate, advantages) in enumerate(SPRT_SETTINGS):
        for method, llr in (("GSPRT", sprt_llr), ("normal approx. (before)", llr_normal_approximation)):
            t = time.perf_counter()
            row_rng = np.random.default_rng([seed, i])  # both methods see the same stream
            sprt_row: SPRTRow = {
                "elo0": elo0, "elo1": elo1, "draw_rate": draw_rate, "advantages": list(advantages), "method": method,
                **sprt_summary(row_rng, n_sprts, elo0, elo1, draw_rate=draw_rate, advantages=advantages, llr=llr),
                "seconds": time.perf_counter() - t}
            res["sprt"].append(sprt_row)
            print("  ", sprt_row, flush=True)
    for method, llr in (("GSPRT", sprt_llr), ("normal approx. (before)", llr_normal_approximation)):
        row_rng = np.random.default_rng([seed, len(SPRT_SETTINGS)])
        decision, pairs = sprt_trials(row_rng, n_sprts, 0.0, *ALL_OR_NOTHING_BOUNDS, llr=llr, sample=all_or_nothing)
        aon_row: AllOrNothingRow = {"method": method, "trials": n_sprts, "false_positive": float((decision == 1).mean()),
                                    "pairs": float(pairs.mean())}
        res["all_or_nothing"].append(aon_row)
        print("  ", aon_row, flush=True)
    return res


def report(r: CalibrationBench) -> str:
    m = r["machine"]
    lines = [f"machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}; seed {r['seed']}", "",
             f"Ratings: {r['ratings'][0]['tournaments']} simulated tournaments per row, 5 agents 0..330 Elo, 95% intervals",
             "  (coverage: of the 4 Elo differences to the anchor; Elo bias: their mean error; adv: the first-player advantage,",
             "  bias, RMSE, mean reported sd and coverage of its 95% interval; nu: Davidson's draw parameter)",
             f"  {'setting':38s} {'coverage':>8s} {'Elo bias':>8s} {'adv bias':>8s} {'adv RMSE':>8s} {'adv sd':>7s} {'adv cov':>7s} "
             f"{'nu mean':>8s} {'nu RMSE':>8s}"]
    for row in r["ratings"]:
        lines.append(f"  {row['setting']:38s} {row['coverage']:8.1%} {row['elo_bias']:+8.2f} {row['advantage_bias']:+8.2f} "
                     f"{row['advantage_rmse']:8.2f} "
                     f"{row['advantage_sd_mean']:7.2f} {row['advantage_coverage']:7.1%} {row['nu_mean']:8.3f} {row['nu_rmse']:8.3f}")
    lines += ["", f"SPRT: {r['sprt'][0]['trials']} tests per hypothesis per row, alpha = beta = 0.05",
              f"  {'elo0..elo1':>11s} {'draws':>5s} {'first-player adv.':>17s} {'LLR':24s} {'P(H1|elo0)':>10s} {'P(H0|elo1)':>10s} "
              f"{'pairs|elo0':>10s} {'pairs|elo1':>10s}"]
    for test in r["sprt"]:
        adv = "/".join(f"{a:g}" for a in test["advantages"])
        bounds = f"{test['elo0']:g}..{test['elo1']:g}"
        lines.append(f"  {bounds:>11s} {test['draw_rate']:5.1f} {adv:>17s} {test['method']:24s} "
                     f"{test['false_positive']:10.3f} {test['false_negative']:10.3f} {test['pairs_h0']:10.1f} {test['pairs_h1']:10.1f}"
                     + (f"  undecided {test['undecided']:.3f}" if test["undecided"] else ""))
    elo0, elo1 = ALL_OR_NOTHING_BOUNDS
    lines += ["", f"SPRT {elo0:g}..{elo1:g} on all-or-nothing pairs (2-0 or 0-2 at even odds, true Elo 0 = elo0)"]
    for aon in r["all_or_nothing"]:
        lines.append(f"  {aon['method']:24s} P(H1) {aon['false_positive']:.3f}, mean pairs {aon['pairs']:.1f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.calibration")
    parser.add_argument("--quick", action="store_true", help="200 tournaments and 200 SPRTs per row instead of 1000")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    t = time.perf_counter()
    res = run(args.quick, args.seed)
    res["seconds"] = time.perf_counter() - t
    print(report(res))
    print(f"({res['seconds']:.0f} s)")
    if args.json:
        write_json(args.json, res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
