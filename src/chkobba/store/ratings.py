"""Ratings per pool, with the Weng-Lin Plackett-Luce model of ``openskill`` (migration 0009).

A rated game's end is written in one transaction with its ratings' update
(:func:`settle`, called by :meth:`chkobba.store.Store.write_moves`): either both are
stored or neither. The update is done once per game, however many times its end is
written: the game's row is locked, and a game that already has history rows is not
rated again (a game ended twice, on two workers of a cluster, counts once).

The model rates sides (a team of two in 2 against 2, one player each for themselves)
by their rank in the game, so the same code rates a duel, 2 against 2 and 3 or 4
players. A rating is shown as ``DISPLAY_SCALE × mu`` with ``± 2 sigma`` (a 95%
interval), and is provisional while ``sigma`` is above :data:`PROVISIONAL_SIGMA`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy import Engine, insert, select, update
from sqlalchemy.engine import Connection

from chkobba.store.schema import accounts, games, rating_history, ratings, seats

MODEL: Final = PlackettLuce()
"""The model: mu 25, sigma 25/3, beta 25/6, tau 25/300 (openskill's defaults)."""
DISPLAY_SCALE: Final = 60.0
"""A rating is shown as ``round(DISPLAY_SCALE * mu)``: 1500 for a new player."""
PROVISIONAL_SIGMA: Final = 6.0
"""A rating is provisional while its sigma is above this (it starts at 8.33; about a dozen
duels bring it under)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a rated game's end tells the ratings: its pool, each seat's side and each
    side's rank (0 the best; equal ranks tie)."""

    pool: str
    side_of: tuple[int, ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Shown:
    """A rating as shown: the value, its uncertainty (± 2 sigma) and whether provisional."""

    rating: int
    plus_minus: int
    provisional: bool

    def to_json(self) -> dict[str, Any]:
        """The fields of the JSON API."""
        return {
            "rating": self.rating,
            "plus_minus": self.plus_minus,
            "provisional": self.provisional,
        }


def shown(mu: float, sigma: float) -> Shown:
    """How ``mu`` and ``sigma`` are shown."""
    return Shown(
        round(DISPLAY_SCALE * mu),
        round(2 * DISPLAY_SCALE * sigma),
        sigma > PROVISIONAL_SIGMA,
    )


def side_ranks(
    sides: int, winner: int | None, totals: Sequence[int], loser: int | None = None
) -> tuple[int, ...]:
    """Each side's rank at a game's end: the ``winner`` first, the side that ``loser``
    (resigned, or lost on time) last, the others by their points, most first (equal
    points, equal rank). ``totals`` are the sides' points."""
    if sides < 2:
        raise ValueError("a game has at least two sides")
    points = [totals[s] if s < len(totals) else 0 for s in range(sides)]

    def key(s: int) -> tuple[int, int, int]:
        return (0 if s == winner else 1, 1 if s == loser else 0, -points[s])

    order = sorted(range(sides), key=key)
    ranks = [0] * sides
    for i, s in enumerate(order):
        prev = order[i - 1] if i else None
        ranks[s] = ranks[prev] if prev is not None and key(prev) == key(s) else i
    return tuple(ranks)


def rate(
    teams: Sequence[Sequence[tuple[float, float]]], ranks: Sequence[int]
) -> list[list[tuple[float, float]]]:
    """The new ``(mu, sigma)`` of every player of ``teams`` (each side's players' ratings)
    after a game the sides finished in ``ranks``."""
    rated: list[list[PlackettLuceRating]] = [
        [MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams
    ]
    after = MODEL.rate(rated, ranks=[float(r) for r in ranks])
    return [[(p.mu, p.sigma) for p in team] for team in after]


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _aware(t: dt.datetime) -> dt.datetime:
    # SQLite gives back naive datetimes; they were stored in UTC.
    return t if t.tzinfo is not None else t.replace(tzinfo=dt.UTC)


def settle(conn: Connection, game_id: str, outcome: Outcome) -> bool:
    """Update the ratings of a rated game's players in the caller's transaction (the one
    that writes its end); return whether it rated the game (False: it was rated before,
    or a seat is not an account's, and is then not rated)."""
    locking = conn.dialect.name != "sqlite"  # SQLite has one writer at a time anyway
    lock = select(games.c.id).where(games.c.id == game_id)
    conn.execute(lock.with_for_update() if locking else lock)
    done = conn.execute(
        select(rating_history.c.game_id).where(rating_history.c.game_id == game_id).limit(1)
    ).first()
    if done is not None:
        return False
    held = dict(
        conn.execute(
            select(seats.c.seat, seats.c.account_id).where(seats.c.game_id == game_id)
        ).all()
    )
    owners = [held.get(s) for s in range(len(outcome.side_of))]
    if any(a is None for a in owners) or len(set(owners)) != len(owners):
        return False
    people = sorted(int(a) for a in owners if a is not None)
    stamp = _now()
    for account_id in people:
        exists = conn.execute(
            select(ratings.c.account_id).where(
                ratings.c.account_id == account_id, ratings.c.pool == outcome.pool
            )
        ).first()
        if exists is None:
            conn.execute(
                insert(ratings).values(
                    account_id=account_id,
                    pool=outcome.pool,
                    mu=MODEL.mu,
                    sigma=MODEL.sigma,
                    games=0,
                    wins=0,
                    updated_at=stamp,
                )
            )
    query = select(ratings.c.account_id, ratings.c.mu, ratings.c.sigma).where(
        ratings.c.pool == outcome.pool, ratings.c.account_id.in_(people)
    ).order_by(ratings.c.account_id)
    before = {
        int(r.account_id): (float(r.mu), float(r.sigma))
        for r in conn.execute(query.with_for_update() if locking else query)
    }
    sides = sorted(set(outcome.side_of))
    members = [[s for s, side in enumerate(outcome.side_of) if side == k] for k in sides]
    teams = [[before[int(owners[s] or 0)] for s in team] for team in members]
    after = rate(teams, [outcome.ranks[k] for k in sides])
    best = min(outcome.ranks)
    for k, team in enumerate(members):
        rank = outcome.ranks[sides[k]]
        # A win is first place alone (a tie for first wins nobody anything).
        won = rank == best and sum(1 for r in outcome.ranks if r == best) == 1
        for i, s in enumerate(team):
            account_id = int(owners[s] or 0)
            mu, sigma = after[k][i]
            old_mu, old_sigma = before[account_id]
            conn.execute(
                update(ratings)
                .where(ratings.c.account_id == account_id, ratings.c.pool == outcome.pool)
                .values(
                    mu=mu,
                    sigma=sigma,
                    games=ratings.c.games + 1,
                    wins=ratings.c.wins + (1 if won else 0),
                    updated_at=stamp,
                )
            )
            conn.execute(
                insert(rating_history).values(
                    game_id=game_id,
                    account_id=account_id,
                    pool=outcome.pool,
                    seat=s,
                    rank=rank,
                    won=won,
                    mu_before=old_mu,
                    sigma_before=old_sigma,
                    mu=mu,
                    sigma=sigma,
                    at=stamp,
                )
            )
    return True


@dataclass(frozen=True, slots=True)
class Standing:
    """One account's rating in one pool."""

    name: str
    pool: str
    mu: float
    sigma: float
    games: int
    wins: int

    def to_json(self) -> dict[str, Any]:
        """The fields of the JSON API."""
        return {
            "name": self.name,
            "pool": self.pool,
            **shown(self.mu, self.sigma).to_json(),
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "games": self.games,
            "wins": self.wins,
        }


@dataclass(frozen=True, slots=True)
class Point:
    """One rated game in an account's history."""

    game_id: str
    pool: str
    rank: int
    won: bool
    mu: float
    sigma: float
    at: dt.datetime
    unlisted: bool

    def to_json(self, private: bool) -> dict[str, Any]:
        """The fields of the JSON API; a private game's code is left out for
        ``private`` (someone other than its players)."""
        out: dict[str, Any] = {
            "pool": self.pool,
            "rank": self.rank,
            "won": self.won,
            **shown(self.mu, self.sigma).to_json(),
            "at": self.at.isoformat(),
        }
        if not (self.unlisted and private):
            out["game"] = self.game_id
        return out


class Ratings:
    """Reading the ratings of the store at ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def leaderboard(self, pool: str, limit: int = 100) -> list[Standing]:
        """The pool's players: settled ratings first, then provisional ones, each by mu."""
        provisional = ratings.c.sigma > PROVISIONAL_SIGMA
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(accounts.c.name, ratings)
                .join(accounts, accounts.c.id == ratings.c.account_id)
                .where(ratings.c.pool == pool)
                .order_by(provisional, ratings.c.mu.desc(), accounts.c.name_key)
                .limit(limit)
            ).all()
        return [
            Standing(r.name, r.pool, float(r.mu), float(r.sigma), int(r.games), int(r.wins))
            for r in rows
        ]

    def account_id(self, key: str) -> tuple[int, str] | None:
        """The id and name of the account whose name has this key (case folded)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(accounts.c.id, accounts.c.name).where(accounts.c.name_key == key)
            ).first()
        return None if row is None else (int(row.id), str(row.name))

    def mu(self, account_id: int, pool: str) -> float | None:
        """An account's mu in ``pool``, or None if it has not played a rated game there."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(ratings.c.mu).where(
                    ratings.c.account_id == account_id, ratings.c.pool == pool
                )
            ).scalar()
        return None if found is None else float(found)

    def standings(self, account_id: int) -> list[Standing]:
        """An account's rating in every pool it played in."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(accounts.c.name, ratings)
                .join(accounts, accounts.c.id == ratings.c.account_id)
                .where(ratings.c.account_id == account_id)
            ).all()
        return [
            Standing(r.name, r.pool, float(r.mu), float(r.sigma), int(r.games), int(r.wins))
            for r in rows
        ]

    def history(self, account_id: int, limit: int = 500) -> list[Point]:
        """An account's rated games, oldest first (the last ``limit``)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(rating_history, games.c.unlisted)
                .join(games, games.c.id == rating_history.c.game_id)
                .where(rating_history.c.account_id == account_id)
                .order_by(rating_history.c.at.desc(), rating_history.c.game_id)
                .limit(limit)
            ).all()
        return [
            Point(
                r.game_id, r.pool, int(r.rank), bool(r.won), float(r.mu), float(r.sigma),
                _aware(r.at), bool(r.unlisted),
            )
            for r in reversed(rows)
        ]

    def played(self, account_id: int) -> tuple[int, int]:
        """How many finished games the account played, and how many its side won."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(seats.c.seat, games.c.teams, games.c.winner)
                .join(games, games.c.id == seats.c.game_id)
                .where(seats.c.account_id == account_id, games.c.status == "finished")
            ).all()
        # A seat's side: its own, or seat % 2 at 2 against 2 (the partners face each other).
        won = sum(
            1
            for r in rows
            if r.winner is not None and r.winner == (r.seat % 2 if r.teams else r.seat)
        )
        return len(rows), won

    def recent(self, account_id: int, public_only: bool, limit: int = 20) -> list[dict[str, Any]]:
        """The account's last finished games, newest first, with their players' names and
        whether its side won; with ``public_only``, never a private game."""
        where = [seats.c.account_id == account_id, games.c.status == "finished"]
        if public_only:
            where.append(games.c.unlisted.is_(False))
        with self.engine.connect() as conn:
            found = conn.execute(
                select(
                    games.c.id, games.c.game, games.c.rules, games.c.pool, games.c.teams,
                    games.c.winner, games.c.finished_at, games.c.unlisted, games.c.ending,
                    games.c.resigned, games.c.seats.label("seat_count"), seats.c.seat,
                )
                .join(seats, seats.c.game_id == games.c.id)
                .where(*where)
                .order_by(games.c.finished_at.desc(), games.c.id)
                .limit(limit)
            ).all()
            ids = [r.id for r in found]
            names: dict[str, list[str | None]] = {}
            for row in conn.execute(
                select(seats.c.game_id, seats.c.name, seats.c.agent)
                .where(seats.c.game_id.in_(ids))
                .order_by(seats.c.game_id, seats.c.seat)
            ):
                names.setdefault(row.game_id, []).append(row.name or row.agent)
        out = []
        for r in found:
            side = r.seat % 2 if r.teams else r.seat
            out.append(
                {
                    "game": r.id,
                    "game_name": r.game,
                    "rules": r.rules,
                    "pool": r.pool,
                    "names": names.get(r.id, []),
                    "seat": int(r.seat),
                    "won": r.winner is not None and r.winner == side,
                    "ending": r.ending,
                    # The side that resigned or ran out of time, named as the game's.
                    "resigned": r.resigned,
                    "side_of": [s % 2 if r.teams else s for s in range(int(r.seat_count))],
                    "private": bool(r.unlisted),
                    "finished": _aware(r.finished_at).isoformat() if r.finished_at else None,
                    "replay": f"/replay/{r.id}",
                }
            )
        return out
