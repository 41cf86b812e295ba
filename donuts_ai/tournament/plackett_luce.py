"""Ratings from the final rankings of free-for-all games: the Plackett–Luce model,
fitted by Hunter's (2004) MM algorithm, on the Elo scale.

Agent ``i`` has strength ``gamma_i = 10**(r_i / 400)`` (``r_i`` its rating in Elo). A
game's ranking is read as successive choices: first place is drawn from all the players
with probability ``gamma_first / sum(gamma of all)``, second place from the players
left, and so on. With two players that is Bradley–Terry on the Elo scale, as
:func:`~.stats.fit_ratings` (without its first-player and draw terms). An agent may hold
several seats of one game: each seat is one more ``gamma`` in every sum.

A tied group (a shared place) counts the geometric mean of the probabilities of all its
orders; ``prior_draws`` virtual two-player ties between every two agents that met keep
every rating finite, as :func:`~.stats.fit_ratings` counts its virtual draws. Error
bars come from the observed information at the maximum, with the anchor's rating fixed
at 0, or from a bootstrap over units (``bootstrap=B``), since games of one unit share a
deal and a table. The comments at :func:`fit_plackett_luce` give the details.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Hashable, Iterable, Sequence
from typing import Protocol

import numpy as np

from .._checks import check_int, is_int
from ..errors import DonutsError
from .stats import Floats, Rating, RatingFit

#: One game for the fit: the agents' names per seat, their places per seat.
Ranking = tuple[Sequence[str], Sequence[float]]


class _Solve(Protocol):
    """A refit on the games, each counted ``multiplicity`` times, from ``start``: (theta, counts, weights)."""

    def __call__(self, multiplicity: Sequence[float], start: Floats | None = None) -> tuple[Floats, Floats, Floats]: ...

_ELO_PER_NAT = 400 / math.log(10)  # Elo per unit of natural-log strength
_Z_95 = 1.959964  # two-sided 95% normal quantile
#: MM stops when no rating moves by more than this (Elo) in one step.
_MM_TOLERANCE = 1e-7
#: MM steps at most (MM converges linearly; well-connected data needs tens to hundreds).
_MM_MAX_STEPS = 100_000
#: Bootstrap percentiles of a 95% interval.
_LOWER_PERCENTILE, _UPPER_PERCENTILE = 2.5, 97.5

#: The model's name, as reports and :class:`~.stats.RatingFit` give it.
MODEL = "plackett-luce"


def places_from_ranks(ranks: Sequence[float]) -> list[int]:
    """Competition places (0 first; ``m`` players sharing a place take it, and the next
    place is ``m`` further on) from any ranking where smaller is better."""
    return [sum(1 for other in ranks if other < r) for r in ranks]


class _Terms:
    """The log-likelihood of some rankings as numerator weights ``W`` (per agent) and
    denominator terms: seat counts per agent (a tuple) -> weight."""

    def __init__(self, n_agents: int):
        self.n = n_agents
        self.numerator = [0.0] * n_agents
        self.denominators: dict[tuple[int, ...], float] = {}

    def add(self, other: _Terms, times: float = 1.0) -> None:
        for i, w in enumerate(other.numerator):
            self.numerator[i] += times * w
        for key, w in other.denominators.items():
            self.denominators[key] = self.denominators.get(key, 0.0) + times * w

    def _denominator(self, counts: list[int], weight: float) -> None:
        present = [i for i, c in enumerate(counts) if c]
        if len(present) == 1:
            # log(c gamma_i) is theta_i plus a constant: linear, so it joins the numerator.
            self.numerator[present[0]] -= weight
        elif present:
            key = tuple(counts)
            self.denominators[key] = self.denominators.get(key, 0.0) + weight

    def ranking(self, items: Sequence[int], places: Sequence[int], weight: float = 1.0) -> None:
        """Add one game: ``items[s]`` the agent in seat ``s``, ``places[s]`` its place."""
        remaining = [0] * self.n
        for i in items:
            remaining[i] += 1
        for place in sorted(set(places)):
            group = [items[s] for s, p in enumerate(places) if p == place]
            m = len(group)
            for i in group:
                remaining[i] -= 1
                self.numerator[i] += weight
            for k in range(m):  # k of the group already chosen: the mean over which k
                share = weight / math.comb(m, k)
                for chosen in itertools.combinations(range(m), k):
                    counts = list(remaining)
                    for s in range(m):
                        if s not in chosen:
                            counts[group[s]] += 1
                    self._denominator(counts, share)

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        counts = np.array(list(self.denominators), dtype=np.float64).reshape(-1, self.n)
        weights = np.array(list(self.denominators.values()), dtype=np.float64)
        return np.array(self.numerator), counts, weights


def _mm(numerator: np.ndarray, counts: np.ndarray, weights: np.ndarray, anchor: int,
        start: np.ndarray | None = None) -> np.ndarray:
    """The maximum of the log-likelihood in ``theta`` (natural-log strengths, the
    anchor's 0) by Hunter's MM updates."""
    gamma = np.ones(len(numerator)) if start is None else np.exp(start)
    for _ in range(_MM_MAX_STEPS):
        total = counts @ gamma
        new = numerator / (counts.T @ (weights / total))
        new = new / new[anchor]
        step = np.max(np.abs(np.log(new) - np.log(gamma))) * _ELO_PER_NAT
        gamma = new
        if step < _MM_TOLERANCE:
            break
    return np.log(gamma)


def _information(theta: np.ndarray, counts: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The observed information (negative Hessian of the log-likelihood) in ``theta``."""
    gamma = np.exp(theta)
    p = counts * gamma / (counts @ gamma)[:, None]  # choice probabilities, one row per term
    info: Floats = np.diag(weights @ p) - p.T @ (weights[:, None] * p)
    return info


def _connected(n: int, edges: Iterable[tuple[int, int]], directed: bool) -> bool:
    """Whether every node reaches every other (strongly, when ``directed``)."""
    forward: list[set[int]] = [set() for _ in range(n)]
    backward: list[set[int]] = [set() for _ in range(n)]
    for a, b in edges:
        forward[a].add(b)
        backward[b].add(a)
        if not directed:
            forward[b].add(a)
            backward[a].add(b)

    def reach(graph: list[set[int]]) -> int:
        seen, stack = {0}, [0]
        while stack:
            for nxt in graph[stack.pop()] - seen:
                seen.add(nxt)
                stack.append(nxt)
        return len(seen)

    return n <= 1 or (reach(forward) == n and reach(backward) == n)


# Ties (a shared place, the players ranked last together after dropping out): a tied group counts the
# geometric mean of the probabilities of all its orders, i.e. the average log-likelihood over the
# orders. For two players that is exactly half a win and half a loss, ``sqrt(p (1 - p))``, the draw of
# fit_ratings' prior. Its log is ``sum(log gamma_i for i in the group) - sum over k of the mean, over
# the k-subsets S of the group already chosen, of log(gamma of the players left but S)``, so a tie of
# ``m`` players costs ``2**m - 1`` terms (games of at most 10 players: at most 1023).
#
# The prior shrinks rating differences a little, more so in short tournaments; with two players and
# colour-symmetric results the fit equals fit_ratings with the same prior.
#
# Fitting (Hunter 2004, "MM algorithms for generalized Bradley–Terry models", section 5): the log-
# likelihood is ``sum_i W_i theta_i - sum_t w_t log(sum_j c_tj gamma_j)`` with ``theta = log gamma``,
# ``W_i`` the weight of the places ``i`` was chosen for and one term ``t`` (weight ``w_t``, seat
# counts ``c_t``) per choice. Each ``-log x`` is minorised by its tangent at the current ``x``, which
# gives the update ``gamma_i <- W_i / sum_t (w_t c_ti / Gamma_t)``; every step raises the likelihood,
# and it converges to the unique maximum when the comparisons connect every agent in both directions
# (Hunter's assumption 1; with a prior, when the agents that met form one group).
#
# Error bars: the observed information (the negative Hessian of the log-posterior in ``theta``, exact:
# ``sum_t w_t (diag(p_t) - p_t p_t^T)`` with ``p_t`` the choice probabilities of term ``t``) at the
# maximum, with the anchor's rating fixed at 0; its inverse is the covariance of every rating's
# difference to the anchor, as in fit_ratings. The bootstrap resamples units: percentile intervals,
# covariance of the replicates.
def fit_plackett_luce(rankings: Iterable[Ranking], names: Sequence[str] | None = None, anchor: str | None = None, *,
                      prior_draws: float = 2.0, groups: Sequence[Hashable] | None = None, bootstrap: int = 0,
                      seed: int = 0) -> RatingFit:
    """Plackett–Luce ratings on the Elo scale from the rankings of free-for-all games.

    Args:
        rankings: (the agents' names per seat, their places per seat), places being any
            numbers where smaller is better and equal is a shared place (a game's ``ranking``).
        names: the agents to rate (default: those in ``rankings``); one who never played
            gets ``nan``.
        anchor: the agent fixed at 0 (default: the first name).
        prior_draws: virtual two-player ties per two agents that met, which keep every
            rating finite (0: the maximum likelihood, which needs every agent to have placed
            both above and below the others, through some chain of games).
        groups: each ranking's unit for the bootstrap (default: every ranking its own).
        bootstrap: B > 0 gives 95% intervals from B refits on units drawn with replacement;
            0 gives them from the observed information.
        seed: seeds the bootstrap.

    Returns:
        A :class:`~.stats.RatingFit`, best first, whose ``first_player_advantage`` and
        ``draw_nu`` are ``nan``: this model has neither.
    """
    games = [(list(seats), list(places)) for seats, places in rankings]
    names, anchor = _check(games, names, anchor, prior_draws, bootstrap)
    index = {n: i for i, n in enumerate(names)}
    played = sorted({index[s] for seats, _ in games for s in seats})
    if anchor not in {names[i] for i in played}:
        raise DonutsError(f"the anchor {anchor!r} played no game")
    if len(played) < 2:
        raise DonutsError("ratings need games between at least two agents")
    local = {agent: k for k, agent in enumerate(played)}  # the fit is over agents that played
    n, a = len(played), local[index[anchor]]
    item_of = {names[i]: k for i, k in local.items()}
    per_game, prior = _likelihood(games, item_of, n, prior_draws)

    def solve(multiplicity: Sequence[float], start: Floats | None = None) -> tuple[Floats, Floats, Floats]:
        total = _Terms(n)
        total.add(prior)
        for terms, times in zip(per_game, multiplicity, strict=True):
            if times:
                total.add(terms, times)
        numerator, counts, weights = total.arrays()
        return _mm(numerator, counts, weights, a, start), counts, weights

    theta, counts, weights = solve([1] * len(per_game))
    keep = [k for k in range(n) if k != a]
    info = _information(theta, counts, weights)[np.ix_(keep, keep)]
    try:
        cov_fit = np.linalg.inv(info) * _ELO_PER_NAT**2
    except np.linalg.LinAlgError:
        cov_fit = np.full((n - 1, n - 1), np.inf)
    elo = theta * _ELO_PER_NAT
    half = np.zeros(n)
    half[keep] = _Z_95 * np.sqrt(np.maximum(np.diag(cov_fit), 0.0))
    lower, upper = elo - half, elo + half
    intervals = "observed information"
    if bootstrap:
        cov_fit, lower, upper = _bootstrap(solve, theta, per_game, groups, bootstrap, seed, keep)
        intervals = f"bootstrap over units ({bootstrap} resamples)"
    cov = np.full((len(names), len(names)), np.nan)
    cov[np.ix_(played, played)] = 0.0
    kept = [played[k] for k in keep]
    cov[np.ix_(kept, kept)] = cov_fit
    seats_played, score = _scores(games, names)
    ratings = [Rating(name, math.nan, math.nan, math.nan, 0, 0.0) if i not in local else
               Rating(name, float(elo[local[i]]), float(lower[local[i]]), float(upper[local[i]]), seats_played[i],
                      score[i] / seats_played[i]) for i, name in enumerate(names)]
    ratings.sort(key=lambda r: (math.isnan(r.elo), 0.0 if math.isnan(r.elo) else -r.elo))
    return RatingFit(ratings, math.nan, math.nan, cov, names, model=MODEL, intervals=intervals)


def _check(rankings: list[tuple[list[str], list[float]]], names: Iterable[str] | None, anchor: str | None, prior_draws: float,
           bootstrap: int) -> tuple[list[str], str]:
    """(names, anchor) of a fit, every argument checked."""
    listed = sorted({x for seats, _ in rankings for x in seats}) if names is None else list(names)
    if len(listed) < 2:
        raise DonutsError("ratings need at least two agents")
    anchor = listed[0] if anchor is None else anchor
    if anchor not in listed:
        raise DonutsError(f"anchor {anchor!r} is not one of the agents")
    if not prior_draws >= 0:
        raise DonutsError(f"prior_draws must be >= 0, got {prior_draws!r}")
    if bootstrap != 0 and (not is_int(bootstrap) or bootstrap < 2):
        raise DonutsError(f"bootstrap must be 0 (intervals from the observed information) or at least 2, got {bootstrap!r}")
    if bootstrap and not prior_draws > 0:
        raise DonutsError("bootstrap intervals need prior_draws > 0 (a resample may leave a rating infinite)")
    known = set(listed)
    for seats, places in rankings:
        if len(seats) != len(places) or len(seats) < 2:
            raise DonutsError(f"a ranking needs one place per seat and at least 2 seats, got {seats} and {places}")
        unknown = [s for s in seats if s not in known]
        if unknown:
            raise DonutsError(f"ranking names an agent that is not rated: {unknown[0]!r}")
    return listed, anchor


def _likelihood(rankings: list[tuple[list[str], list[float]]], item_of: dict[str, int], n: int, prior_draws: float
                ) -> tuple[list[_Terms], _Terms]:
    """(the terms of every game, the prior's terms) over the ``n`` agents that played
    (``item_of`` numbers them); refuses data whose ratings are not all finite."""
    per_game: list[_Terms] = []
    met: set[tuple[int, int]] = set()
    above: set[tuple[int, int]] = set()
    for seats, ranks in rankings:
        items = [item_of[s] for s in seats]
        places = places_from_ranks(ranks)
        terms = _Terms(n)
        terms.ranking(items, places)
        per_game.append(terms)
        for x, px in zip(items, places, strict=True):
            for y, py in zip(items, places, strict=True):
                if x != y:
                    met.add((min(x, y), max(x, y)))
                    if px <= py:
                        above.add((x, y))
    prior = _Terms(n)
    if prior_draws > 0:
        if not _connected(n, met, directed=False):
            raise DonutsError("ratings need every agent linked to every other through games played together")
        for x, y in met:
            prior.ranking([x, y], [0, 0], prior_draws)
    elif not _connected(n, above, directed=True):
        raise DonutsError("without a prior the ratings are infinite: some agents placed above (or below) all the "
                          "others they met, through every chain of games; use prior_draws > 0")
    return per_game, prior


def _bootstrap(solve: _Solve, theta: Floats, per_game: list[_Terms], groups: Sequence[Hashable] | None, resamples: int,
               seed: int, keep: list[int]) -> tuple[Floats, Floats, Floats]:
    """(covariance, lower, upper) of the ratings over ``resamples`` refits on units drawn
    with replacement."""
    unit_of: list[Hashable] = list(range(len(per_game))) if groups is None else list(groups)
    if len(unit_of) != len(per_game):
        raise DonutsError(f"groups needs one unit per ranking, got {len(unit_of)} for {len(per_game)}")
    units = sorted(set(unit_of), key=str)
    members = {u: [i for i, g in enumerate(unit_of) if g == u] for u in units}
    rng = random.Random(check_int("seed", seed))
    replicates: list[Floats] = []
    for _ in range(resamples):
        multiplicity = [0] * len(per_game)
        for _ in units:
            for i in members[units[rng.randrange(len(units))]]:
                multiplicity[i] += 1
        boot, _, _ = solve(multiplicity, start=theta)
        replicates.append(boot * _ELO_PER_NAT)
    draws = np.array(replicates)
    lower = np.percentile(draws, _LOWER_PERCENTILE, axis=0)
    upper = np.percentile(draws, _UPPER_PERCENTILE, axis=0)
    cov = np.atleast_2d(np.cov(draws[:, keep], rowvar=False))
    return cov, lower, upper


def _scores(rankings: list[tuple[list[str], list[float]]], names: list[str]) -> tuple[list[int], list[float]]:
    """Per agent: seats played, and the opponents' seats it placed above (a tie: half)."""
    index = {n: i for i, n in enumerate(names)}
    games, score = [0] * len(names), [0.0] * len(names)
    for seats, places in rankings:
        others = len(seats) - 1
        for s, name in enumerate(seats):
            beaten = sum(1.0 if places[s] < p else 0.5 if places[s] == p else 0.0
                         for t, p in enumerate(places) if t != s)
            games[index[name]] += 1
            score[index[name]] += beaten / others
    return games, score
