"""End to end in headless Chromium, the cards, motion and sound (static/cards.js, motion.js,
sound.js): cards drawn as the chosen deck's SVG pictures, the deck and the sound toggle
remembered, whole games by taps on a phone and by clicks on a laptop, and a capture's
animation ending with the page showing the server's state."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from test_web_browser import (
    SHORT,
    as_new,
    body,
    browser_at,
    make_browser,
    needs_chromium,
    served,
    wait,
)
from test_web_browser_pages import open_as, post
from websockets.sync.client import connect
from wsutil import ServerProcess

from chkobba.words.cards import card_name

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from served(tmp_path_factory, "cards")


@pytest.fixture(scope="module")
def one_laptop() -> Iterator[Any]:
    yield from browser_at("1280,800")


@pytest.fixture
def laptop(one_laptop: Any) -> Any:
    # One browser for the module's tests at a laptop's size, made like new for each.
    return as_new(one_laptop, "1280,800")


def shown(d: Any, css: str) -> list[Any]:
    """The elements matching ``css`` that are displayed, found at once (the page may draw
    them again between two WebDriver calls)."""
    return list(
        d.execute_script(
            """return [...document.querySelectorAll(arguments[0])].filter((e) =>
                 e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden');""",
            css,
        )
    )


def new_game(server: ServerProcess, rules: str, target: int = 11) -> tuple[str, str]:
    made = post(server.base, "/api/games", {"rules": rules, "level": "random", "target": target})
    return str(made["game"]), str(made["token"])


def pictures(d: Any, css: str) -> list[dict[str, Any]]:
    """Each card under ``css``: its name, its picture's address and whether it loaded."""
    return list(
        d.execute_script(
            """return [...document.querySelectorAll(arguments[0])].map((c) => {
                 const img = c.querySelector('img.face');
                 return {card: c.dataset.card || null, label: c.getAttribute('aria-label'),
                         src: img ? new URL(img.src).pathname : null,
                         loaded: img ? img.complete && img.naturalWidth > 0 : false};
               });""",
            css,
        )
    )


def all_drawn_as(d: Any, deck: str) -> bool:
    # Before its first deal a Chkobba round may show only the card to cut (#cut).
    cards = pictures(d, "#hand .card, #table .card, #seats .card, #cut .card")
    return bool(cards) and all(
        c["loaded"] and c["src"] == f"/cards/{deck}/{c['card'] or 'back'}.svg" for c in cards
    )


def test_cards_are_the_chosen_decks_pictures_and_the_choice_is_remembered(
    server: ServerProcess, laptop: Any
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d = laptop
    game, token = new_game(server, "scopa")
    open_as(d, server.base, game, token)
    # Scopa's own deck is the Italian one (the summary's deck).
    wait(d, lambda d: all_drawn_as(d, "italian"))
    assert body(d, "data-deck") == "italian"
    hand = pictures(d, "#hand .card")
    # The picture replaces the text, the name stays for assistive tools, in full and in the
    # deck's words ("seven of coins").
    assert hand and all(c["label"] == card_name(c["card"], "italian", "en") for c in hand)
    assert Select(d.find_element(By.ID, "deck")).first_selected_option.get_attribute(
        "value"
    ) == "italian"

    Select(d.find_element(By.ID, "deck")).select_by_value("spanish")
    wait(d, lambda d: all_drawn_as(d, "spanish"))
    d.refresh()
    wait(d, lambda d: body(d, "data-ply") is not None)
    wait(d, lambda d: all_drawn_as(d, "spanish"))
    assert d.find_element(By.ID, "deck").get_attribute("value") == "spanish"

    # The choice was for the Italian-deck games: Chkobba still shows its French cards.
    other, other_token = new_game(server, "chkobba")
    open_as(d, server.base, other, other_token)
    wait(d, lambda d: all_drawn_as(d, "french"))
    # Touti shows its Spanish cards in the hand.
    d.get(server.base + "/touti")
    wait(d, lambda d: body(d, "data-ready") == "1")
    assert body(d, "data-deck") == "spanish"


def test_the_sound_toggle_is_off_at_first_and_remembered(
    server: ServerProcess, laptop: Any
) -> None:
    from selenium.webdriver.common.by import By

    d = laptop
    d.get(server.base + "/")
    wait(d, lambda d: body(d, "data-ready") == "1")
    toggle = d.find_element(By.ID, "sound")
    assert toggle.get_attribute("aria-pressed") == "false" and body(d, "data-sound") == "off"
    toggle.click()
    assert d.find_element(By.ID, "sound").get_attribute("aria-pressed") == "true"
    d.refresh()
    wait(d, lambda d: body(d, "data-ready") == "1")
    assert d.find_element(By.ID, "sound").get_attribute("aria-pressed") == "true"
    # Every page has it, Touti's too, in the same state.
    d.get(server.base + "/touti")
    wait(d, lambda d: body(d, "data-ready") == "1")
    assert d.find_element(By.ID, "sound").get_attribute("aria-pressed") == "true"
    d.find_element(By.ID, "sound").click()
    d.refresh()
    wait(d, lambda d: body(d, "data-ready") == "1")
    assert body(d, "data-sound") == "off"


def tap(d: Any, element: Any) -> None:
    """A touch on ``element`` (a finger, not a mouse)."""
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    actions = ActionBuilder(d, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    actions.pointer_action.move_to(element).pointer_down().pointer_up()
    actions.perform()


def redrawn(press: Any, element: Any) -> bool:
    """Press ``element``; False if the page drew it again meanwhile (the element found is
    gone) or covered it (the round's breakdown): look again."""
    from selenium.common.exceptions import (
        ElementClickInterceptedException,
        StaleElementReferenceException,
    )

    try:
        press(element)
    except (StaleElementReferenceException, ElementClickInterceptedException):
        return False
    return True


def click(element: Any) -> None:
    element.click()


def play_to_the_end(d: Any, press: Any) -> int:
    """Play the page's seat until the match is over; return the moves made."""
    moves = 0
    deadline = time.monotonic() + 240
    while body(d, "data-over") != "1":
        assert time.monotonic() < deadline, "the game did not end in time"
        close = shown(d, "dialog[open] #breakdown-close")
        if close:
            press(close[0])
            continue
        if body(d, "data-my-turn") != "1":
            time.sleep(0.02)
            continue
        ply = int(body(d, "data-ply") or 0)
        cut = shown(d, "#cut-keep")
        cards = shown(d, "#hand .card.playable")
        if not (cut or cards):
            time.sleep(0.02)
            continue
        if not redrawn(press, (cut or cards)[0]):
            continue
        choices = shown(d, "#choices button.choice")
        if choices and not redrawn(press, choices[0]):
            continue
        if advanced(d, ply):
            moves += 1
        # Otherwise the press fell on a page being redrawn (a touch has no stale-element
        # error to say so): look again and press again.
    return moves


def advanced(d: Any, ply: int, timeout: float = 10) -> bool:
    """Whether the game moves past ``ply`` within ``timeout`` seconds."""
    from selenium.common.exceptions import TimeoutException

    try:
        wait(d, lambda d: int(body(d, "data-ply") or 0) > ply, timeout=timeout)
    except TimeoutException:
        return False
    return True


@pytest.mark.parametrize(
    ("size", "touch", "rules"), [("390,844", True, "chkobba"), ("1280,800", False, "scopa")]
)
def test_a_game_is_played_to_its_end_on_a_phone_by_touch_and_on_a_laptop(
    server: ServerProcess, size: str, touch: bool, rules: str
) -> None:
    d = make_browser(size)
    try:
        if touch:
            width, height = (int(x) for x in size.split(","))
            d.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True},
            )
            d.execute_cdp_cmd(
                "Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5}
            )
        # A match of one round: the page is what is tested, not the match's length.
        game, token = new_game(server, rules, SHORT)
        open_as(d, server.base, game, token)
        wait(d, lambda d: shown(d, "#hand .card, #cut .card"))  # or the card to cut
        # Nothing wider than the screen: no sideways scrolling on the phone.
        assert d.execute_script("return document.documentElement.scrollWidth") <= int(
            size.split(",")[0]
        )
        press = (lambda e: tap(d, e)) if touch else (lambda e: e.click())
        moves = play_to_the_end(d, press)
        assert moves >= 10
        # The last round's breakdown opens at the match's end too: closed by a tap or a click.
        press(wait(d, lambda d: shown(d, "dialog[open] #breakdown-close"))[0])
        wait(d, lambda d: not shown(d, "dialog[open] #breakdown-close"))
        wait(d, lambda d: shown(d, "#over"))
    finally:
        d.quit()


def public_table(server: ServerProcess, game: str) -> tuple[int, list[str]]:
    """The game's ply and table as a spectator is told them."""
    url = server.base.replace("http", "ws") + "/ws"
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "game": game}))
        while True:
            msg = json.loads(ws.recv(timeout=10))
            if msg["type"] == "state":
                return int(msg["ply"]), list(msg["table"])


def test_with_motion_a_capture_is_animated_and_ends_as_the_state_says(
    server: ServerProcess,
) -> None:
    d = make_browser("1280,800", motion=True)
    try:
        game, token = new_game(server, "chkobba", 21)
        open_as(d, server.base, game, token)
        reduced = "return matchMedia('(prefers-reduced-motion: reduce)').matches"
        assert d.execute_script(reduced) is False
        # Every change of the page's motion markers, as it happens.
        d.execute_script(
            """window.seen = [];
               new MutationObserver(() => window.seen.push([document.body.dataset.lastMotion,
                   document.body.dataset.animating, document.querySelectorAll('.ghost').length]))
                 .observe(document.body, {attributes: true,
                   attributeFilter: ['data-last-motion', 'data-animating']});"""
        )

        def captured(d: Any) -> bool:
            return any(
                m in ("capture", "sweep", "collect") and n == "1" and ghosts > 0
                for m, n, ghosts in d.execute_script("return window.seen")
            )

        deadline = time.monotonic() + 180
        while not captured(d):
            assert time.monotonic() < deadline, "no capture was animated"
            assert body(d, "data-over") != "1"
            close = shown(d, "dialog[open] #breakdown-close")
            if close:
                close[0].click()
                continue
            cut = shown(d, "#cut-keep")
            cards = shown(d, "#hand .card.playable")
            if body(d, "data-my-turn") != "1" or not (cut or cards):
                time.sleep(0.05)
                continue
            ply = int(body(d, "data-ply") or 0)
            if not redrawn(click, (cut or cards)[0]):
                continue
            choices = shown(d, "#choices button.choice")
            if choices and not redrawn(click, choices[0]):
                continue
            # A click on a card still moving may miss it: then look again.
            advanced(d, ply)
        # The cards flew; once every animation is over the page shows what the server says.
        deadline = time.monotonic() + 30
        while True:
            ply, table = public_table(server, game)
            on_page = [c["card"] for c in pictures(d, "#table .card")]
            if (
                body(d, "data-animating") == "0"
                and int(body(d, "data-ply") or -1) == ply
                and sorted(on_page) == sorted(table)
                and not d.execute_script("return document.querySelectorAll('.ghost').length")
            ):
                break
            assert time.monotonic() < deadline, (ply, table, on_page, body(d, "data-animating"))
            time.sleep(0.3)
        assert d.find_element("id", "last-move").is_displayed()
    finally:
        d.quit()
