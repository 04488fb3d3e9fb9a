"""Touti's Hint button in headless Chromium: shown when a card is to be chosen among
several, it lists the search player's best cards, each with its worth ± its error."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from test_web_browser import body, make_browser, needs_chromium, served, visible, wait
from wsutil import ServerProcess

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from served(tmp_path_factory, "touti-browser-coach")


def test_the_hint_button_on_touti_s_page(server: ServerProcess) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d: Any = make_browser("412,915")
    try:
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
    finally:
        d.quit()
