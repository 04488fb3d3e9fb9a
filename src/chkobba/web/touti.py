"""Touti in the web app: a game against the computer over a small JSON API (docs/touti.md).

The simplest sound form: one person (seat 0) with a computer partner against two
computers. Every game is stored in the database beside the Chkobba games
(:mod:`chkobba.store.touti`): its seed, which decides every deck, the seats and
the SHA-256 of the person's token, then each move, the person's and the
computers', written on the store's thread before the server answers. A server
restarted on the same database resumes every game where it was, by replaying the
stored moves through the engine (checked); the computers' choices are seeded by
the game's seed and the ply, so a restart between two of their moves plays on
as it would have. At most :data:`MAX_TABLES` games are held in memory; the
others are read back from the database when asked for.

Every answer is built from the person's :func:`~chkobba.touti.observe.observe`
view and the public log only, so no hidden card ever leaves the server. The
record, which shows every deck, is served once the match is over.

    POST /api/touti/games            {"name", "target", "opponent", "partner"} → game, token
    GET  /api/touti/games/{game}               the person's view
    POST /api/touti/games/{game}/move {"token", "move"}  a move in the notation
    GET  /api/touti/games/{game}/record        the touti-record/1, once the match is over
    GET  /touti, /touti/{game}                 the pages

The GETs carry the token as ``Authorization: Bearer TOKEN``, never in the URL,
which access logs record. The story of the game (``log``) is a list of events,
each with its facts (seats, cards, suits, points) for the page to tell in its
language, and ``text``, the event in English.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from chkobba.cards import CARDS
from chkobba.store.store import now
from chkobba.store.touti import (
    StoredTouti,
    ToutiMoveRow,
    append_touti,
    create_touti,
    touti_game,
    unfinished_touti,
)
from chkobba.touti.agents import ToutiAgentError, make_touti_agent, touti_players
from chkobba.touti.cards import STRENGTH
from chkobba.touti.deal import Deal
from chkobba.touti.match import ToutiMatch
from chkobba.touti.moves import (
    Ask,
    Bid,
    Call,
    Canto,
    CardPlay,
    NotationError,
    Tell,
    ToutiMove,
    Trump,
    parse_move,
)
from chkobba.touti.narrate import describe_move, describe_trick, score_lines
from chkobba.touti.observe import observe
from chkobba.touti.record import record_of
from chkobba.touti.rules import TARGETS, ToutiRules
from chkobba.web.http import Budgets, Refused, error, json_body, no_token_in_url, seat_token
from chkobba.web.hub import Journal, agent_seed, clean_name, token_hash

log = logging.getLogger("chkobba.web")

STATIC: Final = Path(__file__).parent / "static"
MAX_BODY: Final = 2048
MAX_TABLES: Final = 500
"""Games kept in memory; the least recently used go first when a new one needs room
(they stay in the database and come back when asked for)."""
LOG_LINES: Final = 80
DEFAULT_PLAYER: Final = "search"
SEATS_FOR_PERSON: Final = ("Right", "Partner", "Left")
ID_ALPHABET: Final = "0123456789ABCDEF"
ID_LENGTH: Final = 8


class StoreFailed(RuntimeError):
    """A move that could not be written to the database, and so was not played."""


@dataclass
class ToutiTable:
    """One game in memory: the match, the computer players, the person's token hash, the log."""

    id: str
    token_hash: str
    seed: int
    match: ToutiMatch
    agents: list[str | None]
    """The computer player of each seat; None for the person's seat 0."""
    names: list[str]
    ply: int = 0
    """Moves played in the match, which is also the number of the next stored move."""
    log: list[dict[str, Any]] = field(default_factory=list)
    """The public story: :func:`move_event`, :func:`trick_event`, :func:`score_events`."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    used: float = field(default_factory=time.monotonic)

    def holds(self, token: object) -> bool:
        """Whether ``token`` is this game's token."""
        if not isinstance(token, str):
            return False
        return hmac.compare_digest(token_hash(token), self.token_hash)


def table_from_stored(g: StoredTouti) -> ToutiTable:
    """Rebuild a game by replaying its stored moves through the engine (checked).

    Raises ``ValueError`` (an illegal or malformed move, unknown options) if the
    stored moves do not make a game.
    """
    match = ToutiMatch(ToutiRules.from_options(g.options), seed=g.seed)
    table = ToutiTable(g.id, g.token_hash, g.seed, match, list(g.agents), list(g.names))
    for ply, (seat, text) in enumerate(g.moves):
        if match.is_over:
            raise ValueError(f"move {ply} follows the end of the match")
        if seat != match.turn:
            raise ValueError(f"move {ply} is stored for seat {seat}, but seat {match.turn} moves")
        apply_logged(table, parse_move(text))
    return table


class ToutiTables:
    """The Touti games: in the database, and up to ``cap`` of them in memory, by id."""

    def __init__(self, journal: Journal, cap: int = MAX_TABLES) -> None:
        self.journal = journal
        self.store = journal.store
        self.cap = cap
        self.tables: dict[str, ToutiTable] = {}

    async def start(self) -> None:
        """Resume the unfinished games played most recently (the schema is migrated)."""
        stored = await self.journal.call(unfinished_touti, self.store, self.cap)
        for g in stored:
            table = await self._rebuild(g)
            if table is not None:
                self.tables[table.id] = table
        log.info("resumed %d Touti game(s)", len(self.tables))

    async def _rebuild(self, g: StoredTouti) -> ToutiTable | None:
        try:
            table = table_from_stored(g)
        except ValueError as e:
            log.error("Touti game %s cannot be replayed, left aside: %s", g.id, e)
            return None
        m = table.match
        if m.is_over and g.status != "finished":
            # The server stopped between the last move and the game's end.
            await self.journal.call(
                append_touti, self.store, g.id, [], (m.winner, list(m.totals))
            )
        return table

    async def create(
        self, name: str, target: int, opponent: str, partner: str
    ) -> tuple[ToutiTable, str]:
        """A new game, stored; return it and the person's token (the database keeps its hash)."""
        for level in (opponent, partner):
            make_touti_agent(level)  # an unknown player is refused before anything is stored
        token = secrets.token_urlsafe(16)
        seed = secrets.randbits(62)
        rules = ToutiRules(target=target)
        agents: list[str | None] = [None, opponent, partner, opponent]
        names = [name, *SEATS_FOR_PERSON]
        for _ in range(10):
            game = "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))
            if game in self.tables:
                continue
            stored = StoredTouti(
                game, "playing", rules.json_options(), seed, names, agents, token_hash(token),
                now(),
            )
            try:
                await self.journal.call(create_touti, self.store, stored)
            except Exception:
                # Most likely the id is an older game's: draw another.
                if await self.journal.call(touti_game, self.store, game) is None:
                    raise
                continue
            table = ToutiTable(
                game, stored.token_hash, seed, ToutiMatch(rules, seed=seed), agents, names
            )
            self._admit(table)
            return table, token
        raise RuntimeError("could not find a free game id")

    async def get(self, game_id: str) -> ToutiTable | None:
        """A game by id: from memory, or read back from the database."""
        game = game_id.strip().upper()
        table = self.tables.get(game)
        if table is None:
            if len(game) != ID_LENGTH or any(ch not in ID_ALPHABET for ch in game):
                return None
            stored = await self.journal.call(touti_game, self.store, game)
            if stored is None:
                return None
            table = self.tables.get(game)  # loaded meanwhile by another request
            if table is None:
                table = await self._rebuild(stored)
                if table is None:
                    return None
                table = self.tables.get(game) or table
                self._admit(table)
        table.used = time.monotonic()
        return table

    def _admit(self, table: ToutiTable) -> None:
        """Hold ``table`` in memory, letting go of the least recently used idle games."""
        self.tables[table.id] = table
        if len(self.tables) <= self.cap:
            return
        # A game whose lock is held is being played: a second copy of it must never exist.
        idle = sorted(
            (t for t in self.tables.values() if t is not table and not t.lock.locked()),
            key=lambda t: t.used,
        )
        for t in idle[: len(self.tables) - self.cap]:
            del self.tables[t.id]

    async def commit(self, table: ToutiTable, seat: int, move: ToutiMove) -> None:
        """Store a legal move, then play it (lock held); raise :class:`StoreFailed` if it
        could not be stored, the game unchanged."""
        m = table.match
        try:
            await self.journal.call(
                append_touti, self.store, table.id, [ToutiMoveRow(table.ply, seat, str(move))]
            )
        except Exception as e:
            log.exception("could not store Touti move %s of game %s", move, table.id)
            if self.tables.get(table.id) is table:
                # The database may hold moves this copy lacks (a copy let go of under
                # the memory cap and still playing): the next request reads it again.
                del self.tables[table.id]
            raise StoreFailed("the move could not be recorded; it was not played") from e
        apply_logged(table, move)
        if m.is_over:
            await self.journal.call(
                append_touti, self.store, table.id, [], (m.winner, list(m.totals))
            )

    async def play_computers(self, table: ToutiTable) -> None:
        """Play the computer seats (and the person's forced no-announcement), each move
        stored before the next, until the person has a real choice or the match is over
        (lock held)."""
        m = table.match
        while not m.is_over:
            seat = m.turn
            level = table.agents[seat]
            if level is None:
                if m.legal_moves() != [Call.NO_CANTO]:
                    return
                move: ToutiMove = Call.NO_CANTO
            else:
                move = await _choose(table, level, seat)
            await self.commit(table, seat, move)


async def _choose(table: ToutiTable, level: str, seat: int) -> ToutiMove:
    """The computer's move for ``seat``, seeded by the game and the ply, so that a
    restarted server chooses as the first one would have."""
    obs = observe(table.match, seat)
    seed = agent_seed(table.seed, table.ply, seat)
    try:
        # A thinking player may take a while: keep the server answering.
        move = await asyncio.to_thread(make_touti_agent(level, seed).choose, obs)
        if move not in obs.legal_moves:
            raise ToutiAgentError(f"{level} chose {move}, which is not legal")
    except Exception:
        # A broken player must not stall the game: play on at random.
        log.exception("Touti game %s: the %s player failed", table.id, level)
        move = make_touti_agent("random", seed).choose(obs)
    return move


def _suit(suit: int) -> str:
    return "shdc"[suit]


def move_event(seat: int, move: ToutiMove, names: list[str]) -> dict[str, Any]:
    """A move of the story: ``kind`` (``bid``, ``trump``, ``play``, ``canto``, the parlé's
    ``ask`` and ``tell``, or the call: ``pass``, ``alla``, ``macharich``, ``zadtak``,
    ``redeal``, ``claim``), ``seat`` and its amount, suit, card, topic or answer."""
    event: dict[str, Any] = {"seat": seat}
    if isinstance(move, Bid):
        event.update(kind="bid", amount=move.amount)
    elif isinstance(move, Trump):
        event.update(kind="trump", suit=_suit(move.suit))
    elif isinstance(move, CardPlay):
        event.update(kind="play", card=str(CARDS[move.card]))
    elif isinstance(move, Canto):
        event.update(kind="canto", suit=_suit(move.suit))
    elif isinstance(move, Ask):
        # Parlé (told in English by the pages: the web game offers no parlé yet).
        event.update(kind="ask", topic=move.topic)
    elif isinstance(move, Tell):
        event.update(kind="tell", topic=move.topic, answer=str(move).partition("=")[2])
    else:
        event["kind"] = move.value
    event["text"] = describe_move(seat, move, names)
    return event


def trick_event(deal: Deal, names: list[str]) -> dict[str, Any]:
    """The trick just finished: its number, its cards in order with their seats, its winner."""
    t = deal.tricks[-1]
    return {
        "kind": "trick",
        "number": len(deal.tricks),
        "cards": [{"seat": t.seat_of(i), "card": str(CARDS[c])} for i, c in enumerate(t.cards)],
        "winner": t.winner,
        "text": describe_trick(t, len(deal.tricks), names),
    }


def score_events(deal: Deal, names: list[str]) -> list[dict[str, Any]]:
    """The end of a deal: ``no_contract``, or ``contract`` (declarer, bid, trumps),
    each team's ``team`` line (card points, the last trick's 10, announcements) and the
    ``result`` (the declarer's total against the bid, made or not, the points scored)."""
    sc = deal.score
    if sc is None:
        return [{"kind": "no_contract", "text": "No contract: the cards are dealt again."}]
    lines = score_lines(sc, names)
    return [
        {
            "kind": "contract",
            "declarer": sc.declarer,
            "bid": sc.bid,
            "trump": _suit(sc.trump) if sc.trump is not None else None,
            "text": lines[0],
        },
        *(
            {
                "kind": "team",
                "team": t,
                "card_points": sc.card_points[t],
                "last_trick": sc.last_trick == t,
                "cantos": sc.cantos[t],
                "text": lines[1 + t].strip(),
            }
            for t in (0, 1)
        ),
        {
            "kind": "result",
            "total": sc.declarer_total,
            "bid": sc.bid,
            "made": sc.made,
            "points": list(sc.points),
            "text": lines[3].strip(),
        },
    ]


def _note(table: ToutiTable, deal: Deal, tricks_before: int) -> None:
    """Log the last move, and the trick or the deal it finished."""
    seat, move = deal.history[-1]
    if move is not Call.NO_CANTO:
        table.log.append(move_event(seat, move, table.names))
    if len(deal.tricks) > tricks_before:
        table.log.append(trick_event(deal, table.names))
    if deal.is_over:
        table.log.extend(score_events(deal, table.names))
    del table.log[:-LOG_LINES]


def apply_logged(table: ToutiTable, move: ToutiMove) -> None:
    """Apply a move (checked) to the table's match, count it and log it."""
    deal = table.match.deal
    before = len(deal.tricks)
    table.match.apply(move)
    table.ply += 1
    _note(table, deal, before)


def view(table: ToutiTable) -> dict[str, Any]:
    """The person's view: their observation and the public log, as JSON."""
    m = table.match
    obs = observe(m, 0)
    hand = sorted(
        (c for c in range(40) if obs.hand >> c & 1),
        key=lambda c: (c // 10 != obs.trump, c // 10, -STRENGTH[c]),
    )
    last = obs.tricks[-1] if obs.tricks else None
    return {
        "game": table.id,
        "ply": table.ply,
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


def touti_routes(tables: ToutiTables, creating: Budgets) -> list[BaseRoute]:
    """The Touti pages and API, to add to the app's routes; ``creating`` is the budget per
    client address that creating games shares with Chkobba's."""

    async def table_for(request: Request, token: Any) -> ToutiTable:
        table = await tables.get(request.path_params["game"])
        if table is None:
            raise Refused(404, "unknown_game", "no such Touti game")
        if token is None:
            raise Refused(403, "bad_token", "send this game's token: 'Authorization: Bearer TOKEN'")
        if not table.holds(token):
            raise Refused(403, "bad_token", "this game's token is needed")
        return table

    async def create(request: Request) -> Response:
        creating.check(request)
        data = await json_body(request, MAX_BODY)
        try:
            name = clean_name(data.get("name"), "You")
        except ValueError as e:
            return error(400, "bad_request", str(e))
        target = data.get("target", 600)
        if type(target) is not int or target not in TARGETS:
            return error(400, "bad_request", f"target must be one of {list(TARGETS)}")
        opponent = data.get("opponent", DEFAULT_PLAYER)
        partner = data.get("partner", DEFAULT_PLAYER)
        known = touti_players()
        for label, who in (("opponent", opponent), ("partner", partner)):
            if who not in known:
                return error(400, "unknown_level", f"{label} must be one of {', '.join(known)}")
        try:
            table, token = await tables.create(name, target, opponent, partner)
        except ToutiAgentError as e:
            return error(400, "unknown_level", str(e))
        async with table.lock:
            try:
                await tables.play_computers(table)
            except StoreFailed as e:
                # The game is stored up to the last move that was: the view plays on from there.
                log.error("Touti game %s: %s", table.id, e)
        return JSONResponse(
            {"game": table.id, "token": token, "url": f"/touti/{table.id}"},
            status_code=201,
        )

    async def state(request: Request) -> Response:
        table = await table_for(request, seat_token(request))
        async with table.lock:  # never read a match the computers are playing on
            try:
                # A game resumed between two computer moves plays on up to the person's turn.
                await tables.play_computers(table)
            except StoreFailed as e:
                return error(503, "server_error", str(e))
            return JSONResponse(view(table))

    async def move(request: Request) -> Response:
        no_token_in_url(request)
        data = await json_body(request, MAX_BODY)
        table = await table_for(request, data.get("token"))
        text = data.get("move")
        if not isinstance(text, str) or len(text) > 20:
            return error(400, "bad_request", "move must be a move in the notation, like 90 or Ah")
        async with table.lock:
            m = table.match
            try:
                await tables.play_computers(table)
                if m.is_over:
                    return error(409, "game_over", "the match is over")
                if m.turn != 0:
                    return error(409, "not_your_turn", "it is not your turn")
                try:
                    played = parse_move(text)
                except NotationError as e:
                    return error(400, "illegal_move", str(e))
                reason = m.deal.why_illegal(played)
                if reason is not None:
                    return error(400, "illegal_move", reason)
                await tables.commit(table, 0, played)
                await tables.play_computers(table)
            except StoreFailed as e:
                return error(503, "server_error", str(e))
            return JSONResponse(view(table))

    async def record(request: Request) -> Response:
        table = await table_for(request, seat_token(request))
        if not table.match.is_over:
            return error(409, "not_finished", "the record shows every hand: it is served "
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
