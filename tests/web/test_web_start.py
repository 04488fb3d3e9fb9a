"""A room fills (docs/protocol.md, "A room fills"): when the last free seat is taken, by a
person or by the computer, every connection following the game gets a fresh ``state``
right after the ``room`` message saying the game is playing, each its own seat's view,
for the Chkobba family's rooms and Touti's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from wsutil import hello, make_client, recv_until

from chkobba.web.hub import Settings

# The computer waits long enough that the game stays at its first ply during a test.
SLOW_BOTS = Settings(bot_delay=30, rate=10_000, burst=10_000)


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url, SLOW_BOTS) as c:
        yield c


def start_state(ws: Any) -> dict[str, Any]:
    """The state a follower gets as the game starts: the first after the ``room`` message
    that says the game is playing (a ping bounds the wait, so a missing state fails)."""
    room, _ = recv_until(ws, "room")
    while room["status"] != "playing":
        room, _ = recv_until(ws, "room")
    ws.send_json({"type": "ping", "id": "after the start"})
    _, seen = recv_until(ws, "pong")
    states = [m for m in seen if m["type"] == "state"]
    assert states, f"no state as the game started: {seen}"
    return states[0]


def check_views(client: TestClient, game: str, got: dict[int, dict[str, Any]],
                tokens: dict[int, str]) -> None:
    """Each follower's start state is its own seat's view: the game playing at ply 0, the
    same view a fresh ``hello`` gives it, and no card of another seat's hand in it."""
    for seat, state in got.items():
        assert state["game"] == game and state["status"] == "playing" and state["ply"] == 0
        assert state["you"] == seat
        assert bool(state["legal"]) == (seat >= 0 and state["turn"] == seat), state
        with client.websocket_connect("/ws") as again:
            assert hello(again, game, tokens.get(seat)) == state
    hands = {seat: set(state["hand"] or []) for seat, state in got.items() if seat >= 0}
    for seat, state in got.items():
        text = json.dumps(state)
        for other, cards in hands.items():
            if other != seat:
                for card in cards:
                    assert f'"{card}"' not in text, (seat, other, card)


def test_a_chkobba_room_filled_by_a_person(client: TestClient) -> None:
    made = client.post(
        "/api/games", json={"mode": "room", "seating": "3", "target": 11, "name": "Ines"}
    ).json()
    game = made["game"]
    tokens = {0: made["token"]}
    tokens[1] = client.post(f"/api/games/{game}/join", json={"name": "Sami"}).json()["token"]
    with (
        client.websocket_connect("/ws") as creator,
        client.websocket_connect("/ws") as guest,
        client.websocket_connect("/ws") as watcher,
    ):
        for ws, seat in ((creator, 0), (guest, 1), (watcher, -1)):
            assert hello(ws, game, tokens.get(seat))["status"] == "open"
        # The last seat is taken by someone not connected yet.
        tokens[2] = client.post(f"/api/games/{game}/join", json={"name": "Lina"}).json()["token"]
        got = {seat: start_state(ws) for ws, seat in ((creator, 0), (guest, 1), (watcher, -1))}
    check_views(client, game, got, tokens)


def test_a_touti_room_filled_by_the_computer(client: TestClient) -> None:
    made = client.post("/api/games", json={"game": "touti", "mode": "room", "name": "Ana"}).json()
    game = made["game"]
    tokens = {0: made["token"]}
    for seat in (1, 2):
        joined = client.post(f"/api/games/{game}/join", json={"name": f"P{seat}"}).json()
        assert joined["seat"] == seat
        tokens[seat] = joined["token"]
    with (
        client.websocket_connect("/ws") as creator,
        client.websocket_connect("/ws") as partner,
        client.websocket_connect("/ws") as opponent,
        client.websocket_connect("/ws") as watcher,
    ):
        follows = ((creator, 0), (partner, 2), (opponent, 1), (watcher, -1))
        for ws, seat in follows:
            assert hello(ws, game, tokens.get(seat))["status"] == "open"
        creator.send_json({"type": "fill", "level": "technique"})
        got = {seat: start_state(ws) for ws, seat in follows}
    assert all(len(got[seat]["hand"]) == 10 for seat in (0, 1, 2))
    assert not got[-1]["hand"]
    check_views(client, game, got, tokens)
