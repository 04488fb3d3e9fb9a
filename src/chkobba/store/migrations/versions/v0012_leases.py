"""Ownership leases and fencing epochs for a cluster's games (docs/architecture.md).

- ``leases``: per game, the worker holding it (``owner``, None once let go), when its
  hold ends unless renewed (``expires_at``, the database's clock), the ``epoch`` that
  grows at each take-over, and the holder's database session (``pid`` and
  ``backend_start``), so that a worker taking over a game whose lease expired can end
  that session (its advisory locks go with it).
- ``moves.epoch``: the epoch a cluster worker wrote each move under (None for a single
  server's moves and those written before this migration): a move of an older epoch
  stored after one of a newer epoch would be a write that escaped the fence.

An expand step: a table and a column nobody needs, so a worker that does not know
leases runs on beside one that does (docs/deploy.md, "Upgrades").

Revision ID: 0012
Revises: 0011
Create Date: 2027-03-20
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision: str | None = "0011"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the leases table; add the moves' epoch."""
    op.create_table(
        "leases",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("owner", sa.String(128), nullable=True),
        sa.Column("epoch", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("pid", sa.Integer, nullable=True),
        sa.Column("backend_start", sa.DateTime(timezone=True), nullable=True),
    )
    op.add_column("moves", sa.Column("epoch", sa.BigInteger, nullable=True))


def downgrade() -> None:
    """Drop the moves' epoch and the leases table."""
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("epoch")
    op.drop_table("leases")
