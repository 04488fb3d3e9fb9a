"""Touti in the web app: the JSON API against the computer (docs/touti.md, Web)."""

from __future__ import annotations

import json
from typing import Any

from starlette.testclient import TestClient
from wsutil import auth

from chkobba.cards import Card
from chkobba.touti.record import ToutiRecord, replay


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post(
        "/api/touti/games",
        json={"name": "Ana", "opponent": "technique", "partner": "technique", **body},
    )
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def test_page_and_a_whole_match(sqlite_client: TestClient) -> None:
    c = sqlite_client
    assert c.get("/touti").status_code == 200
    g = new_game(c)
    assert c.get(g["url"]).status_code == 200
    v = c.get(f"/api/touti/games/{g['game']}", headers=auth(g["token"])).json()
    assert v["turn"] == 0 and v["legal"] and len(v["hand"]) == 10
    early = c.get(f"/api/touti/games/{g['game']}/record", headers=auth(g["token"]))
    assert early.status_code == 409  # the record shows every hand
    for _ in range(3000):
        if v["winner"] is not None:
            break
        move = "pass" if "pass" in v["legal"] else v["legal"][0]
        r = c.post(f"/api/touti/games/{g['game']}/move", json={"token": g["token"], "move": move})
        assert r.status_code == 200, r.text
        v = r.json()
    assert v["winner"] is not None and max(v["totals"]) >= 600
    # The story is a list of events the page tells in its language, each with its English.
    kinds = {e["kind"] for e in v["log"]}
    assert {"play", "trick", "contract", "team", "result"} <= kinds
    assert kinds <= {"bid", "trump", "play", "canto", "pass", "alla", "macharich", "redeal",
                     "claim", "trick", "no_contract", "contract", "team", "result"}
    assert all(isinstance(e["text"], str) and e["text"] for e in v["log"])
    rec = c.get(f"/api/touti/games/{g['game']}/record", headers=auth(g["token"]))
    assert rec.status_code == 200
    rep = replay(ToutiRecord.loads(rec.text))
    assert rep.winner == v["winner"] and rep.totals == v["totals"]


def test_the_view_hides_the_other_hands(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g = new_game(c)
    v = c.get(f"/api/touti/games/{g['game']}", headers=auth(g["token"])).json()
    text = json.dumps(v)
    assert v["turn"] == 0 and v["phase"] == "bid"  # no card has been played yet
    mine = set(v["hand"])
    shown = {p["card"] for p in v["trick"]}
    every_card = {str(Card(i)) for i in range(40)}
    for card in every_card - mine - shown:
        assert f'"{card}"' not in text, card


def test_bad_requests(sqlite_client: TestClient) -> None:
    c = sqlite_client
    assert c.post("/api/touti/games", json={"target": 21}).status_code == 400
    assert c.post("/api/touti/games", json={"opponent": "cheater"}).json()["error"] == (
        "unknown_level"
    )
    assert c.post("/api/touti/games", content=b"[").status_code == 400
    g = new_game(c)
    url = f"/api/touti/games/{g['game']}"
    assert c.get(url, headers=auth("nope")).status_code == 403
    assert c.get(url).status_code == 403
    assert c.get("/api/touti/games/NOPE", headers=auth("x")).status_code == 404
    r = c.post(url + "/move", json={"token": g["token"], "move": "75"})
    assert r.status_code == 400 and "malformed bid" in r.json()["message"]
    r = c.post(url + "/move", json={"token": g["token"], "move": "Zz"})
    assert r.status_code == 400
    v = c.get(url, headers=auth(g["token"])).json()
    assert v["phase"] == "bid"
    r = c.post(url + "/move", json={"token": g["token"], "move": "Ah"})
    assert r.status_code == 400 and r.json()["error"] == "illegal_move"
