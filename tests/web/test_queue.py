"""The "Play now" queue and challenges over HTTP, on SQLite (docs/web.md, "Play now and
challenges"), and across two workers of a cluster on PostgreSQL."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from wsutil import FAST, PgServer, hello

from chkobba.store import Store
from chkobba.store.pairing import Widening
from chkobba.store.queue import Entry, Pool, Queue
from chkobba.store.store import StoredGame, now
from chkobba.web.app import create_app
from chkobba.web.auth import SESSION_COOKIE, AccountPolicy
from chkobba.web.matchmaking import QueuePolicy, new_game

CHEAP = AccountPolicy(time_cost=1, memory_cost=256, parallelism=1, signup_burst=100)
QUICK = QueuePolicy(every=0.05, stale=5.0, clean_every=0.2)


def app(url: str, policy: QueuePolicy = QUICK, **kw: Any) -> TestClient:
    return TestClient(create_app(url, FAST, accounts=CHEAP, queue=policy, **kw))


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'chkobba.db'}"


@pytest.fixture
def c(url: str) -> Iterator[TestClient]:
    with app(url) as client:
        yield client


def until_paired(c: TestClient, ticket: str, seconds: float = 20.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        r = c.post("/api/queue/poll", json={"ticket": ticket})
        assert r.status_code == 200, r.text
        if r.json()["status"] == "paired":
            return dict(r.json())
        time.sleep(0.05)
    raise AssertionError("not paired in time")


def signup(c: TestClient, name: str) -> str:
    """Sign up (the client then signed in as ``name``); the session cookie."""
    c.cookies.clear()
    r = c.post("/api/account/signup", json={"name": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    return str(c.cookies[SESSION_COOKIE])


def as_(c: TestClient, cookie: str | None) -> None:
    """Be the browser with this session cookie (None: a guest's)."""
    c.cookies.clear()
    if cookie is not None:
        c.cookies.set(SESSION_COOKIE, cookie)


def test_two_guests_are_paired_and_seated_at_one_game(c: TestClient) -> None:
    a = c.post("/api/queue", json={"pool": "scopa", "name": "Amel", "clock": 30}).json()
    b = c.post("/api/queue", json={"pool": "scopa", "name": "Bilel", "clock": 30}).json()
    assert a["status"] == "waiting" and a["rating"] == 1500
    pa, pb = until_paired(c, a["ticket"]), until_paired(c, b["ticket"])
    assert pa["game"] == pb["game"] and {pa["seat"], pb["seat"]} == {0, 1}
    assert pa["url"] == f"/g/{pa['game']}"
    summary = c.get(f"/api/games/{pa['game']}").json()
    assert summary["status"] == "playing"
    assert summary["settings"]["clock"] == 30
    # Each ticket is its holder's seat token.
    with c.websocket_connect("/ws") as ws:
        state = hello(ws, pa["game"], a["ticket"])
        assert state["you"] == pa["seat"]
    # Leaving after the pairing is too late: the seat stays.
    assert c.post("/api/queue/cancel", json={"ticket": a["ticket"]}).json()["game"] == pa["game"]


def test_pools_do_not_mix(c: TestClient) -> None:
    a = c.post("/api/queue", json={"pool": "scopa", "clock": 30}).json()
    b = c.post("/api/queue", json={"pool": "scopa", "clock": 60}).json()
    d = c.post("/api/queue", json={"pool": "chkobba", "seating": "2"}).json()
    time.sleep(0.5)
    for t in (a, b, d):
        assert c.post("/api/queue/poll", json={"ticket": t["ticket"]}).json()["status"] == "waiting"
    counts = c.get("/api/queue").json()["pools"]
    assert sorted(p["waiting"] for p in counts) == [1, 1, 1]


def test_a_table_of_four_fills_and_seats_partners(c: TestClient) -> None:
    tickets = [
        c.post("/api/queue", json={"pool": "scopone", "seating": "2v2", "name": f"P{i}"}).json()
        for i in range(4)
    ]
    paired = [until_paired(c, t["ticket"]) for t in tickets]
    assert len({p["game"] for p in paired}) == 1
    assert sorted(p["seat"] for p in paired) == [0, 1, 2, 3]


def test_cancel_and_bad_requests(c: TestClient) -> None:
    a = c.post("/api/queue", json={"pool": "escoba"}).json()
    assert c.post("/api/queue/cancel", json={"ticket": a["ticket"]}).json() == {
        "status": "cancelled"
    }
    r = c.post("/api/queue/poll", json={"ticket": a["ticket"]})
    assert r.status_code == 404 and r.json()["error"] == "not_in_queue"
    # A later player is not paired with the one who left.
    b = c.post("/api/queue", json={"pool": "escoba"}).json()
    time.sleep(0.3)
    assert c.post("/api/queue/poll", json={"ticket": b["ticket"]}).json()["status"] == "waiting"
    for body, words in [
        ({"pool": "nope"}, "pool must be one of"),
        ({"pool": "scopone", "seating": "2"}, "seating must be one of"),
        ({"clock": 7}, "clock must be one of"),
        ({"rated": True}, "signed-in players"),
        ({"rated": "yes"}, "rated must be"),
    ]:
        r = c.post("/api/queue", json=body)
        assert r.status_code == 400 and words in r.json()["message"], r.text
    assert c.post("/api/queue/poll", json={}).status_code == 400


def test_rated_pools_pair_signed_in_players_by_rating(url: str) -> None:
    ratings = {1: 1432.0}

    def rating_for(account: int, pool: Pool) -> float | None:
        return ratings.get(account) if pool.pool == "cirulla" else None

    with app(url, ratings=rating_for) as c:
        amel, bilel = signup(c, "Amel"), signup(c, "Bilel")
        as_(c, amel)
        me = c.post("/api/queue", json={"pool": "cirulla", "rated": True}).json()
        assert me["rated"] is True and me["rating"] == 1432
        # A rated game always runs on a clock.
        assert me["clock"] == 60
        # Joining again replaces the account's place: it is never paired with itself.
        again = c.post("/api/queue", json={"pool": "cirulla", "rated": True}).json()
        time.sleep(0.3)
        assert c.post("/api/queue/poll", json={"ticket": me["ticket"]}).status_code == 404
        as_(c, bilel)
        them = c.post("/api/queue", json={"pool": "cirulla", "rated": True}).json()
        assert them["rating"] == 1500  # unrated: the pool's default
        p1, p2 = until_paired(c, again["ticket"]), until_paired(c, them["ticket"])
        assert p1["game"] == p2["game"]
        assert c.get("/api/account").json()["games"][0]["game"] == p1["game"]
        stored = c.app.state.hub.store.game(p1["game"])
        assert stored.settings["rated"] is True and stored.settings["pool"] == "cirulla"


def test_closest_ratings_first_in_the_store(url: str) -> None:
    store = Store(url)
    store.migrate()
    q = Queue(store)
    pool = Pool("scopa", "chkobba", "2", True, None)
    for i, rating in enumerate((1500.0, 1900.0, 1520.0)):
        q.join(f"{i}" * 64, pool, f"P{i}", rating, account_id=i + 1)

    def build(p: Pool, seated: Sequence[Entry]) -> StoredGame:
        players = [(e.name, e.ticket_hash, e.account_id) for e in seated]
        return new_game(p, players, 7)

    (made,) = q.pair(build, stale=20.0, widening=Widening(start=50))
    assert sorted(r.name for r in made.seat_rows) == ["P0", "P2"]
    assert q.get("1" * 64).status == "waiting"  # type: ignore[union-attr]
    # Nobody twice: the next round finds P1 alone.
    assert q.pair(build, stale=20.0) == []
    store.close()


def test_a_pool_no_game_can_be_made_of_does_not_stall_the_others(url: str) -> None:
    store = Store(url)
    store.migrate()
    q = Queue(store)
    gone = Pool("no-such-preset", "chkobba", "2", False, None)
    good = Pool("scopa", "chkobba", "2", False, None)
    for i, pool in enumerate((gone, gone, good, good)):
        q.join(f"{i}" * 64, pool, f"P{i}", 1500.0)

    def build(p: Pool, seated: Sequence[Entry]) -> StoredGame:
        return new_game(p, [(e.name, e.ticket_hash, None) for e in seated], 3)

    (made,) = q.pair(build, stale=20.0)
    assert sorted(r.name for r in made.seat_rows) == ["P2", "P3"]
    assert q.get("0" * 64) is None and q.get("1" * 64) is None
    store.close()


def test_stale_entries_expire(url: str) -> None:
    store = Store(url)
    store.migrate()
    q = Queue(store)
    pool = Pool("scopa", "chkobba", "2", False, None)
    old = now() - dt.timedelta(seconds=60)
    q.join("a" * 64, pool, "A", 1500.0, at=old)
    q.join("b" * 64, pool, "B", 1500.0)
    # A page silent for longer than ``stale`` is not paired, then is deleted.
    assert q.pair(lambda p, s: pytest.fail("nobody to pair"), stale=20.0) == []
    assert q.expire(stale=20.0, keep_paired=600.0) == 1
    assert q.get("a" * 64) is None and q.get("b" * 64) is not None
    store.close()


# -- challenges ----------------------------------------------------------------------


def test_a_named_challenge_accepted(c: TestClient) -> None:
    amel, bilel = signup(c, "Amel"), signup(c, "Bilel")
    as_(c, amel)
    made = c.post("/api/challenges", json={"to": "bilel", "pool": "scopa", "clock": 60})
    assert made.status_code == 201, made.text
    ch = made.json()
    assert ch["to"] == "Bilel" and ch["status"] == "open" and ch["clock"] == 60
    assert c.get("/api/challenges").json()["incoming"] == []
    # Only the invitee may answer it.
    r = c.post("/api/challenges/accept", json={"challenge": ch["challenge"]})
    assert r.status_code == 409
    as_(c, None)
    assert c.post("/api/challenges/view", json={"challenge": ch["challenge"]}).status_code == 404
    as_(c, bilel)
    incoming = c.get("/api/challenges").json()["incoming"]
    assert [i["from"] for i in incoming] == ["Amel"]
    seat = c.post("/api/challenges/accept", json={"challenge": ch["challenge"]}).json()
    as_(c, amel)
    polled = c.post("/api/challenges/poll", json={"ticket": ch["ticket"]}).json()
    assert polled["status"] == "accepted" and polled["game"] == seat["game"]
    assert {polled["seat"], seat["seat"]} == {0, 1}
    with c.websocket_connect("/ws") as ws:
        assert hello(ws, seat["game"], ch["ticket"])["you"] == polled["seat"]
    with c.websocket_connect("/ws") as ws:
        assert hello(ws, seat["game"], seat["token"])["you"] == seat["seat"]
    # Accepted once only.
    as_(c, bilel)
    r = c.post("/api/challenges/accept", json={"challenge": ch["challenge"]})
    assert r.json()["error"] == "challenge_gone"
    assert c.get("/api/challenges").json()["incoming"] == []


def test_a_link_challenge_declined_and_cancelled(c: TestClient) -> None:
    ch = c.post("/api/challenges", json={"pool": "chkobba", "name": "Amel"}).json()
    assert ch["link"] == f"/#challenge={ch['challenge']}"
    seen = c.post("/api/challenges/view", json={"challenge": ch["challenge"]}).json()
    assert seen["from"] == "Amel"
    assert c.post(
        "/api/challenges/decline", json={"challenge": ch["challenge"]}
    ).json()["status"] == "declined"
    r = c.post("/api/challenges/accept", json={"challenge": ch["challenge"]})
    assert r.status_code == 409
    polled = c.post("/api/challenges/poll", json={"ticket": ch["ticket"]}).json()
    assert polled["status"] == "declined"
    other = c.post("/api/challenges", json={"pool": "chkobba"}).json()
    assert c.post("/api/challenges/cancel", json={"ticket": other["ticket"]}).json()[
        "status"
    ] == "cancelled"
    for body, words in [
        ({"to": "nobody-here"}, "log in"),
        ({"pool": "scopone"}, "two players"),
        ({"pool": "scopa", "seating": "5"}, "seating must be one of"),
        ({"pool": "scopa", "seating": "3"}, "two players"),
    ]:
        r = c.post("/api/challenges", json=body)
        assert r.status_code in (400, 401) and words in r.json()["message"], r.text
    r = c.post("/api/challenges/view", json={"challenge": "nope"})
    assert r.status_code == 404


# -- two workers, one PostgreSQL ------------------------------------------------------


def test_two_workers_pair_players_connected_to_each(pg_server: PgServer) -> None:
    url = pg_server.new_database()
    with app(url, worker="a") as a, app(url, worker="b") as b:
        ta = a.post("/api/queue", json={"pool": "scopa", "name": "On A"}).json()
        tb = b.post("/api/queue", json={"pool": "scopa", "name": "On B"}).json()
        pa, pb = until_paired(a, ta["ticket"]), until_paired(b, tb["ticket"])
        assert pa["game"] == pb["game"] and {pa["seat"], pb["seat"]} == {0, 1}
        # Each plays through its own worker; one of them holds the game.
        with b.websocket_connect("/ws") as ws:
            assert hello(ws, pb["game"], tb["ticket"])["you"] == pb["seat"]
        # Many at once, joining through both: nobody twice, everybody once.
        tickets = [
            (w, w.post("/api/queue", json={"pool": "escoba", "name": f"P{i}"}).json()["ticket"])
            for i in range(20)
            for w in [(a, b)[i % 2]]
        ]
        seats = [until_paired(w, t) for w, t in tickets]
        games: dict[str, list[int]] = {}
        for s in seats:
            games.setdefault(s["game"], []).append(s["seat"])
        assert len(games) == 10 and all(sorted(v) == [0, 1] for v in games.values())
        rounds = a.app.state.matchmaking.rounds + b.app.state.matchmaking.rounds
        assert rounds > 2


def test_migration_0010_up_and_down(db_url: str) -> None:
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect

    store = Store(db_url)
    try:
        store.migrate("0008")
        assert not {"queue_entries", "challenges"} & set(inspect(store.engine).get_table_names())
        store.migrate()
        assert {"queue_entries", "challenges"} <= set(inspect(store.engine).get_table_names())
        Queue(store).join("c" * 64, Pool("scopa", "chkobba", "2", False, 15.0), "C", 1500.0)
        cfg = Config()
        cfg.set_main_option("script_location", "chkobba.store:migrations")
        with store.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0008")
        assert not {"queue_entries", "challenges"} & set(inspect(store.engine).get_table_names())
        store.migrate()
        assert Queue(store).get("c" * 64) is None
    finally:
        store.close()


def test_limits_and_cross_site_requests(url: str) -> None:
    from chkobba.web.hub import Settings

    slow = Settings(bot_delay=0, rate=0.01, burst=1)
    with TestClient(create_app(url, slow, accounts=CHEAP, queue=QUICK)) as c:
        assert c.post("/api/queue", json={}).status_code == 201
        assert c.post("/api/queue", json={}).json()["error"] == "rate_limited"
        # Questions have a budget of their own, five times as large.
        answers = [c.post("/api/queue/poll", json={"ticket": "x"}).status_code
                   for _ in range(7)]
        assert answers[0] == 404 and 429 in answers
        r = c.post("/api/challenges", json={}, headers={"Origin": "https://evil.example"})
        assert r.status_code == 403 and r.json()["error"] == "cross_site"


def test_deleting_an_account_takes_it_out_of_the_queue_and_its_challenges(
    c: TestClient,
) -> None:
    amel, bilel = signup(c, "Amel"), signup(c, "Bilel")
    as_(c, bilel)
    ch = c.post("/api/challenges", json={"to": "Amel"}).json()
    as_(c, amel)
    mine = c.post("/api/queue", json={"pool": "ponino"}).json()
    assert c.get("/api/challenges").json()["incoming"]
    r = c.post("/api/account/delete", json={"password": "correct horse"})
    assert r.status_code == 200, r.text
    assert c.post("/api/queue/poll", json={"ticket": mine["ticket"]}).status_code == 404
    as_(c, bilel)
    assert c.post("/api/challenges/poll", json={"ticket": ch["ticket"]}).status_code == 404


def race(
    queues: list[Queue], build: Callable[[Pool, Sequence[Entry]], StoredGame]
) -> tuple[list[list[StoredGame]], list[BaseException]]:
    """A pairing round on each queue at the same moment: the games each made, and what
    they raised."""
    import threading

    start = threading.Barrier(len(queues))
    made: list[list[StoredGame]] = [[] for _ in queues]
    errors: list[BaseException] = []

    def round_of(k: int) -> None:
        start.wait()
        try:
            made[k] = queues[k].pair(build, stale=20.0, widening=Widening(start=1000))
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=round_of, args=(k,)) for k in range(len(queues))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return made, errors


def test_rounds_racing_on_postgresql_never_seat_anyone_twice(pg_server: PgServer) -> None:
    url = pg_server.new_database()
    stores = [Store(url), Store(url)]
    stores[0].migrate()
    queues = [Queue(s) for s in stores]
    pool = Pool("scopa", "chkobba", "2", False, None)

    def build(p: Pool, seated: Sequence[Entry]) -> StoredGame:
        return new_game(p, [(e.name, e.ticket_hash, None) for e in seated], 5)

    try:
        for attempt in range(3):
            for i in range(30):
                queues[i % 2].join(f"{attempt}-{i}".ljust(64, "x"), pool, f"P{i}", 1500.0 + i)
            made, errors = race(queues, build)
            # Each round skipped what the other held: neither met a taken entry.
            assert errors == []
            seated = [r.token_hash for g in made[0] + made[1] for r in g.seat_rows]
            assert len(seated) == len(set(seated))
            # What one round skipped (locked by the other), a next round pairs.
            rest = queues[0].pair(build, stale=20.0, widening=Widening(start=1000))
            seated += [r.token_hash for g in rest for r in g.seat_rows]
            assert sorted(seated) == sorted(f"{attempt}-{i}".ljust(64, "x") for i in range(30))
    finally:
        for s in stores:
            s.close()


def test_challenges_expire(url: str) -> None:
    from chkobba.store.challenges import ChallengeGone, Challenges

    store = Store(url)
    store.migrate()
    ch = Challenges(store)
    past = now() - dt.timedelta(seconds=5)
    ch.create("old", "t" * 64, "Amel", "scopa", "chkobba", "2", None, past, to_account=7)
    assert ch.incoming(7) == []
    with pytest.raises(ChallengeGone):
        ch.accept("old", lambda c: pytest.fail("no game for an expired challenge"), 7)
    assert ch.expire(keep=60.0) == 0
    assert ch.expire(keep=1.0) == 1 and ch.get("old") is None
    store.close()
