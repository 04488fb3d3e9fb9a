"""Touti web games in the database: every move stored before it is acknowledged, and a
restarted server resumes each game exactly where it was (docs/touti.md, In the browser)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete, select
from starlette.testclient import TestClient
from wsutil import ServerProcess, auth, make_client

from chkobba.store import Store
from chkobba.store.schema import touti_games, touti_moves
from chkobba.store.touti import ToutiMoveRow, append_touti, touti_game
from chkobba.touti.record import ToutiRecord, replay


def new_game(c: TestClient, level: str = "random") -> dict[str, Any]:
    r = c.post("/api/touti/games", json={"name": "Ana", "opponent": level, "partner": level})
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def look(c: TestClient, g: dict[str, Any]) -> dict[str, Any]:
    r = c.get(f"/api/touti/games/{g['game']}", headers=auth(g["token"]))
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def play(c: TestClient, g: dict[str, Any], v: dict[str, Any], pick: int = 0) -> dict[str, Any]:
    """The person's move: a pass when bidding (short deals), else the pick-th legal move."""
    legal = v["legal"]
    move = "pass" if "pass" in legal and pick % 3 else legal[pick % len(legal)]
    r = c.post(f"/api/touti/games/{g['game']}/move", json={"token": g["token"], "move": move})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def stored_moves(url: str, game: str) -> list[tuple[int, str]]:
    store = Store(url)
    try:
        found = touti_game(store, game)
    finally:
        store.close()
    assert found is not None
    return found.moves


def test_each_answer_is_stored_first(db_url: str) -> None:
    with make_client(db_url) as c:
        g = new_game(c)
        v = look(c, g)
        assert len(stored_moves(db_url, g["game"])) == v["ply"]
        for i in range(6):
            v = play(c, g, v, i)
            moves = stored_moves(db_url, g["game"])
            # Every move the answer shows, the computers' too, is already in the database.
            assert len(moves) == v["ply"] > 0
            assert any(seat == 0 for seat, _ in moves) and any(seat != 0 for seat, _ in moves)
    store = Store(db_url)
    try:
        with store.engine.connect() as conn:
            row = conn.execute(select(touti_games)).one()._mapping
    finally:
        store.close()
    assert row["token_hash"] != g["token"] and len(row["token_hash"]) == 64
    assert g["token"] not in str(dict(row))


def test_a_move_that_cannot_be_stored_is_not_played(
    sqlite_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = sqlite_client
    g = new_game(c)
    before = look(c, g)

    def broken(*args: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("chkobba.web.touti.append_touti", broken)
    r = c.post(
        f"/api/touti/games/{g['game']}/move", json={"token": g["token"], "move": before["legal"][0]}
    )
    assert r.status_code == 503 and r.json()["error"] == "server_error"
    monkeypatch.undo()
    assert look(c, g) == before  # nothing was played


def test_a_restart_resumes_the_game_and_it_finishes(db_url: str) -> None:
    with make_client(db_url) as c:
        g = new_game(c)
        v = look(c, g)
        for i in range(8):
            v = play(c, g, v, i)
    with make_client(db_url) as c:
        # A new server on the same database: the same URL and token, the same view.
        assert look(c, g) == v
        r = c.get(f"/api/touti/games/{g['game']}", headers=auth("not-the-token"))
        assert r.status_code == 403 and r.json()["error"] == "bad_token"
        for i in range(3000):
            if v["winner"] is not None:
                break
            v = play(c, g, v, i)
        assert v["winner"] is not None
        text = c.get(f"/api/touti/games/{g['game']}/record", headers=auth(g["token"])).text
    rep = replay(ToutiRecord.loads(text))  # every move checked by the engine
    assert rep.winner == v["winner"] and rep.totals == v["totals"]
    assert len(stored_moves(db_url, g["game"])) == v["ply"]
    with make_client(db_url) as c:
        # A finished game is not resumed, but is still read back when asked for.
        assert g["game"] not in c.app.state.touti.tables  # type: ignore[attr-defined]
        assert look(c, g)["winner"] == v["winner"]


def test_the_computers_replay_their_moves_after_a_crash(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        g = new_game(c)
        v = look(c, g)
        for i in range(200):
            v = play(c, g, v, i)
            moves = stored_moves(sqlite_url, g["game"])
            last_person = max(p for p, (seat, _) in enumerate(moves) if seat == 0)
            if i >= 4 and moves[-1][0] != 0 and v["winner"] is None:
                break  # computer moves follow the person's
        assert moves[-1][0] != 0 and v["winner"] is None
    # As if the server died after storing the person's move, before the computers moved.
    store = Store(sqlite_url)
    try:
        with store.engine.begin() as conn:
            conn.execute(
                delete(touti_moves).where(
                    touti_moves.c.game_id == g["game"], touti_moves.c.ply > last_person
                )
            )
    finally:
        store.close()
    with make_client(sqlite_url) as c:
        # The random players are seeded by the game and the ply: they choose the same again.
        assert look(c, g) == v
    assert stored_moves(sqlite_url, g["game"]) == moves


def test_games_beyond_the_memory_cap_come_back_from_the_database(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    tables = c.app.state.touti  # type: ignore[attr-defined]
    tables.cap = 2
    games = [new_game(c) for _ in range(3)]
    assert len(tables.tables) == 2 and games[0]["game"] not in tables.tables
    first = look(c, games[0])  # read back from the database
    assert first["game"] == games[0]["game"] and len(tables.tables) == 2
    assert play(c, games[0], first)["ply"] > first["ply"]


def test_unknown_games_after_a_restart(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        g = new_game(c)
    with make_client(sqlite_url) as c:
        for game in ("NOPE", "DEADBEEF", "deadbee", "DEADBEEF0"):
            r = c.get(f"/api/touti/games/{game}", headers=auth(g["token"]))
            assert r.status_code == 404 and r.json()["error"] == "unknown_game"
        for token in ("x", 7):
            r = c.post(f"/api/touti/games/{g['game']}/move",
                       content=json.dumps({"token": token, "move": "pass"}))
            assert r.status_code == 403 and r.json()["error"] == "bad_token"
        # A lone surrogate is no text: the body is refused before any token is read.
        r = c.post(f"/api/touti/games/{g['game']}/move",
                   content=json.dumps({"token": "\ud800", "move": "pass"}))
        assert r.status_code == 400 and r.json()["error"] == "bad_json"


def test_a_game_that_cannot_be_replayed_is_left_aside(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        bad, good = new_game(c), new_game(c)
        v = play(c, good, look(c, good))
    ply = len(stored_moves(sqlite_url, bad["game"]))
    store = Store(sqlite_url)
    try:
        append_touti(store, bad["game"], [ToutiMoveRow(ply, 0, "Zz")])  # not a move
    finally:
        store.close()
    with make_client(sqlite_url) as c:
        r = c.get(f"/api/touti/games/{bad['game']}", headers=auth(bad["token"]))
        assert r.status_code == 404 and r.json()["error"] == "unknown_game"
        assert look(c, good) == v


def http(
    base: str, path: str, body: dict[str, Any] | None = None, token: str | None = None
) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", **(auth(token) if token else {})}
    req = urllib.request.Request(base + path, data=data, headers=headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        return dict(json.loads(r.read()))


def test_a_server_killed_mid_game_resumes_it(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data", "--bot-delay", "0")
    try:
        server.start()
        g = http(server.base, "/api/touti/games", {"opponent": "search", "partner": "random"})
        path = f"/api/touti/games/{g['game']}"
        v = http(server.base, path, token=g["token"])
        for i in range(4):
            move = "pass" if "pass" in v["legal"] else v["legal"][i % len(v["legal"])]
            v = http(server.base, path + "/move", {"token": g["token"], "move": move})
        server.kill()  # SIGKILL: no chance to tidy up
        server.start()
        assert http(server.base, path, token=g["token"]) == v
        with pytest.raises(urllib.error.HTTPError) as e:
            http(server.base, path, token="nope")
        assert e.value.code == 403
    finally:
        server.stop()


def test_a_copy_behind_the_database_reads_it_again(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g = new_game(c)
    v = look(c, g)
    # Another copy of the game (one let go of under the memory cap while it was still
    # playing) stored the person's move: this copy's own move at that ply is refused.
    url = str(c.app.state.hub.store.url)  # type: ignore[attr-defined]
    store = Store(url)
    try:
        append_touti(store, g["game"], [ToutiMoveRow(v["ply"], 0, v["legal"][0])])
    finally:
        store.close()
    r = c.post(
        f"/api/touti/games/{g['game']}/move", json={"token": g["token"], "move": v["legal"][-1]}
    )
    assert r.status_code == 503 and r.json()["error"] == "server_error"
    after = look(c, g)  # read again from the database, and played on by the computers
    assert after["ply"] > v["ply"]
    assert len(stored_moves(url, g["game"])) == after["ply"]
