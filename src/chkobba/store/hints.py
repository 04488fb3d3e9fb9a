"""The coach's hints in the store: noted when asked, read back for the game's record.

A hint is one row per game, ply and seat: asking again at the same position
counts once. Synchronous, like :class:`~chkobba.store.Store` (run it on the
store's thread).
"""

from __future__ import annotations

from sqlalchemy import insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from chkobba.store.schema import hints
from chkobba.store.store import Store, now


def add_hint(store: Store, game_id: str, ply: int, seat: int) -> bool:
    """Note that ``seat`` asked for a hint at ``ply``; False if it was already noted.

    A cluster's worker writes through its own session instead, fenced by the game's
    lock (:meth:`chkobba.web.cluster.Ownership.add_hint`)."""
    try:
        with store.engine.begin() as conn:
            write_hint(conn, game_id, ply, seat)
    except IntegrityError:
        return False
    return True


def write_hint(conn: Connection, game_id: str, ply: int, seat: int) -> None:
    """Note a hint in the transaction of ``conn``; ``IntegrityError`` if it was already
    noted."""
    conn.execute(insert(hints).values(game_id=game_id, ply=ply, seat=seat, asked_at=now()))


def hints_of(store: Store, game_id: str) -> list[tuple[int, int]]:
    """Every hint of a game as (ply, seat), in play order."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(hints.c.ply, hints.c.seat)
            .where(hints.c.game_id == game_id)
            .order_by(hints.c.ply, hints.c.seat)
        ).all()
    return [(int(p), int(s)) for p, s in rows]
