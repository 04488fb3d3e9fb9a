"""Touti in the web app, on the hub's WebSocket like every game (docs/touti.md, In the
browser; docs/protocol.md): the page, a whole match against the computer, the story,
the record, the view that hides the other hands, and bad requests."""

from __future__ import annotations

import json
from typing import Any

from starlette.testclient import TestClient
from wsutil import expect_error, hello, recv_until

from chkobba.fishing.cards import Card
from chkobba.touti.record import ToutiRecord, replay


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post(
        "/api/games",
        json={"game": "touti", "mode": "room", "name": "Ana",
              "computers": [None, "technique", "technique", "technique"], **body},
    )
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def my_turn(ws: Any, state: dict[str, Any]) -> dict[str, Any]:
    """Read states until the person has a real choice, or the match is over."""
    while not (state["over"] or (state["turn"] == 0 and state["legal"] not in ([], ["nocanto"]))):
        state, _ = recv_until(ws, "state")
    return state


def test_page_and_a_whole_match(sqlite_client: TestClient) -> None:
    c = sqlite_client
    assert c.get("/touti").status_code == 200
    g = new_game(c)
    assert g["url"] == f"/touti/{g['game']}" and c.get(g["url"]).status_code == 200
    early = c.get(f"/api/games/{g['game']}/record")
    assert early.status_code == 409  # the record shows every hand
    with c.websocket_connect("/ws") as ws:
        v = my_turn(ws, hello(ws, g["game"], g["token"]))
        assert len(v["hand"]) == 10
        for _ in range(3000):
            if v["over"]:
                break
            move = "pass" if "pass" in v["legal"] else v["legal"][0]
            ws.send_json({"type": "play", "move": move, "ply": v["ply"]})
            v, _ = recv_until(ws, "state")
            v = my_turn(ws, v)
    assert v["winner"] is not None and max(v["totals"]) >= 600
    # The story is a list of events the page tells in its language, each with its English.
    kinds = {e["kind"] for e in v["log"]}
    assert {"play", "trick", "contract", "team", "result"} <= kinds
    assert kinds <= {"bid", "trump", "play", "canto", "pass", "alla", "macharich", "redeal",
                     "claim", "trick", "no_contract", "contract", "team", "result"}
    assert all(isinstance(e["text"], str) and e["text"] for e in v["log"])
    rec = c.get(f"/api/games/{g['game']}/record")
    assert rec.status_code == 200
    rep = replay(ToutiRecord.loads(rec.text))
    assert rep.winner == v["winner"] and rep.totals == v["totals"]


def test_the_view_hides_the_other_hands(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g = new_game(c)
    with c.websocket_connect("/ws") as ws:
        v = hello(ws, g["game"], g["token"])
    text = json.dumps(v)
    mine = set(v["hand"])
    shown = {p["card"] for p in v["trick"]} | {
        e["card"] for e in v["log"] if e["kind"] == "play"
    }
    every_card = {str(Card(i)) for i in range(40)}
    for card in every_card - mine - shown:
        assert f'"{card}"' not in text, card


def test_bad_requests(sqlite_client: TestClient) -> None:
    c = sqlite_client
    assert c.post("/api/games", json={"game": "touti", "target": 21}).status_code == 400
    r = c.post("/api/games", json={"game": "touti", "level": "cheater"})
    assert r.json()["error"] == "unknown_level"
    assert c.post("/api/games", content=b"[").status_code == 400
    g = new_game(c)
    with c.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "game": g["game"], "token": "nope"})
        expect_error(ws, "bad_token")
        ws.send_json({"type": "hello", "game": "NOPE"})
        expect_error(ws, "unknown_game")
        v = my_turn(ws, hello(ws, g["game"], g["token"]))
        if v["phase"] == "bid":
            ws.send_json({"type": "play", "move": "75"})
            assert "malformed bid" in expect_error(ws, "bad_move")["message"]
        ws.send_json({"type": "play", "move": "Zz"})
        expect_error(ws, "bad_move")
        wrong = next(m for m in ("Ah", "Kh", "2s", "pass") if m not in v["legal"])
        ws.send_json({"type": "play", "move": wrong})
        expect_error(ws, "illegal_move")
