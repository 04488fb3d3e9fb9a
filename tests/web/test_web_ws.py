"""The WebSocket protocol: validation, seats and turns, persistence before acknowledgement."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient
from wsutil import expect_error, hello, make_client, recv_until

from chkobba.agents import AGENTS
from chkobba.store import Store
from chkobba.web.hub import Hub, Settings
from chkobba.web.protocol import MAX_MESSAGE_BYTES


def new_room(client: TestClient, seating: str = "2", target: int = 21) -> tuple[str, list[str]]:
    """A room with every seat taken by a person; the game id and the tokens by seat."""
    r = client.post("/api/games", json={"mode": "room", "seating": seating, "target": target})
    game = r.json()["game"]
    tokens = [r.json()["token"]]
    while True:
        j = client.post(f"/api/games/{game}/join", json={})
        if j.status_code != 200:
            break
        tokens.append(j.json()["token"])
    return game, tokens


def test_malformed_messages_get_clear_errors_and_the_connection_survives(
    client: TestClient,
) -> None:
    game, tokens = new_room(client)
    with client.websocket_connect("/ws") as ws:
        ws.send_text("{not json")
        expect_error(ws, "bad_json")
        ws.send_text("[1, 2]")
        expect_error(ws, "bad_json")
        ws.send_json({"type": "dance"})
        assert "unknown message type" in expect_error(ws, "unknown_type")["message"]
        ws.send_json({"kind": "hello"})
        expect_error(ws, "bad_message")
        ws.send_json({"type": "hello"})
        expect_error(ws, "bad_message")
        ws.send_json({"type": "hello", "game": 12})
        expect_error(ws, "bad_message")
        ws.send_json({"type": "hello", "game": game, "color": "red"})
        expect_error(ws, "bad_message")
        ws.send_json({"type": "play", "move": "5s", "ply": True})
        expect_error(ws, "bad_message")
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * MAX_MESSAGE_BYTES}))
        expect_error(ws, "too_large")
        ws.send_json({"type": "play", "move": "5s"})
        expect_error(ws, "not_joined")
        ws.send_json({"type": "hello", "game": "QQQQQQ", "id": 7})
        err = expect_error(ws, "unknown_game")
        assert err["re"] == 7
        ws.send_json({"type": "hello", "game": game, "token": "guess"})
        expect_error(ws, "bad_token")
        ws.send_json({"type": "ping", "id": "p1"})
        pong, _ = recv_until(ws, "pong")
        assert pong["re"] == "p1"
        state = hello(ws, game, tokens[0])
        assert state["you"] == 0
        ws.send_json({"type": "play", "move": "5s", "game": "OTHER1"})
        expect_error(ws, "wrong_game")
    # The game is unharmed by all this.
    assert client.get(f"/api/games/{game}").json()["ply"] == 0


def first_turn(client: TestClient, game: str, tokens: list[str]) -> int:
    with client.websocket_connect("/ws") as ws:
        return int(hello(ws, game, tokens[0])["turn"])


def test_seats_turns_and_legality(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # A fixed shuffle: with a random one, about one deal in a few hundred is void
    # after the cut, and the round starts again instead of reaching the play.
    monkeypatch.setattr(Hub, "new_seed", lambda self: 1)
    game, tokens = new_room(client)
    turn = first_turn(client, game, tokens)
    other = 1 - turn
    with client.websocket_connect("/ws") as mover, client.websocket_connect("/ws") as waiter:
        s = hello(mover, game, tokens[turn])
        assert s["phase"] == "cut" and s["legal"] == ["keep", "table"]
        assert s["cut_card"] is not None
        w = hello(waiter, game, tokens[other])
        assert w["legal"] == [] and w["cut_card"] is None
        waiter.send_json({"type": "play", "move": "keep"})
        assert "turn" in expect_error(waiter, "not_your_turn")["message"]
        mover.send_json({"type": "play", "move": "keep", "seat": other})
        expect_error(mover, "not_your_seat")
        mover.send_json({"type": "play", "move": "9z"})
        expect_error(mover, "bad_move")
        mover.send_json({"type": "play", "move": "5s"})
        assert "cut" in expect_error(mover, "illegal_move")["message"]
        mover.send_json({"type": "play", "move": "keep", "ply": 3})
        expect_error(mover, "stale")
        mover.send_json({"type": "play", "move": "keep", "ply": 0, "id": "m1"})
        after, _ = recv_until(mover, "state")
        assert after["re"] == "m1" and after["ply"] == 1 and after["phase"] == "play"
        assert len(after["hand"]) == 3 and len(after["table"]) == 4
        seen, _ = recv_until(waiter, "state")
        assert seen["ply"] == 1 and "re" not in seen
        # The cutter moves first; a hand card that does not exist is refused with the reason.
        mover.send_json(
            {
                "type": "play",
                "move": next(
                    c for c in all_cards() if c not in after["hand"] and c not in after["table"]
                ),
            }
        )
        assert "hand" in expect_error(mover, "illegal_move")["message"]
    with client.websocket_connect("/ws") as spectator:
        s = hello(spectator, game)
        assert s["you"] == -1 and s["hand"] == [] and s["legal"] == []
        spectator.send_json({"type": "play", "move": "keep"})
        expect_error(spectator, "spectator")


def all_cards() -> list[str]:
    return [r + s for s in "shdc" for r in "A234567QJK"]


def test_moves_are_stored_before_they_are_acknowledged(db_url: str) -> None:
    with make_client(db_url) as client:
        game, tokens = new_room(client)
        turn = first_turn(client, game, tokens)
        store = Store(db_url)
        try:
            with client.websocket_connect("/ws") as ws:
                hello(ws, game, tokens[turn])
                ws.send_json({"type": "play", "move": "table", "id": 1})
                state, _ = recv_until(ws, "state")
                assert state["re"] == 1
                stored = store.game(game)
                assert stored is not None and stored.moves == ["table"]
        finally:
            store.close()


def test_reconnecting_with_the_token_gives_the_seat_back(client: TestClient) -> None:
    game, tokens = new_room(client)
    turn = first_turn(client, game, tokens)
    with client.websocket_connect("/ws") as ws:
        hello(ws, game, tokens[turn])
        ws.send_json({"type": "play", "move": "keep"})
        before, _ = recv_until(ws, "state")
    with client.websocket_connect("/ws") as ws:
        again = hello(ws, game, tokens[turn])
        assert again["you"] == turn
        assert again["hand"] == before["hand"] and again["ply"] == before["ply"] == 1


def test_creator_fills_free_seats_with_the_computer(client: TestClient) -> None:
    r = client.post("/api/games", json={"mode": "room", "seating": "2v2", "target": 11})
    game, token = r.json()["game"], r.json()["token"]
    j = client.post(f"/api/games/{game}/join", json={"name": "Yasmine"}).json()
    with client.websocket_connect("/ws") as guest:
        s = hello(guest, game, j["token"])
        assert s["status"] == "open" and s["legal"] == []
        guest.send_json({"type": "fill", "level": "random"})
        expect_error(guest, "not_creator")
    with client.websocket_connect("/ws") as ws:
        hello(ws, game, token)
        ws.send_json({"type": "fill", "level": "nobody"})
        expect_error(ws, "unknown_level")
        ws.send_json({"type": "fill", "level": "random", "id": "f"})
        room, _ = recv_until(ws, "room")
        while room["status"] != "playing":
            room, _ = recv_until(ws, "room")
        assert [p["computer"] for p in room["players"]] == [None, None, "random", "random"]
        ws.send_json({"type": "fill", "level": "random"})
        expect_error(ws, "no_free_seat")


def test_rate_limit_per_connection(sqlite_url: str) -> None:
    settings = Settings(bot_delay=0, rate=0.01, burst=5, max_refusals=3)
    with make_client(sqlite_url, settings) as client, client.websocket_connect("/ws") as ws:
        for i in range(5):
            ws.send_json({"type": "ping", "id": i})
            recv_until(ws, "pong")
        ws.send_json({"type": "ping"})
        expect_error(ws, "rate_limited")
        ws.send_json({"type": "ping"})
        expect_error(ws, "rate_limited")
        ws.send_json({"type": "ping"})
        expect_error(ws, "rate_limited")
        # Past the allowed refusals the server closes the connection (policy violation).
        with pytest.raises(Exception) as closed:
            for _ in range(5):
                ws.receive_json()
        assert getattr(closed.value, "code", 1008) == 1008


def test_creating_games_is_rate_limited_per_address(sqlite_url: str) -> None:
    settings = Settings(bot_delay=0, rate=0.01, burst=3)
    with make_client(sqlite_url, settings) as client:
        codes = [client.post("/api/games", json={"mode": "room"}).status_code for _ in range(4)]
        assert codes == [201, 201, 201, 429]
        r = client.post("/api/games", json={"mode": "room"})
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"


def test_a_whole_four_player_game_between_people(client: TestClient) -> None:
    game, tokens = new_room(client, "4", target=11)
    conns: list[Any] = []
    with (
        client.websocket_connect("/ws") as a,
        client.websocket_connect("/ws") as b,
        client.websocket_connect("/ws") as c,
        client.websocket_connect("/ws") as d,
    ):
        conns = [a, b, c, d]
        states = [hello(ws, game, tokens[i]) for i, ws in enumerate(conns)]
        # Each seat's hello reaches the others as a "room" message; the next state is read below.
        while not states[0]["over"]:
            turn = states[0]["turn"]
            legal = states[turn]["legal"]
            assert legal, states[turn]
            conns[turn].send_json({"type": "play", "move": legal[-1], "ply": states[0]["ply"]})
            states = [recv_until(ws, "state")[0] for ws in conns]
            assert len({s["ply"] for s in states}) == 1
        assert max(states[0]["totals"]) >= 11
        assert all(s["winner"] == states[0]["winner"] for s in states)


class BrokenAgent:
    """A computer player that fails: the game must go on regardless."""

    name = "broken"

    def choose(self, obs: object) -> str:
        raise RuntimeError("this player is broken")


def test_a_failing_computer_player_does_not_stall_the_game(client: TestClient) -> None:
    AGENTS["broken"] = lambda seed: BrokenAgent()  # type: ignore[assignment,return-value]
    try:
        r = client.post(
            "/api/games", json={"mode": "computer", "level": "broken", "target": 11}
        ).json()
        with client.websocket_connect("/ws") as ws:
            state = hello(ws, r["game"], r["token"])
            while not state["over"]:
                if state["legal"]:
                    ws.send_json({"type": "play", "move": state["legal"][0]})
                state, _ = recv_until(ws, "state")
        assert max(state["totals"]) >= 11
    finally:
        del AGENTS["broken"]
