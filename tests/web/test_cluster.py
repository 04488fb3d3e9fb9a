"""Several workers, one service (docs/deploy.md): one writer per game, hand-overs, a death.

The last test runs real ``chkobba serve --cluster`` workers behind HAProxy on a
throwaway PostgreSQL; it skips, saying why, where either is not installed.
"""

from __future__ import annotations

import contextlib
import json
import random
import shutil
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy.exc import IntegrityError
from starlette.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from wsutil import FAST, PgServer, ServerProcess, free_port, hello, recv_until

from chkobba.fishing.record import GameRecord, replay
from chkobba.store import MoveRow, SeatRow, Store, StoredGame
from chkobba.store.store import now
from chkobba.web.app import create_app
from chkobba.web.cluster import NotOwner, Ownership, haproxy_config, lock_key
from chkobba.web.codes import CODE_ALPHABET, CODE_LENGTH
from chkobba.web.hub import Settings

ROOT = Path(__file__).resolve().parents[2]
codes = st.text(alphabet=CODE_ALPHABET, min_size=CODE_LENGTH, max_size=CODE_LENGTH)
old_ids = st.integers(0, 2**32 - 1).map(lambda n: f"{n:08X}")


@given(st.one_of(codes, old_ids), st.one_of(codes, old_ids))
def test_each_game_has_a_lock_of_its_own(a: str, b: str) -> None:
    ka, kb = lock_key(a), lock_key(b)
    # Two int4 keys, as pg_try_advisory_lock(int, int) takes them.
    assert all(0 <= k < 2**31 for k in (*ka, *kb))
    assert (ka == kb) == (a == b)


def test_the_shipped_balancer_configuration_is_the_generated_one() -> None:
    shipped = (ROOT / "deploy" / "haproxy.cfg").read_text()
    workers = ["127.0.0.1:8001", "127.0.0.1:8002", "127.0.0.1:8003"]
    assert shipped == haproxy_config(":8080", workers)


def test_a_cluster_needs_postgresql(tmp_path: Path) -> None:
    from chkobba.cli import main

    out = CliRunner().invoke(main, ["serve", "--cluster", "--data-dir", str(tmp_path)])
    assert out.exit_code != 0
    assert "PostgreSQL" in out.output


def test_metrics_count_moves_and_connections(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, FAST)) as c:
        made = c.post("/api/games", json={"level": "random", "target": 11}).json()
        with c.websocket_connect("/ws") as ws:
            state = hello(ws, made["game"], made["token"])
            text = c.get("/metrics").text
            assert "chkobba_connections 1.0" in text
            assert "chkobba_games 1.0" in text
            while not state["legal"]:
                # The computer moves first: wait for our turn.
                state, _ = recv_until(ws, "state")
            ws.send_json({"type": "play", "move": state["legal"][0], "ply": state["ply"], "id": 1})
            answer, _ = recv_until(ws, "state")
        text = c.get("/metrics").text
    assert answer["re"] == 1
    moves = next(line for line in text.splitlines() if line.startswith("chkobba_moves_total"))
    # The person's move and the computer's replies, all stored.
    assert float(moves.split()[1]) >= answer["ply"] - state["ply"] > 0
    assert "chkobba_move_latency_seconds_count 1.0" in text


def _stored_game(code: str) -> StoredGame:
    return StoredGame(
        id=code,
        kind="room",
        status="playing",
        rules="chkobba",
        options={},
        seats=2,
        teams=False,
        seed=1,
        created_at=now(),
        seat_rows=[SeatRow(0), SeatRow(1)],
    )


def test_one_writer_per_game(pg_server: PgServer) -> None:
    url = pg_server.new_database()
    store_a, store_b = Store(url), Store(url)
    store_a.migrate()
    store_a.create_game(_stored_game("AAAAAA"))
    a, b = Ownership(store_a, "a"), Ownership(store_b, "b")
    try:
        assert a.try_own("AAAAAA")
        assert not b.try_own("AAAAAA")
        a.append_moves([MoveRow("AAAAAA", 0, 0, "keep")])
        with pytest.raises(NotOwner):
            b.append_moves([MoveRow("AAAAAA", 1, 1, "keep")])
        with pytest.raises(NotOwner):
            b.update_seats("AAAAAA", [SeatRow(1, "B")], "playing")
        # The session's end frees the game at once, as a killed worker's does.
        a.close()
        deadline = time.monotonic() + 5
        while not b.try_own("AAAAAA"):
            # The server ends the session as soon as it reads the closed socket.
            assert time.monotonic() < deadline, "the closed session's lock is still held"
            time.sleep(0.05)
        # A second move at a ply is refused whoever writes it.
        with pytest.raises(IntegrityError):
            b.append_moves([MoveRow("AAAAAA", 0, 1, "table")])
        assert store_b.game("AAAAAA").moves == ["keep"]  # type: ignore[union-attr]
    finally:
        a.close()
        b.close()
        store_a.close()
        store_b.close()


def test_workers_starting_together_migrate_one_after_the_other(pg_server: PgServer) -> None:
    url = pg_server.new_database()
    stores = [Store(url) for _ in range(3)]
    try:
        with ThreadPoolExecutor(3) as pool:
            list(pool.map(lambda s: s.migrate(), stores))
        assert stores[0].count_games() == {}
    finally:
        for s in stores:
            s.close()


def test_a_game_moves_between_workers_on_demand(pg_server: PgServer) -> None:
    url = pg_server.new_database()
    with (
        TestClient(create_app(url, FAST, worker="a")) as a,
        TestClient(create_app(url, FAST, worker="b")) as b,
    ):
        made = a.post("/api/games", json={"mode": "room", "seating": "2", "target": 11}).json()
        # Created on a, held by nobody until a client comes.
        assert a.get("/healthz").json()["owned"] == 0
        assert [g["game"] for g in b.get("/api/games?status=open").json()["games"]] == [
            made["game"]
        ]
        guest = b.post(f"/api/games/{made['game']}/join", json={"name": "G"}).json()
        assert b.get("/healthz").json()["owned"] == 1
        with b.websocket_connect("/ws") as on_b:
            hello(on_b, made["game"], guest["token"])
            with a.websocket_connect("/ws") as on_a:
                # a asks b to let the game go; b's client is told to come again.
                state = hello(on_a, made["game"], made["token"])
                for _ in range(20):
                    closed = on_b.receive()
                    if closed["type"] == "websocket.close":
                        break
                assert closed["code"] == 1012
                assert a.get("/healthz").json()["owned"] == 1
                assert b.get("/healthz").json()["owned"] == 0
                seat = state["turn"]
                assert seat == 0 or state["legal"] == []
        playing = a.get("/api/games?status=playing").json()["games"]
        assert [g["game"] for g in playing] == [made["game"]]
        # Each took the game over once; a counter, which only grows.
        for worker in (a, b):
            assert "chkobba_games_adopted_total 1.0" in worker.get("/metrics").text
            assert worker.get("/healthz").json()["adopted"] == 1
            deadline = time.monotonic() + 5
            while not (handoff := worker.get("/healthz").json()["handoff"])["listening"]:
                assert time.monotonic() < deadline, handoff
                time.sleep(0.05)
            assert handoff["since"] and handoff["failures"] == 0


# -- real workers behind HAProxy ---------------------------------------------------


class Balanced:
    """Workers of ``chkobba serve --cluster`` behind HAProxy, on loopback."""

    def __init__(self, tmp: Path, db: str, n: int) -> None:
        self.workers = [
            ServerProcess(
                tmp / f"w{i}",
                "--cluster",
                "--worker",
                f"w{i}",
                "--bot-delay",
                "0",
                "--rate",
                "1000",
                db=db,
            )
            for i in range(n)
        ]
        self.port = free_port()
        self.cfg = tmp / "haproxy.cfg"
        self.cfg.write_text(
            haproxy_config(
                f"127.0.0.1:{self.port}",
                [f"127.0.0.1:{w.port}" for w in self.workers],
                "inter 300ms",
            )
        )
        self.proxy: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        for w in self.workers:
            w.start()
            # A worker's first game costs it most (what it loads on first use): paid here,
            # not behind the balancer, whose checks (300 ms) would find it slow on a
            # loaded machine, mark it down and cut the request (502).
            post(w.base, "/api/games", {"mode": "room", "seating": "2", "target": 11})
        self.proxy = subprocess.Popen(
            ["haproxy", "-db", "-f", str(self.cfg)], stdout=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(self.base + "/healthz", timeout=1),
            ):
                return
            time.sleep(0.1)
        raise RuntimeError("HAProxy does not answer")

    def owner(self, code: str) -> ServerProcess:
        """The worker holding the game (each says how many games it holds)."""
        for w in self.workers:
            if w.proc is not None and w.proc.poll() is None:
                with urllib.request.urlopen(w.base + "/healthz", timeout=5) as r:
                    if json.loads(r.read())["owned"]:
                        return w
        raise AssertionError(f"no worker holds {code}")

    def stop(self) -> None:
        if self.proxy is not None:
            self.proxy.terminate()
            self.proxy.wait(10)
        for w in self.workers:
            w.stop()


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return dict(json.loads(r.read()))


class Player:
    """One seat on a connection of its own through the balancer, coming back when cut off."""

    def __init__(self, base: str, game: str, token: str) -> None:
        self.url = base.replace("http", "ws") + f"/ws?game={game}"
        self.game, self.token = game, token
        self.ws: ClientConnection | None = None
        self.stack = contextlib.ExitStack()
        self.state: dict[str, Any] = {}
        self.reconnects = -1

    def connect(self) -> None:
        deadline = time.monotonic() + 30
        while True:
            try:
                self.stack.close()
                self.ws = self.stack.enter_context(connect(self.url, open_timeout=5))
                self.ws.send(json.dumps({"type": "hello", "game": self.game, "token": self.token}))
                self.state = self.until(lambda m: m["type"] == "state")
                self.reconnects += 1
                return
            except (OSError, ConnectionClosed, TimeoutError, AssertionError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def until(self, wanted: Any) -> dict[str, Any]:
        assert self.ws is not None
        for _ in range(200):
            msg = json.loads(self.ws.recv(timeout=20))
            assert msg["type"] != "error", msg
            if msg["type"] == "state":
                self.state = msg
            if wanted(msg):
                return dict(msg)
        raise AssertionError("no answer")

    def at(self, ply: int) -> dict[str, Any]:
        """The state at ``ply`` or later, reconnecting if need be."""
        while True:
            try:
                if self.state.get("ply", -1) >= ply:
                    return self.state
                return self.until(lambda m: m["type"] == "state" and m["ply"] >= ply)
            except (ConnectionClosed, TimeoutError, OSError):
                self.connect()

    def play(self, move: str, ply: int, n: int) -> bool:
        """Play; True once acknowledged, False if cut off first (the move may be stored)."""
        try:
            assert self.ws is not None
            self.ws.send(json.dumps({"type": "play", "move": move, "ply": ply, "id": n}))
            self.until(lambda m: m.get("re") == n)
            return True
        except (ConnectionClosed, TimeoutError, OSError):
            self.connect()
            return False

    def close(self) -> None:
        self.stack.close()


@pytest.fixture
def balanced(tmp_path: Path, pg_server: PgServer) -> Iterator[Balanced]:
    if shutil.which("haproxy") is None:
        pytest.skip("HAProxy is not installed: apt-get install haproxy (.ci/run does)")
    cluster = Balanced(tmp_path, pg_server.new_database(), 2)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.mark.parametrize("how", ["kill", "restart"])
def test_a_game_goes_on_when_its_worker_dies_or_restarts(balanced: Balanced, how: str) -> None:
    """kill: SIGKILL, as a crash; restart: SIGTERM, then the worker comes back (a rolling
    restart's step). Either way the game goes on, cut off a few seconds at most."""
    base = balanced.base
    made = post(base, "/api/games", {"mode": "room", "seating": "2", "target": 11})
    code = made["game"]
    guest = post(base, f"/api/games/{code}/join", {"name": "Guest"})
    players = [Player(base, code, made["token"]), Player(base, code, guest["token"])]
    for p in players:
        p.connect()
    rng = random.Random(16)
    acked: dict[int, str] = {}
    ply, n, stopped = 0, 0, None
    last, longest = time.monotonic(), 0.0
    while True:
        state = max((p.at(ply) for p in players), key=lambda s: int(s["ply"]))
        ply = state["ply"]
        if state["over"]:
            break
        if stopped is None and ply >= 20:
            stopped = balanced.owner(code)
            if how == "kill":
                stopped.kill()
            else:
                stopped.stop()
        if how == "restart" and stopped is not None and ply == 40:
            stopped.start()
        mover = players[state["turn"]]
        here = mover.at(ply)
        move = rng.choice(here["legal"])
        n += 1
        if mover.play(move, ply, n):
            acked[ply] = move
            longest = max(longest, time.monotonic() - last)
            last = time.monotonic()
        assert n < 3000
    assert stopped is not None
    # Both seats came back, through the balancer, to the other worker.
    assert all(p.reconnects >= 1 for p in players)
    assert longest < 8, f"the game stood still {longest:.1f} s"
    survivor = next(w for w in balanced.workers if w is not stopped)
    with urllib.request.urlopen(survivor.base + "/metrics", timeout=5) as r:
        assert "chkobba_games_adopted_total 1.0" in r.read().decode()
    with urllib.request.urlopen(f"{base}/api/games/{code}/record", timeout=10) as r:
        record = GameRecord.loads(r.read().decode())
    rep = replay(record)
    assert rep.totals == state["totals"]
    assert rep.winner == state["winner"]
    store = Store(survivor.db or "")
    stored = store.game(code)
    store.close()
    assert stored is not None and stored.status == "finished"
    # Every acknowledged move is stored at its ply, and every stored move was played.
    assert len(stored.moves) == ply
    assert all(stored.moves[p] == m for p, m in acked.items())
    assert len(acked) >= ply - 2
    for p in players:
        p.close()


@pytest.mark.timeout(60)  # before the fix, the client waited for ever
def test_a_game_held_elsewhere_is_refused_with_an_error_then_1013(pg_server: PgServer) -> None:
    """The holder does not let go (it does not listen, as a hung worker): the client is
    told ``server_error``, answering its hello, and the connection is closed with 1013."""
    url = pg_server.new_database()
    quick = Settings(bot_delay=0, rate=10_000, burst=10_000, adopt_seconds=0.3)
    store = Store(url)
    holder = Ownership(store, "hung")
    try:
        with TestClient(create_app(url, quick, worker="a")) as a:
            made = a.post("/api/games", json={"level": "random", "target": 11}).json()
            assert holder.try_own(made["game"])
            with a.websocket_connect("/ws") as ws:
                ws.send_json({"type": "hello", "game": made["game"], "token": made["token"],
                              "id": "h1"})
                err = ws.receive_json()
                assert err["type"] == "error" and err["code"] == "server_error", err
                assert err["re"] == "h1" and "try again" in err["message"]
                closed = ws.receive()
                assert closed["type"] == "websocket.close" and closed["code"] == 1013, closed
            # Once the holder lets go, the game is served again.
            holder.release(made["game"])
            with a.websocket_connect("/ws") as ws:
                assert hello(ws, made["game"], made["token"])["you"] == 0
    finally:
        holder.close()
        store.close()


def test_a_worker_marked_down_loses_its_websockets(balanced: Balanced) -> None:
    """A hung worker (SIGSTOP) fails its health checks; HAProxy marks it down and shuts
    its sessions (``on-marked-down shutdown-sessions``), so its clients' WebSockets close
    and they reconnect elsewhere, instead of waiting on a worker that does not answer."""
    lines = [ln for ln in balanced.cfg.read_text().splitlines() if ln.strip().startswith("server")]
    assert lines and all("on-marked-down shutdown-sessions" in ln for ln in lines)
    made = post(balanced.base, "/api/games", {"mode": "room", "seating": "2", "target": 11})
    player = Player(balanced.base, made["game"], made["token"])
    player.connect()
    hung = balanced.owner(made["game"])
    assert hung.proc is not None
    hung.proc.send_signal(signal.SIGSTOP)
    try:
        started = time.monotonic()
        assert player.ws is not None
        with pytest.raises(ConnectionClosed):
            while time.monotonic() - started < 15:
                player.ws.recv(timeout=15)  # what was sent before the pause, then the close
        assert time.monotonic() - started < 15
    finally:
        hung.proc.send_signal(signal.SIGCONT)
        player.close()
