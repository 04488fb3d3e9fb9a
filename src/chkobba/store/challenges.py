"""Challenges: an invitation to a game, in the store's database (migration 0010;
docs/web.md, "Play now and challenges").

A challenge goes to a named account, which sees it in its lobby, or to whoever opens its
link (its id is then the secret). Accepting it makes the game and marks it accepted in
one transaction, and only if it is still open: two acceptances at once (two browsers,
two workers) make one game, the other is told the challenge is gone.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import delete, insert, select, update

from chkobba.store.schema import challenges
from chkobba.store.store import Store, StoredGame, _aware, now

OPEN: Final = "open"
ACCEPTED: Final = "accepted"
DECLINED: Final = "declined"
CANCELLED: Final = "cancelled"


class ChallengeGone(LookupError):
    """No such challenge for this player, or no longer open (accepted, declined,
    cancelled, expired)."""


@dataclass(frozen=True, slots=True)
class Challenge:
    """One challenge as stored (never show its ticket's hash)."""

    id: str
    ticket_hash: str
    from_account: int | None
    from_name: str
    to_account: int | None
    to_name: str | None
    pool: str
    game: str
    seating: str
    clock: float | None
    status: str
    created_at: dt.datetime
    expires_at: dt.datetime
    game_id: str | None
    challenger_seat: int | None

    def open_at(self, at: dt.datetime) -> bool:
        """Whether it can still be accepted at ``at``."""
        return self.status == OPEN and self.expires_at > at


def _challenge(m: Any) -> Challenge:
    return Challenge(
        id=m["id"],
        ticket_hash=m["ticket_hash"],
        from_account=m["from_account"],
        from_name=m["from_name"],
        to_account=m["to_account"],
        to_name=m["to_name"],
        pool=m["pool"],
        game=m["game"],
        seating=m["seating"],
        clock=m["clock"],
        status=m["status"],
        created_at=_aware(m["created_at"]),
        expires_at=_aware(m["expires_at"]),
        game_id=m["game_id"],
        challenger_seat=m["challenger_seat"],
    )


class Challenges:
    """The challenges of the store ``store`` (synchronous, like :class:`Store`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    def create(
        self,
        challenge_id: str,
        ticket_hash: str,
        from_name: str,
        pool: str,
        game: str,
        seating: str,
        clock: float | None,
        expires_at: dt.datetime,
        from_account: int | None = None,
        to_account: int | None = None,
        to_name: str | None = None,
    ) -> Challenge:
        """Store a new open challenge."""
        stamp = now()
        values = {
            "id": challenge_id,
            "ticket_hash": ticket_hash,
            "from_account": from_account,
            "from_name": from_name,
            "to_account": to_account,
            "to_name": to_name,
            "pool": pool,
            "game": game,
            "seating": seating,
            "clock": clock,
            "status": OPEN,
            "created_at": stamp,
            "expires_at": expires_at,
            "game_id": None,
            "challenger_seat": None,
        }
        with self.engine.begin() as conn:
            conn.execute(insert(challenges).values(**values))
        return _challenge(values)

    def get(self, challenge_id: str) -> Challenge | None:
        """A challenge by id."""
        with self.engine.connect() as conn:
            row = conn.execute(select(challenges).where(challenges.c.id == challenge_id)).first()
        return None if row is None else _challenge(row._mapping)

    def by_ticket(self, ticket_hash: str) -> Challenge | None:
        """The challenge its challenger holds the ticket of."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(challenges).where(challenges.c.ticket_hash == ticket_hash)
            ).first()
        return None if row is None else _challenge(row._mapping)

    def incoming(self, account_id: int, at: dt.datetime | None = None) -> list[Challenge]:
        """The open challenges sent to an account, the newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(challenges)
                .where(
                    challenges.c.to_account == account_id,
                    challenges.c.status == OPEN,
                    challenges.c.expires_at > (at or now()),
                )
                .order_by(challenges.c.created_at.desc())
                .limit(50)
            )
            return [_challenge(r._mapping) for r in rows]

    def accept(
        self,
        challenge_id: str,
        build: Callable[[Challenge], tuple[StoredGame, int]],
        account_id: int | None,
        at: dt.datetime | None = None,
    ) -> tuple[Challenge, StoredGame]:
        """Accept a challenge as ``account_id`` (None: a guest, for a link's challenge):
        ``build`` makes its game and says the challenger's seat; the game is stored and
        the challenge marked accepted in one transaction. :class:`ChallengeGone` if it
        is not open to this player (nor ever was: one's own, another's)."""
        stamp = at or now()
        with self.engine.begin() as conn:
            q = select(challenges).where(challenges.c.id == challenge_id)
            if not self.store.is_sqlite:
                q = q.with_for_update()
            row = conn.execute(q).first()
            if row is None:
                raise ChallengeGone(challenge_id)
            found = _challenge(row._mapping)
            if not _for(found, account_id) or not found.open_at(stamp):
                raise ChallengeGone(challenge_id)
            stored, seat = build(found)
            self.store.insert_game(conn, stored)
            done = conn.execute(
                update(challenges)
                .where(challenges.c.id == challenge_id, challenges.c.status == OPEN)
                .values(status=ACCEPTED, game_id=stored.id, challenger_seat=seat)
            ).rowcount
            if done != 1:
                raise ChallengeGone(challenge_id)
        accepted = _challenge({**row._mapping, "status": ACCEPTED, "game_id": stored.id,
                               "challenger_seat": seat})
        return accepted, stored

    def decline(self, challenge_id: str, account_id: int | None) -> Challenge:
        """Decline an open challenge sent to ``account_id`` (or a link's, by whoever has
        it); :class:`ChallengeGone` otherwise."""
        found = self.get(challenge_id)
        if found is None or not _for(found, account_id):
            raise ChallengeGone(challenge_id)
        with self.engine.begin() as conn:
            done = conn.execute(
                update(challenges)
                .where(challenges.c.id == challenge_id, challenges.c.status == OPEN)
                .values(status=DECLINED)
            ).rowcount
        if done != 1:
            raise ChallengeGone(challenge_id)
        return self.get(challenge_id) or found

    def cancel(self, ticket_hash: str) -> Challenge | None:
        """The challenger takes an open challenge back; the challenge as it is now (None:
        unknown ticket). An accepted one stays accepted: its game is made."""
        with self.engine.begin() as conn:
            conn.execute(
                update(challenges)
                .where(challenges.c.ticket_hash == ticket_hash, challenges.c.status == OPEN)
                .values(status=CANCELLED)
            )
        return self.by_ticket(ticket_hash)

    def expire(self, keep: float, at: dt.datetime | None = None) -> int:
        """Delete the challenges expired more than ``keep`` seconds ago (whatever their
        state: an accepted one's game lives on without it); how many went."""
        stamp = at or now()
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(challenges).where(
                    challenges.c.expires_at < stamp - dt.timedelta(seconds=keep)
                )
            ).rowcount
        return int(gone)


def _for(found: Challenge, account_id: int | None) -> bool:
    """Whether ``account_id`` may answer ``found``: the account it was sent to, or anyone
    but its sender for a link's challenge."""
    if found.to_account is not None:
        return account_id == found.to_account
    return account_id is None or account_id != found.from_account
