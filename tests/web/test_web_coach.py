"""The coach on the web: hints counted in the record, trainer questions, unseen cards,
the summary chart and the analysis of a finished game."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient
from wsutil import hello, recv_until

from chkobba.fishing.cards import parse_cards
from chkobba.fishing.record import GameRecord, replay


def test_hints_questions_summary_and_analysis(client: TestClient) -> None:
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
                    # Asking again at the same position counts once.
                    again = client.post(f"/api/games/{game}/hint", json={"token": token})
                    assert again.json()["hints"] == hinted
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
    assert "<svg" in s["svg"] and "Points per category" in s["svg"]
    # The chart's words in the page's language; an unknown one is refused, saying which.
    it = client.get(f"/api/games/{game}/summary?lang=it").json()
    assert "Punti per categoria" in it["svg"] and it["summary"] == s["summary"]
    bad = client.get(f"/api/games/{game}/summary?lang=xx")
    assert bad.status_code == 400 and bad.json()["error"] == "bad_language"
    a = client.get(f"/api/games/{game}/analysis?seat=0&samples=64")
    assert a.status_code == 200, a.text
    data = a.json()
    assert data["seats"] == [0] and data["samples"] == 64
    assert all(d["loss"] >= 0 for d in data["decisions"])
    assert all(d["ply"] is not None for d in data["decisions"])
    # Round by round (the page's progress bar): the same decisions, one round at a time.
    one = client.get(f"/api/games/{game}/analysis?seat=0&samples=64&round=1").json()
    assert one["decisions"] == [d for d in data["decisions"] if d["round"] == 1]
    assert one["rounds"] == data["rounds"] >= 1
    assert client.get(f"/api/games/{game}/analysis?round=99").status_code == 400
    assert client.get(f"/api/games/{game}/analysis?seat=5").status_code == 400
    assert client.get(f"/api/games/{game}/analysis?samples=x").status_code == 400


def test_analyze_any_record(sqlite_client: TestClient) -> None:
    from chkobba.agents import make_agent
    from chkobba.fishing.match import Match
    from chkobba.fishing.observe import observe
    from chkobba.fishing.record import record_of
    from chkobba.fishing.rules import preset

    m = Match(preset("chkobba", {"target": 11}), seats=2, seed=8)
    agents = [make_agent("greedy", 1), make_agent("heuristic", 2)]
    while not m.finished:
        m.apply(agents[m.turn].choose(observe(m, m.turn)), m.turn)
    record = record_of(m, ["Amel", "heuristic"])
    record.rounds = record.rounds[:1]  # the first round, finished
    r = sqlite_client.post("/api/analyze?seat=1&samples=64", content=record.dumps().encode())
    assert r.status_code == 200, r.text
    data = r.json()
    rr = record.rounds[0]
    moves = [m for m in [rr.cut, *rr.plays] if m is not None]
    assert [f["move"]["move"] for f in data["frames"] if f["move"]] == moves
    assert data["frames"][-1]["note"] == "end"
    assert data["names"] == ["Amel", "heuristic"]
    decisions = data["analysis"]["decisions"]
    assert {d["seat"] for d in decisions} == {1}
    # Each decision points at the frame of its move.
    for d in decisions:
        assert moves[d["ply"]] == d["move"]
    part = sqlite_client.post(
        "/api/analyze?seat=1&samples=64&round=1", content=record.dumps().encode()
    )
    assert part.json()["frames"] == data["frames"]
    assert part.json()["analysis"]["decisions"] == decisions
    bad = sqlite_client.post("/api/analyze", content=b'{"format": "chkobba-record/1"}')
    assert bad.status_code == 400 and bad.json()["error"] == "bad_record"
    illegal = record.to_json()
    illegal["rounds"][0]["plays"][0] = "Kd:As"
    r = sqlite_client.post("/api/analyze", json=illegal)
    assert r.status_code == 400 and "round 1, play 1" in r.json()["message"]
    assert (
        sqlite_client.post("/api/analyze?seat=4", content=record.dumps().encode()).status_code
        == 400
    )
    assert sqlite_client.post("/api/analyze", content=b"x" * 600_000).status_code == 413
    assert "<html" in sqlite_client.get("/analyse").text
