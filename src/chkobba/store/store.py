"""The store: games, seats and moves in SQLite or PostgreSQL, through one SQLAlchemy code.

Everything here is synchronous and meant to run on one thread at a time (the web
server gives the store a thread of its own). A move is written in a transaction
that commits before the server acknowledges it, so a crash loses nothing that a
player was told had happened.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, func, insert, select, update
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError

from chkobba.fishing.rules import RULES_VERSION, RuleSet, preset
from chkobba.store.ratings import Outcome, settle
from chkobba.store.schema import coach_uses, games, moves, seats

GAME_STATUSES: Final = ("open", "playing", "finished")
ENDINGS: Final = ("resigned", "timeout", "abandoned")
"""How a game ends without being played out (a game's ``ending``): a side resigned, a
rated game's player to move ran out of time, or nobody came back to it. Every page that
shows a game's end names each of them (static/ending.js)."""
CONNECT_TIMEOUT: Final = 5
"""Seconds a new PostgreSQL connection may take before it fails (the driver waits forever)."""
"""A game is ``open`` while seats are free, ``playing``, then ``finished``."""
MIGRATION_LOCK: Final = 0x43484B4D
"""The PostgreSQL advisory lock taken while migrating (``CHKM``)."""


class StoreError(ValueError):
    """A database URL that cannot be used, or a request the stored data refuses."""


@dataclass
class SeatRow:
    """One seat of a game: a person (``token_hash`` set), the computer (``agent``) or free."""

    seat: int
    name: str | None = None
    token_hash: str | None = None
    agent: str | None = None
    seen_at: dt.datetime | None = None
    """The last time the seat's holder was connected (None: never, or not recorded)."""
    account_id: int | None = None
    """The account holding the seat, if its player was signed in."""


@dataclass
class MoveRow:
    """One move of one game, numbered from 0 in play order (cut decisions included)."""

    game_id: str
    ply: int
    seat: int
    move: str
    stand_in: str | None = None
    """``away`` or ``clock`` when the computer played this move for a person's seat."""


@dataclass
class Finish:
    """The end of a game, written in the same transaction as its last move."""

    game_id: str
    winner: int | None
    totals: list[int]
    ending: str | None = None
    """How it ended when not played out: one of :data:`ENDINGS`."""
    resigned: int | None = None
    """The side that resigned (or lost on the clock: ``ending`` ``timeout``)."""
    rated: Outcome | None = None
    """A rated game's outcome: its players' ratings are updated in the same transaction."""


@dataclass
class StoredGame:
    """A game as stored: enough to rebuild its match by replaying ``moves``."""

    id: str
    kind: str
    status: str
    rules: str
    options: dict[str, Any]
    seats: int
    teams: bool
    seed: int
    created_at: dt.datetime
    seat_rows: list[SeatRow] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    winner: int | None = None
    totals: list[int] | None = None
    finished_at: dt.datetime | None = None
    rules_version: int = RULES_VERSION
    """The version of the presets ``rules`` names (games stored before versions were
    recorded are of version 1)."""
    game: str = "chkobba"
    """Which game it is (:data:`chkobba.games.GAME_NAMES`): ``chkobba`` for the Chkobba
    family (``rules`` names the preset), ``touti``."""
    settings: dict[str, Any] | None = None
    """The room's settings chosen at creation (None for games stored before rooms had
    settings: they take the defaults)."""
    ending: str | None = None
    """One of :data:`ENDINGS` for a game that ended without being played out."""
    resigned: int | None = None
    """The side that resigned (or ran out of time), if one did."""
    seen_at: dt.datetime | None = None
    """The last time one of its seats' holders was connected."""
    rematch: str | None = None
    """The id of this game's rematch, once agreed."""
    rematch_of: str | None = None
    """The id of the game this one is the rematch of."""
    stand_ins: list[tuple[int, int, str]] = field(default_factory=list)
    """The moves the computer played for a person's seat, as (ply, seat, ``away`` or
    ``clock``), in play order (loaded with the moves)."""
    last_move_at: dt.datetime | None = None
    """When its last move was stored (loaded with the moves)."""
    unlisted: bool = False
    """A private game: never listed, not even once finished (its link opens it)."""
    pool: str | None = None
    """The rating pool of a rated game (:mod:`chkobba.store.pools`); None: casual."""

    def ruleset(self) -> RuleSet:
        """The game's rule set, as its preset was defined in its rules version."""
        return preset(self.rules, self.options, self.rules_version)


def now() -> dt.datetime:
    """The current time, in UTC."""
    return dt.datetime.now(dt.UTC)


def _set_only(**columns: object) -> dict[str, object]:
    """The columns given a value: those added by later migrations are left out when unset, so that
    the same writes work on a database still at an earlier version (as the migration tests
    build one), and a row written before the migration reads the same as one written after."""
    return {k: v for k, v in columns.items() if v is not None}


def normalise_url(url: str) -> str:
    """A database URL for SQLAlchemy: ``postgresql://`` goes through psycopg 3."""
    try:
        parsed = make_url(url)
    except ArgumentError as e:
        raise StoreError(f"not a database URL: {url!r} ({e})") from None
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    elif not parsed.drivername.startswith(("sqlite", "postgresql")):
        raise StoreError(
            f"unsupported database {parsed.drivername!r}: use sqlite:///FILE or postgresql://..."
        )
    return parsed.render_as_string(hide_password=False)


def sqlite_url(path: Path) -> str:
    """The URL of a SQLite database file."""
    return f"sqlite:///{path}"


class Store:
    """Persistence of games through SQLAlchemy Core (SQLite by default, or PostgreSQL)."""

    engine: Engine

    def __init__(self, url: str, manual_checkpoints: bool = False) -> None:
        """Open the database at ``url``.

        With SQLite, ``manual_checkpoints`` leaves copying the write-ahead log back
        into the database to :meth:`checkpoint`, called from elsewhere, so that a
        commit never waits for it (the server does this).
        """
        self.url = normalise_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        self.manual_checkpoints = manual_checkpoints and self.is_sqlite
        if self.is_sqlite:
            # The store is used from a worker thread; it serialises access itself.
            self.engine = create_engine(self.url, connect_args={"check_same_thread": False})
            event.listen(self.engine, "connect", _sqlite_pragmas)
            if self.manual_checkpoints:
                event.listen(self.engine, "connect", _no_autocheckpoint)
        else:
            try:
                import psycopg  # noqa: F401
            except ImportError:
                raise StoreError(
                    "PostgreSQL needs the psycopg driver: pip install 'chkobba[postgres]'"
                ) from None
            self.engine = create_engine(
                self.url, pool_pre_ping=True, connect_args={"connect_timeout": CONNECT_TIMEOUT}
            )

    def close(self) -> None:
        """Release every connection."""
        self.engine.dispose()

    def ping(self) -> None:
        """Ask the database a trivial question (``SELECT 1``); raise if it does not answer."""
        with self.engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")

    def checkpoint(self) -> None:
        """Copy SQLite's write-ahead log into the database, without blocking writers."""
        if self.is_sqlite:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def migrate(self, revision: str = "head") -> None:
        """Bring the schema up to date with the migrations shipped in the package (or up
        to ``revision``, for tests of a migration)."""
        cfg = Config()
        cfg.set_main_option("script_location", "chkobba.store:migrations")
        with self.engine.begin() as conn:
            if not self.is_sqlite:
                # Workers of a cluster starting together migrate one after the other.
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)

    # -- writing ---------------------------------------------------------------

    def create_game(self, game: StoredGame) -> None:
        """Insert a new game and its seats."""
        with self.engine.begin() as conn:
            self.insert_game(conn, game)

    def insert_game(self, conn: Connection, game: StoredGame) -> None:
        """Insert a new game and its seats within ``conn``'s transaction (the queue makes
        a game in the transaction that takes its players off the queue)."""
        # Columns of later migrations are written only when set, so that a database still
        # at an earlier version (as the migration tests build one) takes the same rows.
        settings = json.dumps(game.settings) if game.settings is not None else None
        conn.execute(
            insert(games).values(
                id=game.id,
                game=game.game,
                kind=game.kind,
                status=game.status,
                rules=game.rules,
                rules_version=game.rules_version,
                options=json.dumps(game.options),
                seats=game.seats,
                teams=game.teams,
                seed=game.seed,
                created_at=game.created_at,
                **_set_only(
                    settings=settings,
                    rematch_of=game.rematch_of,
                    unlisted=game.unlisted or None,
                    pool=game.pool,
                ),
            )
        )
        owned = any(s.account_id is not None for s in game.seat_rows)
        conn.execute(
            insert(seats),
            [
                {
                    "game_id": game.id,
                    "seat": s.seat,
                    "name": s.name,
                    "token_hash": s.token_hash,
                    "agent": s.agent,
                    # As above: the column exists from v0008 on; written only when used.
                    **({"account_id": s.account_id} if owned else {}),
                }
                for s in game.seat_rows
            ],
        )

    def update_seats(self, game_id: str, rows: Sequence[SeatRow], status: str) -> None:
        """Write the given seats of a game, and its status, in one transaction."""
        with self.engine.begin() as conn:
            self.write_seats(conn, game_id, rows, status)

    def write_seats(
        self, conn: Connection, game_id: str, rows: Sequence[SeatRow], status: str
    ) -> None:
        """:meth:`update_seats` in the caller's transaction (a cluster worker's, fenced)."""
        for s in rows:
            conn.execute(
                update(seats)
                .where(seats.c.game_id == game_id, seats.c.seat == s.seat)
                .values(
                    name=s.name,
                    token_hash=s.token_hash,
                    agent=s.agent,
                    **_set_only(account_id=s.account_id),
                )
            )
        conn.execute(update(games).where(games.c.id == game_id).values(status=status))

    def append_moves(self, rows: Sequence[MoveRow], finishes: Sequence[Finish] = ()) -> None:
        """Write moves (of any games) and game ends in one transaction."""
        if not rows and not finishes:
            return
        with self.engine.begin() as conn:
            self.write_moves(conn, rows, finishes)

    def write_moves(
        self,
        conn: Connection,
        rows: Sequence[MoveRow],
        finishes: Sequence[Finish] = (),
        epochs: Mapping[str, int] | None = None,
    ) -> None:
        """:meth:`append_moves` in the caller's transaction (a cluster worker's, fenced);
        ``epochs``, the epoch of each game's lease the moves are written under."""
        stamp = now()
        stand_ins = any(r.stand_in is not None for r in rows)
        if rows:
            conn.execute(
                insert(moves),
                [
                    {
                        "game_id": r.game_id,
                        "ply": r.ply,
                        "seat": r.seat,
                        "move": r.move,
                        "played_at": stamp,
                        # As above: the column exists from v0007 on; written only when used.
                        **({"stand_in": r.stand_in} if stand_ins else {}),
                        # From v0012 on, in a cluster only.
                        **({"epoch": epochs.get(r.game_id)} if epochs else {}),
                    }
                    for r in rows
                ],
            )
        for f in finishes:
            conn.execute(
                update(games)
                .where(games.c.id == f.game_id)
                .values(
                    status="finished",
                    winner=f.winner,
                    totals=json.dumps(f.totals),
                    finished_at=stamp,
                    **_set_only(ending=f.ending, resigned=f.resigned),
                )
            )
            if f.rated is not None:
                settle(conn, f.game_id, f.rated)

    def mark_seen(self, game_id: str, seats_seen: Sequence[int], at: dt.datetime) -> None:
        """Note that the holders of ``seats_seen`` (and so someone) were connected at ``at``."""
        with self.engine.begin() as conn:
            self.write_seen(conn, game_id, seats_seen, at)

    def write_seen(
        self, conn: Connection, game_id: str, seats_seen: Sequence[int], at: dt.datetime
    ) -> None:
        """:meth:`mark_seen` in the caller's transaction (a cluster worker's, fenced)."""
        if seats_seen:
            conn.execute(
                update(seats)
                .where(seats.c.game_id == game_id, seats.c.seat.in_(list(seats_seen)))
                .values(seen_at=at)
            )
        conn.execute(update(games).where(games.c.id == game_id).values(seen_at=at))

    def link_rematch(self, game_id: str, rematch_id: str) -> str:
        """Link a finished game to its rematch, unless it has one already; return the
        rematch that stands (``rematch_id``, or the one linked before)."""
        with self.engine.begin() as conn:
            return self.write_rematch(conn, game_id, rematch_id)

    def write_rematch(self, conn: Connection, game_id: str, rematch_id: str) -> str:
        """:meth:`link_rematch` in the caller's transaction (a cluster worker's, fenced)."""
        conn.execute(
            update(games)
            .where(games.c.id == game_id, games.c.rematch.is_(None))
            .values(rematch=rematch_id)
        )
        return str(conn.execute(select(games.c.rematch).where(games.c.id == game_id)).scalar_one())

    def status_of(self, conn: Connection, game_id: str) -> str | None:
        """A game's status (``open``, ``playing``, ``finished``), None if there is no such game."""
        found = conn.execute(select(games.c.status).where(games.c.id == game_id)).scalar()
        return None if found is None else str(found)

    def count_use(self, game_id: str, seat: int, aid: str) -> int:
        """Count one use of the coach's ``aid`` by ``seat``; return the seat's count of it."""
        with self.engine.begin() as conn:
            return self.write_use(conn, game_id, seat, aid)

    def write_use(self, conn: Connection, game_id: str, seat: int, aid: str) -> int:
        """:meth:`count_use` in the caller's transaction (a cluster worker's, fenced)."""
        key = (
            (coach_uses.c.game_id == game_id)
            & (coach_uses.c.seat == seat)
            & (coach_uses.c.aid == aid)
        )
        done = conn.execute(update(coach_uses).where(key).values(count=coach_uses.c.count + 1))
        if done.rowcount == 0:
            conn.execute(insert(coach_uses).values(game_id=game_id, seat=seat, aid=aid, count=1))
        return int(conn.execute(select(coach_uses.c.count).where(key)).scalar_one())

    def coach_uses_of(self, game_id: str) -> dict[str, dict[int, int]]:
        """How many times each seat used each aid of the coach in a game: aid -> seat -> n."""
        out: dict[str, dict[int, int]] = {}
        with self.engine.connect() as conn:
            for seat, aid, n in conn.execute(
                select(coach_uses.c.seat, coach_uses.c.aid, coach_uses.c.count).where(
                    coach_uses.c.game_id == game_id
                )
            ):
                out.setdefault(aid, {})[int(seat)] = int(n)
        return out

    # -- reading ---------------------------------------------------------------

    def game(self, game_id: str) -> StoredGame | None:
        """One game with its seats and moves, or None."""
        with self.engine.connect() as conn:
            found = self._load(conn, games.c.id == game_id)
        return found[0] if found else None

    def unfinished_games(self) -> list[StoredGame]:
        """Every game still open or being played, with seats and moves."""
        with self.engine.connect() as conn:
            return self._load(conn, games.c.status != "finished")

    def resumable_games(
        self, expired: Callable[[StoredGame], bool]
    ) -> tuple[list[StoredGame], list[str]]:
        """The unfinished games that can still be played, with seats and moves, and the ids
        of those ``expired`` says were abandoned, now marked finished without being read
        move by move (``expired`` sees a game's row, seats and ``last_move_at``)."""
        stamp = now()
        with self.engine.begin() as conn:
            found = self._quiet_games(conn)
            if not found:
                return [], []
            gone = [g.id for g in found if expired(g)]
            if gone:
                conn.execute(
                    update(games)
                    .where(games.c.id.in_(gone))
                    .values(status="finished", ending="abandoned", finished_at=stamp)
                )
            left = {g.id for g in found} - set(gone)
            playable = self._load(conn, games.c.id.in_(sorted(left))) if left else []
        return playable, gone

    def quiet_games(self) -> list[StoredGame]:
        """Every unfinished game's row and seats, with ``last_move_at`` but not its moves:
        what tells whether it was abandoned (:func:`chkobba.web.hub.quiet_since`)."""
        with self.engine.connect() as conn:
            return self._quiet_games(conn)

    def _quiet_games(self, conn: Connection) -> list[StoredGame]:
        """:meth:`quiet_games` in the caller's transaction."""
        rows = conn.execute(
            select(games).where(games.c.status != "finished").order_by(games.c.created_at)
        ).all()
        found = [_game_of(r._mapping) for r in rows]
        if not found:
            return []
        self._attach_seats(conn, found)
        unfinished = select(games.c.id).where(games.c.status != "finished")
        last = dict(
            conn.execute(
                select(moves.c.game_id, func.max(moves.c.played_at))
                .where(moves.c.game_id.in_(unfinished))
                .group_by(moves.c.game_id)
            ).all()
        )
        for g in found:
            at = last.get(g.id)
            g.last_move_at = _aware(at) if at is not None else None
        return found

    def finished_games(
        self, limit: int = 50, offset: int = 0, listed_only: bool = True
    ) -> list[StoredGame]:
        """The most recently finished games, with their seats (moves left out); the
        private ones only if not ``listed_only``."""
        where = games.c.status == "finished"
        if listed_only:
            where = where & games.c.unlisted.is_(False)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games)
                .where(where)
                .order_by(games.c.finished_at.desc(), games.c.id)
                .limit(limit)
                .offset(offset)
            ).all()
            out = [_game_of(r._mapping) for r in rows]
            self._attach_seats(conn, out)
        return out

    def live_games(self, status: str, limit: int = 50) -> list[StoredGame]:
        """The ``limit`` most recently created games in ``status``, oldest first, with
        their seats and moves."""
        with self.engine.connect() as conn:
            latest = (
                select(games.c.id)
                .where(games.c.status == status)
                .order_by(games.c.created_at.desc())
                .limit(limit)
            )
            return self._load(conn, games.c.id.in_(latest))

    def count_games(self) -> dict[str, int]:
        """How many games are in each status."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(games.c.status, func.count()).group_by(games.c.status)).all()
        return {status: int(n) for status, n in rows}

    def _load(self, conn: Connection, where: Any) -> list[StoredGame]:
        rows = conn.execute(select(games).where(where).order_by(games.c.created_at)).all()
        out = [_game_of(r._mapping) for r in rows]
        self._attach_seats(conn, out)
        by_id = {g.id: g for g in out}
        if by_id:
            for game_id, move, ply, seat, stand_in, played_at in conn.execute(
                select(
                    moves.c.game_id,
                    moves.c.move,
                    moves.c.ply,
                    moves.c.seat,
                    moves.c.stand_in,
                    moves.c.played_at,
                )
                .where(moves.c.game_id.in_(list(by_id)))
                .order_by(moves.c.game_id, moves.c.ply)
            ):
                g = by_id[game_id]
                g.moves.append(move)
                if stand_in is not None:
                    g.stand_ins.append((int(ply), int(seat), stand_in))
                g.last_move_at = _aware(played_at)
        return out

    def _attach_seats(self, conn: Connection, found: Iterable[StoredGame]) -> None:
        by_id = {g.id: g for g in found}
        if not by_id:
            return
        for r in conn.execute(
            select(seats).where(seats.c.game_id.in_(list(by_id))).order_by(seats.c.seat)
        ):
            m = r._mapping
            seen = m["seen_at"]
            by_id[m["game_id"]].seat_rows.append(
                SeatRow(
                    m["seat"],
                    m["name"],
                    m["token_hash"],
                    m["agent"],
                    _aware(seen) if seen is not None else None,
                    m["account_id"],
                )
            )


def _game_of(m: Any) -> StoredGame:
    totals = m["totals"]
    return StoredGame(
        id=m["id"],
        kind=m["kind"],
        status=m["status"],
        rules=m["rules"],
        options=json.loads(m["options"]),
        seats=m["seats"],
        teams=bool(m["teams"]),
        seed=int(m["seed"]),
        created_at=_aware(m["created_at"]),
        winner=m["winner"],
        totals=json.loads(totals) if totals is not None else None,
        finished_at=_aware(m["finished_at"]) if m["finished_at"] is not None else None,
        rules_version=int(m["rules_version"]),
        game=m["game"],
        settings=json.loads(m["settings"]) if m["settings"] is not None else None,
        ending=m["ending"],
        resigned=m["resigned"],
        seen_at=_aware(m["seen_at"]) if m["seen_at"] is not None else None,
        rematch=m["rematch"],
        rematch_of=m["rematch_of"],
        unlisted=bool(m["unlisted"]),
        pool=m["pool"],
    )


def _aware(t: dt.datetime) -> dt.datetime:
    # SQLite gives back naive datetimes; every stored time is UTC.
    return t if t.tzinfo is not None else t.replace(tzinfo=dt.UTC)


def _no_autocheckpoint(dbapi_conn: Any, _record: Any) -> None:
    # A checkpoint syncs the database file to disk, which can take long: the
    # server runs them beside the commits instead of inside one.
    dbapi_conn.execute("PRAGMA wal_autocheckpoint=0")


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL with synchronous=NORMAL: a commit survives a killed process, and
    # readers never block the writer.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()
