"""In headless Chromium: a rules page begins with how to play and its worked example, the
example's cards drawn in the game's own deck and named in its words and the page's
language (issue 27 §4): Scopa in Italian, Escoba del 15 in Spanish, Touti in Arabic
(checked by axe-core too)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from test_web_browser import body, browser_at, needs_chromium, served, wait
from test_web_browser_a11y import axe_problems
from wsutil import ServerProcess

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from served(tmp_path_factory, "rulespages")


@pytest.fixture
def browser() -> Iterator[Any]:
    yield from browser_at("1280,800")


def open_rules(d: Any, base: str, name: str, lang: str) -> None:
    d.get(base + "/")
    d.execute_script("localStorage.setItem('chkobba.lang', arguments[0])", lang)
    d.get(f"{base}/rules/{name}")
    wait(d, lambda d: body(d, "data-ready") == "1" and body(d, "data-rules") == name)


def texts(d: Any, css: str) -> list[str]:
    return [e.text for e in d.find_elements(By.CSS_SELECTOR, css)]


def labels(d: Any, css: str) -> list[str]:
    return [e.get_attribute("aria-label") for e in d.find_elements(By.CSS_SELECTOR, css)]


def test_rules_pages_teach_the_game_in_its_deck_and_language(
    server: ServerProcess, browser: Any
) -> None:
    d = browser
    open_rules(d, server.base, "scopa", "it")
    assert d.find_element(By.ID, "howto-title").text == "Come si gioca"
    # How to play comes before the options.
    order = d.execute_script(
        "return ['howto', 'example', 'rules-options'].map((id) =>"
        " document.getElementById(id).getBoundingClientRect().top)")
    assert order == sorted(order)
    assert texts(d, "#howto-text p")[0].startswith("La scopa è il gioco di presa italiano")
    first = d.find_element(By.CSS_SELECTOR, "#example-steps li[data-step='0']")
    # The Italian deck: its pictures and its names, in the text and for screen readers.
    assert "7 di denari" in first.text and "7 di spade" in first.text
    assert "/cards/italian/" in first.find_element(By.CSS_SELECTOR, "img.face").get_attribute("src")
    assert labels(d, "#example-steps li[data-step='0'] .ex-play .card") == ["sette di denari"]
    last = texts(d, "#example-steps li[data-step='2'] .ex-text")[0]
    assert "scopa" in last and "Re di denari" in last
    rows = texts(d, "#example-count tr[data-point] th .translit")
    assert rows == ["carte", "denari", "settebello", "primiera", "scope"]

    open_rules(d, server.base, "escoba-del-15", "es")
    assert d.find_element(By.ID, "howto-title").text == "Cómo se juega"
    step = texts(d, "#example-steps li[data-step='1'] .ex-text")[0]
    assert "Sota de oros" in step and "15" in step
    picture = d.find_element(By.CSS_SELECTOR, "#example img.face")
    assert "/cards/spanish/" in picture.get_attribute("src")

    open_rules(d, server.base, "touti", "ar")
    assert d.find_element(By.TAG_NAME, "html").get_attribute("dir") == "rtl"
    assert len(d.find_elements(By.CSS_SELECTOR, "#example-steps li")) == 4
    # The caballo of oros, in Arabic words.
    assert "فارس" in d.find_element(By.CSS_SELECTOR, "#example-steps li[data-step='3']").text
    assert not axe_problems(d)
