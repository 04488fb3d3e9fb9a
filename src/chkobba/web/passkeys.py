"""Passkeys (WebAuthn) for accounts: adding one to the signed-in account, listing and
removing them, and logging in with one (docs/web.md, "Passkeys"; docs/protocol.md,
"Accounts and sessions").

The ``webauthn`` library makes the options the browser is sent and verifies the browser's
answers: the challenge, the origin, the relying party's id, the user's presence and
verification, the signature, and the authenticator's signature counter. This module keeps
what the library leaves to its caller:

- Each challenge is made here (32 random bytes), kept server-side in the database (its
  SHA-256, :class:`chkobba.store.passkeys.Passkeys`), taken (deleted) by the first answer
  that names it, and refused once it expired; a registration's challenge belongs to the
  session that asked for it. The answer carries its challenge in ``clientDataJSON``: that
  is how the server finds it again, on whichever worker of a cluster.
- The origins and the relying party's id come from the :class:`AccountPolicy` when the
  deployment names them (behind a proxy that changes the ``Host``), else from the request.
- Adding a passkey asks for the account's password, so that a borrowed session cannot
  add a way in that outlives a change of the password. A failed passkey log-in counts
  as a failed log-in (per account and per address, :meth:`AccountService.within_limits`).
"""

from __future__ import annotations

import asyncio
import binascii
import datetime as dt
import hashlib
import json
import logging
import secrets
import unicodedata
from typing import Any, Final
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    base64url_to_bytes,
    bytes_to_base64url,
    parse_authentication_credential_json,
    parse_registration_credential_json,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from chkobba.store.passkeys import LOGIN, REGISTER, Challenge, Passkey, Passkeys, PasskeyTaken
from chkobba.store.store import now
from chkobba.web.account import AccountService, profile
from chkobba.web.auth import AccountPolicy, digest
from chkobba.web.http import Budgets, Refused, error, json_body
from chkobba.web.names import BadName, check_name, name_keys

log = logging.getLogger("chkobba.web")

RP_NAME: Final = "Chkobba"
"""The relying party's name, which an authenticator may show beside the account's."""
MAX_BODY: Final = 64 * 1024
"""The largest answer taken (an attestation with its certificates is a few kilobytes)."""
MAX_NAME: Final = 40
"""The longest name of a passkey, in characters."""
TRANSPORTS: Final = frozenset(t.value for t in AuthenticatorTransport)


class BadAnswer(ValueError):
    """A browser's answer that is not a WebAuthn credential's JSON."""


def check_origins(origins: str | None, rp_id: str | None) -> tuple[tuple[str, ...], str | None]:
    """The passkey settings of ``chkobba serve``: comma-separated origins (``https://host``
    or ``https://host:port``, nothing after) and a relying party's id, checked: the id must
    be each origin's host or a domain it belongs to. ``ValueError`` saying what is wrong."""
    found: list[str] = []
    for given in (origins or "").split(","):
        given = given.strip()
        if not given:
            continue
        parts = urlsplit(given)
        if parts.scheme not in ("https", "http") or not parts.hostname:
            raise ValueError(f"a passkey origin is https://HOST[:PORT], not {given!r}")
        if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
            raise ValueError(f"a passkey origin has no path, query or user: {given!r}")
        found.append(origin_of(parts.scheme, parts.hostname, parts.port))
    rp = rp_id.strip().lower() if rp_id else None
    if rp is not None:
        hosts = [urlsplit(o).hostname or "" for o in found]
        if not rp or "/" in rp or ":" in rp:
            raise ValueError(f"a passkey relying party id is a domain name, not {rp_id!r}")
        for host in hosts:
            if host != rp and not host.endswith("." + rp):
                raise ValueError(
                    f"the relying party id {rp!r} is neither the host of the origin of "
                    f"{host!r} nor a domain it belongs to"
                )
    return tuple(found), rp


def origin_of(scheme: str, host: str, port: int | None) -> str:
    """An origin as a browser writes it: lower-case host, no default port."""
    host = host.lower()
    if ":" in host:
        host = f"[{host}]"  # an IPv6 address
    default = {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{host}" if port in (None, default) else f"{scheme}://{host}:{port}"


def relying_party(request: Request, policy: AccountPolicy) -> tuple[str, list[str]]:
    """The relying party's id and the origins its passkeys may be used from, for a
    request: as configured, or else the request's own (its scheme, which uvicorn takes
    from a trusted proxy's ``X-Forwarded-Proto``, and its ``Host``)."""
    if policy.passkey_origins:
        origins = list(policy.passkey_origins)
        rp_id = policy.passkey_rp_id or urlsplit(origins[0]).hostname or ""
        return rp_id, origins
    url = request.url
    host = url.hostname or ""
    return policy.passkey_rp_id or host.lower(), [origin_of(url.scheme, host, url.port)]


def challenge_of(credential: Any) -> bytes:
    """The challenge a browser's answer says it answers (from its ``clientDataJSON``, which
    the authenticator signed: the library checks it is the one expected)."""
    try:
        client_data = json.loads(base64url_to_bytes(credential["response"]["clientDataJSON"]))
        return base64url_to_bytes(client_data["challenge"])
    except (KeyError, TypeError, ValueError, binascii.Error, AttributeError):
        raise BadAnswer("the answer is not a passkey's (WebAuthn credential JSON)") from None


def challenge_hash(challenge: bytes) -> str:
    """What the database keeps of a challenge."""
    return hashlib.sha256(challenge).hexdigest()


def check_passkey_name(name: object) -> str:
    """A passkey's name as its owner typed it, tidied: ``ValueError`` if unusable."""
    if not isinstance(name, str):
        raise ValueError("name (the passkey's) must be a string")
    # Tabs and line breaks become spaces; other control and format characters go.
    spaced = " ".join(name.split())
    kept = " ".join("".join(ch for ch in spaced if unicodedata.category(ch)[0] != "C").split())
    if not 1 <= len(kept) <= MAX_NAME:
        raise ValueError(f"a passkey's name has 1 to {MAX_NAME} characters")
    return kept


def passkey_json(p: Passkey) -> dict[str, Any]:
    """One passkey, for its owner's list."""
    return {
        "id": p.id,
        "name": p.name,
        "created": p.created_at.isoformat(),
        "last_used": p.last_used_at.isoformat() if p.last_used_at else None,
    }


def descriptor(p: Passkey) -> PublicKeyCredentialDescriptor:
    """A stored passkey as the options name it (to exclude it, or to allow it)."""
    known = [AuthenticatorTransport(t) for t in p.transports if t in TRANSPORTS]
    return PublicKeyCredentialDescriptor(
        id=base64url_to_bytes(p.credential_id), transports=known or None
    )


class PasskeyService:
    """The passkeys of one app's accounts."""

    def __init__(self, members: AccountService) -> None:
        self.members = members
        self.policy = members.policy
        self.passkeys = Passkeys(members.hub.store.engine)
        # Each challenge is a row: a budget per address.
        self.budget = Budgets(
            self.policy.passkey_rate, self.policy.passkey_burst, "passkey requests"
        )

    async def db(self, fn: Any, *args: Any) -> Any:
        """Run a store method on the store's thread."""
        return await self.members.db(fn, *args)

    async def new_challenge(
        self,
        purpose: str,
        account_id: int | None = None,
        session: str | None = None,
        handle: str | None = None,
    ) -> bytes:
        """A fresh challenge, kept for ``purpose`` until it expires."""
        challenge = secrets.token_bytes(32)
        expires = now() + dt.timedelta(seconds=self.policy.passkey_seconds)
        await self.db(
            self.passkeys.put_challenge, challenge_hash(challenge), purpose, expires, account_id,
            session, handle,
        )  # fmt: skip
        return challenge

    async def take(self, credential: Any, purpose: str) -> tuple[bytes, Challenge]:
        """The challenge an answer names, taken from the database (once): else
        :class:`Refused` (``passkey_expired``; 401 for a log-in)."""
        try:
            challenge = challenge_of(credential)
        except BadAnswer as e:
            raise Refused(400, "bad_request", str(e)) from None
        taken: Challenge | None = await self.db(
            self.passkeys.take_challenge, challenge_hash(challenge), purpose
        )
        if taken is None:
            raise Refused(
                401 if purpose == LOGIN else 400,
                "passkey_expired",
                "this passkey request expired or was answered already: start again",
            )
        return challenge, taken

    # -- the signed-in account's passkeys ------------------------------------------------

    async def list_passkeys(self, request: Request) -> Response:
        account, _ = await self.members.signed_in(request)
        found = await self.db(self.passkeys.of_account, account.id)
        return JSONResponse({"passkeys": [passkey_json(p) for p in found]})

    async def register_options(self, request: Request) -> Response:
        self.budget.check(request)
        account, sid = await self.members.signed_in(request)
        data = await json_body(request, 4096)
        password = data.get("password")
        if not isinstance(password, str):
            return error(400, "bad_request", "adding a passkey asks for the account's password")
        if not await self.members.confirm(request, account, password):
            return error(403, "wrong_password", "the password is wrong")
        existing: list[Passkey] = await self.db(self.passkeys.of_account, account.id)
        if len(existing) >= self.policy.max_passkeys:
            return too_many(self.policy.max_passkeys)
        # One user handle per account (random: it tells nothing of the account), so that an
        # authenticator keeps one passkey of this account and replaces it when made again.
        handle = (
            existing[0].user_handle if existing else bytes_to_base64url(secrets.token_bytes(32))
        )
        challenge = await self.new_challenge(REGISTER, account.id, digest(sid), handle)
        rp_id, _ = relying_party(request, self.policy)
        options = generate_registration_options(
            rp_id=rp_id,
            rp_name=RP_NAME,
            user_name=account.name,
            user_id=base64url_to_bytes(handle),
            user_display_name=account.name,
            challenge=challenge,
            timeout=int(self.policy.passkey_seconds * 1000),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                require_resident_key=True,
                user_verification=UserVerificationRequirement.REQUIRED,
            ),
            exclude_credentials=[descriptor(p) for p in existing],
        )
        return JSONResponse({"options": json.loads(options_to_json(options))})

    async def register(self, request: Request) -> Response:
        account, sid = await self.members.signed_in(request)
        data = await json_body(request, MAX_BODY)
        try:
            name = check_passkey_name(data.get("name"))
        except ValueError as e:
            return error(400, "bad_request", str(e))
        credential = data.get("credential")
        if not isinstance(credential, dict):
            return error(400, "bad_request", "adding a passkey needs the credential (JSON)")
        challenge, taken = await self.take(credential, REGISTER)
        mine = taken.account_id == account.id and taken.session_hash == digest(sid)
        if not mine or taken.user_handle is None:
            return error(
                400, "passkey_expired", "this passkey request was made by another session"
            )
        rp_id, origins = relying_party(request, self.policy)
        try:
            parsed = parse_registration_credential_json(credential)
            verified = await asyncio.to_thread(
                verify_registration_response,
                credential=parsed,
                expected_challenge=challenge,
                expected_rp_id=rp_id,
                expected_origin=origins,
                require_user_verification=True,
            )
        except (WebAuthnException, ValueError, KeyError, TypeError) as e:
            return error(400, "bad_passkey", f"the passkey was not added: {reason(e)}")
        if await self.db(self.passkeys.count, account.id) >= self.policy.max_passkeys:
            return too_many(self.policy.max_passkeys)
        transports = [t.value for t in parsed.response.transports or []]
        try:
            added: Passkey = await self.db(
                self.passkeys.add, account.id, bytes_to_base64url(verified.credential_id),
                taken.user_handle, verified.credential_public_key, verified.sign_count, name,
                transports,
            )  # fmt: skip
        except PasskeyTaken:
            return error(409, "passkey_taken", "this passkey is already registered here")
        log.info("account %d added a passkey", account.id)
        return JSONResponse({"passkey": passkey_json(added)}, status_code=201)

    async def remove(self, request: Request) -> Response:
        account, _ = await self.members.signed_in(request)
        data = await json_body(request, 4096)
        passkey_id = data.get("id")
        if type(passkey_id) is not int:
            return error(400, "bad_request", "id (the passkey's, a whole number) is missing")
        if not await self.db(self.passkeys.remove, account.id, passkey_id):
            return error(404, "unknown_passkey", "this account has no passkey of that id")
        log.info("account %d removed a passkey", account.id)
        return JSONResponse({"ok": True})

    # -- logging in ------------------------------------------------------------------------

    async def login_options(self, request: Request) -> Response:
        self.budget.check(request)
        data = await json_body(request, 4096)
        name = data.get("name")
        allowed: list[PublicKeyCredentialDescriptor] = []
        if isinstance(name, str) and name.strip():
            # The typed name's passkeys, for an authenticator that cannot find them itself;
            # without a name the browser offers whichever passkeys of this site it holds.
            try:
                key = (await asyncio.to_thread(name_keys, check_name(name.strip())))[0]
            except BadName:
                key = None
            account = await self.db(self.members.accounts.by_key, key) if key else None
            if account is not None:
                theirs = await self.db(self.passkeys.of_account, account.id)
                allowed = [descriptor(p) for p in theirs]
        challenge = await self.new_challenge(LOGIN)
        rp_id, _ = relying_party(request, self.policy)
        options = generate_authentication_options(
            rp_id=rp_id,
            challenge=challenge,
            timeout=int(self.policy.passkey_seconds * 1000),
            allow_credentials=allowed,
            user_verification=UserVerificationRequirement.REQUIRED,
        )
        return JSONResponse({"options": json.loads(options_to_json(options))})

    async def login(self, request: Request) -> Response:
        members = self.members
        await members.prune()
        data = await json_body(request, MAX_BODY)
        credential = data.get("credential")
        if not isinstance(credential, dict) or not isinstance(credential.get("id"), str):
            return error(400, "bad_request", "a passkey log-in needs the credential (JSON)")
        credential_id: str = credential["id"]
        if not credential_id:
            return error(400, "bad_request", "a passkey log-in needs the credential (JSON)")
        found: Passkey | None = await self.db(self.passkeys.by_credential, credential_id)
        account = await self.db(members.accounts.get, found.account_id) if found else None
        if account is not None:
            key = (await asyncio.to_thread(name_keys, account.name))[0]
        else:
            key = "passkey:" + credential_id[:200]  # counts against the address all the same
        limits = await members.within_limits(request, key)
        try:
            challenge, _ = await self.take(credential, LOGIN)
        except Refused:
            await self.db(members.accounts.fail, limits)
            raise
        if found is None or account is None:
            await self.db(members.accounts.fail, limits)
            return error(
                401, "bad_passkey", "this passkey is not (or no longer) one of an account here"
            )
        rp_id, origins = relying_party(request, self.policy)
        try:
            parsed = parse_authentication_credential_json(credential)
            handle = parsed.response.user_handle
            if handle is not None and bytes_to_base64url(handle) != found.user_handle:
                raise ValueError("the passkey's user handle is not its account's")
            verified = await asyncio.to_thread(
                verify_authentication_response,
                credential=parsed,
                expected_challenge=challenge,
                expected_rp_id=rp_id,
                expected_origin=origins,
                credential_public_key=found.public_key,
                credential_current_sign_count=found.sign_count,
                require_user_verification=True,
            )
        except (WebAuthnException, ValueError, KeyError, TypeError) as e:
            await self.db(members.accounts.fail, limits)
            return error(401, "bad_passkey", f"the passkey did not sign in: {reason(e)}")
        counted = await self.db(
            self.passkeys.used, found.id, found.sign_count, verified.new_sign_count
        )
        if not counted:
            # Another log-in with this passkey's same count came first: a copy of it is used.
            await self.db(members.accounts.fail, limits)
            return error(401, "bad_passkey", "the passkey's signature counter went back")
        await self.db(members.accounts.forgive, *limits[0])
        log.info("account %d logged in with a passkey", account.id)
        answer = JSONResponse({"account": profile(account)})
        await members.start_session(request, account, answer)
        return answer

    def routes(self) -> list[Route]:
        """The passkeys' routes."""
        return [
            Route("/api/account/passkeys", self.list_passkeys, methods=["GET"]),
            Route("/api/account/passkeys/options", self.register_options, methods=["POST"]),
            Route("/api/account/passkeys", self.register, methods=["POST"]),
            Route("/api/account/passkeys/remove", self.remove, methods=["POST"]),
            Route("/api/account/passkey-login/options", self.login_options, methods=["POST"]),
            Route("/api/account/passkey-login", self.login, methods=["POST"]),
        ]


def reason(e: Exception) -> str:
    """Why the library refused an answer, in one line (without its pointer to the cause,
    which names nothing a client can see)."""
    return str(e).replace(" See __cause__ for more info", "").strip() or type(e).__name__


def too_many(most: int) -> Response:
    """The answer to one passkey too many."""
    return error(409, "too_many_passkeys", f"an account has at most {most} passkeys: remove one")
