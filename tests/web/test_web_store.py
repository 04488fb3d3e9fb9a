"""The store on each backend: migrations, games, seats, moves, and bad URLs."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest

from chkobba.store import Finish, MoveRow, SeatRow, Store, StoredGame, StoreError, normalise_url


def game(gid: str) -> StoredGame:
    return StoredGame(
        id=gid,
        kind="room",
        status="open",
        rules="chkobba",
        options={"target": 11},
        seats=2,
        teams=False,
        seed=(1 << 62) - 1,
        created_at=dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC),
        seat_rows=[SeatRow(0, "Amel", hashlib.sha256(gid.encode()).hexdigest()), SeatRow(1)],
    )


def test_store_round_trip(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.migrate()
        store.migrate()  # a second run finds nothing to do
        store.create_game(game("AAAAAA"))
        store.create_game(game("BBBBBB"))
        store.update_seats("AAAAAA", [SeatRow(1, None, None, "random")], "playing")
        store.append_moves([MoveRow("AAAAAA", 0, 1, "keep"), MoveRow("BBBBBB", 0, 0, "table")])
        store.append_moves([MoveRow("AAAAAA", 1, 1, "Qh:7d+Ah")])
        with pytest.raises(Exception):  # noqa: B017 - the driver's own integrity error
            store.append_moves([MoveRow("AAAAAA", 1, 0, "5s")])
        a = store.game("AAAAAA")
        assert a is not None
        assert a.moves == ["keep", "Qh:7d+Ah"]
        assert a.status == "playing" and a.options == {"target": 11}
        assert a.seed == (1 << 62) - 1
        assert a.created_at == dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC)
        assert [(r.name, r.agent) for r in a.seat_rows] == [("Amel", None), (None, "random")]
        assert {g.id for g in store.unfinished_games()} == {"AAAAAA", "BBBBBB"}
        store.append_moves([], [Finish("AAAAAA", 1, [3, 12])])
        assert [g.id for g in store.unfinished_games()] == ["BBBBBB"]
        done = store.finished_games()
        assert [(g.id, g.winner, g.totals) for g in done] == [("AAAAAA", 1, [3, 12])]
        assert done[0].finished_at is not None
        assert store.count_games() == {"finished": 1, "open": 1}
        assert store.game("CCCCCC") is None
    finally:
        store.close()


def test_database_urls() -> None:
    assert normalise_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert normalise_url("sqlite:////tmp/x.db") == "sqlite:////tmp/x.db"
    with pytest.raises(StoreError, match="unsupported database"):
        normalise_url("mysql://u@h/db")
    with pytest.raises(StoreError, match="not a database URL"):
        normalise_url("just words")


def test_manual_checkpoints_on_sqlite(sqlite_url: str) -> None:
    store = Store(sqlite_url, manual_checkpoints=True)
    try:
        store.migrate()
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        store.create_game(game("AAAAAA"))
        store.checkpoint()
        assert store.game("AAAAAA") is not None
    finally:
        store.close()
