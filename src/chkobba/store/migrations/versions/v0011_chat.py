"""Chat at the table: messages, reports, a room's chat switch, moderators and silencing.

- ``chat_messages``: what was said in each game, on the players' or the spectators'
  channel, by which seat and account (deleted with the account: ``ON DELETE CASCADE``,
  and explicitly by the account's deletion), free text or a quick phrase's key.
- ``chat_reports``: messages reported for a moderator (deleted with their message).
- ``chat_rooms``: a room's chat turned on or off by its creator.
- ``account_roles``: an account's moderator flag and whether it is silenced.

Revision ID: 0011
Revises: 0010
Create Date: 2027-03-20
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the chat's tables."""
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(16), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=True),
        sa.Column("phrase", sa.String(32), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_chat_messages_game_id", "chat_messages", ["game_id"])
    op.create_index("ix_chat_messages_account_id", "chat_messages", ["account_id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "message_id",
            sa.Integer,
            sa.ForeignKey("chat_messages.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "reporter_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("reporter_name", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_chat_reports_message_id", "chat_reports", ["message_id"])
    op.create_table(
        "account_roles",
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("moderator", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("silenced", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("silenced_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "chat_rooms",
        sa.Column("game_id", sa.String(16), primary_key=True),
        sa.Column("enabled", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    """Drop the chat's tables (every message and report with them)."""
    op.drop_table("chat_rooms")
    op.drop_table("account_roles")
    op.drop_index("ix_chat_reports_message_id", "chat_reports")
    op.drop_table("chat_reports")
    op.drop_index("ix_chat_messages_account_id", "chat_messages")
    op.drop_index("ix_chat_messages_game_id", "chat_messages")
    op.drop_table("chat_messages")
