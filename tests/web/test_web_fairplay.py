"""Fair play with the coach (issue 13 §2): in a game between people the coach is a room
setting, off by default and shown to everyone; against the computer it is always there;
every use of it is counted in the record's meta. And the store's migration 0007."""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect
from starlette.testclient import TestClient
from wsutil import hello, make_client, recv_until

from chkobba.fishing.record import GameRecord
from chkobba.store import Store
from chkobba.web.hub import room_from_stored, token_hash
from chkobba.web.life import RoomSettings


def two_people(client: TestClient, **settings: Any) -> tuple[str, list[str]]:
    """A Chkobba room of two people; the game id and the tokens by seat."""
    r = client.post("/api/games", json={"mode": "room", "seating": "2", **settings}).json()
    j = client.post(f"/api/games/{r['game']}/join", json={}).json()
    return r["game"], [r["token"], j["token"]]


def aid(client: TestClient, gid: str, token: str, which: str) -> Any:
    return client.post(f"/api/games/{gid}/{which}", json={"token": token})


def test_the_coach_is_off_between_people_by_default_and_everyone_sees_it(
    client: TestClient,
) -> None:
    gid, tokens = two_people(client)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "game": gid, "token": tokens[1]})
        welcome, _ = recv_until(ws, "welcome")
        assert welcome["coaching"] is False and welcome["settings"]["coaching"] is False
        hello(ws, gid)  # a spectator is shown the same
    for token in tokens:
        for which in ("hint", "unseen", "question"):
            r = aid(client, gid, token, which)
            assert r.status_code == 403 and r.json()["error"] == "coaching_off", r.text
    # A wrong token is still told so first.
    assert aid(client, gid, "nope", "unseen").json()["error"] == "bad_token"
    meta = client.get(f"/api/games/{gid}").json()
    assert meta["coaching"] is False


def test_every_use_of_the_coach_is_counted_in_the_record(client: TestClient) -> None:
    gid, tokens = two_people(client, coaching=True, target=11)
    assert client.get(f"/api/games/{gid}").json()["coaching"] is True
    for _ in range(2):
        assert aid(client, gid, tokens[1], "unseen").status_code == 200
    assert aid(client, gid, tokens[0], "question").status_code == 200
    hinted = 0
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, gid, tokens[0])
        seat = state["turn"]
        if len(state["legal"]) > 1:
            r = aid(client, gid, tokens[seat], "hint")
            assert r.status_code == 200, r.text
            hinted = 1
        ws.send_json({"type": "resign"})
        recv_until(ws, "resigned")
    meta = GameRecord.loads(client.get(f"/api/games/{gid}/record").text).meta
    assert meta is not None and meta["settings"]["coaching"] is True
    uses = meta["coach"]["uses"]
    assert uses["unseen"] == {"1": 2} and uses["trainer"] == {"0": 1}
    assert uses.get("hints", {}) == ({str(seat): 1} if hinted else {})


def test_against_the_computer_the_coach_is_always_there(sqlite_client: TestClient) -> None:
    c = sqlite_client
    solo = c.post("/api/games", json={"level": "random"}).json()
    assert aid(c, solo["game"], solo["token"], "unseen").status_code == 200
    # A room whose other seats the computer took: one person, so the coach helps.
    r = c.post("/api/games", json={"mode": "room", "seating": "2"}).json()
    assert aid(c, r["game"], r["token"], "unseen").json()["error"] == "coaching_off"
    with c.websocket_connect("/ws") as ws:
        hello(ws, r["game"], r["token"])
        ws.send_json({"type": "fill", "level": "random"})
        room, _ = recv_until(ws, "room")
        while room["status"] != "playing":
            room, _ = recv_until(ws, "room")
        assert room["coaching"] is True
    assert aid(c, r["game"], r["token"], "unseen").status_code == 200
    with c.websocket_connect("/ws") as ws:
        hello(ws, solo["game"], solo["token"])
        ws.send_json({"type": "resign"})
        recv_until(ws, "resigned")
    meta = GameRecord.loads(c.get(f"/api/games/{solo['game']}/record").text).meta
    assert meta is not None and meta["coach"]["uses"] == {"unseen": {"0": 1}}


# -- migration 0007 ------------------------------------------------------------------------

OLD = sa.MetaData()
games = sa.Table(
    "games", OLD,
    sa.Column("id", sa.String(16)), sa.Column("game", sa.String(16)),
    sa.Column("kind", sa.String(16)), sa.Column("status", sa.String(16)),
    sa.Column("rules", sa.String(32)), sa.Column("rules_version", sa.Integer),
    sa.Column("options", sa.Text), sa.Column("seats", sa.Integer),
    sa.Column("teams", sa.Boolean), sa.Column("seed", sa.BigInteger),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)
seats = sa.Table(
    "seats", OLD,
    sa.Column("game_id", sa.String(16)), sa.Column("seat", sa.Integer),
    sa.Column("name", sa.String(64)), sa.Column("token_hash", sa.String(64)),
    sa.Column("agent", sa.String(32)),
)
"""The tables as migration 0006 left them."""


def downgrade(store: Store, revision: str) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", "chkobba.store:migrations")
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, revision)


def test_migration_0007_up_and_down(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.migrate("0006")
        now = dt.datetime.now(dt.UTC)
        with store.engine.begin() as conn:
            conn.execute(sa.insert(games).values(
                id="OLD234", game="chkobba", kind="room", status="playing", rules="chkobba",
                rules_version=2, options="{}", seats=2, teams=False, seed=3, created_at=now,
            ))
            conn.execute(sa.insert(seats), [
                {"game_id": "OLD234", "seat": 0, "name": "A", "token_hash": token_hash("a"),
                 "agent": None},
                {"game_id": "OLD234", "seat": 1, "name": "B", "token_hash": token_hash("b"),
                 "agent": None},
            ])
        store.migrate()
        cols = {c["name"] for c in inspect(store.engine).get_columns("games")}
        assert {"settings", "ending", "resigned", "seen_at", "rematch", "rematch_of"} <= cols
        assert "coach_uses" in inspect(store.engine).get_table_names()
        stored = store.game("OLD234")
        assert stored is not None and stored.settings is None and stored.ending is None
        # A game stored before rooms had settings takes the defaults of its kind.
        assert room_from_stored(stored).life == RoomSettings(unlisted=False, coaching=False)
        assert store.count_use("OLD234", 1, "unseen") == 1
        downgrade(store, "0006")
        cols = {c["name"] for c in inspect(store.engine).get_columns("games")}
        assert not {"settings", "ending", "seen_at"} & cols
        assert "coach_uses" not in inspect(store.engine).get_table_names()
        with store.engine.connect() as conn:
            assert conn.execute(sa.select(games.c.id)).scalars().all() == ["OLD234"]
        store.migrate()
        assert store.game("OLD234") is not None
    finally:
        store.close()
    with make_client(db_url) as c, c.websocket_connect("/ws") as ws:
        assert hello(ws, "OLD234", "a")["you"] == 0
