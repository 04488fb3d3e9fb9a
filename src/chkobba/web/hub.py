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
import gc
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from chkobba.agents.base import AgentError
from chkobba.games import Game, MoveRefused, Table, game, replay
from chkobba.match import Match
from chkobba.rules import RULES_VERSION, RulesError
from chkobba.store import Finish, MoveRow, SeatRow, Store, StoredGame
from chkobba.store.store import now
from chkobba.web.protocol import (
    FillMsg,
    Hello,
    Ping,
    PlayMsg,
    ProtocolError,
    players_json,
)

log = logging.getLogger("chkobba.web")

T = TypeVar("T")

CODE_ALPHABET: Final = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""Game codes avoid letters and digits that look alike (0/O, 1/I/L)."""
CODE_LENGTH: Final = 6
MAX_NAME: Final = 24
OUTBOX_LIMIT: Final = 256
"""Messages queued for one slow connection before it is dropped."""


def new_code() -> str:
    """A fresh short game code, such as ``K7QX2M``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


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


def is_game_id(code: str) -> bool:
    """Whether ``code`` can be a game's id: a code of :func:`new_code`, or the id of a
    Touti game stored before every game shared one table (8 hexadecimal digits)."""
    if len(code) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in code):
        return True
    return len(code) == 8 and all(ch in "0123456789ABCDEF" for ch in code)


def agent_seed(game_seed: int, ply: int, seat: int) -> int:
    """The seed of the computer's choice at one ply: a restart replays it exactly."""
    return (game_seed * 1_000_003 + ply * 131 + seat) % (1 << 62)


class RateLimiter:
    """A token bucket: ``rate`` messages a second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        """Take one token if there is one."""
        t = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (t - self.stamp) * self.rate)
        self.stamp = t
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Conn:
    """One WebSocket connection: the game it follows, its seat, its outgoing queue."""

    def __init__(self, send: Callable[[str], Any], rate: float, burst: float) -> None:
        self._send = send
        self.room: Room | None = None
        self.seat: int | None = None
        """The seat played through this connection; -1 when spectating."""
        self.limiter = RateLimiter(rate, burst)
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
    """The room's settings (stored with the game): room for what rooms will offer
    (private rooms, turn clocks); empty today."""

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

    def summary(self) -> dict[str, Any]:
        """What the lobby and the ``room`` message show of this game."""
        t = self.table
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
            "players": players_json(self.names, self.agents, self.online()),
            "totals": list(t.totals()),
            "winner": t.winner,
            "ply": self.ply,
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
    return Room(
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
    )


class Journal:
    """The store on a thread of its own; moves from many games share one transaction."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="chkobba-store")
        self.pending: list[tuple[MoveRow, asyncio.Future[None]]] = []
        self.flusher: asyncio.Task[None] | None = None
        self.batches = 0

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
                    await self.call(self.store.append_moves, [row for row, _ in batch])
                except Exception:
                    # One bad row must not fail the moves of other games: retry alone.
                    for row, fut in batch:
                        try:
                            await self.call(self.store.append_moves, [row])
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
    rate: float = 20.0
    """Messages per second each connection may send."""
    burst: float = 40.0
    max_refusals: int = 50
    """Messages refused for the rate limit before the connection is closed."""
    tune_gc: bool = False
    """Tune the garbage collector for a long-running server (set by ``chkobba serve``)."""


class Hub:
    """Every live game of the server."""

    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.journal = Journal(store)
        self.rooms: dict[str, Room] = {}
        self.ready = False
        self.checkpoints: asyncio.Task[None] | None = None

    # -- life cycle ------------------------------------------------------------

    async def start(self) -> None:
        """Migrate the database and resume every unfinished game."""
        await self.journal.call(self.store.migrate)
        stored = await self.journal.call(self.store.unfinished_games)
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
        for room in self.rooms.values():
            if room.bots is not None:
                room.bots.cancel()
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
    ) -> tuple[Room, str]:
        """A new game, its creator in seat 0; return the room and the creator's token.

        ``kind`` is ``computer`` (every other seat played by ``level``) or ``room``
        (other seats wait for people, or for the computer on request; ``computers``
        may give some of them a computer player at once, by seat). The game is
        ``game_name`` with the rules ``rules_name`` (the game's default if None),
        ``options`` changed and ``target``. Bad values are ``ValueError``s in one line.
        """
        if kind not in ("computer", "room"):
            raise ValueError("mode must be 'computer' or 'room'")
        played = game(game_name)
        rules = played.make_rules(rules_name, {**(options or {})})
        if target is not None:
            if target not in played.targets(rules):
                known = ", ".join(str(t) for t in played.targets(rules))
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
        stored_name, stored_options = played.rules_json(rules)
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
                seat_rows=[SeatRow(s, names[s], hashes[s], agents[s]) for s in range(seats)],
                rules_version=RULES_VERSION,
                game=played.name,
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
            self.rooms[code] = room
            self.schedule_bots(room)
            return room, token
        raise RuntimeError("could not find a free game code")

    async def get_room(self, game_id: str) -> Room | None:
        """A game by id, loading a finished one from the store if need be."""
        code = game_id.strip().upper()
        room = self.rooms.get(code)
        if room is not None:
            return room
        if not is_game_id(code):
            return None
        stored = await self.journal.call(self.store.game, code)
        if stored is None:
            return None
        return room_from_stored(stored)

    async def join(self, room: Room, name: str) -> tuple[int, str]:
        """Give the next free seat to a person; return the seat and its token."""
        async with room.lock:
            free = room.free_seats()
            if not free or room.status != "open":
                raise ProtocolError("no_free_seat", "every seat of this game is taken")
            seat = free[0]
            token = new_token()
            room.names[seat] = name
            room.token_hashes[seat] = token_hash(token)
            await self._save_seats(room, [seat])
        self.announce_room(room)
        return seat, token

    async def fill(self, room: Room, level: str) -> None:
        """Give every free seat to the computer at ``level``."""
        if not room.game.fair(level):
            known = ", ".join(room.game.levels())
            raise ProtocolError("unknown_level", f"unknown level {level!r} (known: {known})")
        async with room.lock:
            free = room.free_seats()
            if not free:
                raise ProtocolError("no_free_seat", "every seat of this game is taken")
            for s in free:
                room.agents[s] = level
            await self._save_seats(room, free)
        self.announce_room(room)

    async def _save_seats(self, room: Room, changed: list[int]) -> None:
        if not room.free_seats():
            room.status = "playing"
        rows = [SeatRow(s, room.names[s], room.token_hashes[s], room.agents[s]) for s in changed]
        await self.journal.call(self.store.update_seats, room.id, rows, room.status)
        if room.status == "playing":
            self.schedule_bots(room)

    # -- connections -----------------------------------------------------------

    async def handle(self, conn: Conn, msg: Hello | PlayMsg | FillMsg | Ping) -> None:
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
        self.detach(conn)
        # A finished game loaded twice at once must still be one room.
        room = self.rooms.setdefault(room.id, room)
        conn.room = room
        conn.seat = seat
        room.conns.add(conn)
        welcome = {"type": "welcome", "game": room.id, "seat": seat, **room.summary()}
        if msg.id is not None:
            welcome["re"] = msg.id
        conn.send(welcome)
        conn.send(room.state(seat))
        self.announce_room(room)

    def detach(self, conn: Conn) -> None:
        """Forget a connection (closed, or moving to another game)."""
        room = conn.room
        if room is None:
            return
        room.conns.discard(conn)
        conn.room = None
        if conn.seat is not None and conn.seat >= 0:
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
        self, room: Room, seat: int, move: str, mover: Conn | None = None, re: Any = None
    ) -> None:
        """Check a move with the engine, store it, apply it and tell everyone (lock held)."""
        t = room.table
        if room.status == "open":
            raise ProtocolError("not_started", "the game starts when every seat is taken")
        try:
            text = t.check(seat, move)
        except MoveRefused as e:
            raise ProtocolError(e.code, str(e)) from None
        try:
            await self.journal.append(MoveRow(room.id, room.ply, seat, text))
        except Exception:
            raise ProtocolError(
                "server_error", "the move could not be recorded; it was not played"
            ) from None
        t.play(seat, text)
        room.moves.append(text)
        if t.is_over:
            await self._finish(room)
        self.broadcast(room, mover, re)
        self.schedule_bots(room)

    async def _finish(self, room: Room) -> None:
        t = room.table
        room.status = "finished"
        finish = Finish(room.id, t.winner, list(t.totals()))
        await self.journal.call(self.store.append_moves, [], [finish])

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
        if room.agents[t.turn] is None and t.automatic() is None:
            return
        room.bots = asyncio.create_task(self._run_bots(room))

    async def _run_bots(self, room: Room) -> None:
        t = room.table
        try:
            while not t.is_over:
                seat = t.turn
                level = room.agents[seat]
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
                    if t.turn != seat or t.is_over:
                        continue
                    move = await self._choose(room, level, seat)
                    if not await self._commit_quietly(room, seat, move):
                        return
        finally:
            room.bots = None
            if room.status == "finished" and not room.conns:
                self.rooms.pop(room.id, None)

    async def _choose(self, room: Room, level: str, seat: int) -> str:
        """The computer's move, seeded by the game and the ply: a restart replays it."""
        t = room.table
        obs = t.observe(seat)
        seed = agent_seed(room.seed, room.ply, seat)
        try:
            agent = room.game.make_agent(level, seed)
            # A thinking player may take a while: keep the server answering.
            move = await asyncio.to_thread(agent.choose, obs)
            if move not in obs.legal_moves:
                raise AgentError(f"{level} chose {move}, which is not legal")
        except Exception:
            # A broken player must not stall the game: play on at random.
            log.exception("game %s: the %s player failed", room.id, level)
            move = room.game.make_agent("random", seed).choose(obs)
        return str(move)

    async def _commit_quietly(self, room: Room, seat: int, move: str) -> bool:
        """Commit a move nobody asked for over the WebSocket; False (logged) if refused."""
        try:
            # commit() sees this task in room.bots and does not start another.
            await self.commit(room, seat, move)
        except ProtocolError as e:
            log.error("computer move %s refused in game %s: %s", move, room.id, e)
            return False
        return True
