"""The "Play now" queue and the challenges (docs/web.md, "Play now and challenges").

- ``queue_entries``: each player waiting for a table, in one pool (a preset, a table,
  rated or casual, a turn clock), with the rating they were paired by, when they came
  and when their page last said it is still there; once paired, the game and seat.
  Only the SHA-256 of the player's ticket is kept (the ticket becomes their seat token).
- ``challenges``: an invitation to a game, to a named account or to whoever has its
  link; its settings, its state (open, accepted, declined, cancelled) and its game.

Both live in the database so that every worker of a cluster pairs from the same queue.

Revision ID: 0010
Revises: 0009
Create Date: 2027-04-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the two tables."""
    op.create_table(
        "queue_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("ticket_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("seating", sa.String(8), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("clock", sa.Float, nullable=True),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("paired_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("game_id", sa.String(16), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_queue_entries_status", "queue_entries", ["status"])
    op.create_index("ix_queue_entries_account_id", "queue_entries", ["account_id"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("from_account", sa.Integer, nullable=True),
        sa.Column("from_name", sa.String(64), nullable=False),
        sa.Column("ticket_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("to_account", sa.Integer, nullable=True),
        sa.Column("to_name", sa.String(64), nullable=True),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("seating", sa.String(8), nullable=False),
        sa.Column("clock", sa.Float, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("game_id", sa.String(16), nullable=True),
        sa.Column("challenger_seat", sa.Integer, nullable=True),
    )
    op.create_index("ix_challenges_to_account", "challenges", ["to_account"])
    op.create_index("ix_challenges_from_account", "challenges", ["from_account"])


def downgrade() -> None:
    """Drop the two tables (everyone waiting, every challenge)."""
    op.drop_index("ix_challenges_from_account", "challenges")
    op.drop_index("ix_challenges_to_account", "challenges")
    op.drop_table("challenges")
    op.drop_index("ix_queue_entries_account_id", "queue_entries")
    op.drop_index("ix_queue_entries_status", "queue_entries")
    op.drop_table("queue_entries")
