"""Touti in the web app: a game against the computer over a small JSON API (docs/touti.md).

The simplest sound form: one person (seat 0) with a computer partner against two
computers. Games live in memory (a restart ends them); each has a secret token,
and every answer is built from the person's :func:`~chkobba.touti.observe.observe`
view and the public log only, so no hidden card ever leaves the server. The
record, which shows every deck, is served once the match is over.

    POST /api/touti/games            {"name", "target", "opponent", "partner"} → game, token
    GET  /api/touti/games/{game}?token=…        the person's view
    POST /api/touti/games/{game}/move {"token", "move"}  a move in the notation
    GET  /api/touti/games/{game}/record?token=…  the touti-record/1, once the match is over
    GET  /touti, /touti/{game}                   the pages
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from chkobba.cards import CARDS
from chkobba.touti.agents import ToutiAgent, ToutiAgentError, make_touti_agent, touti_players
from chkobba.touti.cards import STRENGTH
from chkobba.touti.deal import Deal, IllegalMove
from chkobba.touti.match import ToutiMatch
from chkobba.touti.moves import Call, NotationError, parse_move
from chkobba.touti.narrate import describe_move, describe_trick, score_lines
from chkobba.touti.observe import observe
from chkobba.touti.record import record_of
from chkobba.touti.rules import TARGETS, ToutiRules

STATIC: Final = Path(__file__).parent / "static"
MAX_BODY: Final = 2048
MAX_TABLES: Final = 500
"""Games kept in memory; the oldest go first when a new one needs room."""
LOG_LINES: Final = 80
DEFAULT_PLAYER: Final = "search"
SEATS_FOR_PERSON: Final = ("Right", "Partner", "Left")


@dataclass
class ToutiTable:
    """One game: the match, the computers, the person's token, the public log."""

    id: str
    token: str
    match: ToutiMatch
    agents: dict[int, ToutiAgent]
    names: list[str]
    log: list[str] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    created: float = field(default_factory=time.monotonic)


class ToutiTables:
    """The games in memory, by id."""

    def __init__(self) -> None:
        self.tables: dict[str, ToutiTable] = {}

    def create(self, name: str, target: int, opponent: str, partner: str) -> ToutiTable:
        """A new game, dealt and played by the computers up to the person's first turn."""
        if len(self.tables) >= MAX_TABLES:
            oldest = min(self.tables.values(), key=lambda t: t.created)
            del self.tables[oldest.id]
        seed = secrets.randbelow(2**32)
        game = secrets.token_hex(4).upper()
        while game in self.tables:
            game = secrets.token_hex(4).upper()
        agents = {
            1: make_touti_agent(opponent, seed + 1),
            2: make_touti_agent(partner, seed + 2),
            3: make_touti_agent(opponent, seed + 3),
        }
        table = ToutiTable(
            id=game,
            token=secrets.token_urlsafe(16),
            match=ToutiMatch(ToutiRules(target=target), seed=seed),
            agents=agents,
            names=[name, *SEATS_FOR_PERSON],
        )
        self.tables[game] = table
        return table


def _note(table: ToutiTable, deal: Deal, tricks_before: int) -> None:
    """Log the last move in words, and the trick or the deal it finished."""
    seat, move = deal.history[-1]
    if move is not Call.NO_CANTO:
        table.log.append(describe_move(seat, move, table.names))
    if len(deal.tricks) > tricks_before:
        table.log.append(describe_trick(deal.tricks[-1], len(deal.tricks), table.names))
    if deal.is_over:
        if deal.score is None:
            table.log.append("No contract: the cards are dealt again.")
        else:
            table.log.extend(score_lines(deal.score, table.names))
    del table.log[:-LOG_LINES]


def apply_logged(table: ToutiTable, move: Any) -> None:
    """Apply a move (checked) to the table's match and log it."""
    deal = table.match.deal
    before = len(deal.tricks)
    table.match.apply(move)
    _note(table, deal, before)


def run_computers(table: ToutiTable) -> None:
    """Play the computer seats (and the person's forced no-announcement) until the person
    has a real choice or the match is over."""
    m = table.match
    while not m.is_over:
        seat = m.turn
        if seat == 0:
            if m.legal_moves() != [Call.NO_CANTO]:
                return
            apply_logged(table, Call.NO_CANTO)
            continue
        apply_logged(table, table.agents[seat].choose(observe(m, seat)))


def view(table: ToutiTable) -> dict[str, Any]:
    """The person's view: their observation and the public log, as JSON."""
    m = table.match
    obs = observe(m, 0)
    hand = sorted(
        (c for c in range(40) if obs.hand >> c & 1),
        key=lambda c: (c // 10 != obs.trump, c // 10, -STRENGTH[c]),
    )
    last = obs.tricks[-1] if obs.tricks else None
    ply = sum(len(d.history) for d in m.finished)
    if m.deal not in m.finished:
        ply += len(m.deal.history)
    return {
        "game": table.id,
        "ply": ply,
        "names": table.names,
        "deal": obs.deal_number,
        "dealer": obs.dealer,
        "phase": obs.phase.value,
        "turn": obs.turn,
        "hand": [str(CARDS[c]) for c in hand],
        "legal": [str(x) for x in obs.legal_moves],
        "bid": obs.bid,
        "high_bidder": obs.high_bidder,
        "declarer": obs.declarer,
        "trump": "shdc"[obs.trump] if obs.trump is not None else None,
        "trick": [
            {"seat": (obs.leader + i) % 4, "card": str(CARDS[c])}
            for i, c in enumerate(obs.current)
        ],
        "last_trick": None
        if last is None
        else {
            "cards": [{"seat": last.seat_of(i), "card": str(CARDS[c])}
                      for i, c in enumerate(last.cards)],
            "winner": last.winner,
        },
        "tricks": [sum(1 for t in obs.tricks if t.winner % 2 == team) for team in (0, 1)],
        "announcements": [{"seat": a.seat, "suit": "shdc"[a.suit]} for a in obs.announcements],
        "hand_sizes": list(obs.hand_sizes),
        "totals": list(m.totals),
        "target": m.rules.target,
        "winner": m.winner,
        "log": table.log,
    }


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


async def _json_body(request: Request) -> dict[str, Any] | JSONResponse:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        return _error(413, "bad_request", f"the request body is limited to {MAX_BODY} bytes")
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError):
        return _error(400, "bad_request", "the request body is not valid JSON")
    if not isinstance(data, dict):
        return _error(400, "bad_request", "the request body must be a JSON object")
    return data


def touti_routes(tables: ToutiTables | None = None) -> list[BaseRoute]:
    """The Touti pages and API, to add to the app's routes."""
    store = tables if tables is not None else ToutiTables()

    def table_for(request: Request, token: Any) -> ToutiTable | JSONResponse:
        table = store.tables.get(request.path_params["game"].strip().upper())
        if table is None:
            return _error(404, "unknown_game", "no such Touti game")
        if not isinstance(token, str) or not secrets.compare_digest(token, table.token):
            return _error(403, "bad_token", "this game's token is needed")
        return table

    async def create(request: Request) -> Response:
        data = await _json_body(request)
        if isinstance(data, JSONResponse):
            return data
        name = data.get("name", "You")
        if not isinstance(name, str) or not name.strip() or len(name) > 24:
            return _error(400, "bad_request", "name must be 1 to 24 characters")
        target = data.get("target", 600)
        if type(target) is not int or target not in TARGETS:
            return _error(400, "bad_request", f"target must be one of {list(TARGETS)}")
        opponent = data.get("opponent", DEFAULT_PLAYER)
        partner = data.get("partner", DEFAULT_PLAYER)
        known = touti_players()
        for label, who in (("opponent", opponent), ("partner", partner)):
            if who not in known:
                return _error(400, "unknown_level", f"{label} must be one of {', '.join(known)}")
        try:
            table = store.create(name.strip(), target, opponent, partner)
        except ToutiAgentError as e:
            return _error(400, "unknown_level", str(e))
        async with table.lock:
            await run_in_threadpool(run_computers, table)
        return JSONResponse(
            {"game": table.id, "token": table.token, "url": f"/touti/{table.id}"},
            status_code=201,
        )

    async def state(request: Request) -> Response:
        table = table_for(request, request.query_params.get("token"))
        if isinstance(table, JSONResponse):
            return table
        async with table.lock:  # never read a match the computers are playing on
            return JSONResponse(view(table))

    async def move(request: Request) -> Response:
        data = await _json_body(request)
        if isinstance(data, JSONResponse):
            return data
        table = table_for(request, data.get("token"))
        if isinstance(table, JSONResponse):
            return table
        text = data.get("move")
        if not isinstance(text, str) or len(text) > 20:
            return _error(400, "bad_request", "move must be a move in the notation, like 90 or Ah")
        async with table.lock:
            if table.match.is_over:
                return _error(409, "game_over", "the match is over")
            if table.match.turn != 0:
                return _error(409, "not_your_turn", "it is not your turn")
            try:
                apply_logged(table, parse_move(text))
            except (NotationError, IllegalMove) as e:
                return _error(400, "illegal_move", str(e))
            await run_in_threadpool(run_computers, table)
            return JSONResponse(view(table))

    async def record(request: Request) -> Response:
        table = table_for(request, request.query_params.get("token"))
        if isinstance(table, JSONResponse):
            return table
        if not table.match.is_over:
            return _error(409, "not_finished", "the record shows every hand: it is served "
                          "once the match is over")
        rec = record_of(table.match, table.names, meta={"app": "chkobba serve (touti)"})
        return Response(
            rec.dumps() + "\n",
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="touti-{table.id}.json"'},
        )

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "touti.html", headers={"Cache-Control": "no-cache"})

    return [
        Route("/touti", page),
        Route("/touti/{game}", page),
        Route("/api/touti/games", create, methods=["POST"]),
        Route("/api/touti/games/{game}", state),
        Route("/api/touti/games/{game}/move", move, methods=["POST"]),
        Route("/api/touti/games/{game}/record", record),
    ]
