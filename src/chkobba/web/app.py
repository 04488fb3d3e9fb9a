"""The ASGI application: pages, the JSON API and the game WebSocket (docs/protocol.md).

``create_app(db_url)`` builds it; the lifespan migrates the database and resumes
every unfinished game before the server accepts a connection, so ``/healthz``
answering means the server is ready.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from chkobba.fishing.rules import RulesError
from chkobba.games import GAME_NAMES, catalogue, game
from chkobba.games.base import choose_table, table_of
from chkobba.games.chkobba import levels
from chkobba.store import Store
from chkobba.web.account import AccountService
from chkobba.web.auth import AccountPolicy, CrossSite
from chkobba.web.chat import TableChat
from chkobba.web.coach import Coach
from chkobba.web.deck import DeckError, card_etag, svg
from chkobba.web.http import (
    HTTP_ERROR_CODES,
    Budgets,
    JsonErrors,
    NoTokenInUrl,
    Refused,
    error,
    json_body,
)
from chkobba.web.hub import (
    Busy,
    Conn,
    Hub,
    Settings,
    clean_name,
    room_from_stored,
)
from chkobba.web.life import SETTING_FIELDS, room_settings
from chkobba.web.matchmaking import Matchmaking, QueuePolicy, RatingFor
from chkobba.web.metrics import Metrics
from chkobba.web.moderation import Moderation
from chkobba.web.passkeys import PasskeyService
from chkobba.web.protocol import (
    ERROR_CODES,
    MAX_MESSAGE_BYTES,
    PROTOCOL,
    PlayMsg,
    ProtocolError,
    error_message,
    message_id,
    parse_client_message,
    point_names,
)
from chkobba.web.pwa import CachedStatic, manifest, service_worker
from chkobba.web.rated import NotRateable, check_rated
from chkobba.web.ratings import RatingService
from chkobba.web.replay import game_record, replay_frames, table_steps
from chkobba.web.rules_page import UnknownRules, index_json, rules_json
from chkobba.web.work import Limits, Work
from chkobba.words.catalogue import CATALOGUES

log = logging.getLogger("chkobba.web")

STATIC: Final = Path(__file__).parent / "static"
MAX_BODY: Final = 4096
GZIP_MINIMUM: Final = 512
"""Answers shorter than this many bytes travel as they are (compressing saves nothing)."""
GZIP_LEVEL: Final = 6
"""zlib's level: nearly the smallest output for a fraction of level 9's time."""
FLUSH_SECONDS: Final = 5.0
"""How long a closing WebSocket may take to send what is queued for it, and its close."""
MAX_LIST: Final = 100
"""The most finished games ``GET /api/games?status=finished&limit=N`` lists."""
PING_SECONDS: Final = 2.0
"""How long ``/healthz`` waits for the database's answer to ``SELECT 1``."""
CARD_MAX_AGE: Final = 7 * 24 * 3600
"""How long a browser keeps a card's image before asking again (seconds)."""
TARGETS: Final = (11, 21, 31)
SEATINGS: Final = {"2": (2, False), "2v2": (4, True), "3": (3, False), "4": (4, False)}
"""The table layouts a game can be created with: players, and whether in teams."""


FIELDS: Final = (
    "game", "rules", "options", "players", "teams", "seating", "target", "level", "mode",
    "name", "computers", *SETTING_FIELDS,
)
"""The fields of a ``POST /api/games`` body."""


def creation(data: dict[str, Any], settings: Settings | None = None) -> dict[str, Any]:
    """The arguments of :meth:`Hub.create_game` for a ``POST /api/games`` body, checked
    field by field (the targets allowed are ``settings``'); a bad one is a ``ValueError``
    in one line (docs/protocol.md)."""
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise ValueError(f"unknown field(s): {', '.join(unknown)} (known: {', '.join(FIELDS)})")
    game_name = data.get("game", "chkobba")
    if game_name not in GAME_NAMES:
        raise ValueError(f"game must be one of {', '.join(GAME_NAMES)}, not {game_name!r}")
    played = game(game_name)
    mode = data.get("mode", "computer")
    if mode not in ("computer", "room"):
        raise ValueError("mode must be 'computer' or 'room'")
    rules_name = data.get("rules")
    if rules_name is not None and not isinstance(rules_name, str):
        raise ValueError("rules must be the name of a rule set (chkobba rules), such as 'scopa'")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ValueError("options must be an object of rule options")
    rules = played.make_rules(rules_name, options)
    seating = data.get("seating")
    players = data.get("players")
    teams = data.get("teams")
    if players is not None and (type(players) is not int or not 2 <= players <= 6):
        raise ValueError(f"players must be a number of players, 2 to 6, not {players!r}")
    if teams is not None and not isinstance(teams, bool):
        raise ValueError(f"teams must be true or false, not {teams!r}")
    if seating is not None:
        known = played.seatings(rules)
        if not isinstance(seating, str):
            raise ValueError(
                f"seating must be a seating's name as a string ({', '.join(map(repr, known))}), "
                f"not {seating!r}"
            )
        if players is not None or teams is not None:
            # Two ways of saying the table at once could contradict each other.
            raise ValueError(
                "give the table either as seating or as players and teams, not both"
            )
        if seating not in known:
            raise ValueError(f"seating must be one of {', '.join(known)}, not {seating!r}")
        seats, together = table_of(seating)
    else:
        seats, together = choose_table(played.seatings(rules), players, teams, False)
    played.check_table(rules, seats, together)
    target = data.get("target")
    allowed = (settings or Settings()).targets(played, rules)
    if target is not None and (type(target) is not int or target not in allowed):
        known_targets = ", ".join(str(t) for t in allowed)
        raise ValueError(f"target must be one of {known_targets}")
    computers = data.get("computers")
    if computers is not None and not (
        isinstance(computers, list) and all(c is None or isinstance(c, str) for c in computers)
    ):
        raise ValueError("computers must be a list of levels (or null) by seat")
    return {
        "kind": mode,
        "seats": seats,
        "teams": together,
        "target": target,
        "level": None,
        "game_name": game_name,
        "rules_name": rules_name,
        "options": options,
        "computers": computers,
        # A room whose every other seat goes to the computer at once (Touti's page makes
        # one to choose the partner's level apart) is a game against the computer: its
        # settings default as such (private, coached).
        "settings": room_settings(data, "computer" if alone(computers, seats) else mode),
    }


def rated_rules(spec: dict[str, Any], signed_in: bool) -> None:
    """Check that the game of ``spec`` (:func:`creation`'s) may be rated: else
    :class:`NotRateable`, saying why."""
    played = game(spec["game_name"])
    rules = played.make_rules(spec["rules_name"], spec["options"])
    if spec["target"] is not None:
        rules = played.with_target(rules, spec["target"])
    check_rated(
        played, rules, spec["seats"], spec["teams"], spec["kind"], signed_in,
        spec["computers"], spec["settings"].coaching, spec["settings"].team_talk,
    )


def alone(computers: list[str | None] | None, seats: int) -> bool:
    """Whether ``computers`` gives every seat but the creator's to the computer."""
    wanted = list(computers or [])
    return len(wanted) == seats and all(wanted[s] is not None for s in range(1, seats))


def create_app(
    db_url: str,
    settings: Settings | None = None,
    limits: Limits | None = None,
    worker: str | None = None,
    accounts: AccountPolicy | None = None,
    queue: QueuePolicy | None = None,
    ratings: RatingFor | None = None,
) -> Starlette:
    """The web application, storing games in the database at ``db_url``; with ``worker``
    (its name), one worker of a cluster sharing that PostgreSQL database (docs/deploy.md);
    ``accounts``, how accounts behave (sessions, log-in limits, the password hash);
    ``queue``, how the "Play now" queue pairs; ``ratings``, each account's rating in a
    pool, which the queue pairs by (by default the one the leaderboard shows)."""
    store = Store(db_url, manual_checkpoints=True)
    hub = Hub(store, TableChat, settings)
    if worker is not None:
        from chkobba.web.cluster import Ownership

        hub.cluster = Ownership(store, worker, hub.settings.lease_seconds)
        hub.journal.fenced = hub.cluster.fenced
        hub.journal.write_moves = hub.cluster.append_moves
        hub.journal.write_seats = hub.cluster.update_seats
        hub.journal.write_seen = hub.cluster.mark_seen
        hub.journal.write_rematch = hub.cluster.link_rematch
        hub.journal.write_use = hub.cluster.count_use
        hub.journal.write_hint = hub.cluster.add_hint
    metrics = Metrics(hub, worker or "single")
    hub.journal.write_moves = metrics.count_writes(hub.journal.write_moves)
    work = Work(limits or Limits())
    coach = Coach(hub, store, work)
    members = AccountService(hub, accounts)
    passkeys = PasskeyService(members)
    rated = RatingService(members)
    matchmaking = Matchmaking(hub, members, queue, ratings or rated.rating_for)
    moderation = Moderation(members)
    # Creating and joining games, Chkobba's and Touti's, share each address's budget.
    creating = Budgets(hub.settings.rate, hub.settings.burst, "games created or joined")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        matchmaking.start()
        try:
            yield
        finally:
            await matchmaking.stop()
            await work.close()
            await hub.stop()
            store.close()

    pinging: asyncio.Task[None] | None = None

    async def database_answers() -> str | None:
        """None if the database answers ``SELECT 1`` in time, else why not."""
        nonlocal pinging
        # One question at a time: a database that hangs must not pile up threads.
        if pinging is None or pinging.done():
            pinging = asyncio.create_task(asyncio.to_thread(store.ping))
        try:
            await asyncio.wait_for(asyncio.shield(pinging), PING_SECONDS)
        except TimeoutError:
            return f"no answer to SELECT 1 within {PING_SECONDS:g} s"
        except Exception as e:
            reason = str(getattr(e, "orig", None) or e).strip().splitlines()
            return reason[0] if reason else type(e).__name__
        return None

    async def healthz(request: Request) -> Response:
        if not hub.ready:
            return error(503, "starting", "the server is starting")
        down = await database_answers()
        if down is not None:
            return JSONResponse(
                {
                    "ok": False,
                    "error": "database_unavailable",
                    "message": f"the database does not answer: {down}",
                    "games": len(hub.rooms),
                },
                status_code=503,
            )
        answer: dict[str, Any] = {
            "ok": True, "games": len(hub.rooms), "database": "ok", "work": work.stats()
        }
        if hub.cluster is not None:
            answer["worker"] = hub.cluster.worker
            answer["owned"] = len(hub.cluster.owned)
            answer["handoff"] = hub.cluster.listener_state()
            answer["leases"] = hub.cluster.renewal_state()
            answer["adopted"] = hub.adopted
        return JSONResponse(answer)

    async def metrics_page(request: Request) -> Response:
        return Response(metrics.render(), media_type=metrics.content_type)

    async def info(request: Request) -> Response:
        return JSONResponse(
            {
                "protocol": PROTOCOL,
                "games": {name: catalogue(game(name), hub.settings.targets) for name in GAME_NAMES},
                "levels": levels(),
                "targets": list(TARGETS),
                "seatings": list(SEATINGS),
                "points": point_names(),
                "errors": ERROR_CODES,
                "http_errors": HTTP_ERROR_CODES,
                "max_message_bytes": MAX_MESSAGE_BYTES,
            }
        )

    async def create_game(request: Request) -> Response:
        creating.check(request)
        data = await json_body(request, MAX_BODY, required=True)
        account = await members.current(request)
        try:
            spec = creation(data, hub.settings)
            # A signed-in player's name is their account's.
            name = account.name if account else clean_name(data.get("name"), "Player 1")
        except ValueError as e:
            return error(400, "bad_request", str(e))
        if spec["settings"].rated:
            try:
                rated_rules(spec, account is not None)
            except NotRateable as e:
                return error(400, "not_rateable", str(e))
        if spec["kind"] == "computer":
            played = game(spec["game_name"])
            level = data.get("level", played.default_level())
            if not (isinstance(level, str) and played.fair(level)):
                known = ", ".join(played.levels())
                return error(400, "unknown_level", f"unknown level {level!r} (known: {known})")
            spec["level"] = level
        try:
            room, token = await hub.create_game(
                name=name, account=account.id if account else None, **spec
            )
        except (RulesError, ValueError) as e:
            return error(400, "bad_request", str(e).splitlines()[0])
        return JSONResponse(
            {"game": room.id, "seat": 0, "token": token, "url": f"{room.game.page}/{room.id}"},
            status_code=201,
        )

    async def join_game(request: Request) -> Response:
        creating.check(request)
        data = await json_body(request, MAX_BODY)
        room = await hub.get_room(request.path_params["game"])
        if room is None:
            return error(404, "unknown_game", "no such game")
        account = await members.current(request)
        if room.life.rated and account is None:
            return error(
                403, "rated_needs_account", "a rated game is between signed-in players: log in"
            )
        try:
            default = f"Player {room.seats - len(room.free_seats()) + 1}"
            name = account.name if account else clean_name(data.get("name"), default)
            seat, token = await hub.join(room, name, account.id if account else None)
        except ValueError as e:
            return error(400, "bad_request", str(e))
        except ProtocolError as e:
            return error(409, e.code, e.message)
        return JSONResponse({"game": room.id, "seat": seat, "token": token})

    async def list_games(request: Request) -> Response:
        status = request.query_params.get("status", "finished")
        if status == "finished":
            asked = request.query_params.get("limit", "50")
            if not (asked.isascii() and asked.isdigit() and 1 <= int(asked) <= MAX_LIST):
                return error(
                    400, "bad_request", f"limit must be a whole number from 1 to {MAX_LIST}, "
                    f"not {asked!r}"
                )
            limit = int(asked)
            found = await hub.journal.call(store.finished_games, limit)
            games = [
                {
                    "game": g.id,
                    "game_name": g.game,
                    "rules": g.rules,
                    "seats": g.seats,
                    "teams": g.teams,
                    "names": [r.name or r.agent for r in g.seat_rows],
                    "computer": [r.agent for r in g.seat_rows],
                    "totals": g.totals,
                    "winner": g.winner,
                    "finished": g.finished_at.isoformat() if g.finished_at else None,
                    "ending": g.ending,
                    "resigned": g.resigned,
                }
                for g in found
            ]
            return JSONResponse({"games": games})
        if status in ("open", "playing"):
            if hub.cluster is not None:
                return JSONResponse({"games": await hub.live_summaries(status, 50)})
            # Unlisted rooms open only by their link or code.
            rooms = [
                r for r in hub.rooms.values() if r.status == status and not r.life.unlisted
            ]
            return JSONResponse({"games": [r.summary() for r in rooms[-50:]]})
        return error(400, "bad_request", "status must be open, playing or finished")

    async def game_summary(request: Request) -> Response:
        room = await hub.get_room(request.path_params["game"])
        if room is None:
            return error(404, "unknown_game", "no such game")
        return JSONResponse(room.summary())

    async def _finished(request: Request) -> Any:
        code = request.path_params["game"].strip().upper()
        stored = await hub.journal.call(store.game, code)
        if stored is None:
            return error(404, "unknown_game", "no such game")
        if stored.status != "finished":
            # The frames and the record show every hand and every deck.
            return error(409, "not_finished", "a game can be replayed once it is over")
        return stored

    async def record(request: Request) -> Response:
        stored = await _finished(request)
        if isinstance(stored, Response):
            return stored
        room = room_from_stored(stored)
        life = room.life_meta()
        uses = await coach.uses_meta(stored)
        if room.match is None:
            # Another game's record, as its interface writes it.
            meta: dict[str, Any] = {"site": "chkobba web", "game": stored.id}
            if stored.finished_at is not None:
                meta["finished"] = stored.finished_at.isoformat()
            meta.update(life)
            if uses:
                meta["coach"] = {"uses": uses}
            other = room.table.record(room.record_names(), meta)
            filename = f"{room.game.name}-{stored.id}.json"
            return Response(
                other.dumps() + "\n",
                media_type="application/json",
                headers={"Content-Disposition": f'attachment; filename="{filename}"'},
            )
        rec = game_record(stored)
        hinted = await coach.record_meta(stored)
        rec.meta = {**(rec.meta or {}), **life}
        if hinted is not None or uses:
            rec.meta["coach"] = {**(hinted or {}), **({"uses": uses} if uses else {})}
        return Response(
            rec.dumps() + "\n",
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="chkobba-{stored.id}.json"'},
        )

    async def replay(request: Request) -> Response:
        stored = await _finished(request)
        if isinstance(stored, Response):
            return stored
        if room_from_stored(stored).match is None:
            # Every other game steps through the game interface.
            return JSONResponse(table_steps(stored))
        return JSONResponse(replay_frames(stored))

    async def rules_index(request: Request) -> Response:
        return JSONResponse(index_json())

    async def rules_of(request: Request) -> Response:
        try:
            return JSONResponse(rules_json(request.path_params["name"]))
        except UnknownRules as e:
            return error(404, "unknown_rules", str(e))

    def page(name: str) -> Any:
        async def endpoint(request: Request) -> Response:
            return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

        return endpoint

    async def card_image(request: Request) -> Response:
        deck = request.path_params["deck"]
        name = request.path_params["name"]
        try:
            if not name.endswith(".svg"):
                raise DeckError(f"unknown card {name!r}: card images end in .svg, like 7d.svg")
            body = svg(deck, name.removesuffix(".svg"))
        except DeckError as e:
            return error(404, "unknown_card", str(e))
        etag = card_etag(body)
        # The cards never change between two versions of the server: a week in the cache,
        # then a revalidation that the ETag answers with a 304.
        headers = {"Cache-Control": f"public, max-age={CARD_MAX_AGE}", "ETag": etag}
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="image/svg+xml", headers=headers)

    async def ws_endpoint(ws: WebSocket) -> None:
        await ws.accept()
        s = hub.settings
        conn = Conn(ws.send_text, s.rate, s.burst)
        try:
            account = await members.current(ws)
        except Exception:
            # The database does not answer: a guest's connection, which needs none.
            log.exception("could not read the WebSocket's session")
            account = None
        conn.account = account.id if account else None
        conn.account_name = account.name if account else None
        writer = _spawn_writer(conn, ws)
        try:
            while not conn.closed:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                if text is None:
                    text = msg.get("bytes") or b""
                if not conn.limiter.allow():
                    conn.refused += 1
                    # Answered like any refusal, so a client waiting for its answer hears.
                    conn.send(
                        error_message("rate_limited", "too many messages: slow down",
                                      message_id(text))
                    )
                    if conn.refused >= s.max_refusals:
                        conn.close(1008, "rate limit")
                        await writer
                        return
                    continue
                re = None
                try:
                    parsed = parse_client_message(text)
                    re = parsed.id
                    if isinstance(parsed, PlayMsg):
                        with metrics.timer():
                            await hub.handle(conn, parsed)
                    else:
                        await hub.handle(conn, parsed)
                except ProtocolError as e:
                    conn.send(error_message(e.code, e.message, re if re is not None else e.re))
                    if isinstance(e, Busy):
                        # Held by another worker, which is letting it go: come again.
                        conn.close(1013, "try again")
                except Exception:
                    # The game is unharmed (moves apply only once stored); say so and go on.
                    log.exception("error handling a message")
                    conn.send(error_message("server_error", "the server failed; try again", re))
        except WebSocketDisconnect:
            pass
        finally:
            hub.detach(conn)
            conn.close()
            # The writer sends what is queued (an error the client must read, say) and the
            # close code; a client that stopped reading cannot hold the connection open.
            done, _ = await asyncio.wait({writer}, timeout=FLUSH_SECONDS)
            if not done:
                writer.cancel()

    def _spawn_writer(conn: Conn, ws: WebSocket) -> asyncio.Task[None]:
        async def run() -> None:
            # Sending to a client that has gone fails; its reader notices and cleans up.
            with contextlib.suppress(Exception):
                await conn.write_loop()
                await ws.close(conn.close_code, conn.close_reason)

        return asyncio.create_task(run())

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return error(exc.status_code, "bad_request", exc.detail)

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Refused)
        return exc.response()

    routes = [
        Route("/", page("index.html")),
        Route("/g/{game}", page("game.html")),
        Route("/replay/{game}", page("replay.html")),
        Route("/touti", page("touti.html")),
        Route("/touti/{game}", page("touti.html")),
        Route("/rules", page("rules.html")),
        Route("/rules/{name}", page("rules.html")),
        Route("/account", page("account.html")),
        Route("/moderation", page("moderation.html")),
        Route("/sw.js", service_worker),
        Route("/manifest.webmanifest", manifest),
        Route("/healthz", healthz),
        Route("/metrics", metrics_page),
        Route("/api/info", info),
        Route("/cards/{deck}/{name}", card_image),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games/{game}", game_summary),
        Route("/api/games/{game}/join", join_game, methods=["POST"]),
        Route("/api/games/{game}/record", record),
        Route("/api/games/{game}/replay", replay),
        Route("/api/rules", rules_index),
        Route("/api/rules/{name}", rules_of),
        *coach.routes(),
        *members.routes(),
        *passkeys.routes(),
        *matchmaking.routes(),
        *rated.routes(page),
        *moderation.routes(),
        WebSocketRoute("/ws", ws_endpoint),
        # The catalogues (chkobba.words): the pages' words in every language.
        Mount("/static/i18n", CachedStatic(directory=CATALOGUES), name="i18n"),
        Mount("/static", CachedStatic(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[
            # Pages, scripts, catalogues, card images and JSON travel compressed.
            Middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM, compresslevel=GZIP_LEVEL),
            Middleware(NoTokenInUrl),
            Middleware(JsonErrors),
            Middleware(CrossSite),
        ],
        exception_handlers={HTTPException: http_error, Refused: refused},
    )
    app.state.hub = hub
    app.state.work = work
    app.state.accounts = members
    app.state.matchmaking = matchmaking
    return app
