"""Many ``chkobba serve`` workers, one service: which worker owns which game (docs/deploy.md,
docs/architecture.md).

Each unfinished game is held by at most one worker at a time, by two things:

- a PostgreSQL session-level advisory lock on its code, on one session of the worker's
  own (:class:`Ownership`): nobody else holds the game now (this also keeps out, during an
  upgrade, workers of a version that does not know leases);
- a lease (store/leases.py): a row saying until when, renewed every 0.8 s for all the
  worker's games in one statement, with an epoch that grows at each take-over. A game is
  taken over only once its lease has run out (4 s after the last renewal) or been let
  go. A worker that stops renewing (killed, hung, paused with SIGSTOP, cut off from the
  database) may keep its session and locks: once its lease has run out, the next worker
  that wants one of its games ends that session, freeing them. The lease is what decides:
  every write of a game runs in a transaction that first checks, with the lease row
  locked, that the writer still holds the game at the epoch it carries
  (:meth:`Ownership.fenced`), and a worker serves a game's state only while its lease
  is valid (:meth:`Ownership.serving`, else :meth:`Ownership.holds` asks the database).

A worker asked for a game another worker holds (the balancer moved the game's
clients, say after a restart) asks the holder to let it go with a PostgreSQL
``NOTIFY``; the holder closes its clients' connections (1012, "service restart"),
which reconnect through the balancer, and releases the lease and the lock.

Everything that uses the session runs on the journal's thread (:class:`~chkobba.web.hub.
Journal`), one call at a time, as SQLAlchemy connections require; the renewals run on a
thread and connection of their own, so that a slow write never delays them.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Collection, Sequence
from typing import Any, Final, TypeVar

from sqlalchemy import text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError

from chkobba.store import Finish, MoveRow, SeatRow, Store, leases
from chkobba.store.chat import ChatRow, ChatStore
from chkobba.store.hints import write_hint
from chkobba.store.leases import LEASE_SECONDS, StaleEpoch
from chkobba.web.codes import CODE_ALPHABET, CODE_LENGTH
from chkobba.web.listen import Listener

log = logging.getLogger("chkobba.web")

CHANNEL: Final = "chkobba_handoff"
"""The ``NOTIFY`` channel on which a worker asks the holder of a game to let it go."""
MARGIN: Final = 0.5
"""Seconds a worker counts its leases short by, so as never to serve past one's end."""
T = TypeVar("T")
LOCK_SPACE: Final = 0x43484B00
"""The first key of the advisory locks on game codes (``CHK`` and a byte)."""


FENCED_WRITES: Final = {
    "Store.append_moves": "append_moves",
    "Store.write_moves": "append_moves",
    "Store.update_seats": "update_seats",
    "Store.write_seats": "update_seats",
    "Store.mark_seen": "mark_seen",
    "Store.write_seen": "mark_seen",
    "Store.link_rematch": "link_rematch",
    "Store.write_rematch": "link_rematch",
    "Store.count_use": "count_use",
    "Store.write_use": "count_use",
    "hints.add_hint": "add_hint",
    "hints.write_hint": "add_hint",
    "ChatStore.post": "post_chat",
    "ChatStore.write_post": "post_chat",
    "ChatStore.set_room": "switch_chat",
    "ChatStore.write_room": "switch_chat",
}
"""Every write of a game's rows in the store (``Class.method`` or ``module.function``),
with the :class:`Ownership` method a cluster worker makes it through, fenced by the
game's lease. A test finds the store's writes in its source and checks each is here (or
in :data:`UNFENCED_WRITES`) and is refused at a stale epoch."""

UNFENCED_WRITES: Final = {
    "Store.create_game": "a new game, under a new code: nobody holds it yet",
    "Store.resumable_games": "a single server's start-up; a cluster's workers never call it",
    "Accounts.delete": "an account's deletion frees its seats in every game: the seats'"
    " account, not the game's play, and the account is gone either way",
    "Store.insert_game": "a new game, under a new code (the Play now queue makes it in the"
    " transaction that takes its players off the queue): nobody holds it yet",
    "ChatStore.report": "a reader's report of a message, for the moderators: not the game's"
    " play, and made after the game too",
    "ChatStore.close_report": "a moderator closing a report: not the game's play",
    "chat.forget_account": "an account's deletion takes its messages from every game, as"
    " Accounts.delete (which calls it) frees its seats",
}
"""The store's writes of a game's rows that are not fenced, and why."""


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


class NotOwner(StaleEpoch):
    """A cluster worker's write for a game it does not hold (any more), or holds under a
    newer epoch than the write carries: refused, nothing written (this module)."""


class Ownership:
    """The games this worker holds: a lease and an advisory lock per game.

    The advisory locks live on one PostgreSQL session of the worker's own: a game's lock
    says nobody else holds it now. The lease (store/leases.py) says until when: renewed every
    :attr:`renew_every` seconds for all the worker's games in one statement, on a thread
    of its own; a worker that stops renewing (hung, paused, cut off from the database)
    has its session ended by the next worker that wants one of its games once the lease
    has expired, and so loses every game. The lease's epoch, which grows at each take-over,
    fences every write (:meth:`fenced`).

    The methods that touch the session (:meth:`try_own`, :meth:`release`, the writes,
    :meth:`ask`, :meth:`holds`) block: call them on the journal's thread. :meth:`listen`
    starts a thread that hands the games other workers ask for to ``on_request`` (called
    on that thread) and renews the leases.
    """

    def __init__(self, store: Store, worker: str, lease_seconds: float = LEASE_SECONDS) -> None:
        if store.is_sqlite:
            raise ValueError("a cluster of workers shares one PostgreSQL database, not SQLite")
        self.store = store
        self.worker = worker
        self.lease_seconds = lease_seconds
        self.renew_every = lease_seconds / 5
        """Seconds between two renewals: four can fail before a lease runs out."""
        self.epochs: dict[str, int] = {}
        """The games held, each with the epoch it is held under."""
        self.valid_until: dict[str, float] = {}
        """Until when (``time.monotonic()``) each game's lease surely lasts: its last
        renewal's start plus the lease's length, less a margin. Past it, the game's state
        is not served before the database says it is still held (:meth:`serving`)."""
        self._guard = threading.Lock()
        self._lapsed: dict[str, int] = {}
        self.locked: set[str] = set()
        """The games whose advisory lock the session holds (a game found lost keeps its
        lock until let go: :meth:`release` frees it)."""
        self.on_lost: Callable[[set[str]], None] = lambda codes: None
        """Called (on the journal's or the renewer's thread) with games this worker finds
        it no longer holds: every game, when the session (and with it every lock) is lost."""
        self._conn: Connection | None = None
        self._stop = threading.Event()
        self.listener: Listener | None = None
        """The hand-over listener, once :meth:`listen` has started it."""
        self._renewer: threading.Thread | None = None
        self.renewals = 0
        """Renewals done (one statement each, for every game held)."""
        self.renewal_failures = 0
        """Renewals that failed (the database did not answer, or refused)."""
        self.last_renewal: float | None = None
        """When (seconds since the epoch) the last renewal succeeded."""
        self.renewal_error: str | None = None
        """Why the last failed renewal failed."""
        self.taken_from_hung = 0
        """Sessions of workers whose leases had expired that this worker ended."""

    @property
    def owned(self) -> set[str]:
        """The games held now."""
        with self._guard:
            return set(self.epochs)

    def _hold(self, code: str, epoch: int, since: float) -> None:
        with self._guard:
            self._lapsed.pop(code, None)
            self.epochs[code] = epoch
            self.valid_until[code] = since + self.lease_seconds - MARGIN

    def _forget(self, codes: set[str]) -> None:
        with self._guard:
            for code in codes:
                epoch = self.epochs.pop(code, None)
                if epoch is not None:
                    # Released when let go, if still its own: the next holder need not
                    # wait for it to run out (after the session was lost, say).
                    self._lapsed[code] = epoch
                self.valid_until.pop(code, None)

    # -- the session -----------------------------------------------------------

    def _session(self) -> Connection:
        if self._conn is None or self._conn.closed or self._conn.invalidated:
            if self._conn is not None:
                # A new session holds none of the old one's locks.
                self._drop()
            self._conn = self.store.engine.connect()
        return self._conn

    def _drop(self) -> None:
        lost = self.owned
        self._forget(lost)
        self.locked.clear()
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:  # the session is already gone
                log.debug("closing a lost session failed", exc_info=True)
            self._conn = None
        if lost:
            log.error("worker %s lost its database session and every game it held", self.worker)
            self.on_lost(lost)

    def _run(self, fn: Callable[[Connection], T]) -> T:
        conn = self._session()
        try:
            with conn.begin():
                return fn(conn)
        except DBAPIError as e:
            if e.connection_invalidated:
                self._drop()
            raise

    def close(self) -> None:
        """Release every game (ending the session frees its locks) and stop the threads."""
        self._stop.set()
        held = dict(self.epochs)
        self._forget(set(held))
        if self._conn is not None:
            # The leases end now, so the next worker need not wait for them to expire.
            with contextlib.suppress(Exception), self._conn.begin():
                for code, epoch in held.items():
                    leases.release(self._conn, code, self.worker, epoch)
            # Invalidated, not returned to the pool: the session must end, and its locks.
            self._conn.invalidate()
            self._conn.close()
            self._conn = None
        if self.listener is not None:
            self.listener.stop()
        if self._renewer is not None:
            self._renewer.join(timeout=5)

    # -- owning ------------------------------------------------------------------

    def try_own(self, code: str) -> bool:
        """Hold the game if nobody does (its advisory lock free), at a new epoch; whether
        this worker holds it now. A holder whose lease has expired (hung, cut off) has its
        session ended, which frees its locks: a later try gets the game."""
        if code in self.epochs:
            return True
        a, b = lock_key(code)

        def own(c: Connection) -> int | None:
            got = c.execute(
                text("SELECT pg_try_advisory_lock(:a, :b)"), {"a": a, "b": b}
            ).scalar_one()
            if got:
                epoch = leases.take(c, code, self.worker, self.lease_seconds)
                if epoch is None:
                    # Its last holder's lease runs still (its session gone): not yet.
                    c.execute(text("SELECT pg_advisory_unlock(:a, :b)"), {"a": a, "b": b})
                return epoch
            hung = leases.expired_holder(c, code, (a, b))
            if hung is not None and leases.end_session(c, hung):
                self.taken_from_hung += 1
                log.warning("game %s: its holder's lease expired; its session %d ended", code, hung)
            return None

        since = time.monotonic()
        epoch = self._run(own)
        if epoch is None:
            return False
        self.locked.add(code)
        self._hold(code, epoch, since)
        return True

    def epoch_of(self, code: str) -> int | None:
        """The epoch this worker holds the game under; None if it does not hold it."""
        return self.epochs.get(code)

    def release(self, code: str) -> None:
        """Let the game go: its lease ends, its lock is released."""
        with self._guard:
            epoch = self.epochs.pop(code, None)
            lapsed = self._lapsed.pop(code, None)
            self.valid_until.pop(code, None)
        if epoch is None:
            epoch = lapsed  # lost without knowing who has it: released if still its own
        locked = code in self.locked
        if epoch is None and not locked:
            return
        self.locked.discard(code)
        a, b = lock_key(code)

        def let_go(c: Connection) -> None:
            if epoch is not None:
                leases.release(c, code, self.worker, epoch)
            if locked:
                c.execute(text("SELECT pg_advisory_unlock(:a, :b)"), {"a": a, "b": b})

        try:
            self._run(let_go)
        except DBAPIError:
            # Cut off: the lease expires by itself, the lock goes with the session.
            log.warning("could not release game %s; its lease will expire", code)

    def ask(self, code: str) -> None:
        """Ask whoever holds the game to let it go."""
        self._run(
            lambda c: c.execute(text("SELECT pg_notify(:ch, :code)"), {"ch": CHANNEL, "code": code})
        )

    def serving(self, code: str) -> bool:
        """Whether the game's lease surely still holds, by this worker's clock alone (no
        database question): its state may be served. False does not mean lost: ask
        :meth:`holds`."""
        until = self.valid_until.get(code)
        return until is not None and time.monotonic() < until

    def holds(self, code: str) -> bool:
        """Whether this worker still holds the game, asked of the database (a worker that
        was paused, or cut off, may have lost it meanwhile without knowing), renewing its
        lease if so: before serving the state of a game whose lease may have run out."""
        epoch = self.epochs.get(code)
        if epoch is None:
            return False

        def renew(c: Connection) -> bool:
            since = time.monotonic()
            if leases.renew(c, self.worker, [code], self.lease_seconds).get(code) != epoch:
                return False
            self._hold(code, epoch, since)
            return True

        try:
            held = self._run(renew)
        except DBAPIError as e:
            if e.connection_invalidated:
                return False  # _run dropped the session and told on_lost
            raise
        if not held:
            self._forget({code})
        return held

    def fenced(
        self, codes: Collection[str], write: Callable[[Connection], T], tell: bool = True
    ) -> T:
        """Run ``write`` in a transaction fenced by the leases of the games ``codes``: it
        commits only if this worker holds each at the epoch it knows
        (:func:`chkobba.store.leases.fence`); else :class:`NotOwner`, nothing written.

        The one way a cluster worker writes a game's rows: every write below goes
        through it, and so must any new one (chat, ratings, the play-now queue...):
        ``await hub.journal.call(hub.journal.fenced, [game_id], write)``. The games found
        lost, and only those (a batch holds many games' moves), are handed to
        :attr:`on_lost` (the hub lets them go) if ``tell``."""

        def run(conn: Connection) -> T:
            codes_ = set(codes)
            with self._guard:
                epochs = {c: self.epochs[c] for c in codes_ if c in self.epochs}
            missing = codes_ - set(epochs)
            try:
                if missing:
                    raise NotOwner(self.worker, missing)
                leases.fence(conn, self.worker, epochs)
            except StaleEpoch as e:
                self._forget(e.codes)
                if tell:
                    self.on_lost(e.codes)
                raise NotOwner(self.worker, e.codes) from None
            return write(conn)

        return self._run(run)

    def append_moves(self, rows: Sequence[MoveRow], finishes: Sequence[Finish] = ()) -> None:
        """Write moves and game ends, as :meth:`Store.append_moves`, fenced by the leases;
        each move notes the epoch it was written under."""
        if not rows and not finishes:
            return
        codes = {r.game_id for r in rows} | {f.game_id for f in finishes}
        epochs = {c: e for c in codes if (e := self.epochs.get(c)) is not None}
        self.fenced(codes, lambda c: self.store.write_moves(c, rows, finishes, epochs))

    def update_seats(self, game_id: str, rows: Sequence[SeatRow], status: str) -> None:
        """Write seats and status, as :meth:`Store.update_seats`, fenced by the lease."""
        self.fenced([game_id], lambda c: self.store.write_seats(c, game_id, rows, status))

    def mark_seen(self, game_id: str, seats_seen: Sequence[int], at: dt.datetime) -> None:
        """Note who was seen, as :meth:`Store.mark_seen`, fenced by the lease (only an
        unfinished game's timers read it); raise :class:`NotOwner` if it is not held. A
        worker learns it lost a game from its moves, not from this note."""
        self.fenced(
            [game_id], lambda c: self.store.write_seen(c, game_id, seats_seen, at), tell=False
        )

    def link_rematch(self, game_id: str, rematch_id: str) -> str:
        """Link a finished game to its rematch, as :meth:`Store.link_rematch`, fenced by the
        lease (a finished game is held only while its rematch is made: see
        :meth:`~chkobba.web.hub.Hub.offer_rematch`); the rematch that stands."""
        return self.fenced(
            [game_id], lambda c: self.store.write_rematch(c, game_id, rematch_id), tell=False
        )

    def count_use(self, game_id: str, seat: int, aid: str) -> int:
        """Count a use of the coach, as :meth:`Store.count_use`: in a game being played only
        by its holder (fenced by its lease); in a finished game, which nobody holds, by any
        worker (the count is one atomic update, and a finished game's play cannot change)."""
        return self._held_or_finished(
            game_id, lambda c: self.store.write_use(c, game_id, seat, aid)
        )

    def add_hint(self, game_id: str, ply: int, seat: int) -> bool:
        """Note a hint, as :func:`~chkobba.store.hints.add_hint`, fenced by the lease
        (hints are asked in a game being played): a worker that lost the game writes
        nothing. False if it was already noted."""

        def write(conn: Connection) -> bool:
            try:
                # In a savepoint: a hint noted already must not undo the transaction.
                with conn.begin_nested():
                    write_hint(conn, game_id, ply, seat)
            except IntegrityError:
                return False
            return True

        return self.fenced([game_id], write, tell=False)

    def post_chat(
        self,
        game_id: str,
        channel: str,
        seat: int,
        account_id: int | None,
        name: str,
        text: str | None,
        phrase: str | None,
    ) -> ChatRow:
        """Store a chat message, as :meth:`ChatStore.post`: in a game being played only by
        its holder (fenced by its lease); in a finished game, which nobody holds, by any
        worker (its players and spectators still talk; its play cannot change)."""
        chat = ChatStore(self.store.engine)

        def write(conn: Connection) -> ChatRow:
            return chat.write_post(conn, game_id, channel, seat, account_id, name, text, phrase)

        return self._held_or_finished(game_id, write)

    def switch_chat(self, game_id: str, enabled: bool) -> None:
        """Turn a room's chat on or off, as :meth:`ChatStore.set_room`, fenced like
        :meth:`post_chat`."""
        self._held_or_finished(game_id, lambda c: ChatStore.write_room(c, game_id, enabled))

    def _held_or_finished(self, game_id: str, write: Callable[[Connection], T]) -> T:
        """``write`` fenced by the game's lease, unless this worker does not hold the game
        and it is finished (then nobody holds it, and ``write`` runs alone)."""

        def finished(c: Connection) -> bool:
            return self.store.status_of(c, game_id) == "finished"

        if game_id not in self.epochs and self._run(finished):
            return self._run(write)
        return self.fenced([game_id], write, tell=False)

    # -- renewing --------------------------------------------------------------

    def renew_once(self) -> set[str]:
        """Renew every lease held, in one statement on a connection of its own; the games
        found lost (taken over, or expired while the renewal failed), handed to
        :attr:`on_lost`."""
        with self._guard:
            held = dict(self.epochs)
        since = time.monotonic()
        try:
            with self.store.engine.begin() as conn:
                found = leases.renew(conn, self.worker, held, self.lease_seconds)
        except Exception as e:
            self.renewal_failures += 1
            reason = str(getattr(e, "orig", None) or e).strip().splitlines()
            self.renewal_error = reason[0] if reason else type(e).__name__
            log.warning("renewing %d lease(s) failed: %s", len(held), self.renewal_error)
            # Past its lease a game may be anybody's: stop serving it.
            now = time.monotonic()
            with self._guard:
                lost = {c for c in held if self.valid_until.get(c, 0.0) <= now}
        else:
            self.renewals += 1
            self.last_renewal = time.time()
            lost = set()
            with self._guard:
                for code, epoch in held.items():
                    if self.epochs.get(code) != epoch:
                        continue  # let go, or taken again, meanwhile
                    if found.get(code) == epoch:
                        self.valid_until[code] = since + self.lease_seconds - MARGIN
                    else:
                        lost.add(code)
        if lost:
            self._forget(lost)
            log.warning("worker %s lost %d game(s) to their leases' end", self.worker, len(lost))
            self.on_lost(lost)
        return lost

    def renewal_state(self) -> dict[str, Any]:
        """The lease renewals, as ``/healthz`` shows them: the last one that succeeded,
        how many did and failed, why the last failure, and the lease's length."""
        last = self.last_renewal
        return {
            "last": None if last is None else dt.datetime.fromtimestamp(last, dt.UTC).isoformat(),
            "count": self.renewals,
            "failures": self.renewal_failures,
            "last_error": self.renewal_error,
            "lease_seconds": self.lease_seconds,
            "taken_from_hung": self.taken_from_hung,
        }

    def start_renewing(self) -> None:
        """Renew the leases every :attr:`renew_every` seconds, from a thread."""

        def run() -> None:
            while not self._stop.wait(self.renew_every):
                try:
                    self.renew_once()
                except Exception:
                    log.exception("renewing the leases failed")

        self._renewer = threading.Thread(target=run, name="chkobba-leases", daemon=True)
        self._renewer.start()

    # -- being asked ---------------------------------------------------------------

    def listener_state(self) -> dict[str, Any]:
        """The hand-over listener, as ``/healthz`` shows it: whether it listens (another
        worker's request for a game reaches this one only then), since when, how many
        times its connection failed and why last."""
        if self.listener is None:
            return {"listening": False, "since": None, "failures": 0, "last_error": None}
        return self.listener.state()

    def listen(self, on_request: Callable[[str], None]) -> None:
        """Hand every game another worker asks for to ``on_request``, from a thread."""

        def heard(code: str) -> None:
            if code in self.owned:
                on_request(code)

        self.listener = Listener(libpq_url(self.store.url), CHANNEL, heard,
                                 name="chkobba-handoff", what="hand-off requests")
        self.listener.start()


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
