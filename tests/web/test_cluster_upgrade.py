"""An upgrade across migration 0012 (leases) while workers run (docs/deploy.md, "Upgrades"):
expand, then contract. Two versions of a worker's ownership on one database: the
previous release's (an advisory lock per game, nothing else) and this one's (the lock and
a lease). On a throwaway PostgreSQL; skipped where it is not installed."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Connection
from wsutil import PgServer

from chkobba.store import MoveRow, SeatRow, Store, StoredGame
from chkobba.store import leases as lease_sql
from chkobba.store.store import now
from chkobba.web.cluster import Ownership, lock_key


class PreviousOwnership:
    """How a worker of the release before 0012 holds and writes games: an advisory lock on
    its own session, each write checked against ``pg_locks``; it knows no lease."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.conn: Connection = store.engine.connect()

    def _key(self, code: str) -> dict[str, int]:
        a, b = lock_key(code)
        return {"a": a, "b": b}

    def try_own(self, code: str) -> bool:
        with self.conn.begin():
            q = text("SELECT pg_try_advisory_lock(:a, :b)")
            return bool(self.conn.execute(q, self._key(code)).scalar_one())

    def release(self, code: str) -> None:
        with self.conn.begin():
            self.conn.execute(text("SELECT pg_advisory_unlock(:a, :b)"), self._key(code))

    def append_moves(self, rows: Sequence[MoveRow]) -> None:
        with self.conn.begin():
            for code in {r.game_id for r in rows}:
                held = self.conn.execute(
                    text(
                        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
                        " AND pid = pg_backend_pid() AND objsubid = 2"
                        " AND classid::bigint = :a AND objid::bigint = :b"
                    ),
                    self._key(code),
                ).scalar_one()
                if not held:
                    raise RuntimeError(f"not held: {code}")
            # The previous release's insert: no epoch (it knows no such column).
            self.store.write_moves(self.conn, rows)

    def close(self) -> None:
        self.conn.invalidate()
        self.conn.close()


def game(code: str) -> StoredGame:
    return StoredGame(
        id=code, kind="room", status="playing", rules="chkobba", options={}, seats=2,
        teams=False, seed=1, created_at=now(), seat_rows=[SeatRow(0), SeatRow(1)],
    )  # fmt: skip


def test_migration_0012_while_a_worker_of_the_previous_release_runs(pg_server: PgServer) -> None:
    """Expand: 0012 only adds (a table, a nullable column), so it is applied while a worker
    of the previous release plays on. While both versions run, one writer per game holds
    across them (both take the game's advisory lock, and a new worker ends only a session
    its own lease names: an old worker is never ended). Contract: once the old workers
    are gone (let go of their games), the new ones take the games over with leases."""
    url = pg_server.new_database()
    old_store, new_store = Store(url), Store(url)
    old_store.migrate("0008")
    for code in ("AAAAAA", "BBBBBB"):
        old_store.create_game(game(code))
    old = PreviousOwnership(old_store)
    new: Ownership | None = None
    try:
        assert old.try_own("AAAAAA")
        old.append_moves([MoveRow("AAAAAA", 0, 0, "keep")])
        # The first new worker starts: 0012 (and the expand steps after it, such as 0013's
        # passkeys), under the old one's feet.
        new_store.migrate()
        with new_store.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() >= "0012"
        old.append_moves([MoveRow("AAAAAA", 1, 1, "keep")])
        new = Ownership(new_store, "new", lease_seconds=0.2)
        # The old worker's game stays its own, even with no lease to say so...
        assert not new.try_own("AAAAAA")
        with new_store.engine.begin() as conn:
            assert lease_sql.expired_holder(conn, "AAAAAA", lock_key("AAAAAA")) is None
        old.append_moves([MoveRow("AAAAAA", 2, 0, "keep")])  # its session was not ended
        # ...and a new worker's game is not the old one's.
        assert new.try_own("BBBBBB")
        assert not old.try_own("BBBBBB")
        # Contract: the old worker lets its game go (a rolling restart); a new one takes it
        # over at epoch 1 and writes under it; the old one can no longer write there.
        old.release("AAAAAA")
        assert new.try_own("AAAAAA") and new.epoch_of("AAAAAA") == 1
        new.append_moves([MoveRow("AAAAAA", 3, 1, "keep")])
        assert not old.try_own("AAAAAA")
        with pytest.raises(RuntimeError, match="not held"):
            old.append_moves([MoveRow("AAAAAA", 4, 0, "keep")])
        with new_store.engine.connect() as conn:
            epochs = conn.execute(
                text("SELECT epoch FROM moves WHERE game_id = 'AAAAAA' ORDER BY ply")
            ).scalars()
            assert list(epochs) == [None, None, None, 1]
        stored = new_store.game("AAAAAA")
        assert stored is not None and stored.moves == ["keep"] * 4
    finally:
        old.close()
        if new is not None:
            new.close()
        old_store.close()
        new_store.close()
