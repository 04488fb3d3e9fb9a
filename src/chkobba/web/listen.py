"""Listening to one PostgreSQL ``NOTIFY`` channel on a thread of its own.

The workers of a cluster tell each other things through PostgreSQL: a game asked for
(web/cluster.py's hand-over) and a chat message or a room's switch (web/chat.py's relay).
Each listens the same way: a connection of its own in autocommit, ``LISTEN``, every
notification's payload handed on, and after a failure a new connection a second later.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("chkobba.web")


class Listener:
    """A thread that hands every notification on ``channel`` to ``on_payload`` (called on
    that thread), from :meth:`start` until :meth:`stop`, reconnecting after a failure.

    ``url`` is libpq's (``postgresql://``); ``what`` names what is listened for in the
    log when the connection fails."""

    def __init__(
        self, url: str, channel: str, on_payload: Callable[[str], None], *, name: str, what: str
    ) -> None:
        self.url = url
        self.channel = channel
        self.on_payload = on_payload
        self.name = name
        self.what = what
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.since: float | None = None
        """Since when (seconds since the epoch) it has been listening; None while it is not
        (not started, or reconnecting after a failure)."""
        self.failures = 0
        """How many times its connection failed (it reconnects after a second)."""
        self.last_error: str | None = None
        """Why it last failed."""

    def start(self) -> None:
        """Listen, on a thread of its own."""
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"LISTEN {self.channel}")
                    self.since = time.time()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            self.on_payload(note.payload)
            except Exception as e:
                self.since = None
                if not self._stop.is_set():
                    self.failures += 1
                    reason = str(e).strip().splitlines()
                    self.last_error = reason[0] if reason else type(e).__name__
                    log.exception("listening for %s failed; again in 1 s", self.what)
                    self._stop.wait(1.0)
            finally:
                self.since = None

    def stop(self, timeout: float = 5) -> None:
        """Stop listening, waiting up to ``timeout`` seconds for the thread to end."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=timeout)

    def state(self) -> dict[str, Any]:
        """Whether it listens, since when (ISO 8601), how many times its connection failed
        and why last, as ``/healthz`` shows it."""
        since = self.since
        at = None if since is None else dt.datetime.fromtimestamp(since, dt.UTC).isoformat()
        return {
            "listening": since is not None,
            "since": at,
            "failures": self.failures,
            "last_error": self.last_error,
        }
