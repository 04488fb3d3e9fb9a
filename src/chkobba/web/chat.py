"""Talking at the table: each room's chat (docs/protocol.md, "Chat"; docs/play.md).

Two channels per room. The players' channel is written and read by the seats' holders;
the spectators' by the spectators; while the game is played neither sees the other's
(as on Lichess: a player cannot be coached, or needled, from the stands). Once the game
is over everyone in the room reads both, each message marked with its channel, and each
still writes on their own.

A seat's holder chats under the seat's name (a signed-in player's is their account's; a
guest's, the name they typed to take the seat). A spectator chats only when signed in,
under the account's name: a guest watching reads the spectators' channel but cannot
write in it, since nobody could tell one anonymous spectator from another to report or
silence them.

Messages go to the followers of the room held by this worker: a game in play is served
only by the worker that owns it (web/cluster.py), so every player and spectator of it
is connected here and chat goes through the owner, as moves do. Every message is stored
(chkobba.store.chat) before it is sent, so that a silenced account is refused on every
worker at once and a moderator can read what was reported.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any, Final

from chkobba.store.chat import ChatRow, ChatStore, Silenced
from chkobba.web.protocol import ChatMsg, ChatRoomMsg, ProtocolError, ReportMsg

if TYPE_CHECKING:
    from chkobba.web.hub import Conn, Hub, Room

PLAYERS: Final = "players"
SPECTATORS: Final = "spectators"
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


class TableChat:
    """The chat of every room of one hub."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = ChatStore(hub.store.engine)

    async def _db(self, fn: Any, *args: Any) -> Any:
        return await self.hub.journal.call(fn, *args)

    async def enabled(self, room: Room) -> bool:
        """Whether the room's chat is on (read once from the store per room held). The
        default is stored the first time, so that it stays what it was when the room
        was first seen, whoever takes the seats after."""
        if room.chat_on is None:
            stored = await self._db(self.store.room_enabled, room.id)
            if stored is None:
                stored = default_on(room.kind, room.agents)
                await self._db(self.store.set_room, room.id, stored)
            room.chat_on = bool(stored)
        return room.chat_on

    def _seat(self, conn: Conn) -> int:
        return conn.seat if conn.seat is not None else -1

    async def history(self, conn: Conn, room: Room) -> None:
        """Send a connection the room's chat it may read (after ``welcome``)."""
        channels = readable(self._seat(conn), room.status == "finished")
        rows: list[ChatRow] = await self._db(self.store.history, room.id, channels, HISTORY)
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
        from chkobba.web.hub import RateLimiter

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
        who = ("account", account) if account is not None else ("seat", seat)
        self._limit(conn, room, who, msg.id)
        channel = channel_of(seat)
        try:
            row: ChatRow = await self._db(
                self.store.post, room.id, channel, seat, account, name, msg.text, msg.phrase
            )
        except Silenced:
            raise ProtocolError(
                "silenced", "a moderator silenced your account: you cannot chat", msg.id
            ) from None
        out = message_json(row, account is not None)
        finished = room.status == "finished"
        for c in list(room.conns):
            if channel not in readable(self._seat(c), finished):
                continue
            if c is conn and msg.id is not None:
                c.send({**out, "re": msg.id})
            else:
                c.send(out)
        if conn not in room.conns and msg.id is not None:
            conn.send({**out, "re": msg.id})

    async def switch(self, conn: Conn, room: Room, msg: ChatRoomMsg) -> None:
        """The room's creator (seat 0) turns its chat on or off, for everyone in it."""
        if conn.seat != 0:
            raise ProtocolError(
                "not_creator", "only the room's creator may turn the chat on or off", msg.id
            )
        await self._db(self.store.set_room, room.id, msg.on)
        room.chat_on = msg.on
        note: dict[str, Any] = {"type": "chat_room", "game": room.id, "on": msg.on}
        for c in list(room.conns):
            c.send({**note, "re": msg.id} if c is conn and msg.id is not None else note)
        self.hub.announce_room(room)

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
