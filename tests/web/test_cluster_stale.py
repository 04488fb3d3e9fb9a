"""A worker that lost its games without knowing (paused, cut off from the database) serves
no stale state and writes nothing to them, and one game lost in a batch of writes costs
only that game (issue 28). On a throwaway PostgreSQL; skipped where it is not installed."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text
from starlette.testclient import TestClient
from wsutil import FAST, PgServer, hello, recv_until

from chkobba.store import MoveRow, SeatRow, Store, StoredGame
from chkobba.store.hints import hints_of
from chkobba.store.store import now
from chkobba.web.app import create_app
from chkobba.web.cluster import NotOwner, Ownership, lock_key


def stored(code: str) -> StoredGame:
    return StoredGame(
        id=code, kind="room", status="playing", rules="chkobba", options={}, seats=2,
        teams=False, seed=1, created_at=now(), seat_rows=[SeatRow(0), SeatRow(1)],
    )  # fmt: skip


def end_holders_session(store: Store, code: str) -> None:
    """End the database session that holds the game's lock, as an operator (or a network
    cut) would: its worker goes on as if it still held the game."""
    a, b = lock_key(code)
    with store.engine.begin() as conn:
        ended = conn.execute(
            text(
                "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory'"
                " AND classid::bigint = :a AND objid::bigint = :b AND granted"
            ),
            {"a": a, "b": b},
        ).all()
    assert ended == [(True,)], ended


def closed_with(ws: Any) -> int:
    for _ in range(50):
        msg = ws.receive()
        if msg["type"] == "websocket.close":
            return int(msg["code"])
    raise AssertionError("the connection was not closed")


def test_one_lost_game_in_a_batch_costs_only_that_game(pg_server: PgServer) -> None:
    url = pg_server.new_database()
    store = Store(url)
    store.migrate()
    for code in ("AAAAAA", "BBBBBB"):
        store.create_game(stored(code))
    a = Ownership(store, "a")
    lost: list[set[str]] = []
    a.on_lost = lost.append
    try:
        assert a.try_own("AAAAAA") and a.try_own("BBBBBB")
        # B is taken over behind the worker's back (its bookkeeping still says it holds B,
        # at an epoch that is no longer B's).
        with store.engine.begin() as conn:
            conn.execute(text("UPDATE leases SET epoch = epoch + 1 WHERE game_id = 'BBBBBB'"))
        batch = [MoveRow("AAAAAA", 0, 0, "keep"), MoveRow("BBBBBB", 0, 0, "keep")]
        with pytest.raises(NotOwner, match="BBBBBB") as refused:
            a.append_moves(batch)
        assert "AAAAAA" not in str(refused.value)
        assert lost == [{"BBBBBB"}]
        assert a.owned == {"AAAAAA"}
        # The game still held takes its move; the whole batch wrote nothing.
        assert store.game("AAAAAA").moves == []  # type: ignore[union-attr]
        a.append_moves(batch[:1])
        assert store.game("AAAAAA").moves == ["keep"]  # type: ignore[union-attr]
        assert store.game("BBBBBB").moves == []  # type: ignore[union-attr]
    finally:
        a.close()
        store.close()


def test_a_worker_that_lost_a_game_serves_no_stale_state(pg_server: PgServer) -> None:
    """Worker a holds a game; its session is ended (a pause, a cut), b takes the game over
    and plays on. A client then says hello to a: a finds it no longer holds the game,
    hands its old clients over (1012) and serves the game as stored, not as it was."""
    url = pg_server.new_database()
    store = Store(url)
    try:
        with (
            TestClient(create_app(url, FAST, worker="a")) as a,
            TestClient(create_app(url, FAST, worker="b")) as b,
        ):
            made = a.post("/api/games", json={"level": "random", "target": 11}).json()
            code, token = made["game"], made["token"]
            with a.websocket_connect("/ws") as old_a:
                before = hello(old_a, code, token)
                end_holders_session(store, code)
                with b.websocket_connect("/ws") as on_b:
                    state = hello(on_b, code, token)
                    for _ in range(3):
                        while not state["legal"]:
                            state, _ = recv_until(on_b, "state")
                        on_b.send_json({"type": "play", "move": state["legal"][0],
                                        "ply": state["ply"], "id": 1})
                        state, _ = recv_until(on_b, "state")
                    played = store.game(code)
                    assert played is not None and len(played.moves) > before["ply"]
                    with a.websocket_connect("/ws") as new_a:
                        fresh = hello(new_a, code, token)
                        assert fresh["ply"] == len(store.game(code).moves)  # type: ignore[union-attr]
                        assert fresh["ply"] > before["ply"]
                    assert closed_with(old_a) == 1012
                    assert closed_with(on_b) == 1012
            assert a.get("/healthz").json()["owned"] == 1
            assert b.get("/healthz").json()["owned"] == 0
    finally:
        store.close()


def test_a_hint_is_not_noted_by_a_worker_that_lost_the_game(pg_server: PgServer) -> None:
    url = pg_server.new_database()
    store_a, store_b = Store(url), Store(url)
    store_a.migrate()
    store_a.create_game(stored("AAAAAA"))
    a, b = Ownership(store_a, "a"), Ownership(store_b, "b")
    try:
        assert a.try_own("AAAAAA")
        with pytest.raises(NotOwner):
            b.add_hint("AAAAAA", 3, 0)
        assert hints_of(store_a, "AAAAAA") == []
        assert a.add_hint("AAAAAA", 3, 0)
        assert not a.add_hint("AAAAAA", 3, 0)  # once per seat and ply, the session unharmed
        assert a.add_hint("AAAAAA", 4, 0)
        assert hints_of(store_a, "AAAAAA") == [(3, 0), (4, 0)]
    finally:
        a.close()
        b.close()
        store_a.close()
        store_b.close()
