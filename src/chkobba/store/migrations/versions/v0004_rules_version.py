"""The rules version of each game: games stored before it are of rules version 1.

The Scopa presets changed in rules version 2 (docs/variants.md); a game stored under
version 1 is rebuilt with the version-1 definition of its preset, so it resumes and
replays exactly as it was played.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add games.rules_version; every game already stored is of version 1."""
    # A plain ALTER TABLE ... ADD COLUMN on both backends: SQLite's batch mode would copy
    # the table, which the seats' and moves' foreign keys forbid.
    op.add_column(
        "games",
        sa.Column("rules_version", sa.Integer, nullable=False, server_default=sa.text("1")),
    )


def downgrade() -> None:
    """Drop games.rules_version."""
    op.drop_column("games", "rules_version")
