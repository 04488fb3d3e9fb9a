"""The accounts' passkeys and the challenges of their ceremonies, in the store's database
(migration 0013; docs/web.md, "Passkeys").

Nothing here checks a signature: the web layer (:mod:`chkobba.web.passkeys`) verifies each
answer with the ``webauthn`` library and hands this module what to keep. Challenges live
in the database, never in one process's memory, so that the worker which sent a challenge
need not be the one that takes its answer. Synchronous, like :class:`Store`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Engine, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from chkobba.store.schema import passkey_challenges, passkeys
from chkobba.store.store import _aware, now

REGISTER: Final = "register"
LOGIN: Final = "login"
"""The two purposes of a challenge: adding a passkey to an account, logging in with one."""


class PasskeyTaken(ValueError):
    """A credential id already stored (for this account or another)."""


@dataclass(frozen=True)
class Passkey:
    """One stored passkey."""

    id: int
    account_id: int
    credential_id: str
    user_handle: str
    public_key: bytes
    sign_count: int
    name: str
    transports: list[str]
    created_at: dt.datetime
    last_used_at: dt.datetime | None


@dataclass(frozen=True)
class Challenge:
    """A challenge taken back from the database: for what, and for whom."""

    purpose: str
    account_id: int | None
    session_hash: str | None
    user_handle: str | None
    expires_at: dt.datetime


def _passkey(m: Any) -> Passkey:
    return Passkey(
        int(m["id"]),
        int(m["account_id"]),
        m["credential_id"],
        m["user_handle"],
        bytes(m["public_key"]),
        int(m["sign_count"]),
        m["name"],
        [t for t in (m["transports"] or "").split(",") if t],
        _aware(m["created_at"]),
        _aware(m["last_used_at"]) if m["last_used_at"] is not None else None,
    )


class Passkeys:
    """The passkeys of the store at ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- challenges ----------------------------------------------------------------

    def put_challenge(
        self,
        challenge_hash: str,
        purpose: str,
        expires_at: dt.datetime,
        account_id: int | None = None,
        session_hash: str | None = None,
        user_handle: str | None = None,
    ) -> None:
        """Keep a challenge just sent (its SHA-256), forgetting the expired ones."""
        with self.engine.begin() as conn:
            conn.execute(delete(passkey_challenges).where(passkey_challenges.c.expires_at <= now()))
            conn.execute(
                insert(passkey_challenges).values(
                    challenge_hash=challenge_hash,
                    purpose=purpose,
                    account_id=account_id,
                    session_hash=session_hash,
                    user_handle=user_handle,
                    expires_at=expires_at,
                )
            )

    def take_challenge(self, challenge_hash: str, purpose: str) -> Challenge | None:
        """The challenge of this hash and purpose, deleted as it is read so that no second
        answer can use it (two answers at once: one gets it, the other None); None too
        when there is none, or it expired."""
        with self.engine.begin() as conn:
            row = conn.execute(
                select(passkey_challenges).where(
                    passkey_challenges.c.challenge_hash == challenge_hash,
                    passkey_challenges.c.purpose == purpose,
                )
            ).first()
            if row is None:
                return None
            gone = conn.execute(
                delete(passkey_challenges).where(
                    passkey_challenges.c.challenge_hash == challenge_hash
                )
            )
        if gone.rowcount != 1:
            return None  # another answer took it meanwhile
        m = row._mapping
        taken = Challenge(
            m["purpose"], m["account_id"], m["session_hash"], m["user_handle"],
            _aware(m["expires_at"]),
        )  # fmt: skip
        return taken if taken.expires_at > now() else None

    # -- passkeys --------------------------------------------------------------------

    def add(
        self,
        account_id: int,
        credential_id: str,
        user_handle: str,
        public_key: bytes,
        sign_count: int,
        name: str,
        transports: list[str],
    ) -> Passkey:
        """Store a new passkey of an account; :class:`PasskeyTaken` if its credential id
        is stored already."""
        stamp = now()
        kept = ",".join(transports)[:200]
        try:
            with self.engine.begin() as conn:
                new_id = conn.execute(
                    insert(passkeys)
                    .values(
                        account_id=account_id,
                        credential_id=credential_id,
                        user_handle=user_handle,
                        public_key=public_key,
                        sign_count=sign_count,
                        name=name,
                        transports=kept or None,
                        created_at=stamp,
                    )
                    .returning(passkeys.c.id)
                ).scalar_one()
        except IntegrityError:
            raise PasskeyTaken(credential_id) from None
        return Passkey(
            int(new_id), account_id, credential_id, user_handle, public_key, sign_count, name,
            [t for t in kept.split(",") if t], stamp, None,
        )  # fmt: skip

    def of_account(self, account_id: int) -> list[Passkey]:
        """An account's passkeys, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(passkeys).where(passkeys.c.account_id == account_id).order_by(passkeys.c.id)
            ).all()
        return [_passkey(r._mapping) for r in rows]

    def count(self, account_id: int) -> int:
        """How many passkeys an account has."""
        with self.engine.connect() as conn:
            n = conn.execute(
                select(func.count()).where(passkeys.c.account_id == account_id)
            ).scalar_one()
        return int(n)

    def user_handle(self, account_id: int) -> str | None:
        """The WebAuthn user handle of an account's passkeys (None before its first)."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(passkeys.c.user_handle)
                .where(passkeys.c.account_id == account_id)
                .order_by(passkeys.c.id)
                .limit(1)
            ).scalar()
        return None if found is None else str(found)

    def by_credential(self, credential_id: str) -> Passkey | None:
        """The passkey of a credential id (what a log-in's answer names)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(passkeys).where(passkeys.c.credential_id == credential_id)
            ).first()
        return None if row is None else _passkey(row._mapping)

    def used(self, passkey_id: int, old_count: int, new_count: int) -> bool:
        """Note a log-in with a passkey: its new signature counter, unless the counter
        changed meanwhile (another log-in with the same count: one of them is a copy),
        in which case nothing changes and the answer is False."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(passkeys)
                .where(passkeys.c.id == passkey_id, passkeys.c.sign_count == old_count)
                .values(sign_count=new_count, last_used_at=now())
            )
        return bool(done.rowcount == 1)

    def remove(self, account_id: int, passkey_id: int) -> bool:
        """Remove one of an account's passkeys; False if the account has none of that id
        (another account's passkey stays where it is)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                delete(passkeys).where(
                    passkeys.c.id == passkey_id, passkeys.c.account_id == account_id
                )
            )
        return bool(done.rowcount == 1)
