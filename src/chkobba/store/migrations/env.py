"""Alembic's entry point: run the migrations on the connection the store hands over.

The store passes its open connection in ``config.attributes["connection"]``, so
migrations run through the same engine (SQLite or PostgreSQL) as the server.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection


def _run(connection: Connection) -> None:
    context.configure(connection=connection, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


_connection = context.config.attributes.get("connection")
if not isinstance(_connection, Connection):
    raise RuntimeError("chkobba's migrations run from chkobba.store.Store.migrate()")
_run(_connection)
