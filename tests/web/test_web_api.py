"""The HTTP side: health, info, creating and joining games, lists, records and replays."""

from __future__ import annotations

import json

from starlette.testclient import TestClient
from wsutil import hello, recv_until

from chkobba.fishing.record import GameRecord, replay


def test_healthz_and_info(client: TestClient) -> None:
    assert client.get("/healthz").json()["ok"] is True
    info = client.get("/api/info").json()
    assert "random" in info["levels"]
    assert info["points"]["karta"] == {"name": "kārṭa", "arabic": "كارطة"}
    assert set(info["seatings"]) == {"2", "2v2", "3", "4"}
    assert "illegal_move" in info["errors"]


def test_pages_are_served(client: TestClient) -> None:
    for path in ("/", "/g/ABCDEF", "/replay/ABCDEF"):
        r = client.get(path)
        assert r.status_code == 200
        assert "<html" in r.text
    assert client.get("/static/app.css").status_code == 200
    assert client.get("/static/nothing-here.js").status_code == 404


def test_create_refuses_bad_requests(client: TestClient) -> None:
    cases = [
        ({"mode": "solo"}, "mode"),
        ({"mode": "computer", "level": "random", "seating": "5"}, "seating"),
        ({"mode": "computer", "level": "random", "target": 12}, "target"),
        ({"mode": "computer", "level": "random", "target": "21"}, "target"),
        ({"mode": "computer", "level": "grandmaster"}, "unknown level"),
        ({"mode": "room", "name": "x" * 40}, "at most"),
        ({"mode": "room", "name": "a\x07b"}, "control"),
    ]
    for body, words in cases:
        r = client.post("/api/games", json=body)
        assert r.status_code == 400, body
        assert words in r.json()["message"], (body, r.json())
    r = client.post("/api/games", content=b"{not json")
    assert r.status_code == 400 and "JSON" in r.json()["message"]
    r = client.post("/api/games", content=b"[1, 2]")
    assert r.status_code == 400 and "object" in r.json()["message"]
    r = client.post("/api/games", content=json.dumps({"name": "a" * 10_000}).encode())
    assert r.status_code == 413


def test_room_join_until_full(client: TestClient) -> None:
    r = client.post("/api/games", json={"mode": "room", "seating": "3", "name": "Amel"})
    assert r.status_code == 201
    game = r.json()["game"]
    summary = client.get(f"/api/games/{game.lower()}").json()  # codes are case-blind
    assert summary["status"] == "open"
    assert [p["taken"] for p in summary["players"]] == [True, False, False]
    tokens = {r.json()["token"]}
    for seat, name in ((1, "Bilel"), (2, None)):
        j = client.post(f"/api/games/{game}/join", json={"name": name} if name else {})
        assert j.status_code == 200
        assert j.json()["seat"] == seat
        tokens.add(j.json()["token"])
    assert len(tokens) == 3
    full = client.post(f"/api/games/{game}/join", json={})
    assert full.status_code == 409 and full.json()["error"] == "no_free_seat"
    summary = client.get(f"/api/games/{game}").json()
    assert summary["status"] == "playing"
    assert [p["name"] for p in summary["players"]] == ["Amel", "Bilel", "Player 3"]
    playing = client.get("/api/games?status=playing").json()["games"]
    assert game in [g["game"] for g in playing]


def test_unknown_games(client: TestClient) -> None:
    assert client.get("/api/games/ZZZZZZ").status_code == 404
    assert client.get("/api/games/not-a-code!").status_code == 404
    assert client.post("/api/games/ZZZZZZ/join", json={}).status_code == 404
    assert client.get("/api/games/ZZZZZZ/record").status_code == 404
    assert client.get("/api/games?status=lost").status_code == 400


def play_out(client: TestClient, game: str, token: str) -> dict[str, object]:
    """Play seat 0 with the first legal move until the match ends; return the last state."""
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, game, token)
        while not state["over"]:
            if state["legal"]:
                ws.send_json({"type": "play", "move": state["legal"][0], "ply": state["ply"]})
            state, _ = recv_until(ws, "state")
        return state


def test_finished_game_record_and_replay(client: TestClient) -> None:
    created = client.post(
        "/api/games",
        # Listed once finished only because it is public (private by default, never listed).
        json={"mode": "computer", "level": "random", "target": 11, "name": "Sana",
              "unlisted": False},
    ).json()
    game = created["game"]
    # Nothing of an unfinished game's decks is given away.
    assert client.get(f"/api/games/{game}/record").status_code == 409
    assert client.get(f"/api/games/{game}/replay").status_code == 409
    last = play_out(client, game, created["token"])
    assert last["over"] and last["winner"] is not None
    r = client.get(f"/api/games/{game}/record")
    assert r.status_code == 200
    assert f"chkobba-{game}.json" in r.headers["content-disposition"]
    record = GameRecord.loads(r.text)
    assert record.names == ["Sana", "computer (random)"]
    rep = replay(record)
    assert rep.totals == last["totals"] and rep.winner == last["winner"]
    frames = client.get(f"/api/games/{game}/replay").json()
    assert frames["totals"] == last["totals"]
    # Every move but a void deal's cut is in the record, in the same order.
    moves = [f["move"]["move"] for f in frames["frames"] if f["move"] and f["note"] != "void"]
    assert moves == [m for rr in record.rounds for m in [rr.cut, *rr.plays] if m is not None]
    ends = [f for f in frames["frames"] if f["note"] == "end"]
    assert [f["end"]["score"]["points"] for f in ends] == [
        r.score.to_json()["points"] for r in rep.rounds if r.score
    ]
    listed = client.get("/api/games?status=finished").json()["games"]
    assert listed[0]["game"] == game and listed[0]["totals"] == last["totals"]


def test_short_matches_only_on_a_server_for_tests(sqlite_url: str) -> None:
    """``--short-matches`` (the browser tests' servers): a match to 1 point is accepted and
    offered by the lobby, and is over after its first round unless tied there; without
    it, 1 is refused like any target the game does not offer."""
    from dataclasses import replace

    from wsutil import FAST, make_client

    from chkobba.web.hub import SHORT_TARGET

    body = {"mode": "computer", "level": "random", "target": SHORT_TARGET, "name": "Sana"}
    with make_client(sqlite_url) as plain:
        r = plain.post("/api/games", json=body)
        assert r.status_code == 400 and "target must be one of" in r.json()["message"]
        was = plain.get("/api/info").json()["games"]
        assert SHORT_TARGET not in was["chkobba"]["rules"]["scopa"]["targets"]
    with make_client(sqlite_url, replace(FAST, short_matches=True)) as short:
        info = short.get("/api/info").json()["games"]
        for name in ("chkobba", "touti"):
            for rules, each in info[name]["rules"].items():
                before = was[name]["rules"][rules]
                # Offered last, the rule set's own target still the lobby's first choice.
                assert each["target"] == before["target"]
                assert each["targets"] == [
                    *before["targets"], *[SHORT_TARGET][:SHORT_TARGET not in before["targets"]]
                ]
        made = short.post("/api/games", json=body)
        assert made.status_code == 201, made.json()
        last = play_out(short, made.json()["game"], made.json()["token"])
        assert last["over"] and max(last["totals"]) >= SHORT_TARGET
        record = GameRecord.loads(short.get(f"/api/games/{made.json()['game']}/record").text)
        first = replay(record).rounds[0].score
        assert first is not None
        assert len(record.rounds) == 1 or len(set(first.points)) == 1
