"""Accounts in headless Chromium: sign up from the lobby's header, log out, log in again,
and find the game just started in the account page's games; names shown as text."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from test_web_browser import (
    body,
    needs_chromium,
    served,
    shared_browser,
    visible,
    wait,
)
from wsutil import ServerProcess

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from served(tmp_path_factory, "accounts")


one_browser, browser = shared_browser("412,915")


def post(base: str, path: str, data: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        base + path, json.dumps(data).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        return dict(json.loads(r.read()))


def test_sign_up_log_out_log_in_and_see_the_account(server: ServerProcess, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d = browser
    d.get(server.base + "/")
    wait(d, lambda d: body(d, "data-ready") == "1")
    link = d.find_element(By.ID, "account-link")
    wait(d, lambda d: link.text == "Log in")
    link.click()
    wait(d, lambda d: "/account" in d.current_url and body(d, "data-ready") == "1")
    assert body(d, "data-signed-in") == "0"
    d.find_element(By.ID, "s-name").send_keys("Amira_7")
    d.find_element(By.ID, "s-password").send_keys("a long enough password")
    d.find_element(By.ID, "s-go").click()
    wait(d, lambda d: body(d, "data-signed-in") == "1")
    assert d.find_element(By.ID, "who").text == "Signed in as Amira_7"
    # The session cookie is out of the page's reach.
    assert "chkobba_session" not in d.execute_script("return document.cookie")

    d.find_element(By.ID, "logout").click()
    wait(d, lambda d: body(d, "data-signed-in") == "0" and visible(d, "#login-form"))
    d.find_element(By.ID, "l-name").send_keys("amira_7")
    d.find_element(By.ID, "l-password").send_keys("a wrong password")
    d.find_element(By.ID, "l-go").click()
    wait(d, lambda d: "wrong user name or password" in d.find_element(By.ID, "l-error").text)
    d.find_element(By.ID, "l-password").clear()
    d.find_element(By.ID, "l-password").send_keys("a long enough password")
    d.find_element(By.ID, "l-go").click()
    wait(d, lambda d: body(d, "data-signed-in") == "1")
    assert "No game yet." in d.find_element(By.ID, "games").text

    # A game from the lobby, under the account's name, is in the account's games.
    d.get(server.base + "/")
    wait(d, lambda d: body(d, "data-ready") == "1")
    wait(d, lambda d: d.find_element(By.ID, "account-link").text == "Amira_7")
    assert d.find_element(By.ID, "c-name").get_attribute("value") == "Amira_7"
    d.find_element(By.ID, "c-start").click()
    wait(d, lambda d: "/g/" in d.current_url and body(d, "data-ply") is not None)
    game = d.current_url.rsplit("/", 1)[1]
    # The seat shows the account's name, marked as an account's.
    wait(d, lambda d: visible(d, ".seat.me .member"))
    assert "Amira_7" in d.find_element(By.CSS_SELECTOR, ".seat.me .who").text
    d.get(server.base + "/account")
    wait(d, lambda d: body(d, "data-signed-in") == "1")
    item = d.find_element(By.CSS_SELECTOR, f'#games li[data-game="{game}"]')
    assert "being played" in item.text
    item.find_element(By.LINK_TEXT, "Open").click()
    wait(d, lambda d: d.current_url.endswith(f"/g/{game}") and body(d, "data-ply") is not None)

    # Touti's page marks the account's seat the same way; the computers' seats are unmarked.
    d.get(server.base + "/")
    wait(d, lambda d: body(d, "data-ready") == "1")
    Select(d.find_element(By.ID, "c-rules")).select_by_value("touti")
    d.find_element(By.ID, "c-start").click()
    wait(d, lambda d: "/touti/" in d.current_url and body(d, "data-ply") is not None)
    wait(d, lambda d: visible(d, ".touti-seat .member"))
    marked = d.find_elements(By.CSS_SELECTOR, ".touti-seat .member")
    assert len(marked) == 1
    assert marked[0].get_attribute("title")


def test_names_are_shown_as_text(server: ServerProcess, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    d = browser
    name = '<img id="inj" src=x onerror="window.pwned=1">'
    room = post(server.base, "/api/games", {"mode": "room", "name": name[:24]})
    post(server.base, f"/api/games/{room['game']}/join", {"name": "<b id=inj2>B</b>"})
    d.get(server.base + "/")
    wait(d, lambda d: body(d, "data-ready") == "1")
    wait(d, lambda d: name[:24] in d.find_element(By.ID, "playing").text)
    assert "<b id=inj2>B</b>" in d.find_element(By.ID, "playing").text
    assert not d.find_elements(By.ID, "inj") and not d.find_elements(By.ID, "inj2")
    assert d.execute_script("return window.pwned") is None


def test_log_out_everywhere_signs_out_the_other_browser(server: ServerProcess) -> None:
    """Signed in on two browsers; "Log out everywhere" on one signs the other out too."""
    from selenium.webdriver.common.by import By
    from test_web_browser import make_browser

    browsers = [make_browser("1280,800"), make_browser("390,844")]
    try:
        for n, d in enumerate(browsers):
            d.get(server.base + "/account")
            wait(d, lambda d: body(d, "data-ready") == "1")
            if n == 0:
                d.find_element(By.ID, "s-name").send_keys("Nour")
                d.find_element(By.ID, "s-password").send_keys("a long enough password")
                d.find_element(By.ID, "s-go").click()
            else:
                d.find_element(By.ID, "l-name").send_keys("nour")
                d.find_element(By.ID, "l-password").send_keys("a long enough password")
                d.find_element(By.ID, "l-go").click()
            wait(d, lambda d: body(d, "data-signed-in") == "1")
        here, there = browsers
        there.find_element(By.ID, "logout-all").click()
        wait(there, lambda d: body(d, "data-signed-in") == "0")
        here.refresh()
        wait(here, lambda d: body(d, "data-ready") == "1")
        wait(here, lambda d: body(d, "data-signed-in") == "0")
    finally:
        for d in browsers:
            d.quit()
