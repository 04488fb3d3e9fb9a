"""Fixtures for the web tests: a database on each backend and an app running on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from wsutil import PgServer, make_client


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A PostgreSQL server for the whole run (skips when PostgreSQL is not installed)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg is not installed: pip install 'chkobba[postgres]'")
    server = PgServer()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database URL, on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'chkobba.db'}"
    server: PgServer = request.getfixturevalue("pg_server")
    return server.new_database()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite database URL."""
    return f"sqlite:///{tmp_path / 'chkobba.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """A running app on each backend, the computer moving at once."""
    with make_client(db_url) as c:
        yield c


@pytest.fixture
def sqlite_client(sqlite_url: str) -> Iterator[TestClient]:
    """A running app on SQLite only."""
    with make_client(sqlite_url) as c:
        yield c
