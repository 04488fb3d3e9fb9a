"""The web app's defects of issue 13 (section 4), each with its repro: bad input gets a
clear JSON error, never a traceback, a plain-text 500 or a lost game."""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from wsutil import (
    FAST,
    PgServer,
    ServerProcess,
    expect_error,
    hello,
    make_client,
    post_json,
    recv_until,
)

from chkobba.coach.summary import Summary, chart
from chkobba.web.app import create_app
from chkobba.web.hub import Settings
from chkobba.web.protocol import MAX_JSON_DEPTH, MAX_MESSAGE_BYTES

DEEP = "[" * 1000 + "]" * 1000
"""2,000 bytes of nested brackets: deeper than the JSON parser's recursion allows."""


@pytest.fixture
def quiet_client(sqlite_url: str) -> Iterator[TestClient]:
    """An app on SQLite whose failures are answered, not raised into the test."""
    with TestClient(create_app(sqlite_url, FAST), raise_server_exceptions=False) as c:
        yield c


def computer_game(c: TestClient, name: str = "Amel") -> dict[str, Any]:
    r = c.post("/api/games", json={"mode": "computer", "level": "random", "name": name,
                                   "target": 11})
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def no_errors_logged(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not bad, [r.getMessage() for r in bad]


def test_a_lone_surrogate_token_is_refused_cleanly(
    sqlite_client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    c = sqlite_client
    g = computer_game(c)
    with c.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "game": g["game"], "token": "\ud800", "id": 1}))
        err = expect_error(ws, "bad_json")
        assert "surrogate" in err["message"]
        # The connection is unharmed and still plays its seat.
        assert hello(ws, g["game"], g["token"])["you"] == 0
    for path in ("hint", "question", "unseen"):
        r = c.post(f"/api/games/{g['game']}/{path}", content=b'{"token": "\\ud800"}')
        assert r.status_code == 400 and r.json()["error"] == "bad_json", (path, r.text)
    no_errors_logged(caplog)


def test_deep_nesting_is_bad_json_everywhere(
    sqlite_client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    c = sqlite_client
    g = computer_game(c)
    with c.websocket_connect("/ws") as ws:
        ws.send_text(DEEP)
        expect_error(ws, "bad_json")
        # Deep, though well short of the parser's limit, is refused the same way.
        ws.send_text("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1))
        expect_error(ws, "bad_json")
        assert hello(ws, g["game"], g["token"])["you"] == 0
    for path in (
        "/api/games",
        f"/api/games/{g['game']}/join",
        f"/api/games/{g['game']}/hint",
    ):
        r = c.post(path, content=DEEP.encode())
        assert r.status_code == 400 and r.json()["error"] == "bad_json", (path, r.text)
    r = c.post("/api/analyze", content=DEEP.encode())
    assert r.status_code == 400 and r.json()["error"] == "bad_record", r.text
    no_errors_logged(caplog)


def test_validation_errors_answer_the_message_they_refuse(sqlite_client: TestClient) -> None:
    with sqlite_client.websocket_connect("/ws") as ws:
        for msg, code in (
            ({"type": "play", "id": 5}, "bad_message"),
            ({"type": "nope", "id": "x"}, "unknown_type"),
            ({"type": "hello", "game": 3, "id": 9}, "bad_message"),
            ({"type": "ping", "extra": 1, "id": 10}, "bad_message"),
            ({"id": 11}, "bad_message"),
        ):
            ws.send_json(msg)
            assert expect_error(ws, code)["re"] == msg["id"]
        # An id that is itself invalid cannot be answered.
        ws.send_json({"type": "ping", "id": [1]})
        assert "re" not in expect_error(ws, "bad_message")


def test_the_message_limit_counts_bytes(sqlite_client: TestClient) -> None:
    text = json.dumps({"type": "ping", "pad": "é" * 1020}, ensure_ascii=False)
    assert len(text) <= MAX_MESSAGE_BYTES < len(text.encode())
    with sqlite_client.websocket_connect("/ws") as ws:
        ws.send_text(text)
        expect_error(ws, "too_large")
        ws.send_json({"type": "ping", "id": 1})
        pong, _ = recv_until(ws, "pong")
        assert pong["re"] == 1


def my_turn(ws: Any, g: dict[str, Any]) -> dict[str, Any]:
    """Follow the game as its seat 0 until that seat is to move; its state then."""
    state = hello(ws, g["game"], g["token"])
    while not state["legal"]:
        state, _ = recv_until(ws, "state")
    return state


def play_a_round(c: TestClient, g: dict[str, Any]) -> None:
    with c.websocket_connect("/ws") as ws:
        state = hello(ws, g["game"], g["token"])
        while not state["rounds"]:
            if state["legal"]:
                ws.send_json({"type": "play", "move": state["legal"][0], "ply": state["ply"]})
            state, _ = recv_until(ws, "state")


def test_names_are_text_in_the_summary_chart(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g = computer_game(c, "$a^$")
    play_a_round(c, g)
    r = c.get(f"/api/games/{g['game']}/summary")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["summary"]["sides"][0] == "$a^$"
    assert "$a^$" in body["svg"]
    # A pair of dollars is no formula either: the text comes out as it went in.
    s = Summary(("karta",), ("kārṭa",), ((1, 0),), ("cost $5 and $6", "x_1^2"), 1)
    svg = chart(s, "svg").decode()
    assert "cost $5 and $6" in svg and "x_1^2" in svg


def test_touti_games_are_created_within_a_budget(sqlite_url: str) -> None:
    with make_client(sqlite_url, Settings(bot_delay=0, rate=0.1, burst=3)) as c:
        made = [c.post("/api/games", json={"game": "touti", "level": "random"})
                for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 201]
        r = c.post("/api/games", json={"game": "touti", "level": "random"})
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"
        assert int(r.headers["Retry-After"]) >= 1
        # The budget is the one every game's are made from.
        r = c.post("/api/games", json={"mode": "room"})
        assert r.status_code == 429


def test_touti_names_are_checked_like_chkobba_names(sqlite_client: TestClient) -> None:
    r = sqlite_client.post("/api/games", json={"game": "touti", "name": "a\u0007b"})
    assert r.status_code == 400 and r.json()["error"] == "bad_request"


def break_sqlite(c: TestClient, tmp_path: Path) -> None:
    """Point the app's store at a database file that cannot be opened."""
    store = c.app.state.hub.store  # type: ignore[attr-defined]
    store.engine = create_engine(f"sqlite:///{tmp_path / 'missing' / 'x.db'}")


def test_unexpected_errors_answer_json(
    quiet_client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = quiet_client
    assert c.get("/healthz").json()["database"] == "ok"

    async def broken(*args: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(c.app.state.hub, "create_game", broken)  # type: ignore[attr-defined]
    r = c.post("/api/games", json={"mode": "room"})
    assert r.status_code == 500 and r.json()["error"] == "server_error"
    monkeypatch.undo()
    break_sqlite(c, tmp_path)
    r = c.post("/api/games", json={"mode": "room"})
    assert r.status_code == 503 and r.json()["error"] == "server_error", r.text
    r = c.post("/api/games", json={"game": "touti", "level": "random"})
    assert r.status_code == 503 and r.json()["error"] == "server_error", r.text
    h = c.get("/healthz")
    assert h.status_code == 503 and h.json()["ok"] is False
    assert "does not answer" in h.json()["message"]


@pytest.mark.postgres
def test_a_stopped_postgresql_is_reported(tmp_path: Path) -> None:
    pytest.importorskip("psycopg")
    server = PgServer()
    try:
        url = server.new_database()
        with TestClient(create_app(url, FAST), raise_server_exceptions=False) as c:
            g = computer_game(c)
            assert c.get("/healthz").status_code == 200
            with c.websocket_connect("/ws") as ws:
                # The computer's first moves stored before the halt: a computer's move
                # refused by the stopped database would leave seat 0 waiting for ever.
                my_turn(ws, g)
            server.halt()
            r = c.post("/api/games", json={"mode": "room"})
            assert r.status_code == 503 and r.json()["error"] == "server_error", r.text
            assert r.headers["content-type"] == "application/json"
            h = c.get("/healthz")
            assert h.status_code == 503 and h.json()["ok"] is False
            with c.websocket_connect("/ws") as ws:
                state = my_turn(ws, g)
                ws.send_json({"type": "play", "move": state["legal"][0], "ply": state["ply"],
                              "id": 3})
                assert expect_error(ws, "server_error")["re"] == 3
            server.resume()
            assert c.get("/healthz").status_code == 200
            with c.websocket_connect("/ws") as ws:
                state = my_turn(ws, g)
                ws.send_json({"type": "play", "move": state["legal"][0], "ply": state["ply"],
                              "id": 4})
                moved, _ = recv_until(ws, "state")
                assert moved["re"] == 4 and moved["ply"] == state["ply"] + 1
    finally:
        server.stop()


def test_a_computer_move_the_database_refused_is_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'chkobba.db'}"
    settings = Settings(bot_delay=0, retry_after=0.2)
    with TestClient(create_app(url, settings), raise_server_exceptions=False) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        g = computer_game(c)
        with c.websocket_connect("/ws") as ws:
            state = my_turn(ws, g)
            real = hub.journal.append
            refused: list[int] = []

            async def down_once(row: Any) -> None:
                # The database is down for the computer's answer, then back.
                if row.seat != 0 and not refused:
                    refused.append(row.ply)
                    raise OSError("the database does not answer")
                await real(row)

            monkeypatch.setattr(hub.journal, "append", down_once)
            moved = state
            # Play on until the computer's refused move is played after all (seat 0 may
            # have more than one move first, as after the cut).
            while not (refused and moved["ply"] > refused[0]):
                if moved["legal"]:
                    ws.send_json({"type": "play", "move": moved["legal"][0],
                                  "ply": moved["ply"]})
                moved, _ = recv_until(ws, "state")
            assert len(refused) == 1


# -- issue 28: defects found in the web app under attack ------------------------------


def test_a_token_in_a_url_is_refused_on_every_route(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g = computer_game(c)
    code, token = g["game"], g["token"]
    for path in (
        f"/api/games/{code}",
        f"/api/games/{code}/record",
        f"/api/games/{code}/analysis",
        f"/g/{code}",
        "/api/games",
        "/healthz",
    ):
        for query in (f"token={token}", f"seat=0&TOKEN={token}", "token="):
            r = c.get(f"{path}?{query}")
            assert r.status_code == 400, (path, query, r.text)
            assert r.json()["error"] == "token_in_url" and "JSON body" in r.json()["message"]
    r = c.post(f"/api/games/{code}/hint?token={token}", json={"token": token})
    assert r.status_code == 400 and r.json()["error"] == "token_in_url"
    # Refused before anything is read: the WebSocket is not even opened.
    with pytest.raises(WebSocketDisconnect) as closed, c.websocket_connect(f"/ws?token={token}"):
        pass
    assert closed.value.code == 1008
    # Without the token the same requests answer as before.
    assert c.get(f"/api/games/{code}").status_code == 200
    assert c.get(f"/g/{code}?lang=fr").status_code == 200


def test_a_token_in_a_url_never_reaches_the_access_log(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data", "--bot-delay", "0", "--log-level", "info")
    server.start()
    try:
        g = post_json(server.base, "/api/games", {"level": "random", "target": 11})
        secret = g["token"]
        for path in (f"/api/games/{g['game']}", f"/g/{g['game']}", "/api/games"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(f"{server.base}{path}?token={secret}", timeout=10)
            assert refused.value.code == 400
            assert json.loads(refused.value.read())["error"] == "token_in_url"
    finally:
        server.stop()
    access = server.log.read_text(errors="replace")
    assert f"/api/games/{g['game']}?token=REDACTED" in access
    assert secret not in access


def test_a_rate_limited_message_is_answered(sqlite_url: str) -> None:
    with (
        make_client(sqlite_url, Settings(bot_delay=0, rate=0.1, burst=2)) as c,
        c.websocket_connect("/ws") as ws,
    ):
        for n in range(2):
            ws.send_json({"type": "ping", "id": n})
            assert recv_until(ws, "pong")[0]["re"] == n
        ws.send_json({"type": "ping", "id": "late"})
        assert expect_error(ws, "rate_limited")["re"] == "late"
        # Refused unread, yet answered even when the message itself is bad.
        ws.send_json({"type": "play", "id": 7})
        assert expect_error(ws, "rate_limited")["re"] == 7
        ws.send_text("not json")
        assert "re" not in expect_error(ws, "rate_limited")


def test_creating_a_game_checks_every_field_strictly(sqlite_client: TestClient) -> None:
    c = sqlite_client
    for body, words in (
        ({"mode": "room", "seating": "2", "teams": "yes"}, "teams must be true or false"),
        ({"mode": "room", "seating": "2", "teams": True}, "not both"),
        ({"mode": "room", "seating": "2v2", "players": 4}, "not both"),
        ({"mode": "room", "seating": "2", "players": "two"}, "players must be"),
        ({"mode": "room", "seating": 2}, "seating must be a seating's name as a string"),
        ({"mode": "room", "seating": True}, "seating must be"),
        ({"mode": "room", "seating": "5"}, "seating must be one of"),
    ):
        r = c.post("/api/games", json=body)
        assert r.status_code == 400, (body, r.text)
        assert r.json()["error"] == "bad_request" and words in r.json()["message"], (body, r.json())
    # An empty body is no request for a game; {} asks for every default.
    r = c.post("/api/games", content=b"")
    assert r.status_code == 400 and r.json()["error"] == "bad_json", r.text
    assert "{}" in r.json()["message"]
    assert c.post("/api/games", json={}).status_code == 201
    assert c.post("/api/games", json={"mode": "room", "seating": "2v2"}).status_code == 201
    by_players = {"mode": "room", "players": 4, "teams": True}
    assert c.post("/api/games", json=by_players).status_code == 201
    assert c.get("/api/games", params={"status": "finished"}).status_code == 200
    for limit in ("-1", "0", "101", "1000000000", "5.5", "ten", "", "٣"):
        r = c.get("/api/games", params={"status": "finished", "limit": limit})
        assert r.status_code == 400, (limit, r.text)
        assert "limit must be a whole number from 1 to 100" in r.json()["message"]
    for limit in ("1", "100"):
        assert c.get("/api/games", params={"status": "finished", "limit": limit}).status_code == 200
