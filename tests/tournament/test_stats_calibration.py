"""Calibration of the rating fit and the SPRT on simulated results with a known truth.

Seeded numpy simulations, small versions of ``python -m benchmarks.calibration`` (which
holds the simulators and runs them 5 times larger): each test states the bound its
measured figure must meet, and the figure is in the assertion message.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from benchmarks.calibration import (
    ADVANTAGE,
    NU,
    SPRTTrials,
    all_or_nothing,
    llr_normal_approximation,
    rating_summary,
    rating_trials,
    sprt_trials,
)
from donuts_ai.errors import DonutsError
from donuts_ai.tournament.stats import elo_to_score, fit_ratings, sprt, sprt_llr

SEED = 20240808
N_TOURNAMENTS = 200
N_SPRTS = 300  # per hypothesis
ALPHA = BETA = 0.05
#: Nominal 95% intervals must cover at least this often (and at most MAX_COVERAGE: not needlessly wide).
MIN_COVERAGE, MAX_COVERAGE = 0.90, 0.99


def _error_bound(rate: float, n: int) -> float:
    """A calibrated test's error rate over ``n`` runs stays below this but for a 3-sigma fluke."""
    return rate + 3 * math.sqrt(rate * (1 - rate) / n)


@pytest.fixture(scope="module")
def planted():
    """200 tournaments, 5 agents 0..330 Elo, +60 first-player advantage, nu = 0.6, 240 games each."""
    return rating_trials(np.random.default_rng(SEED), N_TOURNAMENTS)


@pytest.fixture(scope="module")
def planted_long():
    """As ``planted`` with 800 games each, where the prior's pull is small next to the data."""
    return rating_trials(np.random.default_rng(SEED + 1), N_TOURNAMENTS, games_per_order=40)


@pytest.fixture(scope="module")
def neutral():
    """No first-player advantage and no draws."""
    return rating_trials(np.random.default_rng(SEED + 2), N_TOURNAMENTS, advantage=0.0, nu=0.0)


# --- ratings -----------------------------------------------------------------------------


def test_rating_intervals_cover_the_true_differences(planted, neutral):
    for trials, advantage, nu in ((planted, ADVANTAGE, NU), (neutral, 0.0, 0.0)):
        s = rating_summary(trials, advantage, nu)
        assert MIN_COVERAGE <= s["coverage"] <= MAX_COVERAGE, (
            f"95% intervals of Elo differences to the anchor covered the truth in {s['coverage']:.2%} of "
            f"{trials['elo'].size} cases (advantage {advantage}, nu {nu})")


def test_first_player_advantage_is_recovered(planted_long):
    s = rating_summary(planted_long, ADVANTAGE, NU)
    est, sd = planted_long["advantage"], planted_long["advantage_sd"]
    assert MIN_COVERAGE <= s["advantage_coverage"] <= MAX_COVERAGE, f"advantage interval coverage {s['advantage_coverage']:.2%}"
    assert (est > 0).mean() == 1.0, f"advantage estimated <= 0 in {(est <= 0).sum()} of {len(est)} tournaments (+{ADVANTAGE} planted)"
    # The prior pulls the advantage towards 0; at 800 games that stays well under a standard error.
    assert abs(s["advantage_bias"]) <= 0.5 * sd.mean(), f"advantage bias {s['advantage_bias']:+.2f} Elo, sd {sd.mean():.2f}"
    # The standard error from the Hessian matches the spread of the estimates.
    assert 0.8 <= sd.mean() / est.std() <= 1.25, f"reported sd {sd.mean():.2f} Elo, spread of the estimates {est.std():.2f}"


def test_no_first_player_advantage_is_found_where_none_is(neutral):
    s = rating_summary(neutral, 0.0, 0.0)
    est = neutral["advantage"]
    tolerance = 3 * est.std() / math.sqrt(len(est))
    assert abs(est.mean()) <= tolerance, f"mean advantage {est.mean():+.2f} Elo with none planted (3 SE = {tolerance:.2f})"
    assert MIN_COVERAGE <= s["advantage_coverage"] <= MAX_COVERAGE, f"advantage interval coverage {s['advantage_coverage']:.2%}"


def test_nu_is_zero_without_draws(neutral):
    assert (neutral["nu"] == 0.0).all(), f"nu = {neutral['nu'].max()} in a tournament without draws"
    # The case from the issue: 0 draws reported nu = 1.7 (the prior's virtual draws were fitted).
    games = [("A", "B", 1), ("B", "A", 1), ("A", "B", 0), ("B", "A", 1)] * 3
    fit = fit_ratings(games)
    assert fit.draw_nu == 0.0 and fit.draw_nu_sd == 0.0, f"nu = {fit.draw_nu} without a draw"


@pytest.mark.parametrize("nu", [NU, 0.1])
def test_nu_is_recovered_and_not_set_by_the_prior(nu):
    trials = rating_trials(np.random.default_rng(SEED + 3), N_TOURNAMENTS, games_per_order=40, nu=nu)
    est, sd = trials["nu"], trials["nu_sd"]
    tolerance = 0.05 * nu + 3 * est.std() / math.sqrt(len(est))
    assert abs(est.mean() - nu) <= tolerance, f"mean nu {est.mean():.4f}, planted {nu} (tolerance {tolerance:.4f})"
    assert 0.8 <= sd.mean() / est.std() <= 1.25, f"reported sd of nu {sd.mean():.4f}, spread of the estimates {est.std():.4f}"


def test_all_draws_give_infinite_nu_and_prior_ratings():
    fit = fit_ratings([("A", "B", 0.5), ("B", "A", 0.5)] * 10)
    assert fit.draw_nu == math.inf
    assert all(r.elo == 0 and math.isfinite(r.lower) for r in fit.ratings)


def test_one_sided_results_stay_finite():
    fit = fit_ratings([("A", "B", 1), ("B", "A", 0)] * 10)
    b = next(r for r in fit.ratings if r.name == "B")
    assert -1000 < b.lower < b.elo < b.upper < 0, b


# --- SPRT --------------------------------------------------------------------------------


@pytest.mark.parametrize(("elo0", "elo1", "draw_rate", "advantages"), [(0.0, 50.0, 0.3, (0.0, 120.0)), (0.0, 50.0, 0.0, (0.0,))])
def test_sprt_error_rates(elo0, elo1, draw_rate, advantages):
    rng = np.random.default_rng(SEED + 4)
    trials = SPRTTrials(draw_rate=draw_rate, advantages=advantages, alpha=ALPHA, beta=BETA)
    d0, _ = sprt_trials(rng, N_SPRTS, elo0, elo0, elo1, trials)
    d1, _ = sprt_trials(rng, N_SPRTS, elo1, elo0, elo1, trials)
    assert (d0 != 0).all() and (d1 != 0).all(), "every test decides"
    fp, fn = (d0 == 1).mean(), (d1 == -1).mean()
    assert fp <= _error_bound(ALPHA, N_SPRTS), f"accepted H1 with the truth at elo0 in {fp:.3f} of {N_SPRTS} tests (alpha {ALPHA})"
    assert fn <= _error_bound(BETA, N_SPRTS), f"accepted H0 with the truth at elo1 in {fn:.3f} of {N_SPRTS} tests (beta {BETA})"


def test_sprt_holds_alpha_when_pairs_are_all_or_nothing():
    """Pairs that A wins 2-0 or loses 0-2 at even odds: true Elo 0 = elo0."""
    rates = {}
    for name, llr in (("GSPRT", sprt_llr), ("before", llr_normal_approximation)):
        decision, _ = sprt_trials(np.random.default_rng(SEED + 5), N_SPRTS, 0.0, 0.0, 50.0, llr=llr, sample=all_or_nothing)
        assert (decision != 0).all(), "every test decides"
        rates[name] = (decision == 1).mean()
    bound = _error_bound(ALPHA, N_SPRTS)
    assert rates["GSPRT"] <= bound, f"false-positive rate {rates['GSPRT']:.3f} on all-or-nothing pairs (alpha {ALPHA})"
    # The normal approximation used before fails this (3 straight 2-0 pairs decided H1): the check has teeth.
    assert rates["before"] > bound, f"the old approximation's false-positive rate {rates['before']:.3f}"


def test_straight_wins_count_at_most_log_s1_over_s0_each():
    s0, s1 = elo_to_score(0), elo_to_score(20)
    per_pair = math.log(s1 / s0)  # the most a 2-0 pair can say: some H0 distribution scores 2-0 with probability s0
    need = math.ceil(math.log((1 - BETA) / ALPHA) / per_pair)
    assert sprt([0, 0, 0, 0, need], 0, 20).decision == "H1", need
    assert sprt([0, 0, 0, 0, need - 1], 0, 20).decision is None, need - 1
    assert sprt([0, 0, 0, 0, 6], 0, 20).llr == pytest.approx(6 * per_pair, rel=0.01)


def test_sprt_llr_vectorised_matches_scalar_and_is_antisymmetric():
    counts = np.random.default_rng(SEED + 6).integers(0, 40, size=(50, 5))
    vec = sprt_llr(counts, -5, 15)
    one = np.array([sprt(c, -5, 15).llr for c in counts])
    assert np.abs(vec - one).max() < 1e-9
    assert np.abs(vec + sprt_llr(counts, 15, -5)).max() < 1e-9
    assert sprt_llr([0] * 5, 0, 20) == 0.0


def test_sprt_rejects_bad_input():
    with pytest.raises(DonutsError, match="5 non-negative"):
        sprt_llr(np.zeros((3, 4)), 0, 20)
    with pytest.raises(DonutsError, match="strictly between 0 and 1"):
        sprt([1, 0, 0, 0, 1], 0, 1e5)
