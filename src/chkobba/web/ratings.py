"""The ratings' HTTP API and pages (docs/ratings.md): the pools, a pool's leaderboard and
a player's profile.

Everything here reads; ratings are written only when a rated game ends, in the
transaction that stores its end (:func:`chkobba.store.ratings.settle`). A profile shows
its owner every game; anyone else sees the public games only (a private game's rating
change is on the chart, without its code).
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from chkobba.store.pools import POOLS, pool
from chkobba.store.pools import pool_of as rating_pool_of
from chkobba.store.queue import Pool as QueuePool
from chkobba.store.ratings import (
    DISPLAY_SCALE,
    MODEL,
    PROVISIONAL_SIGMA,
    Ratings,
)
from chkobba.web.account import AccountService
from chkobba.web.http import error, json_body
from chkobba.web.names import BadName, check_name, name_keys

MAX_LEADERS: Final = 100
"""The most players ``GET /api/leaderboard?limit=N`` lists."""


class RatingService:
    """The ratings' routes of one app."""

    def __init__(self, members: AccountService) -> None:
        self.members = members
        self.ratings = Ratings(members.hub.store.engine)

    def rating_for(self, account_id: int, queued: QueuePool) -> float | None:
        """An account's rating, as the leaderboard shows it, in the rating pool of a
        Play now pool (None: unrated there, or the queue's pool is not a rating pool)."""
        found = rating_pool_of(queued.game, queued.pool, queued.seating)
        if found is None:
            return None
        mu = self.ratings.mu(account_id, found.name)
        return None if mu is None else mu * DISPLAY_SCALE

    async def db(self, fn: Any, *args: Any) -> Any:
        """Run a ratings method on the store's thread."""
        return await self.members.hub.journal.call(fn, *args)

    async def pools(self, request: Request) -> Response:
        return JSONResponse(
            {
                "pools": [
                    {
                        "pool": p.name,
                        "title": p.title,
                        "game": p.game,
                        "rules": p.rules,
                        "seating": p.seating,
                    }
                    for p in POOLS
                ],
                "scale": DISPLAY_SCALE,
                "start": {"mu": MODEL.mu, "sigma": MODEL.sigma},
                "provisional_sigma": PROVISIONAL_SIGMA,
            }
        )

    async def leaderboard(self, request: Request) -> Response:
        name = request.query_params.get("pool", POOLS[0].name)
        try:
            chosen = pool(name)
        except KeyError:
            return error(404, "unknown_pool", f"no rating pool is called {name!r}")
        asked = request.query_params.get("limit", "50")
        if not (asked.isascii() and asked.isdigit() and 1 <= int(asked) <= MAX_LEADERS):
            return error(
                400, "bad_request", f"limit must be a whole number from 1 to {MAX_LEADERS}"
            )
        found = await self.db(self.ratings.leaderboard, chosen.name, int(asked))
        return JSONResponse(
            {
                "pool": chosen.name,
                "title": chosen.title,
                "players": [
                    {"place": i + 1, **s.to_json()} for i, s in enumerate(found)
                ],
            }
        )

    async def profile(self, request: Request) -> Response:
        asked = request.path_params["name"]
        try:
            key = (await asyncio.to_thread(name_keys, check_name(asked)))[0]
        except BadName:
            return error(404, "unknown_user", "no player has that user name")
        found = await self.db(self.ratings.account_id, key)
        if found is None:
            return error(404, "unknown_user", "no player has that user name")
        account_id, name = found
        viewer = await self.members.current(request)
        own = viewer is not None and viewer.id == account_id
        standings = await self.db(self.ratings.standings, account_id)
        history = await self.db(self.ratings.history, account_id)
        played, won = await self.db(self.ratings.played, account_id)
        recent = await self.db(self.ratings.recent, account_id, not own)
        order = {p.name: i for i, p in enumerate(POOLS)}
        return JSONResponse(
            {
                "name": name,
                "own": own,
                "played": played,
                "won": won,
                "ratings": [
                    s.to_json() for s in sorted(standings, key=lambda s: order.get(s.pool, 99))
                ],
                "history": [p.to_json(private=not own) for p in history],
                "recent": recent,
            }
        )

    async def bench_rated(self, request: Request) -> Response:
        """``POST /api/bench/rated`` (``--bench-seats`` only): a rated game of ``pool``
        whose seats are the accounts ``names``, played by the computer at ``levels``."""
        data = await json_body(request, 4096, required=True)
        try:
            chosen = pool(str(data.get("pool")))
        except KeyError:
            return error(404, "unknown_pool", f"no rating pool is called {data.get('pool')!r}")
        names, levels = data.get("names"), data.get("levels")
        if not (isinstance(names, list) and isinstance(levels, list)):
            return error(400, "bad_request", "names and levels must be lists")
        ids = []
        for name in names:
            key = (await asyncio.to_thread(name_keys, check_name(name)))[0]
            found = await self.db(self.ratings.account_id, key)
            if found is None:
                return error(404, "unknown_user", f"no player is called {name!r}")
            ids.append(found[0])
        try:
            room = await self.members.hub.create_bench_game(chosen, ids, names, levels)
        except ValueError as e:
            return error(400, "bad_request", str(e))
        return JSONResponse({"game": room.id}, status_code=201)

    def routes(self, page: Any) -> list[Route]:
        """The pages (``page(file)`` serves a static page) and the JSON API."""
        bench = [Route("/api/bench/rated", self.bench_rated, methods=["POST"])]
        return [
            *(bench if self.members.hub.settings.bench_seats else []),
            Route("/leaderboard", page("leaderboard.html")),
            Route("/u/{name}", page("profile.html")),
            Route("/api/pools", self.pools),
            Route("/api/leaderboard", self.leaderboard),
            Route("/api/users/{name}", self.profile),
        ]
