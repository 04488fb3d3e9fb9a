"""Persistence of games, seats and moves (SQLAlchemy; SQLite by default, or PostgreSQL)."""

from chkobba.store.store import (
    Finish,
    MoveRow,
    SeatRow,
    Store,
    StoredGame,
    StoreError,
    normalise_url,
    sqlite_url,
)

__all__ = [
    "Finish",
    "MoveRow",
    "SeatRow",
    "Store",
    "StoreError",
    "StoredGame",
    "normalise_url",
    "sqlite_url",
]
