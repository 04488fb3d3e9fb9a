"""The markers that let the fast part of the suite run alone (issue 25):
``pytest -m "not browser and not postgres"``."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT_CONFTEST = Path(__file__).parent / "conftest.py"
_spec = importlib.util.spec_from_file_location("root_conftest", ROOT_CONFTEST)
assert _spec is not None and _spec.loader is not None
conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(conftest)


@dataclass
class FakeItem:
    """What the marking hook reads of a collected test, and the marks it adds."""

    path: Path
    fixturenames: list[str] = field(default_factory=list)
    callspec: Any = None
    marks: set[str] = field(default_factory=set)

    def add_marker(self, mark: pytest.MarkDecorator) -> None:
        self.marks.add(mark.name)


@dataclass
class FakeCallspec:
    params: dict[str, object]


def test_the_markers_are_registered(pytestconfig: pytest.Config) -> None:
    names = {line.split(":")[0] for line in pytestconfig.getini("markers")}
    assert {"browser", "postgres", "slow"} <= names


def test_each_test_is_marked_by_what_it_needs() -> None:
    web = Path("tests/web")
    items = [
        FakeItem(web / "test_web_browser_cards.py", ["server", "browser"]),
        FakeItem(web / "test_web_touti_browser.py"),
        FakeItem(web / "test_cluster.py", ["pg_server", "tmp_path"]),
        FakeItem(web / "test_web_life.py", ["db_url"], FakeCallspec({"db_url": "postgresql"})),
        FakeItem(web / "test_web_life.py", ["db_url"], FakeCallspec({"db_url": "sqlite"})),
        FakeItem(Path("tests/test_duel_ray.py")),
        FakeItem(Path("tests/test_play.py"), ["tmp_path"]),
    ]
    conftest.pytest_collection_modifyitems(None, items)  # type: ignore[arg-type]
    assert [i.marks for i in items] == [
        {"browser"}, {"browser"}, {"postgres"}, {"postgres"}, set(), {"slow"}, set(),
    ]


def test_this_file_runs_in_the_fast_part(request: pytest.FixtureRequest) -> None:
    assert not {m.name for m in request.node.iter_markers()} & {"browser", "postgres", "slow"}
