"""The chat at the tables, its reports and the accounts' roles, in the store's database
(migration 0011; docs/play.md, "Chat and moderation").

Chat is kept apart from the games: no game's record reads these tables, and an account's
messages go with the account (:func:`forget_account`). Synchronous, like
:class:`~chkobba.store.Store`: the web layer calls it on the journal's thread.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from chkobba.store.schema import account_roles, accounts, chat_messages, chat_reports, chat_rooms
from chkobba.store.store import _aware, now


class Silenced(PermissionError):
    """The account was silenced by a moderator: it cannot chat."""


@dataclass(frozen=True)
class ChatRow:
    """One stored chat message."""

    id: int
    game_id: str
    channel: str
    seat: int
    account_id: int | None
    name: str
    text: str | None
    phrase: str | None
    at: dt.datetime


@dataclass(frozen=True)
class Roles:
    """An account's flags (none set for most accounts)."""

    moderator: bool = False
    silenced: bool = False


def _row(m: Any) -> ChatRow:
    return ChatRow(
        int(m["id"]),
        m["game_id"],
        m["channel"],
        int(m["seat"]),
        None if m["account_id"] is None else int(m["account_id"]),
        m["name"],
        m["text"],
        m["phrase"],
        _aware(m["at"]),
    )


def forget_account(conn: Connection, account_id: int) -> None:
    """Delete an account's messages (the reports of them with them), its roles, and its
    name on the reports it made: in the transaction that deletes the account (explicitly,
    not only by the foreign keys' cascades, which SQLite applies only when told to)."""
    said = select(chat_messages.c.id).where(chat_messages.c.account_id == account_id)
    conn.execute(delete(chat_reports).where(chat_reports.c.message_id.in_(said)))
    conn.execute(delete(chat_messages).where(chat_messages.c.account_id == account_id))
    conn.execute(
        update(chat_reports)
        .where(chat_reports.c.reporter_id == account_id)
        .values(reporter_id=None)
    )
    conn.execute(delete(account_roles).where(account_roles.c.account_id == account_id))


class ChatStore:
    """The chat of the store at ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- messages ----------------------------------------------------------------

    def post(
        self,
        game_id: str,
        channel: str,
        seat: int,
        account_id: int | None,
        name: str,
        text: str | None,
        phrase: str | None,
    ) -> ChatRow:
        """Store a message in a transaction of its own (see :meth:`write_post`)."""
        with self.engine.begin() as conn:
            return self.write_post(conn, game_id, channel, seat, account_id, name, text, phrase)

    def write_post(
        self,
        conn: Connection,
        game_id: str,
        channel: str,
        seat: int,
        account_id: int | None,
        name: str,
        text: str | None,
        phrase: str | None,
    ) -> ChatRow:
        """Store a message in ``conn``'s transaction (a cluster worker's is fenced by the
        game's lease); :class:`Silenced` if its account is silenced (checked in the same
        transaction, so that a moderator's silence holds on every worker at once)."""
        stamp = now()
        if account_id is not None and self._roles(conn, account_id).silenced:
            raise Silenced(name)
        new_id = conn.execute(
            insert(chat_messages)
            .values(
                game_id=game_id,
                channel=channel,
                seat=seat,
                account_id=account_id,
                name=name,
                text=text,
                phrase=phrase,
                at=stamp,
            )
            .returning(chat_messages.c.id)
        ).scalar_one()
        return ChatRow(int(new_id), game_id, channel, seat, account_id, name, text, phrase, stamp)

    def history(self, game_id: str, channels: Collection[str], limit: int = 100) -> list[ChatRow]:
        """The last ``limit`` messages of a game on ``channels``, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(chat_messages)
                .where(chat_messages.c.game_id == game_id, chat_messages.c.channel.in_(channels))
                .order_by(chat_messages.c.id.desc())
                .limit(limit)
            ).all()
        return [_row(r._mapping) for r in reversed(rows)]

    def message(self, message_id: int) -> ChatRow | None:
        """One message by id."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(chat_messages).where(chat_messages.c.id == message_id)
            ).first()
        return None if row is None else _row(row._mapping)

    def messages_of(self, account_id: int) -> list[ChatRow]:
        """Every message an account wrote, oldest first (its data download)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(chat_messages)
                .where(chat_messages.c.account_id == account_id)
                .order_by(chat_messages.c.id)
            ).all()
        return [_row(r._mapping) for r in rows]

    # -- a room's switch --------------------------------------------------------------

    def room_enabled(self, game_id: str) -> bool | None:
        """Whether a room's creator turned its chat on or off; None if they never did."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(chat_rooms.c.enabled).where(chat_rooms.c.game_id == game_id)
            ).scalar_one_or_none()
        return None if found is None else bool(found)

    def set_room(self, game_id: str, enabled: bool) -> None:
        """Turn a room's chat on or off, in a transaction of its own."""
        for _ in range(2):
            try:
                with self.engine.begin() as conn:
                    self.write_room(conn, game_id, enabled)
                return
            except IntegrityError:
                continue  # another worker inserted it meanwhile: update it

    @staticmethod
    def write_room(conn: Connection, game_id: str, enabled: bool) -> None:
        """Turn a room's chat on or off in ``conn``'s transaction (fenced, in a cluster)."""
        done = conn.execute(
            update(chat_rooms).where(chat_rooms.c.game_id == game_id).values(enabled=enabled)
        )
        if not done.rowcount:
            conn.execute(insert(chat_rooms).values(game_id=game_id, enabled=enabled))

    # -- reports -------------------------------------------------------------------------

    def report(
        self, message_id: int, reporter_id: int | None, reporter_name: str, reason: str | None
    ) -> int:
        """Note a report of a message for the moderators; its id."""
        with self.engine.begin() as conn:
            new_id = conn.execute(
                insert(chat_reports)
                .values(
                    message_id=message_id,
                    reporter_id=reporter_id,
                    reporter_name=reporter_name,
                    reason=reason,
                    at=now(),
                )
                .returning(chat_reports.c.id)
            ).scalar_one()
        return int(new_id)

    def reports(self, include_closed: bool = False, limit: int = 200) -> list[dict[str, Any]]:
        """The reports, newest first, each with its message and its author's account name
        and whether that account is silenced (for a moderator)."""
        query = (
            select(
                chat_reports.c.id,
                chat_reports.c.reporter_name,
                chat_reports.c.reason,
                chat_reports.c.at,
                chat_reports.c.closed_at,
                chat_messages.c.id.label("message_id"),
                chat_messages.c.game_id,
                chat_messages.c.channel,
                chat_messages.c.seat,
                chat_messages.c.name,
                chat_messages.c.text,
                chat_messages.c.phrase,
                chat_messages.c.at.label("said_at"),
                accounts.c.name.label("account"),
                account_roles.c.silenced,
            )
            .join(chat_messages, chat_messages.c.id == chat_reports.c.message_id)
            .outerjoin(accounts, accounts.c.id == chat_messages.c.account_id)
            .outerjoin(account_roles, account_roles.c.account_id == chat_messages.c.account_id)
            .order_by(chat_reports.c.id.desc())
            .limit(limit)
        )
        if not include_closed:
            query = query.where(chat_reports.c.closed_at.is_(None))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            {
                "id": int(r.id),
                "reporter": r.reporter_name,
                "reason": r.reason,
                "at": _aware(r.at).isoformat(),
                "closed": _aware(r.closed_at).isoformat() if r.closed_at else None,
                "message": {
                    "id": int(r.message_id),
                    "game": r.game_id,
                    "channel": r.channel,
                    "seat": int(r.seat),
                    "name": r.name,
                    "text": r.text,
                    "phrase": r.phrase,
                    "at": _aware(r.said_at).isoformat(),
                },
                "account": r.account,
                "silenced": bool(r.silenced),
            }
            for r in rows
        ]

    def close_report(self, report_id: int) -> bool:
        """Mark a report dealt with; whether there was such an open report."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(chat_reports)
                .where(chat_reports.c.id == report_id, chat_reports.c.closed_at.is_(None))
                .values(closed_at=now())
            )
        return bool(done.rowcount)

    # -- roles -----------------------------------------------------------------------------

    @staticmethod
    def _roles(conn: Connection, account_id: int) -> Roles:
        row = conn.execute(
            select(account_roles.c.moderator, account_roles.c.silenced).where(
                account_roles.c.account_id == account_id
            )
        ).first()
        return Roles() if row is None else Roles(bool(row.moderator), bool(row.silenced))

    def roles(self, account_id: int) -> Roles:
        """An account's flags."""
        with self.engine.connect() as conn:
            return self._roles(conn, account_id)

    def _set(self, account_id: int, **values: Any) -> None:
        with self.engine.begin() as conn:
            done = conn.execute(
                update(account_roles)
                .where(account_roles.c.account_id == account_id)
                .values(**values)
            )
            if not done.rowcount:
                conn.execute(insert(account_roles).values(account_id=account_id, **values))

    def set_moderator(self, account_id: int, moderator: bool) -> None:
        """Make an account a moderator, or no longer one."""
        self._set(account_id, moderator=moderator)

    def set_silenced(self, account_id: int, silenced: bool) -> None:
        """Silence an account (it can no longer chat), or let it speak again."""
        self._set(account_id, silenced=silenced, silenced_at=now() if silenced else None)

    def moderators(self) -> list[str]:
        """The moderators' account names, in order."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(accounts.c.name)
                    .join(account_roles, account_roles.c.account_id == accounts.c.id)
                    .where(account_roles.c.moderator)
                    .order_by(accounts.c.name)
                ).scalars()
            )
