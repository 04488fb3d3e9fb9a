"""Touti in headless Chromium: start a game against the computer and play by clicks
(a screenshot goes to test-artifacts/touti-web.png); the story in the page's language;
the seat token never in a URL (the server's access log is read)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import (
    ARTIFACTS,
    as_new,
    body,
    browser_at,
    choose_lang,
    needs_chromium,
    served,
    visible,
    wait,
)
from wsutil import ServerProcess

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from served(tmp_path_factory, "touti-browser", "--log-level", "info")


@pytest.fixture(scope="module")
def one_browser() -> Iterator[Any]:
    yield from browser_at("412,915")


@pytest.fixture
def browser(one_browser: Any) -> Any:
    # One browser for the module's tests, made like new for each.
    return as_new(one_browser, "412,915")


def test_touti_by_clicks(server: ServerProcess, browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d = browser
    d.get(server.base + "/")
    d.find_element(By.LINK_TEXT, "Touti").click()
    wait(d, lambda d: body(d, "data-ready") == "1")
    Select(d.find_element(By.ID, "t-opponent")).select_by_value("random")
    Select(d.find_element(By.ID, "t-partner")).select_by_value("technique")
    d.find_element(By.ID, "t-go").click()
    wait(d, lambda d: "/touti/" in d.current_url and body(d, "data-my-turn") == "1")
    clicks = 0
    deadline = time.monotonic() + 120
    while clicks < 25 and body(d, "data-over") != "1":
        assert time.monotonic() < deadline, "the game did not move on in time"
        before = body(d, "data-ply")
        cards = visible(d, "#t-hand .card.playable")
        buttons = visible(d, "#t-actions button")
        pass_button = [b for b in buttons if b.text == "pass"]
        target = (pass_button or cards or buttons or [None])[0]
        if target is None:
            time.sleep(0.05)
            continue
        if clicks == 10:
            ARTIFACTS.mkdir(exist_ok=True)
            d.save_screenshot(str(ARTIFACTS / "touti-web.png"))
        target.click()
        clicks += 1
        wait(d, lambda d, before=before: body(d, "data-ply") != before
             or d.find_element(By.ID, "g-error").text)
        assert not d.find_element(By.ID, "g-error").text
    # Read at once: the computers still play, and each move draws the log again.
    log = d.execute_script(
        "return [...document.querySelectorAll('#t-log li')].map((li) => li.textContent)")
    assert len(log) > 10 and any(line.startswith("Trick ") for line in log)
    game = d.current_url.rsplit("/", 1)[1]
    token = d.execute_script(f"return localStorage.getItem('touti.token.{game}')")
    assert token
    # The page's requests are in the access log, its seat token nowhere.
    access = server.log.read_text(errors="replace")
    assert "POST /api/games " in access and '"WebSocket /ws?game=' in access
    assert token not in access and "token=" not in access


def test_touti_in_french_and_arabic(server: ServerProcess, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    d = browser
    d.get(server.base + "/touti")
    wait(d, lambda d: body(d, "data-ready") == "1")
    html = d.find_element(By.TAG_NAME, "html")
    choose_lang(d, "ar")
    assert html.get_attribute("dir") == "rtl" and html.get_attribute("lang") == "ar"
    assert d.find_element(By.ID, "t-go").text == "ابدأ"
    choose_lang(d, "fr")
    assert html.get_attribute("dir") == "ltr"
    assert d.find_element(By.ID, "t-go").text == "Commencer"
    assert d.find_element(By.ID, "t-name").get_attribute("value") == "Vous"
    d.find_element(By.ID, "t-go").click()
    wait(d, lambda d: "/touti/" in d.current_url and body(d, "data-my-turn") == "1")
    # The language is remembered, and the game's own words follow it.
    wait(d, lambda d: d.find_element(By.ID, "t-prompt").text == "Votre enchère (ou passe) :")
    assert "Partenaire" in d.find_element(By.ID, "t-score").text
    choose_lang(d, "ar")
    assert d.find_element(By.ID, "t-prompt").text == "مزايدتك (أو باس):"
    assert d.find_element(By.TAG_NAME, "html").get_attribute("dir") == "rtl"
    assert "باس" in [b.text for b in visible(d, "#t-actions button")]
    # The story is told in the page's language, names and cards isolated for bidi.
    before = body(d, "data-ply")
    next(b for b in visible(d, "#t-actions button") if b.text == "باس").click()
    wait(d, lambda d: body(d, "data-ply") != before)
    story = d.execute_script(
        "return [...document.querySelectorAll('#t-log li')].map((li) => li.textContent)"
    )
    assert "أنت تقول باس" in " ".join(story).replace("\u2068", "").replace("\u2069", "")
    for line in story:
        assert re.search("[\u0600-\u06ff]", line), line
        assert not re.search(r"\b(bids|passes|plays|trick|says|You)\b", line), line
        for name in ("اليمين", "الشريك", "اليسار"):
            assert line.count(name) == line.count(f"\u2068{name}\u2069"), line
    choose_lang(d, "fr")
    # Read at once: the computers' moves redraw the story meanwhile.
    story = d.execute_script(
        "return [...document.querySelectorAll('#t-log li')].map((li) => li.innerText)"
    )
    assert "Vous passez" in story
