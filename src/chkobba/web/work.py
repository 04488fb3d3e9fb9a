"""The server's expensive work, off the event loop and bounded (docs/protocol.md, "Limits").

Analyses, hints and charts are CPU-bound Python: run in a thread of the server
they would still hold the interpreter lock and slow every game. They run in
worker processes instead, in two :class:`Lane` s, each with processes of its own
so that a long analysis never delays a hint: ``analysis`` (a finished game's or a
record's analysis) and ``light`` (hints, summary charts). The workers run at a
lower priority than the server (:data:`WORKER_NICENESS`), so play comes first.

Each lane bounds its queue (jobs waiting or running, every client together) and
what one client address may have in it; beyond either, the request is refused
with ``429`` at once rather than queued. A job whose client has gone is stopped:
waiting, it never starts; running, its worker sees the job's flag at its next
:func:`checkpoint` (an analysis checks between two positions) and stops. A job
running past its lane's time limit stops the same way, and is answered ``503
timeout``.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from starlette.requests import Request

from chkobba.web.http import Refused

T = TypeVar("T")

WORKER_NICENESS: Final = 10
"""How much lower than the server's the workers' scheduling priority is."""

CLOSE_GRACE_SECONDS: Final = 3.0
"""How long a stopping server lets a busy worker reach its job's next checkpoint before
terminating it (:meth:`Lane.close`)."""

BUSY_RETRY_SECONDS: Final = 5
"""The ``Retry-After`` of a job refused for a full queue or a quota: a guess, jobs vary."""


@dataclass(frozen=True)
class Limits:
    """The bounds on expensive requests (docs/protocol.md, "Limits")."""

    max_cost: int = 64_000
    """The most an analysis may cost, in rounds × seats × samples (at least
    :data:`~chkobba.web.coach.MIN_COST_SAMPLES` counted per round and seat): one
    round of every seat of a four-player game at the top budget, about 15 s of one
    core."""
    analysis_workers: int = 1
    analysis_queue: int = 8
    """Analyses waiting or running at once, every client together."""
    analysis_per_client: int = 2
    """Analyses one client address may have waiting or running."""
    light_workers: int = 1
    light_queue: int = 32
    light_per_client: int = 4
    job_seconds: float = 120.0
    """A job still running after this long is stopped (``503 timeout``)."""
    analysis_rate: float = 2.0
    """Analysis requests a second per client address (a record's cached answers
    included: each brings up to 512 kB to read)."""
    analysis_burst: float = 30.0
    coach_rate: float = 10.0
    """Hint, question, unseen and summary requests a second per client address."""
    coach_burst: float = 30.0
    cache_bytes: int = 64 * 1024 * 1024
    """Memory the cached analyses and charts may take."""


# -- in a worker process ---------------------------------------------------------------
# A worker runs one job at a time; these say which, so that :func:`checkpoint`, called
# from deep inside the job, can tell whether it must stop. They are set only in workers.

_flags: Any = None
_job: tuple[int, float] | None = None


class Stopped(Exception):
    """A job stopped before its end: ``cancelled`` (its client left) or ``timeout``."""


def _start_worker(flags: Any) -> None:
    global _flags
    _flags = flags
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    parent = multiprocessing.parent_process()
    if parent is not None:
        # A pool's workers do not notice their server killed (SIGKILL): see to it.
        threading.Thread(target=_exit_with, args=(parent.sentinel,), daemon=True).start()


def _exit_with(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


def _run_job(slot: int, seconds: float, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
    global _job
    _job = (slot, time.monotonic() + seconds)
    try:
        checkpoint()
        return fn(*args)
    finally:
        _job = None


def checkpoint() -> None:
    """In a job: raise :class:`Stopped` if the job was cancelled or is past its time.

    Outside a worker (a job function called directly, as in tests) it does nothing.
    """
    if _job is None:
        return
    slot, deadline = _job
    if _flags is not None and _flags[slot]:
        raise Stopped("cancelled")
    if time.monotonic() > deadline:
        raise Stopped("timeout")


# -- in the server -----------------------------------------------------------------------


class Ticket:
    """A place in a lane's queue, held by one client address until released."""

    def __init__(self, lane: Lane, client: str) -> None:
        self.lane = lane
        self.client = client
        self.held = True

    def release(self) -> None:
        """Give the place back (once)."""
        if self.held:
            self.held = False
            self.lane._leave(self.client)


class Lane:
    """Worker processes for one kind of work, with a bounded queue and a quota per client."""

    def __init__(self, name: str, workers: int, queue: int, per_client: int, seconds: float):
        self.name = name
        self.workers = workers
        self.queue = queue
        self.per_client = per_client
        self.seconds = seconds
        self.ctx = multiprocessing.get_context("spawn")
        self.flags: Any = None
        self.pool: ProcessPoolExecutor | None = None
        self.free = list(range(workers))
        self.waiting: deque[asyncio.Future[int]] = deque()
        self.admitted = 0
        self.by_client: Counter[str] = Counter()
        self.counts: Counter[str] = Counter()

    # -- admission ---------------------------------------------------------------------

    def admit(self, client: str) -> Ticket:
        """A place in the queue for ``client``; raise :class:`Refused` (429) if there is none."""
        if self.admitted >= self.queue:
            self.counts["busy"] += 1
            raise Refused(
                429,
                "busy",
                f"the server's {self.name} queue is full ({self.queue} jobs): try again later",
                retry_after=BUSY_RETRY_SECONDS,
            )
        if self.by_client[client] >= self.per_client:
            self.counts["quota"] += 1
            raise Refused(
                429,
                "rate_limited",
                f"your address already has {self.per_client} {self.name} jobs waiting or "
                "running: wait for them",
                retry_after=BUSY_RETRY_SECONDS,
            )
        self.admitted += 1
        self.by_client[client] += 1
        return Ticket(self, client)

    def _leave(self, client: str) -> None:
        self.admitted -= 1
        self.by_client[client] -= 1
        if self.by_client[client] <= 0:
            del self.by_client[client]

    # -- running -----------------------------------------------------------------------

    async def run(self, ticket: Ticket, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in a worker once one is free, then release ``ticket``.

        Cancelling the awaiting task stops the job: it never starts if still waiting,
        and a running one stops at its next :func:`checkpoint`.
        """
        try:
            slot = await self._acquire()
            return await self._submit(slot, fn, args)
        finally:
            ticket.release()

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            if self.flags is None:
                # One stop flag per worker slot, shared with every worker process.
                self.flags = self.ctx.RawArray("b", self.workers)
            self.pool = ProcessPoolExecutor(
                self.workers, mp_context=self.ctx, initializer=_start_worker, initargs=(self.flags,)
            )
        return self.pool

    async def _acquire(self) -> int:
        if self.free:
            return self.free.pop()
        fut: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.waiting.append(fut)
        try:
            return await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self._release(fut.result())  # handed a slot just as the client left
            else:
                with contextlib.suppress(ValueError):
                    self.waiting.remove(fut)
            raise

    def _release(self, slot: int) -> None:
        while self.waiting:
            fut = self.waiting.popleft()
            if not fut.done():
                fut.set_result(slot)
                return
        self.free.append(slot)

    async def _submit(self, slot: int, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        loop = asyncio.get_running_loop()
        try:
            pool = self._pool()
            self.flags[slot] = 0
            cfut: Future[T] = pool.submit(_run_job, slot, self.seconds, fn, args)
        except Exception:
            self._release(slot)
            raise

        def finished(_: Future[T]) -> None:
            # The slot is free only once its worker is: a cancelled job may still be
            # running until its next checkpoint.
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._release, slot)

        cfut.add_done_callback(finished)
        try:
            result = await asyncio.wrap_future(cfut)
        except asyncio.CancelledError:
            self.flags[slot] = 1
            self.counts["cancelled"] += 1
            raise
        except Stopped as e:
            self.counts[str(e)] += 1
            raise Refused(
                503,
                "timeout",
                f"the {self.name} took longer than {self.seconds:g} s and was stopped: "
                "ask for less (fewer samples, one round)",
            ) from None
        except BrokenProcessPool:
            self.pool = None  # a worker died: the next job starts a fresh pool
            self.counts["failed"] += 1
            raise Refused(
                503, "server_error", f"the {self.name} worker failed; try again"
            ) from None
        self.counts["answered"] += 1
        return result

    def stats(self) -> dict[str, int]:
        """What the lane is doing and has done, for ``/healthz``."""
        running = self.workers - len(self.free)
        return {
            "workers": self.workers,
            "running": running,
            "waiting": max(0, self.admitted - running),
            **{k: self.counts[k] for k in ("answered", "busy", "quota", "cancelled", "timeout")},
        }

    def close(self, grace: float = CLOSE_GRACE_SECONDS) -> None:
        """Stop every job and the worker processes: a job stops at its next checkpoint;
        a worker still busy after ``grace`` seconds (a job between checkpoints) is
        terminated, so that a server's stop never waits for the rest of a job."""
        if self.flags is not None:
            for slot in range(self.workers):
                self.flags[slot] = 1
        if self.pool is not None:
            # The executor has no public handle on its processes before Python 3.14
            # (terminate_workers); its own shutdown waits for every running job.
            running = getattr(self.pool, "_processes", None)
            processes = list(running.values()) if isinstance(running, dict) else []
            self.pool.shutdown(wait=False, cancel_futures=True)
            deadline = time.monotonic() + grace
            for process in processes:
                process.join(max(0.0, deadline - time.monotonic()))
            for process in processes:
                if process.is_alive():
                    process.terminate()
                    process.join(1.0)
            self.pool = None


class Work:
    """The server's lanes: ``analysis`` and ``light``."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.analysis = Lane(
            "analysis",
            limits.analysis_workers,
            limits.analysis_queue,
            limits.analysis_per_client,
            limits.job_seconds,
        )
        self.light = Lane(
            "coach",
            limits.light_workers,
            limits.light_queue,
            limits.light_per_client,
            limits.job_seconds,
        )

    def stats(self) -> dict[str, dict[str, int]]:
        """Each lane's :meth:`Lane.stats`."""
        return {"analysis": self.analysis.stats(), "coach": self.light.stats()}

    async def close(self) -> None:
        """Stop every lane (off the event loop: shutting a pool down waits for it)."""
        await asyncio.to_thread(self.analysis.close)
        await asyncio.to_thread(self.light.close)


class ClientGone(Exception):
    """The client closed its connection before its answer was ready."""


async def _disconnected(request: Request) -> None:
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


async def unless_gone(request: Request, aw: Awaitable[T]) -> T:
    """Await ``aw``; if the client disconnects first, cancel it and raise :class:`ClientGone`.

    The request's body must have been read already (or have none).
    """
    task = asyncio.ensure_future(aw)
    watcher = asyncio.ensure_future(_disconnected(request))
    try:
        await asyncio.wait({task, watcher}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            return task.result()
        task.cancel()
        raise ClientGone
    finally:
        watcher.cancel()
        if not task.done():
            task.cancel()
