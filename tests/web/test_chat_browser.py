"""In headless Chromium: the chat at the table (issue 26, section 4). Two players and a
signed-in spectator in a room: a quick phrase tapped in Italian reads in French to the
other player; the spectators' channel stays apart from the players'; markup shows as
text; muting a player hides their messages, unmuting shows them again; at a table of
partners a player has the quick phrases only, and the panel says why."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from test_web_browser import body, make_browser, needs_chromium, served, visible, wait
from test_web_browser_pages import post
from wsutil import ServerProcess

pytestmark = needs_chromium

XSS = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from served(tmp_path_factory, "chat")


def open_game(d: Any, base: str, game: str, token: str | None, lang: str) -> None:
    d.get(base + "/")
    d.execute_script("localStorage.setItem('chkobba.lang', arguments[0])", lang)
    # The panel open whatever the window's size (a phone's starts folded).
    d.execute_script("localStorage.setItem('chkobba.chat.open', '1')")
    if token is not None:
        d.execute_script(f"localStorage.setItem('chkobba.token.{game}', '{token}')")
    d.get(f"{base}/g/{game}")
    wait(d, lambda d: body(d, "data-ply") is not None and body(d, "data-chat") == "on")


def lines(d: Any) -> list[str]:
    return list(d.execute_script(
        "return [...document.querySelectorAll('#chat-log li')].map((li) => li.textContent)"
    ))


def shows(d: Any, text: str) -> bool:
    return any(text in line for line in lines(d))


def test_two_players_and_a_spectator_chat(server: ServerProcess) -> None:
    base = server.base
    # Another host name, another origin: the spectator's tab keeps its own storage.
    other = base.replace("127.0.0.1", "localhost")
    made = post(base, "/api/games", {"mode": "room", "seating": "2", "name": "Marco"})
    game = made["game"]
    joined = post(base, f"/api/games/{game}/join", {"name": "Claire"})
    it, fr = make_browser("1280,800"), make_browser("390,844")
    try:
        open_game(it, base, game, made["token"], "it")
        open_game(fr, base, game, joined["token"], "fr")
        # One tap on a quick phrase, in Italian; it reads in French on the other side.
        phrase = it.find_element(By.CSS_SELECTOR, '#chat-quick button[data-phrase="good_game"]')
        assert phrase.text == "Bella partita!"
        phrase.click()
        wait(fr, lambda d: shows(d, "Marco: Bonne partie !"))
        wait(it, lambda d: shows(d, "Marco: Bella partita!"))
        # A screen reader is told of it.
        told = fr.find_element(By.ID, "chat-announce").get_attribute("textContent")
        assert "Bonne partie" in str(told)

        # A signed-in spectator, in a second tab of the Italian player's browser.
        it.switch_to.new_window("tab")
        it.get(other + "/")
        signed = it.execute_async_script(
            "const done = arguments[0];"
            "fetch('/api/account/signup', {method: 'POST', headers: {'Content-Type': "
            "'application/json'}, body: JSON.stringify({name: 'Watcher', password: "
            "'correct horse battery'})}).then((r) => done(r.status));"
        )
        assert signed == 201
        open_game(it, other, game, None, "es")
        it.find_element(By.ID, "chat-input").send_keys("hola desde la grada")
        it.find_element(By.ID, "chat-send").click()
        wait(it, lambda d: shows(d, "Watcher (espectador): hola desde la grada"))
        assert not shows(it, "Bella partita")  # the players' channel is theirs

        # Markup typed by a player is text on every page, and the players' alone.
        fr.find_element(By.ID, "chat-input").send_keys(XSS)
        fr.find_element(By.ID, "chat-send").click()
        tabs = it.window_handles
        it.switch_to.window(tabs[0])
        wait(it, lambda d: shows(d, f"Claire: {XSS}"))
        assert not it.find_elements(By.CSS_SELECTOR, "#chat-log img")
        assert not shows(it, "hola desde la grada")
        assert not shows(fr, "hola desde la grada")
        assert not fr.find_elements(By.CSS_SELECTOR, "#chat-log img")

        # Claire mutes Marco: his messages go, the next ones too, until she unmutes him.
        mute = fr.find_element(By.CSS_SELECTOR, '#chat-log li[data-author^="g:"] .chat-mute')
        assert mute.get_attribute("aria-label") == "Ignorer Marco"
        mute.click()
        wait(fr, lambda d: not shows(d, "Marco:"))
        it.find_element(By.CSS_SELECTOR, '#chat-quick button[data-phrase="thanks"]').click()
        wait(it, lambda d: shows(d, "Marco: Grazie!"))
        fr.find_element(By.ID, "chat-input").send_keys("encore là ?")
        fr.find_element(By.ID, "chat-send").click()
        wait(fr, lambda d: shows(d, "Claire: encore là ?"))
        assert not shows(fr, "Marco:")
        assert fr.execute_script("return localStorage.getItem('chkobba.chat.muted')")
        fr.find_element(By.CSS_SELECTOR, "#chat-muted button").click()
        wait(fr, lambda d: shows(d, "Marco: Merci !") and shows(d, "Marco: Bonne partie !"))

        # At a table of partners a player has only the quick phrases, and is told why,
        # until the game is over.
        team = post(base, "/api/games", {"mode": "room", "seating": "2v2", "name": "Claire"})
        for name in ("Amel", "Hedi", "Nour"):
            post(base, f"/api/games/{team['game']}/join", {"name": name})
        d = it
        open_game(d, base, team["game"], team["token"], "fr")
        assert body(d, "data-chat-phrases-only") == "1"
        assert not d.find_element(By.ID, "chat-input").is_displayed()
        assert d.find_element(By.CSS_SELECTOR, "#chat-quick button").is_displayed()
        assert "phrases rapides seulement" in d.find_element(By.ID, "chat-note").text
        assert "partenaires : phrases rapides" in d.find_element(By.ID, "life-settings").text
        visible(d, "#resign-btn")[0].click()
        wait(d, lambda d: visible(d, "#resign-yes"))
        visible(d, "#resign-yes")[0].click()
        wait(d, lambda d: d.find_element(By.ID, "chat-input").is_displayed())
        assert body(d, "data-chat-phrases-only") == "0"
    finally:
        it.quit()
        fr.quit()
