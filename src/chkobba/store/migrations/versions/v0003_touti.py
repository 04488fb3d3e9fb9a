"""Touti web games and their moves.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the touti_games and touti_moves tables."""
    op.create_table(
        "touti_games",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("names", sa.Text, nullable=False),
        sa.Column("agents", sa.Text, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("totals", sa.Text, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_touti_games_status", "touti_games", ["status"])
    op.create_table(
        "touti_moves",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("touti_games.id"), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("move", sa.String(32), nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop the Touti tables."""
    op.drop_table("touti_moves")
    op.drop_index("ix_touti_games_status", "touti_games")
    op.drop_table("touti_games")
