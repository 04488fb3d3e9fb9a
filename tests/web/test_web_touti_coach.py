"""The coach in a Touti game on the web: a hint on a card to play, with each card's worth,
its standard error and the samples behind it, counted in the record; none in the bidding."""

from __future__ import annotations

from starlette.testclient import TestClient
from test_web_touti import my_turn, new_game
from wsutil import hello, recv_until

from chkobba.touti.record import ToutiRecord


def test_a_touti_hint_over_the_api_while_playing_on_the_websocket(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    g = new_game(c)
    game, token = g["game"], g["token"]
    refused = hinted = 0
    with c.websocket_connect("/ws") as ws:
        v = my_turn(ws, hello(ws, game, token))
        for _ in range(400):
            if v["over"] or hinted:
                break
            cards = [m for m in v["legal"] if len(m) == 2 and m[1] in "shdc"]
            if v["phase"] == "bid" and not refused and len(v["legal"]) > 1:
                r = c.post(f"/api/games/{game}/hint", json={"token": token})
                assert r.status_code == 409 and r.json()["error"] == "not_weighed"
                refused += 1
            if v["phase"] == "play" and len(cards) > 1:
                r = c.post(f"/api/games/{game}/hint", json={"token": token})
                assert r.status_code == 200, r.text
                h = r.json()
                assert h["measure"] == "expected deal worth" and h["hints"] == 1
                assert h["samples"] > 0 and 1 <= len(h["plays"]) <= 3
                assert {p["move"] for p in h["plays"]} <= set(cards)
                means = [p["mean"] for p in h["plays"]]
                assert means == sorted(means, reverse=True)
                assert all(p["se"] >= 0 and p["words"] for p in h["plays"])
                assert h["exact"] or any(p["se"] > 0 for p in h["plays"])
                hinted += 1
            move = "pass" if "pass" in v["legal"] else v["legal"][0]
            ws.send_json({"type": "play", "move": move, "ply": v["ply"]})
            v, _ = recv_until(ws, "state")
            v = my_turn(ws, v)
        assert refused == 1 and hinted == 1
        ws.send_json({"type": "resign"})
        while not v["over"]:
            v, _ = recv_until(ws, "state")
    # The record counts the hint.
    rec = c.get(f"/api/games/{game}/record")
    assert rec.status_code == 200, rec.text
    meta = ToutiRecord.loads(rec.text).meta
    assert meta is not None and meta["coach"]["uses"]["hints"] == {"0": 1}
