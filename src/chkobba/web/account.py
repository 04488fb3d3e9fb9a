"""The accounts' HTTP API (docs/protocol.md, "Accounts"): sign up, log in and out, the
password, the account's games, its data and its deletion.

Every endpoint acts on the account of the request's session cookie and on no other:
none takes an account's id or name to act on, so one account cannot read or change
another's data. Accounts, sessions and failed log-ins are all in the database
(:class:`chkobba.store.accounts.Accounts`), so any worker of a cluster answers alike.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import time
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from chkobba.store.accounts import NEUTRAL_NAME, Account, AccountGame, Accounts, NameTaken
from chkobba.store.chat import ChatStore
from chkobba.store.store import now
from chkobba.web.auth import (
    SESSION_COOKIE,
    AccountPolicy,
    Passwords,
    check_password,
    cross_site,
    digest,
    new_session_id,
)
from chkobba.web.http import Budgets, Refused, client_address, error, json_body
from chkobba.web.hub import Hub
from chkobba.web.names import BadName, check_name, name_keys, reserved

log = logging.getLogger("chkobba.web")

MAX_BODY = 4096


class AccountService:
    """Accounts for one app: its policy, the password hasher, the store's accounts."""

    def __init__(self, hub: Hub, policy: AccountPolicy | None = None) -> None:
        self.hub = hub
        self.policy = policy or AccountPolicy()
        self.accounts = Accounts(hub.store.engine)
        self._passwords: Passwords | None = None
        # Signing up is cheap to ask and costly to answer (a hash): a budget per address.
        self.signups = Budgets(self.policy.signup_rate, self.policy.signup_burst, "sign-ups")
        self._pruned_at: float | None = None

    async def passwords(self) -> Passwords:
        """The hasher (made on first use, on a thread: it hashes a dummy password)."""
        if self._passwords is None:
            self._passwords = await asyncio.to_thread(Passwords, self.policy)
        return self._passwords

    async def db(self, fn: Any, *args: Any) -> Any:
        """Run an accounts method on the store's thread."""
        return await self.hub.journal.call(fn, *args)

    # -- who is asking -----------------------------------------------------------

    async def current(self, conn: HTTPConnection) -> Account | None:
        """The account of the request's session cookie, or None (no cookie, an unknown
        or expired session, or a WebSocket opened by another site's page)."""
        sid = conn.cookies.get(SESSION_COOKIE)
        if not sid:
            return None
        if conn.scope["type"] == "websocket" and cross_site(conn.headers):
            # Another site's page may open a WebSocket to us with the browser's cookies:
            # it gets a guest's connection, never the account's seats.
            return None
        found: Account | None = await self.db(self.accounts.session_account, digest(sid))
        return found

    async def signed_in(self, request: Request) -> tuple[Account, str]:
        """The account and session id of the request, or :class:`Refused` 401."""
        account = await self.current(request)
        if account is None:
            raise Refused(401, "not_signed_in", "you are not signed in: log in first")
        return account, request.cookies[SESSION_COOKIE]

    # -- the cookie ----------------------------------------------------------------

    async def start_session(self, request: Request, account: Account, answer: Response) -> None:
        """Open a session for ``account`` and set its cookie on ``answer`` (ending the
        session this browser had, if any: one browser, one session)."""
        old = request.cookies.get(SESSION_COOKIE)
        if old:
            await self.db(self.accounts.close_session, digest(old))
        sid = new_session_id()
        days = self.policy.session_days
        expires = now() + dt.timedelta(days=days)
        await self.db(self.accounts.open_session, digest(sid), account.id, expires)
        answer.set_cookie(
            SESSION_COOKIE,
            sid,
            max_age=int(days * 86400),
            path="/",
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )

    def end_cookie(self, request: Request, answer: Response) -> None:
        """Tell the browser to forget its session cookie."""
        answer.delete_cookie(
            SESSION_COOKIE,
            path="/",
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )

    # -- the endpoints ---------------------------------------------------------------

    async def signup(self, request: Request) -> Response:
        self.signups.check(request)
        data = await json_body(request, MAX_BODY)
        try:
            name = check_name(data.get("name"))
        except BadName as e:
            return error(400, "bad_name", str(e))
        try:
            password = check_password(data.get("password"))
        except ValueError as e:
            return error(400, "bad_request", str(e))
        key, shape = await asyncio.to_thread(name_keys, name)
        if reserved(name):
            return error(400, "bad_name", f"the user name {name!r} is reserved")
        if await self.db(self.accounts.taken, key, shape):
            return taken(name)
        hashed = (await self.passwords()).hash
        password_hash = await asyncio.to_thread(hashed, password)
        try:
            account = await self.db(self.accounts.create, name, key, shape, password_hash)
        except NameTaken:
            return taken(name)
        log.info("account %d signed up", account.id)
        answer = JSONResponse({"account": profile(account)}, status_code=201)
        await self.start_session(request, account, answer)
        return answer

    async def prune(self) -> None:
        """Now and then (on a log-in), forget expired sessions and failed log-ins older
        than the window: the database holds no more than the limits need."""
        at = time.monotonic()
        if self._pruned_at is not None and at - self._pruned_at < self.policy.prune_every:
            return
        self._pruned_at = at
        before = now() - dt.timedelta(seconds=self.policy.window)
        try:
            await self.db(self.accounts.prune, before)
        except Exception:
            log.exception("could not clean up old sessions and failed log-ins")

    async def within_limits(self, request: Request, key: str) -> list[tuple[str, str]]:
        """The keys under which a failed password counts (the account's name ``key``, and
        the client's address), once checked to be under their limits: else
        :class:`Refused` 429 ``login_limited``, with when to try again."""
        limits = [
            ("account", digest(key), self.policy.account_failures, "this account"),
            ("address", digest(client_address(request)), self.policy.address_failures,
             "your address"),
        ]
        since = now() - dt.timedelta(seconds=self.policy.window)
        for scope, hashed, most, whose in limits:
            n, oldest = await self.db(self.accounts.failures, scope, hashed, since)
            if n >= most and oldest is not None:
                wait = (oldest - since).total_seconds()
                raise Refused(
                    429,
                    "login_limited",
                    f"too many failed log-ins for {whose} ({n} in "
                    f"{self.policy.window / 60:g} minutes): try again in {wait:.0f} s",
                    retry_after=wait,
                )
        return [(scope, hashed) for scope, hashed, _, _ in limits]

    async def confirm(self, request: Request, account: Account, password: str) -> bool:
        """Whether ``password`` is the signed-in account's: a wrong one counts as a failed
        log-in, so that a borrowed session cannot guess the password faster."""
        key = (await asyncio.to_thread(name_keys, account.name))[0]
        keys = await self.within_limits(request, key)
        passwords = await self.passwords()
        if await asyncio.to_thread(passwords.check, account.password_hash, password[:2048]):
            return True
        await self.db(self.accounts.fail, keys)
        return False

    async def login(self, request: Request) -> Response:
        await self.prune()
        data = await json_body(request, MAX_BODY)
        name, password = data.get("name"), data.get("password")
        if not isinstance(name, str) or not isinstance(password, str):
            return error(400, "bad_request", "a log-in needs a name and a password (strings)")
        try:
            key = (await asyncio.to_thread(name_keys, check_name(name)))[0]
        except BadName:
            key = name  # no such account; it counts against the address all the same
        limits = await self.within_limits(request, key)
        account = await self.db(self.accounts.by_key, key)
        passwords = await self.passwords()
        stored = account.password_hash if account is not None else None
        ok = await asyncio.to_thread(passwords.check, stored, password[:2048])
        if not ok or account is None:
            await self.db(self.accounts.fail, limits)
            return error(401, "bad_login", "wrong user name or password")
        await self.db(self.accounts.forgive, *limits[0])
        if await asyncio.to_thread(passwords.needs_rehash, account.password_hash):
            fresh = await asyncio.to_thread(passwords.hash, password)
            await self.db(self.accounts.rehash, account.id, account.password_hash, fresh)
        answer = JSONResponse({"account": profile(account)})
        await self.start_session(request, account, answer)
        return answer

    async def logout(self, request: Request) -> Response:
        sid = request.cookies.get(SESSION_COOKIE)
        if sid:
            await self.db(self.accounts.close_session, digest(sid))
        answer = JSONResponse({"ok": True})
        self.end_cookie(request, answer)
        return answer

    async def logout_everywhere(self, request: Request) -> Response:
        account, _ = await self.signed_in(request)
        ended = await self.db(self.accounts.close_sessions, account.id)
        answer = JSONResponse({"ok": True, "sessions": ended})
        self.end_cookie(request, answer)
        return answer

    async def change_password(self, request: Request) -> Response:
        account, sid = await self.signed_in(request)
        data = await json_body(request, MAX_BODY)
        old = data.get("password")
        try:
            new = check_password(data.get("new_password"), "new_password")
        except ValueError as e:
            return error(400, "bad_request", str(e))
        if not isinstance(old, str):
            return error(400, "bad_request", "password (the current one) must be a string")
        if not await self.confirm(request, account, old):
            return error(403, "wrong_password", "the current password is wrong")
        passwords = await self.passwords()
        fresh = await asyncio.to_thread(passwords.hash, new)
        # Every other browser signed in to the account is signed out.
        await self.db(self.accounts.set_password, account.id, fresh, digest(sid))
        return JSONResponse({"ok": True})

    async def delete(self, request: Request) -> Response:
        account, _ = await self.signed_in(request)
        data = await json_body(request, MAX_BODY)
        password = data.get("password")
        if not isinstance(password, str):
            return error(400, "bad_request", "deleting the account asks for its password")
        if not await self.confirm(request, account, password):
            return error(403, "wrong_password", "the password is wrong")
        unfinished = await self.db(self.accounts.delete, account.id)
        await self.forget_in_rooms(account.id, unfinished)
        log.info("account %d deleted", account.id)
        answer = JSONResponse({"ok": True})
        self.end_cookie(request, answer)
        return answer

    async def forget_in_rooms(self, account_id: int, unfinished: list[str]) -> None:
        """After an account is deleted: the games being played show the neutral name.
        Those held here change at once; in a cluster, the others' holders are asked to
        let them go, and whoever loads them next reads the new names."""
        for code in unfinished:
            room = self.hub.rooms.get(code)
            if room is not None:
                for seat in range(room.seats):
                    if room.account_of(seat) == account_id:
                        room.accounts[seat] = None
                        room.names[seat] = NEUTRAL_NAME
                self.hub.announce_room(room)
            elif self.hub.cluster is not None:
                await self.hub.journal.call(self.hub.cluster.ask, code)
        for room in self.hub.rooms.values():
            # Finished games held here for their followers.
            if account_id in room.accounts:
                room.accounts = [None if a == account_id else a for a in room.accounts]

    async def session(self, request: Request) -> Response:
        account = await self.current(request)
        if account is None:
            return JSONResponse({"signed_in": False})
        return JSONResponse({"signed_in": True, "account": profile(account)})

    async def me(self, request: Request) -> Response:
        account, _ = await self.signed_in(request)
        played = await self.db(self.accounts.games_of, account.id)
        roles = await self.db(ChatStore(self.hub.store.engine).roles, account.id)
        return JSONResponse(
            {
                "account": profile(account),
                "games": [game_json(g) for g in played],
                "moderator": roles.moderator,
            }
        )

    async def export(self, request: Request) -> Response:
        account, _ = await self.signed_in(request)
        data = await self.db(self.accounts.export, account.id)
        data["exported"] = now().isoformat()
        return Response(
            json.dumps(data, ensure_ascii=False, indent=1) + "\n",
            media_type="application/json",
            headers={"Content-Disposition": 'attachment; filename="chkobba-account.json"'},
        )

    def routes(self) -> list[Route]:
        """The account's routes under ``/api/account``."""
        return [
            Route("/api/account", self.me, methods=["GET"]),
            Route("/api/account/session", self.session, methods=["GET"]),
            Route("/api/account/signup", self.signup, methods=["POST"]),
            Route("/api/account/login", self.login, methods=["POST"]),
            Route("/api/account/logout", self.logout, methods=["POST"]),
            Route("/api/account/logout-everywhere", self.logout_everywhere, methods=["POST"]),
            Route("/api/account/password", self.change_password, methods=["POST"]),
            Route("/api/account/delete", self.delete, methods=["POST"]),
            Route("/api/account/export", self.export, methods=["GET"]),
        ]


def taken(name: str) -> Response:
    """The answer to a name already registered, or one like it."""
    return error(
        409, "name_taken", f"the user name {name!r}, or one that looks like it, is taken"
    )


def profile(account: Account) -> dict[str, Any]:
    """What the account's owner is shown of it (never the password's hash)."""
    return {"name": account.name, "created": account.created_at.isoformat()}


def game_json(g: AccountGame) -> dict[str, Any]:
    """One of the account's games, for its list."""
    page = "/touti" if g.game == "touti" else "/g"
    return {
        "game": g.id,
        "game_name": g.game,
        "rules": g.rules,
        "kind": g.kind,
        "status": g.status,
        "seat": g.seat,
        "seats": g.seats,
        "private": g.unlisted,
        "created": g.created_at.isoformat(),
        "finished": g.finished_at.isoformat() if g.finished_at else None,
        "url": f"{page}/{g.id}",
        "replay": f"/replay/{g.id}" if g.status == "finished" else None,
    }
