"""The coach's hints in the store: noted when asked, read back for the game's record.

A hint is one row per game, ply and seat: asking again at the same position
counts once. Synchronous, like :class:`~chkobba.store.Store` (run it on the
store's thread).
"""

from __future__ import annotations

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from chkobba.store.schema import hints
from chkobba.store.store import Store, now


def add_hint(store: Store, game_id: str, ply: int, seat: int) -> bool:
    """Note that ``seat`` asked for a hint at ``ply``; False if it was already noted."""
    try:
        with store.engine.begin() as conn:
            conn.execute(
                insert(hints).values(game_id=game_id, ply=ply, seat=seat, asked_at=now())
            )
    except IntegrityError:
        return False
    return True


def hints_of(store: Store, game_id: str) -> list[tuple[int, int]]:
    """Every hint of a game as (ply, seat), in play order."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(hints.c.ply, hints.c.seat)
            .where(hints.c.game_id == game_id)
            .order_by(hints.c.ply, hints.c.seat)
        ).all()
    return [(int(p), int(s)) for p, s in rows]
