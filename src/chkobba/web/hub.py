"""The live games of one server: seats, connections, computer players and the journal.

A :class:`Room` is one game held in memory, of any game (:mod:`chkobba.games`):
its :class:`~chkobba.games.Table`, rebuilt at start-up by replaying the stored
moves, and the connections that follow it. Nothing here knows which game a
room plays: the game's interface checks the moves, says what each seat sees and
names the computer players. Every move, a person's or the computer's, goes through
:meth:`Hub.commit`: checked by the engine, written to the database and only then
applied and announced. Moves of many games share a transaction
(:class:`Journal`), which is what keeps the database from being the bottleneck.
"""

from __future__ import annotations

import asyncio
import base64
import datetime as dt
import gc
import hashlib
import hmac
import json
import logging
import secrets
import time
import weakref
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final, Protocol, TypeVar

from sqlalchemy.engine import Connection

from chkobba.agents.base import AgentError
from chkobba.fishing.match import Match
from chkobba.fishing.rules import RULES_VERSION, RulesError
from chkobba.games import Game, MoveRefused, Table, game, replay
from chkobba.store import Finish, MoveRow, SeatRow, Store, StoredGame
from chkobba.store.hints import add_hint
from chkobba.store.leases import LEASE_SECONDS
from chkobba.store.pools import Pool
from chkobba.store.ratings import Outcome
from chkobba.store.store import now
from chkobba.web.bucket import RateLimiter
from chkobba.web.cluster import NotOwner, Ownership
from chkobba.web.codes import is_game_id, new_code
from chkobba.web.engines import RoomEngines
from chkobba.web.life import RoomSettings
from chkobba.web.protocol import (
    ChatMsg,
    ChatRoomMsg,
    FillMsg,
    Hello,
    Ping,
    PlayMsg,
    ProtocolError,
    RematchMsg,
    ReportMsg,
    ResignMsg,
    players_json,
)
from chkobba.web.rated import outcome, pool_for

log = logging.getLogger("chkobba.web")

T = TypeVar("T")

MAX_NAME: Final = 24
OUTBOX_LIMIT: Final = 256
"""Messages queued for one slow connection before it is dropped."""


class Busy(ProtocolError):
    """A game another cluster worker still holds: the client should reconnect shortly."""

    def __init__(self, code: str) -> None:
        super().__init__("server_error", f"game {code} is held by another server; try again")


def new_token() -> str:
    """An unguessable seat token."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the database keeps of a seat token: its SHA-256, never the token."""
    # A lone surrogate (JSON allows "\ud800") is no token, but must not be a crash.
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def clean_name(name: object, default: str) -> str:
    """A player's name, trimmed and checked; raise ``ValueError`` if unusable."""
    if name is None or name == "":
        return default
    if not isinstance(name, str):
        raise ValueError("a name is a string")
    text = " ".join(name.split())
    if not text:
        return default
    if len(text) > MAX_NAME:
        raise ValueError(f"a name has at most {MAX_NAME} characters")
    if any(not ch.isprintable() for ch in text):
        raise ValueError("a name cannot hold control characters")
    return text


def rematch_token(token: str, game_id: str) -> str:
    """The token of a seat's holder in the rematch of ``game_id``, from their token in it:
    as secret as the token, and known to the server only when the holder shows it."""
    key = token.encode("utf-8", "surrogatepass")
    digest = hmac.new(key, f"rematch:{game_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def stamp(t: dt.datetime | None) -> float | None:
    """A stored time as seconds since the epoch (what the room's timers count in)."""
    return None if t is None else t.timestamp()


def quiet_since(g: StoredGame) -> float:
    """Since when a stored game, which nobody follows at start-up, has been left alone:
    its seats' holders were last seen, or its last move was played, or it was created."""
    times = [stamp(g.seen_at), stamp(g.last_move_at), g.created_at.timestamp()]
    return max(t for t in times if t is not None)


def agent_seed(game_seed: int, ply: int, seat: int) -> int:
    """The seed of the computer's choice at one ply: a restart replays it exactly."""
    return (game_seed * 1_000_003 + ply * 131 + seat) % (1 << 62)


class ChatHooks(Protocol):
    """What the hub asks of the rooms' chat (web/chat.py's ``TableChat``). The hub is
    given the chat's maker rather than importing it, because the chat reads the hub's
    rooms and connections: imports go one way."""

    async def handle(
        self, conn: Conn, room: Room, msg: ChatMsg | ChatRoomMsg | ReportMsg
    ) -> None:
        """A chat message, chat switch or report from ``conn``."""

    async def enabled(self, room: Room) -> bool:
        """Whether ``room``'s chat is on (read from the store at first sight)."""

    async def history(self, conn: Conn, room: Room) -> None:
        """Send ``conn`` the chat it may read."""

    def reveal(self, room: Room) -> None:
        """The game is over: both channels to everyone."""

    def start_relay(self, worker: str) -> None:
        """Hear the other workers' chat (cluster mode)."""

    def stop_relay(self) -> None:
        """Stop hearing them."""


class Conn:
    """One WebSocket connection: the game it follows, its seat, its outgoing queue."""

    def __init__(self, send: Callable[[str], Any], rate: float, burst: float) -> None:
        self._send = send
        self.room: Room | None = None
        self.seat: int | None = None
        """The seat played through this connection; -1 when spectating."""
        self.limiter = RateLimiter(rate, burst)
        self.token: str | None = None
        """The seat's token shown in ``hello`` (in memory only: it derives the rematch's)."""
        self.account: int | None = None
        """The account whose session cookie opened this connection, if any."""
        self.account_name: str | None = None
        """That account's name (a signed-in spectator chats under it)."""
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.refused = 0
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message for this client."""
        self.send_text(json.dumps(message, separators=(",", ":"), ensure_ascii=False))

    def send_text(self, text: str) -> None:
        """Queue an already serialised message."""
        if self.closed:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            # A client that never reads must not make the server hold its backlog.
            self.close(1008, "too many unread messages")
            return
        self.outbox.put_nowait(text)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Ask the writer to send the queued messages, then close with ``code``."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.close_reason = reason
            self.outbox.put_nowait(None)

    async def write_loop(self) -> None:
        """Send queued messages in order until closed."""
        while True:
            text = await self.outbox.get()
            if text is None:
                return
            await self._send(text)


@dataclass
class Room:
    """One game in memory, and who follows it."""

    id: str
    kind: str
    status: str
    seed: int
    game: Game[Any]
    rules: Any
    table: Table
    names: list[str | None]
    token_hashes: list[str | None]
    agents: list[str | None]
    moves: list[str] = field(default_factory=list)
    conns: set[Conn] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bots: asyncio.Task[None] | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    """The room's settings as stored with the game (``life.to_json()``)."""
    life: RoomSettings = field(default_factory=RoomSettings)
    """The room's settings (docs/protocol.md, "Room settings")."""
    ending: str | None = None
    """``resigned``, ``timeout`` or ``abandoned`` once the game ended without being
    played out (:data:`chkobba.store.store.ENDINGS`)."""
    resigned: int | None = None
    """The side that resigned, or ran out of time."""
    final_winner: int | None = None
    """The winner of a game that ended without being played out."""
    rematch: str | None = None
    """The id of this game's rematch, once every person agreed to it."""
    rematch_of: str | None = None
    """The id of the game this one is the rematch of."""
    rematch_accepted: dict[int, str] = field(default_factory=dict)
    """The seats that agreed to a rematch, each with the hash of its token there."""
    away_since: dict[int, float] = field(default_factory=dict)
    """The persons' seats with no connection, each since when (seconds since the epoch)."""
    idle_since: float | None = field(default_factory=time.time)
    """Since when no seat's holder has been connected; None while one is."""
    turn_since: float = field(default_factory=time.time)
    """When the seat to move got its turn (the turn clock and grace count from it)."""
    stand_in: dict[int, str] = field(default_factory=dict)
    """The seats the computer plays for until their holders come back (``away``)."""
    stood_in: list[tuple[int, int, str]] = field(default_factory=list)
    """The moves the computer played for a person's seat: (ply, seat, ``away``/``clock``)."""
    timer: asyncio.TimerHandle | None = None
    engines: RoomEngines | None = None
    """The outside engines playing seats of this game, one process per seat (made at the
    first engine move; closed when the game ends or the room is let go)."""
    accounts: list[int | None] = field(default_factory=list)
    """The account holding each seat, if its player was signed in (else None)."""
    chat_on: bool | None = None
    """Whether the room's chat is on; None until read from the store (web/chat.py)."""
    chat_limits: dict[tuple[Any, ...], RateLimiter] = field(default_factory=dict)
    """Each chat author's rate limit in this room (by account, or by seat for a guest)."""

    @property
    def pool(self) -> Pool | None:
        """The rating pool of a rated game, or None for a casual one."""
        if not self.life.rated:
            return None
        return pool_for(self.game, self.rules, self.table.seats, self.table.teams)

    def rated_end(
        self, winner: int | None, loser: int | None = None
    ) -> Outcome | None:
        """What this game's end tells the ratings (None: a casual game)."""
        t = self.table
        return outcome(self.pool, t.side_of, winner, list(t.totals()), loser)

    def account_of(self, seat: int) -> int | None:
        """The account holding ``seat``, or None."""
        return self.accounts[seat] if seat < len(self.accounts) else None

    def seat_of_account(self, account: int) -> int | None:
        """The seat an account holds in this game, or None."""
        for seat in range(self.seats):
            if self.account_of(seat) == account:
                return seat
        return None

    @property
    def match(self) -> Match | None:
        """The Chkobba family's match behind the table, for the coach; None for another game."""
        m = getattr(self.table, "match", None)
        return m if isinstance(m, Match) else None

    def state(self, seat: int, re: Any = None, full: bool = True) -> dict[str, Any]:
        """The ``state`` message for one seat (-1: a spectator): the game's view of it."""
        out: dict[str, Any] = {"type": "state", "game": self.id, "status": self.status}
        out["ply"] = self.ply
        out.update(self.table.view(seat, self.record_names(), full))
        if self.status != "playing":
            # Until every seat is taken, nobody may move.
            out["legal"] = []
        if self.ending is not None:
            # Resigned, out of time or abandoned: over, though the match was not played out.
            out["over"] = True
            out["winner"] = self.final_winner
            out["ending"] = self.ending
            out["resigned"] = self.resigned
        if re is not None:
            out["re"] = re
        return out

    @property
    def ply(self) -> int:
        """How many moves have been played."""
        return len(self.moves)

    @property
    def seats(self) -> int:
        """How many seats the game has."""
        return self.table.seats

    def seat_of(self, token: str) -> int | None:
        """The seat a token holds, or None."""
        h = token_hash(token)
        for seat, stored in enumerate(self.token_hashes):
            if stored is not None and hmac.compare_digest(stored, h):
                return seat
        return None

    def free_seats(self) -> list[int]:
        """Seats nobody holds yet."""
        return [
            s for s in range(self.seats) if self.token_hashes[s] is None and self.agents[s] is None
        ]

    def online(self) -> list[bool]:
        """Which seats have a connection now."""
        held = {c.seat for c in self.conns}
        return [s in held for s in range(self.seats)]

    @property
    def winner(self) -> int | None:
        """The winning side, also of a game ended by resignation."""
        return self.final_winner if self.ending is not None else self.table.winner

    def is_person(self, seat: int) -> bool:
        """Whether a person holds ``seat`` (with a token)."""
        return self.token_hashes[seat] is not None and self.agents[seat] is None

    def coaching(self) -> bool:
        """Whether the coach may help here: always with at most one person at the table
        (against the computer), else as the room's creator chose."""
        people = sum(1 for h in self.token_hashes if h is not None)
        if people <= 1 and not self.free_seats():
            return True
        return self.life.coaching

    def life_json(self) -> dict[str, Any]:
        """The room's settings and life, as the ``room`` and ``welcome`` messages show them."""
        out: dict[str, Any] = {
            "settings": self.life.to_json(),
            "coaching": self.coaching(),
            "ending": self.ending,
            "resigned": self.resigned,
            "rematch": self.rematch,
            "rematch_of": self.rematch_of,
            "rematch_accepted": sorted(self.rematch_accepted),
        }
        return out

    def life_meta(self) -> dict[str, Any]:
        """What a record's ``meta`` says of the game's life (docs/records.md)."""
        out: dict[str, Any] = {"settings": self.life.to_json()}
        if self.ending is not None:
            out["ending"] = self.ending
        if self.resigned is not None:
            out["resigned"] = self.resigned
        if self.rematch_of is not None:
            out["rematch_of"] = self.rematch_of
        if self.rematch is not None:
            out["rematch"] = self.rematch
        if self.stood_in:
            by_seat: dict[str, dict[str, list[int]]] = {}
            for ply, seat, why in self.stood_in:
                by_seat.setdefault(str(seat), {}).setdefault(why, []).append(ply)
            out["stand_in"] = by_seat
        return out

    def summary(self) -> dict[str, Any]:
        """What the lobby and the ``room`` message show of this game."""
        t = self.table
        players = players_json(self.names, self.agents, self.online())
        for p in players:
            p["away"] = p["seat"] in self.away_since
            p["stand_in"] = self.stand_in.get(p["seat"])
            # A signed-in player's name is their account's; a guest's, whatever they typed.
            p["account"] = self.account_of(p["seat"]) is not None
        return {
            "game": self.id,
            "game_name": self.game.name,
            "kind": self.kind,
            "status": self.status,
            "rules": t.rules_name,
            "options": self.game.rules_json(self.rules)[1],
            "target": t.target,
            "seats": t.seats,
            "teams": t.teams,
            "side_of": list(t.side_of),
            "points": self.game.point_names(self.rules),
            "deck": self.game.deck(self.rules),
            "levels": self.game.levels(),
            "players": players,
            "totals": list(t.totals()),
            "winner": self.winner,
            "ply": self.ply,
            "chat": self.chat_on,
            **self.life_json(),
        }

    def record_names(self) -> list[str]:
        """Seat names for a game record."""
        return [
            self.names[s] or (f"computer ({self.agents[s]})" if self.agents[s] else f"seat {s}")
            for s in range(self.seats)
        ]


def room_from_stored(g: StoredGame) -> Room:
    """Rebuild a game by replaying its stored moves through the engine (checked).

    Raise ``ValueError`` (an unknown game or rules, an illegal or malformed move)
    if the stored moves do not make a game.
    """
    played = game(g.game)
    rules = played.make_rules(g.rules, g.options, g.rules_version)
    table = replay(played, rules, g.seats, g.teams, g.seed, g.moves)
    rows = sorted(g.seat_rows, key=lambda r: r.seat)
    life = RoomSettings.stored(g.settings, g.kind)
    room = Room(
        id=g.id,
        kind=g.kind,
        status=g.status,
        seed=g.seed,
        game=played,
        rules=rules,
        table=table,
        names=[r.name for r in rows],
        token_hashes=[r.token_hash for r in rows],
        agents=[r.agent for r in rows],
        moves=list(g.moves),
        settings=life.to_json(),
        life=life,
        ending=g.ending,
        resigned=g.resigned,
        final_winner=g.winner if g.ending is not None else None,
        rematch=g.rematch,
        rematch_of=g.rematch_of,
        stood_in=list(g.stand_ins),
        accounts=[r.account_id for r in rows],
    )
    # Nobody follows a game just read: the timers count from the stored times.
    room.idle_since = quiet_since(g)
    last = stamp(g.last_move_at) or g.created_at.timestamp()
    room.turn_since = last
    for r in rows:
        if room.is_person(r.seat):
            room.away_since[r.seat] = max(stamp(r.seen_at) or 0.0, last)
    return room


class Journal:
    """The store on a thread of its own; moves from many games share one transaction."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="chkobba-store")
        self.pending: list[tuple[MoveRow, asyncio.Future[None]]] = []
        self.flusher: asyncio.Task[None] | None = None
        self.batches = 0
        # A cluster worker writes through its own session instead, fenced (web/cluster.py).
        self.write_moves: Callable[..., None] = store.append_moves
        self.write_seats: Callable[..., None] = store.update_seats
        self.write_seen: Callable[..., None] = store.mark_seen
        self.write_rematch: Callable[[str, str], str] = store.link_rematch
        self.write_use: Callable[[str, int, str], int] = store.count_use
        self.write_hint: Callable[[str, int, int], bool] = lambda game_id, ply, seat: add_hint(
            store, game_id, ply, seat
        )
        self.fenced: Callable[..., Any] = self._unfenced
        """``fenced(game_ids, write)``: run ``write(connection)`` in a transaction, fenced in
        a cluster by the leases of the games ``game_ids`` (refused with
        :class:`~chkobba.web.cluster.NotOwner` for a game this worker no longer holds; see
        :meth:`~chkobba.web.cluster.Ownership.fenced`). Every write of a game's rows that
        is not one of the above calls it, on the journal's thread:
        ``await hub.journal.call(hub.journal.fenced, [game_id], write)``."""

    def _unfenced(self, game_ids: Collection[str], write: Callable[[Connection], T]) -> T:
        # A single server holds every game: one transaction, nothing to check.
        with self.store.engine.begin() as conn:
            return write(conn)

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a store method on the store's thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, fn, *args)

    async def append(self, row: MoveRow) -> None:
        """Return once ``row`` is committed; raise if it could not be."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pending.append((row, fut))
        if self.flusher is None:
            self.flusher = asyncio.create_task(self._flush())
        await fut

    async def _flush(self) -> None:
        try:
            while self.pending:
                batch, self.pending = self.pending, []
                self.batches += 1
                try:
                    await self.call(self.write_moves, [row for row, _ in batch])
                except Exception:
                    # One bad row must not fail the moves of other games: retry alone.
                    for row, fut in batch:
                        try:
                            await self.call(self.write_moves, [row])
                        except Exception as e:
                            log.exception("could not store move %s", row)
                            fut.set_exception(e)
                        else:
                            fut.set_result(None)
                else:
                    for _, fut in batch:
                        fut.set_result(None)
        finally:
            self.flusher = None

    def close(self) -> None:
        """Finish pending store calls and stop the thread."""
        self.executor.shutdown(wait=True)


@dataclass
class Settings:
    """How a server behaves."""

    bot_delay: float = 0.7
    """Seconds the computer waits before each move, so people can follow."""
    bench_seats: bool = False
    """For bench/ratings_order.py only: ``POST /api/bench/rated`` seats computer players
    in accounts' seats of a rated game (``chkobba serve --bench-seats``, hidden)."""
    rate: float = 20.0
    """Messages per second each connection may send."""
    burst: float = 40.0
    max_refusals: int = 50
    """Messages refused for the rate limit before the connection is closed."""
    tune_gc: bool = False
    """Tune the garbage collector for a long-running server (set by ``chkobba serve``)."""
    scan_every: float = 60.0
    """Seconds between a cluster worker's looks for abandoned games nobody holds."""
    retry_after: float = 2.0
    """Seconds before the computer tries again a move the database did not take."""
    lease_seconds: float = LEASE_SECONDS
    """How long a cluster worker's lease on a game lasts unless renewed (store/leases.py)."""
    adopt_seconds: float = 5.0
    """How long a cluster worker waits for another to let a game go before refusing
    (``server_error``, then the connection closed with 1013)."""
    chat_rate: float = 0.5
    """Chat messages (and reports) per second each author may send in a room, sustained."""
    chat_burst: float = 5.0
    """Chat messages an author may send at once before the rate applies."""
    short_matches: bool = False
    """For the browser tests only (``chkobba serve --short-matches``, hidden): a new game
    may also be played to :data:`SHORT_TARGET`, and the lobby offers it, so a test that
    plays a whole match by clicks plays one round of it, not four."""

    def targets(self, played: Game[Any], rules: Any) -> tuple[int, ...]:
        """The targets a new match of ``rules`` may be played to: the game's own, and
        :data:`SHORT_TARGET` with :attr:`short_matches`."""
        own = played.targets(rules)
        return (*own, SHORT_TARGET) if self.short_matches and SHORT_TARGET not in own else own


SHORT_TARGET: Final = 1
"""The match target ``--short-matches`` adds: a match over after its first round (unless
tied there)."""


class Hub:
    """Every live game of the server."""

    def __init__(
        self,
        store: Store,
        chat: Callable[[Hub], ChatHooks],
        settings: Settings | None = None,
    ) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.journal = Journal(store)
        self.rooms: dict[str, Room] = {}
        self.ready = False
        self.checkpoints: asyncio.Task[None] | None = None
        self.chores: set[asyncio.Task[Any]] = set()
        """Tasks nobody awaits (timers' actions, notes of who was seen): kept till done."""
        self.abandoned_at_start = 0
        """How many games the last start-up found abandoned (and did not replay)."""
        self.cluster: Ownership | None = None
        """Set before :meth:`start` for a worker of a cluster: games are then loaded on
        demand, each held by one worker at a time (web/cluster.py)."""
        # One adoption of a game at a time; a gate lives as long as someone waits at it.
        self._adopting: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self.adopted = 0
        """Games this worker has loaded on demand (taken over, in a cluster)."""
        self.on_adopted: list[Callable[[], Any]] = []
        """Called at each game taken over (``/metrics`` counts them)."""
        self.scanner: asyncio.Task[None] | None = None
        """A cluster worker's looks for abandoned games (:meth:`scan_abandoned`)."""
        self.chat: ChatHooks = chat(self)
        """The rooms' chat (web/chat.py)."""

    # -- life cycle ------------------------------------------------------------

    async def start(self) -> None:
        """Migrate the database and resume every unfinished game."""
        await self.journal.call(self.store.migrate)
        if self.cluster is not None:
            await self._start_cluster()
        # A cluster's workers load games on demand (get_room), not all at start-up.
        stored = [] if self.cluster else await self.resumable()
        for g in stored:
            try:
                room = room_from_stored(g)
            except (RulesError, ValueError) as e:
                log.error("game %s cannot be replayed, left aside: %s", g.id, e)
                continue
            self.rooms[room.id] = room
            if room.table.is_over and room.status != "finished":
                # The server stopped between the last move and the game's end.
                await self._finish(room)
            self.schedule_bots(room)
            self.arm(room)
        self.ready = True
        log.info("resumed %d game(s)", len(self.rooms))
        if self.store.manual_checkpoints:
            self.checkpoints = asyncio.create_task(self._checkpoint_loop())
        if self.settings.tune_gc:
            # Full collections stall every game at once; most objects here live for
            # the whole run (code, resumed games), so take them out of the collector's
            # walks and collect the young generation less often.
            gc.collect()
            gc.freeze()
            gc.set_threshold(20_000, 50, 100)

    async def _checkpoint_loop(self) -> None:
        with ThreadPoolExecutor(1, thread_name_prefix="chkobba-checkpoint") as pool:
            loop = asyncio.get_running_loop()
            while True:
                await asyncio.sleep(1.0)
                try:
                    await loop.run_in_executor(pool, self.store.checkpoint)
                except Exception:
                    log.exception("checkpoint failed")

    async def stop(self) -> None:
        """Stop the computer players and the store's thread."""
        if self.checkpoints is not None:
            self.checkpoints.cancel()
        if self.cluster is not None:
            await self._stop_cluster()
        for room in self.rooms.values():
            if room.bots is not None:
                room.bots.cancel()
            if room.timer is not None:
                room.timer.cancel()
            self._end_engines(room, played_out=None)
        if self.chores:
            # Notes of who was seen are quick and count after a restart: let them land.
            await asyncio.wait(list(self.chores), timeout=2.0)
        for task in list(self.chores):
            task.cancel()
        await asyncio.sleep(0)
        self.journal.close()

    # -- games -----------------------------------------------------------------

    def new_seed(self) -> int:
        """The seed of a new match's shuffles: secret, since it decides every deck."""
        return secrets.randbits(62)

    async def create_game(
        self,
        kind: str,
        seats: int,
        teams: bool,
        target: int | None,
        level: str | None,
        name: str,
        game_name: str = "chkobba",
        rules_name: str | None = None,
        options: dict[str, Any] | None = None,
        computers: list[str | None] | None = None,
        settings: RoomSettings | None = None,
        account: int | None = None,
    ) -> tuple[Room, str]:
        """A new game, its creator in seat 0; return the room and the creator's token.

        ``kind`` is ``computer`` (every other seat played by ``level``) or ``room``
        (other seats wait for people, or for the computer on request; ``computers``
        may give some of them a computer player at once, by seat). The game is
        ``game_name`` with the rules ``rules_name`` (the game's default if None),
        ``options`` changed and ``target``; ``settings`` are the room's (the defaults of
        its kind if None); ``account``, the signed-in creator's account, holds seat 0.
        Bad values are ``ValueError``s in one line.
        """
        if kind not in ("computer", "room"):
            raise ValueError("mode must be 'computer' or 'room'")
        played = game(game_name)
        rules = played.make_rules(rules_name, {**(options or {})})
        if target is not None:
            if target not in self.settings.targets(played, rules):
                known = ", ".join(str(t) for t in self.settings.targets(played, rules))
                raise ValueError(f"target must be one of {known}")
            rules = played.with_target(rules, target)
        fair = played.levels()
        if kind == "computer":
            level = played.default_level() if level is None else level
            if not played.fair(level):
                raise ValueError(f"unknown level {level!r} (known: {', '.join(fair)})")
        match_seed = self.new_seed()
        table = played.serve(rules, seats, teams, match_seed)  # checks the seating
        agents: list[str | None] = [None if s == 0 else level for s in range(seats)]
        if kind == "room":
            wanted = list(computers or [])
            if len(wanted) > seats or (wanted and wanted[0] is not None):
                raise ValueError(f"computers lists seats 1 to {seats - 1} (seat 0 is yours)")
            for who in wanted:
                if who is not None and not played.fair(who):
                    raise ValueError(f"unknown level {who!r} (known: {', '.join(fair)})")
            agents = [*wanted, *([None] * (seats - len(wanted)))]
        token = new_token()
        names: list[str | None] = [name if s == 0 else None for s in range(seats)]
        hashes: list[str | None] = [token_hash(token) if s == 0 else None for s in range(seats)]
        taken = all(s == 0 or agents[s] is not None for s in range(seats))
        status = "playing" if taken else "open"
        life = settings if settings is not None else RoomSettings.stored(None, kind)
        owners: list[int | None] = [account if s == 0 else None for s in range(seats)]
        room = await self._store_room(
            kind, status, played, rules, table, match_seed, names, hashes, agents, life,
            accounts=owners,
        )
        return room, token

    async def create_bench_game(
        self, pool: Pool, accounts: list[int], names: list[str], levels: list[str]
    ) -> Room:
        """A rated game of ``pool`` whose every seat is an account's, played by the
        computer at ``levels`` (bench/ratings_order.py: only with ``bench_seats``); it
        plays itself and is rated when it ends, as any rated game."""
        if not self.settings.bench_seats:
            raise ValueError("the server was not started with --bench-seats")
        played = game(pool.game)
        rules = played.make_rules(pool.rules, {})
        seats, teams = (4, True) if pool.seating == "2v2" else (int(pool.seating), False)
        if not len(accounts) == len(names) == len(levels) == seats:
            raise ValueError(f"the pool {pool.name} seats {seats} players")
        for level in levels:
            if not played.fair(level):
                raise ValueError(f"unknown level {level!r}")
        match_seed = self.new_seed()
        table = played.serve(rules, seats, teams, match_seed)
        # The clock is long: a slow thinker on a busy machine must not lose on time.
        life = RoomSettings(rated=True, clock=3600.0)
        return await self._store_room(
            "room", "playing", played, rules, table, match_seed, list[str | None](names),
            [None] * seats, list[str | None](levels), life,
            accounts=list[int | None](accounts),
        )

    async def _store_room(
        self,
        kind: str,
        status: str,
        played: Game[Any],
        rules: Any,
        table: Table,
        match_seed: int,
        names: list[str | None],
        hashes: list[str | None],
        agents: list[str | None],
        life: RoomSettings,
        rematch_of: str | None = None,
        accounts: list[int | None] | None = None,
    ) -> Room:
        """Store a new game under a fresh code and hold it in memory."""
        seats = table.seats
        owners: list[int | None] = list(accounts) if accounts is not None else [None] * seats
        teams = table.teams
        stored_name, stored_options = played.rules_json(rules)
        pool = pool_for(played, rules, seats, teams) if life.rated else None
        if life.rated and pool is None:
            raise ValueError("no rating pool plays these rules at this table")
        for _ in range(10):
            code = new_code()
            if code in self.rooms:
                continue
            stored = StoredGame(
                id=code,
                kind=kind,
                status=status,
                rules=stored_name,
                options=stored_options,
                seats=seats,
                teams=teams,
                seed=match_seed,
                created_at=now(),
                seat_rows=[
                    SeatRow(s, names[s], hashes[s], agents[s], account_id=owners[s])
                    for s in range(seats)
                ],
                rules_version=RULES_VERSION,
                game=played.name,
                settings=life.to_json(),
                rematch_of=rematch_of,
                unlisted=life.unlisted,
                pool=pool.name if pool is not None else None,
            )
            try:
                await self.journal.call(self.store.create_game, stored)
            except Exception:
                # Most likely the code is already a finished game's: draw another.
                if await self.journal.call(self.store.game, code) is None:
                    raise
                continue
            room = Room(
                code, kind, status, match_seed, played, rules, table, names, hashes, agents
            )
            room.settings = life.to_json()
            room.life = life
            room.rematch_of = rematch_of
            room.accounts = owners
            room.away_since = {s: room.idle_since or time.time() for s in range(seats)
                               if room.is_person(s)}
            if self.cluster is None:
                # In a cluster, the worker its players reach loads it (get_room).
                self.rooms[code] = room
                self.schedule_bots(room)
                self.arm(room)
            return room
        raise RuntimeError("could not find a free game code")

    async def get_room(self, game_id: str) -> Room | None:
        """A game by id, loading a finished one from the store if need be.

        A cluster's worker serves an unfinished game it has in memory only while it still
        holds it (asked of the database): one that was paused or cut off may have lost it
        to another worker, which played on. Such a stale game is let go (its clients are
        handed over, 1012) and loaded again, from its current holder.
        """
        code = game_id.strip().upper()
        room = self.rooms.get(code)
        if room is not None and not await self._stale(room):
            return room
        if not is_game_id(code):
            return None
        stored = await self.journal.call(self.store.game, code)
        if stored is None:
            return None
        if self.cluster is not None and stored.status != "finished":
            return await self.adopt(code)
        return room_from_stored(stored)

    async def _stale(self, room: Room) -> bool:
        """Whether ``room`` is a cluster's game this worker no longer holds; if so it has
        been let go (and is no longer in :attr:`rooms`)."""
        cluster = self.cluster
        if cluster is None or room.status == "finished":
            return False
        # The lease's clock first: asking the database is for a lease that may have run out
        # (a worker paused, or cut off, past it).
        if cluster.serving(room.id) or await self.journal.call(cluster.holds, room.id):
            return False
        if room.status == "finished":
            return False  # ended meanwhile (its lock released with its end)
        log.warning("game %s is no longer held here: let go, to be loaded afresh", room.id)
        await self.let_go(room.id, "the game moves to another server", only=room)
        return True

    async def join(self, room: Room, name: str, account: int | None = None) -> tuple[int, str]:
        """Give the next free seat to a person (signed in to ``account``, or a guest);
        return the seat and its token."""
        async with room.lock:
            free = room.free_seats()
            if not free or room.status != "open":
                raise ProtocolError("no_free_seat", "every seat of this game is taken")
            if room.life.rated and account is None:
                raise ProtocolError(
                    "rated_needs_account", "a rated game is between signed-in players: log in"
                )
            if account is not None and room.seat_of_account(account) is not None:
                raise ProtocolError(
                    "already_seated", "your account already holds a seat in this game"
                )
            seat = free[0]
            token = new_token()
            room.names[seat] = name
            room.token_hashes[seat] = token_hash(token)
            if account is not None:
                while len(room.accounts) < room.seats:
                    room.accounts.append(None)
                room.accounts[seat] = account
            # Away until a connection says hello with the token.
            room.away_since[seat] = time.time()
            started = await self._save_seats(room, [seat])
        self.announce_room(room)
        if started:
            self.broadcast(room)
        return seat, token

    async def fill(self, room: Room, level: str) -> None:
        """Give every free seat to the computer at ``level``."""
        if not room.game.fair(level):
            known = ", ".join(room.game.levels())
            raise ProtocolError("unknown_level", f"unknown level {level!r} (known: {known})")
        if room.life.rated:
            raise ProtocolError("rated_no_computer", "a rated game has no computer seat")
        async with room.lock:
            free = room.free_seats()
            if not free:
                raise ProtocolError("no_free_seat", "every seat of this game is taken")
            for s in free:
                room.agents[s] = level
            started = await self._save_seats(room, free)
        self.announce_room(room)
        if started:
            self.broadcast(room)

    async def _save_seats(self, room: Room, changed: list[int]) -> bool:
        """Store the ``changed`` seats (lock held); whether the game started with them: the
        last free seat taken, its followers are then owed a state in which they may move
        (the caller sends it, after the ``room`` message that says so)."""
        started = False
        if not room.free_seats():
            if room.status != "playing":
                room.turn_since = time.time()
                started = True
            room.status = "playing"
        rows = [
            SeatRow(
                s, room.names[s], room.token_hashes[s], room.agents[s],
                account_id=room.account_of(s),
            )
            for s in changed
        ]
        await self.journal.call(self.journal.write_seats, room.id, rows, room.status)
        if room.status == "playing":
            self.schedule_bots(room)
            self.arm(room)
        return started

    # -- connections -----------------------------------------------------------

    async def handle(
        self,
        conn: Conn,
        msg: Hello | PlayMsg | FillMsg | Ping | ResignMsg | RematchMsg | ChatMsg | ChatRoomMsg
        | ReportMsg,
    ) -> None:
        """Act on one validated client message; raise :class:`ProtocolError` to refuse it."""
        if isinstance(msg, Ping):
            reply: dict[str, Any] = {"type": "pong"}
            if msg.id is not None:
                reply["re"] = msg.id
            conn.send(reply)
            return
        if isinstance(msg, Hello):
            await self.hello(conn, msg)
            return
        room = conn.room
        if room is None:
            raise ProtocolError("not_joined", "say hello to a game first")
        if msg.game is not None and msg.game.strip().upper() != room.id:
            raise ProtocolError(
                "wrong_game", f"this connection follows game {room.id}, not {msg.game!r}"
            )
        if isinstance(msg, FillMsg):
            if conn.seat != 0 or room.kind != "room":
                raise ProtocolError("not_creator", "only the room's creator may call the computer")
            await self.fill(room, msg.level)
            return
        if isinstance(msg, ResignMsg):
            await self.resign(conn, room, msg.id)
            return
        if isinstance(msg, RematchMsg):
            await self.offer_rematch(conn, room, msg.id)
            return
        if isinstance(msg, ChatMsg | ChatRoomMsg | ReportMsg):
            await self.chat.handle(conn, room, msg)
            return
        await self.play(conn, room, msg)

    async def hello(self, conn: Conn, msg: Hello) -> None:
        """Attach a connection to a game, as a seat (with its token) or a spectator."""
        room = await self.get_room(msg.game)
        if room is None:
            raise ProtocolError("unknown_game", f"no game {msg.game!r}")
        seat = -1
        if msg.token is not None:
            found = room.seat_of(msg.token)
            if found is None:
                raise ProtocolError("bad_token", f"that token holds no seat of game {room.id}")
            seat = found
        elif conn.account is not None:
            # A signed-in player's seat is theirs on any device: the session says who.
            owned = room.seat_of_account(conn.account)
            seat = -1 if owned is None else owned
        # Read before the connection joins the room (it may wait for the database): no
        # message of the room reaches the connection before its welcome.
        await self.chat.enabled(room)
        self.detach(conn)
        # A finished game loaded twice at once must still be one room.
        room = self.rooms.setdefault(room.id, room)
        if room.chat_on is None:
            await self.chat.enabled(room)
        conn.room = room
        conn.seat = seat
        room.conns.add(conn)
        if seat >= 0:
            conn.token = msg.token
            self.seat_back(room, seat)
        welcome = {"type": "welcome", "game": room.id, "seat": seat, **room.summary()}
        if msg.id is not None:
            welcome["re"] = msg.id
        conn.send(welcome)
        conn.send(room.state(seat))
        if seat >= 0 and room.rematch is not None:
            self.send_rematch(conn, room)
        await self.chat.history(conn, room)
        self.announce_room(room)

    def detach(self, conn: Conn) -> None:
        """Forget a connection (closed, or moving to another game)."""
        room = conn.room
        if room is None:
            return
        room.conns.discard(conn)
        conn.room = None
        if conn.seat is not None and conn.seat >= 0:
            self.seat_gone(room, conn.seat)
            self.announce_room(room)
        conn.seat = None
        if room.status == "finished" and not room.conns and room.bots is None:
            self.rooms.pop(room.id, None)

    def announce_room(self, room: Room) -> None:
        """Tell every follower who holds which seat and who is online."""
        text = json.dumps({"type": "room", **room.summary()}, ensure_ascii=False)
        for c in room.conns:
            c.send_text(text)

    # -- moves -----------------------------------------------------------------

    async def play(self, conn: Conn, room: Room, msg: PlayMsg) -> None:
        """A person's move: checked, stored, applied, announced."""
        seat = conn.seat
        if seat is None or seat < 0:
            raise ProtocolError("spectator", "spectators cannot play: join with a seat token")
        if msg.seat is not None and msg.seat != seat:
            raise ProtocolError(
                "not_your_seat", f"this connection holds seat {seat}, not seat {msg.seat}"
            )
        async with room.lock:
            if msg.ply is not None and msg.ply != room.ply:
                raise ProtocolError(
                    "stale", f"the game is at ply {room.ply}, not {msg.ply}: look again"
                )
            await self.commit(room, seat, msg.move, conn, msg.id)

    async def commit(
        self,
        room: Room,
        seat: int,
        move: str,
        mover: Conn | None = None,
        re: Any = None,
        stand_in: str | None = None,
    ) -> None:
        """Check a move with the engine, store it, apply it and tell everyone (lock held);
        ``stand_in`` says why the computer plays it for a person's seat, if it does."""
        t = room.table
        if room.status == "open":
            raise ProtocolError("not_started", "the game starts when every seat is taken")
        if room.ending is not None:
            raise ProtocolError("game_over", f"the match is over ({room.ending})")
        try:
            text = t.check(seat, move)
        except MoveRefused as e:
            raise ProtocolError(e.code, str(e)) from None
        try:
            await self.journal.append(MoveRow(room.id, room.ply, seat, text, stand_in))
        except Exception:
            raise ProtocolError(
                "server_error", "the move could not be recorded; it was not played"
            ) from None
        t.play(seat, text)
        if stand_in is not None:
            room.stood_in.append((room.ply, seat, stand_in))
        room.moves.append(text)
        room.turn_since = time.time()
        if t.is_over:
            await self._finish(room)
        self.broadcast(room, mover, re)
        self.schedule_bots(room)
        self.arm(room)

    async def _finish(self, room: Room) -> None:
        t = room.table
        room.status = "finished"
        finish = Finish(room.id, t.winner, list(t.totals()), rated=room.rated_end(t.winner))
        await self.journal.call(self.journal.write_moves, [], [finish])
        self._end_engines(room, played_out=True)
        if self.cluster is not None:
            # A finished game takes no more writes: nobody need hold it.
            await self.journal.call(self.cluster.release, room.id)
        self.chat.reveal(room)

    def broadcast(self, room: Room, mover: Conn | None = None, re: Any = None) -> None:
        """Send each follower the state its seat may see."""
        # The last finished round goes out once, as the next one starts.
        full = room.table.fresh()
        by_seat: dict[int, str] = {}
        for c in room.conns:
            seat = c.seat if c.seat is not None else -1
            if c is mover and re is not None:
                c.send(room.state(seat, re, full))
                continue
            text = by_seat.get(seat)
            if text is None:
                text = json.dumps(room.state(seat, None, full), separators=(",", ":"))
                by_seat[seat] = text
            c.send_text(text)

    # -- the computer ------------------------------------------------------------

    def schedule_bots(self, room: Room) -> None:
        """Start the computer's moves if a computer seat is to play (or a person's seat
        has a move to make without being asked)."""
        t = room.table
        if room.bots is not None or room.status != "playing" or t.is_over:
            return
        seat = t.turn
        if room.agents[seat] is None and t.automatic() is None and not self.stands_in(room, seat):
            return
        room.bots = asyncio.create_task(self._run_bots(room))

    async def _run_bots(self, room: Room) -> None:
        t = room.table
        try:
            while not t.is_over and room.status == "playing":
                seat = t.turn
                level = room.agents[seat]
                stand_in = None
                if level is None and self.stands_in(room, seat):
                    level, stand_in = self.stand_in_level(room), room.stand_in[seat]
                if level is None:
                    auto = t.automatic()
                    if auto is None:
                        return
                    async with room.lock:
                        if t.turn == seat and not t.is_over:
                            await self._commit_quietly(room, seat, auto)
                    continue
                if self.settings.bot_delay > 0:
                    await asyncio.sleep(self.settings.bot_delay)
                async with room.lock:
                    if t.turn != seat or t.is_over or room.status != "playing":
                        continue
                    if stand_in is not None and not self.stands_in(room, seat):
                        continue  # its holder came back meanwhile
                    move = await self._choose(room, level, seat)
                    if not await self._commit_quietly(room, seat, move, stand_in):
                        return
        finally:
            room.bots = None
            if room.status == "finished" and not room.conns:
                self.rooms.pop(room.id, None)

    async def _choose(self, room: Room, level: str, seat: int) -> str:
        """The computer's move. A built-in player is made afresh for each move, seeded by
        the game and the ply, so that a restart replays its choice exactly (and making one
        is cheap); an outside engine is a process per seat kept for the whole game
        (:class:`~chkobba.web.engines.RoomEngines`), told its start and its end."""
        t = room.table
        obs = t.observe(seat)
        seed = agent_seed(room.seed, room.ply, seat)
        try:
            # A thinking player may take a while: keep the server answering.
            if RoomEngines.plays(level):
                if room.engines is None:
                    room.engines = RoomEngines(room.game.make_agent, room.seed)
                move = await asyncio.to_thread(room.engines.choose, seat, level, obs)
            else:
                agent = room.game.make_agent(level, seed)
                move = await asyncio.to_thread(agent.choose, obs)
            if move not in obs.legal_moves:
                raise AgentError(f"{level} chose {move}, which is not legal")
        except Exception:
            # A broken player must not stall the game: play on at random.
            log.exception("game %s: the %s player failed", room.id, level)
            move = room.game.make_agent("random", seed).choose(obs)
        return str(move)

    def _end_engines(self, room: Room, played_out: bool | None) -> None:
        """Tell the room's engines that the game ended, ``played_out`` or not (resigned,
        abandoned), and stop them; None: only stop them (the room is let go, the server
        stops). On threads beside the caller: an engine has a second to exit."""
        engines = room.engines
        if engines is None or engines.closed:
            return
        # No new engine move from now on, even one already on its way to a thread.
        engines.closed = True
        if played_out is None:
            self.later(asyncio.to_thread(engines.close))
            return
        t = room.table
        observations = {s: t.observe(s) for s in engines.seats}
        self.later(asyncio.to_thread(engines.finish, observations, played_out))

    async def _commit_quietly(
        self, room: Room, seat: int, move: str, stand_in: str | None = None
    ) -> bool:
        """Commit a move nobody asked for over the WebSocket; False (logged) if refused."""
        try:
            # commit() sees this task in room.bots and does not start another.
            await self.commit(room, seat, move, stand_in=stand_in)
        except ProtocolError as e:
            log.error("computer move %s refused in game %s: %s", move, room.id, e)
            if e.code == "server_error" and not isinstance(e, Busy):
                # The database did not take it: nobody else will ask for this move, so
                # without another try the game would wait for ever.
                self.later(self._bots_again(room))
            return False
        return True

    async def _bots_again(self, room: Room) -> None:
        """The computer's turn again, a moment after the database refused its move."""
        await asyncio.sleep(self.settings.retry_after)
        if self.rooms.get(room.id) is room and room.status == "playing" and room.bots is None:
            self.schedule_bots(room)

    # -- the game's life: away seats, the turn clock, abandonment, resign, rematch ------

    async def resumable(self) -> list[StoredGame]:
        """The stored games to resume; those abandoned while the server was down are marked
        so in the store without being replayed (their moves are not even read)."""
        at = time.time()

        def expired(g: StoredGame) -> bool:
            life = RoomSettings.stored(g.settings, g.kind)
            return quiet_since(g) + life.abandon_after <= at

        stored, gone = await self.journal.call(self.store.resumable_games, expired)
        self.abandoned_at_start = len(gone)
        if gone:
            log.info("%d game(s) abandoned while the server was down", len(gone))
        return stored

    def later(self, coro: Any) -> None:
        """Run ``coro`` beside the caller, keeping hold of it until it is done."""
        task = asyncio.create_task(coro)
        self.chores.add(task)
        task.add_done_callback(self.chores.discard)

    def stands_in(self, room: Room, seat: int) -> bool:
        """Whether the computer plays for ``seat`` now: its holder is away past the grace
        period and someone is there to wait for it (with nobody connected, the game waits)."""
        return seat in room.stand_in and room.idle_since is None

    def stand_in_level(self, room: Room) -> str:
        """The computer player that stands in for a person: the room's own, if it has one."""
        level = next((a for a in room.agents if a is not None), None)
        return level if level is not None else room.game.default_level()

    def deadline(self, room: Room) -> float | None:
        """When the room's next timer is due (seconds since the epoch), or None."""
        if room.status == "finished" or room.ending is not None:
            return None
        life = room.life
        t = room.table
        if life.rated and life.clock is not None:
            # A rated game: nobody stands in for an absent player, whose clock runs on
            # (connected or not) until they move or lose on time.
            times = [] if room.idle_since is None else [room.idle_since + life.abandon_after]
            if room.status == "playing" and not t.is_over and t.automatic() is None:
                times.append(room.turn_since + life.clock)
            return min(times) if times else None
        if room.idle_since is not None:
            return room.idle_since + life.abandon_after
        if room.status != "playing" or t.is_over or t.automatic() is not None:
            return None
        seat = t.turn
        if not room.is_person(seat) or seat in room.stand_in:
            return None
        due: list[float] = []
        away = room.away_since.get(seat)
        if away is not None:
            due.append(max(away, room.turn_since) + life.grace)
        if life.clock is not None:
            due.append(room.turn_since + life.clock)
        return min(due) if due else None

    def arm(self, room: Room) -> None:
        """Set the room's one timer to its next deadline (after anything that moves one)."""
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        due = self.deadline(room)
        if due is None:
            return
        delay = max(0.0, due - time.time())
        room.timer = asyncio.get_running_loop().call_later(delay, self._due, room)

    def _due(self, room: Room) -> None:
        room.timer = None
        self.later(self.on_time(room))

    async def on_time(self, room: Room) -> None:
        """Act on the room's deadline: abandon it, stand in for an away seat, or play the
        move of a seat out of time on the clock."""
        due = self.deadline(room)
        if due is None:
            return
        if due > time.time() + 0.001:
            self.arm(room)  # moved on since the timer was set
            return
        t = room.table
        if room.life.rated and room.life.clock is not None:
            if room.turn_since + room.life.clock <= due + 0.001 and room.status == "playing":
                await self.out_of_time(room, t.turn, due)
            else:
                await self.abandon(room)
            return
        if room.idle_since is not None:
            await self.abandon(room)
            return
        seat = t.turn
        away = room.away_since.get(seat)
        if away is not None and max(away, room.turn_since) + room.life.grace <= due + 0.001:
            room.stand_in[seat] = "away"
            self.announce_room(room)
            self.schedule_bots(room)
            return
        async with room.lock:
            if self.deadline(room) != due or t.turn != seat:
                self.arm(room)
                return
            move = await self._choose(room, self.stand_in_level(room), seat)
            if not await self._commit_quietly(room, seat, move, "clock"):
                self.arm(room)

    def seat_back(self, room: Room, seat: int) -> None:
        """A seat's holder is connected: the seat is theirs again, and someone is here."""
        room.away_since.pop(seat, None)
        took_back = room.stand_in.pop(seat, None) is not None
        room.idle_since = None
        self.later(self._seen(room, [seat]))
        if took_back or room.bots is None:
            self.schedule_bots(room)
        self.arm(room)

    def seat_gone(self, room: Room, seat: int) -> None:
        """A connection of a seat closed: the seat is away if it was its last one."""
        if room.status == "finished" or any(c.seat == seat for c in room.conns):
            return
        at = time.time()
        room.away_since[seat] = at
        self.later(self._seen(room, [seat]))
        if not any(c.seat is not None and c.seat >= 0 for c in room.conns):
            room.idle_since = at
        self.arm(room)

    async def _seen(self, room: Room, seats_seen: list[int]) -> None:
        if room.status == "finished":
            return  # only an unfinished game's timers read it (and nobody holds a finished one)
        try:
            await self.journal.call(self.journal.write_seen, room.id, seats_seen, now())
        except NotOwner:
            log.info("game %s is no longer held here: who was seen is not noted", room.id)
        except Exception:
            # Only the timers after a restart depend on it: not worth failing a game for.
            log.exception("could not note who was seen in game %s", room.id)

    async def end_early(self, room: Room, finish: Finish) -> None:
        """End a game that was not played out (lock held): stored, then announced."""
        # Fenced like the moves in a cluster: a worker that lost the game cannot end it.
        await self.journal.call(self.journal.write_moves, [], [finish])
        # Finished before its lock is released: a finished game is nobody's to hold.
        room.status = "finished"
        room.ending = finish.ending
        room.resigned = finish.resigned
        room.final_winner = finish.winner
        if self.cluster is not None:
            await self.journal.call(self.cluster.release, room.id)
        room.stand_in.clear()
        self._end_engines(room, played_out=False)
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        self.broadcast(room)
        self.announce_room(room)
        self.chat.reveal(room)

    async def resign(self, conn: Conn, room: Room, re: Any = None) -> None:
        """A seat's holder concedes the match for their side."""
        seat = conn.seat
        if seat is None or seat < 0:
            raise ProtocolError("spectator", "spectators cannot resign: join with a seat token")
        async with room.lock:
            if room.status != "playing" or room.ending is not None or room.table.is_over:
                raise ProtocolError("not_playing", "only a game in play can be resigned")
            side = await self.side_loses(room, seat, "resigned")
        reply: dict[str, Any] = {"type": "resigned", "game": room.id, "side": side}
        if re is not None:
            reply["re"] = re
        conn.send(reply)

    async def side_loses(self, room: Room, seat: int, ending: str) -> int:
        """End ``room`` early, ``seat``'s side losing (``ending``: ``resigned`` or
        ``timeout``), under the room's lock; return that side. With two sides the other
        wins; with more none is named (a rated game ranks the others by points)."""
        t = room.table
        side = t.side_of[seat]
        sides = sorted(set(t.side_of))
        winner = next(s for s in sides if s != side) if len(sides) == 2 else None
        await self.end_early(
            room,
            Finish(
                room.id, winner, list(t.totals()), ending, side,
                rated=room.rated_end(winner, side),
            ),
        )
        return side

    async def out_of_time(self, room: Room, seat: int, due: float) -> None:
        """A rated game's seat to move ran out of time: its side loses the game."""
        async with room.lock:
            if self.deadline(room) != due or room.table.turn != seat or room.status != "playing":
                self.arm(room)
                return
            await self.side_loses(room, seat, "timeout")
        log.info("game %s: seat %d lost on time", room.id, seat)

    async def abandon(self, room: Room) -> None:
        """End a game nobody came back to as abandoned; it is kept as finished."""
        async with room.lock:
            if room.status == "finished":
                return
            totals = list(room.table.totals())
            await self.end_early(room, Finish(room.id, None, totals, "abandoned"))
        log.info("game %s abandoned", room.id)
        if not room.conns and room.bots is None:
            self.rooms.pop(room.id, None)

    async def offer_rematch(self, conn: Conn, room: Room, re: Any = None) -> None:
        """A seat's holder offers (or accepts) a rematch: once every person has, it starts:
        same seats, a new shuffle, linked from this game."""
        seat = conn.seat
        if seat is None or seat < 0:
            raise ProtocolError("spectator", "spectators cannot ask for a rematch")
        if room.status != "finished":
            raise ProtocolError("not_finished", "a rematch is offered once the game is over")
        if room.free_seats():
            # A room abandoned before every seat was taken: its rematch would start with a
            # seat nobody can take any more.
            raise ProtocolError("no_rematch", "this game ended before every seat was taken")
        created = False
        async with room.lock:
            if room.rematch is None:
                if conn.token is not None:
                    room.rematch_accepted[seat] = token_hash(rematch_token(conn.token, room.id))
                else:
                    # Seated by the account alone: the rematch's seat is the account's too,
                    # reached by its session; its token is one nobody holds.
                    room.rematch_accepted.setdefault(seat, token_hash(new_token()))
                people = [s for s in range(room.seats) if room.token_hashes[s] is not None]
                if all(s in room.rematch_accepted for s in people):
                    created = await self._rematch(room)
        if re is not None:
            conn.send({"type": "rematch_offered", "game": room.id, "re": re})
        self.announce_room(room)
        if room.rematch is not None:
            for c in list(room.conns) if created else [conn]:
                if c.seat is not None and c.seat >= 0:
                    self.send_rematch(c, room)

    async def _rematch(self, room: Room) -> bool:
        """Make and link the rematch of a finished game (lock held); whether this call made
        it. A cluster worker holds the game's lock meanwhile, so that two workers showing
        the game never both make one: the second finds the first's."""
        cluster = self.cluster
        if cluster is not None and not await self.journal.call(cluster.try_own, room.id):
            raise Busy(room.id)
        try:
            if cluster is not None:
                stored = await self.journal.call(self.store.game, room.id)
                if stored is not None and stored.rematch is not None:
                    room.rematch = stored.rematch
                    return False
            new = await self._open_rematch(room)
            standing = await self.journal.call(self.journal.write_rematch, room.id, new.id)
            room.rematch = standing
            if standing != new.id:
                # Linked meanwhile by another way in: the new game, never joined, is left
                # to be abandoned like any game nobody comes to.
                log.warning("game %s already had its rematch %s; %s unused", room.id,
                            standing, new.id)
            return standing == new.id
        finally:
            if cluster is not None:
                await self.journal.call(cluster.release, room.id)

    async def _open_rematch(self, room: Room) -> Room:
        t = room.table
        match_seed = self.new_seed()
        table = room.game.serve(room.rules, t.seats, t.teams, match_seed)
        hashes = [room.rematch_accepted.get(s) for s in range(t.seats)]
        return await self._store_room(
            room.kind,
            "playing",
            room.game,
            room.rules,
            table,
            match_seed,
            list(room.names),
            hashes,
            list(room.agents),
            room.life,
            rematch_of=room.id,
            accounts=[room.account_of(s) for s in range(t.seats)],
        )

    def send_rematch(self, conn: Conn, room: Room) -> None:
        """Give a seat's holder their seat in the rematch: its game and token (null for a
        connection seated by its account alone, which its session seats again)."""
        assert room.rematch is not None and conn.seat is not None
        token = None if conn.token is None else rematch_token(conn.token, room.id)
        conn.send(
            {
                "type": "rematch",
                "game": room.rematch,
                "seat": conn.seat,
                "token": token,
                "url": f"{room.game.page}/{room.rematch}",
            }
        )

    # -- a cluster of workers (web/cluster.py) -----------------------------------

    async def _start_cluster(self) -> None:
        assert self.cluster is not None
        loop = asyncio.get_running_loop()

        def let_go_soon(code: str) -> None:
            def now() -> None:
                # Only the room lost: not one loaded afresh by the time this runs.
                room = self.rooms.get(code)
                if room is not None:
                    self.later(self.let_go(code, only=room))

            loop.call_soon_threadsafe(now)

        def asked(code: str) -> None:
            # On the listener's thread: another worker wants this game.
            let_go_soon(code)

        def lost(codes: set[str]) -> None:
            # On the journal's thread: games whose lock is gone (all, with the session).
            for code in codes:
                let_go_soon(code)

        self.cluster.on_lost = lost
        self.cluster.listen(asked)
        self.chat.start_relay(self.cluster.worker)
        self.cluster.start_renewing()
        self.scanner = asyncio.create_task(self._scan_loop())

    async def _stop_cluster(self) -> None:
        if self.scanner is not None:
            self.scanner.cancel()
        self.chat.stop_relay()
        # A rolling restart: hand every game back, its clients told to come again.
        await self.let_go_all()
        assert self.cluster is not None
        await self.journal.call(self.cluster.close)

    async def adopt(self, code: str) -> Room:
        """Hold an unfinished game and load it from the database, asking its holder (if
        any) to let it go; raise :class:`ProtocolError` if it stays held elsewhere."""
        cluster = self.cluster
        assert cluster is not None
        async with self._gate(code):
            room = self.rooms.get(code)
            if room is not None:
                return room
            deadline = time.monotonic() + self.settings.adopt_seconds
            while not await self.journal.call(cluster.try_own, code):
                if time.monotonic() > deadline:
                    raise Busy(code)
                await self.journal.call(cluster.ask, code)
                await asyncio.sleep(0.1)
            try:
                # Read after taking the lock: the last holder's moves are all stored. Not
                # on the journal's thread: a worker taking over many games at once must
                # not hold up the moves of the others.
                stored = await asyncio.to_thread(self.store.game, code)
                if stored is None:
                    raise ProtocolError("unknown_game", f"no game {code!r}")
                room = room_from_stored(stored)
            except BaseException:
                await self.journal.call(cluster.release, code)
                raise
            self.rooms[code] = room
            if room.table.is_over and room.status != "finished":
                await self._finish(room)
            self.schedule_bots(room)
            # The room's timers (away seats, the clock) count from the stored times.
            self.arm(room)
            self.adopted += 1
            for told in self.on_adopted:
                told()
            return room

    async def _scan_loop(self) -> None:
        while True:
            try:
                await self.scan_abandoned()
            except Exception:
                log.exception("looking for abandoned games failed; again later")
            await asyncio.sleep(self.settings.scan_every)

    async def scan_abandoned(self) -> list[str]:
        """End as abandoned the unfinished games nobody has come back to for their
        ``abandon_after`` and no worker holds (a held game's own timer ends it); return
        their ids. A single server does this at start-up (:meth:`resumable`); a cluster's
        workers load games only when asked for them, so each looks now and then. A game
        is ended by the worker that takes its lock, loaded and checked again first."""
        assert self.cluster is not None
        at = time.time()
        ended: list[str] = []
        for g in await self.journal.call(self.store.quiet_games):
            life = RoomSettings.stored(g.settings, g.kind)
            if g.id in self.rooms or quiet_since(g) + life.abandon_after > at:
                continue
            room = await self._take_if_free(g.id)
            if room is None:
                continue
            try:
                idle = room.idle_since
                if idle is not None and idle + room.life.abandon_after <= time.time():
                    await self.abandon(room)
                    ended.append(room.id)
                else:
                    self.schedule_bots(room)
                    self.arm(room)
            except Exception:
                log.exception("game %s could not be ended as abandoned", g.id)
                await self.let_go(g.id, "the server could not end the game")
        if ended:
            log.info("%d game(s) nobody held were abandoned", len(ended))
        return ended

    async def _take_if_free(self, code: str) -> Room | None:
        """Hold and load an unfinished game if no worker holds it (none is asked to let it
        go); None if one does, or it is finished or cannot be replayed."""
        cluster = self.cluster
        assert cluster is not None
        async with self._gate(code):
            if code in self.rooms or not await self.journal.call(cluster.try_own, code):
                return None
            try:
                # Read after taking the lock: the last holder's writes are all stored.
                stored = await asyncio.to_thread(self.store.game, code)
                room = None if stored is None else room_from_stored(stored)
            except (RulesError, ValueError) as e:
                log.error("game %s cannot be replayed, left aside: %s", code, e)
                room = None
            except BaseException:
                await self.journal.call(cluster.release, code)
                raise
            if room is None or room.status == "finished":
                await self.journal.call(cluster.release, code)
                return None
            self.rooms[code] = room
            if room.table.is_over:
                # The last holder stopped between the last move and the game's end.
                await self._finish(room)
                self.rooms.pop(code, None)
                return None
            return room

    async def let_go(
        self, code: str, reason: str = "the game moves to another server", only: Room | None = None
    ) -> None:
        """Stop holding a game: its computer players stop, its clients are told to come
        back (1012, they reconnect through the balancer), then its lock is released.
        With ``only``, only if the game in memory is still that room."""
        async with self._gate(code):
            if only is not None and self.rooms.get(code) is not only:
                return
            room = self.rooms.pop(code, None)
            if room is None or self.cluster is None:
                return
            await self._let_go(room, reason)

    async def _let_go(self, room: Room, reason: str) -> None:
        assert self.cluster is not None
        code = room.id
        if room.bots is not None:
            room.bots.cancel()
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        self._end_engines(room, played_out=None)
        async with room.lock:
            # No move is half-written past this point: the next holder reads them all.
            for c in list(room.conns):
                c.close(1012, reason)
                c.room = None
            room.conns.clear()
            await self.journal.call(self.cluster.release, code)

    async def live_summaries(self, status: str, limit: int) -> list[dict[str, Any]]:
        """The lobby's list of ``open`` or ``playing`` games of every worker, from the
        database; the games held here say who is online."""
        out = []
        for g in await self.journal.call(self.store.live_games, status, limit):
            room = self.rooms.get(g.id)
            if room is None:
                try:
                    room = room_from_stored(g)
                except (RulesError, ValueError):
                    continue
            # Unlisted rooms open only by their link or code.
            if not room.life.unlisted:
                out.append(room.summary())
        return out

    def _gate(self, code: str) -> asyncio.Lock:
        # Adopting and letting go of one game never overlap.
        gate = self._adopting.get(code)
        if gate is None:
            gate = self._adopting[code] = asyncio.Lock()
        return gate

    async def let_go_all(self) -> None:
        """Let every held game go (shutting down, or the database session lost)."""
        await asyncio.gather(
            *(self.let_go(code, "the server restarts") for code in list(self.rooms)),
            return_exceptions=True,
        )
