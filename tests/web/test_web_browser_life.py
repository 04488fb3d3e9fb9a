"""In headless Chromium: resign and rematch through the pages (Chkobba family and Touti),
the room's settings shown, and the three languages' words for them (docs/protocol.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from test_web_browser import (
    as_new,
    body,
    browser_at,
    choose_lang,
    needs_chromium,
    served,
    visible,
    wait,
)
from test_web_browser_pages import open_as, post
from wsutil import ServerProcess

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from served(tmp_path_factory, "life")


@pytest.fixture(scope="module")
def one_browser() -> Iterator[Any]:
    yield from browser_at("412,915")


@pytest.fixture
def browser(one_browser: Any) -> Any:
    # One browser for the module's tests, made like new for each.
    return as_new(one_browser, "412,915")


def until(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(200):
        msg = json.loads(ws.recv(timeout=30))
        if msg["type"] == kind:
            return dict(msg)
    raise AssertionError(f"no {kind} message")


def test_resign_then_rematch_through_the_page(server: ServerProcess, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from websockets.sync.client import connect

    d = browser
    base = server.base
    r = post(base, "/api/games", {"mode": "room", "seating": "2", "name": "Selma", "clock": 120})
    guest = post(base, f"/api/games/{r['game']}/join", {"name": "Hedi"})
    with connect(base.replace("http", "ws") + "/ws") as ws:
        ws.send(json.dumps({"type": "hello", "game": r["game"], "token": guest["token"]}))
        until(ws, "state")
        open_as(d, base, r["game"], r["token"])
        settings = d.find_element(By.ID, "life-settings").text
        assert "Public room" in settings and "120" in settings and "no coach" in settings
        assert body(d, "data-coaching") == "0"
        wait(d, lambda d: "without the coach" in d.find_element(By.ID, "coach-off").text)
        visible(d, "#resign-btn")[0].click()
        wait(d, lambda d: visible(d, "#resign-yes"))
        visible(d, "#resign-yes")[0].click()
        wait(d, lambda d: body(d, "data-over") == "1" and visible(d, "#over"))
        title = d.find_element(By.ID, "over-title").text
        assert "Selma resigned" in title and "Hedi" in title
        assert not visible(d, "#resign-btn")
        # The words in French and Arabic too.
        choose_lang(d, "fr")
        assert "a abandonné" in d.find_element(By.ID, "over-title").text
        assert d.find_element(By.ID, "rematch-btn").text == "Revanche"
        choose_lang(d, "ar")
        assert "استسلم" in d.find_element(By.ID, "over-title").text
        choose_lang(d, "en")
        visible(d, "#rematch-btn")[0].click()
        room = until(ws, "room")
        while room["rematch_accepted"] != [0]:
            room = until(ws, "room")
        wait(d, lambda d: "Selma" in d.find_element(By.ID, "rematch-status").text)
        old = r["game"]
        ws.send(json.dumps({"type": "rematch"}))
        new = until(ws, "rematch")["game"]
    # Every person accepted: the page goes to the new game, in the same seat.
    wait(d, lambda d: d.current_url.endswith(f"/g/{new}") and body(d, "data-ply") is not None)
    assert body(d, "data-seat") == "0" and body(d, "data-over") == "0"
    link = visible(d, "#rematch-of")
    assert link and link[0].get_attribute("href").endswith(f"/g/{old}")


def test_touti_resign_and_rematch_against_the_computer(
    server: ServerProcess, browser: Any
) -> None:
    from selenium.webdriver.common.by import By

    d = browser
    d.get(server.base + "/touti")
    wait(d, lambda d: body(d, "data-ready") == "1")
    d.find_element(By.ID, "t-go").click()
    wait(d, lambda d: "/touti/" in d.current_url and body(d, "data-ply") is not None)
    # The room's settings, as on the other games' screens: the page's game gives every
    # other seat to the computer, so it is private and coached like any such game.
    wait(d, lambda d: d.find_element(By.ID, "t-settings").text)
    settings = d.find_element(By.ID, "t-settings").text
    assert "Private room" in settings and "60 s" in settings and "coach allowed" in settings
    first = d.current_url
    visible(d, "#t-resign")[0].click()
    visible(d, "#t-resign-yes")[0].click()
    wait(d, lambda d: body(d, "data-over") == "1")
    assert "resigned" in d.find_element(By.ID, "t-prompt").text
    visible(d, "#t-rematch")[0].click()
    wait(d, lambda d: d.current_url != first and body(d, "data-ply") is not None)
    assert "/touti/" in d.current_url and body(d, "data-over") == "0"


def test_a_touti_seat_whose_player_is_away_is_marked(server: ServerProcess, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    d = browser
    r = post(server.base, "/api/games", {"game": "touti", "mode": "room", "name": "Selma"})
    # A guest takes seat 1 and never connects: away, once the game is in play.
    post(server.base, f"/api/games/{r['game']}/join", {"name": "Hedi"})
    d.get(server.base + "/")
    d.execute_script(f"localStorage.setItem('touti.token.{r['game']}', '{r['token']}')")
    d.get(f"{server.base}/touti/{r['game']}")
    wait(d, lambda d: visible(d, "#t-fill"))
    assert "Public room" in d.find_element(By.ID, "t-settings").text
    assert "no coach" in d.find_element(By.ID, "t-settings").text
    visible(d, "#t-fill")[0].click()

    def hedi(d: Any) -> str:
        return str(d.find_element(By.CSS_SELECTOR, ".touti-seat[data-at='1'] .who").text)

    wait(d, lambda d: "Hedi" in hedi(d) and "away" in hedi(d))
