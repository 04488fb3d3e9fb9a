"""Leases on a cluster's games, and the fence every write of a game goes through.

A cluster worker holds a game by a row of ``leases``: its name (``owner``), an expiry on
the database's clock (``expires_at``) that it pushes back every second or so for all its
games in one statement (:func:`renew`), and an ``epoch`` that grows by one at each
take-over (:func:`take`). Every write of a game's rows runs in a transaction that first
calls :func:`fence` with the epoch the writer holds the game under: it locks the game's
lease row (``FOR SHARE``) and refuses the write (:class:`StaleEpoch`, nothing written)
unless the row still names this writer at that epoch. A take-over updates the same row,
so it waits for a write in progress and the write waits for a take-over in progress: a
write either lands before the new holder reads the game, or is refused.

These functions take a connection in a transaction (PostgreSQL: they use its clock and
row locks); :class:`chkobba.web.cluster.Ownership` calls them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Final

from sqlalchemy import text
from sqlalchemy.engine import Connection

LEASE_SECONDS: Final = 4.0
"""How long a lease lasts unless renewed: a hung or cut-off worker's games are taken over
this long after its last renewal at most."""


class StaleEpoch(RuntimeError):
    """A write of games the writer no longer holds at the epoch it carries: refused,
    nothing written."""

    def __init__(self, owner: str, codes: Collection[str]) -> None:
        self.codes = set(codes)
        super().__init__(f"worker {owner} does not hold game(s) {', '.join(sorted(codes))}")


def fence(conn: Connection, owner: str, epochs: Mapping[str, int]) -> None:
    """Refuse, by raising :class:`StaleEpoch`, a write of the games of ``epochs`` unless
    ``owner`` holds each at the given epoch; lock their lease rows until the transaction
    ends, so that no take-over slips in between this check and the write.

    The one helper every write of a game's rows calls, in the write's own transaction
    (moves, seats, ends, rematches, hints, the coach's counts, and whatever is added:
    chat, ratings...): see :meth:`chkobba.web.cluster.Ownership.fenced`."""
    if not epochs:
        return
    found: dict[str, int] = dict(
        conn.execute(
            text(
                "SELECT game_id, epoch FROM leases WHERE game_id = ANY(:codes)"
                " AND owner = :owner ORDER BY game_id FOR SHARE"
            ),
            {"codes": sorted(epochs), "owner": owner},
        ).all()
    )
    stale = {code for code, epoch in epochs.items() if found.get(code) != epoch}
    if stale:
        raise StaleEpoch(owner, stale)


def take(conn: Connection, code: str, owner: str, seconds: float = LEASE_SECONDS) -> int | None:
    """Make ``owner`` the game's holder, at the next epoch, for ``seconds``, if nobody
    holds its lease (none yet, let go, or expired); the epoch, or None if the lease is
    still another's (a worker killed with its session gone: its lease runs out first, so
    that a worker only cut off never serves a game another has taken).

    Call it holding the game's advisory lock (web/cluster.py): the lock keeps out the
    workers that do not know leases (during an upgrade), the lease says until when, the
    epoch fences the writes."""
    epoch = conn.execute(
        text(
            "INSERT INTO leases AS l (game_id, owner, epoch, expires_at, pid, backend_start)"
            " SELECT :code, :owner, 1, clock_timestamp() + make_interval(secs => :secs),"
            " pg_backend_pid(), backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()"
            " ON CONFLICT (game_id) DO UPDATE SET owner = excluded.owner,"
            " epoch = l.epoch + 1, expires_at = excluded.expires_at, pid = excluded.pid,"
            " backend_start = excluded.backend_start"
            " WHERE l.owner IS NULL OR l.expires_at < clock_timestamp() RETURNING epoch"
        ),
        {"code": code, "owner": owner, "secs": seconds},
    ).scalar()
    return None if epoch is None else int(epoch)


def renew(
    conn: Connection, owner: str, codes: Collection[str], seconds: float = LEASE_SECONDS
) -> dict[str, int]:
    """Push back the expiry of every game of ``codes`` that ``owner`` still holds, in one
    statement; each such game's epoch (a game missing was taken over, or let go)."""
    if not codes:
        return {}
    rows = conn.execute(
        text(
            "UPDATE leases SET expires_at = clock_timestamp() + make_interval(secs => :secs)"
            " WHERE owner = :owner AND game_id = ANY(:codes) RETURNING game_id, epoch"
        ),
        {"owner": owner, "codes": sorted(codes), "secs": seconds},
    ).all()
    return {str(code): int(epoch) for code, epoch in rows}


def release(conn: Connection, code: str, owner: str, epoch: int) -> None:
    """Let the game go: its lease ends now (if still ``owner``'s at ``epoch``)."""
    conn.execute(
        text(
            "UPDATE leases SET owner = NULL, expires_at = clock_timestamp(), pid = NULL,"
            " backend_start = NULL WHERE game_id = :code AND owner = :owner AND epoch = :epoch"
        ),
        {"code": code, "owner": owner, "epoch": epoch},
    )


def expired_holder(conn: Connection, code: str, lock: tuple[int, int]) -> int | None:
    """The database session (its pid) holding the game's advisory lock ``lock`` under a
    lease that has expired: a hung or cut-off worker's, to be ended so that its games can
    be taken over. None if the lock is free, or held under a live lease, or held by a
    session the lease does not name (a worker that does not know leases, during an
    upgrade: it is never ended)."""
    found = conn.execute(
        text(
            "SELECT k.pid FROM pg_locks k JOIN leases l ON l.game_id = :code"
            " JOIN pg_stat_activity a ON a.pid = k.pid"
            " WHERE k.locktype = 'advisory' AND k.granted AND k.objsubid = 2"
            " AND k.classid::bigint = :a AND k.objid::bigint = :b"
            " AND l.owner IS NOT NULL AND l.expires_at < clock_timestamp()"
            " AND l.pid = k.pid AND l.backend_start = a.backend_start"
        ),
        {"code": code, "a": lock[0], "b": lock[1]},
    ).scalar()
    return None if found is None else int(found)


def end_session(conn: Connection, pid: int) -> bool:
    """End a database session (a hung worker's): its advisory locks are freed at once."""
    return bool(conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid}).scalar())
