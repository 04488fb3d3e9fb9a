"""Load test of a cluster: workers behind HAProxy on one PostgreSQL, one of them killed.

Starts a throwaway PostgreSQL, ``--workers`` ``chkobba serve --cluster`` workers and
HAProxy with the configuration of ``deploy/haproxy.cfg`` (everything on 127.0.0.1,
on free ports, stopped at the end), then:

1. **Throughput**: ``--scale-games`` games whose bots move without thinking, for
   ``--scale-seconds``, against 1 worker and then against all of them; moves
   stored per second and the CPU seconds each process used (workers, PostgreSQL,
   HAProxy, read from /proc), hence the CPU per move, each worker process's own (its
   CPU over its ``chkobba_moves_total``) and with the database and balancer's share.
   ``--repeats N`` runs each size N times and prints the medians, the moves/s one
   core holds and the model for this machine (moves/s a core x cores), which a
   machine with few, busy cores cannot show by adding workers. ``--no-kill`` stops
   there.
2. **A death**: ``--games`` concurrent games (a ``--touti`` share of them Touti),
   each a bot client on its own WebSocket through the balancer, thinking
   ``--think`` seconds a move (``--sprinters`` of them without thinking, so that
   some games finish within the run), against every worker; after ``--kill-at`` seconds
   one worker is killed (SIGKILL). The bots reconnect by themselves. After
   ``--duration`` seconds (or once every game is over) it reports the games
   finished, the records that replay through the engine, the acknowledged moves
   not in the database (must be 0), the move latency before, during and after
   the kill, and how long the killed worker's games took to come back.

    .venv/bin/python bench/cluster.py --games 1500 --duration 300

Every process it starts is killed on the way out, whatever happens.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))
from wsutil import PgServer, cpu_seconds, free_port, post_json, wait_http  # noqa: E402

from chkobba.fishing.record import GameRecord, replay  # noqa: E402
from chkobba.touti.record import ToutiRecord  # noqa: E402
from chkobba.touti.record import replay as touti_replay  # noqa: E402
from chkobba.web.cluster import haproxy_config  # noqa: E402


def own_cpu() -> float:
    """CPU seconds of this process (the bots)."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def pids_of_postgres(pg: PgServer) -> list[int]:
    """The postmaster and every backend of the throwaway server."""
    pidfile = pg.dir / "data" / "postmaster.pid"
    master = int(pidfile.read_text().split()[0])
    kids = subprocess.run(
        ["pgrep", "-P", str(master)], capture_output=True, text=True, check=False
    ).stdout.split()
    return [master, *map(int, kids)]


class Cluster:
    """PostgreSQL, workers and HAProxy on loopback."""

    def __init__(self, tmp: Path, workers: int) -> None:
        self.tmp = tmp
        self.pg = PgServer()
        self.db = self.pg.new_database()
        self.ports = [free_port() for _ in range(workers)]
        self.procs: list[subprocess.Popen[bytes] | None] = [None] * workers
        self.port = free_port()
        self.proxy: subprocess.Popen[bytes] | None = None
        self.pg_cpu_seen: dict[int, float] = {}

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start_worker(self, i: int) -> None:
        cmd = [
            sys.executable,
            "-c",
            "from chkobba.cli import main; main()",
            "serve",
            "--cluster",
            "--worker",
            f"w{i + 1}",
            "--port",
            str(self.ports[i]),
            "--bot-delay",
            "0",
            "--rate",
            "10000",
            "--log-level",
            "warning",
        ]
        log = open(self.tmp / f"w{i + 1}.log", "ab")  # noqa: SIM115 (the child keeps it)
        # The URL in the environment, as docs/deploy.md says: never on a command line.
        env = {**os.environ, "CHKOBBA_DATABASE_URL": self.db}
        self.procs[i] = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
        wait_http(f"http://127.0.0.1:{self.ports[i]}/healthz", 60)

    def start_proxy(self, workers: list[int]) -> None:
        if self.proxy is not None:
            self.proxy.terminate()
            self.proxy.wait(10)
        cfg = self.tmp / "haproxy.cfg"
        addrs = [f"127.0.0.1:{self.ports[i]}" for i in workers]
        cfg.write_text(haproxy_config(f"127.0.0.1:{self.port}", addrs, "inter 500ms"))
        self.proxy = subprocess.Popen(
            ["haproxy", "-db", "-f", str(cfg)],
            stdout=subprocess.DEVNULL,
            stderr=open(self.tmp / "haproxy.log", "ab"),  # noqa: SIM115
        )
        wait_http(self.base + "/healthz", 20)

    def kill(self, i: int) -> None:
        p = self.procs[i]
        if p is not None and p.poll() is None:
            p.send_signal(signal.SIGKILL)
            p.wait(10)

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far, by process kind."""
        out = {"workers": 0.0, "postgres": 0.0, "haproxy": 0.0}
        for p in self.procs:
            if p is not None:
                out["workers"] += cpu_seconds(p.pid)
        if self.proxy is not None:
            out["haproxy"] = cpu_seconds(self.proxy.pid)
        # Backends come and go: remember each one's last reading.
        for pid in pids_of_postgres(self.pg):
            self.pg_cpu_seen[pid] = max(self.pg_cpu_seen.get(pid, 0.0), cpu_seconds(pid))
        out["postgres"] = sum(self.pg_cpu_seen.values())
        return out

    def moves_stored(self) -> int:
        import psycopg

        with psycopg.connect(self.db) as conn:
            row = conn.execute("SELECT count(*) FROM moves").fetchone()
            return int(row[0]) if row else 0

    def stored_moves(self, codes: list[str]) -> dict[str, list[str]]:
        import psycopg

        out: dict[str, list[str]] = {c: [] for c in codes}
        with psycopg.connect(self.db) as conn:
            for game, move in conn.execute(
                "SELECT game_id, move FROM moves WHERE game_id = ANY(%s) ORDER BY game_id, ply",
                (codes,),
            ):
                out[game].append(move)
        return out

    def stop(self) -> None:
        if self.proxy is not None and self.proxy.poll() is None:
            self.proxy.kill()
            self.proxy.wait(10)
        for i in range(len(self.procs)):
            p = self.procs[i]
            if p is not None and p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(10)
        self.pg.stop()


def create_games(base: str, n: int, touti: float, seed: int) -> list[tuple[str, str, str]]:
    """``n`` games against the computer: (code, token, game name)."""
    rng = random.Random(seed)
    kinds = ["touti" if rng.random() < touti else "chkobba" for _ in range(n)]

    def one(kind: str) -> tuple[str, str, str]:
        body: dict[str, Any] = {"game": kind, "mode": "computer", "level": "random"}
        if kind == "chkobba":
            body["target"] = 11
        made = post_json(base, "/api/games", body, timeout=30)
        return made["game"], made["token"], kind

    with ThreadPoolExecutor(16) as pool:
        return list(pool.map(one, kinds))


@dataclass
class Bot:
    """One game's person, on a WebSocket through the balancer."""

    code: str
    token: str
    kind: str
    acked: dict[int, str] = field(default_factory=dict)
    over: bool = False
    reconnects: int = 0
    cut_at: float | None = None
    back_after: list[float] = field(default_factory=list)


@dataclass
class Run:
    """What the bots measured."""

    latencies: list[tuple[float, float]] = field(default_factory=list)
    """(when sent, seconds to the acknowledgement)."""
    errors: dict[str, int] = field(default_factory=dict)
    stop: float = 0.0


async def play(url: str, bot: Bot, run: Run, think: float, rng: random.Random) -> None:
    n = 0
    while not bot.over and time.monotonic() < run.stop:
        try:
            async with connect(f"{url}/ws?game={bot.code}", open_timeout=10) as ws:
                await ws.send(json.dumps({"type": "hello", "game": bot.code, "token": bot.token}))
                pending: tuple[int, int, str, float] | None = None
                async for raw in ws:
                    msg = json.loads(raw)
                    kind = msg["type"]
                    if kind == "error":
                        run.errors[msg["code"]] = run.errors.get(msg["code"], 0) + 1
                        pending = None
                        if msg["code"] == "stale":
                            await ws.send(
                                json.dumps({"type": "hello", "game": bot.code, "token": bot.token})
                            )
                        continue
                    if kind != "state":
                        continue
                    if bot.cut_at is not None:
                        bot.back_after.append(time.monotonic() - bot.cut_at)
                        bot.cut_at = None
                    if pending is not None and msg.get("re") == pending[0]:
                        _, ply, move, sent = pending
                        bot.acked[ply] = move
                        run.latencies.append((sent, time.monotonic() - sent))
                        pending = None
                    if msg["over"]:
                        bot.over = True
                        return
                    if pending is not None or not msg["legal"] or msg["status"] != "playing":
                        continue
                    if time.monotonic() >= run.stop:
                        return
                    if think > 0:
                        await asyncio.sleep(think * (0.5 + rng.random()))
                    n += 1
                    move = rng.choice(msg["legal"])
                    pending = (n, msg["ply"], move, time.monotonic())
                    await ws.send(
                        json.dumps({"type": "play", "move": move, "ply": msg["ply"], "id": n})
                    )
        except (OSError, ConnectionClosed, InvalidHandshake, InvalidStatus, TimeoutError):
            pass
        if bot.over:
            return
        bot.reconnects += 1
        if bot.cut_at is None:
            bot.cut_at = time.monotonic()
        await asyncio.sleep(0.2 + rng.random() * 0.5)


async def drive(
    cluster: Cluster,
    games: list[tuple[str, str, str]],
    think: float,
    seconds: float,
    kill_at: float | None,
    victim: int,
    seed: int,
    sprinters: int = 0,
) -> tuple[list[Bot], Run, float | None]:
    url = cluster.base.replace("http", "ws")
    run = Run(stop=time.monotonic() + seconds)
    bots = [Bot(code, token, kind) for code, token, kind in games]
    rng = random.Random(seed)
    tasks = [
        asyncio.create_task(
            play(url, b, run, 0.0 if i < sprinters else think, random.Random(rng.random()))
        )
        for i, b in enumerate(bots)
    ]
    killed_at = None
    if kill_at is not None:
        await asyncio.sleep(kill_at)
        killed_at = time.monotonic()
        await asyncio.to_thread(cluster.kill, victim)
        print(f"  killed worker w{victim + 1} at {kill_at:.0f} s", flush=True)
    await asyncio.wait(tasks, timeout=max(1.0, run.stop - time.monotonic() + 15))
    for t in tasks:
        t.cancel()
    return bots, run, killed_at


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def fmt_ms(values: list[float]) -> str:
    return (
        f"p50 {pct(values, 0.5) * 1000:7.1f} ms  p99 {pct(values, 0.99) * 1000:7.1f} ms"
        f"  ({len(values)} moves)"
    )


def verify(base: str, bots: list[Bot]) -> tuple[int, list[str]]:
    """Replay every finished game's record; the codes of those that fail."""

    def one(bot: Bot) -> str | None:
        try:
            with urllib.request.urlopen(f"{base}/api/games/{bot.code}/record", timeout=30) as r:
                text = r.read().decode()
            if bot.kind == "touti":
                touti_replay(ToutiRecord.loads(text))
            else:
                replay(GameRecord.loads(text))
        except Exception as e:
            return f"{bot.code}: {e}"
        return None

    done = [b for b in bots if b.over]
    with ThreadPoolExecutor(8) as pool:
        bad = [f for f in pool.map(one, done) if f is not None]
    return len(done) - len(bad), bad


def worker_moves(port: int) -> float:
    """Moves a worker has stored since it started (its ``chkobba_moves_total``)."""
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
        for line in r.read().decode().splitlines():
            if line.startswith("chkobba_moves_total "):
                return float(line.split()[1])
    return 0.0


def scale(
    cluster: Cluster, workers: list[int], games: int, seconds: float, seed: int
) -> dict[str, float]:
    """One throughput run; what it measured: moves/s, and CPU ms a move per worker
    process (``worker_ms``, the median over the workers), for the workers alone
    (``workers_ms``) and with PostgreSQL and HAProxy (``all_ms``)."""
    cluster.start_proxy(workers)
    made = create_games(cluster.base, games, 0.0, seed)
    before_moves, before_cpu, mine = cluster.moves_stored(), cluster.cpu(), own_cpu()
    before_each = {i: (cpu_seconds(cluster.procs[i].pid), worker_moves(cluster.ports[i]))
                   for i in workers if cluster.procs[i] is not None}  # fmt: skip
    load0 = os.getloadavg()[0]
    t0 = time.monotonic()
    asyncio.run(drive(cluster, made, 0.0, seconds, None, 0, seed))
    elapsed = time.monotonic() - t0
    load1 = os.getloadavg()[0]
    moves = cluster.moves_stored() - before_moves
    cpu = {k: v - before_cpu[k] for k, v in cluster.cpu().items()}
    mine = own_cpu() - mine
    total = sum(cpu.values())
    per_process = []
    for i, (c0, m0) in before_each.items():
        proc = cluster.procs[i]
        assert proc is not None
        done = worker_moves(cluster.ports[i]) - m0
        if done > 0:
            per_process.append((cpu_seconds(proc.pid) - c0) / done * 1000)
    print(
        f"  {len(workers)} worker(s): {moves / elapsed:7.0f} moves/s over {elapsed:.0f} s"
        f" (load average {load0:.1f} -> {load1:.1f});"
        f" CPU s: workers {cpu['workers']:.1f}, PostgreSQL {cpu['postgres']:.1f},"
        f" HAProxy {cpu['haproxy']:.1f}, the bots {mine:.1f};"
        f" {cpu['workers'] / max(moves, 1) * 1000:.2f} ms of worker CPU a move"
        f" ({total / max(moves, 1) * 1000:.2f} ms with the database and balancer);"
        f" per worker process: {', '.join(f'{x:.2f}' for x in per_process)} ms a move",
        flush=True,
    )
    return {
        "moves_s": moves / elapsed,
        "worker_ms": statistics.median(per_process) if per_process else float("nan"),
        "workers_ms": cpu["workers"] / max(moves, 1) * 1000,
        "all_ms": total / max(moves, 1) * 1000,
        "load": (load0 + load1) / 2,
    }


def capacity(runs: list[dict[str, float]], label: str) -> None:
    """Print the medians of ``runs`` and the capacity model they give."""
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    cores = os.cpu_count() or 1
    per_core = 1000 / med["all_ms"]
    print(
        f"  {label}: median of {len(runs)} runs: {med['moves_s']:.0f} moves/s measured"
        f" (load average {med['load']:.1f} on {cores} cores);"
        f" {med['worker_ms']:.2f} ms of CPU a move per worker process,"
        f" {med['all_ms']:.2f} ms with PostgreSQL and HAProxy"
        f" -> one core holds {1000 / med['workers_ms']:.0f} moves/s of workers alone,"
        f" {per_core:.0f} with the database and balancer;"
        f" model for {cores} idle cores: {per_core:.0f} x {cores} = {per_core * cores:.0f} moves/s",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1500, help="concurrent games in the kill run")
    ap.add_argument("--workers", type=int, default=3)
    ap.add_argument("--duration", type=float, default=240, help="seconds of the kill run")
    ap.add_argument("--kill-at", type=float, default=None, help="seconds [default: a third]")
    ap.add_argument("--think", type=float, default=10.0, help="mean seconds between two moves")
    ap.add_argument("--sprinters", type=int, default=100, help="games played without thinking")
    ap.add_argument("--touti", type=float, default=0.1, help="share of Touti games")
    ap.add_argument("--scale-games", type=int, default=200)
    ap.add_argument("--scale-seconds", type=float, default=30)
    ap.add_argument("--no-scale", action="store_true", help="skip the throughput runs")
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument(
        "--repeats", type=int, default=1, help="throughput runs of each size (medians reported)"
    )
    ap.add_argument("--no-kill", action="store_true", help="only the throughput runs")
    args = ap.parse_args()
    if not 1 <= args.games <= 5000 or not 2 <= args.workers <= 8 or args.duration > 1800:
        ap.error("keep it bounded: 1-5000 games, 2-8 workers, at most 1800 s")
    if shutil.which("haproxy") is None:
        sys.exit("HAProxy is not installed: apt-get install haproxy")
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    tmp = Path(tempfile.mkdtemp(prefix="chkobba-cluster-"))
    cluster = Cluster(tmp, args.workers)
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} on {os.cpu_count()} cores", flush=True)
    try:
        for i in range(args.workers):
            cluster.start_worker(i)
        if not args.no_scale:
            print(f"throughput, {args.scale_games} games moving without thinking:", flush=True)
            one, every = [], []
            for r in range(args.repeats):
                seed = args.seed + 2 * r
                one.append(scale(cluster, [0], args.scale_games, args.scale_seconds, seed))
                every.append(
                    scale(
                        cluster,
                        list(range(args.workers)),
                        args.scale_games,
                        args.scale_seconds,
                        seed + 1,
                    )
                )
            print("capacity (CPU a move, and what a core holds):", flush=True)
            capacity(one, "1 worker")
            capacity(every, f"{args.workers} workers")
        if args.no_kill:
            return
        cluster.start_proxy(list(range(args.workers)))
        t0 = time.monotonic()
        made = create_games(cluster.base, args.games, args.touti, args.seed + 2)
        print(f"created {len(made)} games in {time.monotonic() - t0:.1f} s", flush=True)
        kill_at = args.kill_at if args.kill_at is not None else args.duration / 3
        victim = args.workers // 2
        cpu0 = cluster.cpu()
        mine0 = own_cpu()
        t0 = time.monotonic()
        bots, run, killed_at = asyncio.run(
            drive(
                cluster,
                made,
                args.think,
                args.duration,
                kill_at,
                victim,
                args.seed,
                args.sprinters,
            )
        )
        elapsed = time.monotonic() - t0
        cpu = {k: v - cpu0[k] for k, v in cluster.cpu().items()}
        mine = own_cpu() - mine0
        assert killed_at is not None
        back = [t for b in bots for t in b.back_after if b.reconnects]
        cut = [b for b in bots if b.back_after]
        takeover = max(back) if back else 0.0
        before = [lat for sent, lat in run.latencies if sent < killed_at]
        during = [lat for sent, lat in run.latencies if killed_at <= sent < killed_at + takeover]
        after = [lat for sent, lat in run.latencies if sent >= killed_at + takeover]
        stored = cluster.stored_moves([b.code for b in bots])
        lost = sum(
            1
            for b in bots
            for ply, move in b.acked.items()
            if ply >= len(stored[b.code]) or stored[b.code][ply] != move
        )
        acked = sum(len(b.acked) for b in bots)
        verified, bad = verify(cluster.base, bots)
        finished = sum(b.over for b in bots)
        moves = sum(len(m) for m in stored.values())
        print(
            f"kill run: {len(bots)} games ({sum(b.kind == 'touti' for b in bots)} Touti)"
            f" over {elapsed:.0f} s, think {args.think} s ({args.sprinters} without),"
            f" {args.workers} workers"
        )
        print(f"  games finished:           {finished}")
        print(f"  records verified:         {verified} of {finished}")
        for line in bad[:5]:
            print(f"    FAILED {line}")
        print(f"  acknowledged moves:       {acked} (person's), {moves} stored in all")
        print(f"  acknowledged moves lost:  {lost}")
        print(
            f"  games cut off by the kill: {len(cut)}; back after p50"
            f" {pct(back, 0.5):.2f} s, max {takeover:.2f} s (takeover time)"
        )
        print(f"  latency before the kill:  {fmt_ms(before)}")
        print(f"  latency during takeover:  {fmt_ms(during)}")
        print(f"  latency after:            {fmt_ms(after)}")
        print(f"  errors seen by clients:   {run.errors or 'none'}")
        print(
            f"  CPU s: workers {cpu['workers']:.1f}, PostgreSQL {cpu['postgres']:.1f},"
            f" HAProxy {cpu['haproxy']:.1f}, the bots {mine:.1f}; {moves / elapsed:.0f} moves/s"
        )
        print(f"load average after: {os.getloadavg()[0]:.2f}")
        if lost or bad:
            sys.exit(1)
    finally:
        cluster.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
