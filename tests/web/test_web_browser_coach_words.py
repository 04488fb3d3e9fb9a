"""End to end in headless Chromium: the coach's hint on an Italian page of a Scopa game
speaks Italian and names the cards in the Italian deck's words (issue 27, §1–2)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from test_web_browser import body, choose_lang, make_browser, needs_chromium, served, visible, wait
from test_web_browser_coach import post
from wsutil import ServerProcess

pytestmark = needs_chromium

ENGLISH = re.compile(r"\b(laid|took|swept|offers|unseen|can be taken|to any|of 4|none)\b")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from served(tmp_path_factory, "browser-coach-words", "--rate", "10000")


def test_a_hint_in_italian_on_a_scopa_page(server: ServerProcess) -> None:
    from selenium.webdriver.common.by import By

    d = make_browser("1280,900")
    try:
        made = post(server.base, "/api/games", {"rules": "scopa", "level": "random"})
        game, token = made["game"], made["token"]
        d.get(server.base + "/")
        d.execute_script(f"localStorage.setItem('chkobba.token.{game}', '{token}')")
        d.get(f"{server.base}/g/{game}")
        wait(d, lambda d: body(d, "data-ply") is not None)
        choose_lang(d, "it")
        d.find_element(By.ID, "coach-opt-hints").click()
        deadline = time.monotonic() + 60
        while not d.find_elements(By.CSS_SELECTOR, "#coach-out .coach-hint-line"):
            assert time.monotonic() < deadline, d.find_element(By.ID, "coach-out").text
            wait(d, lambda d: body(d, "data-my-turn") == "1")
            d.find_element(By.ID, "coach-hint").click()
            wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#coach-out .coach-hint-line")
                 or "pensando" not in d.find_element(By.ID, "coach-out").text)
            if d.find_elements(By.CSS_SELECTOR, "#coach-out .coach-hint-line"):
                break
            ply = int(body(d, "data-ply") or 0)
            visible(d, "#hand .card.playable")[0].click()
            wait(d, lambda d, ply=ply: int(body(d, "data-ply") or 0) > ply)
        lines = [e.text for e in d.find_elements(By.CSS_SELECTOR, "#coach-out .coach-hint-line")]
        assert lines
        for line in lines:
            said = line.split(" — ", 1)[1]
            assert not ENGLISH.search(said), said
            assert not re.search("[♠♥♦♣]", said), said
            assert said.split()[0] in ("calato", "preso", "spazzato"), said
    finally:
        d.quit()
