"""Migration 0008 (accounts, sessions, failed log-ins, seats of accounts, private games),
up and down on SQLite and PostgreSQL, with games stored before it."""

from __future__ import annotations

import datetime as dt
import json

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect

from chkobba.store import Store
from chkobba.web.hub import token_hash

OLD = sa.MetaData()
games = sa.Table(
    "games", OLD,
    sa.Column("id", sa.String(16)), sa.Column("game", sa.String(16)),
    sa.Column("kind", sa.String(16)), sa.Column("status", sa.String(16)),
    sa.Column("rules", sa.String(32)), sa.Column("rules_version", sa.Integer),
    sa.Column("options", sa.Text), sa.Column("seats", sa.Integer),
    sa.Column("teams", sa.Boolean), sa.Column("seed", sa.BigInteger),
    sa.Column("created_at", sa.DateTime(timezone=True)),
    sa.Column("finished_at", sa.DateTime(timezone=True)),
    sa.Column("settings", sa.Text),
)
seats = sa.Table(
    "seats", OLD,
    sa.Column("game_id", sa.String(16)), sa.Column("seat", sa.Integer),
    sa.Column("name", sa.String(64)), sa.Column("token_hash", sa.String(64)),
    sa.Column("agent", sa.String(32)),
)
"""The tables as migration 0007 left them (the columns these tests write)."""

NEW_TABLES = {"accounts", "sessions", "login_failures"}


def downgrade(store: Store, revision: str) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", "chkobba.store:migrations")
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, revision)


def stored_before(store: Store) -> None:
    """Finished games of each kind as 0007 stored them: with and without settings."""
    now = dt.datetime.now(dt.UTC)
    base = {"game": "chkobba", "status": "finished", "rules": "chkobba", "rules_version": 2,
            "options": "{}", "seats": 2, "teams": False, "seed": 3, "created_at": now,
            "finished_at": now}
    with store.engine.begin() as conn:
        conn.execute(sa.insert(games), [
            {**base, "id": "PUB234", "kind": "room", "settings": None},
            {**base, "id": "CPU234", "kind": "computer", "settings": None},
            {**base, "id": "PRV234", "kind": "room",
             "settings": json.dumps({"unlisted": True, "grace": 60.0})},
            {**base, "id": "OPN234", "kind": "computer",
             "settings": json.dumps({"unlisted": False})},
        ])
        conn.execute(sa.insert(seats), [
            {"game_id": g, "seat": s, "name": f"P{s}", "token_hash": token_hash(g + str(s)),
             "agent": None}
            for g in ("PUB234", "CPU234", "PRV234", "OPN234") for s in (0, 1)
        ])


def test_migration_0008_up_and_down(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.migrate("0007")
        stored_before(store)
        store.migrate()
        names = set(inspect(store.engine).get_table_names())
        assert names >= NEW_TABLES
        assert "account_id" in {c["name"] for c in inspect(store.engine).get_columns("seats")}
        # Private: as each game's settings said, or its kind's default without settings.
        private = {g: store.game(g).unlisted for g in ("PUB234", "CPU234", "PRV234", "OPN234")}
        assert private == {"PUB234": False, "CPU234": True, "PRV234": True, "OPN234": False}
        listed = {g.id for g in store.finished_games()}
        assert listed == {"PUB234", "OPN234"}
        assert {g.id for g in store.finished_games(listed_only=False)} == set(private)
        seat = store.game("PUB234").seat_rows[0]
        assert seat.account_id is None and seat.name == "P0"

        downgrade(store, "0007")
        names = set(inspect(store.engine).get_table_names())
        assert not NEW_TABLES & names
        assert "account_id" not in {c["name"] for c in inspect(store.engine).get_columns("seats")}
        assert "unlisted" not in {c["name"] for c in inspect(store.engine).get_columns("games")}
        with store.engine.connect() as conn:
            assert len(conn.execute(sa.select(games.c.id)).all()) == 4
        store.migrate()
        assert store.game("PRV234").unlisted is True
    finally:
        store.close()
