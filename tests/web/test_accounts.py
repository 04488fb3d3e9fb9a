"""Accounts and sessions (issue 26, section 1): signing up, logging in and out, the
password, deleting the account and downloading its data, and the security of each: the
password never in clear, sessions refused once ended, cross-site requests refused,
guessing limited, one account never reaching another's data, look-alike names refused."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient
from wsutil import FAST, expect_error, hello, recv_until

from chkobba.store import Store
from chkobba.store.schema import accounts, metadata, seats, sessions
from chkobba.web.app import create_app
from chkobba.web.auth import SESSION_COOKIE, AccountPolicy

CHEAP = AccountPolicy(
    time_cost=1, memory_cost=256, parallelism=1, account_failures=3, address_failures=5,
    signup_burst=100,
)
"""Argon2id at a test's cost (the server's default takes 64 MiB and a tenth of a second),
and small limits so that a test reaches them."""
PASSWORD = "correct horse battery"


def app_client(url: str, policy: AccountPolicy = CHEAP, **kw: Any) -> TestClient:
    return TestClient(create_app(url, FAST, accounts=policy), **kw)


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'chkobba.db'}"


@pytest.fixture
def c(url: str) -> Iterator[TestClient]:
    with app_client(url) as client:
        yield client


class Device:
    """One browser of one server: its own session cookie, on a test client shared with
    other devices (one app, so one hub holding each game)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.sid: str | None = None

    def request(self, method: str, path: str, **kw: Any) -> Any:
        self.client.cookies.clear()
        headers = dict(kw.pop("headers", {}))
        if self.sid is not None:
            headers["Cookie"] = f"{SESSION_COOKIE}={self.sid}"
        r = self.client.request(method, path, headers=headers, **kw)
        self.client.cookies.clear()
        cookie = r.headers.get("set-cookie", "")
        if cookie.startswith(f"{SESSION_COOKIE}="):
            value = cookie.split(";", 1)[0].split("=", 1)[1].strip('"')
            self.sid = value if value and "Max-Age=0" not in cookie else None
        return r

    def get(self, path: str, **kw: Any) -> Any:
        return self.request("GET", path, **kw)

    def post(self, path: str, **kw: Any) -> Any:
        return self.request("POST", path, **kw)

    def ws(self) -> Any:
        self.client.cookies.clear()
        cookie = {"Cookie": f"{SESSION_COOKIE}={self.sid}"} if self.sid else {}
        return self.client.websocket_connect("/ws", headers=cookie)


def signup(client: TestClient | Device, name: str, password: str = PASSWORD) -> Any:
    return client.post("/api/account/signup", json={"name": name, "password": password})


def login(client: TestClient | Device, name: str, password: str = PASSWORD) -> Any:
    return client.post("/api/account/login", json={"name": name, "password": password})


def until_ply(ws: Any, ply: int) -> dict[str, Any]:
    """Read a connection's messages until the state at ``ply``."""
    while True:
        state, _ = recv_until(ws, "state")
        if state["ply"] == ply:
            return state


def rows(url: str) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table, as dicts."""
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            return {
                t.name: [dict(r._mapping) for r in conn.execute(sa.select(t))]
                for t in metadata.sorted_tables
            }
    finally:
        store.close()


# -- signing up, logging in and out --------------------------------------------------------


def test_sign_up_log_out_log_in(c: TestClient) -> None:
    assert c.get("/api/account").status_code == 401
    r = signup(c, "Hedi")
    assert r.status_code == 201 and r.json()["account"]["name"] == "Hedi"
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=")
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower() and "Secure" not in cookie
    assert c.get("/api/account").json()["account"]["name"] == "Hedi"
    assert c.post("/api/account/logout").json() == {"ok": True}
    assert c.get("/api/account").status_code == 401
    # The name, whatever its case, and the password.
    assert login(c, "hedi", "wrong password").json()["error"] == "bad_login"
    assert login(c, "nobody", PASSWORD).json()["error"] == "bad_login"
    assert login(c, "HEDI").status_code == 200
    assert c.get("/api/account").json()["account"]["name"] == "Hedi"


def test_the_cookie_is_secure_over_https(url: str) -> None:
    with app_client(url, base_url="https://testserver") as c:
        assert "Secure" in signup(c, "Hedi").headers["set-cookie"]
        assert c.get("/api/account").status_code == 200


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("ab", "3 to 20"),
        ("a" * 21, "3 to 20"),
        ("Hedi Ben", "not ' '"),
        ("<b>Hedi</b>", "not '<'"),
        ("zero\u200bwidth", "U+200B"),
        ("Anonymous", "reserved"),  # the name a deleted account's seats keep
        ("c0mputer", "reserved"),
    ],
)
def test_bad_names_are_refused(c: TestClient, name: str, why: str) -> None:
    r = signup(c, name)
    assert r.status_code == 400 and r.json()["error"] == "bad_name" and why in r.json()["message"]


def test_a_short_password_is_refused(c: TestClient) -> None:
    r = signup(c, "Hedi", "short")
    assert r.status_code == 400 and "at least 8" in r.json()["message"]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Hedi", "hedi"),  # case
        ("Hedi", "HEDI"),
        ("Hedi", "\u041d\u0435di"),  # Cyrillic capital En and small ie
        ("Hedi", "\uff28\uff45\uff44\uff49"),  # full-width
        ("HedI", "Hedl"),  # capital i, small L
        ("B0B", "bob"),  # digit zero, letter o
        ("maria", "rnaria"),  # m, and r n
        ("ali_1", "ali_l"),
        ("\u0639\u0644\u064a", "\u0639\u0644\u0649"),  # Arabic yeh and alef maksura
    ],
)
def test_look_alike_names_are_refused(c: TestClient, first: str, second: str) -> None:
    assert signup(c, first).status_code == 201
    c.post("/api/account/logout")
    r = signup(c, second)
    assert r.status_code == 409 and r.json()["error"] == "name_taken", r.json()


def test_different_names_are_not_confused(c: TestClient) -> None:
    for name in ("Selma", "Salma", "Hedi", "Hedi_", "Hedi-2", "Ines"):
        assert signup(c, name).status_code == 201, name
        c.post("/api/account/logout")


# -- the password: never in clear --------------------------------------------------------


def test_the_password_is_never_stored_or_logged_in_clear(
    c: TestClient, url: str, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "Sphinx of black quartz 7"
    caplog.set_level(logging.DEBUG)
    assert signup(c, "Hedi", secret).status_code == 201
    assert login(c, "Hedi", secret).status_code == 200
    assert login(c, "Hedi", secret + "!").status_code == 401
    assert c.post(
        "/api/account/password", json={"password": secret, "new_password": secret + "2"}
    ).status_code == 200
    stored = rows(url)
    (account,) = stored["accounts"]
    assert account["password_hash"].startswith("$argon2id$v=19$")
    everything = repr(stored)
    assert secret not in everything
    # Nor the session id: the database holds only its hash.
    sid = c.cookies[SESSION_COOKIE]
    assert sid not in everything
    assert secret not in caplog.text and sid not in caplog.text
    assert "Hedi" in caplog.text or "account" in caplog.text  # the log did record the events


def test_a_hash_made_with_other_parameters_is_made_again(url: str) -> None:
    with app_client(url) as c:
        signup(c, "Hedi")
    (before,) = rows(url)["accounts"]
    stronger = AccountPolicy(time_cost=2, memory_cost=512, parallelism=1)
    with app_client(url, stronger) as c:
        assert login(c, "Hedi").status_code == 200
    (after,) = rows(url)["accounts"]
    assert "m=256,t=1" in before["password_hash"] and "m=512,t=2" in after["password_hash"]
    with app_client(url, stronger) as c:
        assert login(c, "Hedi").status_code == 200


# -- sessions that end ----------------------------------------------------------------------


def test_a_session_cookie_is_refused_after_logging_out(c: TestClient, url: str) -> None:
    signup(c, "Hedi")
    sid = c.cookies[SESSION_COOKIE]
    c.post("/api/account/logout")
    assert rows(url)["sessions"] == []
    c.cookies.set(SESSION_COOKIE, sid)
    r = c.get("/api/account")
    assert r.status_code == 401 and r.json()["error"] == "not_signed_in"


def test_logging_in_again_ends_the_browser_s_last_session(c: TestClient, url: str) -> None:
    signup(c, "Hedi")
    first = c.cookies[SESSION_COOKIE]
    assert login(c, "Hedi").status_code == 200
    assert c.cookies[SESSION_COOKIE] != first
    assert len(rows(url)["sessions"]) == 1


def test_log_out_everywhere_ends_every_session(c: TestClient, url: str) -> None:
    phone, laptop = Device(c), Device(c)
    signup(phone, "Hedi")
    login(laptop, "Hedi")
    assert laptop.get("/api/account").status_code == 200
    old = laptop.sid
    assert phone.post("/api/account/logout-everywhere").json()["sessions"] == 2
    assert phone.get("/api/account").status_code == 401
    assert laptop.sid == old
    assert laptop.get("/api/account").status_code == 401
    assert rows(url)["sessions"] == []


def test_an_expired_session_is_refused(url: str) -> None:
    with app_client(url, AccountPolicy(time_cost=1, memory_cost=256, parallelism=1,
                                       session_days=-1)) as c:
        signup(c, "Hedi")
        assert c.get("/api/account").status_code == 401


def test_changing_the_password_ends_the_other_sessions(c: TestClient) -> None:
    phone, laptop = Device(c), Device(c)
    signup(phone, "Hedi")
    login(laptop, "Hedi")
    r = phone.post("/api/account/password", json={"password": "nope nope",
                                                  "new_password": "new password 1"})
    assert r.status_code == 403 and r.json()["error"] == "wrong_password"
    r = phone.post("/api/account/password", json={"password": PASSWORD,
                                                  "new_password": "new password 1"})
    assert r.status_code == 200
    assert phone.get("/api/account").status_code == 200
    assert laptop.get("/api/account").status_code == 401
    assert login(laptop, "Hedi").status_code == 401
    assert login(laptop, "Hedi", "new password 1").status_code == 200


# -- cross-site requests --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/account/password", {"password": PASSWORD, "new_password": "stolen password"}),
        ("/api/account/delete", {"password": PASSWORD}),
        ("/api/account/logout-everywhere", {}),
        ("/api/games", {"mode": "room"}),
    ],
)
def test_a_cross_site_post_is_refused(c: TestClient, path: str, body: dict[str, Any]) -> None:
    signup(c, "Hedi")
    for headers in (
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Referer": "https://evil.example/page"},
        {"Origin": "http://testserver.evil.example"},
    ):
        r = c.post(path, json=body, headers=headers)
        assert r.status_code == 403 and r.json()["error"] == "cross_site", (headers, r.text)
    # Nothing changed: still signed in, with the same password.
    assert c.get("/api/account").status_code == 200
    c.post("/api/account/logout", headers={"Origin": "http://testserver"})
    assert login(c, "Hedi").status_code == 200


@pytest.mark.parametrize(
    ("origin", "host", "refused"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", False),
        ("https://chkobba.example", "chkobba.example", False),
        ("https://chkobba.example:443", "chkobba.example", False),
        ("http://[::1]:8000", "[::1]:8000", False),
        ("HTTP://Chkobba.Example", "chkobba.example", False),
        ("http://127.0.0.1:8001", "127.0.0.1:8000", True),
        ("https://chkobba.example.evil", "chkobba.example", True),
        ("http://[::1]:99999", "[::1]:8000", True),
        ("null", "chkobba.example", True),
        ("not a url", "chkobba.example", True),
    ],
)
def test_the_origin_check(origin: str, host: str, refused: bool) -> None:
    from starlette.datastructures import Headers

    from chkobba.web.auth import cross_site

    assert cross_site(Headers({"origin": origin, "host": host})) is refused
    assert cross_site(Headers({"referer": origin + "/x", "host": host})) is refused


def test_a_same_site_post_passes(c: TestClient) -> None:
    for headers in ({"Origin": "http://testserver"}, {"Referer": "http://testserver/"}, {}):
        assert c.post("/api/games", json={"mode": "room"}, headers=headers).status_code == 201


def test_a_cross_site_websocket_gets_no_seat_of_the_account(c: TestClient) -> None:
    signup(c, "Hedi")
    game = c.post("/api/games", json={"mode": "room"}).json()["game"]
    with c.websocket_connect("/ws", headers={"Origin": "http://testserver"}) as ws:
        assert hello(ws, game)["you"] == 0
    with c.websocket_connect("/ws", headers={"Origin": "https://evil.example"}) as ws:
        assert hello(ws, game)["you"] == -1


# -- guessing passwords --------------------------------------------------------------------


def test_guessing_one_account_s_password_is_limited(c: TestClient) -> None:
    signup(c, "Hedi")
    c.post("/api/account/logout")
    for _ in range(CHEAP.account_failures):
        assert login(c, "Hedi", "guess guess").status_code == 401
    r = login(c, "hedi", "guess again")
    assert r.status_code == 429 and r.json()["error"] == "login_limited"
    assert 0 < int(r.headers["Retry-After"]) <= CHEAP.window
    assert "this account" in r.json()["message"]
    # Even the right password waits: a guess that succeeds is not told apart.
    assert login(c, "Hedi").status_code == 429


def test_the_limit_holds_across_workers_and_per_address(url: str) -> None:
    with app_client(url, client=("10.0.0.1", 1)) as a, app_client(
        url, client=("10.0.0.1", 2)
    ) as b, app_client(url, client=("10.0.0.2", 3)) as other:
        signup(other, "Hedi")
        # Two workers on one database count the same failures.
        for i in range(CHEAP.account_failures):
            who = a if i % 2 else b
            assert login(who, "Hedi", "guess guess").status_code == 401
        assert login(a, "Hedi").status_code == 429
        assert login(b, "Hedi").status_code == 429
        # One address trying many names is limited too, beyond the account's limit.
        for i in range(CHEAP.address_failures - CHEAP.account_failures):
            assert login(a, f"name{i}", "guess guess").status_code == 401
        r = login(b, "somebody", "guess guess")
        assert r.status_code == 429 and "your address" in r.json()["message"]
        # Another address may still log in to another account.
        signup(other, "Salma")
        other.post("/api/account/logout")
        assert login(other, "Salma").status_code == 200


def test_a_session_cannot_guess_the_password_either(c: TestClient) -> None:
    signup(c, "Hedi")
    for path in ("/api/account/password", "/api/account/delete", "/api/account/password"):
        body = {"password": "guess guess", "new_password": "whatever 123"}
        assert c.post(path, json=body).status_code == 403
    r = c.post("/api/account/delete", json={"password": PASSWORD})
    assert r.status_code == 429 and r.json()["error"] == "login_limited"
    assert c.get("/api/account").status_code == 200


def test_old_failures_and_expired_sessions_are_forgotten(url: str) -> None:
    import time

    policy = AccountPolicy(time_cost=1, memory_cost=256, parallelism=1, window=0.5,
                           prune_every=0.0)
    with app_client(url, policy) as c:
        signup(c, "Hedi")
        login(c, "Hedi", "typo typo")
        assert len(rows(url)["login_failures"]) == 2  # the account's and the address's
        time.sleep(0.6)
        assert login(c, "Hedi").status_code == 200
        assert rows(url)["login_failures"] == []
    assert len(rows(url)["sessions"]) == 1  # the log-in's (it ended the sign-up's)
    with app_client(url, AccountPolicy(time_cost=1, memory_cost=256, parallelism=1,
                                       session_days=-1, prune_every=0.0)) as c:
        login(c, "Hedi")
        login(c, "Hedi")
        # The first expired session is gone by the second log-in; the last one is left.
        assert len(rows(url)["sessions"]) == 2


def test_a_successful_log_in_forgives_the_account_s_failures(c: TestClient) -> None:
    signup(c, "Hedi")
    for _ in range(CHEAP.account_failures - 1):
        login(c, "Hedi", "typo typo")
    assert login(c, "Hedi").status_code == 200
    for _ in range(CHEAP.account_failures - 1):
        assert login(c, "Hedi", "typo typo").status_code == 401
    assert login(c, "Hedi").status_code == 200


# -- one account, its data only --------------------------------------------------------------


def test_one_account_cannot_reach_another_s_data(c: TestClient) -> None:
    hedi, salma = Device(c), Device(c)
    signup(hedi, "Hedi")
    signup(salma, "Salma")
    mine = hedi.post("/api/games", json={"mode": "room", "unlisted": True}).json()["game"]
    theirs = salma.post("/api/games", json={"mode": "room"}).json()["game"]
    assert [g["game"] for g in hedi.get("/api/account").json()["games"]] == [mine]
    assert [g["game"] for g in salma.get("/api/account").json()["games"]] == [theirs]
    exported = hedi.get("/api/account/export").json()
    assert exported["account"]["name"] == "Hedi"
    assert [g["game"] for g in exported["games"]] == [mine]
    assert "password_hash" not in repr(exported) and "argon2" not in repr(exported)
    # Salma's session never seats her in Hedi's game (only its link makes her a
    # spectator), and cannot play there.
    with salma.ws() as ws:
        assert hello(ws, mine)["you"] == -1
        ws.send_json({"type": "play", "move": "keep"})
        expect_error(ws, "spectator")
    # Nothing names an account to act on: Salma changing "her" password changes hers.
    r = salma.post("/api/account/password", json={"password": PASSWORD,
                                                  "new_password": "salma's new one",
                                                  "name": "Hedi"})
    assert r.status_code == 200
    hedi.post("/api/account/logout")
    assert login(hedi, "Hedi").status_code == 200


# -- the seat belongs to the account ---------------------------------------------------------


def test_a_signed_in_player_comes_back_to_their_seat_from_another_device(c: TestClient) -> None:
    phone, laptop, guest = Device(c), Device(c), Device(c)
    signup(phone, "Hedi")
    room = phone.post("/api/games", json={"mode": "room", "name": "ignored"}).json()
    joined = guest.post(f"/api/games/{room['game']}/join", json={"name": "Ines"}).json()
    summary = guest.get(f"/api/games/{room['game']}").json()
    # The account's name, not the one typed; a guest's is marked as a guest's.
    assert [(p["name"], p["account"]) for p in summary["players"]] == [
        ("Hedi", True), ("Ines", False)
    ]
    # On another device, logged in, without the seat's token: the seat is Hedi's.
    login(laptop, "Hedi")
    listed = laptop.get("/api/account").json()["games"]
    assert [(g["game"], g["seat"], g["url"]) for g in listed] == [
        (room["game"], 0, f"/g/{room['game']}")
    ]
    with laptop.ws() as ws, guest.ws() as other:
        state = hello(ws, room["game"])
        assert state["you"] == 0
        other_state = hello(other, room["game"], joined["token"])
        assert other_state["you"] == 1
        # A signed-in player takes one seat of a game, not two.
        r = laptop.post(f"/api/games/{room['game']}/join", json={})
        assert r.status_code == 409
        # Whoever is to move plays, until the account's seat has played once.
        for _ in range(8):
            mover, seen = (ws, state) if state["legal"] else (other, other_state)
            assert seen["legal"], (state, other_state)
            mover.send_json({"type": "play", "move": seen["legal"][0], "ply": seen["ply"]})
            state = until_ply(ws, seen["ply"] + 1)
            other_state = until_ply(other, seen["ply"] + 1)
            if mover is ws:
                break
        else:
            raise AssertionError("the account's seat never had a move")


def test_joining_signed_in_uses_the_account_s_name(c: TestClient) -> None:
    host, friend = Device(c), Device(c)
    room = host.post("/api/games", json={"mode": "room", "name": "Amel"}).json()
    signup(friend, "Bilel")
    joined = friend.post(f"/api/games/{room['game']}/join", json={"name": "Someone"})
    assert joined.status_code == 200
    players = host.get(f"/api/games/{room['game']}").json()["players"]
    assert [(p["name"], p["account"]) for p in players] == [("Amel", False), ("Bilel", True)]
    with friend.ws() as ws:
        assert hello(ws, room["game"])["you"] == 1


# -- deleting the account, downloading its data ---------------------------------------------


def test_deleting_the_account_keeps_its_games_under_a_neutral_name(url: str) -> None:
    with app_client(url) as c:
        signup(c, "Hedi")
        game = c.post("/api/games", json={"mode": "computer", "level": "random"}).json()
        sid = c.cookies[SESSION_COOKIE]
        r = c.post("/api/account/delete", json={"password": "not it!"})
        assert r.status_code == 403
        assert c.post("/api/account/delete", json={"password": PASSWORD}).json() == {"ok": True}
        c.cookies.set(SESSION_COOKIE, sid)
        assert c.get("/api/account").status_code == 401
        assert login(c, "Hedi").status_code == 401
        summary = c.get(f"/api/games/{game['game']}").json()
        assert summary["players"][0]["name"] == "anonymous"
        assert summary["players"][0]["account"] is False
    stored = rows(url)
    assert stored["accounts"] == [] and stored["sessions"] == []
    assert [s["name"] for s in stored["seats"] if s["seat"] == 0] == ["anonymous"]
    assert all(s["account_id"] is None for s in stored["seats"])
    # The name is free again.
    with app_client(url) as c:
        assert signup(c, "Hedi").status_code == 201


def test_the_data_download(c: TestClient) -> None:
    signup(c, "Hedi")
    game = c.post("/api/games", json={"mode": "computer", "level": "random"}).json()["game"]
    r = c.get("/api/account/export")
    assert r.status_code == 200
    assert 'filename="chkobba-account.json"' in r.headers["content-disposition"]
    data = r.json()
    assert data["account"]["name"] == "Hedi" and "exported" in data
    (g,) = data["games"]
    assert g["game"] == game and g["your_seat"] == 0 and g["names"][0] == "Hedi"
    # An unfinished game's moves wait for its end, like its record.
    assert g["moves"] is None and g["ending"] is None and g["resigned"] is None
    # Ended by resigning: how it ended, and which side resigned.
    with c.websocket_connect("/ws") as ws:
        hello(ws, game)
        ws.send_json({"type": "resign"})
        recv_until(ws, "resigned")
    (g,) = c.get("/api/account/export").json()["games"]
    assert (g["status"], g["ending"], g["resigned"]) == ("finished", "resigned", 0)
    c.post("/api/account/logout")
    assert c.get("/api/account/export").status_code == 401


def test_the_account_tables(url: str) -> None:
    with app_client(url) as c:
        signup(c, "Hedi")
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            (a,) = conn.execute(sa.select(accounts)).all()
            (s,) = conn.execute(sa.select(sessions)).all()
            assert s.account_id == a.id and len(s.id_hash) == 64
            assert conn.execute(sa.select(seats)).all() == []
    finally:
        store.close()


# -- a cluster: accounts in the database, not in a worker --------------------------------


def test_two_workers_share_accounts_sessions_and_seats(pg_server: Any) -> None:
    url = pg_server.new_database()
    with TestClient(create_app(url, FAST, worker="a", accounts=CHEAP)) as a, TestClient(
        create_app(url, FAST, worker="b", accounts=CHEAP)
    ) as b:
        on_a, on_b = Device(a), Device(b)
        assert signup(on_a, "Hedi").status_code == 201
        # The session made by worker a is read by worker b.
        on_b.sid = on_a.sid
        assert on_b.get("/api/account").json()["account"]["name"] == "Hedi"
        assert signup(Device(b), "HEDI").status_code == 409
        game = on_a.post("/api/games", json={"mode": "room"}).json()["game"]
        assert [g["game"] for g in on_b.get("/api/account").json()["games"]] == [game]
        # Worker b, asked for the game, takes it over; the session seats its account there.
        with on_b.ws() as ws:
            assert hello(ws, game)["you"] == 0
        assert on_b.post("/api/account/logout-everywhere").json()["sessions"] == 1
        assert on_a.get("/api/account").status_code == 401


def test_a_rematch_keeps_the_account_s_seat(c: TestClient) -> None:
    phone, laptop = Device(c), Device(c)
    signup(phone, "Hedi")
    first = phone.post("/api/games", json={"level": "random"}).json()["game"]
    login(laptop, "Hedi")
    # On the laptop, without the seat's token: seated by the session, resign, rematch.
    with laptop.ws() as ws:
        assert hello(ws, first)["you"] == 0
        ws.send_json({"type": "resign"})
        recv_until(ws, "resigned")
        ws.send_json({"type": "rematch"})
        offer, _ = recv_until(ws, "rematch")
    assert offer["token"] is None and offer["seat"] == 0
    second = offer["game"]
    with laptop.ws() as ws:
        assert hello(ws, second)["you"] == 0
    with phone.ws() as ws:
        assert hello(ws, second)["you"] == 0
    games = [g["game"] for g in phone.get("/api/account").json()["games"]]
    assert games == [second, first]
