"""The replay page in headless Chromium, on the table of the game screens: a finished Scopa
game 2 against 2 on the oval table and a finished Touti game on Touti's table, stepped to
a move by the buttons and the arrow keys, every hand and the table's cards checked
against the engine's state at that move (the game's record played again here)."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from test_web_browser import ARTIFACTS, body, make_browser, needs_chromium, served, wait
from wsutil import ServerProcess, play_out

from chkobba.fishing.cards import Card, cards_of
from chkobba.fishing.game import Round
from chkobba.fishing.moves import Cut, Move, Play
from chkobba.fishing.record import GameRecord
from chkobba.touti.deal import Deal
from chkobba.touti.moves import parse_move as parse_touti
from chkobba.touti.record import ToutiRecord
from chkobba.touti.rules import ToutiRules

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # The games are played over a socket of the test's own, faster than a person would.
    yield from served(tmp_path_factory, "browser-replay", "--rate", "10000")


def post(base: str, data: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        base + "/api/games", json.dumps(data).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req) as r:
        return dict(json.loads(r.read()))


def fetch(base: str, path: str) -> str:
    with urllib.request.urlopen(base + path, timeout=60) as r:
        return str(r.read().decode())



def cards_at(d: Any, css: str) -> set[str]:
    from selenium.webdriver.common.by import By

    return {str(e.get_attribute("data-card")) for e in d.find_elements(By.CSS_SELECTOR, css)}


def step_to(d: Any, step: int) -> None:
    """From the first step, the buttons to ``step - 1``, then the arrow key to ``step``."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    d.find_element(By.ID, "first").click()
    for _ in range(step - 1):
        d.find_element(By.ID, "next").click()
    d.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    wait(d, lambda d: body(d, "data-step") == str(step))


@pytest.fixture
def phone() -> Iterator[Any]:
    # A window cannot be narrower than 500 pixels here: the phone's screen is emulated.
    d = make_browser("1280,800")
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True,
    })
    try:
        yield d
    finally:
        d.quit()


def test_the_replay_of_scopa_two_against_two_on_the_oval_table(
    server: ServerProcess, phone: Any
) -> None:
    from selenium.webdriver.common.by import By

    g = post(server.base, {"mode": "computer", "rules": "scopa", "seating": "2v2",
                           "level": "random", "target": 11})
    play_out(server.base, g["game"], g["token"])
    record = GameRecord.loads(fetch(server.base, f"/api/games/{g['game']}/record"))
    d = phone
    d.get(f"{server.base}/replay/{g['game']}?motion=off")
    wait(d, lambda d: body(d, "data-ready") == "1")
    assert d.find_element(By.ID, "ring").get_attribute("data-seats") == "4"
    # The engine's round 1, move by move, against the page at the same step.
    first = record.rounds[0]
    r = Round(record.ruleset(), record.seats, record.teams, first.dealer,
              [Card.parse(c) for c in first.deck])
    moves: list[Move] = [Cut(first.cut)] if first.cut is not None else []
    moves += [Play.parse(p) for p in first.plays]
    checked = 0
    for step, move in enumerate(moves[:13], 1):
        r.apply(move)
        if step not in (5, 13):
            continue
        step_to(d, step)
        for seat in range(4):
            shown = cards_at(d, f'#seats .seat[data-seat="{seat}"] .open [data-card]')
            assert shown == {str(c) for c in cards_of(r.hands[seat])}, (step, seat)
        assert cards_at(d, "#table [data-card]") == {str(c) for c in cards_of(r.table)}
        checked += 1
    assert checked == 2
    # Partners sit opposite: seat 2 at the top, seats 1 and 3 at the sides.
    top = d.find_element(By.CSS_SELECTOR, '#seats .seat[data-seat="2"]').rect
    bottom = d.find_element(By.CSS_SELECTOR, '#seats .seat[data-seat="0"]').rect
    assert top["y"] + top["height"] < bottom["y"]
    # Nothing wider than the phone's screen.
    assert d.execute_script("return document.documentElement.scrollWidth") <= 390
    ARTIFACTS.mkdir(exist_ok=True)
    d.save_screenshot(str(ARTIFACTS / "web-replay-scopone.png"))


def test_the_replay_of_touti_on_its_table(server: ServerProcess, phone: Any) -> None:
    from selenium.webdriver.common.by import By

    g = post(server.base, {"game": "touti", "mode": "room", "target": 600,
                           "computers": [None, "random", "random", "random"]})
    play_out(server.base, g["game"], g["token"])
    rec = ToutiRecord.loads(fetch(server.base, f"/api/games/{g['game']}/record"))
    d = phone
    d.get(f"{server.base}/replay/{g['game']}?motion=off")
    wait(d, lambda d: body(d, "data-ready") == "1")
    assert body(d, "data-kind") == "touti"
    # The coach analyses Touti too (tests/web/test_web_touti_browser_coach.py runs it).
    assert wait(d, lambda d: d.find_elements(By.ID, "coach-run"))
    first = rec.deals[0]
    deal = Deal(first.dealer, [int(Card.parse(c)) for c in first.deck],
                ToutiRules.from_options(rec.options))
    plays = 0
    target = None
    for step, text in enumerate(first.moves, 1):
        deal.apply(parse_touti(text))
        plays += text[0] in "A234567QJK" and ":" not in text
        if len(deal.current) == 2 and plays > 6:
            target = step
            break
    assert target is not None, "no second trick with two cards in the first deal"
    step_to(d, target)
    for seat in range(4):
        shown = cards_at(d, f'.touti-seat[data-at="{seat}"] .open [data-card]')
        assert shown == {str(c) for c in cards_of(deal.hands[seat])}, seat
    trick = {str(c) for c in cards_of(sum(1 << c for c in deal.current))}
    assert cards_at(d, ".touti-table .slot [data-card]") == trick
    assert d.find_element(By.CSS_SELECTOR, "#t-center .trump").text
    teams = d.find_elements(By.CSS_SELECTOR, "#t-center .team")
    assert len(teams) == 2
    assert d.execute_script("return document.documentElement.scrollWidth") <= 390
    # The coach's words about Touti in each language.
    notes = set()
    for lang in ("fr", "ar", "en"):
        d.execute_script(f"localStorage.setItem('chkobba.lang', '{lang}')")
        d.refresh()
        wait(d, lambda d: body(d, "data-ready") == "1")
        intro = wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#coach-analysis .note"))
        notes.add(intro[0].text)
    assert len(notes) == 3 and all("Touti" in n or "التوتي" in n for n in notes)
    # The last step: the match's result in words.
    d.find_element(By.ID, "last").click()
    wait(d, lambda d: d.find_element(By.ID, "t-what").text)
    ARTIFACTS.mkdir(exist_ok=True)
    d.save_screenshot(str(ARTIFACTS / "web-replay-touti.png"))


@pytest.mark.parametrize("seating", ["4", "6"])
def test_declared_hands_stay_on_the_table(server: ServerProcess, phone: Any, seating: str) -> None:
    """Cirulla: at every step where a hand is declared (face up at its seat), each seat's
    box stays inside the oval's box and no two seats cover each other."""
    from selenium.webdriver.common.by import By

    for _ in range(10):
        g = post(server.base, {"mode": "computer", "rules": "cirulla", "seating": seating,
                               "level": "random", "target": 11})
        play_out(server.base, g["game"], g["token"])
        frames = json.loads(fetch(server.base, f"/api/games/{g['game']}/replay"))["frames"]
        # One step for each seat that declared: the first where its hand shows.
        first: dict[int, int] = {}
        for i, f in enumerate(frames):
            for dec in f.get("declarations", []):
                first.setdefault(dec["seat"], i)
        if first:
            break
    assert first, "no hand declared in ten games of Cirulla"
    d = phone
    d.get(f"{server.base}/replay/{g['game']}?motion=off")
    wait(d, lambda d: body(d, "data-ready") == "1")
    for seat, step in first.items():
        d.execute_script(
            "const s = document.getElementById('slider'); s.value = arguments[0];"
            "s.dispatchEvent(new Event('input'));", step)
        wait(d, lambda d, step=step: body(d, "data-step") == str(step))
        assert d.find_elements(By.CSS_SELECTOR, f'.seat[data-seat="{seat}"] .declared')
        ring = d.find_element(By.ID, "ring").rect
        boxes = [e.rect for e in d.find_elements(By.CSS_SELECTOR, "#seats .seat")]
        top, bottom = ring["y"] - 1, ring["y"] + ring["height"] + 1
        for b in boxes:
            assert top <= b["y"] and b["y"] + b["height"] <= bottom, (seat, b, ring)
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                apart = (
                    a["x"] + a["width"] <= b["x"] + 1 or b["x"] + b["width"] <= a["x"] + 1
                    or a["y"] + a["height"] <= b["y"] + 1 or b["y"] + b["height"] <= a["y"] + 1
                )
                assert apart, (seat, a, b)


def test_stepping_forward_moves_the_cards_unless_motion_is_off(server: ServerProcess) -> None:
    """One step forward animates the move as the game screen does (a card laid or
    captured); with ``?motion=off`` the step is drawn at once, nothing moving."""
    from selenium.webdriver.common.by import By

    g = post(server.base, {"mode": "computer", "rules": "scopa", "level": "random",
                           "target": 11})
    play_out(server.base, g["game"], g["token"])
    d = make_browser("1280,800", motion=True)
    try:
        for query, moving in (("", True), ("?motion=off", False)):
            d.get(f"{server.base}/replay/{g['game']}{query}")
            wait(d, lambda d: body(d, "data-ready") == "1")
            d.find_element(By.ID, "next").click()
            # Read at once: the cards are in flight for a fraction of a second.
            count = d.execute_script("return document.getAnimations().length")
            wait(d, lambda d: body(d, "data-step") == "1")
            assert body(d, "data-last-motion") in ("play", "capture", "sweep")
            assert (count > 0) is moving, (query, count)
    finally:
        d.quit()
