"""In headless Chromium: the web app like an app on a phone (issue 27, §5). The service
worker installs and takes the page over; a page fetches only its own language's
catalogue; and with the server gone, a reload keeps the game's table on screen (cut off,
not playable) until the server is back, when the page reconnects by itself. And Touti
played by the number keys, which its "?" help lists."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_web_browser import browser_at, needs_chromium, visible
from test_web_browser_a11y import axe_problems
from test_web_browser_pages import open_as, post
from wsutil import ServerProcess

pytestmark = needs_chromium


@pytest.fixture
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # Its own server: the test stops it and starts it again.
    srv = ServerProcess(tmp_path_factory.mktemp("pwa"), "--bot-delay", "0")
    try:
        srv.start()
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def browser() -> Iterator[Any]:
    yield from browser_at("412,915")


def body(d: Any, name: str) -> str | None:
    """An attribute of the page's body, read without holding the element (the page reloads
    under the test)."""
    value = d.execute_script("return document.body && document.body.getAttribute(arguments[0])",
                             name)
    return None if value is None else str(value)


def wait(d: Any, cond: Any, timeout: float = 40) -> Any:
    """Wait for ``cond``, an element made stale by a reload meanwhile only looked at again."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(d, timeout, poll_frequency=0.05,
                         ignored_exceptions=(StaleElementReferenceException,)).until(cond)


def catalogues_fetched(d: Any) -> set[str]:
    """The catalogues the page itself fetched (not the service worker)."""
    names = d.execute_script(
        "return performance.getEntriesByType('resource').map((e) => e.name)"
        ".filter((n) => n.includes('/static/i18n/'))"
    )
    return {n.rsplit("/", 1)[1] for n in names}


def codes(d: Any, css: str) -> list[str]:
    """The cards ``css`` selects, read at once (the page redraws them as the game goes)."""
    return list(d.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((c) => c.dataset.card)", css
    ))


def controlled(d: Any) -> bool:
    return bool(d.execute_script("return navigator.serviceWorker.controller !== null"))


def test_installed_like_an_app_and_a_reload_offline_keeps_the_table(
    server: ServerProcess, browser: Any
) -> None:
    d = browser
    d.get(server.base + "/")
    wait(d, lambda d: body(d, "data-ready") == "1")
    # Only the page's language, English here.
    assert catalogues_fetched(d) == {"en.json"}
    # The worker installs (keeping every file) and takes the page over.
    wait(d, controlled, timeout=60)
    assert d.execute_script("return document.documentElement.dataset.sw") == "registered"
    assert axe_problems(d) == []
    # In French: French, and English for a word a catalogue would lack.
    d.execute_script("localStorage.setItem('chkobba.lang', 'fr')")
    d.refresh()
    wait(d, lambda d: body(d, "data-ready") == "1")
    assert catalogues_fetched(d) == {"fr.json", "en.json"}
    d.execute_script("localStorage.removeItem('chkobba.lang')")

    # Scopa: the hand is dealt at once (a game of Chkobba may begin with the cut).
    g = post(server.base, "/api/games", {"rules": "scopa", "level": "random", "target": 11})
    open_as(d, server.base, g["game"], g["token"])
    wait(d, lambda d: visible(d, "#hand .card"))
    hand = sorted(codes(d, "#hand .card"))
    ply = body(d, "data-ply")

    # The server goes away; a reload still shows the page, from the worker's cache, and
    # the table this tab last saw, cut off: nothing playable.
    server.stop()
    d.refresh()
    wait(d, lambda d: body(d, "data-kept") == "1")
    assert body(d, "data-ply") == ply
    assert sorted(codes(d, "#hand .card")) == hand
    assert visible(d, "#conn")
    assert not visible(d, "#hand .card.playable")
    # Card images came from the cache too: every card on screen is drawn.
    assert d.execute_script(
        "return [...document.querySelectorAll('#hand img, #table img')]"
        ".every((i) => i.complete && i.naturalWidth > 0)"
    )
    assert axe_problems(d) == []

    # The server is back: the page reconnects by itself and the game goes on.
    server.start()
    wait(d, lambda d: not visible(d, "#conn"), timeout=60)
    wait(d, lambda d: body(d, "data-my-turn") == "1", timeout=60)
    assert visible(d, "#hand .card.playable")

    # A new release's worker (here the same worker under another address) takes over the
    # open page, which reloads once: its shell and its scripts are then of one release.
    d.execute_script("window.beforeRelease = true;"
                     "navigator.serviceWorker.register('/sw.js?release=next')")
    wait(d, lambda d: d.execute_script("return window.beforeRelease === undefined"), timeout=60)
    wait(d, lambda d: body(d, "data-my-turn") == "1", timeout=60)


def test_touti_by_number_keys_with_their_help(server: ServerProcess, browser: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    d = browser
    made = post(server.base, "/api/games", {"game": "touti", "mode": "room", "name": "Selma",
                                            "computers": [None, "random", "random", "random"]})
    d.get(server.base + "/")
    d.execute_script(f"localStorage.setItem('touti.token.{made['game']}', '{made['token']}')")
    d.get(f"{server.base}/touti/{made['game']}")
    wait(d, lambda d: body(d, "data-my-turn") == "1")
    keys = ActionChains(d)
    # The help, under "?": the number keys are in it; Esc closes it.
    keys.send_keys("?").perform()
    wait(d, lambda d: visible(d, "#keys-help"))
    assert "0" in d.find_element(By.ID, "keys-help").text
    assert d.find_element(By.CSS_SELECTOR, "#keys-help dd").text.startswith("play the card")
    assert axe_problems(d) == []
    keys.send_keys(Keys.ESCAPE).perform()
    wait(d, lambda d: not visible(d, "#keys-help"))

    played = 0
    for _ in range(60):
        if played >= 3 or body(d, "data-over") == "1":
            break
        wait(d, lambda d: body(d, "data-my-turn") == "1" and (
            visible(d, "#t-hand .card.playable") or visible(d, "#t-actions button")))
        ply = body(d, "data-ply")
        cards, playable = codes(d, "#t-hand .card"), codes(d, "#t-hand .card.playable")
        if playable:
            place = cards.index(playable[-1])
            keys.send_keys("0" if place == 9 else str(place + 1)).perform()
            wait(d, lambda d, ply=ply: body(d, "data-ply") != ply)
            assert playable[-1] not in codes(d, "#t-hand .card")
            played += 1
        else:
            # Bidding, trumps, an announcement: the choice at that place; pass when offered.
            labels = d.execute_script(
                "return [...document.querySelectorAll('#t-actions button')]"
                ".map((b) => b.textContent)"
            )
            place = labels.index("pass") if "pass" in labels else 0
            keys.send_keys(str(place + 1)).perform()
            wait(d, lambda d, ply=ply: body(d, "data-ply") != ply)
    assert played >= 3 or body(d, "data-over") == "1"

    # The server goes away: a reload keeps Touti's table too, not playable, until it is back.
    wait(d, controlled, timeout=60)
    wait(d, lambda d: body(d, "data-my-turn") == "1" or body(d, "data-over") == "1")
    ply = body(d, "data-ply")
    server.stop()
    d.refresh()
    wait(d, lambda d: body(d, "data-kept") == "1")
    assert body(d, "data-ply") == ply and body(d, "data-my-turn") == "0"
    assert not visible(d, "#t-hand .card.playable") and not visible(d, "#t-actions button")
    server.start()
    wait(d, lambda d: body(d, "data-my-turn") == "1" or body(d, "data-over") == "1", timeout=60)
