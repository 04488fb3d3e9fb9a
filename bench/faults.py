"""Faults of a cluster, one after the other: 3 workers behind HAProxy on one PostgreSQL.

Starts a throwaway PostgreSQL, three ``chkobba serve --cluster`` workers (each reaching
the database through a TCP forwarder of this script's own, so that it can be cut off) and
HAProxy with the configuration of ``deploy/haproxy.cfg`` (everything on 127.0.0.1, on
free ports, stopped at the end). ``--games`` games against the computer are played
throughout, each by a client on its own WebSocket through the balancer that thinks
``--think`` seconds a move, reconnects when cut off, and records every move acknowledged
and every state it is sent (a game over is replaced by a new one). Then, one after the
other, with ``--settle`` seconds between them:

- ``kill -9``: the worker holding the most games is killed, and started again 5 s later;
- ``SIGSTOP 30 s``: that worker is paused for ``--pause`` seconds, then continued;
- ``cut off (closed)``: its forwarder closes its database connections and refuses new
  ones for ``--cut`` seconds;
- ``cut off (silent)``: its forwarder stops passing bytes (connections stay open) for
  ``--cut`` seconds;
- ``PostgreSQL restarted``: stopped at once (as a crash), started again 3 s later;
- ``every worker killed``: ``kill -9`` of all three, started again;
- ``rolling restart``: each worker in turn stopped (SIGTERM) and started again;
- ``upgrade with migration 0012``, first, with ``--old-tree DIR``: the workers start
  from DIR, a checkout of the release before migration 0012 (leases) with its C kernels
  built, on a database that version migrates (to 0008); once the games are in play,
  each worker in turn is stopped and started again from this tree (the first one
  applies 0012 while the old ones run on). Make DIR with ``git archive COMMIT | tar -x
  -C DIR`` and ``python setup.py build_ext --inplace`` in it.

For each it prints: the games affected (those the worker held, or every game), the
acknowledged moves not in the database (must be 0), the stale states sent (a state older
than one the same client saw before: must be 0), the moves stored under an older epoch
than a move stored before them in the same game (writes that escaped the fence: must be
0), the p50 and p99 of how long each affected game waited (its longest time without
progress from the fault's start to the end of the settling time; goal p99 < 15 s for
the hung and cut-off workers) and the machine's load average.

    .venv/bin/python bench/faults.py

The upgrade is also tested in the suite with two versions of the ownership code on one
database (tests/web/test_cluster_upgrade.py).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))
from wsutil import PgServer, free_port, post_json, wait_http  # noqa: E402

from chkobba.web.cluster import haproxy_config  # noqa: E402

WORKERS = 3


class Forwarder:
    """A TCP forwarder to PostgreSQL on a thread of its own: ``open``; ``closed`` (every
    connection cut, new ones refused); ``silent`` (connections accepted and kept, no byte
    passed either way)."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port()
        self.mode = "open"
        self.loop = asyncio.new_event_loop()
        self.pairs: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self.flowing = asyncio.Event()
        ready = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            self.loop.run_until_complete(self._serve())
            ready.set()
            self.loop.run_forever()

        threading.Thread(target=run, daemon=True).start()
        ready.wait(10)

    async def _serve(self) -> None:
        self.flowing.set()
        await asyncio.start_server(self._handle, "127.0.0.1", self.port)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.mode == "closed":
            writer.transport.abort()
            return
        try:
            r2, w2 = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.transport.abort()
            return
        pair = (writer, w2)
        self.pairs.add(pair)
        await asyncio.gather(self._pump(reader, w2), self._pump(r2, writer), return_exceptions=True)
        self.pairs.discard(pair)
        for w in pair:
            w.transport.abort()

    async def _pump(self, r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        try:
            while data := await r.read(65536):
                await self.flowing.wait()
                w.write(data)
                await w.drain()
        finally:
            w.transport.abort()

    def set(self, mode: str) -> None:
        """Change the mode (from any thread)."""

        async def change() -> None:
            self.mode = mode
            if mode == "silent":
                self.flowing.clear()
            else:
                self.flowing.set()
            if mode == "closed":
                for a, b in list(self.pairs):
                    a.transport.abort()
                    b.transport.abort()

        asyncio.run_coroutine_threadsafe(change(), self.loop).result(10)


class Cluster:
    """PostgreSQL, three workers (each through a forwarder) and HAProxy, on loopback."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.pg = PgServer()
        self.db = self.pg.new_database()
        self.name = self.db.rsplit("/", 1)[1]
        self.forwarders = [Forwarder(self.pg.port) for _ in range(WORKERS)]
        self.ports = [free_port() for _ in range(WORKERS)]
        self.procs: list[subprocess.Popen[bytes] | None] = [None] * WORKERS
        self.port = free_port()
        self.proxy: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start_worker(self, i: int, tree: Path | None = None) -> None:
        cmd = [
            sys.executable, "-c", "from chkobba.cli import main; main()", "serve",
            "--cluster", "--worker", f"w{i + 1}", "--port", str(self.ports[i]),
            "--bot-delay", "0", "--rate", "10000", "--log-level", "warning",
        ]  # fmt: skip
        log = open(self.tmp / f"w{i + 1}.log", "ab")  # noqa: SIM115 (the child keeps it)
        url = f"postgresql://chkobba@127.0.0.1:{self.forwarders[i].port}/{self.name}"
        env = {**os.environ, "CHKOBBA_DATABASE_URL": url}
        if tree is not None:
            env["PYTHONPATH"] = str(tree / "src")
        self.procs[i] = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
        wait_http(f"http://127.0.0.1:{self.ports[i]}/healthz", 60)

    def signal(self, i: int, sig: int) -> None:
        p = self.procs[i]
        if p is not None and p.poll() is None:
            p.send_signal(sig)
            if sig in (signal.SIGKILL, signal.SIGTERM):
                try:
                    p.wait(20)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(10)

    def start_proxy(self) -> None:
        cfg = self.tmp / "haproxy.cfg"
        addrs = [f"127.0.0.1:{p}" for p in self.ports]
        # Checks every second: on two busy cores a tighter check marks live workers down.
        cfg.write_text(haproxy_config(f"127.0.0.1:{self.port}", addrs, "inter 1s"))
        self.proxy = subprocess.Popen(
            ["haproxy", "-db", "-f", str(cfg)],
            stdout=subprocess.DEVNULL,
            stderr=open(self.tmp / "haproxy.log", "ab"),  # noqa: SIM115
        )
        wait_http(self.base + "/healthz", 20)

    def sql(self, query: str, *args: Any) -> list[tuple[Any, ...]]:
        import psycopg

        with psycopg.connect(self.db, connect_timeout=5) as conn:
            return [tuple(r) for r in conn.execute(query, args).fetchall()]

    def held_by(self, i: int) -> set[str]:
        try:
            rows = self.sql(
                "SELECT game_id FROM leases WHERE owner = %s AND expires_at > now()", f"w{i + 1}"
            )
        except Exception:  # no leases table yet: workers of the release before 0012
            return set()
        return {r[0] for r in rows}

    def busiest(self) -> int:
        return max(range(WORKERS), key=lambda i: len(self.held_by(i)))

    def stop(self) -> None:
        if self.proxy is not None and self.proxy.poll() is None:
            self.proxy.kill()
            self.proxy.wait(10)
        for i in range(WORKERS):
            self.signal(i, signal.SIGCONT)
            self.signal(i, signal.SIGKILL)
        # The forwarders' threads are daemons: they end with this process.
        self.pg.stop()


@dataclass
class Game:
    """One game as its client saw it."""

    code: str
    token: str
    acked: dict[int, str] = field(default_factory=dict)
    progress: list[float] = field(default_factory=list)
    """When the game's ply grew, as this client saw it."""
    seen: int = -1
    """The highest ply this client was sent."""
    stale: list[float] = field(default_factory=list)
    """When a state older than one already seen arrived."""
    over: bool = False


async def play(url: str, game: Game, stop: float, think: float, rng: random.Random) -> None:
    n = 0
    while not game.over and time.monotonic() < stop:
        try:
            async with connect(f"{url}/ws?game={game.code}", open_timeout=10) as ws:
                await ws.send(json.dumps({"type": "hello", "game": game.code, "token": game.token}))
                pending: tuple[int, int, str] | None = None
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg["type"] == "error":
                        pending = None
                        if msg["code"] == "stale":
                            hello = {"type": "hello", "game": game.code, "token": game.token}
                            await ws.send(json.dumps(hello))
                        continue
                    if msg["type"] != "state":
                        continue
                    now = time.monotonic()
                    if msg["ply"] < game.seen:
                        game.stale.append(now)
                    elif msg["ply"] > game.seen:
                        game.seen = msg["ply"]
                        game.progress.append(now)
                    if pending is not None and msg.get("re") == pending[0]:
                        game.acked[pending[1]] = pending[2]
                        pending = None
                    if msg["over"]:
                        game.over = True
                        return
                    if pending is not None or not msg["legal"] or msg["status"] != "playing":
                        continue
                    await asyncio.sleep(think * (0.5 + rng.random()))
                    n += 1
                    move = rng.choice(msg["legal"])
                    pending = (n, msg["ply"], move)
                    await ws.send(
                        json.dumps({"type": "play", "move": move, "ply": msg["ply"], "id": n})
                    )
        except (OSError, ConnectionClosed, InvalidHandshake, InvalidStatus, TimeoutError):
            pass
        await asyncio.sleep(0.2 + rng.random() * 0.3)


class Players:
    """``n`` games always in play through the balancer (a game over is replaced)."""

    def __init__(self, cluster: Cluster, n: int, think: float, seed: int) -> None:
        self.cluster = cluster
        self.n = n
        self.think = think
        self.rng = random.Random(seed)
        self.games: dict[str, Game] = {}
        self.stop = float("inf")
        self.tasks: set[asyncio.Task[None]] = set()

    async def new_game(self) -> None:
        while time.monotonic() < self.stop:
            try:
                body = {"level": "random", "target": 21}
                made = await asyncio.to_thread(post_json, self.cluster.base, "/api/games", body, 20)
                break
            except OSError:
                await asyncio.sleep(0.5)
        else:
            return
        game = Game(made["game"], made["token"])
        self.games[game.code] = game
        ws = self.cluster.base.replace("http", "ws")
        task = asyncio.create_task(self._run(ws, game))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _run(self, ws: str, game: Game) -> None:
        await play(ws, game, self.stop, self.think, self.rng)
        if game.over and time.monotonic() < self.stop:
            await self.new_game()

    async def start(self) -> None:
        for _ in range(self.n):
            await self.new_game()


def longest_wait(game: Game, start: float, end: float) -> float:
    """The longest stretch without progress between ``start`` and ``end``."""
    times = [t for t in game.progress if start < t <= end]
    if not times:
        return end - start
    marks = [start, *times]
    gaps = [b - a for a, b in itertools.pairwise(marks)]
    if not game.over:
        gaps.append(end - marks[-1])
    return max(gaps)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def old_epoch_writes(cluster: Cluster, codes: set[str]) -> int:
    """Moves stored under an older epoch than a move before them in the same game."""
    bad = 0
    rows = cluster.sql(
        "SELECT game_id, epoch FROM moves WHERE game_id = ANY(%s) ORDER BY game_id, ply",
        sorted(codes),
    )
    last: dict[str, int] = {}
    for code, epoch in rows:
        if epoch is None:
            continue
        if epoch < last.get(code, 0):
            bad += 1
        last[code] = max(last.get(code, 0), epoch)
    return bad


def lost_moves(cluster: Cluster, games: list[Game]) -> int:
    stored: dict[tuple[str, int], str] = {
        (c, p): m
        for c, p, m in cluster.sql(
            "SELECT game_id, ply, move FROM moves WHERE game_id = ANY(%s)",
            [g.code for g in games],
        )
    }
    return sum(stored.get((g.code, p)) != m for g in games for p, m in g.acked.items())


Fault = Callable[[Cluster], Awaitable[int | None]]
"""Runs a fault; the worker it struck (its games are the affected ones), or None: all."""


async def kill_owner(c: Cluster) -> int:
    i = c.busiest()
    c.signal(i, signal.SIGKILL)
    await asyncio.sleep(5)
    await asyncio.to_thread(c.start_worker, i)
    return i


def pause_owner(seconds: float) -> Fault:
    async def run(c: Cluster) -> int:
        i = c.busiest()
        c.signal(i, signal.SIGSTOP)
        await asyncio.sleep(seconds)
        c.signal(i, signal.SIGCONT)
        return i

    return run


def cut_owner(mode: str, seconds: float) -> Fault:
    async def run(c: Cluster) -> int:
        i = c.busiest()
        c.forwarders[i].set(mode)
        await asyncio.sleep(seconds)
        c.forwarders[i].set("open")
        return i

    return run


async def restart_postgres(c: Cluster) -> None:
    await asyncio.to_thread(c.pg.halt)
    await asyncio.sleep(3)
    await asyncio.to_thread(c.pg.resume)
    return None


async def kill_all(c: Cluster) -> None:
    for i in range(WORKERS):
        c.signal(i, signal.SIGKILL)
    for i in range(WORKERS):
        await asyncio.to_thread(c.start_worker, i)
    return None


async def rolling_restart(c: Cluster) -> None:
    for i in range(WORKERS):
        c.signal(i, signal.SIGTERM)
        await asyncio.to_thread(c.start_worker, i)
        await asyncio.sleep(2)
    return None


async def upgrade(c: Cluster) -> None:
    for i in range(WORKERS):
        c.signal(i, signal.SIGTERM)
        await asyncio.to_thread(c.start_worker, i)
        await asyncio.sleep(2)
    return None


async def main_async(args: argparse.Namespace, cluster: Cluster) -> list[dict[str, Any]]:
    first: list[tuple[str, Fault]] = []
    if args.old_tree is not None:
        first = [("upgrade with migration 0012 (rolling)", upgrade)]
    faults: list[tuple[str, Fault]] = [
        *first,
        ("kill -9 of an owner", kill_owner),
        (f"SIGSTOP {args.pause:g} s, then SIGCONT", pause_owner(args.pause)),
        (f"cut off {args.cut:g} s (closed)", cut_owner("closed", args.cut)),
        (f"cut off {args.cut:g} s (silent)", cut_owner("silent", args.cut)),
        ("PostgreSQL restarted", restart_postgres),
        ("every worker killed", kill_all),
        ("rolling restart", rolling_restart),
    ]
    players = Players(cluster, args.games, args.think, args.seed)
    await players.start()
    await asyncio.sleep(args.settle)
    results = []
    for name, fault in faults:
        # The games in play when it strikes; which the struck worker held.
        live = {c for c, g in players.games.items() if not g.over}
        held = {i: cluster.held_by(i) for i in range(WORKERS)}
        load_before = os.getloadavg()[0]
        started = time.monotonic()
        print(f"-- {name}", flush=True)
        struck = await fault(cluster)
        ended = time.monotonic()
        await asyncio.sleep(args.settle)
        until = time.monotonic()
        affected = live & held[struck] if struck is not None else live
        games = [players.games[c] for c in sorted(affected)]
        waits = [longest_wait(g, started, until) for g in games]
        every = list(players.games.values())
        results.append(
            {
                "fault": name,
                "games": len(games),
                "lost": lost_moves(cluster, every),
                "stale": sum(started <= t <= until for g in every for t in g.stale),
                "old_epoch": old_epoch_writes(cluster, set(players.games)),
                "p50": pct(waits, 0.5) if waits else 0.0,
                "p99": pct(waits, 0.99) if waits else 0.0,
                "fault_s": ended - started,
                "load": (load_before + os.getloadavg()[0]) / 2,
            }
        )
        print(json.dumps(results[-1]), flush=True)
    players.stop = time.monotonic()
    for t in list(players.tasks):
        t.cancel()
    await asyncio.gather(*players.tasks, return_exceptions=True)
    total = sum(len(g.acked) for g in players.games.values())
    print(f"{len(players.games)} games played, {total} moves acknowledged in all")
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=24, help="games in play at once")
    parser.add_argument("--think", type=float, default=0.5, help="seconds a client thinks")
    parser.add_argument("--pause", type=float, default=30.0, help="seconds of SIGSTOP")
    parser.add_argument("--cut", type=float, default=15.0, help="seconds cut off")
    parser.add_argument("--settle", type=float, default=12.0, help="seconds after each fault")
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument(
        "--old-tree", type=Path, default=None,
        help="a checkout of the release before migration 0012, built: upgrade from it first",
    )  # fmt: skip
    args = parser.parse_args()
    if shutil.which("haproxy") is None:
        sys.exit("HAProxy is not installed: apt-get install haproxy")
    tmp = Path(tempfile.mkdtemp(prefix="chkobba-faults-"))
    cluster = Cluster(tmp)
    try:
        for i in range(WORKERS):
            cluster.start_worker(i, args.old_tree)
        cluster.start_proxy()
        results = asyncio.run(main_async(args, cluster))
    finally:
        cluster.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print()
    print(
        f"{WORKERS} workers behind HAProxy, {args.games} games in play, clients thinking"
        f" {args.think:g} s a move; waits: each affected game's longest stall from the"
        f" fault's start to {args.settle:g} s after its end"
    )
    print()
    print(
        "| fault | games affected | acked moves lost | stale states | old-epoch writes"
        " | wait p50 | wait p99 | load (1 min) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        print(
            f"| {r['fault']} | {r['games']} | {r['lost']} | {r['stale']} | {r['old_epoch']}"
            f" | {r['p50']:.1f} s | {r['p99']:.1f} s | {r['load']:.1f} |"
        )
    medians = statistics.median(r["load"] for r in results) if results else 0.0
    print(f"\nmachine: {os.cpu_count()} cores, median load average {medians:.1f}")


if __name__ == "__main__":
    main()
