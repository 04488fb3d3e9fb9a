"""Touti web games in the store: the game's seed and seats, then every move, in play order.

The seed decides every shuffle of a :class:`~chkobba.touti.match.ToutiMatch`, so
the seed, the rule options and the moves rebuild a game exactly. Moves are
written before the server acknowledges them; the last one of a match is written
in the same transaction as the game's end. Synchronous, like
:class:`~chkobba.store.Store` (run it on the store's thread).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection

from chkobba.store.schema import touti_games, touti_moves
from chkobba.store.store import Store, now


@dataclass
class StoredTouti:
    """A Touti web game as stored: enough to rebuild its match by replaying ``moves``."""

    id: str
    status: str
    options: dict[str, Any]
    seed: int
    names: list[str]
    agents: list[str | None]
    """The computer player of each seat; None for the person's seat."""
    token_hash: str
    created_at: dt.datetime
    moves: list[tuple[int, str]] = field(default_factory=list)
    """(seat, move in the notation), in play order."""
    winner: int | None = None
    totals: list[int] | None = None


@dataclass
class ToutiMoveRow:
    """One move of a Touti web game, numbered from 0 across the whole match."""

    ply: int
    seat: int
    move: str


def create_touti(store: Store, game: StoredTouti) -> None:
    """Insert a new Touti game (its moves, if any, follow with :func:`append_touti`)."""
    with store.engine.begin() as conn:
        conn.execute(
            insert(touti_games).values(
                id=game.id,
                status=game.status,
                options=json.dumps(game.options),
                seed=game.seed,
                names=json.dumps(game.names, ensure_ascii=False),
                agents=json.dumps(game.agents),
                token_hash=game.token_hash,
                created_at=game.created_at,
            )
        )


def append_touti(
    store: Store,
    game_id: str,
    rows: Sequence[ToutiMoveRow],
    finish: tuple[int, list[int]] | None = None,
) -> None:
    """Write moves of one game, and its end (winner, totals) if given, in one transaction."""
    stamp = now()
    with store.engine.begin() as conn:
        if rows:
            conn.execute(
                insert(touti_moves),
                [
                    {
                        "game_id": game_id,
                        "ply": r.ply,
                        "seat": r.seat,
                        "move": r.move,
                        "played_at": stamp,
                    }
                    for r in rows
                ],
            )
        if finish is not None:
            winner, totals = finish
            conn.execute(
                update(touti_games)
                .where(touti_games.c.id == game_id)
                .values(
                    status="finished",
                    winner=winner,
                    totals=json.dumps(totals),
                    finished_at=stamp,
                )
            )


def touti_game(store: Store, game_id: str) -> StoredTouti | None:
    """One Touti game with its moves, or None."""
    with store.engine.connect() as conn:
        found = _load(conn, [game_id])
    return found[0] if found else None


def unfinished_touti(store: Store, limit: int) -> list[StoredTouti]:
    """The ``limit`` unfinished Touti games played most recently, with their moves."""
    last_move = (
        select(touti_moves.c.game_id, func.max(touti_moves.c.played_at).label("last"))
        .group_by(touti_moves.c.game_id)
        .subquery()
    )
    recent = func.coalesce(last_move.c.last, touti_games.c.created_at)
    with store.engine.connect() as conn:
        ids = conn.execute(
            select(touti_games.c.id)
            .outerjoin(last_move, last_move.c.game_id == touti_games.c.id)
            .where(touti_games.c.status != "finished")
            .order_by(recent.desc(), touti_games.c.id)
            .limit(limit)
        ).scalars().all()
        return _load(conn, list(ids))


def _load(conn: Connection, ids: list[str]) -> list[StoredTouti]:
    if not ids:
        return []
    rows = conn.execute(
        select(touti_games).where(touti_games.c.id.in_(ids)).order_by(touti_games.c.created_at)
    ).all()
    out = [_game_of(r._mapping) for r in rows]
    by_id = {g.id: g for g in out}
    for game_id, seat, move in conn.execute(
        select(touti_moves.c.game_id, touti_moves.c.seat, touti_moves.c.move)
        .where(touti_moves.c.game_id.in_(ids))
        .order_by(touti_moves.c.game_id, touti_moves.c.ply)
    ):
        by_id[game_id].moves.append((int(seat), move))
    return out


def _game_of(m: Any) -> StoredTouti:
    totals = m["totals"]
    created = m["created_at"]
    return StoredTouti(
        id=m["id"],
        status=m["status"],
        options=json.loads(m["options"]),
        seed=int(m["seed"]),
        names=json.loads(m["names"]),
        agents=json.loads(m["agents"]),
        token_hash=m["token_hash"],
        # SQLite gives back naive datetimes; every stored time is UTC.
        created_at=created if created.tzinfo is not None else created.replace(tzinfo=dt.UTC),
        winner=m["winner"],
        totals=json.loads(totals) if totals is not None else None,
    )
