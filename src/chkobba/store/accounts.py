"""Accounts, their sessions and failed log-ins, in the store's database (migration 0008).

Nothing here hashes a password or makes a session id: the web layer does
(:mod:`chkobba.web.auth`) and hands this module the hashes. Everything lives in the
database, never in one process's memory, so that every worker of a cluster sees the
same accounts, sessions and log-in limits. Synchronous, like :class:`Store`.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Engine, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from chkobba.store.chat import ChatStore, forget_account
from chkobba.store.schema import (
    accounts,
    challenges,
    games,
    login_failures,
    moves,
    passkey_challenges,
    passkeys,
    queue_entries,
    rating_history,
    ratings,
    seats,
    sessions,
)
from chkobba.store.store import _aware, now

NEUTRAL_NAME: Final = "anonymous"
"""The name a deleted account's seats keep in the records (no user name can be it: it
would be taken by nobody, and a guest's name is shown as a guest's)."""


class NameTaken(ValueError):
    """A user name already registered, or one that looks like it."""


@dataclass(frozen=True)
class Account:
    """One account as stored (the password's hash included: never send it anywhere)."""

    id: int
    name: str
    password_hash: str
    created_at: dt.datetime
    password_at: dt.datetime


@dataclass(frozen=True)
class AccountGame:
    """A game in which an account holds a seat."""

    id: str
    game: str
    rules: str
    kind: str
    status: str
    seat: int
    seats: int
    created_at: dt.datetime
    finished_at: dt.datetime | None
    unlisted: bool


def _account(m: Any) -> Account:
    return Account(
        int(m["id"]),
        m["name"],
        m["password_hash"],
        _aware(m["created_at"]),
        _aware(m["password_at"]),
    )


class Accounts:
    """The accounts of the store at ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- accounts --------------------------------------------------------------

    def create(self, name: str, key: str, shape: str, password_hash: str) -> Account:
        """Register a name; :class:`NameTaken` if it, or a name like it, is taken."""
        stamp = now()
        try:
            with self.engine.begin() as conn:
                new_id = conn.execute(
                    insert(accounts)
                    .values(
                        name=name,
                        name_key=key,
                        name_shape=shape,
                        password_hash=password_hash,
                        created_at=stamp,
                        password_at=stamp,
                    )
                    .returning(accounts.c.id)
                ).scalar_one()
        except IntegrityError:
            raise NameTaken(name) from None
        return Account(int(new_id), name, password_hash, stamp, stamp)

    def taken(self, key: str, shape: str) -> bool:
        """Whether a name with either key is registered."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(accounts.c.id).where(
                    (accounts.c.name_key == key) | (accounts.c.name_shape == shape)
                )
            ).first()
        return found is not None

    def by_key(self, key: str) -> Account | None:
        """The account whose name has this key (a log-in's name, folded)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts).where(accounts.c.name_key == key)).first()
        return None if row is None else _account(row._mapping)

    def get(self, account_id: int) -> Account | None:
        """An account by id."""
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
        return None if row is None else _account(row._mapping)

    def set_password(
        self, account_id: int, password_hash: str, keep_session: str | None = None
    ) -> None:
        """Store a new password hash and end every session but ``keep_session`` (hash)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(password_hash=password_hash, password_at=now())
            )
            ending = delete(sessions).where(sessions.c.account_id == account_id)
            if keep_session is not None:
                ending = ending.where(sessions.c.id_hash != keep_session)
            conn.execute(ending)

    def rehash(self, account_id: int, old_hash: str, password_hash: str) -> None:
        """Replace a hash made with older parameters (unless it changed meanwhile)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(accounts)
                .where(accounts.c.id == account_id, accounts.c.password_hash == old_hash)
                .values(password_hash=password_hash)
            )

    def delete(self, account_id: int) -> list[str]:
        """Delete an account, its sessions, its passkeys and its chat messages (the
        reports of them too); its seats keep their games under the neutral name. Return
        the unfinished games it held a seat in."""
        with self.engine.begin() as conn:
            unfinished = list(
                conn.execute(
                    select(seats.c.game_id)
                    .join(games, games.c.id == seats.c.game_id)
                    .where(seats.c.account_id == account_id, games.c.status != "finished")
                ).scalars()
            )
            conn.execute(
                update(seats)
                .where(seats.c.account_id == account_id)
                .values(name=NEUTRAL_NAME, account_id=None)
            )
            conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
            conn.execute(delete(passkeys).where(passkeys.c.account_id == account_id))
            conn.execute(
                delete(passkey_challenges).where(passkey_challenges.c.account_id == account_id)
            )
            # Its places in the "Play now" queue and its challenges, sent or received.
            conn.execute(delete(queue_entries).where(queue_entries.c.account_id == account_id))
            conn.execute(
                delete(challenges).where(
                    (challenges.c.from_account == account_id)
                    | (challenges.c.to_account == account_id)
                )
            )
            forget_account(conn, account_id)
            conn.execute(delete(accounts).where(accounts.c.id == account_id))
        return unfinished

    # -- sessions --------------------------------------------------------------

    def open_session(self, id_hash: str, account_id: int, expires_at: dt.datetime) -> None:
        """Store a new session (its id's hash)."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(sessions).values(
                    id_hash=id_hash,
                    account_id=account_id,
                    created_at=now(),
                    expires_at=expires_at,
                )
            )

    def session_account(self, id_hash: str) -> Account | None:
        """The account of an unexpired session, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(accounts)
                .join(sessions, sessions.c.account_id == accounts.c.id)
                .where(sessions.c.id_hash == id_hash, sessions.c.expires_at > now())
            ).first()
        return None if row is None else _account(row._mapping)

    def close_session(self, id_hash: str) -> None:
        """End one session."""
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.id_hash == id_hash))

    def close_sessions(self, account_id: int) -> int:
        """End every session of an account; return how many there were."""
        with self.engine.begin() as conn:
            done = conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
        return int(done.rowcount)

    def prune(self, failures_before: dt.datetime) -> None:
        """Forget expired sessions and failed log-ins older than ``failures_before``."""
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.expires_at <= now()))
            conn.execute(delete(login_failures).where(login_failures.c.at < failures_before))

    # -- failed log-ins ----------------------------------------------------------

    def failures(self, scope: str, key: str, since: dt.datetime) -> tuple[int, dt.datetime | None]:
        """How many log-ins failed for ``key`` since ``since``, and the oldest of them."""
        with self.engine.connect() as conn:
            n, oldest = conn.execute(
                select(func.count(), func.min(login_failures.c.at)).where(
                    login_failures.c.scope == scope,
                    login_failures.c.key == key,
                    login_failures.c.at >= since,
                )
            ).one()
        return int(n), (_aware(oldest) if oldest is not None else None)

    def fail(self, keys: list[tuple[str, str]]) -> None:
        """Note one failed log-in under each ``(scope, key)``."""
        stamp = now()
        with self.engine.begin() as conn:
            conn.execute(
                insert(login_failures),
                [{"scope": scope, "key": key, "at": stamp} for scope, key in keys],
            )

    def forgive(self, scope: str, key: str) -> None:
        """Forget the failed log-ins of ``key`` (after a successful one)."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(login_failures).where(
                    login_failures.c.scope == scope, login_failures.c.key == key
                )
            )

    # -- the account's games -------------------------------------------------------

    def games_of(self, account_id: int, limit: int = 200) -> list[AccountGame]:
        """The games an account holds a seat in, unfinished first, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    games.c.id,
                    games.c.game,
                    games.c.rules,
                    games.c.kind,
                    games.c.status,
                    seats.c.seat,
                    games.c.seats,
                    games.c.created_at,
                    games.c.finished_at,
                    games.c.unlisted,
                )
                .join(seats, seats.c.game_id == games.c.id)
                .where(seats.c.account_id == account_id)
                .order_by((games.c.status == "finished"), games.c.created_at.desc())
                .limit(limit)
            ).all()
        return [
            AccountGame(
                r.id,
                r.game,
                r.rules,
                r.kind,
                r.status,
                int(r.seat),
                int(r.seats),
                _aware(r.created_at),
                _aware(r.finished_at) if r.finished_at is not None else None,
                bool(r.unlisted),
            )
            for r in rows
        ]

    def export(self, account_id: int) -> dict[str, Any]:
        """Everything stored of an account, for its owner: the profile (not the password's
        hash), every game it played, with its seats' names and its moves, every chat
        message it wrote and its passkeys."""
        account = self.get(account_id)
        if account is None:
            return {}
        played = self.games_of(account_id, limit=100_000)
        ids = [g.id for g in played]
        names: dict[str, list[str | None]] = {}
        agents: dict[str, list[str | None]] = {}
        plays: dict[str, list[str]] = {}
        results: dict[str, tuple[Any, Any, Any, Any]] = {}
        with self.engine.connect() as conn:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                for r in conn.execute(
                    select(seats.c.game_id, seats.c.seat, seats.c.name, seats.c.agent)
                    .where(seats.c.game_id.in_(chunk))
                    .order_by(seats.c.game_id, seats.c.seat)
                ):
                    names.setdefault(r.game_id, []).append(r.name)
                    agents.setdefault(r.game_id, []).append(r.agent)
                for game_id, move in conn.execute(
                    select(moves.c.game_id, moves.c.move)
                    .where(moves.c.game_id.in_(chunk))
                    .order_by(moves.c.game_id, moves.c.ply)
                ):
                    plays.setdefault(game_id, []).append(move)
                for game_id, winner, totals, ending, resigned in conn.execute(
                    select(
                        games.c.id, games.c.winner, games.c.totals, games.c.ending,
                        games.c.resigned,
                    ).where(games.c.id.in_(chunk))
                ):
                    results[game_id] = (winner, totals, ending, resigned)
            rated = [
                {"pool": r.pool, "mu": r.mu, "sigma": r.sigma, "games": r.games, "wins": r.wins}
                for r in conn.execute(select(ratings).where(ratings.c.account_id == account_id))
            ]
            history = [
                {
                    "game": r.game_id, "pool": r.pool, "rank": r.rank, "won": bool(r.won),
                    "mu_before": r.mu_before, "sigma_before": r.sigma_before,
                    "mu": r.mu, "sigma": r.sigma, "at": _aware(r.at).isoformat(),
                }
                for r in conn.execute(
                    select(rating_history)
                    .where(rating_history.c.account_id == account_id)
                    .order_by(rating_history.c.at)
                )
            ]
            keys = [
                {
                    "name": r.name,
                    "credential_id": r.credential_id,
                    "created": _aware(r.created_at).isoformat(),
                    "last_used": _aware(r.last_used_at).isoformat() if r.last_used_at else None,
                }
                for r in conn.execute(
                    select(passkeys).where(passkeys.c.account_id == account_id)
                    .order_by(passkeys.c.id)
                )
            ]
        out_games = []
        for g in played:
            winner, totals, ending, resigned = results.get(g.id, (None, None, None, None))
            out_games.append(
                {
                    "game": g.id,
                    "game_name": g.game,
                    "rules": g.rules,
                    "kind": g.kind,
                    "status": g.status,
                    "your_seat": g.seat,
                    "private": g.unlisted,
                    "names": names.get(g.id, []),
                    "computer": agents.get(g.id, []),
                    "created": g.created_at.isoformat(),
                    "finished": g.finished_at.isoformat() if g.finished_at else None,
                    "winner": winner,
                    "totals": json.loads(totals) if totals is not None else None,
                    "ending": ending,
                    # The side that resigned or ran out of time (``ending`` says which).
                    "resigned": resigned,
                    # An unfinished game's moves wait for its end, as its record does.
                    "moves": plays.get(g.id, []) if g.status == "finished" else None,
                }
            )
        return {
            "account": {
                "name": account.name,
                "created": account.created_at.isoformat(),
                "password_changed": account.password_at.isoformat(),
            },
            "games": out_games,
            "ratings": rated,
            "rating_history": history,
            "passkeys": keys,
            "chat": [
                {
                    "game": m.game_id,
                    "channel": m.channel,
                    "seat": m.seat,
                    "name": m.name,
                    "text": m.text,
                    "phrase": m.phrase,
                    "at": m.at.isoformat(),
                }
                for m in ChatStore(self.engine).messages_of(account_id)
            ],
        }
