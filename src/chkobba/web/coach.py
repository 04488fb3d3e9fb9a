"""The coach on the web (docs/protocol.md, "The coach"): analysis of a finished game,
hints, trainer questions, the unseen cards and the post-game summary, as HTTP
endpoints beside the game's WebSocket.

A seat proves itself with its token (the one the game page holds); whatever is
computed for it comes from that seat's :func:`~chkobba.fishing.observe.observe` view,
so nothing hidden leaks.

Everything that searches runs in worker processes (:mod:`chkobba.web.work`):
analyses in the ``analysis`` lane, hints and charts in the ``light`` one, each
bounded in queue, per client address and time, and stopped when its client
leaves. An analysis costs at most :attr:`~chkobba.web.work.Limits.max_cost`
(rounds × seats × samples); ``samples`` is rounded to one of :data:`BUDGETS`, and
answers are cached by what decides them (the record's content, the seats, the
budget, the round), so asking again, or for 4001 samples instead of 4000, costs
nothing. Questions and the unseen cards are cheap and answered at once; every
coach request counts against its address's budget.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import random
import secrets
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeVar

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from chkobba.coach.analysis import analyze
from chkobba.coach.counting import ask
from chkobba.coach.estimate import DEFAULT_BATCHES, DEFAULT_SAMPLES
from chkobba.coach.games import COACHES, coach_of, coach_of_record
from chkobba.coach.hints import hint
from chkobba.coach.summary import Summary, chart, summarize
from chkobba.fishing.cards import Card
from chkobba.fishing.game import Round
from chkobba.fishing.match import Match
from chkobba.fishing.moves import Cut, Move, Play, parse_move
from chkobba.fishing.observe import observe
from chkobba.fishing.record import GameRecord, RecordError
from chkobba.games import game, replay
from chkobba.games.chkobba import point_names
from chkobba.store import Store, StoredGame
from chkobba.store.hints import hints_of

# The replay page's frame, so that a record file shows like a game of the server.
from chkobba.touti.deal import SEATS
from chkobba.touti.record import ToutiRecord, ToutiRecordError
from chkobba.touti.record import replay as touti_replay
from chkobba.web.cluster import NotOwner
from chkobba.web.http import Budgets, Refused, client_address, error, json_body
from chkobba.web.hub import Hub, Room
from chkobba.web.protocol import ProtocolError, card_list, read_json, side_of, turn_json
from chkobba.web.replay import _frame, game_record, seat_names
from chkobba.web.work import ClientGone, Lane, Work, checkpoint, unless_gone
from chkobba.words import DEFAULT_LANGUAGE, LANGUAGES

T = TypeVar("T")

STATIC: Final = Path(__file__).parent / "static"
MAX_SAMPLES: Final = 16_000
"""The most samples per position a web analysis may ask for."""
BUDGETS: Final = (16, 64, 250, 1000, 4000, 16_000)
"""The sample budgets analyses run at: ``samples`` is rounded to the nearest (on a
log scale), which the answer's ``samples`` says."""
MIN_COST_SAMPLES: Final = 1000
"""Samples counted per round and seat however few are asked: a position costs
about this much whatever the budget (observing, explaining, the frames)."""
MAX_BODY: Final = 4096
MAX_RECORD: Final = 512 * 1024
"""The largest record ``POST /api/analyze`` takes (a long match is some tens of kB)."""
MAX_FACTS: Final = 4096
"""Records (by their bytes' hash) whose shape is remembered, to refuse or find them at once."""


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


def budget_of(samples: int) -> int:
    """The budget of :data:`BUDGETS` nearest to ``samples`` on a log scale (ties: the lower)."""
    return min(BUDGETS, key=lambda b: (abs(math.log(samples / b)), b))


# -- what an analysis request asks, and what it would cost --------------------------------


@dataclass(frozen=True, slots=True)
class Asked:
    """An analysis request's query: ``seat`` (a number or ``all``), the budget, the round."""

    seat: str
    budget: int
    round: int | None


@dataclass(frozen=True, slots=True)
class RecordFacts:
    """What the server remembers of a record it has read: enough to check a request's
    seats, rounds and cost, and find its cached answer, without reading it again."""

    content: str
    """What its answers are cached by: the hash of the record without its ``meta``
    (or ``game:CODE`` for a finished game of the server, which never changes)."""
    seats: int
    rounds: int
    problem: str | None = None
    """Why the record does not verify, once known."""


@dataclass(frozen=True, slots=True)
class Answer:
    """What an analysis job gives back: the HTTP status and JSON body, what it learnt of
    the record, and the cache key of a computed answer."""

    status: int
    body: bytes
    facts: RecordFacts | None = None
    key: tuple[Hashable, ...] | None = None
    cached: bool = False
    """The answer is already in the server's cache (under ``key``): nothing was computed."""


def _asked(request: Request) -> Asked:
    q = request.query_params
    seat = q.get("seat", "0")
    try:
        samples = int(q.get("samples", str(DEFAULT_SAMPLES)))
        if seat != "all":
            seat = str(int(seat))
        round_no = int(q["round"]) if "round" in q else None
    except ValueError:
        raise Refused(
            400, "bad_request", "seat must be a number or 'all'; samples and round numbers"
        ) from None
    if not DEFAULT_BATCHES <= samples <= MAX_SAMPLES:
        raise Refused(
            400, "bad_request", f"samples must be from {DEFAULT_BATCHES} to {MAX_SAMPLES}"
        )
    return Asked(seat, budget_of(samples), round_no)


def plan(facts: RecordFacts, asked: Asked, max_cost: int) -> tuple[int, ...]:
    """The seats to analyse; raise :class:`Refused` for a seat or round the record does not
    have (400) or an analysis costing more than ``max_cost`` (413)."""
    if facts.problem is not None:
        raise Refused(400, "bad_record", facts.problem)
    seats = tuple(range(facts.seats)) if asked.seat == "all" else (int(asked.seat),)
    if any(not 0 <= s < facts.seats for s in seats):
        raise Refused(400, "bad_request", f"seat must be from 0 to {facts.seats - 1}")
    if asked.round is not None and not 1 <= asked.round <= facts.rounds:
        raise Refused(400, "bad_request", f"round must be from 1 to {facts.rounds}")
    rounds = 1 if asked.round is not None else facts.rounds
    cost = rounds * len(seats) * max(asked.budget, MIN_COST_SAMPLES)
    if cost > max_cost:
        raise Refused(
            413,
            "too_large",
            f"this analysis would cost {cost:,} (rounds × seats × samples, at least "
            f"{MIN_COST_SAMPLES} samples counted); the limit is {max_cost:,}: ask for one "
            "round at a time (round=N), fewer seats or fewer samples",
        )
    return seats


def cache_key(facts: RecordFacts, seats: tuple[int, ...], asked: Asked) -> tuple[Hashable, ...]:
    """What an analysis answer is cached by: nothing else changes it."""
    return ("analysis", facts.content, seats, asked.budget, asked.round)


def _json(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _error_answer(e: Refused, facts: RecordFacts | None) -> Answer:
    return Answer(e.status, _json({"error": e.code, "message": e.message}), facts)


# -- the jobs, run in worker processes ------------------------------------------------


def record_job(
    raw: bytes, asked: Asked, max_cost: int, known: frozenset[tuple[Hashable, ...]]
) -> Answer:
    """``POST /api/analyze``'s work: read and check the record, then analyse it (or say that
    its answer is among the ``known`` ones)."""
    try:
        data = read_json(raw)
        fmt = data.get("format") if isinstance(data, dict) else None
        if isinstance(fmt, str) and fmt.startswith("touti-record"):
            return _touti_record_job(ToutiRecord.from_json(data), asked, max_cost, known)
        record = GameRecord.from_json(data)
    except ProtocolError as e:
        return _error_answer(Refused(400, "bad_record", e.message), None)
    except (RecordError, ToutiRecordError) as e:
        return _error_answer(Refused(400, "bad_record", str(e)), None)
    content = dict(record.to_json())
    content.pop("meta", None)  # free-form notes: the answer does not depend on them
    digest = hashlib.sha256(_json(content)).hexdigest()
    facts = RecordFacts(digest, record.seats, len(record.rounds))
    try:
        seats = plan(facts, asked, max_cost)
    except Refused as e:
        return _error_answer(e, facts)
    key = cache_key(facts, seats, asked)
    if key in known:
        return Answer(200, b"", facts, key, cached=True)
    try:
        body = _json(_record_json(record, list(seats), asked.budget, asked.round))
    except RecordError as e:
        problem = str(e)
        return _error_answer(
            Refused(400, "bad_record", problem),
            RecordFacts(digest, record.seats, len(record.rounds), problem),
        )
    return Answer(200, body, facts, key)


def _touti_record_job(
    record: ToutiRecord, asked: Asked, max_cost: int, known: frozenset[tuple[Hashable, ...]]
) -> Answer:
    """:func:`record_job` for a Touti record: replayed first (every move checked), then its
    cards played weighed by Touti's coach."""
    content = dict(record.to_json())
    content.pop("meta", None)
    digest = hashlib.sha256(_json(content)).hexdigest()
    try:
        rep = touti_replay(record)
    except ToutiRecordError as e:
        problem = str(e)
        return _error_answer(
            Refused(400, "bad_record", problem),
            RecordFacts(digest, SEATS, len(record.deals), problem),
        )
    facts = RecordFacts(digest, SEATS, len(record.deals))
    try:
        seats = plan(facts, asked, max_cost)
    except Refused as e:
        return _error_answer(e, facts)
    key = cache_key(facts, seats, asked)
    if key in known:
        return Answer(200, b"", facts, key, cached=True)
    # The moves in order, each deal's numbered from 1 as the analysis numbers them.
    where = [(i, j) for i, d in enumerate(record.deals, 1) for j in range(1, len(d.moves) + 1)]
    names = record.names or [f"seat {s}" for s in range(SEATS)]
    analysis = _analysis_json(where, record, list(seats), asked.budget, asked.round)
    analysis["names"] = names
    frames: list[dict[str, Any]] = []
    ply = 0
    for i, deal in enumerate(rep.deals, 1):
        frames.append({"note": "deal", "round": i, "ply": None})
        for j, (seat, move) in enumerate(deal.history, 1):
            frames.append({"note": "play", "round": i, "play": j, "ply": ply, "seat": seat,
                           "text": str(move)})
            ply += 1
    body = {
        "kind": "touti",
        "names": names,
        "seats": SEATS,
        "teams": True,
        "target": rep.rules.target,
        "frames": frames if asked.round in (None, 1) else None,
        "analysis": analysis,
    }
    return Answer(200, _json(body), facts, key)


def stored_record(g: StoredGame) -> tuple[Any, list[tuple[int, int]]]:
    """A finished game's record and, for each stored move, its (round, play) in it: the
    Chkobba family's as :func:`ply_positions` numbers them; another game's (Touti's) from
    its table (:func:`chkobba.games.replay`), each move numbered within its deal."""
    if g.game == "chkobba":
        return game_record(g), ply_positions(g)
    played = game(g.game)
    rules = played.make_rules(g.rules, g.options, g.rules_version)
    table = replay(played, rules, g.seats, g.teams, g.seed, [])
    where: list[tuple[int, int]] = []
    part = number = 0
    for text in g.moves:
        if table.rounds != part:
            part, number = table.rounds, 0
        number += 1
        where.append((part + 1, number))
        table.play(table.turn, text)
    return table.record(seat_names(g), {"site": "chkobba web", "game": g.id}), where


def stored_job(g: StoredGame, asked: Asked, max_cost: int) -> Answer:
    """``GET /api/games/{code}/analysis``'s work, for a finished game of the server."""
    record, where = stored_record(g)
    coach = coach_of_record(record)
    facts = RecordFacts(f"game:{g.id}", coach.seats(record), coach.parts(record))
    try:
        seats = plan(facts, asked, max_cost)
    except Refused as e:
        return _error_answer(e, facts)
    body = _json(_analysis_json(where, record, list(seats), asked.budget, asked.round))
    return Answer(200, body, facts, cache_key(facts, seats, asked))


def hint_job(obs: Any, seed: int, game: str = "chkobba") -> dict[str, Any]:
    """A hint's work: the top plays for the seat to move, by the coach of ``game`` (a name:
    the job runs in another process)."""
    return hint(obs, seed, coach=COACHES[game]).to_json()


def chart_job(s: Summary, lang: str = DEFAULT_LANGUAGE) -> bytes:
    """A summary's chart, as SVG, its title and axis in ``lang``."""
    return chart(s, "svg", lang)


def _rounds(round_no: int | None) -> list[int] | None:
    return None if round_no is None else [round_no]


def _progress(done: int, total: int) -> None:
    checkpoint()  # between two positions: where a cancelled or late analysis stops


def _analysis_json(
    where: list[tuple[int, int]],
    record: GameRecord | ToutiRecord,
    seats: list[int],
    samples: int,
    round_no: int | None,
) -> dict[str, Any]:
    result = analyze(
        record, seats, samples, DEFAULT_BATCHES, seed=0, progress=_progress,
        rounds=_rounds(round_no),
    )
    out = result.to_json()
    plies = {pos: ply for ply, pos in enumerate(where)}
    for d in out["decisions"]:
        d["ply"] = plies.get((d["round"], d["play"]))
    out["names"] = record.names
    out["rounds"] = coach_of_record(record).parts(record)
    return out


def record_frames(record: GameRecord) -> list[dict[str, Any]]:
    """Every step of a (valid) record, as the replay page's frames: each deal, then the
    state after each move, every hand shown."""
    rules = record.ruleset()
    totals = [0] * (2 if record.teams else record.seats)
    frames = []
    for i, rr in enumerate(record.rounds, 1):
        checkpoint()
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
    result = analyze(
        record, seats, samples, DEFAULT_BATCHES, seed=0, progress=_progress,
        rounds=_rounds(round_no),
    )
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
        "rules": record.ruleset().name,
        "points": point_names(record.ruleset()),
        # With a round asked for (one step of a longer analysis), the first round
        # brings the frames and the others do not repeat them.
        "frames": record_frames(record) if round_no in (None, 1) else None,
        "analysis": out,
    }


# -- in the server ----------------------------------------------------------------------


class Cache:
    """Answers kept in memory, least recently used first out, within a size in bytes."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self.items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()

    def get(self, key: Hashable) -> Any:
        """The answer kept under ``key``, or None."""
        found = self.items.get(key)
        if found is None:
            return None
        self.items.move_to_end(key)
        return found[0]

    def put(self, key: Hashable, value: Any, size: int) -> None:
        """Keep ``value`` (about ``size`` bytes), letting the oldest go if need be."""
        if size > self.limit:
            return
        old = self.items.pop(key, None)
        if old is not None:
            self.size -= old[1]
        self.items[key] = (value, size)
        self.size += size
        while self.size > self.limit:
            _, (_, dropped) = self.items.popitem(last=False)
            self.size -= dropped

    def keys(self) -> frozenset[Any]:
        """Every key kept now."""
        return frozenset(self.items)


class Flight:
    """One job and the requests waiting for it: identical requests share one job, which
    is cancelled when the last of them leaves."""

    def __init__(self, task: asyncio.Task[Any]) -> None:
        self.task = task
        self.waiters = 0


def _retrieve(task: asyncio.Task[Any]) -> None:
    # A job nobody waits for any more may still fail: that is no news to log.
    if not task.cancelled():
        task.exception()


class Coach:
    """The coach's endpoints for one server."""

    def __init__(self, hub: Hub, store: Store, work: Work) -> None:
        self.hub = hub
        self.store = store
        self.work = work
        limits = work.limits
        self.max_cost = limits.max_cost
        self.analysis_budgets = Budgets(
            limits.analysis_rate, limits.analysis_burst, "analysis requests"
        )
        self.coach_budgets = Budgets(limits.coach_rate, limits.coach_burst, "coach requests")
        self.cache = Cache(limits.cache_bytes)
        self.facts: OrderedDict[str, RecordFacts] = OrderedDict()
        self.flights: dict[Hashable, Flight] = {}

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

    async def uses_meta(self, g: StoredGame) -> dict[str, dict[str, int]]:
        """``meta.coach.uses``: every use of each aid (``hints``, ``unseen``, ``trainer``)
        by seat (a seat number as a string), those never used left out."""
        uses = await self.hub.journal.call(self.store.coach_uses_of, g.id)
        return {aid: {str(s): n for s, n in sorted(by.items())} for aid, by in uses.items()}

    # -- running jobs ------------------------------------------------------------------

    async def _shared(
        self, request: Request, key: Hashable, lane: Lane, fn: Any, *args: Any
    ) -> Any:
        """``fn(*args)`` in ``lane``, one job for every request waiting on the same ``key``;
        the job is cancelled once none waits (each client that leaves stops waiting)."""
        flight = self.flights.get(key)
        if flight is None:
            ticket = lane.admit(client_address(request))
            task = asyncio.create_task(lane.run(ticket, fn, *args))
            task.add_done_callback(_retrieve)
            flight = self.flights[key] = Flight(task)

            def landed(_: asyncio.Task[Any], flight: Flight = flight) -> None:
                if self.flights.get(key) is flight:
                    del self.flights[key]

            task.add_done_callback(landed)
        flight.waiters += 1
        try:
            return await unless_gone(request, asyncio.shield(flight.task))
        finally:
            flight.waiters -= 1
            if flight.waiters == 0 and not flight.task.done():
                flight.task.cancel()

    def _learn(self, source: str, facts: RecordFacts | None) -> None:
        if facts is None:
            return
        self.facts[source] = facts
        self.facts.move_to_end(source)
        while len(self.facts) > MAX_FACTS:
            self.facts.popitem(last=False)

    def _answer(self, answer: Answer) -> Response:
        if answer.status == 200 and answer.key is not None and not answer.cached:
            self.cache.put(answer.key, answer.body, len(answer.body))
        return Response(answer.body, answer.status, media_type="application/json")

    def _cached(self, key: tuple[Hashable, ...]) -> Response | None:
        body = self.cache.get(key)
        return None if body is None else Response(body, media_type="application/json")

    # -- analysis of a finished game -----------------------------------------------

    async def analysis(self, request: Request) -> Response:
        """``GET /api/games/{game}/analysis?seat=N|all&samples=K&round=R``."""
        code = request.path_params["game"].strip().upper()
        asked = _asked(request)
        source = f"game:{code}"
        facts = self.facts.get(source)
        if facts is not None:
            # A finished game never changes: what was learnt of it still holds.
            key = cache_key(facts, plan(facts, asked, self.max_cost), asked)
            if (hit := self._cached(key)) is not None:
                return hit
        # A cached answer is cheap to give: only what reaches the database or a worker counts.
        self.analysis_budgets.check(request)
        stored = await self.hub.journal.call(self.store.game, code)
        if stored is None:
            return error(404, "unknown_game", "no such game")
        if stored.status != "finished":
            return error(409, "not_finished", "a game can be analysed once it is over")
        try:
            answer: Answer = await self._shared(
                request, (source, asked), self.work.analysis, stored_job, stored, asked,
                self.max_cost,
            )
        except ClientGone:
            return _gone()
        self._learn(source, answer.facts)
        return self._answer(answer)

    async def analyze_record(self, request: Request) -> Response:
        """``POST /api/analyze?seat=N|all&samples=K&round=R`` with a record (docs/records.md) as
        the body: its frames, step by step, and its analysis, for the analysis page."""
        self.analysis_budgets.check(request)
        asked = _asked(request)
        raw = await request.body()
        if len(raw) > MAX_RECORD:
            return error(413, "too_large", f"a record is limited to {MAX_RECORD // 1024} kB")
        source = "record:" + hashlib.sha256(raw).hexdigest()
        facts = self.facts.get(source)
        if facts is not None:
            key = cache_key(facts, plan(facts, asked, self.max_cost), asked)
            if (hit := self._cached(key)) is not None:
                return hit
        for _ in range(2):
            known = self.cache.keys()
            try:
                answer: Answer = await self._shared(
                    request, (source, asked), self.work.analysis, record_job, raw, asked,
                    self.max_cost, known,
                )
            except ClientGone:
                return _gone()
            self._learn(source, answer.facts)
            if not answer.cached:
                return self._answer(answer)
            assert answer.key is not None
            if (hit := self._cached(answer.key)) is not None:
                return hit
            # Let go of meanwhile: ask again, this time for the work itself.
        return error(503, "server_error", "the analysis could not be kept; try again")

    async def analyse_page(self, request: Request) -> Response:
        """The page that analyses a record file."""
        return FileResponse(STATIC / "analyse.html", headers={"Cache-Control": "no-cache"})

    # -- the summary ---------------------------------------------------------------

    async def summary(self, request: Request) -> Response:
        """``GET /api/games/{game}/summary[?lang=xx]``: points per category and the chart
        (SVG), the chart's words in ``lang`` (English by default)."""
        lang = request.query_params.get("lang", DEFAULT_LANGUAGE)
        if lang not in LANGUAGES:
            return error(400, "bad_language",
                         f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
        self.coach_budgets.check(request)
        room = await self.hub.get_room(request.path_params["game"])
        if room is None:
            return error(404, "unknown_game", "no such game")
        m = coached(room)
        if not m.finished:
            return error(409, "no_round", "no round has finished yet")
        s = summarize(m.finished, room.record_names())
        key = ("chart", room.id, s, lang)
        svg = self.cache.get(key)
        if svg is None:
            try:
                svg = await self._shared(request, key, self.work.light, chart_job, s, lang)
            except ClientGone:
                return _gone()
            self.cache.put(key, svg, len(svg))
        return JSONResponse({"summary": s.to_json(), "svg": svg.decode("utf-8")})

    # -- for a seat in play ----------------------------------------------------------

    async def _seat(self, request: Request) -> tuple[Room, int]:
        self.coach_budgets.check(request)
        data = await json_body(request, MAX_BODY)
        token = data.get("token")
        if not isinstance(token, str):
            raise Refused(400, "bad_request", 'send the seat\'s token: {"token": "…"}')
        room = await self.hub.get_room(request.path_params["game"])
        if room is None:
            raise Refused(404, "unknown_game", "no such game")
        seat = room.seat_of(token)
        if seat is None:
            raise Refused(403, "bad_token", f"that token holds no seat of game {room.id}")
        if not room.coaching():
            raise Refused(
                403,
                "coaching_off",
                "this room is played without the coach (its creator's choice, shown to all)",
            )
        return room, seat

    async def _count(self, room: Room, seat: int, aid: str) -> int:
        """Count one use of the coach's ``aid`` (for the record); the seat's count of it."""
        try:
            return await self.hub.journal.call(self.hub.journal.write_use, room.id, seat, aid)
        except NotOwner:
            raise self._moved(room) from None

    def _moved(self, room: Room) -> Refused:
        """The answer when a cluster's worker finds it lost the game meanwhile (its write
        refused, nothing written): the game is let go, the client asks again."""
        self.hub.later(self.hub.let_go(room.id, only=room))
        return Refused(503, "server_error", "the game moved to another server; ask again")

    async def hint(self, request: Request) -> Response:
        """``POST /api/games/{game}/hint``: the expert's top plays for the seat to move."""
        room, seat = await self._seat(request)
        coach = coach_of(room.game)
        async with room.lock:
            table = room.table
            if room.status != "playing" or table.is_over:
                return error(409, "not_playing", "hints are for a game in play")
            if table.turn != seat:
                return error(409, "not_your_turn", "a hint is for your own turn")
            obs = table.observe(seat)
            ply = room.ply
        if len(obs.legal_moves) < 2:
            return error(409, "forced", "only one play is possible here")
        if not coach.weighed(obs):
            return error(
                409,
                "not_weighed",
                "hints weigh the cards to play: the bidding, the trumps and the "
                "announcements are the technique player's",
            )
        # The same position always gets the same hint: asking again costs nothing.
        key = ("hint", room.id, ply, seat)
        h = self.cache.get(key)
        if h is None:
            try:
                h = await self._shared(
                    request,
                    key,
                    self.work.light,
                    hint_job,
                    obs,
                    room.seed ^ (ply * 7919 + seat),
                    coach.game,
                )
            except ClientGone:
                return _gone()
            self.cache.put(key, h, 2048)
        try:
            # Fenced in a cluster: a worker that lost the game meanwhile writes nothing.
            await self.hub.journal.call(self.hub.journal.write_hint, room.id, ply, seat)
        except NotOwner:
            raise self._moved(room) from None
        await self._count(room, seat, "hints")
        hinted = await self.hub.journal.call(hints_of, self.store, room.id)
        mine = sum(1 for _, s in hinted if s == seat)
        return JSONResponse({"ply": ply, "hints": mine, **h})

    async def question(self, request: Request) -> Response:
        """``POST /api/games/{game}/question``: a card-counting question for the seat."""
        room, seat = await self._seat(request)
        obs = observe(coached(room), seat)
        q = ask(obs, random.Random(secrets.randbits(32)))
        await self._count(room, seat, "trainer")
        return JSONResponse({"ply": room.ply, **q.to_json()})

    async def unseen(self, request: Request) -> Response:
        """``POST /api/games/{game}/unseen``: the cards the seat has not seen."""
        room, seat = await self._seat(request)
        obs = observe(coached(room), seat)
        await self._count(room, seat, "unseen")
        return JSONResponse({"ply": room.ply, "unseen": card_list(obs.unseen)})


def coached(room: Room) -> Match:
    """The room's match, if the coach knows its game (the Chkobba family); else refuse."""
    m = room.match
    if m is None:
        raise Refused(409, "not_coached", f"the coach does not know {room.game.name} yet")
    return m


def _gone() -> Response:
    # Nobody reads this (the client has left); 499 is what access logs know it by.
    return Response(status_code=499)
