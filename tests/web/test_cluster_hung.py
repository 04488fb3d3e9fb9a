"""A hung worker (SIGSTOP) loses its game to its lease's end: another worker serves it within
the bound, and once the hung one wakes it neither serves a stale state nor writes
(issue 28). Two real ``chkobba serve --cluster`` workers on a throwaway PostgreSQL;
skipped where it is not installed."""

from __future__ import annotations

import contextlib
import json
import signal
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from wsutil import PgServer, ServerProcess, post_json

TAKEOVER_SECONDS = 10.0
"""The goal: another worker serves a hung worker's game within this (the lease lasts 4 s)."""


def ws_url(w: ServerProcess, code: str) -> str:
    return w.base.replace("http", "ws") + f"/ws?game={code}"


def read(ws: ClientConnection, timeout: float = 20) -> dict[str, Any]:
    return dict(json.loads(ws.recv(timeout=timeout)))


def hello(ws: ClientConnection, code: str, token: str) -> dict[str, Any]:
    """The state answering a hello; raises if refused (an error, or the socket closed)."""
    ws.send(json.dumps({"type": "hello", "game": code, "token": token}))
    while True:
        msg = read(ws)
        assert msg["type"] != "error", msg
        if msg["type"] == "state":
            return msg


def my_turn(ws: ClientConnection, state: dict[str, Any]) -> dict[str, Any]:
    while not state["legal"]:
        msg = read(ws)
        if msg["type"] == "state":
            state = msg
    return state


def play(ws: ClientConnection, state: dict[str, Any], n: int) -> dict[str, Any]:
    """Play the first legal move; the state answering it, then the next one to play in."""
    ws.send(json.dumps({"type": "play", "move": state["legal"][0], "ply": state["ply"], "id": n}))
    while True:
        msg = read(ws)
        assert msg["type"] != "error", msg
        if msg.get("re") == n:
            return my_turn(ws, msg) if not msg["over"] else msg


def stored(db: str, code: str) -> list[tuple[int, int | None]]:
    import psycopg

    with psycopg.connect(db) as conn:
        rows = conn.execute(
            "SELECT ply, epoch FROM moves WHERE game_id = %s ORDER BY ply", (code,)
        ).fetchall()
    return [(int(p), e) for p, e in rows]


@pytest.mark.timeout(180)
def test_a_hung_worker_loses_its_game_and_wakes_up_harmless(
    tmp_path: Path, pg_server: PgServer
) -> None:
    db = pg_server.new_database()
    workers = [
        ServerProcess(tmp_path / f"w{i}", "--cluster", "--worker", f"w{i}", "--bot-delay", "0",
                      "--rate", "1000", db=db)
        for i in range(2)
    ]  # fmt: skip
    hung, other = workers
    sockets = contextlib.ExitStack()
    try:
        for w in workers:
            w.start()
        made = post_json(hung.base, "/api/games", {"level": "random", "target": 21})
        code, token = made["game"], made["token"]
        old = sockets.enter_context(connect(ws_url(hung, code), open_timeout=10))
        state = play(old, my_turn(old, hello(old, code, token)), 1)
        paused_at = state["ply"]
        # Nothing more is on its way to the old connection: a pong after the last state.
        old.send(json.dumps({"type": "ping", "id": "p"}))
        assert read(old)["type"] == "pong"
        assert hung.proc is not None
        hung.proc.send_signal(signal.SIGSTOP)
        stopped = time.monotonic()
        try:
            # The other worker is refused (server_error, 1013) while the lease runs, then
            # ends the hung worker's session and serves the game.
            while True:
                assert time.monotonic() - stopped < TAKEOVER_SECONDS, "not taken over in time"
                try:
                    new = sockets.enter_context(connect(ws_url(other, code), open_timeout=10))
                    fresh = hello(new, code, token)
                    break
                except (AssertionError, ConnectionClosed, TimeoutError, OSError):
                    time.sleep(0.2)
            waited = time.monotonic() - stopped
            assert fresh["ply"] == paused_at
            fresh = play(new, fresh, 2)
            fresh = play(new, fresh, 3)
            now_at = fresh["ply"]
            assert now_at > paused_at
            # A move the hung worker will read when it wakes: at the ply it last knew.
            old.send(json.dumps({"type": "play", "move": state["legal"][0],
                                 "ply": paused_at, "id": 9}))  # fmt: skip
        finally:
            hung.proc.send_signal(signal.SIGCONT)
        # Awake, it sends the old connection no state (it would be stale) but an error
        # for the move, and hands the client over (1012).
        answers: list[dict[str, Any]] = []
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                answers.append(read(old))
        assert all(m["type"] != "state" for m in answers), answers
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        # Asked again, it serves the game as it is now (taken back from the other
        # worker), or refuses: never as it was.
        again = sockets.enter_context(connect(ws_url(hung, code), open_timeout=10))
        again.send(json.dumps({"type": "hello", "game": code, "token": token}))
        with contextlib.suppress(ConnectionClosed):
            while (msg := read(again))["type"] not in ("state", "error"):
                pass
            assert msg["type"] == "error" or msg["ply"] >= now_at, msg
        # Nothing was written under the old epoch once the new one began.
        moves = stored(db, code)
        assert [p for p, _ in moves] == list(range(len(moves))) and len(moves) >= now_at
        epochs = [e for _, e in moves]
        assert epochs == sorted(epochs), moves
        assert epochs[paused_at] is not None and epochs[paused_at] > epochs[0], moves
        with urllib.request.urlopen(other.base + "/healthz", timeout=10) as r:
            leases = json.loads(r.read())["leases"]
        assert leases["taken_from_hung"] >= 1 and leases["count"] > 0 and leases["last"]
        assert leases["failures"] == 0 and leases["lease_seconds"] == 4.0
        with urllib.request.urlopen(other.base + "/metrics", timeout=10) as r:
            metrics = r.read().decode()
        counts = dict(ln.split() for ln in metrics.splitlines() if ln.startswith("chkobba_lease"))
        assert float(counts["chkobba_lease_renewals_total"]) > 0
        assert float(counts["chkobba_lease_renewal_failures_total"]) == 0
        print(f"taken over {waited:.1f} s after the pause")
    finally:
        if hung.proc is not None and hung.proc.poll() is None:
            hung.proc.send_signal(signal.SIGCONT)
        sockets.close()
        for w in workers:
            w.stop()
