"""Any preset in the pages, in headless Chromium: the lobby offers every preset of the
Chkobba family with the seatings and targets it allows (docs/rules.md §3: Escoba is played
by 2 to 6), and the game page names the preset's points in a round's breakdown."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from test_web_browser import as_new, body, browser_at, needs_chromium, served, visible, wait
from test_web_browser_pages import post
from wsutil import ServerProcess

from chkobba.fishing.rules import PRESETS

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from served(tmp_path_factory, "presets")


@pytest.fixture(scope="module")
def one_browser() -> Iterator[Any]:
    yield from browser_at("1280,900")


@pytest.fixture
def browser(one_browser: Any) -> Any:
    # One browser for the module's tests, made like new for each.
    return as_new(one_browser, "1280,900")


def test_the_lobby_offers_every_preset_and_its_seatings(
    server: ServerProcess, browser: Any
) -> None:
    d = browser
    d.get(server.base + "/")
    wait(d, lambda d: body(d, "data-ready") == "1")
    rules = Select(d.find_element(By.ID, "c-rules"))
    # Every preset of the Chkobba family, then Touti.
    assert [o.get_attribute("value") for o in rules.options] == [*PRESETS, "touti"]
    seatings = lambda: [  # noqa: E731
        o.get_attribute("value") for o in Select(d.find_element(By.ID, "c-seating")).options
    ]
    assert seatings() == list(PRESETS["chkobba"].seatings)
    rules.select_by_value("escoba")
    assert seatings() == list(PRESETS["escoba"].seatings) and "6" in seatings()
    Select(d.find_element(By.ID, "c-seating")).select_by_value("6")
    d.find_element(By.ID, "c-start").click()
    wait(d, lambda d: "/g/" in d.current_url and body(d, "data-ply") is not None)
    code = d.current_url.rsplit("/", 1)[1]
    with urllib.request.urlopen(f"{server.base}/api/games/{code}", timeout=30) as r:
        summary = json.loads(r.read())
    assert summary["rules"] == "escoba" and summary["seats"] == 6


def test_the_breakdown_names_the_presets_points(server: ServerProcess, browser: Any) -> None:
    d = browser
    g = post(server.base, "/api/games", {"rules": "scopa", "level": "random", "target": 11})
    d.get(server.base + "/")
    d.execute_script(f"localStorage.setItem('chkobba.token.{g['game']}', '{g['token']}')")
    d.get(f"{server.base}/g/{g['game']}")
    wait(d, lambda d: body(d, "data-ply") is not None)
    deadline = time.monotonic() + 120
    while not visible(d, "dialog[open] #breakdown-close"):
        assert time.monotonic() < deadline, "no round ended in time"
        if body(d, "data-my-turn") != "1":
            time.sleep(0.02)
            continue
        ply = int(body(d, "data-ply") or 0)
        cut = visible(d, "#cut-keep")
        cards = visible(d, "#hand .card.playable")
        if cut:
            cut[0].click()
        elif cards:
            cards[-1].click()
            choices = visible(d, "#choices button.choice")
            if choices:
                choices[0].click()
        else:
            time.sleep(0.02)
            continue
        wait(d, lambda d, ply=ply: int(body(d, "data-ply") or 0) > ply or bool(
            visible(d, "dialog[open] #breakdown-close")))
    rows = d.execute_script(
        "return [...document.querySelectorAll('#breakdown table.breakdown tr[data-point]')]"
        ".map((r) => r.dataset.point)"
    )
    assert rows == list(PRESETS["scopa"].scoring)
    assert "primiera" in d.find_element(By.ID, "breakdown").text
