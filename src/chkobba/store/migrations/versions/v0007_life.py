"""A game's whole life: room settings, how it ended, who is away, who stood in, the coach.

- ``games.settings``: the room's settings chosen at creation (JSON: unlisted, grace,
  clock, abandon_after, coaching); NULL for games stored before, which take the defaults.
- ``games.ending``: how a finished game ended when not played out (``resigned``,
  ``abandoned``); ``games.resigned``: the side that resigned.
- ``games.seen_at``: the last time a seat's holder was connected (abandonment counts
  from it); ``seats.seen_at``: the same for each seat (the grace period counts from it).
- ``games.rematch`` and ``games.rematch_of``: a finished game and its rematch, linked.
- ``moves.stand_in``: ``away`` or ``clock`` when the computer played the move for a
  person's seat (away past the grace period, or out of time on the turn clock).
- ``coach_uses``: how many times each seat used each aid of the coach.

Revision ID: 0007
Revises: 0006
Create Date: 2027-02-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None

GAME_COLUMNS = (
    ("settings", sa.Text),
    ("ending", sa.String(16)),
    ("resigned", sa.Integer),
    ("seen_at", sa.DateTime(timezone=True)),
    ("rematch", sa.String(16)),
    ("rematch_of", sa.String(16)),
)


def upgrade() -> None:
    """Add the columns (all nullable: every stored game keeps its meaning) and coach_uses."""
    # Plain ALTER TABLE ... ADD COLUMN on both backends (see 0004).
    for name, kind in GAME_COLUMNS:
        op.add_column("games", sa.Column(name, kind, nullable=True))
    op.add_column("seats", sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("moves", sa.Column("stand_in", sa.String(8), nullable=True))
    op.create_table(
        "coach_uses",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("aid", sa.String(16), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    """Drop coach_uses and the columns."""
    op.drop_table("coach_uses")
    op.drop_column("moves", "stand_in")
    op.drop_column("seats", "seen_at")
    for name, _ in reversed(GAME_COLUMNS):
        op.drop_column("games", name)
