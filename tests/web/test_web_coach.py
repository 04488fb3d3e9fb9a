"""The coach on the web: hints counted in the record, trainer questions, unseen cards,
the summary chart and the analysis of a finished game."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient
from wsutil import hello, recv_until

from chkobba.cards import parse_cards
from chkobba.record import GameRecord, replay


def test_hints_questions_summary_and_analysis(sqlite_client: TestClient) -> None:
    client = sqlite_client
    created = client.post(
        "/api/games", json={"mode": "computer", "level": "random", "target": 11, "name": "Sana"}
    ).json()
    game, token = created["game"], created["token"]
    assert client.post(f"/api/games/{game}/hint", json={"token": "nope"}).status_code == 403
    assert client.post(f"/api/games/{game}/hint", content=b"{x").status_code == 400
    assert client.get(f"/api/games/{game}/analysis").status_code == 409
    hinted = 0
    asked = 0
    with client.websocket_connect("/ws") as ws:
        state: dict[str, Any] = hello(ws, game, token)
        while not state["over"]:
            if state["legal"]:
                if len(state["legal"]) > 1 and hinted < 2:
                    h = client.post(f"/api/games/{game}/hint", json={"token": token})
                    assert h.status_code == 200, h.text
                    body = h.json()
                    assert body["plays"] and body["plays"][0]["move"] in state["legal"]
                    hinted += 1
                    assert body["hints"] == hinted
                if asked < 3:
                    q = client.post(f"/api/games/{game}/question", json={"token": token}).json()
                    u = client.post(f"/api/games/{game}/unseen", json={"token": token}).json()
                    unseen = parse_cards("+".join(u["unseen"])) if u["unseen"] else 0
                    if q["kind"] in ("rank", "suit") and q["answer"]:
                        # The answer is a part of the seat's unseen cards, nothing else.
                        assert parse_cards("+".join(q["answer"])) & ~unseen == 0
                    asked += 1
                ws.send_json({"type": "play", "move": state["legal"][0], "ply": state["ply"]})
            state, _ = recv_until(ws, "state")
    assert hinted == 2
    over = client.post(f"/api/games/{game}/hint", json={"token": token})
    assert over.status_code == 409 and over.json()["error"] == "not_playing"
    record = GameRecord.loads(client.get(f"/api/games/{game}/record").text)
    replay(record)
    assert record.meta is not None and record.meta["coach"]["hints"] == 2
    assert all(len(h) == 3 for h in record.meta["coach"]["hinted"])
    s = client.get(f"/api/games/{game}/summary").json()
    assert s["summary"]["totals"] == state["totals"]
    assert "<svg" in s["svg"]
    a = client.get(f"/api/games/{game}/analysis?seat=0&samples=64")
    assert a.status_code == 200, a.text
    data = a.json()
    assert data["seats"] == [0] and data["samples"] == 64
    assert all(d["loss"] >= 0 for d in data["decisions"])
    assert all(d["ply"] is not None for d in data["decisions"])
    assert client.get(f"/api/games/{game}/analysis?seat=5").status_code == 400
    assert client.get(f"/api/games/{game}/analysis?samples=x").status_code == 400
