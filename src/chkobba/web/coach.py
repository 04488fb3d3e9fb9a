"""The coach on the web (docs/protocol.md, "The coach"): analysis of a finished game,
hints, trainer questions, the unseen cards and the post-game summary, as HTTP
endpoints beside the game's WebSocket.

A seat proves itself with its token (the one the game page holds); whatever is
computed for it comes from that seat's :func:`~chkobba.observe.observe` view,
so nothing hidden leaks. The expert's work runs in a worker thread, one
analysis at a time, so the server keeps answering.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
from collections import OrderedDict
from pathlib import Path
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from chkobba.cards import Card
from chkobba.coach.analysis import analyze
from chkobba.coach.counting import ask
from chkobba.coach.estimate import DEFAULT_BATCHES, DEFAULT_SAMPLES
from chkobba.coach.hints import hint
from chkobba.coach.summary import chart, summarize
from chkobba.game import Round
from chkobba.match import Match
from chkobba.moves import Cut, Move, Play, parse_move
from chkobba.observe import observe
from chkobba.record import GameRecord, RecordError, replay
from chkobba.store import Store, StoredGame
from chkobba.store.hints import add_hint, hints_of
from chkobba.web.hub import Hub, Room
from chkobba.web.protocol import card_list, side_of, turn_json

# The replay page's frame, so that a record file shows like a game of the server.
from chkobba.web.replay import _frame, game_record

STATIC: Final = Path(__file__).parent / "static"
MAX_SAMPLES: Final = 16_000
"""The most samples per position a web analysis may ask for."""
CACHED: Final = 32
"""Analyses kept in memory (a finished game's analysis never changes)."""
MAX_BODY: Final = 4096
MAX_RECORD: Final = 512 * 1024
"""The largest record ``POST /api/analyze`` takes (a long match is some tens of kB)."""


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def ply_positions(g: StoredGame) -> list[tuple[int, int]]:
    """For each stored move, its (round, play) in the game's record (play 0: the cut)."""
    match = Match(g.ruleset(), g.seats, g.teams, g.seed)
    out = []
    for text in g.moves:
        move = parse_move(text)
        r = match.round
        play = 0 if isinstance(move, Cut) else 1 + sum(isinstance(t.move, Play) for t in r.history)
        out.append((len(match.finished) + 1, play))
        match.apply(move, match.turn)
    return out


def coach_meta(g: StoredGame, hinted: list[tuple[int, int]]) -> dict[str, Any]:
    """The record's ``meta.coach`` for a web game: its hints as (round, play) per seat."""
    where = ply_positions(g)
    return {
        "hints": len(hinted),
        "hinted": [[*where[ply], seat] for ply, seat in hinted if ply < len(where)],
    }


def _query(
    request: Request, seats: int, rounds: int
) -> tuple[list[int], int, int | None] | Response:
    """The analysis' ``seat``, ``samples`` and ``round`` query parameters, checked."""
    q = request.query_params
    seat_text = q.get("seat", "0")
    try:
        samples = int(q.get("samples", str(DEFAULT_SAMPLES)))
        chosen = list(range(seats)) if seat_text == "all" else [int(seat_text)]
        round_no = int(q["round"]) if "round" in q else None
    except ValueError:
        return _error(
            400, "bad_request", "seat must be a number or 'all'; samples and round numbers"
        )
    if not DEFAULT_BATCHES <= samples <= MAX_SAMPLES:
        return _error(
            400, "bad_request", f"samples must be from {DEFAULT_BATCHES} to {MAX_SAMPLES}"
        )
    if any(not 0 <= s < seats for s in chosen):
        return _error(400, "bad_request", f"seat must be from 0 to {seats - 1}")
    if round_no is not None and not 1 <= round_no <= rounds:
        return _error(400, "bad_request", f"round must be from 1 to {rounds}")
    return chosen, samples, round_no


class Coach:
    """The coach's endpoints for one server."""

    def __init__(self, hub: Hub, store: Store) -> None:
        self.hub = hub
        self.store = store
        self.busy = asyncio.Semaphore(1)
        self.cache: OrderedDict[tuple[str, tuple[int, ...], int, int | None], dict[str, Any]] = (
            OrderedDict()
        )

    def routes(self) -> list[Route]:
        """The routes to mount beside the app's own."""
        return [
            Route("/api/games/{game}/analysis", self.analysis),
            Route("/api/games/{game}/summary", self.summary),
            Route("/api/games/{game}/hint", self.hint, methods=["POST"]),
            Route("/api/games/{game}/question", self.question, methods=["POST"]),
            Route("/api/games/{game}/unseen", self.unseen, methods=["POST"]),
            Route("/api/analyze", self.analyze_record, methods=["POST"]),
            Route("/analyse", self.analyse_page),
        ]

    async def record_meta(self, g: StoredGame) -> dict[str, Any] | None:
        """``meta.coach`` for a stored game, or None when no hint was asked for."""
        hinted = await self.hub.journal.call(hints_of, self.store, g.id)
        return coach_meta(g, hinted) if hinted else None

    # -- analysis of a finished game -----------------------------------------------

    async def analysis(self, request: Request) -> Response:
        """``GET /api/games/{game}/analysis?seat=N|all&samples=K``."""
        code = request.path_params["game"].strip().upper()
        stored = await self.hub.journal.call(self.store.game, code)
        if stored is None:
            return _error(404, "unknown_game", "no such game")
        if stored.status != "finished":
            return _error(409, "not_finished", "a game can be analysed once it is over")
        record = game_record(stored)
        asked = _query(request, stored.seats, len(record.rounds))
        if isinstance(asked, Response):
            return asked
        seats, samples, round_no = asked
        key = (code, tuple(seats), samples, round_no)
        found = self.cache.get(key)
        if found is None:
            async with self.busy:
                found = self.cache.get(key)
                if found is None:
                    found = await asyncio.to_thread(
                        _analysis_json, stored, record, seats, samples, round_no
                    )
                    self.cache[key] = found
                    while len(self.cache) > CACHED:
                        self.cache.popitem(last=False)
        return JSONResponse(found)

    async def analyze_record(self, request: Request) -> Response:
        """``POST /api/analyze?seat=N|all&samples=K`` with a record (docs/records.md) as the body:
        its frames, step by step, and its analysis, for the analysis page."""
        raw = await request.body()
        if len(raw) > MAX_RECORD:
            return _error(413, "too_large", f"a record is limited to {MAX_RECORD // 1024} kB")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return _error(400, "bad_record", "the record is not UTF-8 text")
        try:
            record = GameRecord.loads(text)
            replay(record)
        except RecordError as e:
            return _error(400, "bad_record", str(e))
        asked = _query(request, record.seats, len(record.rounds))
        if isinstance(asked, Response):
            return asked
        seats, samples, round_no = asked
        async with self.busy:
            found = await asyncio.to_thread(_record_json, record, seats, samples, round_no)
        return JSONResponse(found)

    async def analyse_page(self, request: Request) -> Response:
        """The page that analyses a record file."""
        return FileResponse(STATIC / "analyse.html", headers={"Cache-Control": "no-cache"})

    # -- the summary ---------------------------------------------------------------

    async def summary(self, request: Request) -> Response:
        """``GET /api/games/{game}/summary``: points per category and the chart (SVG)."""
        room = await self.hub.get_room(request.path_params["game"])
        if room is None:
            return _error(404, "unknown_game", "no such game")
        m = room.match
        if not m.finished:
            return _error(409, "no_round", "no round has finished yet")
        s = summarize(m.finished, room.record_names())
        svg = await asyncio.to_thread(chart, s, "svg")
        return JSONResponse({"summary": s.to_json(), "svg": svg.decode("utf-8")})

    # -- for a seat in play ----------------------------------------------------------

    async def _seat(self, request: Request) -> tuple[Room, int] | Response:
        raw = await request.body()
        if len(raw) > MAX_BODY:
            return _error(413, "bad_request", f"the request body is limited to {MAX_BODY} bytes")
        try:
            data = json.loads(raw or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError):
            return _error(400, "bad_request", "the request body is not valid JSON")
        token = data.get("token") if isinstance(data, dict) else None
        if not isinstance(token, str):
            return _error(400, "bad_request", 'send the seat\'s token: {"token": "…"}')
        room = await self.hub.get_room(request.path_params["game"])
        if room is None:
            return _error(404, "unknown_game", "no such game")
        seat = room.seat_of(token)
        if seat is None:
            return _error(403, "bad_token", f"that token holds no seat of game {room.id}")
        return room, seat

    async def hint(self, request: Request) -> Response:
        """``POST /api/games/{game}/hint``: the expert's top plays for the seat to move."""
        found = await self._seat(request)
        if isinstance(found, Response):
            return found
        room, seat = found
        async with room.lock:
            m = room.match
            if room.status != "playing" or m.is_over:
                return _error(409, "not_playing", "hints are for a game in play")
            if m.turn != seat:
                return _error(409, "not_your_turn", "a hint is for your own turn")
            obs = observe(m, seat)
            ply = room.ply
        if len(obs.legal_moves) < 2:
            return _error(409, "forced", "only one play is possible here")
        await self.hub.journal.call(add_hint, self.store, room.id, ply, seat)
        h = await asyncio.to_thread(hint, obs, room.seed ^ (ply * 7919 + seat))
        hinted = await self.hub.journal.call(hints_of, self.store, room.id)
        mine = sum(1 for _, s in hinted if s == seat)
        return JSONResponse({"ply": ply, "hints": mine, **h.to_json()})

    async def question(self, request: Request) -> Response:
        """``POST /api/games/{game}/question``: a card-counting question for the seat."""
        found = await self._seat(request)
        if isinstance(found, Response):
            return found
        room, seat = found
        obs = observe(room.match, seat)
        q = ask(obs, random.Random(secrets.randbits(32)))
        return JSONResponse({"ply": room.ply, **q.to_json()})

    async def unseen(self, request: Request) -> Response:
        """``POST /api/games/{game}/unseen``: the cards the seat has not seen."""
        found = await self._seat(request)
        if isinstance(found, Response):
            return found
        room, seat = found
        obs = observe(room.match, seat)
        return JSONResponse({"ply": room.ply, "unseen": card_list(obs.unseen)})


def _rounds(round_no: int | None) -> list[int] | None:
    return None if round_no is None else [round_no]


def _analysis_json(
    g: StoredGame, record: GameRecord, seats: list[int], samples: int, round_no: int | None
) -> dict[str, Any]:
    result = analyze(record, seats, samples, DEFAULT_BATCHES, seed=0, rounds=_rounds(round_no))
    out = result.to_json()
    plies = {pos: ply for ply, pos in enumerate(ply_positions(g))}
    for d in out["decisions"]:
        d["ply"] = plies.get((d["round"], d["play"]))
    out["names"] = record.names
    out["rounds"] = len(record.rounds)
    return out


def record_frames(record: GameRecord) -> list[dict[str, Any]]:
    """Every step of a (valid) record, as the replay page's frames: each deal, then the
    state after each move, every hand shown."""
    rules = record.ruleset()
    totals = [0] * (2 if record.teams else record.seats)
    frames = []
    for i, rr in enumerate(record.rounds, 1):
        r = Round(rules, record.seats, record.teams, rr.dealer, [Card.parse(c) for c in rr.deck])
        frames.append(_frame(r, i, totals, None, "deal"))
        moves: list[Move] = [Cut(rr.cut)] if rr.cut is not None else []
        moves += [Play.parse(p) for p in rr.plays]
        for move in moves:
            r.apply(move)
            if r.score is not None:
                totals = [t + p for t, p in zip(totals, r.score.points, strict=True)]
            turn = turn_json(r.history[-1])
            frames.append(_frame(r, i, totals, turn, "end" if r.is_over else "play"))
    return frames


def _record_json(
    record: GameRecord, seats: list[int], samples: int, round_no: int | None
) -> dict[str, Any]:
    result = analyze(record, seats, samples, DEFAULT_BATCHES, seed=0, rounds=_rounds(round_no))
    out = result.to_json()
    # The moves in order, each numbered like the frames that follow them.
    plies: dict[tuple[int, int], int] = {}
    for i, rr in enumerate(record.rounds, 1):
        for j in ([0] if rr.cut is not None else []) + list(range(1, len(rr.plays) + 1)):
            plies[(i, j)] = len(plies)
    for d in out["decisions"]:
        d["ply"] = plies.get((d["round"], d["play"]))
    names = record.names or [f"seat {s}" for s in range(record.seats)]
    out["names"] = names
    out["rounds"] = len(record.rounds)
    return {
        "names": names,
        "seats": record.seats,
        "teams": record.teams,
        "side_of": side_of(record.seats, record.teams),
        "target": record.ruleset().target,
        # With a round asked for (one step of a longer analysis), the first round
        # brings the frames and the others do not repeat them.
        "frames": record_frames(record) if round_no in (None, 1) else None,
        "analysis": out,
    }
