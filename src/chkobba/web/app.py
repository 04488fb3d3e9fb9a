"""The ASGI application: pages, the JSON API and the game WebSocket (docs/protocol.md).

``create_app(db_url)`` builds it; the lifespan migrates the database and resumes
every unfinished game before the server accepts a connection, so ``/healthz``
answering means the server is ready.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from chkobba.rules import RulesError
from chkobba.store import Store
from chkobba.web.coach import Coach
from chkobba.web.hub import Conn, Hub, RateLimiter, Settings, clean_name, is_fair, levels
from chkobba.web.protocol import (
    ERROR_CODES,
    MAX_MESSAGE_BYTES,
    PROTOCOL,
    ProtocolError,
    error_message,
    parse_client_message,
    point_names,
)
from chkobba.web.replay import game_record, replay_frames
from chkobba.web.touti import ToutiTables, touti_routes

log = logging.getLogger("chkobba.web")

STATIC: Final = Path(__file__).parent / "static"
MAX_BODY: Final = 4096
TARGETS: Final = (11, 21, 31)
SEATINGS: Final = {"2": (2, False), "2v2": (4, True), "3": (3, False), "4": (4, False)}
"""The table layouts a game can be created with: players, and whether in teams."""


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise HTTPException(413, f"the request body is limited to {MAX_BODY} bytes")
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise HTTPException(400, "the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise HTTPException(400, "the request body must be a JSON object")
    return data


def create_app(db_url: str, settings: Settings | None = None) -> Starlette:
    """The web application, storing games in the database at ``db_url``."""
    store = Store(db_url, manual_checkpoints=True)
    hub = Hub(store, settings)
    coach = Coach(hub, store)
    touti = ToutiTables(hub.journal)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        await touti.start()
        try:
            yield
        finally:
            await hub.stop()
            store.close()

    async def healthz(request: Request) -> Response:
        if not hub.ready:
            return _error(503, "starting", "the server is starting")
        return JSONResponse({"ok": True, "games": len(hub.rooms)})

    async def info(request: Request) -> Response:
        return JSONResponse(
            {
                "protocol": PROTOCOL,
                "levels": levels(),
                "targets": list(TARGETS),
                "seatings": list(SEATINGS),
                "points": point_names(),
                "errors": ERROR_CODES,
                "max_message_bytes": MAX_MESSAGE_BYTES,
            }
        )

    limiters: dict[str, RateLimiter] = {}

    def throttled(request: Request) -> JSONResponse | None:
        """Creating and joining games share each client address's budget."""
        if len(limiters) > 10_000:
            limiters.clear()  # forget idle addresses rather than grow without bound
        host = request.client.host if request.client else "?"
        limiter = limiters.get(host)
        if limiter is None:
            limiter = limiters[host] = RateLimiter(hub.settings.rate, hub.settings.burst)
        if limiter.allow():
            return None
        return _error(429, "rate_limited", "too many requests: slow down")

    async def create_game(request: Request) -> Response:
        if (refused := throttled(request)) is not None:
            return refused
        data = await _body(request)
        mode = data.get("mode", "computer")
        seating = str(data.get("seating", "2"))
        target = data.get("target", 21)
        level = data.get("level")
        if mode not in ("computer", "room"):
            return _error(400, "bad_request", "mode must be 'computer' or 'room'")
        if seating not in SEATINGS:
            return _error(400, "bad_request", f"seating must be one of {', '.join(SEATINGS)}")
        if type(target) is not int or target not in TARGETS:
            return _error(400, "bad_request", "target must be 11, 21 or 31")
        if mode == "computer" and not (isinstance(level, str) and is_fair(level)):
            return _error(
                400, "unknown_level", f"unknown level {level!r} (known: {', '.join(levels())})"
            )
        try:
            name = clean_name(data.get("name"), "Player 1")
        except ValueError as e:
            return _error(400, "bad_request", str(e))
        seats, teams = SEATINGS[seating]
        try:
            room, token = await hub.create_game(mode, seats, teams, target, level, name)
        except (RulesError, ValueError) as e:
            return _error(400, "bad_request", str(e))
        return JSONResponse(
            {"game": room.id, "seat": 0, "token": token, "url": f"/g/{room.id}"},
            status_code=201,
        )

    async def join_game(request: Request) -> Response:
        if (refused := throttled(request)) is not None:
            return refused
        data = await _body(request)
        room = await hub.get_room(request.path_params["game"])
        if room is None:
            return _error(404, "unknown_game", "no such game")
        try:
            name = clean_name(data.get("name"), f"Player {room.seats - len(room.free_seats()) + 1}")
            seat, token = await hub.join(room, name)
        except ValueError as e:
            return _error(400, "bad_request", str(e))
        except ProtocolError as e:
            return _error(409, e.code, e.message)
        return JSONResponse({"game": room.id, "seat": seat, "token": token})

    async def list_games(request: Request) -> Response:
        status = request.query_params.get("status", "finished")
        if status == "finished":
            try:
                limit = min(100, max(1, int(request.query_params.get("limit", "50"))))
            except ValueError:
                return _error(400, "bad_request", "limit must be a number")
            found = await hub.journal.call(store.finished_games, limit)
            games = [
                {
                    "game": g.id,
                    "seats": g.seats,
                    "teams": g.teams,
                    "names": [r.name or r.agent for r in g.seat_rows],
                    "computer": [r.agent for r in g.seat_rows],
                    "totals": g.totals,
                    "winner": g.winner,
                    "finished": g.finished_at.isoformat() if g.finished_at else None,
                }
                for g in found
            ]
            return JSONResponse({"games": games})
        if status in ("open", "playing"):
            rooms = [r for r in hub.rooms.values() if r.status == status]
            return JSONResponse({"games": [r.summary() for r in rooms[-50:]]})
        return _error(400, "bad_request", "status must be open, playing or finished")

    async def game_summary(request: Request) -> Response:
        room = await hub.get_room(request.path_params["game"])
        if room is None:
            return _error(404, "unknown_game", "no such game")
        return JSONResponse(room.summary())

    async def _finished(request: Request) -> Any:
        code = request.path_params["game"].strip().upper()
        stored = await hub.journal.call(store.game, code)
        if stored is None:
            return _error(404, "unknown_game", "no such game")
        if stored.status != "finished":
            # The frames and the record show every hand and every deck.
            return _error(409, "not_finished", "a game can be replayed once it is over")
        return stored

    async def record(request: Request) -> Response:
        stored = await _finished(request)
        if isinstance(stored, Response):
            return stored
        rec = game_record(stored)
        hinted = await coach.record_meta(stored)
        if hinted is not None:
            rec.meta = {**(rec.meta or {}), "coach": hinted}
        return Response(
            rec.dumps() + "\n",
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="chkobba-{stored.id}.json"'},
        )

    async def replay(request: Request) -> Response:
        stored = await _finished(request)
        if isinstance(stored, Response):
            return stored
        return JSONResponse(replay_frames(stored))

    def page(name: str) -> Any:
        async def endpoint(request: Request) -> Response:
            return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

        return endpoint

    async def ws_endpoint(ws: WebSocket) -> None:
        await ws.accept()
        s = hub.settings
        conn = Conn(ws.send_text, s.rate, s.burst)
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
                    conn.send(error_message("rate_limited", "too many messages: slow down"))
                    if conn.refused >= s.max_refusals:
                        conn.close(1008, "rate limit")
                        await writer
                        return
                    continue
                re = None
                try:
                    parsed = parse_client_message(text)
                    re = parsed.id
                    await hub.handle(conn, parsed)
                except ProtocolError as e:
                    conn.send(error_message(e.code, e.message, re))
                except Exception:
                    # The game is unharmed (moves apply only once stored); say so and go on.
                    log.exception("error handling a message")
                    conn.send(error_message("server_error", "the server failed; try again", re))
        except WebSocketDisconnect:
            pass
        finally:
            hub.detach(conn)
            conn.close()
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
        return _error(exc.status_code, "bad_request", exc.detail)

    routes = [
        Route("/", page("index.html")),
        Route("/g/{game}", page("game.html")),
        Route("/replay/{game}", page("replay.html")),
        Route("/healthz", healthz),
        Route("/api/info", info),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games/{game}", game_summary),
        Route("/api/games/{game}/join", join_game, methods=["POST"]),
        Route("/api/games/{game}/record", record),
        Route("/api/games/{game}/replay", replay),
        *coach.routes(),
        WebSocketRoute("/ws", ws_endpoint),
        *touti_routes(touti),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes, lifespan=lifespan, exception_handlers={HTTPException: http_error}
    )
    app.state.hub = hub
    app.state.touti = touti
    return app
