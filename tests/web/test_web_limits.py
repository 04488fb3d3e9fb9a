"""Nobody can tie up the server (issue 13, section 3): every expensive request is bounded
in cost, queue, quota per client and time, runs in a worker process, stops when its
client leaves, and is cached so that asking again (or for 4001 samples) costs nothing."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from wsutil import ServerProcess, make_client

from chkobba.agents import make_agent
from chkobba.fishing.match import Match
from chkobba.fishing.observe import observe
from chkobba.fishing.record import GameRecord, record_of
from chkobba.fishing.rules import preset
from chkobba.web.coach import BUDGETS, Asked, budget_of, record_job
from chkobba.web.http import Refused
from chkobba.web.work import Lane, Limits


def a_record(seats: int = 2, rounds: int | None = None, seed: int = 8) -> GameRecord:
    """A whole match of the computer against itself (or its first ``rounds``)."""
    m = Match(preset("chkobba", {"target": 11}), seats=seats, seed=seed)
    agents = [make_agent("greedy", s) for s in range(seats)]
    while not m.is_over and (rounds is None or len(m.finished) < rounds):
        m.apply(agents[m.turn].choose(observe(m, m.turn)), m.turn)
    record = record_of(m, [f"P{s}" for s in range(seats)])
    if rounds is not None:
        record.rounds = record.rounds[:rounds]
    return record


def test_samples_are_rounded_to_a_few_budgets() -> None:
    assert [budget_of(n) for n in (8, 16, 63, 64, 100, 999, 2000, 2001, 4001, 15_999)] == [
        16, 16, 64, 64, 64, 1000, 1000, 4000, 4000, 16_000,
    ]
    assert {budget_of(n) for n in range(8, 16_001, 7)} == set(BUDGETS)


def test_a_lane_bounds_its_queue_and_each_client() -> None:
    lane = Lane("analysis", workers=1, queue=3, per_client=2, seconds=60)
    a1, a2 = lane.admit("10.0.0.1"), lane.admit("10.0.0.1")
    with pytest.raises(Refused) as e:
        lane.admit("10.0.0.1")
    assert e.value.status == 429 and e.value.code == "rate_limited" and "2" in e.value.message
    lane.admit("10.0.0.2")
    with pytest.raises(Refused) as e:
        lane.admit("10.0.0.3")
    assert e.value.status == 429 and e.value.code == "busy"
    a1.release()
    a1.release()  # once only
    lane.admit("10.0.0.3")
    a2.release()
    assert lane.admitted == 2 and lane.stats()["busy"] == 1 and lane.stats()["quota"] == 1


async def _job_then_small(lane: Lane, big: Any, cancel: bool) -> tuple[float, float]:
    """Run ``big`` in the lane (cancelled, if ``cancel``, once its worker is well into it),
    then a trivial job; return the CPU seconds the workers spent from ``big``'s end (or
    cancelling) until the trivial one was answered, and the CPU they had spent before."""
    task = asyncio.create_task(lane.run(lane.admit("a"), record_job, *big))
    if cancel:
        # Well into the job: a worker's start-up costs well under a second of CPU.
        while workers_cpu(os.getpid()) < 2.0:
            assert not task.done(), "the job ended before it was cancelled"
            await asyncio.sleep(0.1)
        task.cancel()
    with pytest.raises((asyncio.CancelledError, Refused)):
        await task
    before = workers_cpu(os.getpid())
    assert await lane.run(lane.admit("a"), pow, 2, 10) == 1024
    return workers_cpu(os.getpid()) - before, before


def heavy_job() -> tuple[Any, ...]:
    """An analysis of many seconds (some 20 s of one idle core, far beyond the tests'
    4 s before cancelling and 1.5 s limit, however fast the kernel or quiet the
    machine): every seat of three four-player rounds at the top budget."""
    raw = a_record(seats=4, rounds=3).dumps().encode()
    return raw, Asked("all", 16_000, None), 3 * 64_000, frozenset()


def test_a_job_past_its_time_stops_in_its_worker() -> None:
    lane = Lane("analysis", workers=1, queue=4, per_client=4, seconds=1.5)
    try:
        with pytest.raises(Refused) as e:
            asyncio.run(lane.run(lane.admit("a"), record_job, *heavy_job()))
        assert e.value.status == 503 and e.value.code == "timeout"
        # Far less CPU than the analysis' own (about 15 s of one core): the worker stopped
        # it. CPU time, not wall time: a loaded machine slows the stop but adds no cost.
        assert workers_cpu(os.getpid()) < 6.0
        assert lane.stats()["timeout"] == 1
    finally:
        lane.close()


def test_a_cancelled_job_stops_in_its_worker() -> None:
    lane = Lane("analysis", workers=1, queue=4, per_client=4, seconds=120)
    try:
        after, before = asyncio.run(_job_then_small(lane, heavy_job(), cancel=True))
        # The worker was free for the next job having spent little more, not after the
        # rest of the analysis (some 13 s of CPU to go). CPU time, so load does not count.
        assert before >= 2.0 and after < 3.0, (before, after)
        assert lane.stats()["cancelled"] == 1 and lane.stats()["running"] == 0
    finally:
        lane.close()


def test_closing_a_lane_does_not_wait_for_a_job_between_checkpoints() -> None:
    """A job that never reaches a checkpoint (here a minute's sleep) keeps its worker
    busy: a server's stop terminates it after the grace instead of waiting for it."""
    lane = Lane("analysis", workers=1, queue=4, per_client=4, seconds=120)

    async def start() -> asyncio.Task[Any]:
        task = asyncio.create_task(lane.run(lane.admit("a"), time.sleep, 60))
        while lane.pool is None or not lane.pool._processes:  # type: ignore[attr-defined]
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)  # the worker is in the sleep
        return task

    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(start())
        assert lane.pool is not None
        pids = set(lane.pool._processes)  # type: ignore[attr-defined]
        began = time.monotonic()
        lane.close(grace=1.0)
        assert time.monotonic() - began < 10, "close waited for the job"
        assert pids and not pids & children(os.getpid())
    finally:
        loop.close()


def test_the_cost_of_an_analysis_is_limited(sqlite_client: TestClient) -> None:
    c = sqlite_client
    record = a_record()
    rounds = len(record.rounds)
    assert rounds * 2 * 16_000 > Limits().max_cost
    body = record.dumps().encode()
    r = c.post("/api/analyze?seat=all&samples=16000", content=body)
    assert r.status_code == 413 and r.json()["error"] == "too_large"
    assert "64,000" in r.json()["message"] and "round" in r.json()["message"]
    work = c.app.state.work  # type: ignore[attr-defined]
    jobs = work.analysis.counts["answered"]
    # Known now: refused at once, without a worker.
    assert c.post("/api/analyze?seat=all&samples=15000", content=body).status_code == 413
    assert work.analysis.counts["answered"] == jobs
    # Round by round, as the pages ask, is within the limit.
    r = c.post("/api/analyze?seat=all&samples=16&round=2", content=body)
    assert r.status_code == 200, r.text


def test_answers_are_cached_by_what_decides_them(sqlite_client: TestClient) -> None:
    c = sqlite_client
    record = a_record(rounds=1)
    work = c.app.state.work  # type: ignore[attr-defined]
    first = c.post("/api/analyze?seat=1&samples=64", content=record.dumps().encode())
    assert first.status_code == 200 and first.json()["analysis"]["samples"] == 64
    jobs = work.analysis.counts["answered"]
    # Another sample count of the same budget: the same answer, from the cache.
    again = c.post("/api/analyze?seat=1&samples=70", content=record.dumps().encode())
    assert again.content == first.content and work.analysis.counts["answered"] == jobs
    # The same record written differently (spacing, key order, meta): the same answer.
    data = record.to_json()
    data["meta"] = {"note": "anything"}
    other = json.dumps(dict(reversed(list(data.items()))), indent=2).encode()
    same = c.post("/api/analyze?seat=1&samples=64", content=other)
    assert same.content == first.content
    stats = c.get("/healthz").json()["work"]["analysis"]
    assert stats["running"] == 0 and stats["waiting"] == 0 and stats["answered"] == jobs + 1


def raw_post(port: int, path: str, body: bytes) -> socket.socket:
    """Send a POST and leave the connection open, the answer unread."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n".encode() + body
    )
    return s


def work_stats(base: str) -> dict[str, Any]:
    with urllib.request.urlopen(base + "/healthz", timeout=10) as r:
        return dict(json.loads(r.read())["work"]["analysis"])


def test_an_analysis_stops_when_its_client_leaves(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data", "--bot-delay", "0")
    try:
        server.start()
        assert server.proc is not None
        body = a_record(seats=4, rounds=1).dumps().encode()
        client = raw_post(server.port, "/api/analyze?seat=all&samples=16000&round=1", body)
        deadline = time.monotonic() + 60
        while work_stats(server.base)["running"] != 1:
            assert time.monotonic() < deadline, "the analysis did not start"
            time.sleep(0.1)
        # Well into the job (a worker's start-up costs well under a second of CPU), with
        # some 13 s of CPU still to go (the job costs about 15 s of one core).
        while workers_cpu(server.proc.pid) < 2.0:
            assert time.monotonic() < deadline, "the analysis is not computing"
            time.sleep(0.1)
        client.close()
        cpu_at_leaving = workers_cpu(server.proc.pid)
        while (stats := work_stats(server.base))["running"] != 0:
            # Generous in wall time (a loaded machine slows the stop too); the cost
            # claim is checked below in CPU time, which the load does not inflate.
            assert time.monotonic() < deadline + 60, stats
            time.sleep(0.1)
        # Only a stop frees the worker having spent this little more: the rest of the
        # analysis would have cost many seconds of CPU.
        assert workers_cpu(server.proc.pid) - cpu_at_leaving < 3.0
        assert stats["cancelled"] == 1 and stats["answered"] == 0
    finally:
        server.stop()


def workers_cpu(pid: int) -> float:
    """The CPU seconds (user and system) spent so far by the processes ``pid`` started."""
    ticks = 0
    for child in children(pid):
        try:
            fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid``."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie, ended and not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_workers_do_not_outlive_a_killed_server(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data", "--bot-delay", "0")
    try:
        server.start()
        body = a_record(rounds=1).dumps().encode()
        with raw_post(server.port, "/api/analyze?seat=0&samples=16&round=1", body) as s:
            assert b" 200 " in s.recv(100)
        assert server.proc is not None
        workers = children(server.proc.pid)
        assert workers
        server.kill()  # SIGKILL: the server cannot stop them itself
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in workers):
            assert time.monotonic() < deadline, "a worker outlived its server"
            time.sleep(0.1)
    finally:
        server.stop()


def test_hints_are_computed_once_per_position(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        g = c.post("/api/games", json={"mode": "computer", "level": "random", "target": 11})
        game, token = g.json()["game"], g.json()["token"]
        work = c.app.state.work  # type: ignore[attr-defined]
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "game": game, "token": token})
            while True:
                msg = ws.receive_json()
                if msg["type"] == "state" and len(msg["legal"]) > 1:
                    break
                if msg["type"] == "state" and msg["legal"]:
                    ws.send_json({"type": "play", "move": msg["legal"][0], "ply": msg["ply"]})
        first = c.post(f"/api/games/{game}/hint", json={"token": token})
        assert first.status_code == 200, first.text
        jobs = work.light.counts["answered"]
        again = c.post(f"/api/games/{game}/hint", json={"token": token})
        assert again.json()["plays"] == first.json()["plays"]
        assert work.light.counts["answered"] == jobs
