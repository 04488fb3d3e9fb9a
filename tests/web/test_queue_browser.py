"""In two headless Chromiums: both press "Play now" and land, each in their own seat, at
the same game (docs/web.md, "Play now and challenges")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select
from test_web_browser import as_new, body, browser_at, needs_chromium, served, wait
from wsutil import ServerProcess

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from served(tmp_path_factory, "queue")


@pytest.fixture(scope="module")
def two_browsers() -> Iterator[tuple[Any, Any]]:
    first = browser_at("1280,800")
    second = browser_at("1280,800")
    try:
        yield next(first), next(second)
    finally:
        for gen in (first, second):
            next(gen, None)


@pytest.fixture
def two(two_browsers: tuple[Any, Any]) -> tuple[Any, Any]:
    # Two browsers for the module's tests, made like new for each.
    return as_new(two_browsers[0], "1280,800"), as_new(two_browsers[1], "1280,800")


def test_two_players_press_play_now_and_meet_at_one_game(
    server: ServerProcess, two: tuple[Any, Any]
) -> None:
    for d, name in zip(two, ("Amel", "Bilel"), strict=True):
        d.get(server.base + "/")
        wait(d, lambda d: body(d, "data-ready") == "1")
        d.find_element(By.ID, "p-name").clear()
        d.find_element(By.ID, "p-name").send_keys(name)
        Select(d.find_element(By.ID, "p-rules")).select_by_value("scopa")
        Select(d.find_element(By.ID, "p-clock")).select_by_value("60")
        # A guest cannot ask for a rated game.
        assert not d.find_element(By.ID, "p-rated").is_enabled()
        if name == "Amel":
            d.find_element(By.ID, "p-go").click()
            wait(d, lambda d: body(d, "data-queue") == "waiting")
            # Waiting, the focus is on the way out.
            assert d.switch_to.active_element.get_attribute("id") == "p-cancel"
        else:
            # The other with the keyboard alone.
            d.find_element(By.ID, "p-go").send_keys(Keys.ENTER)
    games = []
    for d in two:
        wait(d, lambda d: "/g/" in d.current_url)
        wait(d, lambda d: body(d, "data-ply") is not None)
        games.append(d.current_url.rsplit("/", 1)[1])
    assert games[0] == games[1]
    # Each holds a seat of their own: the two pages show different seats as theirs.
    seats = [d.execute_script(
        "return localStorage.getItem('chkobba.token.' + arguments[0])", games[0]) for d in two]
    assert all(seats) and seats[0] != seats[1]
    names = {d.find_element(By.CSS_SELECTOR, ".seat.me").text for d in two}
    assert any("Amel" in n for n in names) and any("Bilel" in n for n in names)


def test_a_page_closed_while_waiting_leaves_the_queue(
    server: ServerProcess, two: tuple[Any, Any]
) -> None:
    import json
    import time
    import urllib.request

    def waiting() -> int:
        with urllib.request.urlopen(server.base + "/api/queue", timeout=10) as r:
            return sum(p["waiting"] for p in json.loads(r.read())["pools"])

    d = two[0]
    d.get(server.base + "/")
    wait(d, lambda d: body(d, "data-ready") == "1")
    Select(d.find_element(By.ID, "p-rules")).select_by_value("escoba")
    d.find_element(By.ID, "p-go").click()
    wait(d, lambda d: body(d, "data-queue") == "waiting")
    assert waiting() == 1
    # Leaving the page sends its goodbye (sendBeacon): out at once, not after 20 s.
    d.get("about:blank")
    deadline = time.monotonic() + 10
    while waiting() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert waiting() == 0
