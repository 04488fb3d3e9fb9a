"""The coach's hints: which seat asked for one, at which ply.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the hints table."""
    op.create_table(
        "hints",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop the hints table."""
    op.drop_table("hints")
