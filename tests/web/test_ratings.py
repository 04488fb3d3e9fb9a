"""Rated games, ratings, leaderboards and profiles (issue 26, section 2): which games may be
rated, a rated game's end changing both ratings once (resigned, or lost on the clock),
the migration, and privacy (a private game never on a profile for others)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient
from test_accounts import CHEAP, Device, app_client, signup
from wsutil import FAST, hello, recv_until

from chkobba.store import Finish, SeatRow, Store, StoredGame
from chkobba.store.ratings import MODEL, Outcome
from chkobba.store.schema import rating_history, ratings
from chkobba.store.store import now
from chkobba.web.app import create_app
from chkobba.web.hub import Settings


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'chkobba.db'}"


@pytest.fixture
def c(url: str) -> Iterator[TestClient]:
    with app_client(url) as client:
        yield client


def players(c: TestClient, *names: str) -> list[Device]:
    out = []
    for name in names:
        d = Device(c)
        assert signup(d, name).status_code == 201
        out.append(d)
    return out


def rated_game(a: Device, b: Device, **extra: Any) -> tuple[str, str, str]:
    """A rated Chkobba duel between two accounts: its code and the seats' tokens."""
    r = a.post("/api/games", json={"mode": "room", "rated": True, **extra})
    assert r.status_code == 201, r.json()
    code = r.json()["game"]
    j = b.post(f"/api/games/{code}/join", json={})
    assert j.status_code == 200, j.json()
    return code, r.json()["token"], j.json()["token"]


def profile(d: Device, name: str) -> dict[str, Any]:
    r = d.get(f"/api/users/{name}")
    assert r.status_code == 200, r.json()
    return dict(r.json())


def wait_finished(c: TestClient, code: str) -> dict[str, Any]:
    for _ in range(200):
        s = c.get(f"/api/games/{code}").json()
        if s["status"] == "finished":
            return dict(s)
        time.sleep(0.05)
    raise AssertionError(f"game {code} did not finish")


# -- which games may be rated --------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ({"mode": "computer"}, "mode must be 'room'"),
        ({"mode": "room", "computers": [None, "easy"]}, "no computer seat"),
        ({"mode": "room", "coaching": True}, "without the coach"),
        ({"mode": "room", "options": {"target": 31}}, "no rating pool"),
        ({"mode": "room", "target": 11}, "no rating pool"),
        ({"mode": "room", "rules": "scopa-frac"}, "no rating pool"),
        ({"mode": "room", "seating": "3"}, "no rating pool"),
    ],
)
def test_a_game_outside_the_pools_cannot_be_rated(c: TestClient, body: dict[str, Any],
                                                  why: str) -> None:
    [a] = players(c, "alice")
    r = a.post("/api/games", json={**body, "rated": True})
    assert r.status_code == 400
    assert r.json()["error"] == "not_rateable" and why in r.json()["message"]


def test_a_guest_can_neither_create_nor_join_a_rated_game(c: TestClient) -> None:
    r = c.post("/api/games", json={"mode": "room", "rated": True})
    assert r.status_code == 400 and r.json()["error"] == "not_rateable"
    [a] = players(c, "alice")
    code = a.post("/api/games", json={"mode": "room", "rated": True}).json()["game"]
    guest = Device(c)
    r = guest.post(f"/api/games/{code}/join", json={"name": "guest"})
    assert r.status_code == 403 and r.json()["error"] == "rated_needs_account"


def test_a_rated_game_has_a_clock_and_no_computer_to_fill_it(c: TestClient) -> None:
    [a] = players(c, "alice")
    r = a.post("/api/games", json={"mode": "room", "rated": True})
    code, token = r.json()["game"], r.json()["token"]
    summary = c.get(f"/api/games/{code}").json()
    assert summary["settings"]["rated"] is True and summary["settings"]["clock"] == 60.0
    with a.ws() as ws:
        hello(ws, code, token)
        ws.send_json({"type": "fill", "game": code, "level": "easy"})
        err, _ = recv_until(ws, "error")
        assert err["code"] == "rated_no_computer"


# -- a rated game's end changes both ratings ------------------------------------------------


def test_a_rated_game_resigned_changes_both_ratings(c: TestClient) -> None:
    a, b = players(c, "alice", "bob")
    code, ta, _ = rated_game(a, b, seating="2", unlisted=False)
    with a.ws() as ws:
        hello(ws, code, ta)
        ws.send_json({"type": "resign", "game": code})
        recv_until(ws, "resigned")
    assert wait_finished(c, code)["status"] == "finished"
    board = c.get("/api/leaderboard?pool=chkobba").json()
    assert [(p["name"], p["games"], p["wins"]) for p in board["players"]] == [
        ("bob", 1, 1), ("alice", 1, 0)
    ]
    bob = board["players"][0]
    assert bob["rating"] > 1500 > board["players"][1]["rating"]
    assert bob["provisional"] is True and bob["plus_minus"] > 0
    seen = profile(a, "Bob")  # names are found whatever their case
    assert seen["name"] == "bob" and seen["played"] == 1 and seen["won"] == 1
    assert [h["game"] for h in seen["history"]] == [code]
    assert [g["game"] for g in seen["recent"]] == [code]
    assert seen["recent"][0]["replay"] == f"/replay/{code}"


def test_an_absent_player_loses_on_the_clock(c: TestClient) -> None:
    a, b = players(c, "alice", "bob")
    code, _, _ = rated_game(a, b, clock=0.3)
    # Nobody connects, nobody moves: the seat to move runs out of time and loses.
    summary = wait_finished(c, code)
    assert summary["ending"] == "timeout"
    board = c.get("/api/leaderboard?pool=chkobba").json()["players"]
    assert sorted(p["games"] for p in board) == [1, 1]
    assert sum(p["wins"] for p in board) == 1
    assert all(p["rating"] != 1500 for p in board)
    # Every JSON API that says how a game ended names the timeout and the side out of time.
    loser = summary["resigned"]
    assert loser in (0, 1) and summary["winner"] == 1 - loser
    [listed] = [g for g in c.get("/api/games?status=finished").json()["games"]
                if g["game"] == code]
    replay = c.get(f"/api/games/{code}/replay").json()
    meta = c.get(f"/api/games/{code}/record").json()["meta"]
    for said in (listed, replay, meta):
        assert (said["ending"], said["resigned"]) == ("timeout", loser), said
    for d, name in ((a, "alice"), (b, "bob")):
        [recent] = profile(d, name)["recent"]
        assert (recent["ending"], recent["resigned"], recent["side_of"]) == (
            "timeout", loser, [0, 1]
        )
        assert recent["won"] is (recent["seat"] != loser)


def test_a_casual_game_changes_no_rating(c: TestClient) -> None:
    a, b = players(c, "alice", "bob")
    code = a.post("/api/games", json={"mode": "room", "clock": 0.2}).json()["game"]
    b.post(f"/api/games/{code}/join", json={})
    a2 = a.post("/api/games", json={"mode": "room"}).json()
    b.post(f"/api/games/{a2['game']}/join", json={})
    with a.ws() as ws:
        hello(ws, a2["game"], a2["token"])
        ws.send_json({"type": "resign", "game": a2["game"]})
        recv_until(ws, "resigned")
    assert c.get("/api/leaderboard?pool=chkobba").json()["players"] == []


# -- privacy --------------------------------------------------------------------------------


def test_a_private_game_is_never_on_a_profile_for_others(c: TestClient) -> None:
    a, b, other = players(c, "alice", "bob", "carol")
    code, ta, _ = rated_game(a, b, unlisted=True)
    with a.ws() as ws:
        hello(ws, code, ta)
        ws.send_json({"type": "resign", "game": code})
        recv_until(ws, "resigned")
    wait_finished(c, code)
    for viewer in (other, Device(c)):
        for name in ("alice", "bob"):
            r = viewer.get(f"/api/users/{name}")
            assert code not in r.text
            assert r.json()["recent"] == [] and len(r.json()["history"]) == 1
    mine = profile(a, "alice")
    assert mine["own"] and [g["game"] for g in mine["recent"]] == [code]
    assert mine["history"][0]["game"] == code


def test_unknown_users_and_pools(c: TestClient) -> None:
    assert c.get("/api/users/nobody").json()["error"] == "unknown_user"
    assert c.get("/api/users/%3Cb%3E").json()["error"] == "unknown_user"
    assert c.get("/api/leaderboard?pool=poker").json()["error"] == "unknown_pool"
    assert c.get("/api/leaderboard?limit=0").status_code == 400
    pools = c.get("/api/pools").json()
    names = [p["pool"] for p in pools["pools"]]
    assert {"chkobba", "scopa", "scopone", "cirulla", "escoba", "touti"} <= set(names)
    assert pools["provisional_sigma"] > 0
    for page in ("/leaderboard", "/u/alice"):
        assert c.get(page).headers["content-type"].startswith("text/html")


# -- the store: once per game, atomically ----------------------------------------------------


def _game(store: Store, code: str, accounts: list[int]) -> None:
    store.create_game(
        StoredGame(
            id=code, kind="room", status="playing", rules="chkobba", options={},
            seats=len(accounts), teams=len(accounts) == 4, seed=1, created_at=now(),
            seat_rows=[SeatRow(s, f"p{s}", f"h{code}{s}", account_id=a)
                       for s, a in enumerate(accounts)],
            pool="chkobba-2v2" if len(accounts) == 4 else "chkobba",
        )
    )


def test_an_end_written_twice_rates_once(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.migrate()
        from chkobba.store.accounts import Accounts

        ids = [Accounts(store.engine).create(n, n, n, "x").id for n in ("a1", "a2", "a3", "a4")]
        _game(store, "AAAA", ids)
        end = Finish("AAAA", 1, [9, 21], rated=Outcome("chkobba-2v2", (0, 1, 0, 1), (1, 0)))
        store.append_moves([], [end])
        store.append_moves([], [end])  # a second worker, or a retry, ends it again
        with store.engine.connect() as conn:
            rows = conn.execute(sa.select(ratings).order_by(ratings.c.account_id)).all()
            history = conn.execute(sa.select(rating_history)).all()
        assert len(history) == 4
        assert [(r.games, r.wins) for r in rows] == [(1, 0), (1, 1), (1, 0), (1, 1)]
        assert rows[1].mu > MODEL.mu > rows[0].mu and rows[1].mu == rows[3].mu
        # A seat nobody's account holds: the game is not rated (and its end is stored).
        _game(store, "BBBB", [ids[0], ids[1]])
        with store.engine.begin() as conn:
            conn.execute(sa.text("UPDATE seats SET account_id = NULL WHERE game_id = 'BBBB'"
                                 " AND seat = 1"))
        store.append_moves([], [Finish("BBBB", 0, [21, 3],
                                       rated=Outcome("chkobba", (0, 1), (0, 1)))])
        assert store.game("BBBB").status == "finished"  # type: ignore[union-attr]
        with store.engine.connect() as conn:
            assert conn.execute(sa.select(sa.func.count()).select_from(rating_history)
                                ).scalar() == 4
    finally:
        store.close()


def test_the_migration_keeps_the_games_and_adds_the_tables(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.migrate("0008")
        with store.engine.begin() as conn:
            conn.execute(sa.text(
                "INSERT INTO games (id, game, kind, status, rules, rules_version, options, "
                "seats, teams, seed, created_at, unlisted) VALUES ('OLD1', 'chkobba', 'room', "
                "'finished', 'chkobba', 1, '{}', 2, false, 1, CURRENT_TIMESTAMP, false)"
            ))
        store.migrate()
        inspector = sa.inspect(store.engine)
        assert {"ratings", "rating_history"} <= set(inspector.get_table_names())
        assert "pool" in {c["name"] for c in inspector.get_columns("games")}
        old = store.game("OLD1")
        assert old is not None and old.pool is None
    finally:
        store.close()


def test_ratings_are_in_the_data_download_and_go_with_the_account(c: TestClient) -> None:
    a, b = players(c, "alice", "bob")
    code, ta, _ = rated_game(a, b)
    with a.ws() as ws:
        hello(ws, code, ta)
        ws.send_json({"type": "resign", "game": code})
        recv_until(ws, "resigned")
    wait_finished(c, code)
    data = a.get("/api/account/export").json()
    assert [(r["pool"], r["games"], r["wins"]) for r in data["ratings"]] == [("chkobba", 1, 0)]
    assert [h["game"] for h in data["rating_history"]] == [code]
    assert a.post("/api/account/delete", json={"password": "correct horse battery"}).json()["ok"]
    board = c.get("/api/leaderboard?pool=chkobba").json()["players"]
    assert [p["name"] for p in board] == ["bob"]
    assert len(profile(b, "bob")["history"]) == 1


def test_a_played_out_game_of_four_rates_each_by_rank(url: str) -> None:
    # Computer players in accounts' seats (only with bench_seats): a played-out game of
    # four each for themselves, rated when its last move is stored.
    settings = Settings(bot_delay=0, rate=10_000, burst=10_000, bench_seats=True)
    with TestClient(create_app(url, settings, accounts=CHEAP)) as client:
        names = ["ana", "ben", "cyd", "dia"]
        for name in names:
            assert signup(client, name).status_code == 201
        client.cookies.clear()
        code = client.post("/api/bench/rated", json={
            "pool": "chkobba-4", "names": names, "levels": ["random"] * 4,
        }).json()["game"]
        summary = wait_finished(client, code)
        board = client.get("/api/leaderboard?pool=chkobba-4").json()["players"]
        assert sorted(p["name"] for p in board) == names
        assert all(p["games"] == 1 for p in board)
        assert sum(p["wins"] for p in board) == (1 if summary["winner"] is not None else 0)
        # The winner moved up the most; the order follows the game's ranks.
        if summary["winner"] is not None:
            assert board[0]["name"] == names[summary["winner"]]
        # Without bench_seats the route does not exist.
    with app_client(url) as plain:
        assert plain.post("/api/bench/rated", json={}).status_code in (404, 405)


def test_a_rated_game_in_a_cluster_is_rated_once(pg_server: Any) -> None:
    # Two workers on one PostgreSQL database: the game is created on one, joined on the
    # other, resigned where it is held; its end (fenced) and the ratings go together.
    url = pg_server.new_database()
    with TestClient(create_app(url, FAST, worker="a", accounts=CHEAP)) as wa, TestClient(
        create_app(url, FAST, worker="b", accounts=CHEAP)
    ) as wb:
        alice, bob = Device(wa), Device(wb)
        assert signup(alice, "alice").status_code == 201
        assert signup(bob, "bob").status_code == 201
        code, _, tb = rated_game(alice, bob)
        with bob.ws() as ws:
            hello(ws, code, tb)
            ws.send_json({"type": "resign", "game": code})
            recv_until(ws, "resigned")
        wait_finished(wa, code)
        for worker in (wa, wb):
            board = worker.get("/api/leaderboard?pool=chkobba").json()["players"]
            assert [(p["name"], p["games"], p["wins"]) for p in board] == [
                ("alice", 1, 1), ("bob", 1, 0)
            ]


# -- Play now, rated --------------------------------------------------------------------------


def paired(d: Device, ticket: str, seconds: float = 20.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        r = d.post("/api/queue/poll", json={"ticket": ticket})
        assert r.status_code == 200, r.json()
        if r.json()["status"] == "paired":
            return dict(r.json())
        time.sleep(0.05)
    raise AssertionError("not paired in time")


def test_rated_play_now_pairs_by_the_leaderboards_rating_and_rates_its_game(
    c: TestClient,
) -> None:
    a, b = players(c, "alice", "bob")
    code, ta, _ = rated_game(a, b, rules="scopa", seating="2", unlisted=False)
    with a.ws() as ws:
        hello(ws, code, ta)
        ws.send_json({"type": "resign", "game": code})
        recv_until(ws, "resigned")
    wait_finished(c, code)
    board = {p["name"]: p for p in c.get("/api/leaderboard?pool=scopa").json()["players"]}
    # The queue pairs by the rating the leaderboard shows, in the same pool.
    ja = a.post("/api/queue", json={"pool": "scopa", "rated": True}).json()
    jb = b.post("/api/queue", json={"pool": "scopa", "rated": True}).json()
    assert ja["rating"] == pytest.approx(board["alice"]["rating"], abs=1)
    assert jb["rating"] == pytest.approx(board["bob"]["rating"], abs=1)
    assert ja["rating"] < 1500 < jb["rating"]
    pa, pb = paired(a, ja["ticket"]), paired(b, jb["ticket"])
    assert pa["game"] == pb["game"]
    stored = c.app.state.hub.store.game(pa["game"])  # type: ignore[attr-defined]
    assert stored.pool == "scopa" and stored.settings["rated"] is True
    # Its end is rated like a rated room's.
    with b.ws() as ws:
        hello(ws, pb["game"], jb["ticket"])
        ws.send_json({"type": "resign", "game": pb["game"]})
        recv_until(ws, "resigned")
    wait_finished(c, pb["game"])
    after = {p["name"]: p for p in c.get("/api/leaderboard?pool=scopa").json()["players"]}
    assert (after["alice"]["games"], after["alice"]["wins"]) == (2, 1)
    assert (after["bob"]["games"], after["bob"]["wins"]) == (2, 1)
    # Where no pool rates a game, rated Play now is refused with the reason.
    r = a.post("/api/queue", json={"pool": "scopa-frac", "rated": True})
    assert r.status_code == 400 and "no rating pool" in r.json()["message"]
