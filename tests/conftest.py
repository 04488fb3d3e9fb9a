"""Shared test fixtures, and the markers that let the fast part of the suite run alone:
``pytest -m "not browser and not postgres"`` (see the README's Development section)."""

from __future__ import annotations

from pathlib import Path

import pytest

BROWSER_FILES = "browser"
"""A test file with this in its name drives a headless Chromium (selenium)."""
POSTGRES_FIXTURES = frozenset({"pg_server"})
"""Fixtures that start a PostgreSQL server."""
SLOW_FILES = frozenset({"test_duel_ray.py"})
"""Files whose tests start something heavy (a Ray cluster)."""

DATA = Path(__file__).parent / "data"
CASES = DATA / "cases"


@pytest.fixture
def cases_dir() -> Path:
    """The record cases of tests/data/cases (each beside the result it must give)."""
    return CASES


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test by what it needs: ``browser`` (its file drives Chromium),
    ``postgres`` (it uses a PostgreSQL server, directly or as the ``postgresql``
    case of ``db_url``), ``slow`` (it starts a Ray cluster)."""
    for item in items:
        name = item.path.name
        if BROWSER_FILES in name:
            item.add_marker(pytest.mark.browser)
        fixtures = set(getattr(item, "fixturenames", ()))
        callspec = getattr(item, "callspec", None)
        on_postgres = callspec is not None and callspec.params.get("db_url") == "postgresql"
        if fixtures & POSTGRES_FIXTURES or on_postgres:
            item.add_marker(pytest.mark.postgres)
        if name in SLOW_FILES:
            item.add_marker(pytest.mark.slow)
