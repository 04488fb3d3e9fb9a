"""The "Play now" queue, in the store's database (migration 0010; docs/deploy.md,
"The Play now queue across workers").

Every worker of a cluster reads and writes the same table, and none keeps any of the
queue in memory: a player may join through one worker and poll through another, and
any worker may pair them. A pairing round (:meth:`Queue.pair`) is one transaction that
locks the waiting entries it reads (``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL:
two workers' rounds never read the same entry, and neither waits for the other), makes
each table's game and marks its players paired, only if each of them is still waiting.
SQLite serves one process, whose store calls run one at a time on one thread; its
rounds are made safe all the same by that last check: an entry no longer waiting
rolls the whole round back. Nobody is ever paired twice.

Nothing here knows the games' rules: the caller builds each table's game
(``build``), the pairing rule is :mod:`chkobba.store.pairing`'s.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection

from chkobba.store.pairing import Waiting, Widening, seat_order, table_size, tables
from chkobba.store.schema import queue_entries
from chkobba.store.store import Store, StoredGame, _aware, now

log = logging.getLogger("chkobba.store")

WAITING: Final = "waiting"
PAIRED: Final = "paired"


class Conflict(RuntimeError):
    """An entry a round meant to pair was no longer waiting: the round is rolled back."""


@dataclass(frozen=True, slots=True)
class Pool:
    """What the players waiting together all asked for: the preset (``pool``, such as
    ``scopa``) of ``game``, the table, rated or casual, and the turn clock."""

    pool: str
    game: str
    seating: str
    rated: bool
    clock: float | None


@dataclass(frozen=True, slots=True)
class Entry:
    """One player in the queue."""

    id: int
    ticket_hash: str
    pool: Pool
    account_id: int | None
    name: str
    rating: float
    status: str
    joined_at: dt.datetime
    seen_at: dt.datetime
    game_id: str | None = None
    seat: int | None = None
    paired_at: dt.datetime | None = None


def _entry(m: Any) -> Entry:
    pool = Pool(m["pool"], m["game"], m["seating"], bool(m["rated"]), m["clock"])
    return Entry(
        id=int(m["id"]),
        ticket_hash=m["ticket_hash"],
        pool=pool,
        account_id=m["account_id"],
        name=m["name"],
        rating=float(m["rating"]),
        status=m["status"],
        joined_at=_aware(m["joined_at"]),
        seen_at=_aware(m["seen_at"]),
        game_id=m["game_id"],
        seat=m["seat"],
        paired_at=_aware(m["paired_at"]) if m["paired_at"] is not None else None,
    )


Build = Callable[[Pool, Sequence[Entry]], StoredGame]
"""Makes the game of a table: its pool and its players in seat order."""


class Queue:
    """The queue of the store ``store`` (synchronous, like :class:`Store`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    def join(
        self,
        ticket_hash: str,
        pool: Pool,
        name: str,
        rating: float,
        account_id: int | None = None,
        at: dt.datetime | None = None,
    ) -> Entry:
        """Put a player in the queue; an account waiting already leaves its older entry
        (one account waits once: it cannot be paired with itself)."""
        stamp = at or now()
        with self.engine.begin() as conn:
            if account_id is not None:
                conn.execute(
                    delete(queue_entries).where(
                        queue_entries.c.account_id == account_id,
                        queue_entries.c.status == WAITING,
                    )
                )
            new_id = conn.execute(
                insert(queue_entries)
                .values(
                    ticket_hash=ticket_hash,
                    pool=pool.pool,
                    game=pool.game,
                    seating=pool.seating,
                    rated=pool.rated,
                    clock=pool.clock,
                    account_id=account_id,
                    name=name,
                    rating=rating,
                    status=WAITING,
                    joined_at=stamp,
                    seen_at=stamp,
                )
                .returning(queue_entries.c.id)
            ).scalar_one()
        return Entry(int(new_id), ticket_hash, pool, account_id, name, rating, WAITING,
                     stamp, stamp)

    def get(self, ticket_hash: str) -> Entry | None:
        """The entry of a ticket (waiting or paired), or None (unknown, cancelled, expired)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(queue_entries).where(queue_entries.c.ticket_hash == ticket_hash)
            ).first()
        return None if row is None else _entry(row._mapping)

    def seen(self, ticket_hash: str, at: dt.datetime | None = None) -> Entry | None:
        """The player's page is still there: their entry, its ``seen_at`` now if waiting."""
        with self.engine.begin() as conn:
            conn.execute(
                update(queue_entries)
                .where(
                    queue_entries.c.ticket_hash == ticket_hash,
                    queue_entries.c.status == WAITING,
                )
                .values(seen_at=at or now())
            )
            row = conn.execute(
                select(queue_entries).where(queue_entries.c.ticket_hash == ticket_hash)
            ).first()
        return None if row is None else _entry(row._mapping)

    def cancel(self, ticket_hash: str) -> Entry | None:
        """Take a waiting player out of the queue. None if they were waiting (or unknown);
        their entry if they were paired already (too late: the game is made)."""
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(queue_entries).where(
                    queue_entries.c.ticket_hash == ticket_hash,
                    queue_entries.c.status == WAITING,
                )
            ).rowcount
            if gone:
                return None
            row = conn.execute(
                select(queue_entries).where(queue_entries.c.ticket_hash == ticket_hash)
            ).first()
        return None if row is None else _entry(row._mapping)

    def expire(self, stale: float, keep_paired: float, at: dt.datetime | None = None) -> int:
        """Delete the waiting entries whose page has not been seen for ``stale`` seconds
        (closed, gone) and the paired ones older than ``keep_paired`` seconds (their
        players have long been told); how many went."""
        stamp = at or now()
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(queue_entries).where(
                    queue_entries.c.status == WAITING,
                    queue_entries.c.seen_at < stamp - dt.timedelta(seconds=stale),
                )
            ).rowcount
            gone += conn.execute(
                delete(queue_entries).where(
                    queue_entries.c.status == PAIRED,
                    queue_entries.c.paired_at < stamp - dt.timedelta(seconds=keep_paired),
                )
            ).rowcount
        return int(gone)

    def waiting(self) -> dict[Pool, int]:
        """How many players wait in each pool."""
        q = (
            select(
                queue_entries.c.pool,
                queue_entries.c.game,
                queue_entries.c.seating,
                queue_entries.c.rated,
                queue_entries.c.clock,
                func.count(),
            )
            .where(queue_entries.c.status == WAITING)
            .group_by(
                queue_entries.c.pool,
                queue_entries.c.game,
                queue_entries.c.seating,
                queue_entries.c.rated,
                queue_entries.c.clock,
            )
        )
        with self.engine.connect() as conn:
            return {
                Pool(p, g, s, bool(r), c): int(n) for p, g, s, r, c, n in conn.execute(q)
            }

    def pair(
        self,
        build: Build,
        stale: float,
        widening: Widening | None = None,
        at: dt.datetime | None = None,
        rng: random.Random | None = None,
    ) -> list[StoredGame]:
        """One pairing round: make every table :func:`chkobba.store.pairing.tables` allows
        among the entries waiting (and seen within ``stale`` seconds) that no other
        round holds, in one transaction; the games made (stored, their players marked
        paired). :class:`Conflict` if an entry was taken meanwhile (nothing is kept)."""
        stamp = at or now()
        draw = rng or random.SystemRandom()
        made: list[StoredGame] = []
        with self.engine.begin() as conn:
            q = (
                select(queue_entries)
                .where(
                    queue_entries.c.status == WAITING,
                    queue_entries.c.seen_at >= stamp - dt.timedelta(seconds=stale),
                )
                .order_by(queue_entries.c.id)
            )
            if not self.store.is_sqlite:
                # Entries another worker's round holds are skipped, not waited for.
                q = q.with_for_update(skip_locked=True)
            entries = [_entry(r._mapping) for r in conn.execute(q)]
            for pool, members in _by_pool(entries).items():
                size, teams = table_size(pool.seating)
                waiting = [Waiting(e.id, e.rating, e.joined_at.timestamp()) for e in members]
                by_id = {e.id: e for e in members}
                for group in tables(waiting, size, stamp.timestamp(), widening):
                    order = list(range(size))
                    draw.shuffle(order)
                    seated = [by_id[w.id] for w in seat_order(group, teams, order)]
                    try:
                        stored = build(pool, seated)
                    except Exception:
                        # A pool no game can be made of (a preset gone since they
                        # joined): its players are dropped, not left to stall every round.
                        log.exception("no game for pool %s: its players leave the queue", pool)
                        conn.execute(
                            delete(queue_entries).where(
                                queue_entries.c.id.in_([e.id for e in seated])
                            )
                        )
                        continue
                    self.store.insert_game(conn, stored)
                    _mark_paired(conn, seated, stored.id, stamp)
                    made.append(stored)
        return made


def _by_pool(entries: Sequence[Entry]) -> dict[Pool, list[Entry]]:
    """The entries by pool, each account once (its latest entry: two joins at once
    through two workers could both have got in)."""
    latest: dict[int, Entry] = {}
    for e in entries:
        if e.account_id is not None:
            latest[e.account_id] = e  # entries come in id order: the last one stays
    pools: dict[Pool, list[Entry]] = {}
    for e in entries:
        if e.account_id is not None and latest[e.account_id] is not e:
            continue
        pools.setdefault(e.pool, []).append(e)
    return pools


def _mark_paired(
    conn: Connection, seated: Sequence[Entry], game_id: str, at: dt.datetime
) -> None:
    for seat, e in enumerate(seated):
        done = conn.execute(
            update(queue_entries)
            .where(queue_entries.c.id == e.id, queue_entries.c.status == WAITING)
            .values(status=PAIRED, game_id=game_id, seat=seat, paired_at=at)
        ).rowcount
        if done != 1:
            raise Conflict(f"queue entry {e.id} was no longer waiting")
