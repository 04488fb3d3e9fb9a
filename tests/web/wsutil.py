"""Helpers for the web tests: a throwaway PostgreSQL server, test clients, protocol steps."""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from chkobba.web.app import create_app
from chkobba.web.hub import Settings


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pg_bindir() -> Path | None:
    for exe in ("pg_ctl", "initdb"):
        if shutil.which(exe) is None:
            break
    else:
        return Path(os.path.realpath(shutil.which("pg_ctl") or "")).parent
    for cand in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (cand / "pg_ctl").exists() and (cand / "initdb").exists():
            return cand
    return None


class PgServer:
    """A throwaway PostgreSQL server in a temporary directory, on a free loopback port."""

    def __init__(self) -> None:
        bindir = _pg_bindir()
        if bindir is None:
            pytest.skip("PostgreSQL not installed (no pg_ctl/initdb): apt-get install postgresql")
        self.bindir = bindir
        self.dir = Path(tempfile.mkdtemp(prefix="chkobba-pg-"))
        self.port = free_port()
        self.user: str | None = None
        if os.geteuid() == 0:
            # initdb refuses to run as root: run the server as the postgres user.
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                pytest.skip("running as root and there is no 'postgres' user to run PostgreSQL")
            self.user = "postgres"
            shutil.chown(self.dir, "postgres")
        data = self.dir / "data"
        self._run(
            "initdb", "-D", str(data), "-U", "chkobba", "--auth=trust", "-E", "UTF8", "--no-sync"
        )
        self.resume()

    def resume(self) -> None:
        """Start the server (again, after :meth:`halt`), on the same port and files."""
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        data = str(self.dir / "data")
        self._run("pg_ctl", "-D", data, "-o", opts, "-l", str(self.dir / "log"), "-w", "start")

    def halt(self) -> None:
        """Stop the server at once, as a crash would, keeping its files."""
        self._run("pg_ctl", "-D", str(self.dir / "data"), "-m", "immediate", "-w", "stop")

    def _run(self, exe: str, *args: str) -> None:
        cmd = [str(self.bindir / exe), *args]
        if self.user is not None:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{exe} failed: {done.stdout}\n{done.stderr}")

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def url(self, db: str) -> str:
        """The URL of one database of this server."""
        return f"postgresql://chkobba@127.0.0.1:{self.port}/{db}"

    def stop(self) -> None:
        """Stop the server and remove its files."""
        try:
            if (self.dir / "data" / "postmaster.pid").exists():
                self.halt()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


FAST = Settings(bot_delay=0, rate=10_000, burst=10_000)


def make_client(url: str, settings: Settings = FAST) -> TestClient:
    """A test client of an app on ``url`` (enter it to run the lifespan)."""
    return TestClient(create_app(url, settings))


def recv_until(ws: Any, kind: str, limit: int = 50) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read messages until one of type ``kind``; return it and everything read."""
    seen: list[dict[str, Any]] = []
    for _ in range(limit):
        msg = ws.receive_json()
        seen.append(msg)
        if msg["type"] == kind:
            return msg, seen
    raise AssertionError(f"no {kind!r} message in {limit}: {seen}")


def hello(ws: Any, game: str, token: str | None = None) -> dict[str, Any]:
    """Follow a game; return the first state."""
    msg: dict[str, Any] = {"type": "hello", "game": game}
    if token is not None:
        msg["token"] = token
    ws.send_json(msg)
    welcome, _ = recv_until(ws, "welcome")
    state, _ = recv_until(ws, "state")
    assert state["game"] == welcome["game"]
    return state


def expect_error(ws: Any, code: str) -> dict[str, Any]:
    """Read until an error, and check its code."""
    err, _ = recv_until(ws, "error")
    assert err["code"] == code, err
    assert err["message"]
    return err


class ServerProcess:
    """``chkobba serve`` in a subprocess, on a free port, with its own data directory."""

    def __init__(self, data_dir: Path, *extra: str, db: str | None = None) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.extra = extra
        self.db = db
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data_dir / "server.log"

    @property
    def base(self) -> str:
        """The server's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> None:
        """Start the server and wait until /healthz answers."""
        import sys

        cmd = [
            sys.executable,
            "-c",
            "from chkobba.cli import main; main()",
            "serve",
            "--port",
            str(self.port),
            "--data-dir",
            str(self.data_dir),
            "--log-level",
            "warning",
            *self.extra,
        ]
        if self.db:
            cmd += ["--db", self.db]
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_http(f"{self.base}/healthz", timeout, self.proc, self.log)
        except RuntimeError:
            self.kill()
            raise

    def kill(self) -> None:
        """Kill the server at once (SIGKILL), as a crash would."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        """Stop the server politely, or kill it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def post_json(base: str, path: str, body: dict[str, Any], timeout: float = 10) -> dict[str, Any]:
    """POST a JSON body to a served app at ``base``; its JSON answer."""
    req = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return dict(json.loads(r.read()))


def wait_http(
    url: str, timeout: float, proc: subprocess.Popen[bytes] | None = None, log: Path | None = None
) -> None:
    """Wait until ``url`` answers 200; raise if ``timeout`` seconds pass first or if the
    server's process ``proc`` exits meanwhile (with its ``log``'s text)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited: {log.read_text() if log else ''}")
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=2) as r:
            if r.status == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(
        f"{url} did not answer in {timeout}s" + (f": {log.read_text()}" if log else "")
    )


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process and its waited-for children (0 once it
    is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(f) for f in fields[11:15]) / ticks


def play_out(base: str, game: str, token: str) -> None:
    """Seat 0 plays its first legal move, over a real WebSocket to a served app at
    ``base``, until the match is over (the computers play the rest)."""
    from websockets.sync.client import connect

    with connect(base.replace("http", "ws") + "/ws") as ws:
        ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
        while True:
            msg = json.loads(ws.recv(timeout=60))
            if msg["type"] == "error":
                # A move answered a stale state: look again.
                ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
                continue
            if msg["type"] != "state":
                continue
            if msg["over"]:
                return
            if msg["turn"] == msg.get("you", 0) and msg["legal"] and msg["legal"] != ["nocanto"]:
                ws.send(json.dumps({"type": "play", "move": msg["legal"][0], "ply": msg["ply"]}))
