"""Touti's Hint button in headless Chromium: shown when a card is to be chosen among
several, it lists the search player's best cards, each with its worth ± its error."""

from __future__ import annotations

import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import (
    as_new,
    body,
    browser_at,
    needs_chromium,
    served,
    visible,
    wait,
)
from wsutil import ServerProcess

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from served(tmp_path_factory, "touti-browser-coach")


@pytest.fixture(scope="module")
def one_browser() -> Iterator[Any]:
    yield from browser_at("412,915")


@pytest.fixture
def browser(one_browser: Any) -> Any:
    # One browser for the module's tests, made like new for each.
    return as_new(one_browser, "412,915")


def test_the_hint_button_on_touti_s_page(server: ServerProcess, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d = browser
    d.get(server.base + "/touti")
    wait(d, lambda d: body(d, "data-ready") == "1")
    Select(d.find_element(By.ID, "t-opponent")).select_by_value("random")
    Select(d.find_element(By.ID, "t-partner")).select_by_value("random")
    d.find_element(By.ID, "t-go").click()
    wait(d, lambda d: "/touti/" in d.current_url and body(d, "data-my-turn") == "1")
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "no card to choose came in time"
        assert body(d, "data-over") != "1"
        if body(d, "data-my-turn") != "1":
            time.sleep(0.05)
            continue
        hint = d.find_element(By.ID, "t-hint")
        cards = visible(d, "#t-hand .card.playable")
        if len(cards) > 1 and hint.is_displayed():
            break
        assert not hint.is_displayed()  # only for a card among several
        buttons = visible(d, "#t-actions button")
        target = ([b for b in buttons if b.text == "pass"] or cards or buttons or [None])[0]
        if target is None:
            time.sleep(0.05)
            continue
        before = body(d, "data-ply")
        target.click()
        wait(d, lambda d, before=before: body(d, "data-ply") != before)
    hint.click()
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#t-hint-out li")
         or d.find_elements(By.CSS_SELECTOR, "#t-hint-out .error"))
    assert not d.find_elements(By.CSS_SELECTOR, "#t-hint-out .error")
    note = d.find_element(By.CSS_SELECTOR, "#t-hint-out .note").text
    assert note.startswith("The search player's best cards")
    lines = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#t-hint-out li")]
    assert 1 <= len(lines) <= 3
    assert "solved exactly" in note or all(" ± " in line for line in lines)


def finished_touti_game(base: str) -> str:
    """A Touti game against three random computers, seat 0 playing its first legal move
    (passing in the bidding) until the second deal, then resigning: its code."""
    import json

    from websockets.sync.client import connect
    from wsutil import post_json

    g = post_json(base, "/api/games", {"game": "touti", "mode": "room", "target": 600,
                                       "computers": [None, "random", "random", "random"]})
    game, token = g["game"], g["token"]
    with connect(base.replace("http", "ws") + "/ws") as ws:
        ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
        resigned = False
        while True:
            msg = json.loads(ws.recv(timeout=60))
            if msg["type"] == "error":  # a move answered a stale state: look again
                ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
                continue
            if msg["type"] != "state":
                continue
            if msg["over"]:
                return str(game)
            if msg["deal"] >= 2 and not resigned:
                ws.send(json.dumps({"type": "resign"}))
                resigned = True
            elif msg["turn"] == msg.get("you", 0) and msg["legal"] and not resigned:
                move = "pass" if "pass" in msg["legal"] else msg["legal"][0]
                ws.send(json.dumps({"type": "play", "move": move, "ply": msg["ply"]}))


def test_the_analysis_of_a_touti_game_on_its_replay(
    server: ServerProcess, browser: Any, tmp_path: Path
) -> None:
    """The replay page's *Analyse* button on a finished Touti game: each card played
    among several shown with its worth ± its error, the bidding said not to be weighed;
    then the game's record file on the page /analyse, the same way."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    game = finished_touti_game(server.base)
    d = browser
    d.get(f"{server.base}/replay/{game}?motion=off")
    wait(d, lambda d: body(d, "data-ready") == "1")
    assert body(d, "data-kind") == "touti"
    assert not d.find_elements(By.ID, "coach-not-touti")
    # The smallest budget the server takes keeps the test short.
    wait(d, lambda d: d.find_elements(By.ID, "coach-samples"))
    d.execute_script(
        "const s = document.getElementById('coach-samples');"
        "s.add(new Option('64', '64')); s.value = '64';"
    )
    Select(d.find_element(By.ID, "coach-seat")).select_by_value("0")
    d.find_element(By.ID, "coach-run").click()
    wait(d, lambda d: body(d, "data-analysed") == "1"
         or d.find_elements(By.CSS_SELECTOR, "#coach-result .error"), timeout=180)
    errors = [e.text for e in d.find_elements(By.CSS_SELECTOR, "#coach-result .error")]
    assert not errors, errors
    figures = d.find_element(By.CSS_SELECTOR, "#coach-result .note").text
    assert "64" in figures
    # A mistake (or, if none, the first deal's first weighed card) shown with its values.
    links = d.find_elements(By.CSS_SELECTOR, "#coach-mistakes a")
    if links:
        links[0].click()
    else:
        d.find_element(By.ID, "first").click()
        for _ in range(60):
            if d.find_elements(By.CSS_SELECTOR, "#coach-move .coach-table"):
                break
            d.find_element(By.ID, "next").click()
    rows = wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#coach-move .coach-table tr"))
    values = [r.text for r in rows[1:]]
    assert len(values) >= 2 and any(" ± " in v for v in values), values
    assert any("(played)" in v for v in values), values
    # The first step after the deal is a bid: not weighed, and the page says so.
    d.find_element(By.ID, "first").click()
    d.find_element(By.ID, "next").click()
    note = wait(d, lambda d: d.find_elements(By.ID, "coach-not-weighed"))[0].text
    assert "not the bidding" in note

    # The same game's record file on the page /analyse: the same values, step by step.
    path = tmp_path / "touti.json"
    with urllib.request.urlopen(f"{server.base}/api/games/{game}/record", timeout=60) as r:
        path.write_bytes(r.read())
    d.get(f"{server.base}/analyse")
    wait(d, lambda d: body(d, "data-ready") == "1")
    d.find_element(By.ID, "record-file").send_keys(str(path))
    wait(d, lambda d: visible(d, "#coach-run"))
    d.execute_script(
        "const s = document.getElementById('coach-samples');"
        "s.add(new Option('64', '64')); s.value = '64';"
    )
    d.find_element(By.ID, "coach-run").click()
    wait(d, lambda d: body(d, "data-analysed") == "1"
         or d.find_elements(By.ID, "load-error"), timeout=180)
    assert not d.find_elements(By.ID, "load-error")
    assert visible(d, "#touti-step") and not visible(d, "#board")
    seen = None
    for _ in range(80):
        if d.find_elements(By.CSS_SELECTOR, "#coach-move .coach-table"):
            seen = [r.text for r in d.find_elements(By.CSS_SELECTOR, "#coach-move tr")][1:]
            break
        d.find_element(By.ID, "next").click()
    assert seen and len(seen) >= 2 and any("(played)" in v for v in seen), seen
    assert "play" in d.find_element(By.ID, "touti-step").text
