"""Duels and tournaments: the Python API behind ``chkobba duel`` and ``chkobba tournament``.

:func:`run_duel` plays duplicate pairs (:mod:`chkobba.duel.play`) on every core
and sums them up in a :class:`DuelResult`; :func:`run_tournament` plays a duel
between every two players and fits one Elo scale to all of them.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args

from chkobba.agents.base import ENGINE_PREFIX
from chkobba.agents.engine import FAULTS
from chkobba.duel.play import DuelSpec, PairOutcome, play_pair, play_pairs
from chkobba.duel.ray_backend import cluster_cpus, play_on_ray, ray_session
from chkobba.duel.stats import (
    EloEstimate,
    Estimate,
    Meeting,
    elo_estimate,
    finite_or_none,
    fit_elo,
    mean_estimate,
    percentile,
)
from chkobba.games.base import Unit, choose_table, describe, game, seating_words

Progress = Callable[[int], None]
"""Told how many more pairs have been played, as they finish."""

MAX_CHUNK = 25
"""At most this many pairs go to a worker at once, so the progress bar moves."""


@dataclass(frozen=True, slots=True)
class Timing:
    """How long one player took per move (every ``choose`` call), in milliseconds."""

    moves: int
    median_ms: float
    p95_ms: float

    @staticmethod
    def of(ms: Sequence[float]) -> Timing:
        """The timing of these calls (NaN figures when there are none)."""
        if not ms:
            return Timing(0, math.nan, math.nan)
        return Timing(len(ms), percentile(ms, 50), percentile(ms, 95))

    def to_json(self) -> dict[str, Any]:
        """The timing as JSON."""
        return {
            "moves": self.moves,
            "median_ms": finite_or_none(self.median_ms),
            "p95_ms": finite_or_none(self.p95_ms),
        }


@dataclass(frozen=True)
class DuelResult:
    """Everything a duel measured; every figure is from A's point of view.

    A game is one round or one match (``unit``). ``wins``, ``draws`` and
    ``losses`` count games by who did better in them (more points per seat, or
    the match won; the fewest points where the rules say so). ``margin`` is the
    mean of A's points minus B's per game and ``score`` A's mean score (a draw
    counts half); both are estimated over pairs, each pair's games averaged
    first, since the games of a pair share their cards. ``elo`` is A's rating
    minus B's, from ``score``.
    """

    a: str
    b: str
    players: int
    unit: Unit
    pairs: int
    seed: int
    rules: Any
    wins: int
    draws: int
    losses: int
    a_points: float
    b_points: float
    rounds: int
    """Rounds played in all (one per game for round games)."""
    margin: Estimate
    score: Estimate
    elo: EloEstimate
    a_timing: Timing
    b_timing: Timing
    pair_margins: tuple[float, ...]
    """Each pair's mean margin, in pair order (for paired comparisons between duels)."""
    game: str = "chkobba"
    teams: bool = False
    """Whether partners played 2 against 2."""
    games: int = 0
    """Games played: one per seating of each pair (two at an even table)."""
    a_faults: tuple[int, ...] = (0, 0, 0, 0)
    """A's faults as an outside engine, per kind of :data:`~chkobba.agents.engine.FAULTS`."""
    b_faults: tuple[int, ...] = (0, 0, 0, 0)

    @staticmethod
    def of(spec: DuelSpec, outcomes: Sequence[PairOutcome]) -> DuelResult:
        """Sum up the pairs of a duel (in pair order)."""
        games = [g for p in outcomes for g in p.games]
        a_ms = [t for p in outcomes for t in p.a_ms]
        b_ms = [t for p in outcomes for t in p.b_ms]
        margins = tuple(p.margin for p in outcomes)
        score = mean_estimate([p.score for p in outcomes])
        return DuelResult(
            a=spec.a,
            b=spec.b,
            players=spec.players,
            unit=spec.unit,
            pairs=len(outcomes),
            seed=spec.seed,
            rules=spec.rules,
            wins=sum(g.score == 1.0 for g in games),
            draws=sum(g.score == 0.5 for g in games),
            losses=sum(g.score == 0.0 for g in games),
            a_points=sum(g.a_points for g in games),
            b_points=sum(g.b_points for g in games),
            rounds=sum(g.rounds for g in games),
            margin=mean_estimate(margins),
            score=score,
            elo=elo_estimate(score),
            a_timing=Timing.of(a_ms),
            b_timing=Timing.of(b_ms),
            pair_margins=margins,
            game=spec.game,
            teams=spec.partners,
            games=len(games),
            a_faults=_sum_faults(p.a_faults for p in outcomes),
            b_faults=_sum_faults(p.b_faults for p in outcomes),
        )

    @property
    def engines(self) -> bool:
        """Whether an outside engine played (its faults are then reported)."""
        return any(n.startswith(ENGINE_PREFIX) for n in (self.a, self.b))

    def faults_line(self) -> str:
        """The engines' faults in one line: ``engine faults: A 2 timeouts, …; B none``."""
        return "engine faults (each move made by the fallback, random): " + "; ".join(
            f"{who} {_faults_words(counts)}"
            for who, name, counts in (("A", self.a, self.a_faults), ("B", self.b, self.b_faults))
            if name.startswith(ENGINE_PREFIX)
        )

    @property
    def lowest_wins(self) -> bool:
        """Whether the fewest points won (the margin is then B's points minus A's)."""
        return game(self.game).lowest_wins(self.rules)

    def to_json(self) -> dict[str, Any]:
        """The result as JSON; only ``timing_ms`` changes from one run to the next."""
        name, options = game(self.game).rules_json(self.rules)
        return {
            "game": self.game,
            "a": self.a,
            "b": self.b,
            "players": self.players,
            "teams": self.teams,
            "unit": self.unit,
            "pairs": self.pairs,
            "games": self.games,
            "seed": self.seed,
            "rules": name,
            "options": options,
            "lowest_wins": self.lowest_wins,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "points": {"a": _whole(self.a_points), "b": _whole(self.b_points)},
            "rounds": self.rounds,
            "margin": self.margin.to_json(),
            "score": self.score.to_json(),
            "elo": self.elo.to_json(),
            "timing_ms": {"a": self.a_timing.to_json(), "b": self.b_timing.to_json()},
            **({"faults": {"a": _faults_json(self.a_faults), "b": _faults_json(self.b_faults)}}
               if self.engines else {}),
        }

    def summary(self) -> list[str]:
        """The result in a few lines of text."""
        g = game(self.game)
        # One round is one deal in either game: "deal" is what both players call it.
        word = "deal" if self.unit == "round" else "match"
        what = "deals" if self.unit == "round" else "matches"
        per = self.games // self.pairs if self.pairs else 2
        sets = "pair" if per == 2 else f"set of {per} seatings"
        if self.pairs != 1:
            sets = sets.replace("pair", "pairs").replace("set ", "sets ")
        seating = seating_words(self.players, self.teams)
        rules = describe(g, self.rules)
        game_name = "" if rules == "chkobba" else f"{rules}, "
        difference = "B − A, the fewest points win" if self.lowest_wins else "A − B"
        m = self.margin
        e = self.elo
        return [
            f"{self.a} (A) vs {self.b} (B): {self.pairs} duplicate {sets} = "
            f"{self.games} {what} ({game_name}{seating}, seed {self.seed})",
            f"A: {self.wins} won, {self.draws} drawn, {self.losses} lost; "
            f"score {100 * self.score.mean:.1f}%",
            f"margin per {word} ({difference}): "
            f"{m.mean:+.3f} (SE {_num(m.se, '.3f')}; "
            f"95% interval {_num(m.low, '+.3f')} to {_num(m.high, '+.3f')})",
            f"Elo of A over B: {_num(e.elo, '+.0f')} "
            + (
                f"(no interval: all {self.pairs} {sets} scored the same)"
                if math.isnan(e.low)
                else f"(95% interval {_num(e.low, '+.0f')} to {_num(e.high, '+.0f')})"
            ),
            f"ms per move: {self.a} (A) median {_num(self.a_timing.median_ms, '.3g')}, "
            f"p95 {_num(self.a_timing.p95_ms, '.3g')}; "
            f"{self.b} (B) median {_num(self.b_timing.median_ms, '.3g')}, "
            f"p95 {_num(self.b_timing.p95_ms, '.3g')}",
            *([self.faults_line()] if self.engines else []),
        ]


    def line(self) -> str:
        """The result in one line: the margin and its interval, Elo, wins, time per move."""
        m = self.margin
        e = self.elo
        return (
            f"{self.a:>9} vs {self.b:<9} {m.mean:+6.3f}  [{_num(m.low, '+.3f')}, "
            f"{_num(m.high, '+.3f')}]  Elo {_num(e.elo, '+6.0f')}  "
            f"W/D/L {self.wins}/{self.draws}/{self.losses}  "
            f"ms/move {self.a} {_num(self.a_timing.median_ms, '.1f')} "
            f"(p95 {_num(self.a_timing.p95_ms, '.1f')}), "
            f"{self.b} {_num(self.b_timing.median_ms, '.2f')} "
            f"(p95 {_num(self.b_timing.p95_ms, '.2f')})"
        )


def _sum_faults(counts: Iterable[tuple[int, ...]]) -> tuple[int, ...]:
    total = [0] * len(FAULTS)
    for c in counts:
        for i, n in enumerate(c):
            total[i] += n
    return tuple(total)


def _faults_json(counts: Sequence[int]) -> dict[str, int]:
    return dict(zip(FAULTS, counts, strict=True))


def _faults_words(counts: Sequence[int]) -> str:
    words = {
        "timeout": ("timeout", "timeouts"),
        "garbage": ("garbled answer", "garbled answers"),
        "illegal": ("illegal move", "illegal moves"),
        "crash": ("crash", "crashes"),
    }
    said = [f"{n} {words[k][n != 1]}" for k, n in zip(FAULTS, counts, strict=True) if n]
    return ", ".join(said) if said else "none"


def _whole(x: float) -> float | int:
    # Points per seat are whole at a table of two, or of partners: print them so.
    return int(x) if x.is_integer() else x


def _num(x: float, fmt: str) -> str:
    if math.isnan(x):
        return "n/a"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return format(x, fmt)


def check_player(name: str, game_name: str = "chkobba") -> None:
    """Raise :class:`~chkobba.agents.AgentError` (naming the game's players) for a name
    that is not one of the game's players."""
    game(game_name).check_player(name)


def duel_spec(
    a: str,
    b: str,
    seed: int = 0,
    players: int | None = None,
    unit: Unit = "round",
    target: int | None = None,
    rules: Any = None,
    save_dir: str | Path | None = None,
    game_name: str = "chkobba",
    teams: bool | None = None,
) -> DuelSpec:
    """Check a duel's settings and bundle them; bad settings raise ``ValueError``.

    ``rules`` is the game's rule set (default: the game's own, Chkobba's for the
    Chkobba family); ``target`` overrides its match target. Without ``players``
    the table is 2 players where the rules allow it, else their first table; 4
    players are 2 against 2 unless ``teams`` is False (or the rules allow only 4
    each for themselves).
    """
    g = game(game_name)
    g.check_player(a)
    g.check_player(b)
    if rules is None:
        rules = g.rules()
    if target is not None:
        rules = g.with_target(rules, target)
    seats, partners = choose_table(g.seatings(rules), players, teams, prefer_teams=True)
    g.check_table(rules, seats, partners)
    if unit not in get_args(Unit):
        raise ValueError(f"a duel's unit is 'round' or 'match', not {unit!r}")
    folder = None if save_dir is None else str(save_dir)
    return DuelSpec(a, b, seats, unit, seed, rules, folder, g.name, partners)


def run_duel(
    a: str,
    b: str,
    pairs: int,
    seed: int = 0,
    players: int | None = None,
    unit: Unit = "round",
    target: int | None = None,
    rules: Any = None,
    jobs: int | None = None,
    save_dir: str | Path | None = None,
    progress: Progress | None = None,
    ray: str | None = None,
    game_name: str = "chkobba",
    teams: bool | None = None,
) -> DuelResult:
    """Play ``pairs`` duplicate pairs of ``a`` against ``b`` and measure the difference.

    Each pair plays the same shuffles once per seating (:mod:`chkobba.duel.play`):
    twice at an even table, A in seat 0 then in seat 1 (with 4 players, A and A
    partners against B and B), three times at a table of three. ``game_name``
    is ``chkobba`` (any preset, given as ``rules``) or ``touti``; the table is
    chosen as :func:`duel_spec` says. ``jobs`` worker processes share the pairs
    (default: one per core); the result does not depend on ``jobs`` because each
    pair depends only on ``seed`` and its index. With ``save_dir`` every game is
    saved there as a record (chkobba-record/1 or touti-record/1). With ``ray``
    (an address, see :mod:`chkobba.duel.ray_backend`) the pairs are Ray tasks
    instead, with the same result; ``jobs`` then only sizes a ``local`` instance.
    """
    spec = duel_spec(a, b, seed, players, unit, target, rules, save_dir, game_name, teams)
    if pairs < 1:
        raise ValueError(f"a duel needs at least one pair, not {pairs}")
    if save_dir is not None:
        Path(save_dir).mkdir(parents=True, exist_ok=True)
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if ray is not None:
        with ray_session(ray, cpus=jobs):
            outcomes = play_on_ray(spec, chunk_pairs(pairs, cluster_cpus()), progress)
    else:
        outcomes = play_all(spec, pairs, jobs, progress)
    return DuelResult.of(spec, outcomes)


def chunk_pairs(pairs: int, workers: int) -> list[list[int]]:
    """Pair indices 0 to ``pairs - 1`` in chunks, about four per worker, in order."""
    size = max(1, min(MAX_CHUNK, math.ceil(pairs / (workers * 4))))
    return [list(range(k, min(k + size, pairs))) for k in range(0, pairs, size)]


def play_all(
    spec: DuelSpec, pairs: int, jobs: int | None = None, progress: Progress | None = None
) -> list[PairOutcome]:
    """Play pairs 0 to ``pairs - 1`` on ``jobs`` processes; the outcomes in pair order."""
    if jobs is None:
        jobs = os.cpu_count() or 1
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    jobs = min(jobs, pairs)
    if jobs == 1:
        # In this process: no start-up cost, and players registered at run time work.
        out = []
        for i in range(pairs):
            out.append(play_pair(spec, i))
            if progress is not None:
                progress(1)
        return out
    chunks = chunk_pairs(pairs, jobs)
    results: list[PairOutcome] = []
    pool = ProcessPoolExecutor(max_workers=jobs)
    try:
        futures: dict[Future[list[PairOutcome]], int] = {
            pool.submit(play_pairs, spec, chunk): len(chunk) for chunk in chunks
        }
        for f in as_completed(futures):
            results.extend(f.result())
            if progress is not None:
                progress(futures[f])
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    results.sort(key=lambda p: p.index)
    return results


@dataclass(frozen=True)
class TournamentResult:
    """A round robin of duels and one Elo scale fitted to all their games.

    ``ratings[i]`` is player ``i``'s Elo, fitted by maximum likelihood to every
    game of every duel (draws count half, one virtual drawn game per duel as a
    prior), with ``anchor`` rated 0.
    """

    names: tuple[str, ...]
    duels: tuple[DuelResult, ...]
    ratings: tuple[float, ...]
    anchor: str

    def duel(self, i: int, j: int) -> DuelResult:
        """The duel between players ``i`` and ``j`` (in either order)."""
        for d in self.duels:
            if {d.a, d.b} == {self.names[i], self.names[j]}:
                return d
        raise KeyError(f"no duel between {self.names[i]} and {self.names[j]}")

    def margin(self, i: int, j: int) -> float:
        """Player ``i``'s mean margin per game against player ``j``."""
        d = self.duel(i, j)
        return d.margin.mean if d.a == self.names[i] else -d.margin.mean

    def points(self, i: int) -> tuple[float, int]:
        """Player ``i``'s score over all its games (a draw counts half) and its game count."""
        score = 0.0
        games = 0
        for d in self.duels:
            if d.a == self.names[i]:
                score += d.wins + d.draws / 2
            elif d.b == self.names[i]:
                score += d.losses + d.draws / 2
            else:
                continue
            games += d.games
        return score, games

    def to_json(self) -> dict[str, Any]:
        """The tournament as JSON: the table, the ratings and every duel."""
        n = len(self.names)
        return {
            "players": list(self.names),
            "anchor": self.anchor,
            "table": [
                {
                    "player": self.names[i],
                    "margin": {self.names[j]: self.margin(i, j) for j in range(n) if j != i},
                    "score": self.points(i)[0],
                    "games": self.points(i)[1],
                    "elo": self.ratings[i],
                }
                for i in range(n)
            ],
            "duels": [d.to_json() for d in self.duels],
        }

    def table(self) -> list[str]:
        """The table as text: mean margin against each opponent, total score, Elo."""
        n = len(self.names)
        width = max(8, *(len(s) for s in self.names))
        scores = []
        for i in range(n):
            score, games = self.points(i)
            scores.append(f"{score:g}/{games} {100 * score / games:3.0f}%")
        score_width = max(len("score"), *(len(s) for s in scores))
        head = ["player".ljust(width)]
        head += [s.rjust(width) for s in self.names]
        head += ["score".rjust(score_width), "elo".rjust(6)]
        lines = ["  ".join(head)]
        for i in sorted(range(n), key=lambda i: -self.ratings[i]):
            row = [self.names[i].ljust(width)]
            for j in range(n):
                cell = "—" if i == j else f"{self.margin(i, j):+.2f}"
                row.append(cell.rjust(width))
            row += [scores[i].rjust(score_width), f"{self.ratings[i]:+.0f}".rjust(6)]
            lines.append("  ".join(row))
        lines.append(
            f"(margin: the row player's mean points minus the column player's per game; "
            f"Elo fitted to all games, {self.anchor} = 0)"
        )
        for i, name in enumerate(self.names):
            if name.startswith(ENGINE_PREFIX):
                lines.append(f"engine faults of {name}: {_faults_words(self.faults(i))}")
        return lines

    def faults(self, i: int) -> tuple[int, ...]:
        """Player ``i``'s faults as an outside engine over all its duels, per kind."""
        return _sum_faults(
            d.a_faults if d.a == self.names[i] else d.b_faults
            for d in self.duels
            if self.names[i] in (d.a, d.b)
        )


def run_tournament(
    names: Sequence[str],
    pairs: int,
    seed: int = 0,
    players: int | None = None,
    unit: Unit = "round",
    target: int | None = None,
    rules: Any = None,
    jobs: int | None = None,
    progress: Progress | None = None,
    ray: str | None = None,
    game_name: str = "chkobba",
    teams: bool | None = None,
) -> TournamentResult:
    """A duel of ``pairs`` pairs between every two of ``names``, and Elo ratings for all.

    Every duel uses the same ``seed``, hence the same shuffles, so the players
    are compared on the same cards. The ratings are anchored at ``random`` if it
    plays, else at the first player. With ``ray`` every duel runs on that Ray
    cluster, connected once for the whole tournament.
    """
    if len(names) < 2:
        raise ValueError("a tournament needs at least two players")
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValueError(f"each player plays once in a tournament: {', '.join(dupes)} repeated")
    for name in names:
        check_player(name, game_name)
    # Every setting is checked once, before the first duel starts.
    duel_spec(names[0], names[1], seed, players, unit, target, rules, None, game_name, teams)
    duels: list[DuelResult] = []
    meetings: list[Meeting] = []
    # Connected once for the whole tournament; every duel reuses the connection.
    with nullcontext() if ray is None else ray_session(ray, cpus=jobs):
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                d = run_duel(
                    names[i],
                    names[j],
                    pairs,
                    seed=seed,
                    players=players,
                    unit=unit,
                    target=target,
                    rules=rules,
                    jobs=jobs,
                    progress=progress,
                    ray=ray,
                    game_name=game_name,
                    teams=teams,
                )
                duels.append(d)
                meetings.append(Meeting(i, j, d.wins + d.draws / 2, d.games))
    anchor = names.index("random") if "random" in names else 0
    ratings = fit_elo(len(names), meetings, anchor=anchor)
    return TournamentResult(tuple(names), tuple(duels), tuple(ratings), names[anchor])
