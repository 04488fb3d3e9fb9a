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


def finished_touti_game(c: TestClient) -> tuple[str, str, ToutiRecord]:
    """A Touti game against three random players, played into its second deal by the first
    legal move each turn, then resigned: its code, its record's text and the record."""
    g = new_game(c, computers=[None, "random", "random", "random"])
    game, token = g["game"], g["token"]
    with c.websocket_connect("/ws") as ws:
        v = my_turn(ws, hello(ws, game, token))
        while not v["over"] and v["deal"] < 2:
            move = "pass" if "pass" in v["legal"] else v["legal"][0]
            ws.send_json({"type": "play", "move": move, "ply": v["ply"]})
            v, _ = recv_until(ws, "state")
            v = my_turn(ws, v)
        ws.send_json({"type": "resign"})
        while not v["over"]:
            v, _ = recv_until(ws, "state")
    text = c.get(f"/api/games/{game}/record").text
    return game, text, ToutiRecord.loads(text)


def test_the_analysis_of_a_finished_touti_game(sqlite_client: TestClient) -> None:
    """GET /api/games/{code}/analysis for a Touti game: its deals' cards weighed, each
    decision at the ply of the stored move it is."""
    c = sqlite_client
    game, _, record = finished_touti_game(c)
    moves = [m for d in record.deals for m in d.moves]
    a = c.get(f"/api/games/{game}/analysis?seat=0&samples=64&round=1")
    assert a.status_code == 200, a.text
    out = a.json()
    assert out["game"] == "touti" and out["rounds"] == len(record.deals) >= 1
    assert out["decisions"] and all(d["round"] == 1 and d["seat"] == 0 for d in out["decisions"])
    for d in out["decisions"]:
        # The ply is the stored move the decision is: the record's deal 1, move d["play"].
        assert moves[d["ply"]] == record.deals[0].moves[d["play"] - 1] == d["move"]
    bad = c.get(f"/api/games/{game}/analysis?seat=4&samples=64")
    assert bad.status_code == 400 and "seat must be from 0 to 3" in bad.json()["message"]


def test_the_analyse_endpoint_takes_a_touti_record(sqlite_client: TestClient) -> None:
    """POST /api/analyze (the /analyse page's) with a Touti record: its steps, and each card
    played among several weighed, each ± its error, at the step of its move."""
    c = sqlite_client
    _, text, record = finished_touti_game(c)
    r = c.post("/api/analyze?seat=0&samples=64&round=1", content=text.encode(),
               headers={"Content-Type": "application/json"})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["kind"] == "touti" and out["seats"] == 4
    moves = [f for f in out["frames"] if f["ply"] is not None]
    assert [f["text"] for f in moves] == [m for d in record.deals for m in d.moves]
    a = out["analysis"]
    assert a["game"] == "touti" and a["rounds"] == len(record.deals)
    assert a["decisions"] and all(d["seat"] == 0 for d in a["decisions"])
    weighed = 0
    for d in a["decisions"]:
        assert moves[d["ply"]]["text"] == d["move"] and moves[d["ply"]]["seat"] == 0
        if d["estimates"] is None:  # one card only: forced, nothing to weigh
            continue
        weighed += 1
        plays = d["estimates"]["plays"]
        assert len(plays) >= 2 and d["move"] in {p["move"] for p in plays}
        assert all(p["se"] >= 0 and p["loss"] >= 0 for p in plays)
    assert weighed >= 1
    # A move that is not legal there: refused, with where.
    bad = record.to_json()
    bad["deals"][0]["moves"][0] = "trump:x"
    r = c.post("/api/analyze?seat=0&samples=64", json=bad)
    assert r.status_code == 400 and r.json()["error"] == "bad_record", r.text
