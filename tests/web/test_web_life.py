"""The whole life of a web game (issue 13 §1): room settings at creation, private rooms,
resignation, rematch, away seats and the grace period, the turn clock, abandonment, and
the timers across a restart; for the Chkobba family and Touti (docs/protocol.md)."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import update
from starlette.testclient import TestClient
from wsutil import expect_error, hello, make_client, recv_until

from chkobba.cli import main
from chkobba.fishing.record import GameRecord, replay
from chkobba.games import game
from chkobba.store import MoveRow, SeatRow, Store, StoredGame
from chkobba.store.schema import moves
from chkobba.touti.record import ToutiRecord
from chkobba.touti.record import replay as replay_touti
from chkobba.web.hub import Hub, token_hash
from chkobba.web.life import ABANDON_AFTER, GRACE


def new_room(
    client: TestClient, game: str = "chkobba", **settings: Any
) -> tuple[str, list[str]]:
    """A room of two people (Touti: two people and two computers); the id and the tokens."""
    body: dict[str, Any] = {"mode": "room", "game": game, **settings}
    if game == "touti":
        body["computers"] = [None, None, "random", "random"]
    else:
        body.update(seating="2", target=11)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    gid, token = r.json()["game"], r.json()["token"]
    j = client.post(f"/api/games/{gid}/join", json={"name": "Guest"})
    assert j.status_code == 200, j.text
    return gid, [token, j.json()["token"]]


def until(ws: Any, kind: str, test: Any, limit: int = 400) -> dict[str, Any]:
    """Read messages until one of ``kind`` for which ``test`` holds."""
    for _ in range(limit):
        msg = ws.receive_json()
        if msg["type"] == kind and test(msg):
            return dict(msg)
    raise AssertionError(f"no such {kind!r} message")


def play_for(ws: Any, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Play the first legal move if ``seat`` is to move; return the next state."""
    if state["turn"] == seat and state["legal"]:
        ws.send_json({"type": "play", "move": state["legal"][0], "ply": state["ply"]})
    return until(ws, "state", lambda m: True)


# -- settings at creation -------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"grace": "soon"}, "grace must be a number of seconds"),
        ({"grace": 0}, "grace must be from"),
        ({"clock": -1}, "clock must be from"),
        ({"clock": True}, "clock must be a number"),
        ({"abandon_after": 1e12}, "abandon_after must be from"),
        ({"unlisted": "yes"}, "unlisted must be true or false"),
        ({"coaching": 1}, "coaching must be true or false"),
        ({"mode": "computer", "coaching": False}, "always available against the computer"),
        ({"tempo": 3}, "unknown field(s): tempo"),
        ({"team_talk": "whispers"}, "team_talk must be 'phrases' or 'free', not 'whispers'"),
    ],
)
def test_bad_room_settings_get_a_one_line_400(
    sqlite_client: TestClient, body: dict[str, Any], words: str
) -> None:
    r = sqlite_client.post("/api/games", json={"mode": "room", **body})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_request"
    assert words in r.json()["message"] and "\n" not in r.json()["message"]


def test_settings_are_stored_and_shown_with_their_defaults(client: TestClient) -> None:
    solo = client.post("/api/games", json={"level": "random"}).json()
    shown = client.get(f"/api/games/{solo['game']}").json()
    assert shown["settings"] == {
        "unlisted": True, "grace": GRACE, "clock": None, "abandon_after": ABANDON_AFTER,
        "coaching": True, "rated": False, "team_talk": "phrases",
    }
    assert shown["coaching"] is True and shown["ending"] is None
    gid, tokens = new_room(client, grace=5, clock=30.5, abandon_after=600, unlisted=True)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "game": gid, "token": tokens[1]})
        welcome, _ = recv_until(ws, "welcome")
    assert welcome["settings"] == {
        "unlisted": True, "grace": 5.0, "clock": 30.5, "abandon_after": 600.0,
        "coaching": False, "rated": False, "team_talk": "phrases",
    }
    assert welcome["coaching"] is False


def test_a_room_of_one_person_and_computers_defaults_as_a_game_against_the_computer(
    sqlite_client: TestClient,
) -> None:
    # Touti's page makes such a room to set the partner's level apart from the opponents'.
    alone = sqlite_client.post("/api/games", json={
        "game": "touti", "mode": "room", "name": "Selma",
        "computers": [None, "random", "technique", "random"],
    }).json()
    shown = sqlite_client.get(f"/api/games/{alone['game']}").json()
    assert shown["settings"]["unlisted"] is True and shown["coaching"] is True
    # With a seat left for a person, it is a room like any other.
    waiting = sqlite_client.post("/api/games", json={
        "game": "touti", "mode": "room", "name": "Selma", "computers": [None, "random"],
    }).json()
    shown = sqlite_client.get(f"/api/games/{waiting['game']}").json()
    assert shown["settings"]["unlisted"] is False and shown["coaching"] is False


def test_unlisted_rooms_are_left_out_of_the_lobby(sqlite_client: TestClient) -> None:
    c = sqlite_client
    public, _ = new_room(c)
    private, _ = new_room(c, unlisted=True)
    solo = c.post("/api/games", json={"level": "random"}).json()["game"]
    open_public = c.post("/api/games", json={"mode": "room", "seating": "2"}).json()["game"]
    open_private = c.post(
        "/api/games", json={"mode": "room", "seating": "2", "unlisted": True}
    ).json()["game"]
    playing = {g["game"] for g in c.get("/api/games?status=playing").json()["games"]}
    waiting = {g["game"] for g in c.get("/api/games?status=open").json()["games"]}
    assert public in playing and private not in playing and solo not in playing
    assert open_public in waiting and open_private not in waiting
    # The link still opens them.
    assert c.get(f"/api/games/{private}").status_code == 200
    assert c.post(f"/api/games/{open_private}/join", json={}).status_code == 200


# -- resignation ------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["chkobba", "touti"])
def test_a_side_resigns_and_the_record_says_so(client: TestClient, which: str) -> None:
    gid, tokens = new_room(client, which)
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        hello(a, gid, tokens[0])
        hello(b, gid, tokens[1])
        with client.websocket_connect("/ws") as watcher:
            hello(watcher, gid)
            watcher.send_json({"type": "resign"})
            expect_error(watcher, "spectator")
        b.send_json({"type": "resign", "id": "r1"})
        done = until(b, "resigned", lambda m: True)
        assert done == {"type": "resigned", "game": gid, "side": 1, "re": "r1"}
        over = until(a, "state", lambda m: m["status"] == "finished")
        assert over["over"] is True and over["ending"] == "resigned"
        assert over["resigned"] == 1 and over["winner"] == 0 and over["legal"] == []
        a.send_json({"type": "resign"})
        expect_error(a, "not_playing")
        a.send_json({"type": "play", "move": "keep"})
        expect_error(a, "game_over")
    finished = client.get("/api/games?status=finished").json()["games"]
    assert [(g["ending"], g["resigned"], g["winner"]) for g in finished if g["game"] == gid] == [
        ("resigned", 1, 0)
    ]
    text = client.get(f"/api/games/{gid}/record").text
    if which == "touti":
        rec = ToutiRecord.loads(text)
        replay_touti(rec)
        meta = rec.meta
    else:
        chk = GameRecord.loads(text)
        replay(chk)  # an unfinished match is still a valid record
        meta = chk.meta
    assert meta is not None and meta["ending"] == "resigned" and meta["resigned"] == 1


def test_a_resigned_game_record_verifies(sqlite_client: TestClient, tmp_path: Any) -> None:
    # docs/records.md, "Verifying": `chkobba verify` replays the record; meta is free.
    r = sqlite_client.post("/api/games", json={"level": "random", "target": 11}).json()
    gid = r["game"]
    with sqlite_client.websocket_connect("/ws") as a:
        state = hello(a, gid, r["token"])
        for _ in range(3):
            state = play_for(a, state, 0)
        a.send_json({"type": "resign"})
        until(a, "resigned", lambda m: True)
    path = tmp_path / "resigned.json"
    path.write_text(sqlite_client.get(f"/api/games/{gid}/record").text)
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("valid") and "unfinished" in result.output


# -- rematch ----------------------------------------------------------------------------


def test_a_rematch_needs_every_person_and_keeps_the_seats(client: TestClient) -> None:
    gid, tokens = new_room(client)
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        hello(a, gid, tokens[0])
        hello(b, gid, tokens[1])
        a.send_json({"type": "rematch"})
        expect_error(a, "not_finished")
        a.send_json({"type": "resign"})
        until(a, "resigned", lambda m: True)
        a.send_json({"type": "rematch", "id": 1})
        until(a, "rematch_offered", lambda m: m["re"] == 1)
        offered = until(b, "room", lambda m: m["rematch_accepted"] == [0])
        assert offered["rematch"] is None
        b.send_json({"type": "rematch"})
        mine = until(b, "rematch", lambda m: True)
        theirs = until(a, "rematch", lambda m: True)
    new = mine["game"]
    assert theirs["game"] == new != gid and (theirs["seat"], mine["seat"]) == (0, 1)
    assert mine["url"] == f"/g/{new}" and mine["token"] != tokens[1]
    assert client.get(f"/api/games/{gid}").json()["rematch"] == new
    again = client.get(f"/api/games/{new}").json()
    assert again["rematch_of"] == gid and again["status"] == "playing"
    assert [p["name"] for p in again["players"]] == ["Player 1", "Guest"]
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, new, theirs["token"])["you"] == 0
        # Coming back to the old game with the old token gives the new seat again.
        hello(ws, gid, tokens[1])
        assert until(ws, "rematch", lambda m: True)["token"] == mine["token"]
    rec = GameRecord.loads(client.get(f"/api/games/{gid}/record").text)
    assert rec.meta is not None and rec.meta["rematch"] == new


def test_against_the_computer_the_rematch_starts_at_once(sqlite_client: TestClient) -> None:
    r = sqlite_client.post("/api/games", json={"game": "touti", "level": "random"}).json()
    with sqlite_client.websocket_connect("/ws") as ws:
        hello(ws, r["game"], r["token"])
        ws.send_json({"type": "resign"})
        until(ws, "resigned", lambda m: True)
        ws.send_json({"type": "rematch"})
        new = until(ws, "rematch", lambda m: True)
        assert new["url"] == f"/touti/{new['game']}"
        state = hello(ws, new["game"], new["token"])
        assert state["you"] == 0 and state["status"] == "playing"


# -- away seats, the grace period, the turn clock -------------------------------------------


@pytest.mark.parametrize("which", ["chkobba", "touti"])
def test_the_computer_plays_for_an_away_seat_until_it_comes_back(
    client: TestClient, which: str
) -> None:
    gid, tokens = new_room(client, which, grace=0.2)
    with client.websocket_connect("/ws") as a:
        state = hello(a, gid, tokens[0])
        with client.websocket_connect("/ws") as b:
            hello(b, gid, tokens[1])
        room = until(a, "room", lambda m: m["players"][1]["away"])
        assert room["players"][1]["online"] is False and room["players"][0]["away"] is False
        started = time.monotonic()
        # Seat 0 plays its own moves; seat 1's are the computer's once its grace is over.
        if state["turn"] == 0 and state["legal"]:
            a.send_json({"type": "play", "move": state["legal"][0], "ply": state["ply"]})
        while not any(p["stand_in"] == "away" for p in room["players"]):
            msg = a.receive_json()
            if msg["type"] == "room":
                room = msg
            elif msg["type"] == "state":
                state = msg
                if state["turn"] == 0 and state["legal"]:
                    a.send_json({"type": "play", "move": state["legal"][0], "ply": state["ply"]})
        assert time.monotonic() - started < 10
        moved = until(a, "state", lambda m: m["ply"] > state["ply"])
        assert moved["ply"] > state["ply"]
        with client.websocket_connect("/ws") as b:
            back = hello(b, gid, tokens[1])
            room = until(a, "room", lambda m: not m["players"][1]["away"])
            assert room["players"][1]["stand_in"] is None
            assert back["you"] == 1
            b.send_json({"type": "resign"})
            until(b, "resigned", lambda m: True)
    text = client.get(f"/api/games/{gid}/record").text
    rec: Any = ToutiRecord.loads(text) if which == "touti" else GameRecord.loads(text)
    stood = rec.meta["stand_in"]["1"]["away"]
    assert stood and all(isinstance(p, int) for p in stood) and "0" not in rec.meta["stand_in"]


def test_the_turn_clock_plays_for_a_seat_out_of_time(sqlite_client: TestClient) -> None:
    c = sqlite_client
    gid, tokens = new_room(c, clock=0.3)
    with c.websocket_connect("/ws") as a, c.websocket_connect("/ws") as b:
        state = hello(a, gid, tokens[0])
        hello(b, gid, tokens[1])
        seat = state["turn"]
        started = time.monotonic()
        # Nobody plays: the clock plays for the seat to move, then for the next one.
        later = until(a, "state", lambda m: m["ply"] >= state["ply"] + 2)
        assert 0.25 <= time.monotonic() - started < 5
        assert later["status"] == "playing"
        room = c.get(f"/api/games/{gid}").json()
        assert all(p["stand_in"] is None for p in room["players"])  # one move at a time
        a.send_json({"type": "resign"})
        until(a, "resigned", lambda m: True)
    meta = GameRecord.loads(c.get(f"/api/games/{gid}/record").text).meta
    assert meta is not None
    clocked = {s: v["clock"] for s, v in meta["stand_in"].items()}
    assert clocked[str(seat)][0] == state["ply"]


def test_nobody_waiting_means_no_stand_in(sqlite_client: TestClient) -> None:
    # With no seat's holder connected the game waits (for abandonment), not played out.
    c = sqlite_client
    gid, tokens = new_room(c, grace=0.1, clock=0.1)
    with c.websocket_connect("/ws") as a:
        ply = hello(a, gid, tokens[0])["ply"]
    time.sleep(0.5)
    assert c.get(f"/api/games/{gid}").json()["ply"] == ply


# -- abandonment, and the timers across a restart -----------------------------------------


def test_a_game_nobody_comes_back_to_is_abandoned(client: TestClient) -> None:
    r = client.post(
        "/api/games", json={"level": "random", "abandon_after": 0.3, "unlisted": False}
    ).json()
    with client.websocket_connect("/ws") as ws:
        hello(ws, r["game"], r["token"])
    deadline = time.monotonic() + 3
    while client.get(f"/api/games/{r['game']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "not abandoned"
        time.sleep(0.05)
    shown = client.get(f"/api/games/{r['game']}").json()
    assert shown["ending"] == "abandoned" and shown["winner"] is None
    finished = client.get("/api/games?status=finished").json()["games"]
    assert [g["ending"] for g in finished if g["game"] == r["game"]] == ["abandoned"]
    meta = GameRecord.loads(client.get(f"/api/games/{r['game']}/record").text).meta
    assert meta is not None and meta["ending"] == "abandoned"


def test_a_room_abandoned_before_it_filled_has_no_rematch(client: TestClient) -> None:
    r = client.post("/api/games", json={"mode": "room", "name": "Hedi", "abandon_after": 0.3})
    gid, token = r.json()["game"], r.json()["token"]
    with client.websocket_connect("/ws") as ws:
        hello(ws, gid, token)
    deadline = time.monotonic() + 3
    while client.get(f"/api/games/{gid}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "not abandoned"
        time.sleep(0.05)
    with client.websocket_connect("/ws") as ws:
        hello(ws, gid, token)
        ws.send_json({"type": "rematch"})
        expect_error(ws, "no_rematch")
    assert client.get(f"/api/games/{gid}").json()["rematch"] is None


def test_timers_resume_from_stored_times_after_a_restart(db_url: str) -> None:
    with make_client(db_url) as c:
        soon = c.post("/api/games", json={"level": "random", "abandon_after": 2.8}).json()
        gone = c.post("/api/games", json={"level": "random", "abandon_after": 0.5}).json()
        kept = c.post("/api/games", json={"level": "random"}).json()
        for g in (soon, gone, kept):
            with c.websocket_connect("/ws") as ws:
                hello(ws, g["game"], g["token"])
        left = time.monotonic()
    time.sleep(2.0)  # the server is down: part of the test, the time the timers must count
    restarting = time.monotonic()
    with make_client(db_url) as c:
        hub: Hub = c.app.state.hub  # type: ignore[attr-defined]
        # Abandoned while the server was down: marked so at start-up, never replayed.
        assert hub.abandoned_at_start == 1 and gone["game"] not in hub.rooms
        assert {soon["game"], kept["game"]} <= set(hub.rooms)
        assert c.get(f"/api/games/{gone['game']}").json()["ending"] == "abandoned"
        while c.get(f"/api/games/{soon['game']}").json()["status"] != "finished":
            # Due 0.8 s after the restart; a timer started again from zero at start-up
            # could not end it before 2.8 s after: 2 s of slack for a loaded machine.
            assert time.monotonic() - restarting < 2.8, "the timer started again from zero"
            time.sleep(0.05)
        assert time.monotonic() - left >= 2.3  # not before its time either
        assert c.get(f"/api/games/{kept['game']}").json()["status"] == "playing"


def test_start_up_does_not_grow_with_abandoned_games(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    n = 2000
    with make_client(sqlite_url) as c:
        live = c.post("/api/games", json={"level": "random"}).json()["game"]
    store = Store(sqlite_url)
    try:
        store_left_games(store, n)
    finally:
        store.close()
    import chkobba.web.hub as hub_module

    replays: list[str] = []
    real = hub_module.room_from_stored

    def counted(g: Any) -> Any:
        replays.append(g.id)
        return real(g)

    monkeypatch.setattr(hub_module, "room_from_stored", counted)
    t0 = time.perf_counter()
    with make_client(sqlite_url) as c:
        first = time.perf_counter() - t0
        hub = c.app.state.hub  # type: ignore[attr-defined]
        assert hub.abandoned_at_start == n and replays == [live]
    # CPU time of this process (the app and SQLite run in it): the claim is about the
    # start-up's cost, which other processes competing for the cores do not change.
    t0 = time.process_time()
    with make_client(sqlite_url):
        second = time.process_time() - t0
    assert replays == [live, live]
    print(f"\nstart-up with {n} games abandoned while down: {first:.2f} s; "
          f"then {second:.2f} s of CPU")
    assert second < 2.0


def store_left_games(store: Store, n: int) -> None:
    """``n`` games against the computer, some moves in, their players gone since long ago
    (what the 8,000 games that slowed start-ups down looked like)."""
    g = game("chkobba")
    rules = g.make_rules("chkobba", {"target": 11})
    long_ago = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    rows = []
    for i in range(n):
        gid = f"L{i:05d}"
        table = g.serve(rules, 2, False, i)
        store.create_game(StoredGame(
            gid, "computer", "playing", "chkobba", {"target": 11}, 2, False, i, long_ago,
            [SeatRow(0, "Left", token_hash(f"left-{i}")), SeatRow(1, None, None, "random")],
        ))
        for ply in range(4):
            rows.append(MoveRow(gid, ply, table.turn, table.play(table.turn, table.legal()[0])))
    store.append_moves(rows)
    with store.engine.begin() as conn:
        conn.execute(update(moves).values(played_at=long_ago))
