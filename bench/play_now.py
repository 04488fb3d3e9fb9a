"""The "Play now" queue under load: players joining over a minute across two workers.

Starts a throwaway PostgreSQL (the test helpers' ``PgServer``) and ``--workers`` real
servers on 127.0.0.1 sharing it as a cluster (``create_app(..., worker=...)`` under
uvicorn, as ``chkobba serve --cluster`` runs it, but launched by this script so that
each account's rating comes from the bench: the ratings are not connected to the queue
yet). Without PostgreSQL it says so and runs one server on SQLite instead.

``--players`` signed-in players (accounts and sessions written straight into the
database: no password hashing), each rated from a normal law (mean 1500, ``--spread``),
join the same rated pool (Chkobba, 2 players, no clock) at times spread evenly over
``--seconds``, player ``i`` through worker ``i mod workers``; each then asks for news
every ``--poll`` seconds, through the *other* worker when there are two, until paired.

Prints: whether everyone was paired, and nobody twice (from the answers and from the
database: every game has exactly its two players, every player one game); the waits as
the server counts them (joined to paired), median, p90, p99 and the longest; the rating
gap of the pairs (median, p90, largest); how many pairs joined through different
workers; the CPU seconds of each server and of PostgreSQL, and the machine's load
average before and after.

    .venv/bin/python bench/play_now.py                 # 500 players over 60 s
    .venv/bin/python bench/play_now.py --players 60 --seconds 10
"""

# ruff: noqa: E402  (the path is set right before the other imports; see below)
from __future__ import annotations

import sys
from pathlib import Path

# This file's name is the standard library's ``queue``: run as a script, its folder
# comes first on the path and would stand in for it. Take the folder off.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import asyncio
import datetime as dt
import json
import os
import random
import secrets
import shutil
import statistics
import subprocess
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))
from wsutil import PgServer, cpu_seconds, free_port, wait_http

from chkobba.store import Store
from chkobba.store.accounts import Accounts
from chkobba.web.auth import SESSION_COOKIE, digest
from chkobba.web.names import check_name, name_keys

LAUNCH = """
import json, sys, uvicorn
from chkobba.web.app import create_app
from chkobba.web.hub import Settings
db, port, worker, ratings_file = sys.argv[1], int(sys.argv[2]), sys.argv[3] or None, sys.argv[4]
ratings = {int(k): v for k, v in json.load(open(ratings_file)).items()}
app = create_app(db, Settings(bot_delay=0, rate=5000, burst=10000), worker=worker,
                 ratings=lambda account, pool: ratings.get(account))
uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
"""


def postgres_cpu(pg: PgServer | None) -> float:
    """CPU seconds of every process of the PostgreSQL server (its backends included)."""
    if pg is None:
        return 0.0
    total = 0.0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes()
        except OSError:
            continue
        if (b"postgres" in cmdline and str(pg.port).encode() in cmdline) or (
            cmdline.startswith(b"postgres:") and _child_of_port(proc, pg)
        ):
            total += cpu_seconds(int(proc.name))
    return total


def _child_of_port(proc: Path, pg: PgServer) -> bool:
    # Backends show "postgres: ..." as their command line; their parent is the server.
    try:
        ppid = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
        parent = Path(f"/proc/{ppid}/cmdline").read_bytes()
    except (OSError, ValueError, IndexError):
        return False
    return str(pg.port).encode() in parent


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def make_players(url: str, n: int, spread: float, seed: int) -> list[dict[str, Any]]:
    """``n`` accounts with open sessions, written straight into the database."""
    store = Store(url)
    store.migrate()
    accounts = Accounts(store.engine)
    rng = random.Random(seed)
    expires = dt.datetime.now(dt.UTC) + dt.timedelta(days=1)
    players = []
    for i in range(n):
        name = check_name(f"bench{i:04d}")
        key, shape = name_keys(name)
        account = accounts.create(name, key, shape, "not-a-hash")
        sid = secrets.token_urlsafe(32)
        accounts.open_session(digest(sid), account.id, expires)
        players.append(
            {"i": i, "account": account.id, "cookie": sid, "rating": rng.gauss(1500, spread)}
        )
    store.close()
    return players


class Worker:
    """One server process."""

    def __init__(self, db: str, name: str | None, ratings: Path, log: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        with open(log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", LAUNCH, db, str(self.port), name or "", str(ratings)],
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
            )
        self.log = log

    def wait_ready(self, timeout: float = 60) -> None:
        wait_http(f"{self.base}/healthz", timeout, self.proc, self.log)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


async def one_player(
    p: dict[str, Any], workers: list[Worker], start: float, at: float, poll: float,
    deadline: float,
) -> dict[str, Any]:
    """Join at ``start + at``, then poll until paired; what the player was told."""
    await asyncio.sleep(max(0.0, start + at - time.monotonic()))
    join_via = workers[p["i"] % len(workers)]
    poll_via = workers[(p["i"] + 1) % len(workers)]
    cookie = f"{SESSION_COOKIE}={p['cookie']}"
    loop = asyncio.get_running_loop()

    async def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
        return await loop.run_in_executor(POOL, _post, url, body, cookie)

    joined_answer = await post(
        f"{join_via.base}/api/queue", {"pool": "chkobba", "seating": "2", "rated": True}
    )
    ticket = joined_answer["ticket"]
    joined = time.monotonic()
    while time.monotonic() < deadline:
        await asyncio.sleep(poll)
        answer = await post(f"{poll_via.base}/api/queue/poll", {"ticket": ticket})
        if answer["status"] == "paired":
            return {**p, **answer, "seen_after": time.monotonic() - joined,
                    "via": join_via.port}
    return {**p, "status": "waiting"}


POOL = ThreadPoolExecutor(64, thread_name_prefix="player")
"""The players' HTTP calls (blocking, the standard library's) run here."""


def _post(url: str, body: dict[str, Any], cookie: str) -> dict[str, Any]:
    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Cookie": cookie},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        return dict(json.loads(r.read()))


async def run_players(
    players: list[dict[str, Any]], workers: list[Worker], seconds: float, poll: float
) -> list[dict[str, Any]]:
    start = time.monotonic() + 0.5
    deadline = start + seconds + 120
    step = seconds / max(1, len(players) - 1)
    return await asyncio.gather(
        *(one_player(p, workers, start, i * step, poll, deadline) for i, p in enumerate(players))
    )


def check_database(url: str) -> tuple[int, int]:
    """From the database: the games the queue made with other than 2 players, and the
    accounts seated more than once."""
    import sqlalchemy as sa

    from chkobba.store.schema import queue_entries, seats

    store = Store(url)
    with store.engine.connect() as conn:
        games = conn.execute(
            sa.select(queue_entries.c.game_id, sa.func.count())
            .where(queue_entries.c.status == "paired")
            .group_by(queue_entries.c.game_id)
        ).all()
        bad_games = sum(1 for _, n in games if n != 2)
        twice = conn.execute(
            sa.select(seats.c.account_id)
            .where(seats.c.account_id.is_not(None))
            .group_by(seats.c.account_id)
            .having(sa.func.count() > 1)
        ).all()
    store.close()
    return bad_games, len(twice)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--seconds", type=float, default=60.0, help="joins spread over this")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--poll", type=float, default=1.0, help="seconds between two polls")
    ap.add_argument("--spread", type=float, default=250.0, help="ratings' standard deviation")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="chkobba-queue-bench-"))
    pg: PgServer | None = None
    workers: list[Worker] = []
    try:
        try:
            import pytest

            pg = PgServer()
            url = pg.new_database()
            names: list[str | None] = [f"w{i}" for i in range(args.workers)]
            print(f"PostgreSQL on 127.0.0.1:{pg.port}, {args.workers} workers (cluster)")
        except (pytest.skip.Exception, ImportError, RuntimeError) as e:
            url = f"sqlite:///{tmp / 'chkobba.db'}"
            names = [None]
            print(f"no PostgreSQL ({e}): ONE server on SQLite instead of a cluster")
        players = make_players(url, args.players, args.spread, args.seed)
        ratings = tmp / "ratings.json"
        ratings.write_text(json.dumps({p["account"]: p["rating"] for p in players}))
        workers = [Worker(url, n, ratings, tmp / f"w{i}.log") for i, n in enumerate(names)]
        for w in workers:
            w.wait_ready()
        load_before = os.getloadavg()
        cpu_before = [cpu_seconds(w.proc.pid) for w in workers]
        pg_before = postgres_cpu(pg)
        began = time.monotonic()
        told = asyncio.run(run_players(players, workers, args.seconds, args.poll))
        took = time.monotonic() - began
        load_after = os.getloadavg()
        cpus = [cpu_seconds(w.proc.pid) - b for w, b in zip(workers, cpu_before, strict=True)]
        pg_cpu = postgres_cpu(pg) - pg_before
        bad_games, twice_db = check_database(url)
    finally:
        for w in workers:
            w.stop()
        if pg is not None:
            pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)

    paired = [t for t in told if t["status"] == "paired"]
    seats = [(t["game"], t["seat"]) for t in paired]
    games: dict[str, list[dict[str, Any]]] = {}
    for t in paired:
        games.setdefault(t["game"], []).append(t)
    twice = len(seats) - len(set(seats))
    waits = [t["waited"] for t in paired]
    gaps = [abs(a["rating"] - b["rating"]) for a, b in (g for g in games.values() if len(g) == 2)]
    across = sum(1 for g in games.values() if len(g) == 2 and g[0]["via"] != g[1]["via"])

    print(f"{args.players} players joined over {args.seconds:g} s, polling every "
          f"{args.poll:g} s; run took {took:.1f} s")
    print(f"paired: {len(paired)}/{len(told)}; games: {len(games)}; "
          f"seats given twice: {twice}; games without exactly 2 players (answers): "
          f"{sum(1 for g in games.values() if len(g) != 2)}, (database): {bad_games}; "
          f"accounts seated twice (database): {twice_db}")
    clean = len(paired) == len(told) and not (twice or bad_games or twice_db)
    print(f"everyone paired, never twice: {'yes' if clean else 'NO'}")
    if waits:
        print(f"wait (server, joined to paired): median {statistics.median(waits):.2f} s, "
              f"p90 {quantile(waits, 0.9):.2f} s, p99 {quantile(waits, 0.99):.2f} s, "
              f"max {max(waits):.2f} s")
    if gaps:
        print(f"rating gap of the pairs (ratings sd {args.spread:g}): median "
              f"{statistics.median(gaps):.0f}, p90 {quantile(gaps, 0.9):.0f}, "
              f"max {max(gaps):.0f}")
    print(f"pairs that joined through different workers: {across}/{len(games)}")
    print("CPU seconds: " + ", ".join(f"worker {i} {c:.1f}" for i, c in enumerate(cpus))
          + (f", PostgreSQL {pg_cpu:.1f}" if pg is not None else ""))
    print(f"machine: {os.cpu_count()} cores; load average (1, 5, 15 min) before "
          f"{load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, after "
          f"{load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")


if __name__ == "__main__":
    main()
