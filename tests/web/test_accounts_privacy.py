"""A private game stays private (issue 26, section 5): never listed, not even once
finished; its record and replay open by its link (the code), and its players find it in
their account's games."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient
from wsutil import hello, recv_until


def finished_by_resigning(client: TestClient, **settings: Any) -> str:
    """A room of two people, created with ``settings``, ended by seat 1 resigning."""
    body = {"mode": "room", "seating": "2", "target": 11, "name": "Hedi", **settings}
    r = client.post("/api/games", json=body).json()
    game = r["game"]
    other = client.post(f"/api/games/{game}/join", json={"name": "Ines"}).json()
    with client.websocket_connect("/ws") as ws:
        hello(ws, game, other["token"])
        ws.send_json({"type": "resign"})
        recv_until(ws, "resigned")
    assert client.get(f"/api/games/{game}").json()["status"] == "finished"
    return str(game)


def test_a_private_game_is_never_listed_even_finished(client: TestClient) -> None:
    private = finished_by_resigning(client, unlisted=True)
    public = finished_by_resigning(client)
    against_computer = client.post("/api/games", json={"level": "random"}).json()["game"]
    answer = client.get("/api/games?status=finished&limit=100").json()
    listed = [g["game"] for g in answer["games"]]
    assert public in listed
    assert private not in listed
    for status in ("open", "playing"):
        shown = [g["game"] for g in client.get(f"/api/games?status={status}").json()["games"]]
        assert private not in shown and against_computer not in shown
    # Its link still opens it: the summary, the replay and the record, by the code.
    assert client.get(f"/api/games/{private}").status_code == 200
    assert client.get(f"/api/games/{private}/replay").status_code == 200
    assert client.get(f"/api/games/{private}/record").status_code == 200


def test_a_finished_game_against_the_computer_is_private_by_default(client: TestClient) -> None:
    created = client.post("/api/games", json={"level": "random", "name": "Sana"}).json()
    game = created["game"]
    with client.websocket_connect("/ws") as ws:
        hello(ws, game, created["token"])
        ws.send_json({"type": "resign"})
        recv_until(ws, "resigned")
    listed = [g["game"] for g in client.get("/api/games?status=finished").json()["games"]]
    assert game not in listed
