"""A cluster's games live their whole life (docs/deploy.md): a game nobody holds is still
abandoned when nobody comes back to it, a held one is let go once abandoned, and every
write of a game (who was seen, the rematch's link, the coach's counts) is fenced by its
lease like the moves. On a throwaway PostgreSQL; skipped where it is not installed."""

from __future__ import annotations

import time
from typing import Any

import pytest
from starlette.testclient import TestClient
from wsutil import PgServer, hello, recv_until

from chkobba.store import Finish, SeatRow, Store, StoredGame
from chkobba.store.store import now
from chkobba.web.app import create_app
from chkobba.web.cluster import NotOwner, Ownership
from chkobba.web.hub import Settings

# The workers look for abandoned games five times a second.
QUICK = Settings(bot_delay=0, rate=10_000, burst=10_000, scan_every=0.2)


def stored(code: str) -> StoredGame:
    return StoredGame(
        id=code, kind="room", status="playing", rules="chkobba", options={}, seats=2,
        teams=False, seed=1, created_at=now(), seat_rows=[SeatRow(0), SeatRow(1)],
    )  # fmt: skip


def rematch_of(ws: Any) -> dict[str, Any]:
    """Ask for a rematch; the ``rematch`` message answering it (a ping after it bounds the
    wait: the server handles a connection's messages in order)."""
    ws.send_json({"type": "rematch"})
    ws.send_json({"type": "ping"})
    _, seen = recv_until(ws, "pong")
    found = [m for m in seen if m["type"] == "rematch"]
    assert found, f"no rematch: {seen}"
    return found[0]


def wait_until(what: str, check: object, seconds: float = 30.0) -> None:
    # A deadline, not a wait: generous, so that a loaded machine only makes it slower.
    deadline = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_a_game_no_worker_holds_is_abandoned(pg_server: PgServer) -> None:
    """Created, never followed: no worker ever loads it, yet one of them ends it as
    abandoned once its ``abandon_after`` is over, and lets it go."""
    url = pg_server.new_database()
    store = Store(url)
    try:
        with (
            TestClient(create_app(url, QUICK, worker="a")) as a,
            TestClient(create_app(url, QUICK, worker="b")) as b,
        ):
            made = a.post("/api/games", json={"level": "random", "abandon_after": 0.3}).json()
            kept = a.post("/api/games", json={"level": "random"}).json()
            # Read from the database: asking a worker for the game would load it.
            wait_until("not abandoned", lambda: store.game(made["game"]).status == "finished")  # type: ignore[union-attr]
            game = store.game(made["game"])
            assert game is not None and game.ending == "abandoned" and game.winner is None
            assert store.game(kept["game"]).status == "playing"  # type: ignore[union-attr]
            assert a.get("/healthz").json()["owned"] == b.get("/healthz").json()["owned"] == 0
    finally:
        store.close()


def test_a_held_game_abandoned_is_let_go(pg_server: PgServer) -> None:
    """A game its worker holds is abandoned by its timer, written through the worker's
    fenced session, and its lock released like a finished game's."""
    url = pg_server.new_database()
    store = Store(url)
    try:
        with TestClient(create_app(url, QUICK, worker="a")) as a:
            # Long enough that a loaded machine cannot abandon the game before the player
            # has even come in (its timer runs from the game's creation until then).
            made = a.post("/api/games", json={"level": "random", "abandon_after": 3}).json()
            with a.websocket_connect("/ws") as ws:
                hello(ws, made["game"], made["token"])
                assert a.get("/healthz").json()["owned"] == 1
            wait_until("not abandoned", lambda: store.game(made["game"]).status == "finished")  # type: ignore[union-attr]
            assert store.game(made["game"]).ending == "abandoned"  # type: ignore[union-attr]
            wait_until("still held", lambda: a.get("/healthz").json()["owned"] == 0)
    finally:
        store.close()


def test_every_write_of_a_game_is_fenced(pg_server: PgServer) -> None:
    url = pg_server.new_database()
    store_a, store_b = Store(url), Store(url)
    store_a.migrate()
    for code in ("AAAAAA", "BBBBBB", "CCCCCC"):
        store_a.create_game(stored(code))
    a, b = Ownership(store_a, "a"), Ownership(store_b, "b")
    try:
        assert a.try_own("AAAAAA")
        with pytest.raises(NotOwner):
            b.mark_seen("AAAAAA", [0], now())
        with pytest.raises(NotOwner):
            b.count_use("AAAAAA", 0, "hints")
        with pytest.raises(NotOwner):
            b.link_rematch("AAAAAA", "BBBBBB")
        game = store_a.game("AAAAAA")
        assert game is not None and game.seen_at is None and game.rematch is None
        a.mark_seen("AAAAAA", [0], now())
        assert a.count_use("AAAAAA", 0, "hints") == 1
        a.append_moves([], [Finish("AAAAAA", 0, [11, 3])])
        # A finished game's coach counts may come from any worker: nobody holds it.
        assert b.count_use("AAAAAA", 0, "hints") == 2
        # Linked once: a second rematch (from a worker that raced) does not replace it.
        assert a.link_rematch("AAAAAA", "BBBBBB") == "BBBBBB"
        assert a.link_rematch("AAAAAA", "CCCCCC") == "BBBBBB"
        game = store_b.game("AAAAAA")
        assert game is not None and game.seen_at is not None and game.rematch == "BBBBBB"
    finally:
        a.close()
        b.close()
        store_a.close()
        store_b.close()


def test_a_rematch_in_a_cluster_is_made_once(pg_server: PgServer) -> None:
    """Two workers showing the same finished game: the rematch made on one (holding the
    game's lock for the while) is the one the other hands out, not a second game, and
    no worker keeps the finished game's lock."""
    url = pg_server.new_database()
    store = Store(url)
    try:
        with (
            TestClient(create_app(url, QUICK, worker="a")) as a,
            TestClient(create_app(url, QUICK, worker="b")) as b,
        ):
            made = a.post("/api/games", json={"level": "random", "target": 11}).json()
            with a.websocket_connect("/ws") as on_a:
                state = hello(on_a, made["game"], made["token"])
                while not state["over"]:
                    if state["legal"]:
                        on_a.send_json(
                            {"type": "play", "move": state["legal"][0], "ply": state["ply"]}
                        )
                    state, _ = recv_until(on_a, "state")
                with b.websocket_connect("/ws") as on_b:
                    # b shows the finished game too, from before there was a rematch.
                    hello(on_b, made["game"], made["token"])
                    first = rematch_of(on_a)
                    again = rematch_of(on_b)
            assert again["game"] == first["game"] and again["token"] == first["token"]
            assert store.game(made["game"]).rematch == first["game"]  # type: ignore[union-attr]
            assert store.count_games() == {"finished": 1, "playing": 1}
            assert a.get("/healthz").json()["owned"] == b.get("/healthz").json()["owned"] == 0
    finally:
        store.close()
