"""Load test of the web server: N concurrent games of bot clients over loopback WebSockets.

Starts one ``chkobba serve`` process (SQLite in a temporary directory, unless
``--url`` names a running server), creates N two-player rooms, and plays every
seat from its own WebSocket connection, choosing random legal moves after an
optional think time. Reports the games held at once, moves per second, and the
median and 99th-percentile round trip of a move (from sending ``play`` to
receiving the answering ``state``). Every finished game's record is fetched and
replayed through the engine: a game lost or corrupted fails the run.

    .venv/bin/python bench/load.py --games 500 --think 0.5

Against a server of your own (``--url``), start it with ``chkobba serve --rate 1000``:
at its default ``--rate`` (20 requests a second per address) it answers ``429 Too
Many Requests`` to the rooms this script creates at once. The script then waits as
the server's ``Retry-After`` says and tells you so, and stops with that advice if
the server keeps refusing for ``--rate-wait`` seconds.

On a machine shared with other work, ``--realtime`` runs the bots and the server
under the round-robin real-time scheduler (root only), so that what is measured is
the server and not the neighbours: with Linux's autogroups, ``nice`` does not
reach across sessions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from chkobba.fishing.record import GameRecord, RecordError, replay


@dataclass
class Stats:
    """What the bots measured."""

    rtts: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    running: int = 0
    peak: int = 0
    finished: int = 0
    last_states: dict[str, dict[str, Any]] = field(default_factory=dict)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


RATE_ADVICE = (
    "start the server with `chkobba serve --rate 1000` for a load test: at its default "
    "--rate (20 requests a second per address) it refuses rooms created this fast"
)


class RateLimited(SystemExit):
    """The server kept answering 429 Too Many Requests for longer than we would wait."""


@dataclass
class Patience:
    """How long to wait out a server's 429 answers, in all, and whether it was said."""

    seconds: float = 120.0
    waited: float = 0.0
    told: bool = False


PATIENCE = Patience()
"""This run's patience with 429 answers (``--rate-wait``)."""


def fetch(req: urllib.request.Request | str, patience: Patience | None = None) -> bytes:
    """The body of a request; on ``429 Too Many Requests``, wait as the server's
    ``Retry-After`` says and ask again, until ``patience`` runs out: then stop with
    :data:`RATE_ADVICE`."""
    p = PATIENCE if patience is None else patience
    while True:
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return bytes(r.read())
        except urllib.error.HTTPError as e:
            if e.code != 429:
                raise
            try:
                pause = max(0.05, float(e.headers.get("Retry-After") or 1.0))
            except ValueError:
                pause = 1.0
            if p.waited + pause > p.seconds:
                raise RateLimited(
                    f"the server answered 429 Too Many Requests for {p.waited:.0f} s: "
                    + RATE_ADVICE
                ) from None
            if not p.told:
                p.told = True
                print(f"429 Too Many Requests: waiting it out ({RATE_ADVICE})", file=sys.stderr)
            time.sleep(pause)
            p.waited += pause


def http(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        base + path, data=data, headers={"Content-Type": "application/json"}
    )
    return json.loads(fetch(req))


def start_server(data_dir: Path, port: int, db: str | None) -> subprocess.Popen[bytes]:
    cmd = [
        sys.executable,
        "-c",
        "from chkobba.cli import main; main()",
        "serve",
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
        "--bot-delay",
        "0",
        "--rate",
        "1000",
        "--log-level",
        "warning",
        *(["--db", db] if db else []),
    ]
    log = open(data_dir / "server.log", "wb")  # noqa: SIM115 - open for the server's life
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            http(base, "/healthz")
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"the server did not start: {(data_dir / 'server.log').read_text()}")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    ticks = 100  # USER_HZ on Linux
    return (int(fields[11]) + int(fields[12])) / ticks


async def seat_bot(
    ws_url: str, game: str, token: str, seed: int, think: float, stats: Stats
) -> None:
    rng = random.Random(seed)
    pending: tuple[int, float] | None = None
    counter = 0
    async with connect(ws_url, compression=None, max_size=1 << 20) as ws:
        await ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
        async for raw in ws:
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "error":
                stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
                pending = None
                continue
            if kind != "state":
                continue
            if pending is not None and msg.get("re") == pending[0]:
                stats.rtts.append(time.perf_counter() - pending[1])
                pending = None
            if msg["over"]:
                stats.last_states[game] = msg
                return
            if msg["legal"] and pending is None:
                if think > 0:
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                counter += 1
                move = rng.choice(msg["legal"])
                pending = (counter, time.perf_counter())
                await ws.send(
                    json.dumps({"type": "play", "move": move, "ply": msg["ply"], "id": counter})
                )


async def play_game(
    ws_url: str, game: str, tokens: list[str], seed: int, think: float, delay: float, stats: Stats
) -> None:
    await asyncio.sleep(delay)
    stats.running += 1
    stats.peak = max(stats.peak, stats.running)
    try:
        await asyncio.gather(
            *(
                seat_bot(ws_url, game, tok, seed * 7 + i, think, stats)
                for i, tok in enumerate(tokens)
            )
        )
        stats.finished += 1
    finally:
        stats.running -= 1


def create_games(base: str, n: int, target: int) -> list[tuple[str, list[str]]]:
    games = []
    for _ in range(n):
        r = http(base, "/api/games", {"mode": "room", "seating": "2", "target": target})
        j = http(base, f"/api/games/{r['game']}/join", {"name": "bot"})
        games.append((r["game"], [r["token"], j["token"]]))
    return games


def verify(base: str, stats: Stats, games: list[tuple[str, list[str]]]) -> int:
    """Replay every finished game's record; return how many check out."""
    good = 0
    for game, _ in games:
        last = stats.last_states.get(game)
        if last is None:
            continue
        text = fetch(f"{base}/api/games/{game}/record")
        try:
            rep = replay(GameRecord.loads(text.decode()))
        except RecordError as e:
            print(f"game {game}: bad record: {e}", file=sys.stderr)
            continue
        if rep.totals == last["totals"] and rep.winner == last["winner"]:
            good += 1
        else:
            print(f"game {game}: record {rep.totals} but clients saw {last['totals']}")
    return good


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    server = None
    data_dir = Path(tempfile.mkdtemp(prefix="chkobba-load-"))
    if args.url:
        base = args.url.rstrip("/")
    else:
        port = free_port()
        server = start_server(data_dir, port, args.db)
        base = f"http://127.0.0.1:{port}"
    ws_url = base.replace("http", "ws", 1) + "/ws"
    try:
        t0 = time.perf_counter()
        games = await asyncio.to_thread(create_games, base, args.games, args.target)
        created = time.perf_counter() - t0
        cpu0 = cpu_seconds(server.pid) if server else float("nan")
        own0 = time.process_time()
        stats = Stats()
        start = time.perf_counter()
        await asyncio.wait_for(
            asyncio.gather(
                *(
                    play_game(
                        ws_url,
                        game,
                        tokens,
                        args.seed + i,
                        args.think,
                        args.ramp * i / max(1, args.games),
                        stats,
                    )
                    for i, (game, tokens) in enumerate(games)
                )
            ),
            timeout=args.timeout,
        )
        elapsed = time.perf_counter() - start
        cpu = cpu_seconds(server.pid) - cpu0 if server else float("nan")
        own = time.process_time() - own0
        good = await asyncio.to_thread(verify, base, stats, games)
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
            log = (data_dir / "server.log").read_text(errors="replace")
            if "Traceback" in log or "ERROR" in log:
                print(log[-4000:], file=sys.stderr)
        shutil.rmtree(data_dir, ignore_errors=True)
    moves = len(stats.rtts)
    return {
        "games": args.games,
        "held_at_once": stats.peak,
        "finished": stats.finished,
        "records_verified": good,
        "moves": moves,
        "seconds": round(elapsed, 2),
        "moves_per_second": round(moves / elapsed, 1),
        "rtt_ms_median": round(1000 * statistics.median(stats.rtts), 2) if moves else None,
        "rtt_ms_p90": round(1000 * percentile(stats.rtts, 0.90), 2),
        "rtt_ms_p99": round(1000 * percentile(stats.rtts, 0.99), 2),
        "rtt_ms_max": round(1000 * max(stats.rtts), 2) if moves else None,
        "errors": stats.errors,
        "server_cpu_seconds": round(cpu, 2),
        "server_cpu_ms_per_move": round(1000 * cpu / moves, 3) if moves else None,
        "bots_cpu_seconds": round(own, 2),
        "setup_seconds": round(created, 2),
        "think_seconds": args.think,
        "realtime": args.realtime,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=500, help="concurrent games (default 500)")
    ap.add_argument(
        "--think", type=float, default=0.5, help="mean seconds a bot waits before moving"
    )
    ap.add_argument("--target", type=int, default=11, choices=(11, 21, 31))
    ap.add_argument("--ramp", type=float, default=5.0, help="seconds over which games start")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=1200.0)
    ap.add_argument(
        "--url",
        help="a running server instead of starting one; start it with "
        "`chkobba serve --rate 1000` (at the default --rate 20 it answers 429 Too Many "
        "Requests to rooms created this fast, and the script has to wait)",
    )
    ap.add_argument(
        "--rate-wait",
        type=float,
        default=120.0,
        help="seconds in all to wait out 429 answers before stopping (default 120)",
    )
    ap.add_argument("--db", help="database URL for the server started here (default: SQLite)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON only")
    ap.add_argument(
        "--realtime",
        action="store_true",
        help="run the bots and the server under SCHED_RR (root only; for a shared machine)",
    )
    args = ap.parse_args()
    PATIENCE.seconds = args.rate_wait
    if args.realtime:
        try:
            # The server is started from here and inherits the policy.
            os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(10))
        except (PermissionError, AttributeError) as e:
            raise SystemExit(f"--realtime needs root on Linux: {e}") from None
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # Two sockets per seat, and the server (started from here) inherits the limit.
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:
        import uvloop  # the bots' own overhead should not be what is measured

        out = uvloop.run(run(args))
    except ImportError:
        out = asyncio.run(run(args))
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>24}: {v}")
    if "rate_limited" in out["errors"]:
        print(f"the server refused messages as too many: {RATE_ADVICE}", file=sys.stderr)
    ok = out["finished"] == out["games"] == out["records_verified"]
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
