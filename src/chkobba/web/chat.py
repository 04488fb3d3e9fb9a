"""Talking at the table: each room's chat (docs/protocol.md, "Chat"; docs/play.md).

Two channels per room. The players' channel is written and read by the seats' holders;
the spectators' by the spectators; while the game is played neither sees the other's
(as on Lichess: a player cannot be coached, or needled, from the stands). Once the game
is over everyone in the room reads both, each message marked with its channel, and each
still writes on their own.

At a table of partners (2 against 2) the players may not tell each other their cards:
until the game ends a player sends only the quick phrases, which say nothing of a hand,
unless the room's creator chose otherwise for a casual room (``team_talk`` ``free``,
web/life.py; never in a rated game). The spectators' channel is not concerned.

A seat's holder chats under the seat's name (a signed-in player's is their account's; a
guest's, the name they typed to take the seat). A spectator chats only when signed in,
under the account's name: a guest watching reads the spectators' channel but cannot
write in it, since nobody could tell one anonymous spectator from another to report or
silence them.

Messages go to the followers of the room held by this worker: a game in play is served
only by the worker that owns it (web/cluster.py), so every player and spectator of it
is connected here and chat goes through the owner, as moves do. A finished game is held
by nobody, and two workers may each show it to followers of their own: there, each
message (and the creator's switch) is also announced to the other workers with a
PostgreSQL ``NOTIFY`` on :data:`CHANNEL` (:class:`Relay`), and each hands it to its own
followers. Every message is stored (chkobba.store.chat) before it is sent, so that a
silenced account is refused on every worker at once and a moderator can read what was
reported.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import text

from chkobba.store.chat import ChatRow, ChatStore, Silenced
from chkobba.web.bucket import RateLimiter
from chkobba.web.listen import Listener
from chkobba.web.protocol import ChatMsg, ChatRoomMsg, ProtocolError, ReportMsg

if TYPE_CHECKING:
    from chkobba.store import Store
    from chkobba.web.hub import Conn, Hub, Room

log = logging.getLogger("chkobba.web")

PLAYERS: Final = "players"
SPECTATORS: Final = "spectators"
CHANNEL: Final = "chkobba_chat"
"""The ``NOTIFY`` channel on which a cluster's workers pass each other the chat."""
HISTORY: Final = 100
"""Messages of the past sent to a connection that says hello (per room, newest kept)."""


def default_on(kind: str, agents: list[str | None]) -> bool:
    """Whether a room's chat is on when its creator never said: off against the computer
    (nobody to talk to but spectators), whether the game was made as such or as a room
    whose every other seat the computer took at once (Touti's page makes those); on
    between people."""
    return kind != "computer" and not all(a is not None for a in agents[1:])


def channel_of(seat: int) -> str:
    """The channel a connection writes on: its seat's holders', or the spectators'."""
    return PLAYERS if seat >= 0 else SPECTATORS


def readable(seat: int, finished: bool) -> tuple[str, ...]:
    """The channels a connection reads: its own, and once the game is over both."""
    if finished:
        return (PLAYERS, SPECTATORS)
    return (channel_of(seat),)


def phrases_only(room: Room, seat: int) -> bool:
    """Whether ``seat`` may send only quick phrases now: a player (not a spectator) at a
    table of partners whose room keeps to phrases, until the game is over (the cards
    are dealt from the room's creation, so also while it waits for its players)."""
    return (
        seat >= 0
        and room.table.teams
        and room.status != "finished"
        and room.life.team_talk == "phrases"
    )


def message_json(row: ChatRow, account: bool) -> dict[str, Any]:
    """A ``chat`` message as the server sends it (docs/protocol.md, "Chat")."""
    out: dict[str, Any] = {
        "type": "chat",
        "game": row.game_id,
        "message": row.id,
        "channel": row.channel,
        "seat": row.seat,
        "name": row.name,
        "account": account,
        "at": row.at.astimezone(dt.UTC).isoformat(),
    }
    if row.phrase is not None:
        out["phrase"] = row.phrase
    else:
        out["text"] = row.text
    return out


class Relay:
    """The chat between the workers of a cluster: :meth:`tell` announces a message (or a
    room's switch) with ``NOTIFY``; a thread listening on :data:`CHANNEL` hands each
    announcement of another worker to ``on_news`` (called on that thread)."""

    def __init__(self, store: Store, worker: str, on_news: Callable[[str, str, str], None]):
        self.store = store
        self.worker = worker
        self.on_news = on_news
        self._listener: Listener | None = None

    def tell(self, kind: str, game: str, value: str) -> None:
        """Announce ``kind`` (``message``: its number; ``switch``: ``on``/``off``) of a
        game to the other workers (blocks: call it on the journal's thread)."""
        payload = f"{self.worker}\t{kind}\t{game}\t{value}"
        with self.store.engine.begin() as conn:
            conn.execute(text("SELECT pg_notify(:ch, :p)"), {"ch": CHANNEL, "p": payload})

    def start(self) -> None:
        """Listen, on a thread of its own (reconnecting after a failure)."""
        from chkobba.web.cluster import libpq_url

        self._listener = Listener(libpq_url(self.store.url), CHANNEL, self._heard,
                                  name="chkobba-chat", what="the chat of other workers")
        self._listener.start()

    def _heard(self, payload: str) -> None:
        parts = payload.split("\t")
        if len(parts) == 4 and parts[0] != self.worker:
            self.on_news(parts[1], parts[2], parts[3])

    def stop(self) -> None:
        """Stop listening."""
        if self._listener is not None:
            self._listener.stop()


class TableChat:
    """The chat of every room of one hub."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = ChatStore(hub.store.engine)
        self.relay: Relay | None = None
        """In a cluster, the chat passed between the workers."""

    def start_relay(self, worker: str) -> None:
        """A cluster's worker: pass the chat to the other workers, and theirs to this
        one's followers."""
        loop = asyncio.get_running_loop()

        def news(kind: str, game: str, value: str) -> None:
            # On the relay's thread: the rest happens on the server's loop.
            loop.call_soon_threadsafe(lambda: self.hub.later(self._relayed(kind, game, value)))

        self.relay = Relay(self.hub.store, worker, news)
        self.relay.start()

    def stop_relay(self) -> None:
        """Stop passing the chat between workers."""
        if self.relay is not None:
            self.relay.stop()

    async def _tell(self, kind: str, game: str, value: str) -> None:
        if self.relay is None:
            return
        try:
            await self._db(self.relay.tell, kind, game, value)
        except Exception:
            # The message is stored and sent here; the other workers' followers get it
            # with the history when they come back.
            log.exception("could not pass a chat message to the other workers")

    async def _relayed(self, kind: str, game: str, value: str) -> None:
        """Another worker's news of a game this worker may be showing to followers."""
        room = self.hub.rooms.get(game)
        if room is None or not room.conns:
            return
        if kind == "switch":
            room.chat_on = value == "on"
            note = {"type": "chat_room", "game": room.id, "on": room.chat_on}
            for c in list(room.conns):
                c.send(note)
            self.hub.announce_room(room)
            return
        row: ChatRow | None = await self._db(self.store.message, int(value))
        if row is None:
            return
        self._deliver(room, row)

    def _deliver(
        self, room: Room, row: ChatRow, sender: Conn | None = None, re: Any = None
    ) -> None:
        """Send a message to every follower of the room here who reads its channel (the
        sender's copy answering its request ``re``)."""
        out = message_json(row, row.account_id is not None)
        finished = room.status == "finished"
        for c in list(room.conns):
            if row.channel not in readable(self._seat(c), finished):
                continue
            c.send({**out, "re": re} if c is sender and re is not None else out)

    def _switch(self, game_id: str, enabled: bool) -> None:
        """Store a room's chat switch (fenced by the game's lease on a cluster worker)."""
        if self.hub.cluster is None:
            self.store.set_room(game_id, enabled)
        else:
            self.hub.cluster.switch_chat(game_id, enabled)

    async def _db(self, fn: Any, *args: Any) -> Any:
        return await self.hub.journal.call(fn, *args)

    async def enabled(self, room: Room) -> bool:
        """Whether the room's chat is on (read once from the store per room held). The
        default is stored the first time, so that it stays what it was when the room
        was first seen, whoever takes the seats after."""
        if room.chat_on is None:
            try:
                stored = await self._db(self.store.room_enabled, room.id)
                if stored is None:
                    stored = default_on(room.kind, room.agents)
                    await self._db(self._switch, room.id, stored)
            except Exception:
                # The game goes on without its chat's state; asked again at the next hello.
                log.exception("could not read the chat's switch of game %s", room.id)
                return default_on(room.kind, room.agents)
            room.chat_on = bool(stored)
        return room.chat_on

    def _seat(self, conn: Conn) -> int:
        return conn.seat if conn.seat is not None else -1

    async def history(self, conn: Conn, room: Room) -> None:
        """Send a connection the room's chat it may read (after ``welcome``)."""
        channels = readable(self._seat(conn), room.status == "finished")
        try:
            rows: list[ChatRow] = await self._db(self.store.history, room.id, channels, HISTORY)
        except Exception:
            # A game is followed without its chat's past rather than not at all.
            log.exception("could not read the chat of game %s", room.id)
            return
        conn.send(
            {
                "type": "chat_history",
                "game": room.id,
                "channels": list(channels),
                "on": await self.enabled(room),
                "messages": [message_json(r, r.account_id is not None) for r in rows],
            }
        )

    def reveal(self, room: Room) -> None:
        """The game is over: every follower may now read both channels."""

        async def send_all() -> None:
            for conn in list(room.conns):
                if not conn.closed:
                    await self.history(conn, room)

        self.hub.later(send_all())

    async def handle(self, conn: Conn, room: Room, msg: ChatMsg | ChatRoomMsg | ReportMsg) -> None:
        """Act on a chat message of the protocol; :class:`ProtocolError` to refuse it."""
        if isinstance(msg, ChatMsg):
            await self.say(conn, room, msg)
        elif isinstance(msg, ChatRoomMsg):
            await self.switch(conn, room, msg)
        else:
            await self.report(conn, room, msg)

    def _author(self, conn: Conn, room: Room) -> tuple[int | None, str]:
        seat = self._seat(conn)
        if seat >= 0:
            return room.account_of(seat), room.names[seat] or f"seat {seat}"
        if conn.account is None or conn.account_name is None:
            raise ProtocolError(
                "chat_sign_in", "sign in to chat as a spectator (guests may read)", None
            )
        return conn.account, conn.account_name

    def _limit(self, conn: Conn, room: Room, who: tuple[Any, ...], re: Any) -> None:
        # Per author in the room, not per connection: a second tab does not double it.
        s = self.hub.settings
        limiter = room.chat_limits.get(who)
        if limiter is None:
            limiter = room.chat_limits[who] = RateLimiter(s.chat_rate, s.chat_burst)
        if not limiter.allow():
            raise ProtocolError(
                "chat_rate_limited",
                f"too many chat messages: at most {s.chat_burst:g} at once, then one every "
                f"{1 / s.chat_rate:g} s",
                re,
            )

    async def say(self, conn: Conn, room: Room, msg: ChatMsg) -> None:
        """Store a message and send it to everyone in the room who reads its channel."""
        if not await self.enabled(room):
            raise ProtocolError("chat_off", "the room's creator turned the chat off", msg.id)
        seat = self._seat(conn)
        try:
            account, name = self._author(conn, room)
        except ProtocolError as e:
            raise ProtocolError(e.code, e.message, msg.id) from None
        if msg.text is not None and phrases_only(room, seat):
            raise ProtocolError(
                "chat_phrases_only",
                "partners may send only the quick phrases until the game ends, so that "
                "nobody tells their partner their cards",
                msg.id,
            )
        who = ("account", account) if account is not None else ("seat", seat)
        self._limit(conn, room, who, msg.id)
        channel = channel_of(seat)
        try:
            # A cluster worker writes through its lease's fence (web/cluster.py).
            post = self.store.post if self.hub.cluster is None else self.hub.cluster.post_chat
            row: ChatRow = await self._db(
                post, room.id, channel, seat, account, name, msg.text, msg.phrase
            )
        except Silenced:
            raise ProtocolError(
                "silenced", "a moderator silenced your account: you cannot chat", msg.id
            ) from None
        self._deliver(room, row, conn, msg.id)
        if conn not in room.conns and msg.id is not None:
            conn.send({**message_json(row, account is not None), "re": msg.id})
        await self._tell("message", room.id, str(row.id))

    async def switch(self, conn: Conn, room: Room, msg: ChatRoomMsg) -> None:
        """The room's creator (seat 0) turns its chat on or off, for everyone in it."""
        if conn.seat != 0:
            raise ProtocolError(
                "not_creator", "only the room's creator may turn the chat on or off", msg.id
            )
        await self._db(self._switch, room.id, msg.on)
        room.chat_on = msg.on
        note: dict[str, Any] = {"type": "chat_room", "game": room.id, "on": msg.on}
        for c in list(room.conns):
            c.send({**note, "re": msg.id} if c is conn and msg.id is not None else note)
        self.hub.announce_room(room)
        await self._tell("switch", room.id, "on" if msg.on else "off")

    async def report(self, conn: Conn, room: Room, msg: ReportMsg) -> None:
        """Note a report of a message this connection can read, for the moderators."""
        row: ChatRow | None = await self._db(self.store.message, msg.message)
        seat = self._seat(conn)
        if (
            row is None
            or row.game_id != room.id
            or row.channel not in readable(seat, room.status == "finished")
        ):
            raise ProtocolError(
                "unknown_message", f"no chat message {msg.message} in this room", msg.id
            )
        if seat >= 0:
            reporter, name = room.account_of(seat), room.names[seat] or f"seat {seat}"
        else:
            reporter, name = conn.account, conn.account_name or "spectator"
        who = ("account", reporter) if reporter is not None else ("seat", seat)
        self._limit(conn, room, who, msg.id)
        await self._db(self.store.report, row.id, reporter, name, msg.reason)
        reply: dict[str, Any] = {"type": "reported", "game": room.id, "message": row.id}
        if msg.id is not None:
            reply["re"] = msg.id
        conn.send(reply)
