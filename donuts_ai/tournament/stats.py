"""Ratings by maximum likelihood and the SPRT, as engine testers use them.

Ratings: a Bradley–Terry model on the Elo scale with Davidson's draw model and a
first-player term. With ``r`` the ratings, ``a`` the first player's advantage (Elo),
``q_f = 10**((r_first + a) / 400)`` and ``q_s = 10**(r_second / 400)``::

    P(first wins) = q_f / D,  P(draw) = nu * sqrt(q_f q_s) / D,  P(second wins) = q_s / D
    D = q_f + q_s + nu * sqrt(q_f q_s)

All parameters (ratings, ``a``, ``log nu``) are fitted together by Newton's method on
the log-likelihood; one anchor agent is fixed at 0. The 95% intervals come from the
inverse of the observed information (the Hessian), and the likelihood of superiority
of A over B is Phi((r_A - r_B) / sd(r_A - r_B)). A prior of ``prior_draws`` virtual
draws between every two agents that met (half with each as first player), as
BayesElo does, keeps ratings finite when one agent won every game.

SPRT: game pairs with colours swapped score 0, 1/2, 1, 3/2 or 2 for A (pentanomial
counts). The log-likelihood ratio of H1 (A is ``elo1`` stronger) against H0 (``elo0``)
uses the normal approximation of Van den Bergh's generalized SPRT on the per-pair
score, as Fishtest does; it stops at log(beta/(1-alpha)) (accept H0) or
log((1-beta)/alpha) (accept H1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import DonutsError

_LN10_400 = math.log(10) / 400


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
    draw_nu: float
    covariance: np.ndarray  # (agents, agents), Elo², anchor row/column zero
    names: list[str]

    def los(self, a: str, b: str) -> float:
        """Likelihood that ``a`` is stronger than ``b``."""
        i, j = self.names.index(a), self.names.index(b)
        ra = {r.name: r.elo for r in self.ratings}
        var = self.covariance[i, i] + self.covariance[j, j] - 2 * self.covariance[i, j]
        if var <= 0:
            return 0.5 if ra[a] == ra[b] else float(ra[a] > ra[b])
        return 0.5 * (1 + math.erf((ra[a] - ra[b]) / math.sqrt(2 * var)))


def _loglik(theta, games, counts, n_agents, anchor, fit_draws):
    """theta = (ratings without the anchor, advantage, log nu)."""
    r = np.insert(theta[: n_agents - 1], anchor, 0.0)
    adv = theta[n_agents - 1]
    log_nu = theta[n_agents] if fit_draws else -np.inf
    first, second = games[:, 0], games[:, 1]
    x_f = (r[first] + adv) * _LN10_400  # log q_f
    x_s = r[second] * _LN10_400
    mid = 0.5 * (x_f + x_s) + log_nu
    top = np.maximum(np.maximum(x_f, x_s), mid if fit_draws else -np.inf)
    log_d = top + np.log(np.exp(x_f - top) + np.exp(x_s - top) + (np.exp(mid - top) if fit_draws else 0.0))
    ll = counts[:, 0] * (x_f - log_d) + counts[:, 2] * (x_s - log_d)
    if fit_draws:
        ll = ll + counts[:, 1] * (mid - log_d)
    return float(ll.sum())


def _grad_hess(f, theta, h=1e-3):
    k = len(theta)
    g = np.zeros(k)
    H = np.zeros((k, k))
    f0 = f(theta)
    for i in range(k):
        e = np.zeros(k)
        e[i] = h
        fp, fm = f(theta + e), f(theta - e)
        g[i] = (fp - fm) / (2 * h)
        H[i, i] = (fp - 2 * f0 + fm) / h**2
        for j in range(i):
            e2 = np.zeros(k)
            e2[j] = h
            H[i, j] = H[j, i] = (f(theta + e + e2) - f(theta + e - e2) - f(theta - e + e2) + f(theta - e - e2)) / (4 * h * h)
    return g, H


def fit_ratings(results, names=None, anchor: str | None = None, prior_draws: float = 2.0) -> RatingFit:
    """Fit ratings to ``results``: an iterable of (first player, second player, score of
    the first player: 1, 0.5 or 0). ``anchor`` (default: the first name) is fixed at 0."""
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
    index = {n: i for i, n in enumerate(names)}
    table: dict[tuple[int, int], list[float]] = {}
    played = {n: [0, 0.0] for n in names}
    for first, second, score in results:
        if score not in (0, 0.5, 1):
            raise DonutsError(f"score must be 0, 0.5 or 1, got {score!r}")
        key = (index[first], index[second])
        row = table.setdefault(key, [0.0, 0.0, 0.0])
        row[{1: 0, 0.5: 1, 0: 2}[score]] += 1
        played[first][0] += 1
        played[first][1] += score
        played[second][0] += 1
        played[second][1] += 1 - score
    if prior_draws > 0:
        met = {tuple(sorted(k)) for k in table}
        for i, j in met:
            for key in ((i, j), (j, i)):
                table.setdefault(key, [0.0, 0.0, 0.0])[1] += prior_draws / 2
    games = np.array(list(table), dtype=np.int64).reshape(-1, 2)
    counts = np.array(list(table.values()), dtype=np.float64).reshape(-1, 3)
    fit_draws = counts[:, 1].sum() > 0
    n = len(names)
    a = index[anchor]
    k = n + (1 if fit_draws else 0)
    theta = np.zeros(k)
    if fit_draws:
        theta[-1] = 0.0

    def f(t):
        return _loglik(t, games, counts, n, a, fit_draws)

    for _ in range(100):
        g, H = _grad_hess(f, theta)
        try:
            step = np.linalg.solve(H, -g)
        except np.linalg.LinAlgError:
            step = g * 10
        # Backtracking line search keeps every step an ascent.
        lam, f0 = 1.0, f(theta)
        while lam > 1e-6 and f(theta + lam * step) < f0 - 1e-12:
            lam /= 2
        theta = theta + lam * step
        if np.max(np.abs(lam * step)) < 1e-6:
            break
    _, H = _grad_hess(f, theta)
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
        half = 1.959964 * math.sqrt(max(cov[i, i], 0.0))
        g_played, pts = played[name]
        ratings.append(Rating(name, float(r[i]), float(r[i] - half), float(r[i] + half), g_played, pts / g_played if g_played else 0.0))
    ratings.sort(key=lambda x: -x.elo)
    return RatingFit(ratings, float(theta[n - 1]), float(math.exp(theta[n])) if fit_draws else 0.0, cov, names)


# --- SPRT --------------------------------------------------------------------------------


def elo_to_score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


@dataclass(frozen=True)
class SPRTState:
    pentanomial: tuple[int, int, int, int, int]  # pairs scoring 0, 1/2, 1, 3/2, 2 for A
    llr: float
    lower: float
    upper: float
    decision: str | None  # "H1" (A is at least elo1 stronger), "H0", or None (go on)


def sprt(pentanomial, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05) -> SPRTState:
    """The SPRT state after the pairs counted in ``pentanomial`` (5 counts)."""
    counts = [int(c) for c in pentanomial]
    if len(counts) != 5 or min(counts) < 0:
        raise DonutsError("pentanomial needs 5 non-negative counts")
    if not elo1 > elo0:
        raise DonutsError(f"elo1 must exceed elo0, got {elo0} and {elo1}")
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise DonutsError("alpha and beta must be in (0, 1)")
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    n = sum(counts)
    llr = 0.0
    if n:
        scores = np.array([0, 0.25, 0.5, 0.75, 1.0])
        p = np.array(counts) / n
        mean = float((p * scores).sum())
        var = float((p * (scores - mean) ** 2).sum())
        # When (nearly) every pair scored the same the sample variance is (nearly) 0 and
        # would decide at once; a floor of 1/(16 n) lets a run of identical pairs decide
        # only after several of them (4 straight 2-0 pairs for elo1 = 20).
        if n >= 2:
            var = max(var, 1 / (16 * n))
            s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
            llr = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    decision = "H1" if llr >= upper else "H0" if llr <= lower else None
    return SPRTState(tuple(counts), llr, lower, upper, decision)


def pair_category(score_a: float) -> int:
    """Pentanomial index (0..4) of A's score over a colour-swapped pair (0..2)."""
    k = round(score_a * 2)
    if not 0 <= k <= 4:
        raise DonutsError(f"a pair scores 0..2, got {score_a}")
    return k
