"""Ratings by maximum likelihood and the SPRT, as engine testers use them.

Ratings (:func:`fit_ratings`): a Bradley–Terry model on the Elo scale with Davidson's
draw model and a first-player term. With ``r`` the ratings, ``a`` the first player's
advantage (Elo), ``q_f = 10**((r_first + a) / 400)`` and ``q_s = 10**(r_second / 400)``::

    P(first wins) = q_f / D,  P(draw) = nu * sqrt(q_f q_s) / D,  P(second wins) = q_s / D
    D = q_f + q_s + nu * sqrt(q_f q_s)

All parameters are fitted together by Newton's method; one anchor agent is fixed at 0,
and the 95% intervals (from the observed information) are of each rating's difference
to the anchor. ``prior_draws`` virtual draws between every two agents that met, in the
spirit of BayesElo, keep ratings finite when one agent, or one colour, won every game.

SPRT (:func:`sprt`): colour-swapped game pairs score 0, 1/2, 1, 3/2 or 2 for A
(pentanomial counts); the log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) is
the generalized (GSPRT) ratio Fishtest computes for logistic Elo (:func:`sprt_llr`), and
it stops at log(beta/(1-alpha)) (accept H0) or log((1-beta)/alpha) (accept H1).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, overload

import numpy as np
from numpy.typing import NDArray

from ..errors import DonutsError

_LN10_400 = math.log(10) / 400  # natural-log odds per Elo
_Z_95 = 1.959964  # two-sided 95% normal quantile
_MAX_NEWTON_STEPS = 100
_STEP_TOLERANCE = 1e-6  # Elo (and log nu): stop when Newton moves less than this
_MIN_STEP = 1e-6  # smallest backtracking fraction of a Newton step

#: A vector or matrix of the fit (parameters, gradient, Hessian), in float64.
Floats = NDArray[np.float64]
#: A function to maximise: its value, gradient and Hessian at a point.
Objective = Callable[[Floats], tuple[float, Floats, Floats]]


@dataclass(frozen=True)
class Rating:
    name: str
    elo: float
    lower: float  # 95% interval
    upper: float
    games: int
    score: float  # points / games


@dataclass(frozen=True)
class RatingFit:
    ratings: list[Rating]  # best first
    first_player_advantage: float  # Elo
    draw_nu: float  # 0 when no real game was drawn (the draw term is then not fitted), inf when all were
    covariance: np.ndarray  # (agents, agents), Elo², anchor row/column zero
    names: list[str]
    first_player_sd: float = math.nan  # standard error of first_player_advantage, Elo
    draw_nu_sd: float = math.nan  # standard error of draw_nu (delta method on log nu); 0 when not fitted
    #: The model: ``bradley-terry`` (Davidson draws, a first-player term: :func:`fit_ratings`) or
    #: ``plackett-luce`` (final rankings of free-for-all games: :mod:`.plackett_luce`).
    model: str = "bradley-terry"
    #: Where the 95% intervals come from.
    intervals: str = "observed information"

    def los(self, a: str, b: str) -> float:
        """Likelihood that ``a`` is stronger than ``b``."""
        i, j = self.names.index(a), self.names.index(b)
        ra = {r.name: r.elo for r in self.ratings}
        var = self.covariance[i, i] + self.covariance[j, j] - 2 * self.covariance[i, j]
        if var <= 0:
            return 0.5 if ra[a] == ra[b] else float(ra[a] > ra[b])
        return 0.5 * (1 + math.erf((ra[a] - ra[b]) / math.sqrt(2 * var)))


def _objective(theta: Floats, rows: NDArray[np.int64], counts: Floats, prior_weight: Floats, n_agents: int, anchor: int,
               fit_draws: bool) -> tuple[float, Floats, Floats]:
    """Log-posterior (log-likelihood plus the prior), its gradient and its Hessian at
    ``theta`` = (ratings without the anchor, advantage in Elo[, log nu]).

    Each row of ``rows`` is (first, second) with ``counts`` (wins of first, draws, wins of
    second) and ``prior_weight`` virtual draws. With ``u`` the first player's log-odds,
    the Davidson model is ``P(first wins) = e^(u/2) / Z``, ``P(second wins) = e^(-u/2) / Z``,
    ``P(draw) = nu / Z`` with ``Z = e^(u/2) + e^(-u/2) + nu``; every derivative is written
    in these probabilities, which stay finite however large ``u`` grows."""
    r = np.insert(theta[: n_agents - 1], anchor, 0.0)
    first, second = rows[:, 0], rows[:, 1]
    u = (r[first] + theta[n_agents - 1] - r[second]) * _LN10_400
    wins, draws, losses = counts[:, 0], counts[:, 1], counts[:, 2]
    games = counts.sum(axis=1)
    log_nu = theta[n_agents] if fit_draws else -np.inf
    log_z = np.logaddexp(np.logaddexp(u / 2, -u / 2), log_nu)
    p_win, p_loss = np.exp(u / 2 - log_z), np.exp(-u / 2 - log_z)
    p_draw = np.exp(log_nu - log_z)
    ll = wins * u / 2 - losses * u / 2 - games * log_z
    if fit_draws:
        ll = ll + draws * log_nu
    d_u = (wins - losses) / 2 - games * (p_win - p_loss) / 2
    d_uu = -games * ((p_win + p_loss) / 4 - (p_win - p_loss) ** 2 / 4)
    # Prior: a virtual draw is half a win and half a loss under the draw-free model,
    # log sqrt(sigma(u) sigma(-u)) = -log(2 cosh(u/2)); it does not depend on nu.
    sig = 0.5 * (1 + np.tanh(u / 2))  # sigma(u), without overflow
    ll = ll - prior_weight * (np.logaddexp(u / 2, -u / 2))
    d_u = d_u - prior_weight * (sig - 0.5)
    d_uu = d_uu - prior_weight * sig * (1 - sig)

    # Chain rule: u = c (r_first + a - r_second); the anchor has no column.
    k = n_agents + (1 if fit_draws else 0)
    cols = np.arange(n_agents)
    cols = np.where(cols > anchor, cols - 1, cols)  # column of each agent's rating in theta
    jac = np.zeros((len(rows), k))
    np.add.at(jac, (np.arange(len(rows)), cols[first]), np.where(first == anchor, 0.0, _LN10_400))
    np.add.at(jac, (np.arange(len(rows)), cols[second]), np.where(second == anchor, 0.0, -_LN10_400))
    jac[:, n_agents - 1] = _LN10_400
    grad = jac.T @ d_u
    hess = (jac * d_uu[:, None]).T @ jac
    if fit_draws:
        d_t = draws - games * p_draw
        d_tt = -games * p_draw * (1 - p_draw)
        d_ut = games * (p_win - p_loss) * p_draw / 2
        grad[-1] = d_t.sum()
        cross = jac[:, :-1].T @ d_ut
        hess[:-1, -1] = hess[-1, :-1] = cross
        hess[-1, -1] = d_tt.sum()
    return float(ll.sum()), grad, hess


def _tabulate(results: Iterable[tuple[str, str, float]], index: dict[str, int], prior_draws: float
              ) -> tuple[NDArray[np.int64], Floats, Floats, dict[str, list[float]]]:
    """(pairings (first, second) as index rows, their counts [first wins, draws, second
    wins], their virtual prior games, and per agent [games, points]) of ``results``."""
    table: dict[tuple[int, int], list[float]] = {}
    played: dict[str, list[float]] = {n: [0, 0.0] for n in index}  # [games (whole), points]
    for first, second, score in results:
        if score not in (0, 0.5, 1):
            raise DonutsError(f"score must be 0, 0.5 or 1, got {score!r}")
        key = (index[first], index[second])
        row = table.setdefault(key, [0.0, 0.0, 0.0, 0.0])  # wins of first, draws, wins of second, virtual draws
        row[{1: 0, 0.5: 1, 0: 2}[score]] += 1
        played[first][0] += 1
        played[first][1] += score
        played[second][0] += 1
        played[second][1] += 1 - score
    if prior_draws > 0:
        met = {tuple(sorted(k)) for k in table}
        for i, j in met:
            for key in ((i, j), (j, i)):
                table.setdefault(key, [0.0, 0.0, 0.0, 0.0])[3] += prior_draws / 2
    rows = np.array(list(table), dtype=np.int64).reshape(-1, 2)
    data = np.array(list(table.values()), dtype=np.float64).reshape(-1, 4)
    return rows, data[:, :3], data[:, 3], played


def _maximise(f: Objective, theta: Floats) -> tuple[Floats, Floats]:
    """(the maximum, the Hessian there) of the concave ``f`` (which gives value, gradient,
    Hessian) by Newton's method from ``theta``."""
    value, g, H = f(theta)
    for _ in range(_MAX_NEWTON_STEPS):
        try:
            step = np.linalg.solve(H, -g)
        except np.linalg.LinAlgError:
            step = g * 10
        # Backtracking line search keeps every step an ascent (the log-likelihood is
        # concave, so this only matters far from the optimum or when it is at infinity).
        lam = 1.0
        while True:
            new_value, new_g, new_H = f(theta + lam * step)
            if new_value >= value - 1e-12 or lam <= _MIN_STEP:
                break
            lam /= 2
        theta = theta + lam * step
        value, g, H = new_value, new_g, new_H
        if np.max(np.abs(lam * step)) < _STEP_TOLERANCE:
            break
    return theta, H


# The likelihood of superiority of A over B is Phi((r_A - r_B) / sd(r_A - r_B)).
#
# The prior: a virtual draw enters as half a win and half a loss under the draw-free Bradley–Terry
# model, i.e. with log-likelihood ``log sqrt(P_BT(first wins) P_BT(second wins))``: exactly the
# rating-dependent part of a Davidson draw's log-likelihood as nu -> 0. So it pulls ratings together
# as a virtual draw does, but it holds no information about nu, which is estimated from the real games
# alone. Counted as Davidson draws, the fit would estimate nu from them (nu = 1.7 for a tournament
# without a single draw; 0.86 on average for a true 0.6 in simulated 240-game tournaments), and since
# draws leave the Davidson estimate of the wins-to-losses ratio unchanged they would hardly regularise
# the ratings (a 20-0 match put the loser 2944 Elo down with a zero-width interval). The price of a
# real prior is shrinkage: rating differences and the advantage are pulled towards 0 by about
# prior_draws / (games per pairing) of their size, which ``python -m benchmarks.calibration``
# measures; the 95% intervals still cover. With no real draw the draw term is left out of the model
# and ``draw_nu`` is 0; when every real game was drawn the maximum-likelihood nu is infinite,
# ``draw_nu`` is inf and the ratings rest on the prior alone.
def fit_ratings(results: Iterable[tuple[str, str, float]], names: Iterable[str] | None = None, anchor: str | None = None,
                prior_draws: float = 2.0) -> RatingFit:
    """Fit Elo ratings, a first-player term and a draw term to two-player results.

    Args:
        results: (first player, second player, the first player's score: 1, 0.5 or 0).
        names: the agents to rate (default: those in ``results``).
        anchor: the agent fixed at 0 (default: the first name).
        prior_draws: virtual draws per pairing that met, which regularise the ratings and
            the first-player term; they never inform ``draw_nu``.

    Returns:
        A :class:`RatingFit`, best first; its ``draw_nu`` is 0 when no real game was drawn,
        inf when every real game was (the ratings then rest on the prior alone), and
        otherwise the maximum-likelihood nu.
    """
    results = list(results)
    if names is None:
        names = sorted({x for a, b, _ in results for x in (a, b)})
    names = list(names)
    if len(names) < 2:
        raise DonutsError("ratings need at least two agents")
    if anchor is None:
        anchor = names[0]
    if anchor not in names:
        raise DonutsError(f"anchor {anchor!r} is not one of the agents")
    if not prior_draws >= 0:
        raise DonutsError(f"prior_draws must be >= 0, got {prior_draws!r}")
    index = {n: i for i, n in enumerate(names)}
    rows, counts, prior_weight, played = _tabulate(results, index, prior_draws)
    fit_draws = bool(counts[:, 1].sum() > 0)  # real draws only: the prior never makes the fit estimate nu
    all_drawn = fit_draws and not (counts[:, 0].sum() + counts[:, 2].sum() > 0)
    if all_drawn:
        # Every real game drawn: the likelihood grows without bound with nu, and at
        # nu = inf every game is drawn whatever the ratings, so the games say nothing
        # about ratings or the first-player term; the prior alone sets them.
        counts = np.zeros_like(counts)
        fit_draws = False
    n = len(names)
    a = index[anchor]
    k = n + (1 if fit_draws else 0)
    theta = np.zeros(k)  # equal ratings, no advantage, nu = 1

    def f(t: Floats) -> tuple[float, Floats, Floats]:
        return _objective(t, rows, counts, prior_weight, n, a, fit_draws)

    theta, H = _maximise(f, theta)
    try:
        cov_t = np.linalg.inv(-H)
    except np.linalg.LinAlgError:
        cov_t = np.full((k, k), np.inf)
    idx = [i for i in range(n) if i != a]
    cov = np.zeros((n, n))
    for p, i in enumerate(idx):
        for q, j in enumerate(idx):
            cov[i, j] = cov_t[p, q]
    r = np.insert(theta[: n - 1], a, 0.0)
    ratings = []
    for i, name in enumerate(names):
        half = _Z_95 * math.sqrt(max(cov[i, i], 0.0))
        g_played, pts = played[name]
        ratings.append(Rating(name, float(r[i]), float(r[i] - half), float(r[i] + half), int(g_played),
                              pts / g_played if g_played else 0.0))
    ratings.sort(key=lambda x: -x.elo)
    adv_sd = math.sqrt(max(float(cov_t[n - 1, n - 1]), 0.0))
    if fit_draws:
        nu = math.exp(theta[n])
        nu_sd = nu * math.sqrt(max(float(cov_t[n, n]), 0.0))
    elif all_drawn:
        nu, nu_sd = math.inf, math.nan
    else:
        nu, nu_sd = 0.0, 0.0
    return RatingFit(ratings, float(theta[n - 1]), float(nu), cov, names, adv_sd, float(nu_sd))


# --- SPRT --------------------------------------------------------------------------------


def elo_to_score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


_PAIR_SCORES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])  # a pair's score for A, per game
# Pseudo-count given to an outcome never seen, as Fishtest does: the maximum-likelihood
# distribution under a hypothesis may then put mass on it (otherwise a mean outside the
# observed scores would have likelihood 0 and the LLR would be infinite).
_EMPTY_CELL_COUNT = 1e-3
_LAMBDA_ITERATIONS = 60
_LAMBDA_TOLERANCE = 1e-12


@dataclass(frozen=True)
class SPRTState:
    pentanomial: tuple[int, int, int, int, int]  # pairs scoring 0, 1/2, 1, 3/2, 2 for A
    llr: float
    lower: float
    upper: float
    decision: str | None  # "H1" (A is at least elo1 stronger), "H0", or None (go on)


def _max_tilt(freq: Floats, s: float) -> Floats:
    """max over lambda of sum_i freq_i log(1 + lambda (x_i - s)), per row of ``freq``.

    The maximum-likelihood distribution with mean ``s`` is ``freq_i / (1 + lambda (x_i -
    s))`` at the maximising lambda, so this is the log-likelihood per pair lost by
    forcing the mean to ``s``. The function is concave on the open interval where every
    ``1 + lambda (x_i - s)`` is positive, with a unique root of its derivative there
    (every cell has positive frequency): safeguarded Newton on that root."""
    dx = _PAIR_SCORES - s
    lo = np.full(freq.shape[:-1], -1 / (1 - s))
    hi = np.full(freq.shape[:-1], 1 / s)
    mean_dx = (freq * dx).sum(-1)
    lam = np.clip(mean_dx / (freq * dx * dx).sum(-1), lo * 0.5, hi * 0.5)  # the normal approximation's lambda
    for _ in range(_LAMBDA_ITERATIONS):
        denom = 1 + lam[..., None] * dx
        grad = (freq * dx / denom).sum(-1)
        curv = -(freq * (dx / denom) ** 2).sum(-1)
        lo = np.where(grad > 0, lam, lo)  # the root lies above lam
        hi = np.where(grad > 0, hi, lam)
        newton = lam - grad / curv
        inside = (newton > lo) & (newton < hi)
        new = np.where(inside, newton, 0.5 * (lo + hi))
        done = np.abs(new - lam) < _LAMBDA_TOLERANCE
        lam = new
        if done.all():
            break
    tilt: Floats = (freq * np.log1p(lam[..., None] * dx)).sum(-1)
    return tilt


def _max_tilt_one(freq: list[float], s: float) -> float:
    """:func:`_max_tilt` for one count vector, in plain floats: :func:`sprt` runs once per
    pair played, where numpy's overhead on 5 numbers would dominate."""
    dx = [x - s for x in _PAIR_SCORES.tolist()]
    lo, hi = -1 / (1 - s), 1 / s
    lam = sum(f * d for f, d in zip(freq, dx, strict=True)) / sum(f * d * d for f, d in zip(freq, dx, strict=True))
    lam = min(max(lam, lo * 0.5), hi * 0.5)
    for _ in range(_LAMBDA_ITERATIONS):
        grad = curv = 0.0
        for f, d in zip(freq, dx, strict=True):
            q = d / (1 + lam * d)
            grad += f * q
            curv -= f * q * q
        if grad > 0:
            lo = lam
        else:
            hi = lam
        new = lam - grad / curv
        if not lo < new < hi:
            new = 0.5 * (lo + hi)
        done = abs(new - lam) < _LAMBDA_TOLERANCE
        lam = new
        if done:
            break
    return sum(f * math.log1p(lam * d) for f, d in zip(freq, dx, strict=True))


def _scores(elo0: float, elo1: float) -> tuple[float, float]:
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    if not (0 < s0 < 1 and 0 < s1 < 1):
        raise DonutsError(f"SPRT bounds too far from 0 Elo to give an expected score strictly between 0 and 1: {elo0}, {elo1}")
    return s0, s1


@overload
def sprt_llr(pentanomial: Sequence[float], elo0: float, elo1: float) -> float: ...
@overload
def sprt_llr(pentanomial: NDArray[Any], elo0: float, elo1: float) -> Floats | float: ...
def sprt_llr(pentanomial: Sequence[float] | NDArray[Any], elo0: float, elo1: float) -> Floats | float:
    """Generalized log-likelihood ratio of "A's expected score is that of ``elo1``" over
    "that of ``elo0``" (logistic Elo) for pentanomial counts: an array whose last axis
    holds the 5 counts (pairs scoring 0 .. 2 for A); returns one LLR per count vector
    (a float for a single vector, computed without numpy's per-call overhead).

    Each hypothesis fixes only the mean pair score ``s``; the shape of the pentanomial
    distribution is a nuisance, maximised out (Van den Bergh's GSPRT, Fishtest's
    ``LLR_logistic``). This is used instead of the normal approximation
    ``n (s1 - s0) (2 mean - s0 - s1) / (2 var)`` (Fishtest's ``LLR_alt2``, which this
    module used before) because that one plugs in the sample variance around the sample
    mean, not around each hypothesis's mean: when the bounds are wide and the test stops
    after tens of pairs it overstates the evidence, and in simulation it accepted H1 at
    a true elo0 about twice as often as alpha with elo0 = 0, elo1 = 50 (0.09–0.11 for
    alpha = 0.05). Its variance floor of 1/(16 n) also let 4 straight 2-0 pairs accept
    "20 Elo stronger", though a pair distribution with mean 1/2 (A wins both games on
    half the layouts, loses both on the rest) does that 1 time in 16. Under this ratio,
    n straight 2-0 pairs count n log(s1 / s0), the most any distribution allows."""
    counts = np.asarray(pentanomial, dtype=np.float64)
    if counts.shape[-1:] != (5,) or (counts < 0).any():
        raise DonutsError("pentanomial needs 5 non-negative counts (on the last axis)")
    n = counts.sum(-1)
    s0, s1 = _scores(elo0, elo1)
    if counts.ndim == 1:
        return _llr_one(counts.tolist(), s0, s1)
    regular = np.where(counts > 0, counts, _EMPTY_CELL_COUNT)
    freq = regular / regular.sum(-1, keepdims=True)
    llr = n * (_max_tilt(freq, s0) - _max_tilt(freq, s1))
    return np.where(n > 0, llr, 0.0)


def _llr_one(counts: list[float], s0: float, s1: float) -> float:
    n = sum(counts)
    if n == 0:
        return 0.0
    regular = [c if c > 0 else _EMPTY_CELL_COUNT for c in counts]
    total = sum(regular)
    freq = [c / total for c in regular]
    return n * (_max_tilt_one(freq, s0) - _max_tilt_one(freq, s1))


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's stopping bounds (accept H0 at or below the first, H1 at or above the second)."""
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise DonutsError("alpha and beta must be in (0, 1)")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt(pentanomial: Iterable[float], elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05) -> SPRTState:
    """The SPRT's state after the pairs counted so far.

    Args:
        pentanomial: how many colour-swapped pairs scored 0, 1/2, 1, 3/2 and 2 for A.
        elo0: the Elo difference of H0.
        elo1: the Elo difference of H1.
        alpha: the false-positive rate.
        beta: the false-negative rate.

    Returns:
        The :class:`SPRTState`: its log-likelihood ratio, bounds and decision (``None`` while
        undecided).
    """
    counts = [int(c) for c in pentanomial]
    if len(counts) != 5 or min(counts) < 0:
        raise DonutsError("pentanomial needs 5 non-negative counts")
    if not elo1 > elo0:
        raise DonutsError(f"elo1 must exceed elo0, got {elo0} and {elo1}")
    lower, upper = sprt_bounds(alpha, beta)
    llr = sprt_llr(counts, elo0, elo1)
    decision = "H1" if llr >= upper else "H0" if llr <= lower else None
    return SPRTState((counts[0], counts[1], counts[2], counts[3], counts[4]), llr, lower, upper, decision)


def pair_category(score_a: float) -> int:
    """Pentanomial index (0..4) of A's score over a colour-swapped pair (0..2)."""
    k = round(score_a * 2)
    if not 0 <= k <= 4:
        raise DonutsError(f"a pair scores 0..2, got {score_a}")
    return k
