"""The moderators' HTTP API (docs/protocol.md, "Moderation"): read the reported chat
messages, close a report, silence an account or let it speak again.

A moderator is an account flagged with ``chkobba moderator add NAME``; every endpoint
here answers 401 to a request without a session and 403 to one whose account is not a
moderator. Silencing is stored, and every worker checks it as each message is stored,
so it holds at once everywhere.
"""

from __future__ import annotations

import asyncio
import logging

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from chkobba.store.accounts import Account
from chkobba.store.chat import ChatStore
from chkobba.web.account import AccountService
from chkobba.web.http import Refused, error, json_body
from chkobba.web.names import name_keys

log = logging.getLogger("chkobba.web")


class Moderation:
    """The moderators' endpoints of one app."""

    def __init__(self, members: AccountService) -> None:
        self.members = members
        self.chat = ChatStore(members.hub.store.engine)

    async def moderator(self, request: Request) -> Account:
        """The request's account, if it is a moderator's; else :class:`Refused`."""
        account, _ = await self.members.signed_in(request)
        roles = await self.members.db(self.chat.roles, account.id)
        if not roles.moderator:
            raise Refused(403, "not_moderator", "only a moderator may do that")
        return account

    async def reports(self, request: Request) -> Response:
        await self.moderator(request)
        everything = request.query_params.get("all") in ("1", "true")
        found = await self.members.db(self.chat.reports, everything)
        return JSONResponse({"reports": found})

    async def close(self, request: Request) -> Response:
        account = await self.moderator(request)
        try:
            report = int(request.path_params["report"])
        except ValueError:
            return error(404, "unknown_report", "no such report")
        if not await self.members.db(self.chat.close_report, report):
            return error(404, "unknown_report", f"no open report {report}")
        log.info("report %d closed by account %d", report, account.id)
        return JSONResponse({"ok": True})

    async def silence(self, request: Request) -> Response:
        account = await self.moderator(request)
        data = await json_body(request, 1024)
        name, flag = data.get("name"), data.get("silenced", True)
        if not isinstance(name, str) or not isinstance(flag, bool):
            return error(400, "bad_request", "give the account's name and silenced: true/false")
        key = (await asyncio.to_thread(name_keys, name.strip()))[0]
        target: Account | None = await self.members.db(self.members.accounts.by_key, key)
        if target is None:
            return error(404, "unknown_account", f"no account named {name!r}")
        await self.members.db(self.chat.set_silenced, target.id, flag)
        log.info(
            "account %d %s by moderator %d", target.id, "silenced" if flag else "unsilenced",
            account.id,
        )
        return JSONResponse({"name": target.name, "silenced": flag})

    def routes(self) -> list[Route]:
        """The routes under ``/api/moderation``."""
        return [
            Route("/api/moderation/reports", self.reports, methods=["GET"]),
            Route("/api/moderation/reports/{report}/close", self.close, methods=["POST"]),
            Route("/api/moderation/silence", self.silence, methods=["POST"]),
        ]
