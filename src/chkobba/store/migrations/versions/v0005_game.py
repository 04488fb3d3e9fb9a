"""Which game each stored game is: ``chkobba`` (the Chkobba family) or ``touti``.

Every game the server holds, of any game, now lives in the one ``games`` table
(with its ``seats`` and ``moves``); the games already stored are of the Chkobba
family, whose preset ``rules`` names.

Revision ID: 0005
Revises: 0004
Create Date: 2027-01-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add games.game; every game already in the table is of the Chkobba family."""
    # A plain ALTER TABLE ... ADD COLUMN on both backends (see 0004).
    op.add_column(
        "games",
        sa.Column("game", sa.String(16), nullable=False, server_default=sa.text("'chkobba'")),
    )


def downgrade() -> None:
    """Drop games.game."""
    op.drop_column("games", "game")
