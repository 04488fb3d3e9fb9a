"""Ratings per pool and their history (docs/ratings.md).

- ``games.pool``: the rating pool of a rated game (None: a casual game).
- ``ratings``: each account's mu and sigma per pool, with its rated games and wins.
- ``rating_history``: the rating before and after each rated game, per player; a game
  with rows here is rated, and never twice.

Revision ID: 0009
Revises: 0008
Create Date: 2027-03-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the column and the two tables."""
    op.add_column("games", sa.Column("pool", sa.String(32), nullable=True))
    op.create_table(
        "ratings",
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("pool", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_pool_mu", "ratings", ["pool", "mu"])
    op.create_table(
        "rating_history",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_rating_history_account_at", "rating_history", ["account_id", "at"]
    )


def downgrade() -> None:
    """Drop the tables and the column (every rating with them)."""
    op.drop_index("ix_rating_history_account_at", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_pool_mu", "ratings")
    op.drop_table("ratings")
    op.drop_column("games", "pool")
