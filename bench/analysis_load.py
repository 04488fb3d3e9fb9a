"""Can anyone tie up the server with analyses? Games measured while clients hammer the coach.

Starts one ``chkobba serve`` on 127.0.0.1 (SQLite in a temporary directory) and, for
``--quiet`` seconds, then ``--seconds`` more, measures other games: WebSocket pings from
connections following them (``ping`` → ``pong``) and the moves of people playing the
computer (``play`` → the answering ``state``). During the second part, ``--clients``
clients, each from its own loopback address (127.0.0.N: one address per client, as
the server's quotas are per address), hammer the analysis endpoints in turn with:

- the analysis of a whole 469-round record (268 kB) for every seat at 16,000 samples,
- the same record's first round, asking for 16,000 minus a few samples each time
  (trying to bypass the cache),
- one round of a shorter game at 1,000 or 4,000 samples (ordinary work),
- a heavy request abandoned after a second (its work must stop).

The hammering clients run in a process of their own, so that reading their answers
does not slow the measuring ones. Every request is bounded in time; the server is
stopped at the end. Printed: the load
of the machine, p50/p99/max of the pings and of the moves' round trips in each part,
how many analysis requests were answered by HTTP status (or abandoned, or timed out on
the client's side), and the server's own counts from ``/healthz``. The goal: pings'
p99 under 20 ms and moves' p99 under 100 ms while hammered.

    .venv/bin/python bench/analysis_load.py --seconds 60
    .venv/bin/python bench/analysis_load.py --before /tmp/old/src   # and the old code first

``--before SRC`` first runs the same scenario against a server whose package comes
from the source tree SRC, say an export of an older commit (copy the compiled kernel,
``src/chkobba/_fastcore*.so``, into it too, or the old server analyses on the slow path):

    git archive OLD src | tar -x -C /tmp/old && cp src/chkobba/_fastcore*.so /tmp/old/src/chkobba/
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing
import os
import queue
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from chkobba.agents import make_agent
from chkobba.fishing.match import Match
from chkobba.fishing.observe import observe
from chkobba.fishing.record import GameRecord, record_of
from chkobba.fishing.rules import preset

GOAL_PING_MS = 20.0
GOAL_MOVE_MS = 100.0


@dataclass
class Figures:
    """What one part of a run measured."""

    pings: list[float] = field(default_factory=list)
    moves: list[float] = field(default_factory=list)


@dataclass
class Run:
    """Everything one run measured."""

    quiet: Figures = field(default_factory=Figures)
    hammered: Figures = field(default_factory=Figures)
    codes: dict[str, dict[str, int]] = field(default_factory=dict)
    server: dict[str, Any] = field(default_factory=dict)
    part: str = "quiet"

    def figures(self) -> Figures:
        return self.quiet if self.part == "quiet" else self.hammered


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def long_record(rounds: int = 469) -> bytes:
    """A valid record of ``rounds`` rounds (about 570 bytes each): a long match, cut."""
    m = Match(preset("chkobba", {"target": 1000}), seats=2, seed=5)
    agents = [make_agent("random", 1), make_agent("random", 2)]
    while len(m.finished) < rounds:
        m.apply(agents[m.turn].choose(observe(m, m.turn)), m.turn)
    record = record_of(m, ["Amel", "Bilel"])
    record.rounds = record.rounds[:rounds]
    return record.dumps().encode()


def short_record() -> tuple[bytes, int]:
    """A whole match to 21 and its number of rounds."""
    m = Match(preset("chkobba", {"target": 21}), seats=2, seed=11)
    agents = [make_agent("greedy", 1), make_agent("heuristic", 2)]
    while not m.is_over:
        m.apply(agents[m.turn].choose(observe(m, m.turn)), m.turn)
    record: GameRecord = record_of(m, ["Sana", "heuristic"])
    return record.dumps().encode(), len(record.rounds)


def start_server(data_dir: Path, port: int, src: str | None) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [
        sys.executable, "-c", "from chkobba.cli import main; main()", "serve",
        "--port", str(port), "--data-dir", str(data_dir), "--bot-delay", "0.2",
        "--log-level", "warning",
    ]
    log = open(data_dir / "server.log", "wb")  # noqa: SIM115 - open for the server's life
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"the server did not start: {(data_dir / 'server.log').read_text()}")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


async def http(
    port: int, method: str, path: str, body: bytes = b"", source: str = "127.0.0.1",
    abandon_after: float | None = None, timeout: float = 60.0,
) -> str:
    """One request on its own connection from ``source``; its status (or what became of it)."""
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), 10
        )
    except (OSError, TimeoutError):
        return "no connection"
    try:
        writer.write(
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        await writer.drain()
        if abandon_after is not None:
            await asyncio.sleep(abandon_after)
            return "abandoned"
        status = await asyncio.wait_for(reader.readline(), timeout)
        await asyncio.wait_for(reader.read(), timeout)  # the whole answer, as a client would
        return status.split()[1].decode() if status else "closed"
    except TimeoutError:
        return "client timeout"
    except OSError:
        return "reset"
    finally:
        writer.close()


async def person(port: int, run: Run, stop: asyncio.Event, seed: int) -> None:
    """Play the computer, game after game, measuring each move's round trip."""
    rng = random.Random(seed)
    ws_url = f"ws://127.0.0.1:{port}/ws"
    while not stop.is_set():
        created = json.loads(
            await asyncio.to_thread(
                lambda: urllib.request.urlopen(
                    urllib.request.Request(
                        f"http://127.0.0.1:{port}/api/games",
                        json.dumps({"mode": "computer", "level": "random", "target": 31,
                                    "name": f"bench{seed}"}).encode(),
                        {"Content-Type": "application/json"},
                    ),
                    timeout=30,
                ).read()
            )
        )
        async with connect(ws_url, compression=None, max_size=1 << 22) as ws:
            await ws.send(json.dumps({"type": "hello", "game": created["game"],
                                      "token": created["token"]}))
            sent: tuple[int, float] | None = None
            counter = 0
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    continue
                msg = json.loads(raw)
                if msg["type"] != "state":
                    continue
                if sent is not None and msg.get("re") == sent[0]:
                    run.figures().moves.append(time.perf_counter() - sent[1])
                    sent = None
                if msg["over"]:
                    break
                if msg["legal"] and sent is None:
                    await asyncio.sleep(rng.uniform(0.05, 0.2))
                    counter += 1
                    sent = (counter, time.perf_counter())
                    await ws.send(json.dumps({"type": "play", "move": rng.choice(msg["legal"]),
                                              "ply": msg["ply"], "id": counter}))


async def pinger(port: int, run: Run, stop: asyncio.Event, every: float) -> None:
    """Ping over a WebSocket of its own, measuring each pong."""
    async with connect(f"ws://127.0.0.1:{port}/ws", compression=None) as ws:
        for n in itertools.count():
            if stop.is_set():
                return
            t = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "id": n}))
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if msg.get("type") == "pong" and msg.get("re") == n:
                    run.figures().pings.append(time.perf_counter() - t)
                    break
            await asyncio.sleep(every)


async def hammer(
    port: int, n: int, codes: dict[str, dict[str, int]], until: float, big: bytes,
    short: bytes, rounds: int,
) -> None:
    """One client, from 127.0.0.(10 + n), asking for analyses in turn until ``until``."""
    source = f"127.0.0.{10 + n}"
    rng = random.Random(n)
    for i in itertools.count():
        if time.monotonic() >= until:
            return
        kind = ("big", "bypass", "ordinary", "abandon")[(i + n) % 4]
        if kind == "big":
            path, body, abandon = "/api/analyze?seat=all&samples=16000", big, None
        elif kind == "bypass":
            path = f"/api/analyze?seat=all&samples={16000 - rng.randrange(1, 500)}&round=1"
            body, abandon = big, None
        elif kind == "ordinary":
            samples = rng.choice((1000, 4000))
            path = f"/api/analyze?seat={rng.randrange(2)}&samples={samples}"
            path += f"&round={rng.randrange(1, rounds + 1)}"
            body, abandon = short, None
        else:
            path = f"/api/analyze?seat=all&samples=16000&round={rng.randrange(2, 9)}"
            body, abandon = big, 1.0
        outcome = await http(port, "POST", path, body, source, abandon)
        by = codes.setdefault(kind, {})
        by[outcome] = by.get(outcome, 0) + 1
        if outcome == "429":
            await asyncio.sleep(0.05)  # a refused client tries again almost at once


async def hammering(
    port: int, clients: int, seconds: float, big: bytes, short: bytes, rounds: int
) -> dict[str, dict[str, int]]:
    codes: dict[str, dict[str, int]] = {}
    until = time.monotonic() + seconds
    tasks = [
        asyncio.create_task(hammer(port, n, codes, until, big, short, rounds))
        for n in range(clients)
    ]
    # Requests still waiting have at most their client-side timeout to finish.
    await asyncio.wait(tasks, timeout=seconds + 70)
    for t in tasks:
        t.cancel()
    return codes


def hammer_process(
    port: int, clients: int, seconds: float, big: bytes, short: bytes, rounds: int,
    out: Any,
) -> None:
    """The hammering clients, in a process of their own: reading their answers (megabytes
    of frames) must not slow the clients that measure."""
    out.put(asyncio.run(hammering(port, clients, seconds, big, short, rounds)))


def summary(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (f"p50 {1000 * statistics.median(ordered):7.2f} ms  p99 {1000 * p99:7.2f} ms  "
            f"max {1000 * ordered[-1]:7.2f} ms  (n={len(ordered)})")


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else 0.0


async def scenario(args: argparse.Namespace, src: str | None) -> Run:
    run = Run()
    big = long_record()
    short, rounds = short_record()
    data_dir = Path(tempfile.mkdtemp(prefix="chkobba-analysis-load-"))
    port = free_port()
    server = start_server(data_dir, port, src)
    stop = asyncio.Event()
    try:
        games = [asyncio.create_task(person(port, run, stop, s)) for s in range(args.games)]
        pings = [asyncio.create_task(pinger(port, run, stop, args.ping_every))
                 for _ in range(args.pingers)]
        await asyncio.sleep(args.quiet)
        run.part = "hammered"
        ctx = multiprocessing.get_context("spawn")
        out = ctx.Queue()
        clients = ctx.Process(
            target=hammer_process,
            args=(port, args.clients, args.seconds, big, short, rounds, out),
            daemon=True,
        )
        clients.start()
        await asyncio.sleep(args.seconds)
        stop.set()
        await asyncio.wait([*games, *pings], timeout=30)
        for t in [*games, *pings]:
            t.cancel()
        try:
            run.codes = await asyncio.to_thread(out.get, True, 100)
        except queue.Empty:
            run.codes = {"clients": {"no report": 1}}
        clients.join(10)
        if clients.is_alive():
            clients.kill()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as r:
                run.server = json.loads(r.read())
        except OSError as e:
            run.server = {"unreachable": str(e)}
    finally:
        stop_server(server)
        log = (data_dir / "server.log").read_text(errors="replace")
        if "Traceback" in log:
            print(log[-3000:], file=sys.stderr)
        shutil.rmtree(data_dir, ignore_errors=True)
    return run


def report(title: str, run: Run) -> bool:
    print(f"== {title}")
    print(f"  quiet     ping  {summary(run.quiet.pings)}")
    print(f"  quiet     move  {summary(run.quiet.moves)}")
    print(f"  hammered  ping  {summary(run.hammered.pings)}")
    print(f"  hammered  move  {summary(run.hammered.moves)}")
    for kind in ("big", "bypass", "ordinary", "abandon"):
        got = run.codes.get(kind, {})
        shown = ", ".join(f"{k}: {v}" for k, v in sorted(got.items()))
        print(f"  analysis requests {kind:>8}: {shown or 'none'}")
    work = run.server.get("work")
    if work is not None:
        for lane, stats in work.items():
            print(f"  server {lane:>8} lane: " + ", ".join(f"{k} {v}" for k, v in stats.items()))
    ok = p99(run.hammered.pings) < GOAL_PING_MS and p99(run.hammered.moves) < GOAL_MOVE_MS
    print(f"  goal (ping p99 < {GOAL_PING_MS:g} ms, move p99 < {GOAL_MOVE_MS:g} ms): "
          + ("met" if ok else "missed"))
    return ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--clients", type=int, default=10, help="hammering clients (default 10)")
    ap.add_argument("--seconds", type=float, default=60.0, help="hammering time (default 60)")
    ap.add_argument("--quiet", type=float, default=10.0, help="time measured before (default 10)")
    ap.add_argument("--games", type=int, default=2, help="people playing the computer")
    ap.add_argument("--pingers", type=int, default=4, help="connections pinging")
    ap.add_argument("--ping-every", type=float, default=0.05, help="seconds between pings")
    ap.add_argument("--before", metavar="SRC", help="first run the server from this source tree")
    args = ap.parse_args()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"machine: {os.cpu_count()} cores, load average {load} (1, 5, 15 min) at the start")
    if args.before:
        report(f"before ({args.before})", asyncio.run(scenario(args, args.before)))
    ok = report("now", asyncio.run(scenario(args, None)))
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"machine: load average {load} at the end")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
