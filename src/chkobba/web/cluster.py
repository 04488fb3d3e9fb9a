"""Many ``chkobba serve`` workers, one service: which worker owns which game (docs/deploy.md).

Each unfinished game is held by at most one worker at a time. A worker owns a game
by holding a PostgreSQL session-level advisory lock on its code, on one session of
its own (:class:`Ownership`); the session ends with the process, so a worker killed
with ``kill -9`` frees every game it held at once, and the next worker a client
reaches loads the game from the database. Every write of an owned game (moves, game
ends, seats) goes through that same session, in a transaction that first checks the
lock is still held: a worker that has lost a game cannot write to it, and the moves
table's key (game, ply) refuses a second move at the same ply whatever happens.

A worker asked for a game another worker holds (the balancer moved the game's
clients, say after a restart) asks the holder to let it go with a PostgreSQL
``NOTIFY``; the holder closes its clients' connections (1012, "service restart"),
which reconnect through the balancer, and releases the lock.

Everything that uses the session runs on the journal's thread (:class:`~chkobba.web.hub.
Journal`), one call at a time, as SQLAlchemy connections require.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

from sqlalchemy import text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError

from chkobba.store import Finish, MoveRow, SeatRow, Store
from chkobba.store.hints import write_hint
from chkobba.web.codes import CODE_ALPHABET, CODE_LENGTH

log = logging.getLogger("chkobba.web")

CHANNEL: Final = "chkobba_handoff"
"""The ``NOTIFY`` channel on which a worker asks the holder of a game to let it go."""
LOCK_SPACE: Final = 0x43484B00
"""The first key of the advisory locks on game codes (``CHK`` and a byte)."""


def lock_key(code: str) -> tuple[int, int]:
    """The two keys of the advisory lock of a game: one lock per code, no two codes alike.

    A six-letter code is a number below 31**6 < 2**31; an old Touti id (eight
    hexadecimal digits) is split by its top bit into two more key spaces.
    """
    if len(code) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in code):
        n = 0
        for ch in code:
            n = n * len(CODE_ALPHABET) + CODE_ALPHABET.index(ch)
        return LOCK_SPACE, n
    value = int(code, 16)
    return LOCK_SPACE + 1 + (value >> 31), value & 0x7FFFFFFF


def worker_name(port: int) -> str:
    """A default name for this worker: host, port and process id."""
    return f"{socket.gethostname()}:{port}:{os.getpid()}"


def libpq_url(url: str) -> str:
    """The ``postgresql://`` URL psycopg takes, from SQLAlchemy's ``postgresql+psycopg://``."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class NotOwner(RuntimeError):
    """A cluster worker's write for a game it does not hold (any more): refused, nothing
    written (this module)."""


class Ownership:
    """The games this worker holds, on one PostgreSQL session of its own.

    The methods that touch the session (:meth:`try_own`, :meth:`release`,
    :meth:`append_moves`, :meth:`update_seats`, :meth:`ask`) block: call them on the
    journal's thread. :meth:`listen` starts a thread that hands the games other
    workers ask for to ``on_request`` (called on that thread).
    """

    def __init__(self, store: Store, worker: str) -> None:
        if store.is_sqlite:
            raise ValueError("a cluster of workers shares one PostgreSQL database, not SQLite")
        self.store = store
        self.worker = worker
        self.owned: set[str] = set()
        self.on_lost: Callable[[set[str]], None] = lambda codes: None
        """Called (on the journal's thread) with games this worker finds it no longer holds:
        every game, when the session (and with it every lock) is lost."""
        self._conn: Connection | None = None
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        self.listening_since: float | None = None
        """Since when (seconds since the epoch) the hand-over listener has been listening;
        None while it is not (not started, or reconnecting after a failure)."""
        self.listener_failures = 0
        """How many times the listener's connection failed (it reconnects after a second)."""
        self.listener_error: str | None = None
        """Why it last failed."""

    # -- the session -----------------------------------------------------------

    def _session(self) -> Connection:
        if self._conn is None or self._conn.closed or self._conn.invalidated:
            if self._conn is not None:
                # A new session holds none of the old one's locks.
                self._drop()
            self._conn = self.store.engine.connect()
        return self._conn

    def _drop(self) -> None:
        lost = set(self.owned)
        self.owned.clear()
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:  # the session is already gone
                log.debug("closing a lost session failed", exc_info=True)
            self._conn = None
        if lost:
            log.error("worker %s lost its database session and every game it held", self.worker)
            self.on_lost(lost)

    def _run(self, fn: Callable[[Connection], Any]) -> Any:
        conn = self._session()
        try:
            with conn.begin():
                return fn(conn)
        except DBAPIError as e:
            if e.connection_invalidated:
                self._drop()
            raise

    def close(self) -> None:
        """Release every game (ending the session frees its locks) and stop listening."""
        self._stop.set()
        self.owned.clear()
        if self._conn is not None:
            # Invalidated, not returned to the pool: the session must end, and its locks.
            self._conn.invalidate()
            self._conn.close()
            self._conn = None
        if self._listener is not None:
            self._listener.join(timeout=5)

    # -- owning ------------------------------------------------------------------

    def try_own(self, code: str) -> bool:
        """Take the game's lock if nobody holds it; whether this worker holds it now."""
        if code in self.owned:
            return True
        a, b = lock_key(code)
        got = self._run(
            lambda c: c.execute(
                text("SELECT pg_try_advisory_lock(:a, :b)"), {"a": a, "b": b}
            ).scalar_one()
        )
        if got:
            self.owned.add(code)
        return bool(got)

    def release(self, code: str) -> None:
        """Let the game go."""
        if code not in self.owned:
            return
        self.owned.discard(code)
        a, b = lock_key(code)
        self._run(lambda c: c.execute(text("SELECT pg_advisory_unlock(:a, :b)"), {"a": a, "b": b}))

    def ask(self, code: str) -> None:
        """Ask whoever holds the game to let it go."""
        self._run(
            lambda c: c.execute(text("SELECT pg_notify(:ch, :code)"), {"ch": CHANNEL, "code": code})
        )

    def _held(self, conn: Connection, codes: set[str]) -> set[str]:
        # The games of ``codes`` whose advisory lock this session holds now, by pg_locks.
        by_key = {(a << 32) | b: code for code, (a, b) in ((c, lock_key(c)) for c in codes)}
        held = conn.execute(
            text(
                "SELECT (classid::bigint << 32) | objid::bigint FROM pg_locks"
                " WHERE locktype = 'advisory' AND granted AND pid = pg_backend_pid()"
                " AND objsubid = 2 AND (classid::bigint << 32) | objid::bigint = ANY(:keys)"
            ),
            {"keys": list(by_key)},
        ).scalars()
        return {by_key[k] for k in held}

    def _fence(self, conn: Connection, codes: set[str], tell: bool = True) -> None:
        # In the transaction that writes: the session still holds every game's lock. The
        # games found lost, and only those (a batch holds many games' moves), are handed to
        # on_lost (the hub lets them go) if ``tell``.
        missing = codes - self.owned
        if codes - missing:
            missing |= (codes - missing) - self._held(conn, codes - missing)
        if not missing:
            return
        self.owned -= missing
        if tell:
            self.on_lost(missing)
        raise NotOwner(f"worker {self.worker} does not hold game(s) {', '.join(sorted(missing))}")

    def holds(self, code: str) -> bool:
        """Whether this worker still holds the game, asked of the database (a worker that
        was paused, or cut off, may have lost it meanwhile without knowing): before serving
        the state of a game it has in memory. A lost session holds nothing."""
        if code not in self.owned:
            return False
        try:
            held = self._run(lambda c: self._held(c, {code}))
        except DBAPIError as e:
            if e.connection_invalidated:
                return False  # _run dropped the session and told on_lost
            raise
        if not held:
            self.owned.discard(code)
        return bool(held)

    def append_moves(self, rows: Sequence[MoveRow], finishes: Sequence[Finish] = ()) -> None:
        """Write moves and game ends, as :meth:`Store.append_moves`, fenced by the locks."""
        if not rows and not finishes:
            return
        codes = {r.game_id for r in rows} | {f.game_id for f in finishes}

        def write(conn: Connection) -> None:
            self._fence(conn, codes)
            self.store.write_moves(conn, rows, finishes)

        self._run(write)

    def update_seats(self, game_id: str, rows: Sequence[SeatRow], status: str) -> None:
        """Write seats and status, as :meth:`Store.update_seats`, fenced by the game's lock."""

        def write(conn: Connection) -> None:
            self._fence(conn, {game_id})
            self.store.write_seats(conn, game_id, rows, status)

        self._run(write)

    def mark_seen(self, game_id: str, seats_seen: Sequence[int], at: dt.datetime) -> None:
        """Note who was seen, as :meth:`Store.mark_seen`, fenced by the game's lock (only an
        unfinished game's timers read it); raise :class:`NotOwner` if it is not held. A
        worker learns it lost a game from its moves, not from this note."""

        def write(conn: Connection) -> None:
            self._fence(conn, {game_id}, tell=False)
            self.store.write_seen(conn, game_id, seats_seen, at)

        self._run(write)

    def link_rematch(self, game_id: str, rematch_id: str) -> str:
        """Link a finished game to its rematch, as :meth:`Store.link_rematch`, fenced by the
        game's lock (a finished game's is held only while its rematch is made: see
        :meth:`~chkobba.web.hub.Hub.offer_rematch`); the rematch that stands."""

        def write(conn: Connection) -> str:
            self._fence(conn, {game_id}, tell=False)
            return self.store.write_rematch(conn, game_id, rematch_id)

        return str(self._run(write))

    def count_use(self, game_id: str, seat: int, aid: str) -> int:
        """Count a use of the coach, as :meth:`Store.count_use`: in a game being played only
        by its holder (fenced by its lock); in a finished game, which nobody holds, by any
        worker (the count is one atomic update)."""

        def write(conn: Connection) -> int:
            if self.store.status_of(conn, game_id) != "finished":
                self._fence(conn, {game_id}, tell=False)
            return self.store.write_use(conn, game_id, seat, aid)

        return int(self._run(write))

    def add_hint(self, game_id: str, ply: int, seat: int) -> bool:
        """Note a hint, as :func:`~chkobba.store.hints.add_hint`, fenced by the game's lock
        (hints are asked in a game being played): a worker that lost the game writes
        nothing. False if it was already noted."""

        def write(conn: Connection) -> bool:
            self._fence(conn, {game_id}, tell=False)
            try:
                # In a savepoint: a hint noted already must not undo the transaction.
                with conn.begin_nested():
                    write_hint(conn, game_id, ply, seat)
            except IntegrityError:
                return False
            return True

        return bool(self._run(write))

    # -- being asked ---------------------------------------------------------------

    def listener_state(self) -> dict[str, Any]:
        """The hand-over listener, as ``/healthz`` shows it: whether it listens (another
        worker's request for a game reaches this one only then), since when, how many
        times its connection failed and why last."""
        since = self.listening_since
        at = None if since is None else dt.datetime.fromtimestamp(since, dt.UTC).isoformat()
        return {
            "listening": since is not None,
            "since": at,
            "failures": self.listener_failures,
            "last_error": self.listener_error,
        }

    def listen(self, on_request: Callable[[str], None]) -> None:
        """Hand every game another worker asks for to ``on_request``, from a thread."""
        import psycopg

        url = libpq_url(self.store.url)

        def run() -> None:
            while not self._stop.is_set():
                try:
                    with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
                        conn.execute(f"LISTEN {CHANNEL}")
                        self.listening_since = time.time()
                        while not self._stop.is_set():
                            for note in conn.notifies(timeout=0.5):
                                if note.payload in self.owned:
                                    on_request(note.payload)
                except Exception as e:
                    self.listening_since = None
                    if not self._stop.is_set():
                        self.listener_failures += 1
                        reason = str(e).strip().splitlines()
                        self.listener_error = reason[0] if reason else type(e).__name__
                        log.exception("listening for hand-off requests failed; again in 1 s")
                        self._stop.wait(1.0)
                finally:
                    self.listening_since = None

        self._listener = threading.Thread(target=run, name="chkobba-handoff", daemon=True)
        self._listener.start()


def haproxy_config(listen: str, workers: Sequence[str], checks: str = "inter 500ms") -> str:
    """An HAProxy configuration (2.6, Debian 12's) for workers at ``workers`` (host:port),
    listening at ``listen`` (``[host]:port``): every request naming a game goes to the
    worker the game's code hashes to (consistent hashing, so a worker's death or return
    moves only its own games), anything else to any worker; ``/healthz`` checks each.
    ``deploy/haproxy.cfg`` is this text."""
    names = [f"w{i + 1}" for i in range(len(workers))]
    pairs = list(zip(names, workers, strict=True))
    # A worker marked down (dead, hung, or cut off from the database: /healthz answers
    # 503) has its sessions shut, WebSockets included: its clients reconnect elsewhere.
    down = "on-marked-down shutdown-sessions"
    by_game = "\n".join(
        f"    server {n} {a} check {checks} fall 2 rise 2 {down}" for n, a in pairs
    )
    anyone = "\n".join(f"    server {n} {a} track by_game/{n} {down}" for n, a in pairs)
    return f"""\
# chkobba behind HAProxy: each game's requests and WebSockets reach one worker (docs/deploy.md).
global
    maxconn 8000

defaults
    mode http
    # The workers' per-address limits see the client's address, not the balancer's
    # (chkobba serve --trusted-proxies, 127.0.0.1 by default).
    option forwardfor
    option redispatch 1
    retries 3
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    # A WebSocket is a tunnel once upgraded. The pages ping every 15 s, so a minute
    # with nothing either way is a client (or a worker) gone without closing.
    timeout tunnel 60s
    timeout client-fin 5s
    timeout server-fin 5s

frontend chkobba
    bind {listen}
    # The game's code, wherever the request carries it: /ws?game=CODE (the pages add it),
    # /api/games/CODE/..., /g/CODE, /touti/CODE, /replay/CODE.
    http-request set-var(txn.game) url_param(game),upper if {{ path /ws }}
    http-request set-var(txn.game) path,field(4,/),upper if {{ path_beg /api/games/ }}
    http-request set-var(txn.game) path,field(3,/),upper if {{ path_reg ^/(g|touti|replay)/[^/]+$ }}
    use_backend by_game if {{ var(txn.game) -m found }}
    default_backend anyone

backend by_game
    balance hash var(txn.game)
    hash-type consistent
    option httpchk GET /healthz
{by_game}

backend anyone
    balance roundrobin
{anyone}
"""
