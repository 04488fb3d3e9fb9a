"""The statistics of a duel: means with their error, Elo, percentiles, a fitted rating.

Everything here is plain arithmetic on lists of numbers, so it can be checked on
known inputs. The 95% intervals use the normal quantile (1.96): a duel has tens
to thousands of pairs, where Student's t and the normal agree to the second
decimal; with fewer than about 30 pairs the intervals are a little too narrow.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

Z95 = NormalDist().inv_cdf(0.975)
"""The two-sided 95% normal quantile, about 1.96."""


def finite_or_none(x: float) -> float | None:
    """``x``, or None when it is infinite or NaN (JSON has no infinities)."""
    return x if math.isfinite(x) else None


@dataclass(frozen=True, slots=True)
class Estimate:
    """A sample mean, its standard error and its 95% interval."""

    mean: float
    se: float
    """The standard error of the mean; infinite from a single value."""
    low: float
    high: float
    n: int
    """How many independent values the mean is taken over."""

    def to_json(self) -> dict[str, Any]:
        """The estimate as JSON (an unknown error is null)."""
        return {
            "mean": self.mean,
            "se": finite_or_none(self.se),
            "ci95": [finite_or_none(self.low), finite_or_none(self.high)],
            "n": self.n,
        }


def mean_estimate(values: Sequence[float]) -> Estimate:
    """The mean of independent values with its standard error and 95% interval.

    The standard error is the sample standard deviation (n − 1 in the
    denominator) over √n.

    >>> e = mean_estimate([1.0, 2.0, 3.0, 4.0])
    >>> e.mean, round(e.se, 4)
    (2.5, 0.6455)
    """
    n = len(values)
    if n == 0:
        raise ValueError("a mean needs at least one value")
    mean = math.fsum(values) / n
    if n == 1:
        return Estimate(mean, math.inf, -math.inf, math.inf, 1)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    se = math.sqrt(var / n)
    return Estimate(mean, se, mean - Z95 * se, mean + Z95 * se, n)


def elo_from_score(score: float) -> float:
    """The Elo difference that predicts this expected score (draws count half).

    ``score = 1 / (1 + 10 ** (-elo / 400))``, solved for ``elo``; a score of 0 or
    1 gives an infinite difference.

    >>> elo_from_score(0.5)
    0.0
    >>> round(elo_from_score(0.75), 1)
    190.8
    """
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def score_from_elo(elo: float) -> float:
    """The expected score of a player rated ``elo`` above the opponent."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@dataclass(frozen=True, slots=True)
class EloEstimate:
    """An Elo difference and its 95% interval, from a score estimate."""

    elo: float
    low: float
    high: float

    def to_json(self) -> dict[str, Any]:
        """The estimate as JSON (an infinite bound is null)."""
        return {
            "estimate": finite_or_none(self.elo),
            "ci95": [finite_or_none(self.low), finite_or_none(self.high)],
        }


def elo_estimate(score: Estimate) -> EloEstimate:
    """The Elo difference for a mean score and its interval, mapped through the Elo curve.

    The Elo curve is increasing, so the score's 95% interval maps to an Elo
    interval with the same coverage; unlike the delta method this keeps the
    interval's natural asymmetry, and a bound beyond 0 or 1 becomes infinite.
    When every value scored the same (a standard error of 0, as two drawn pairs
    give), the normal interval collapses to a point that says nothing of the
    uncertainty: its bounds are then NaN (unknown), not the estimate.

    >>> elo_estimate(mean_estimate([0.5, 0.5])).low
    nan
    """
    if score.se == 0.0:
        return EloEstimate(elo_from_score(score.mean), math.nan, math.nan)
    return EloEstimate(
        elo_from_score(score.mean), elo_from_score(score.low), elo_from_score(score.high)
    )


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100), interpolating linearly between ranks.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50)
    2.5
    """
    if not values:
        raise ValueError("a percentile needs at least one value")
    if not 0.0 <= q <= 100.0:
        raise ValueError(f"a percentile is between 0 and 100, not {q}")
    s = sorted(values)
    pos = (len(s) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


@dataclass(frozen=True, slots=True)
class Meeting:
    """The games between two players: ``score`` is ``a``'s points (a draw is half)."""

    a: int
    b: int
    score: float
    games: float


def fit_elo(
    players: int,
    meetings: Sequence[Meeting],
    anchor: int = 0,
    prior_games: float = 1.0,
    tolerance: float = 1e-9,
    max_iterations: int = 100_000,
) -> list[float]:
    """Elo ratings fitted to all the meetings by maximum likelihood (Bradley–Terry).

    Each player ``i`` has a strength ``g_i = 10 ** (elo_i / 400)`` and is expected
    to score ``g_i / (g_i + g_j)`` against ``j``; draws count as half a win. The
    fit is Hunter's MM iteration. ``prior_games`` adds that many drawn games to
    every meeting, as BayesElo's prior does, so a player who won every game
    still gets a finite rating; 0 fits the data alone. Ratings are shifted so
    that the ``anchor`` player is rated 0.
    """
    if not 0 <= anchor < players:
        raise ValueError(f"the anchor must be a player from 0 to {players - 1}, not {anchor}")
    if prior_games < 0:
        raise ValueError(f"prior_games cannot be negative, not {prior_games}")
    wins = [0.0] * players
    games: list[list[float]] = [[0.0] * players for _ in range(players)]
    for m in meetings:
        if m.a == m.b or not (0 <= m.a < players and 0 <= m.b < players):
            raise ValueError(f"a meeting is between two different players, not {m.a} and {m.b}")
        if not 0.0 <= m.score <= m.games:
            raise ValueError(f"a score of {m.score} in {m.games} games is impossible")
        if m.games == 0:
            continue
        wins[m.a] += m.score + prior_games / 2
        wins[m.b] += m.games - m.score + prior_games / 2
        games[m.a][m.b] += m.games + prior_games
        games[m.b][m.a] += m.games + prior_games
    for i in range(players):
        if not any(games[i]):
            raise ValueError(f"player {i} has played no game: it cannot be rated")
    if not _strongly_connected(players, meetings, prior_games):
        raise ValueError(
            "the ratings are unbounded: some players won every game against the others "
            "(fit with prior_games > 0)"
        )
    strength = [1.0] * players
    for _ in range(max_iterations):
        new = []
        for i in range(players):
            denom = math.fsum(
                games[i][j] / (strength[i] + strength[j]) for j in range(players) if games[i][j]
            )
            new.append(wins[i] / denom)
        # Rescaling leaves the model unchanged and keeps the numbers tame.
        top = max(new)
        new = [g / top for g in new]
        change = max(abs(x - y) for x, y in zip(new, strength, strict=True))
        strength = new
        if change < tolerance:
            break
    else:
        raise ValueError(f"the ratings did not converge in {max_iterations} iterations")
    base = strength[anchor]
    return [400.0 * math.log10(g / base) for g in strength]


def _strongly_connected(players: int, meetings: Sequence[Meeting], prior_games: float) -> bool:
    # The likelihood has a finite maximum exactly when every player can be
    # reached from every other along "scored something against" links (Zermelo).
    beat: list[set[int]] = [set() for _ in range(players)]
    for m in meetings:
        if m.games == 0:
            continue
        if m.score > 0 or prior_games > 0:
            beat[m.a].add(m.b)
        if m.score < m.games or prior_games > 0:
            beat[m.b].add(m.a)
    beaten_by: list[set[int]] = [set() for _ in range(players)]
    for i, js in enumerate(beat):
        for j in js:
            beaten_by[j].add(i)
    return all(len(_reach(0, links)) == players for links in (beat, beaten_by))


def _reach(start: int, links: Sequence[set[int]]) -> set[int]:
    seen = {start}
    todo = [start]
    while todo:
        for j in links[todo.pop()]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    return seen
