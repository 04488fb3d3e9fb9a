"""In headless Chromium: the score sheet of the game page (issue 27 §4), opened in the
middle of a match after a round, in Italian, by its button and by the keyboard, and
checked by axe-core while open."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from test_web_browser import body, needs_chromium, served, shared_browser, wait
from test_web_browser_a11y import axe_problems
from test_web_browser_pages import open_as, post
from wsutil import ServerProcess

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from served(tmp_path_factory, "sheet", "--rate", "10000")


one_browser, browser = shared_browser("1280,800")


def play_rounds(base: str, game: str, token: str, rounds: int) -> dict[str, Any]:
    """Seat 0 plays its first legal move until ``rounds`` rounds are finished (the
    computer plays the rest); the state then."""
    from websockets.sync.client import connect

    with connect(base.replace("http", "ws") + "/ws") as ws:
        ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
        while True:
            msg = json.loads(ws.recv(timeout=60))
            if msg["type"] == "error":
                ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
                continue
            if msg["type"] != "state":
                continue
            if len(msg["rounds"]) >= rounds or msg["over"]:
                return dict(msg)
            if msg["turn"] == msg["you"] and msg["legal"]:
                ws.send(json.dumps({"type": "play", "move": msg["legal"][0], "ply": msg["ply"]}))


def sheet_cells(d: Any, box: str = "sheet-body") -> list[list[str]]:
    """The score sheet's body rows, cell by cell."""
    return list(d.execute_script(
        f"return [...document.querySelectorAll('#{box} tbody tr')]"
        ".map((tr) => [...tr.children].map((c) => c.textContent));"))


def test_the_score_sheet_shows_every_round_point_by_point_in_italian(
    server: ServerProcess, browser: Any
) -> None:
    d = browser
    base = server.base
    made = post(base, "/api/games", {"rules": "scopa", "level": "random", "target": 31})
    state = play_rounds(base, made["game"], made["token"], 1)
    assert not state["over"], "the match must still be on"
    played = state["rounds"][0]
    d.get(base + "/")
    d.execute_script("localStorage.setItem('chkobba.lang', 'it')")
    open_as(d, base, made["game"], made["token"])
    wait(d, lambda d: body(d, "data-rounds") == "1")
    button = d.find_element(By.ID, "sheet-btn")
    assert button.text == "Segnapunti"
    # By the keyboard: S opens it, Escape closes it.
    d.find_element(By.TAG_NAME, "body").click()
    ActionChains(d).send_keys("s").perform()
    wait(d, lambda d: d.execute_script("return document.getElementById('sheet').open"))
    heads = d.execute_script(
        "return [...document.querySelectorAll('#sheet-body thead th')].map((c) => c.textContent)")
    assert heads == ["Smazzata", "Giocatore o squadra", "carte", "denari", "settebello",
                     "primiera", "scope", "Totale smazzata", "Totale partita"]
    rows = sheet_cells(d)
    assert len(rows) == 2, rows
    for side, row in enumerate(rows):
        cells = row[1:] if side else row[2:]
        points = [int(x) for x in cells[:5]]
        # Each category as the round's breakdown gave it; they add up to the round.
        assert points[:4] == [int(played[k] == side) for k in
                              ("carte", "denari", "settebello", "primiera")]
        assert points[4] == played["scope"][side]
        assert int(cells[5]) == sum(points) == played["points"][side]
        assert int(cells[6]) == state["totals"][side]
    assert rows[0][0] == "1"
    assert not axe_problems(d)
    ActionChains(d).send_keys("\ue00c").perform()  # Escape
    wait(d, lambda d: not d.execute_script("return document.getElementById('sheet').open"))
    # And by its button, reached like any other.
    button.click()
    wait(d, lambda d: d.execute_script("return document.getElementById('sheet').open"))
    assert d.find_element(By.CSS_SELECTOR, "#sheet-title").text == "Segnapunti"


def test_touti_has_its_score_sheet_too(server: ServerProcess, browser: Any) -> None:
    d = browser
    base = server.base
    made = post(base, "/api/games", {"game": "touti", "mode": "room", "name": "Selma",
                                     "computers": [None, "random", "random", "random"]})
    state = play_rounds(base, made["game"], made["token"], 1)
    deal = state["rounds"][0]
    d.get(base + "/")
    d.execute_script("localStorage.setItem('chkobba.lang', 'es')")
    d.execute_script(f"localStorage.setItem('touti.token.{made['game']}', '{made['token']}')")
    d.get(f"{base}/touti/{made['game']}")
    wait(d, lambda d: body(d, "data-sheet-rounds") == "1")
    d.find_element(By.ID, "t-sheet-btn").click()
    wait(d, lambda d: d.execute_script("return document.getElementById('t-sheet').open"))
    rows = sheet_cells(d, "t-sheet-body")
    assert len(rows) == 2
    assert [int(rows[0][-2]), int(rows[1][-2])] == deal["points"]
    if deal["contract"]:
        declarer = deal["contract"]["declarer"] % 2
        assert str(deal["contract"]["bid"]) in " ".join(rows[declarer])
        assert ("cumplido" if deal["contract"]["made"] else "fallado") in " ".join(rows[declarer])
    assert not axe_problems(d)
