"""What every HTTP endpoint of the server shares (docs/protocol.md, "HTTP API").

The JSON error format (:func:`error`, :class:`Refused`), reading a JSON body
(:func:`json_body`, through the same :func:`~chkobba.web.protocol.read_json` as
the WebSocket's messages), the client's address and the request budgets kept per
address (:class:`Budgets`), :class:`NoTokenInUrl`, which refuses a seat token in a
URL (access logs record URLs), and :class:`JsonErrors`, which answers any unexpected
failure in the same JSON format.
"""

from __future__ import annotations

import logging
import math
from typing import Any, Final
from urllib.parse import unquote_to_bytes

from sqlalchemy.exc import DBAPIError, OperationalError
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from chkobba.web.bucket import RateLimiter
from chkobba.web.protocol import ProtocolError, read_json

log = logging.getLogger("chkobba.web")

HTTP_ERROR_CODES: Final = {
    "bad_request": "a parameter or a field is missing, malformed or out of range",
    "bad_json": "the body is not JSON (or nests too deeply, or holds a lone surrogate)",
    "bad_record": "the game record does not verify",
    "token_in_url": "a seat token was sent in the URL: send it in the request's JSON body",
    "bad_token": "the seat token is not one of this game's",
    "unknown_game": "no game has that id",
    "unknown_level": "no computer player has that name",
    "unknown_rules": "no rules page has that name (GET /api/rules lists them)",
    "unknown_card": "no card image has that deck and name (/cards/{deck}/{card}.svg)",
    "not_finished": "the game is not over yet",
    "not_coached": "the coach does not know this game (it coaches the Chkobba family)",
    "not_weighed": "hints weigh the cards to play, not the bidding",
    "coaching_off": "the room's creator chose to play this game between people without the coach",
    "too_large": "the body, or the work asked for, is larger than the limit (413)",
    "rate_limited": "too many requests from this address: slow down (429)",
    "busy": "the server's queue for this work is full: try again later (429)",
    "timeout": "the work took longer than the limit and was stopped (503)",
    "cross_site": "a state-changing request from another site's page (Origin or Referer) (403)",
    "not_signed_in": "the request needs a signed-in session: log in (401)",
    "bad_login": "the user name or the password is wrong (401)",
    "login_limited": "too many failed log-ins for this account or address: wait (429)",
    "bad_name": "the user name is not 3 to 20 letters, digits, '_' or '-' (400)",
    "name_taken": "that user name, or one that looks like it, is registered (409)",
    "wrong_password": "the current password given is wrong (403)",
    "bad_passkey": "the passkey's answer does not verify (origin, signature, counter), or "
    "names no passkey of an account here (400 adding one, 401 logging in)",
    "passkey_expired": "the passkey's challenge is unknown, expired, answered already or "
    "another session's: start again (400 adding one, 401 logging in)",
    "passkey_taken": "this passkey is already registered (409)",
    "too_many_passkeys": "the account has as many passkeys as it may: remove one (409)",
    "unknown_passkey": "the account has no passkey of that id (404)",
    "not_rateable": "a rated game must be a room between signed-in players, without the "
    "computer or the coach, in a pool's rules and table (400)",
    "rated_needs_account": "a rated game's seats are for signed-in players: log in (403)",
    "unknown_pool": "no rating pool has that name (GET /api/pools lists them) (404)",
    "unknown_user": "no account has that user name (404)",
    "already_seated": "the signed-in account already holds a seat in this game (409)",
    "not_in_queue": "the Play now ticket is not in the queue: left, or expired (404)",
    "unknown_player": "no account has that user name (404)",
    "unknown_challenge": "no such challenge, or not one this player may see (404)",
    "challenge_gone": "the challenge is no longer open, or not for this player (409)",
    "not_moderator": "only a chat moderator may do that (403)",
    "unknown_account": "no account has that user name (404)",
    "unknown_report": "no open report has that id (404)",
    "server_error": "the server failed (500), or the database does not answer (503)",
    "starting": "/healthz: the server is starting (503)",
    "database_unavailable": "/healthz: the database does not answer (503)",
}
"""The ``error`` codes of HTTP answers (besides the game's own: ``not_your_turn``, …)."""

MAX_ADDRESSES: Final = 10_000
"""Addresses a :class:`Budgets` remembers before it forgets them all (idle ones mostly)."""


class Refused(Exception):
    """A request answered with an error: ``status``, ``code`` and a one-line message;
    ``retry_after``, the seconds after which asking again may succeed (a 429's)."""

    def __init__(
        self, status: int, code: str, message: str, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after

    def response(self) -> JSONResponse:
        """The answer in the JSON error format (with ``Retry-After`` if known)."""
        answer = error(self.status, self.code, self.message)
        if self.retry_after is not None:
            answer.headers["Retry-After"] = str(max(1, math.ceil(self.retry_after)))
        return answer


def error(status: int, code: str, message: str) -> JSONResponse:
    """An answer in the JSON error format: ``{"error": code, "message": message}``."""
    return JSONResponse({"error": code, "message": message}, status_code=status)


async def json_body(request: Request, limit: int, required: bool = False) -> dict[str, Any]:
    """The request's body, a JSON object of at most ``limit`` bytes; an empty body is
    ``{}``, unless ``required`` (then ``400 bad_json``: send ``{}`` for every default)."""
    raw = await request.body()
    if len(raw) > limit:
        raise Refused(413, "too_large", f"the request body is limited to {limit} bytes")
    if not raw.strip():
        if required:
            raise Refused(
                400, "bad_json", "the request body must be a JSON object ({} for every default)"
            )
        return {}
    try:
        data = read_json(raw)
    except ProtocolError as e:
        raise Refused(400, "bad_json", e.message) from None
    if not isinstance(data, dict):
        raise Refused(400, "bad_json", "the request body must be a JSON object")
    return data


def client_address(conn: HTTPConnection) -> str:
    """Whom a request comes from, for quotas: the peer's IP address.

    Behind a reverse proxy every request comes from the proxy's address unless
    uvicorn trusts its ``X-Forwarded-For`` (``FORWARDED_ALLOW_IPS``).
    """
    return conn.client.host if conn.client else "?"


class Budgets:
    """A token bucket per client address for one kind of request: ``rate`` a second,
    bursts of ``burst``; beyond, ``429 rate_limited``."""

    def __init__(self, rate: float, burst: float, what: str) -> None:
        self.rate = rate
        self.burst = burst
        self.what = what
        self.buckets: dict[str, RateLimiter] = {}

    def allow(self, address: str) -> bool:
        """Take one request from ``address``'s budget if there is one."""
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= MAX_ADDRESSES:
                self.buckets.clear()  # forget idle addresses rather than grow without bound
            bucket = self.buckets[address] = RateLimiter(self.rate, self.burst)
        return bucket.allow()

    def check(self, request: HTTPConnection) -> None:
        """Raise :class:`Refused` (429) if the request's address is over its budget."""
        address = client_address(request)
        if not self.allow(address):
            bucket = self.buckets[address]
            raise Refused(
                429,
                "rate_limited",
                f"too many {self.what} from your address (at most {self.rate:g} a second, "
                f"bursts of {self.burst:g}): slow down",
                retry_after=(1 - bucket.tokens) / bucket.rate,
            )


TOKEN_PARAMS: Final = frozenset({"token", "access_token"})
"""Query parameters that would carry a seat token (names compared without case)."""
REDACTED: Final = b"REDACTED"


def token_in_query(query: bytes) -> tuple[bool, bytes]:
    """Whether a URL's query (as bytes) carries a token, and the query with every token's
    value replaced by ``REDACTED``, fit for a log."""
    found = False
    parts = []
    for part in query.split(b"&"):
        name, eq, _ = part.partition(b"=")
        if unquote_to_bytes(name.replace(b"+", b" ")).strip().lower().decode(
            "latin-1"
        ) in TOKEN_PARAMS:
            found = True
            part = name + (eq or b"=") + REDACTED
        parts.append(part)
    return found, b"&".join(parts)


class NoTokenInUrl:
    """ASGI middleware: a request with a seat token in its URL's query is refused unread,
    ``400 token_in_url`` (a WebSocket, before it is accepted: the handshake is answered
    403), on every route; and the token's value is blanked out of the request, so that
    the access log, which uvicorn writes from it, never shows it.

    URLs end up in access logs, proxies' logs and browser histories: tokens travel in
    a JSON body or the WebSocket's ``hello``.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        found, clean = token_in_query(scope.get("query_string", b""))
        if not found:
            await self.app(scope, receive, send)
            return
        # The same dict the server logs from: changed in place, not copied.
        scope["query_string"] = clean
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "token in URL"})
            return
        answer = error(
            400,
            "token_in_url",
            "never put a seat token in a URL: send it in the request's JSON body "
            '({"token": "…"}; on the WebSocket, in hello)',
        )
        await answer(scope, receive, send)


def database_down(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot be reached (rather than a bug)."""
    if isinstance(exc, OperationalError):
        return True
    return isinstance(exc, DBAPIError) and exc.connection_invalidated


class JsonErrors:
    """ASGI middleware: an HTTP request that fails unexpectedly is answered in the JSON
    error format: ``503 server_error`` when the database does not answer, else ``500``.

    A failure after the answer has started cannot be answered again; it goes on to
    the server, which closes the connection.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as e:
            if started:
                raise
            path = scope.get("path", "?")
            if database_down(e):
                reason = str(getattr(e, "orig", None) or e).strip().splitlines()
                log.error("%s: the database does not answer: %s", path, reason[0] if reason else e)
                answer = error(503, "server_error", "the database does not answer; try again soon")
            else:
                log.exception("%s: unexpected error", path)
                answer = error(500, "server_error", "the server failed; try again")
            await answer(scope, receive, send)
