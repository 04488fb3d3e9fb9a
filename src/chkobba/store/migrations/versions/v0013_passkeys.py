"""Passkeys: the accounts' WebAuthn credentials and the challenges under way.

- ``passkeys``: each account's passkeys (deleted with the account: ``ON DELETE CASCADE``,
  and explicitly by the account's deletion), its credential id unique across accounts.
- ``passkey_challenges``: the challenges sent and not yet answered, each used once and
  until it expires, in the database so that any worker of a cluster takes the answer.

An expand step: two tables nobody else reads, so a worker that does not know passkeys
runs on beside one that does (docs/deploy.md, "Upgrades").

Revision ID: 0013
Revises: 0012
Create Date: 2027-03-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision: str | None = "0012"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the passkeys' tables."""
    op.create_table(
        "passkeys",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("credential_id", sa.String(1400), nullable=False, unique=True),
        sa.Column("user_handle", sa.String(128), nullable=False),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("transports", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_passkeys_account_id", "passkeys", ["account_id"])
    op.create_table(
        "passkey_challenges",
        sa.Column("challenge_hash", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("session_hash", sa.String(64), nullable=True),
        sa.Column("user_handle", sa.String(128), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_passkey_challenges_expires_at", "passkey_challenges", ["expires_at"]
    )


def downgrade() -> None:
    """Drop the passkeys' tables (every passkey with them: their owners log in with the
    password, which every account keeps)."""
    op.drop_index("ix_passkey_challenges_expires_at", "passkey_challenges")
    op.drop_table("passkey_challenges")
    op.drop_index("ix_passkeys_account_id", "passkeys")
    op.drop_table("passkeys")
