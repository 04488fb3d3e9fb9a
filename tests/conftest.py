"""Shared test fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
CASES = DATA / "cases"


@pytest.fixture
def cases_dir() -> Path:
    """The record cases of tests/data/cases (each beside the result it must give)."""
    return CASES
