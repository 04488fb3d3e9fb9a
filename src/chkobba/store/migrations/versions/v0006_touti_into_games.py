"""Touti's games join every other game's tables: ``games``, ``seats`` and ``moves``.

Each row of ``touti_games`` becomes a ``games`` row (``game`` ``touti``, ``rules``
``touti``, its options, seed, status, winner, totals and times kept), its four
names, computer players and the person's token hash become four ``seats`` rows,
and its moves are copied to ``moves`` with their plies, seats and times. Nothing
is lost: the downgrade moves them back. Then the Touti tables are dropped.

Revision ID: 0006
Revises: 0005
Create Date: 2027-01-10
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None

TOUTI_RULES_VERSION = 2
"""The rules version written for a moved game (Touti's rules carry no version)."""

meta = sa.MetaData()
games = sa.Table(
    "games",
    meta,
    sa.Column("id", sa.String(16)),
    sa.Column("game", sa.String(16)),
    sa.Column("kind", sa.String(16)),
    sa.Column("status", sa.String(16)),
    sa.Column("rules", sa.String(32)),
    sa.Column("rules_version", sa.Integer),
    sa.Column("options", sa.Text),
    sa.Column("seats", sa.Integer),
    sa.Column("teams", sa.Boolean),
    sa.Column("seed", sa.BigInteger),
    sa.Column("winner", sa.Integer),
    sa.Column("totals", sa.Text),
    sa.Column("created_at", sa.DateTime(timezone=True)),
    sa.Column("finished_at", sa.DateTime(timezone=True)),
)
seats = sa.Table(
    "seats",
    meta,
    sa.Column("game_id", sa.String(16)),
    sa.Column("seat", sa.Integer),
    sa.Column("name", sa.String(64)),
    sa.Column("token_hash", sa.String(64)),
    sa.Column("agent", sa.String(32)),
)
moves = sa.Table(
    "moves",
    meta,
    sa.Column("game_id", sa.String(16)),
    sa.Column("ply", sa.Integer),
    sa.Column("seat", sa.Integer),
    sa.Column("move", sa.String(64)),
    sa.Column("played_at", sa.DateTime(timezone=True)),
)


def _touti_tables(md: sa.MetaData) -> tuple[sa.Table, sa.Table]:
    tg = sa.Table(
        "touti_games",
        md,
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False, index=True),
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
    tm = sa.Table(
        "touti_moves",
        md,
        sa.Column("game_id", sa.String(16), sa.ForeignKey("touti_games.id"), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("move", sa.String(32), nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
    )
    return tg, tm


def upgrade() -> None:
    """Copy every Touti game, its seats and its moves, then drop the Touti tables."""
    conn = op.get_bind()
    tg, tm = _touti_tables(sa.MetaData())
    for g in conn.execute(sa.select(tg)).mappings().all():
        conn.execute(
            sa.insert(games).values(
                id=g["id"],
                game="touti",
                kind="computer",
                status=g["status"],
                rules="touti",
                rules_version=TOUTI_RULES_VERSION,
                options=g["options"],
                seats=4,
                teams=True,
                seed=g["seed"],
                winner=g["winner"],
                totals=g["totals"],
                created_at=g["created_at"],
                finished_at=g["finished_at"],
            )
        )
        names = json.loads(g["names"])
        agents = json.loads(g["agents"])
        conn.execute(
            sa.insert(seats),
            [
                {
                    "game_id": g["id"],
                    "seat": s,
                    "name": names[s],
                    # The person's seat holds the token; the others are the computer's.
                    "token_hash": g["token_hash"] if agents[s] is None else None,
                    "agent": agents[s],
                }
                for s in range(4)
            ],
        )
    rows = conn.execute(sa.select(tm)).mappings().all()
    if rows:
        conn.execute(sa.insert(moves), [dict(r) for r in rows])
    op.drop_table("touti_moves")
    op.drop_index("ix_touti_games_status", "touti_games")
    op.drop_table("touti_games")


def downgrade() -> None:
    """Recreate the Touti tables and move the Touti games back into them."""
    md = sa.MetaData()
    tg, tm = _touti_tables(md)
    conn = op.get_bind()
    md.create_all(conn)
    found = conn.execute(sa.select(games).where(games.c.game == "touti")).mappings().all()
    for g in found:
        rows = conn.execute(
            sa.select(seats).where(seats.c.game_id == g["id"]).order_by(seats.c.seat)
        ).mappings().all()
        person = next((r["token_hash"] for r in rows if r["token_hash"] is not None), "")
        conn.execute(
            sa.insert(tg).values(
                id=g["id"],
                status=g["status"],
                options=g["options"],
                seed=g["seed"],
                names=json.dumps([r["name"] for r in rows], ensure_ascii=False),
                agents=json.dumps([r["agent"] for r in rows]),
                token_hash=person,
                winner=g["winner"],
                totals=g["totals"],
                created_at=g["created_at"],
                finished_at=g["finished_at"],
            )
        )
        played = conn.execute(
            sa.select(moves).where(moves.c.game_id == g["id"]).order_by(moves.c.ply)
        ).mappings().all()
        if played:
            conn.execute(sa.insert(tm), [dict(r) for r in played])
        conn.execute(sa.delete(moves).where(moves.c.game_id == g["id"]))
        conn.execute(sa.delete(seats).where(seats.c.game_id == g["id"]))
        conn.execute(sa.delete(games).where(games.c.id == g["id"]))
