"""Accounts, sessions, log-in limits, seats that belong to an account, private games.

- ``accounts``: a user name, its two unique keys (case and look-alikes folded,
  chkobba.web.names) and the password's Argon2id hash.
- ``sessions``: the SHA-256 of each signed-in browser's session id, its account, its
  expiry (deleted with the account).
- ``login_failures``: failed log-ins per account and per address (hashed), so that
  every worker of a cluster counts the same.
- ``seats.account_id``: the account holding a seat, if its player was signed in.
- ``games.unlisted``: a private game, never listed (also once finished); filled in
  from each stored game's settings (a game without settings takes its kind's
  default: against the computer, private).

Revision ID: 0008
Revises: 0007
Create Date: 2027-03-01
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the tables and columns; mark the private games stored so far."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(128), nullable=False, unique=True),
        sa.Column("name_shape", sa.String(128), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("password_at", sa.DateTime(timezone=True), nullable=False),
        # A deleted account's id is never given to a new one (SQLite would reuse the last).
        sqlite_autoincrement=True,
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("scope", sa.String(8), nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_login_failures_scope_key_at", "login_failures", ["scope", "key", "at"]
    )
    # No foreign key on the seat: a deleted account's seats are renamed and let go in
    # the same transaction that deletes it (and SQLite could not drop the column after).
    op.add_column("seats", sa.Column("account_id", sa.Integer, nullable=True))
    op.create_index("ix_seats_account_id", "seats", ["account_id"])
    op.add_column(
        "games",
        sa.Column("unlisted", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    games = sa.table(
        "games",
        sa.column("id", sa.String),
        sa.column("kind", sa.String),
        sa.column("settings", sa.Text),
        sa.column("unlisted", sa.Boolean),
    )
    conn = op.get_bind()
    private = []
    for game_id, kind, settings in conn.execute(
        sa.select(games.c.id, games.c.kind, games.c.settings)
    ):
        # As chkobba.web.life.RoomSettings.stored reads them: unset, the kind's default.
        if settings is None:
            unlisted = kind == "computer"
        else:
            stored = json.loads(settings)
            unlisted = isinstance(stored, dict) and bool(stored.get("unlisted", False))
        if unlisted:
            private.append(game_id)
    for start in range(0, len(private), 500):
        conn.execute(
            sa.update(games)
            .where(games.c.id.in_(private[start : start + 500]))
            .values(unlisted=True)
        )


def downgrade() -> None:
    """Drop the tables and columns (every account and session with them)."""
    op.drop_column("games", "unlisted")
    op.drop_index("ix_seats_account_id", "seats")
    op.drop_column("seats", "account_id")
    op.drop_index("ix_login_failures_scope_key_at", "login_failures")
    op.drop_table("login_failures")
    op.drop_index("ix_sessions_account_id", "sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
