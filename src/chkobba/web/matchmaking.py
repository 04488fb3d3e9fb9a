"""Finding an opponent: the "Play now" queue and challenges, over HTTP (docs/web.md,
"Play now and challenges"; the HTTP API: docs/protocol.md).

- ``POST /api/queue`` puts a player (signed in or a guest) in a pool: a preset, a
  table, rated (signed-in players only) or casual, a turn clock. The answer holds a
  *ticket*, a secret that becomes the player's seat token once paired. The page then
  asks ``POST /api/queue/poll`` every second or so (which also tells the server it is
  still there) until the answer says ``paired``, with the game to go to; ``POST
  /api/queue/cancel`` leaves.
- Every worker pairs, every ``QueuePolicy.every`` seconds and at once after a join,
  from the queue in the database (:class:`chkobba.store.queue.Queue`): a round locks
  what it reads, so no player is paired twice. Waiting players whose page has gone
  silent for ``QueuePolicy.stale`` seconds (closed, gone away) are dropped.
- A challenge (``POST /api/challenges``) invites a named account, which sees it in its
  lobby (``GET /api/challenges``), or whoever opens its link (``/#challenge=ID``); the
  invitee accepts (the game is made, both seated) or declines. The challenger holds a
  ticket, like a player in the queue, and asks ``POST /api/challenges/poll``.

Tickets and challenge ids travel in JSON bodies, never in a URL the server logs.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import functools
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from chkobba.fishing.rules import RULES_VERSION
from chkobba.games import catalogue, game
from chkobba.games.base import table_of
from chkobba.store import SeatRow, StoredGame
from chkobba.store.challenges import Challenge, ChallengeGone, Challenges
from chkobba.store.pairing import DEFAULT_RATING, Widening
from chkobba.store.pools import pool_of as rating_pool_of
from chkobba.store.queue import PAIRED, Conflict, Entry, Pool, Queue
from chkobba.store.store import now
from chkobba.web.account import AccountService
from chkobba.web.codes import new_code
from chkobba.web.http import Budgets, error, json_body
from chkobba.web.hub import Hub, clean_name, new_token, room_from_stored, token_hash
from chkobba.web.life import RoomSettings
from chkobba.web.names import BadName, check_name, name_keys

log = logging.getLogger("chkobba.web")
T = TypeVar("T")

MAX_BODY: Final = 2048
CLOCKS: Final = (None, 15.0, 30.0, 60.0, 120.0)
"""The turn clocks a pool may have (seconds a move; None: no clock)."""
TOUTI: Final = "touti"

RATED_CLOCK: Final = 60.0
"""The turn clock of a rated pool asked for without one (seconds a move): a rated game
always runs on a clock, so that a player who walks away loses on it."""

RatingFor = Callable[[int, Pool], float | None]
"""An account's rating in a pool (its game, preset and table), or None if it has none."""


def unrated(account_id: int, pool: Pool) -> float | None:
    """No rating for anyone: every player at the pool's default rating
    (:data:`chkobba.store.pairing.DEFAULT_RATING`); for tests of the queue alone."""
    return None


@dataclass(frozen=True)
class QueuePolicy:
    """How the queue behaves."""

    every: float = 0.5
    """Seconds between two pairing rounds of one worker (a join starts one at once)."""
    stale: float = 20.0
    """Seconds after which a waiting player whose page has stopped asking is dropped."""
    keep_paired: float = 600.0
    """Seconds a paired entry is kept, for its page to read where to go."""
    clean_every: float = 5.0
    """Seconds between two clean-ups of stale entries and old challenges."""
    widening: Widening = field(default_factory=Widening)
    challenge_seconds: float = 3600.0
    """How long a challenge stays open."""


@functools.cache
def pools() -> dict[str, str]:
    """The pools: each preset of the Chkobba family, and Touti; the game of each."""
    names = {name: "chkobba" for name in catalogue(game("chkobba"))["rules"]}
    names[TOUTI] = TOUTI
    return names


def _seconds_or_none(value: object) -> float | None:
    if value is None or value == "none":
        return None
    if type(value) not in (int, float) or float(value) not in CLOCKS:  # type: ignore[arg-type]
        known = ", ".join("none" if c is None else f"{c:g}" for c in CLOCKS)
        raise ValueError(f"clock must be one of {known} (seconds a move), not {value!r}")
    return float(value)  # type: ignore[arg-type]


def pool_of(data: dict[str, Any], signed_in: bool, two_only: bool = False) -> Pool:
    """The pool a request's body asks for, checked; ``ValueError`` in one line if not."""
    known = pools()
    name = data.get("pool", "chkobba")
    if not isinstance(name, str) or name not in known:
        raise ValueError(f"pool must be one of {', '.join(known)}, not {name!r}")
    played = game(known[name])
    rules = played.make_rules(None if name == TOUTI else name, {})
    seatings = played.seatings(rules)
    seating = data.get("seating", "2" if "2" in seatings else seatings[0])
    if not isinstance(seating, str) or seating not in seatings:
        raise ValueError(f"seating must be one of {', '.join(seatings)} for {name}")
    if two_only and table_of(seating)[0] != 2:
        raise ValueError("a challenge is a game of two players: seating must be '2'")
    rated = data.get("rated", False)
    if not isinstance(rated, bool):
        raise ValueError("rated must be true or false")
    if rated and not signed_in:
        raise ValueError("rated games are for signed-in players: log in, or play casual")
    if rated and rating_pool_of(played.name, name, seating) is None:
        raise ValueError(
            f"no rating pool plays {name} at the table {seating!r} (docs/ratings.md): "
            "play it casual"
        )
    clock = _seconds_or_none(data.get("clock"))
    if rated and clock is None:
        clock = RATED_CLOCK
    return Pool(name, played.name, seating, rated, clock)


def pool_json(pool: Pool) -> dict[str, Any]:
    """A pool as the API shows it."""
    return {
        "pool": pool.pool,
        "game": pool.game,
        "seating": pool.seating,
        "rated": pool.rated,
        "clock": pool.clock,
    }


def new_game(
    pool: Pool, players: Sequence[tuple[str, str, int | None]], seed: int
) -> StoredGame:
    """The game of a table of ``pool``: ``players`` (name, token hash, account) by seat,
    every seat a person's, playing at once."""
    played = game(pool.game)
    rules = played.make_rules(None if pool.game == TOUTI else pool.pool, {})
    seats, teams = table_of(pool.seating)
    played.serve(rules, seats, teams, seed)  # checks the table
    stored_name, stored_options = played.rules_json(rules)
    life = RoomSettings(clock=pool.clock, rated=pool.rated)
    rated_in = rating_pool_of(pool.game, pool.pool, pool.seating) if pool.rated else None
    return StoredGame(
        id=new_code(),
        kind="room",
        status="playing",
        rules=stored_name,
        options=stored_options,
        seats=seats,
        teams=teams,
        seed=seed,
        created_at=now(),
        seat_rows=[
            SeatRow(s, name, ticket, None, account_id=account)
            for s, (name, ticket, account) in enumerate(players)
        ],
        rules_version=RULES_VERSION,
        game=played.name,
        # What the ratings read: whether the game counts, and in which pool.
        settings={**life.to_json(), "pool": pool.pool},
        unlisted=False,
        pool=rated_in.name if rated_in is not None else None,
    )


def game_url(game_name: str, code: str) -> str:
    """The page of a game."""
    return f"{game(game_name).page}/{code}"


class Matchmaking:
    """The queue and the challenges of one app (one worker)."""

    def __init__(
        self,
        hub: Hub,
        members: AccountService,
        policy: QueuePolicy | None = None,
        ratings: RatingFor = unrated,
    ) -> None:
        self.hub = hub
        self.members = members
        self.policy = policy or QueuePolicy()
        self.ratings = ratings
        self.queue = Queue(hub.store)
        self.challenges = Challenges(hub.store)
        self.joins = Budgets(hub.settings.rate, hub.settings.burst, "queue joins or challenges")
        # Each waiting page asks once a second; many players may share an address (a NAT).
        self.polls = Budgets(
            5 * hub.settings.rate, 5 * hub.settings.burst, "queue or challenge questions"
        )
        self.wake: asyncio.Event | None = None
        self.task: asyncio.Task[None] | None = None
        self.rounds = 0
        self.paired = 0

    # -- the pairing loop ------------------------------------------------------------

    def start(self) -> None:
        """Start this worker's pairing rounds."""
        self.wake = asyncio.Event()
        self.task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        """Stop them."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def _loop(self) -> None:
        cleaned = 0.0
        while True:
            try:
                if time.monotonic() - cleaned >= self.policy.clean_every:
                    cleaned = time.monotonic()
                    await self.background(
                        self.queue.expire, self.policy.stale, self.policy.keep_paired
                    )
                    await self.background(self.challenges.expire, self.policy.keep_paired)
                await self.pair_round()
            except asyncio.CancelledError:
                raise
            except Exception:
                # A database that does not answer now may answer at the next round.
                log.exception("a pairing round failed")
            assert self.wake is not None
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), self.policy.every)

    async def background(self, fn: Callable[..., T], *args: Any) -> T:
        """Run the queue's or the challenges' store work: on SQLite on the store's thread,
        whose calls take turns (one writer at a time); on PostgreSQL on a thread of the
        pool, so that neither the rounds nor the pages' questions hold up the moves
        waiting for the store's thread."""
        if self.hub.store.is_sqlite:
            return await self.hub.journal.call(fn, *args)
        return await asyncio.to_thread(fn, *args)

    async def pair_round(self) -> list[StoredGame]:
        """One pairing round; the games it made (held here, on a single server)."""
        self.rounds += 1
        try:
            made = await self.background(
                self.queue.pair, self._build, self.policy.stale, self.policy.widening
            )
        except Conflict as e:
            log.warning("a pairing round met a taken entry and was undone: %s", e)
            return []
        self.paired += sum(g.seats for g in made)
        for stored in made:
            self._hold(stored)
        return made

    def _build(self, pool: Pool, seated: Sequence[Entry]) -> StoredGame:
        players = [(e.name, e.ticket_hash, e.account_id) for e in seated]
        return new_game(pool, players, self.hub.new_seed())

    def _hold(self, stored: StoredGame) -> None:
        """A game just made: a single server holds it at once; a cluster's worker that
        one of its players reaches loads it then (the hub's ``get_room``)."""
        if self.hub.cluster is not None:
            return
        room = room_from_stored(stored)
        self.hub.rooms[room.id] = room
        self.hub.schedule_bots(room)
        self.hub.arm(room)

    # -- the queue's endpoints -------------------------------------------------------

    async def who(self, request: Request, data: dict[str, Any]) -> tuple[str, int | None]:
        """The name and account of a request's player (a guest's name from the body)."""
        account = await self.members.current(request)
        if account is not None:
            return account.name, account.id
        return clean_name(data.get("name"), "Player"), None

    async def join(self, request: Request) -> Response:
        self.joins.check(request)
        data = await json_body(request, MAX_BODY)
        try:
            name, account = await self.who(request, data)
            pool = pool_of(data, account is not None)
        except ValueError as e:
            return error(400, "bad_request", str(e))
        rating = DEFAULT_RATING
        if account is not None:
            found = await self.background(self.ratings, account, pool)
            if found is not None:
                rating = float(found)
        ticket = new_token()
        await self.background(
            self.queue.join, token_hash(ticket), pool, name, rating, account
        )
        if self.wake is not None:
            self.wake.set()  # pair now, not at the next round
        return JSONResponse(
            {"ticket": ticket, "status": "waiting", "rating": rating, **pool_json(pool)},
            status_code=201,
        )

    async def ticket_of(self, request: Request) -> str | Response:
        """The ticket a request's body gives (its address's budget of questions taken)."""
        self.polls.check(request)
        data = await json_body(request, MAX_BODY)
        ticket = data.get("ticket")
        if not isinstance(ticket, str) or not ticket:
            return error(400, "bad_request", "give the ticket POST /api/queue answered")
        return ticket

    def entry_json(self, entry: Entry) -> dict[str, Any]:
        """Where a player of the queue is: waiting, or paired and where to go."""
        answer: dict[str, Any] = {"status": entry.status, **pool_json(entry.pool)}
        if entry.status == PAIRED and entry.game_id is not None:
            answer.update(
                game=entry.game_id, seat=entry.seat, url=game_url(entry.pool.game, entry.game_id)
            )
            if entry.paired_at is not None:
                # How long the player waited, as the server counts it.
                answer["waited"] = round((entry.paired_at - entry.joined_at).total_seconds(), 3)
        else:
            answer["waited"] = round((now() - entry.joined_at).total_seconds(), 1)
        return answer

    async def poll(self, request: Request) -> Response:
        ticket = await self.ticket_of(request)
        if isinstance(ticket, Response):
            return ticket
        entry = await self.background(self.queue.seen, token_hash(ticket))
        if entry is None:
            return error(404, "not_in_queue", "this ticket is not in the queue (left or expired)")
        return JSONResponse(self.entry_json(entry))

    async def cancel(self, request: Request) -> Response:
        ticket = await self.ticket_of(request)
        if isinstance(ticket, Response):
            return ticket
        entry = await self.background(self.queue.cancel, token_hash(ticket))
        if entry is None:
            return JSONResponse({"status": "cancelled"})
        # Paired already: the game is made, and the seat is theirs.
        return JSONResponse(self.entry_json(entry))

    async def waiting(self, request: Request) -> Response:
        counts = await self.background(self.queue.waiting)
        return JSONResponse(
            {"pools": [{**pool_json(p), "waiting": n} for p, n in counts.items()],
             "clocks": list(CLOCKS), "pools_known": list(pools())}
        )

    # -- challenges ------------------------------------------------------------------

    def challenge_json(self, c: Challenge, mine: bool = False) -> dict[str, Any]:
        """A challenge as its invitee (or, ``mine``, its challenger) sees it."""
        answer: dict[str, Any] = {
            "challenge": c.id,
            "from": c.from_name,
            "to": c.to_name,
            "pool": c.pool,
            "game": c.game,
            "seating": c.seating,
            "clock": c.clock,
            "status": c.status if c.open_at(now()) or c.status != "open" else "expired",
            "expires": c.expires_at.isoformat(),
        }
        if mine and c.game_id is not None:
            answer.update(
                game=c.game_id, seat=c.challenger_seat, url=game_url(c.game, c.game_id)
            )
        return answer

    async def challenge(self, request: Request) -> Response:
        self.joins.check(request)
        data = await json_body(request, MAX_BODY)
        to = data.get("to")
        try:
            name, account = await self.who(request, data)
            pool = pool_of(data, account is not None, two_only=True)
            if pool.rated:
                raise ValueError("a challenge is casual: rated games come from Play now")
            if to is not None and not isinstance(to, str):
                raise ValueError("to must be a user name")
        except ValueError as e:
            return error(400, "bad_request", str(e))
        invitee = None
        if to:
            if account is None:
                return error(401, "not_signed_in", "log in to challenge a named player")
            try:
                key = (await asyncio.to_thread(name_keys, check_name(to)))[0]
            except BadName:
                key = None
            invitee = None if key is None else await self.background(
                self.members.accounts.by_key, key
            )
            if invitee is None:
                return error(404, "unknown_player", f"no player is called {to!r}")
            if invitee.id == account:
                return error(400, "bad_request", "you cannot challenge yourself")
        ticket = new_token()
        expires = now() + dt.timedelta(seconds=self.policy.challenge_seconds)
        made = await self.background(
            lambda: self.challenges.create(
                secrets.token_urlsafe(12), token_hash(ticket), name, pool.pool, pool.game,
                pool.seating, pool.clock, expires, account,
                invitee.id if invitee else None, invitee.name if invitee else None,
            )
        )
        return JSONResponse(
            {**self.challenge_json(made, mine=True), "ticket": ticket,
             "link": f"/#challenge={made.id}"},
            status_code=201,
        )

    async def incoming(self, request: Request) -> Response:
        account = await self.members.current(request)
        if account is None:
            return JSONResponse({"incoming": []})
        found = await self.background(self.challenges.incoming, account.id)
        return JSONResponse({"incoming": [self.challenge_json(c) for c in found]})

    async def _named(self, request: Request) -> tuple[str, dict[str, Any]] | Response:
        self.polls.check(request)
        data = await json_body(request, MAX_BODY)
        cid = data.get("challenge")
        if not isinstance(cid, str) or not cid:
            return error(400, "bad_request", "give the challenge's id")
        return cid, data

    async def view(self, request: Request) -> Response:
        asked = await self._named(request)
        if isinstance(asked, Response):
            return asked
        cid, _ = asked
        account = await self.members.current(request)
        found = await self.background(self.challenges.get, cid)
        mine = found is not None and account is not None and found.from_account == account.id
        if found is None or not (
            mine or found.to_account is None
            or (account is not None and found.to_account == account.id)
        ):
            return error(404, "unknown_challenge", "no such challenge")
        return JSONResponse({**self.challenge_json(found), "yours": mine})

    async def accept(self, request: Request) -> Response:
        asked = await self._named(request)
        if isinstance(asked, Response):
            return asked
        cid, data = asked
        try:
            name, account = await self.who(request, data)
        except ValueError as e:
            return error(400, "bad_request", str(e))
        token = new_token()
        seed = self.hub.new_seed()
        first = secrets.randbelow(2)

        def build(c: Challenge) -> tuple[StoredGame, int]:
            challenger = (c.from_name, c.ticket_hash, c.from_account)
            acceptor = (name, token_hash(token), account)
            pool = Pool(c.pool, c.game, c.seating, False, c.clock)
            players = [challenger, acceptor] if first == 0 else [acceptor, challenger]
            return new_game(pool, players, seed), first

        try:
            accepted, stored = await self.background(
                self.challenges.accept, cid, build, account
            )
        except ChallengeGone:
            return error(
                409, "challenge_gone", "this challenge is no longer open (or not for you)"
            )
        self._hold(stored)
        seat = 1 - first
        return JSONResponse(
            {"game": stored.id, "seat": seat, "token": token,
             "url": game_url(accepted.game, stored.id)}
        )

    async def decline(self, request: Request) -> Response:
        asked = await self._named(request)
        if isinstance(asked, Response):
            return asked
        cid, _ = asked
        account = await self.members.current(request)
        try:
            found = await self.background(
                self.challenges.decline, cid, account.id if account else None
            )
        except ChallengeGone:
            return error(409, "challenge_gone", "this challenge is no longer open (or not for you)")
        return JSONResponse(self.challenge_json(found))

    async def challenge_poll(self, request: Request) -> Response:
        ticket = await self.ticket_of(request)
        if isinstance(ticket, Response):
            return ticket
        found = await self.background(self.challenges.by_ticket, token_hash(ticket))
        if found is None:
            return error(404, "unknown_challenge", "no challenge holds this ticket")
        return JSONResponse(self.challenge_json(found, mine=True))

    async def challenge_cancel(self, request: Request) -> Response:
        ticket = await self.ticket_of(request)
        if isinstance(ticket, Response):
            return ticket
        found = await self.background(self.challenges.cancel, token_hash(ticket))
        if found is None:
            return error(404, "unknown_challenge", "no challenge holds this ticket")
        return JSONResponse(self.challenge_json(found, mine=True))

    def routes(self) -> list[Route]:
        """The queue's and the challenges' routes."""
        return [
            Route("/api/queue", self.join, methods=["POST"]),
            Route("/api/queue", self.waiting, methods=["GET"]),
            Route("/api/queue/poll", self.poll, methods=["POST"]),
            Route("/api/queue/cancel", self.cancel, methods=["POST"]),
            Route("/api/challenges", self.challenge, methods=["POST"]),
            Route("/api/challenges", self.incoming, methods=["GET"]),
            Route("/api/challenges/view", self.view, methods=["POST"]),
            Route("/api/challenges/accept", self.accept, methods=["POST"]),
            Route("/api/challenges/decline", self.decline, methods=["POST"]),
            Route("/api/challenges/poll", self.challenge_poll, methods=["POST"]),
            Route("/api/challenges/cancel", self.challenge_cancel, methods=["POST"]),
        ]
