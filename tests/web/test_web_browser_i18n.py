"""End to end in headless Chromium, the pages in Italian and Spanish, each deck's own card
names (static/cardnames.js): a Scopa game on Italian cards in Italian, chosen by the
browser's language, and an Escoba game on Spanish cards in Spanish, chosen with the
language switch; the capture choice, the log and the cards' accessible names are in the
deck's words ("Cavallo di coppe", "sette di denari"), never in French card signs."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from selenium.common.exceptions import (
    ElementClickInterceptedException,
    StaleElementReferenceException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait
from test_web_browser import body, make_browser, needs_chromium, served, visible, wait
from test_web_browser_games import engine_state
from test_web_browser_pages import open_as, post
from wsutil import ServerProcess

from chkobba.words.cards import card_name

pytestmark = needs_chromium

FRENCH_SIGNS = re.compile("[♠♥♦♣]")
RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]
"""The ranks of the 40-card decks in the notation, from the lowest."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from served(tmp_path_factory, "i18n")


def browser_speaking(lang: str) -> Any:
    """A laptop-sized Chromium whose language (navigator.languages, Accept-Language) is
    ``lang``."""
    d = make_browser("1280,800", accept_languages=f"{lang},en")
    return d


def texts(d: Any, css: str) -> list[str]:
    return list(d.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => e.textContent)", css))


def labels(d: Any, css: str) -> list[tuple[str, str]]:
    return [tuple(x) for x in d.execute_script(
        """return [...document.querySelectorAll(arguments[0])].map((e) =>
             [e.dataset.card || '', e.getAttribute('aria-label')]);""", css)]


def play_until_a_choice(
    d: Any, server: ServerProcess, game: str, token: str, breakdowns: list[str], rules: str
) -> str:
    """Play until the seat holds a card with two ways to capture, click it and return the
    capture choice's heading (the server's legal plays say which card has two); the text
    of each round's breakdown met on the way goes to ``breakdowns``. A random deal may
    offer no choice before the match ends: another game of ``rules`` is then played (the
    page's language stays), up to four."""
    deadline = time.monotonic() + 180
    games = 1
    while True:
        assert time.monotonic() < deadline, "no capture choice came in time"
        if body(d, "data-over") == "1":
            assert games < 4, "four games ended without a capture choice"
            games += 1
            made = post(server.base, "/api/games", {"rules": rules, "level": "random"})
            game, token = made["game"], made["token"]
            open_as(d, server.base, game, token)
            continue
        close = visible(d, "dialog[open] #breakdown-close")
        if close:
            breakdowns.append(d.find_element(By.ID, "breakdown").text)
            close[0].click()
            continue
        if body(d, "data-my-turn") != "1":
            time.sleep(0.05)
            continue
        state = engine_state(server, game, token)
        if str(state["ply"]) != body(d, "data-ply") or not state["legal"]:
            time.sleep(0.05)  # the page has not drawn the server's position yet: poll
            continue
        by_card: dict[str, int] = {}
        for move in state["legal"]:
            by_card[move.split(":")[0]] = by_card.get(move.split(":")[0], 0) + 1
        twice = [c for c, n in by_card.items() if n > 1]
        # Without a choice, a card that takes nothing, the lowest, is laid: the table
        # grows, and with it the ways to capture: a choice comes sooner.
        lays = [c for c in by_card if c in state["legal"]]
        card = twice[0] if twice else min(lays or by_card, key=lambda c: RANKS.index(c[:-1]))
        # The log is checked at the choice, so a choice met before any play has been
        # logged (the seat leads a random deal, or a round's log has just been cleared)
        # waits: another card is played first.
        unlogged = twice and not texts(d, "#log li")
        if unlogged:
            others = [c for c in by_card if c not in twice]
            card = others[0] if others else card
        ply = body(d, "data-ply")
        try:
            d.find_element(By.CSS_SELECTOR, f"#hand .card[data-card='{card}']").click()
        except (ElementClickInterceptedException, StaleElementReferenceException):
            # The hand was redrawn, or the round's breakdown opened over it, between
            # finding the card and clicking it: look again (the loop closes the dialog).
            continue
        if twice and unlogged and card in twice:
            # Every card has two ways: take the first, and look for a choice later.
            wait(d, lambda d: visible(d, "#choices button.choice"))
            d.find_element(By.CSS_SELECTOR, "#choices button.choice").click()
            wait(d, lambda d, ply=ply: body(d, "data-ply") != ply)
            continue
        if twice and not unlogged:
            wait(d, lambda d: visible(d, "#choices"))
            return str(WebDriverWait(
                d, 40, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,)
            ).until(lambda d: d.find_element(By.CSS_SELECTOR, "#choices div").text))
        wait(d, lambda d, ply=ply: body(d, "data-ply") != ply)


def check_words(d: Any, deck: str, lang: str, words: tuple[str, ...]) -> None:
    """The log and every card's accessible name are in ``deck``'s words in ``lang``."""
    wait(d, lambda d: len(texts(d, "#log li")) >= 1)
    log = " ".join(texts(d, "#log li"))
    assert not FRENCH_SIGNS.search(log), log
    assert any(w in log for w in words), log
    named = labels(d, "#hand .card, #table .card")
    assert named
    for code, label in named:
        assert label == card_name(code, deck, lang)


def test_scopa_on_italian_cards_in_italian(server: ServerProcess) -> None:
    d = browser_speaking("it-IT")
    try:
        # The browser speaks Italian: the lobby does too, without being asked.
        d.get(server.base + "/")
        wait(d, lambda d: body(d, "data-ready") == "1")
        assert d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "it"
        assert d.find_element(By.ID, "c-start").text == "Inizia"
        rules = Select(d.find_element(By.ID, "c-rules"))
        rules.select_by_value("scopa-di-quindici")
        assert rules.first_selected_option.text == "Scopa di quindici"
        assert "quindici" in d.find_element(By.ID, "c-game-line").text
        levels = [o.text for o in Select(d.find_element(By.ID, "c-level")).options]
        assert "Principiante" in levels and "random" not in levels
        made = post(server.base, "/api/games", {"rules": "scopa", "level": "random"})
        open_as(d, server.base, made["game"], made["token"])
        assert body(d, "data-deck") == "italian"
        wait(d, lambda d: d.find_element(By.ID, "game-name").text == "Scopa")
        breakdowns: list[str] = []
        heading = play_until_a_choice(
            d, server, made["game"], made["token"], breakdowns, "scopa"
        )
        for text in breakdowns:
            assert not FRENCH_SIGNS.search(text), text
        assert heading.startswith("Scegli cosa prendere con "), heading
        assert not FRENCH_SIGNS.search(heading), heading
        assert re.search(r"(Asso|Fante|Cavallo|Re|[2-7]) di (coppe|denari|bastoni|spade)",
                         heading), heading
        # Each way to capture shows its cards, named in full in Italian.
        for code, label in labels(d, "#choices .card"):
            assert label == card_name(code, "italian", "it")
        check_words(d, "italian", "it", (" di coppe", " di denari", " di bastoni", " di spade"))
        # The page's one place for card names, as the capture choice uses it.
        written = d.execute_async_script(
            """const done = arguments[arguments.length - 1];
               import('/static/common.js').then((m) => done([m.pretty('Jh'), m.pretty('7d')]));""")
        assert written == ["\u2068Cavallo di coppe\u2069", "\u20687 di denari\u2069"]
        # A name in Arabic script is isolated inside the Italian line; a Latin one is not.
        said = d.execute_async_script(
            """const done = arguments[arguments.length - 1];
               import('/static/i18n.js').then((m) => done([
                 m.t('winner', { name: 'مختبر' }), m.t('winner', { name: 'Selma' })]));""")
        assert said == ["Vince \u2068مختبر\u2069", "Vince Selma"]
    finally:
        d.quit()


def test_escoba_on_spanish_cards_in_spanish(server: ServerProcess) -> None:
    d = browser_speaking("en-GB")
    try:
        made = post(server.base, "/api/games", {"rules": "escoba-del-15", "level": "random"})
        open_as(d, server.base, made["game"], made["token"])
        assert d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
        # Chosen with the language switch, and remembered.
        Select(d.find_element(By.ID, "lang")).select_by_value("es")
        wait(d, lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "es")
        assert body(d, "data-deck") == "spanish"
        assert d.find_element(By.ID, "game-name").text == "Escoba del 15"
        breakdowns: list[str] = []
        heading = play_until_a_choice(
            d, server, made["game"], made["token"], breakdowns, "escoba-del-15"
        )
        for text in breakdowns:
            assert not FRENCH_SIGNS.search(text), text
        assert heading.startswith("Elige qué llevarte con "), heading
        assert not FRENCH_SIGNS.search(heading), heading
        assert re.search(r"(As|Sota|Caballo|Rey|[2-7]) de (copas|oros|bastos|espadas)",
                         heading), heading
        check_words(d, "spanish", "es", (" de copas", " de oros", " de bastos", " de espadas"))
        d.refresh()
        wait(d, lambda d: body(d, "data-ply") is not None)
        assert d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "es"
    finally:
        d.quit()
