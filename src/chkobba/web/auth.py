"""Passwords, session cookies and the cross-site check (docs/web.md, "Accounts").

- Passwords are hashed with Argon2id (``argon2-cffi``, RFC 9106's parameters unless
  the :class:`AccountPolicy` says otherwise); a hash made with other parameters is
  made again at the next log-in. Neither the password nor its hash is ever logged.
- A session is a random id (32 bytes) in the cookie ``chkobba_session``: ``HttpOnly``,
  ``SameSite=Lax``, ``Secure`` when the request came over HTTPS (directly, or through
  a proxy uvicorn trusts that says so); the database keeps only its SHA-256, with an
  expiry.
- :class:`CrossSite` refuses any state-changing request whose ``Origin`` (or, without
  one, ``Referer``) names another host than the request's own: a page of another site
  cannot make a signed-in browser create games, change a password or delete an account.
  Requests without either header (scripts, ``curl``) are not a browser's and pass.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from chkobba.web.http import error

SESSION_COOKIE: Final = "chkobba_session"
SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 1024
"""Longest password accepted, in characters (hashing a huge one would be work for nothing)."""


@dataclass(frozen=True)
class AccountPolicy:
    """How accounts behave: sessions, log-in limits and the password hash's cost."""

    session_days: float = 30.0
    """How long a session lasts after logging in."""
    account_failures: int = 5
    """Failed log-ins to one account within ``window`` before it is refused (429)."""
    address_failures: int = 20
    """Failed log-ins from one client address within ``window`` before it is refused."""
    window: float = 15 * 60.0
    """Seconds over which failed log-ins count."""
    prune_every: float = 3600.0
    """Seconds between two clean-ups of expired sessions and old failed log-ins."""
    signup_rate: float = 0.2
    signup_burst: float = 5.0
    """Sign-ups a second from one address (each costs a hash), and their burst."""
    passkey_origins: tuple[str, ...] = ()
    """The origins (``https://chkobba.example``) whose pages may use the account's
    passkeys; empty: the origin of each request (its scheme and ``Host``), which is right
    unless a proxy in front changes the ``Host`` (docs/deploy.md, "Passkeys")."""
    passkey_rp_id: str | None = None
    """The WebAuthn relying party's id (a domain, which every passkey is bound to); None:
    the host of the first of ``passkey_origins``, or else of the request."""
    passkey_seconds: float = 300.0
    """How long a passkey challenge may be answered (once) after it was sent."""
    passkey_rate: float = 0.5
    passkey_burst: float = 10.0
    """Passkey challenges a second from one address (each is a row), and their burst."""
    max_passkeys: int = 20
    """The most passkeys one account may have."""
    time_cost: int = 3
    memory_cost: int = 65536
    """Argon2id's memory in KiB (64 MiB: RFC 9106's second recommended option)."""
    parallelism: int = 4

    def hasher(self) -> PasswordHasher:
        """The Argon2id hasher of these parameters."""
        return PasswordHasher(
            time_cost=self.time_cost,
            memory_cost=self.memory_cost,
            parallelism=self.parallelism,
            type=Type.ID,
        )


class Passwords:
    """Hashing and checking passwords with one policy's Argon2id (blocking: call these on
    a thread, never on the event loop)."""

    def __init__(self, policy: AccountPolicy) -> None:
        self.hasher = policy.hasher()
        # Checked when the name is unknown, so that a wrong name takes as long as a
        # wrong password and the time of the answer does not tell which names exist.
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))

    def hash(self, password: str) -> str:
        """The Argon2id hash of ``password`` (salted: two hashes of one password differ)."""
        return self.hasher.hash(password)

    def check(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one ``stored`` was made from (None: no account,
        checked against a dummy all the same)."""
        try:
            self.hasher.verify(stored or self._dummy, password)
        except (VerificationError, InvalidHashError):
            return False
        return stored is not None

    def needs_rehash(self, stored: str) -> bool:
        """Whether ``stored`` was made with other parameters than the policy's."""
        return self.hasher.check_needs_rehash(stored)


def check_password(password: object, field: str = "password") -> str:
    """A new password, checked: ``ValueError`` with the reason otherwise."""
    if not isinstance(password, str):
        raise ValueError(f"{field} must be a string")
    if len(password) < MIN_PASSWORD:
        raise ValueError(f"a password has at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise ValueError(f"a password has at most {MAX_PASSWORD} characters")
    return password


def new_session_id() -> str:
    """A fresh, unguessable session id (what the cookie carries)."""
    return secrets.token_urlsafe(32)


def digest(value: str) -> str:
    """The SHA-256 of ``value`` in hexadecimal: what the database keeps of a session id,
    and the keys under which failed log-ins count."""
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()


def _netloc(url: str) -> str | None:
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return None
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"  # an IPv6 address, written as the Host header writes it
    try:
        port = parts.port
    except ValueError:
        return None
    default = {"http": 80, "https": 443, "ws": 80, "wss": 443}.get(parts.scheme)
    return host if port is None or port == default else f"{host}:{port}"


def _host(value: str) -> str:
    host, _, port = value.strip().lower().rpartition(":")
    if not host or "]" in port:
        # No port (or an IPv6 address without one).
        return value.strip().lower()
    return host if port in ("80", "443") else f"{host}:{port}"


def cross_site(headers: Headers) -> bool:
    """Whether a request comes from a page of another site: its ``Origin`` (or else its
    ``Referer``) names another host than its ``Host``. Without either, it is no
    browser's cross-site request."""
    origin = headers.get("origin")
    if origin is None:
        origin = headers.get("referer")
        if origin is None:
            return False
    claimed = _netloc(origin)
    host = headers.get("host")
    if claimed is None or host is None:
        # "Origin: null" (a sandboxed page, a redirect across sites) or garbage.
        return True
    return claimed != _host(host)


class CrossSite:
    """ASGI middleware: a state-changing HTTP request from another site's page is refused
    with ``403 cross_site`` before any endpoint reads it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] not in SAFE_METHODS
            and cross_site(Headers(scope=scope))
        ):
            answer = error(
                403, "cross_site", "this request comes from another site's page: refused"
            )
            await answer(scope, receive, send)
            return
        await self.app(scope, receive, send)
