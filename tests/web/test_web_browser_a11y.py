"""In headless Chromium: the pages for the keyboard and the screen reader (issue 27, §3).
axe-core (axe-selenium-python, which ships axe.min.js: nothing is downloaded) on every page
and game screen, in every language, at a desktop and a phone size: no serious or critical
violation; and a whole game played with the keyboard alone, the focus kept on the hand,
every move told to a screen reader through the live region."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from test_web_browser import (
    SHORT,
    body,
    needs_chromium,
    served,
    shared_browser,
    visible,
    wait,
)
from test_web_browser_pages import open_as, post
from wsutil import ServerProcess, play_out

from chkobba.words import LANGUAGES

pytestmark = needs_chromium

SIZES = ["1280,800", "390,844"]
"""A desktop and a phone."""
PHONE_LANGUAGES = ["fr", "ar"]
"""The languages the pages are checked in at the phone's size (each is checked in every
language at the desktop's): one written left to right, with the longest words of the
five, and the one written right to left."""


def sweep() -> list[tuple[str, str]]:
    """The (size, language) pairs each page is checked at: every language at the desktop's
    size, and the phone's in :data:`PHONE_LANGUAGES`.

    What axe-core finds can differ by language (the names, labels and ``lang`` of the
    words shown; their length; the direction) or by size (what is shown or hidden, laid
    out, stacked or overlapping at a phone's width), and each of these is checked. The
    phone's size meets both directions (the stylesheets key rules on ``dir="rtl"`` and on
    the width, on no language) and the longest words; what is left out would differ only
    at a phone's size in English, Italian or Spanish: words missing from one catalogue
    (the catalogues' test wants every key in all five) or shorter words than French's. So
    the whole grid, ten pairs instead of seven, would check nothing more."""
    return [(SIZES[0], lang) for lang in LANGUAGES] + [(SIZES[1], lang) for lang in PHONE_LANGUAGES]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # A game is played out over a socket of the test's own, faster than a person would.
    yield from served(tmp_path_factory, "a11y", "--rate", "10000")


one_browser, browser = shared_browser("1280,800")


def set_size(d: Any, size: str) -> None:
    """The page's viewport at ``size`` ("390,844"), emulated (a headless window cannot be
    narrower than 500 pixels); below 760 pixels wide, as a phone."""
    w, h = (int(x) for x in size.split(","))
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": w, "height": h, "deviceScaleFactor": 1, "mobile": w < 760,
    })


def axe_problems(d: Any) -> list[str]:
    """The serious and critical violations axe-core finds on the page shown."""
    from axe_selenium_python import Axe

    axe = Axe(d)
    axe.inject()
    found = axe.run(options="{resultTypes: ['violations']}")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(n["target"][0] if n["target"] else "?" for n in v["nodes"][:4])
        for v in found["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def pages(server: ServerProcess) -> list[tuple[str, str, str | None, str]]:
    """Every page and game screen: (name, address, "key=token" of its seat or None, the
    body attribute that says it is drawn)."""
    base = server.base
    chkobba = post(base, "/api/games", {"rules": "chkobba", "level": "random"})
    scopa = post(base, "/api/games", {"rules": "scopa", "level": "random", "seating": "4"})
    touti = post(base, "/api/games", {"game": "touti", "mode": "room", "name": "Selma",
                                      "computers": [None, "random", "random", "random"]})
    done = post(base, "/api/games", {"rules": "scopa", "level": "random", "target": SHORT})
    play_out(base, done["game"], done["token"])
    post(base, "/api/account/signup", {"name": "Amel", "password": "a long password"})
    chat = post(base, "/api/games", {"mode": "room", "seating": "2", "name": "Amel"})
    talk(base, chat["game"], post(base, f"/api/games/{chat['game']}/join", {})["token"])

    def seat(kind: str, made: dict[str, Any]) -> str:
        return f"{kind}.token.{made['game']}={made['token']}"

    return [
        ("lobby", f"{base}/", None, "data-ready"),
        ("chkobba", f"{base}/g/{chkobba['game']}", seat("chkobba", chkobba), "data-ply"),
        ("scopa", f"{base}/g/{scopa['game']}", seat("chkobba", scopa), "data-ply"),
        # A room between people whose chat has messages: their mute and report buttons.
        ("chat", f"{base}/g/{chat['game']}", seat("chkobba", chat), "data-chat"),
        ("touti", f"{base}/touti/{touti['game']}", seat("touti", touti), "data-ready"),
        ("rules", f"{base}/rules/scopa", None, "data-ready"),
        ("replay", f"{base}/replay/{done['game']}", None, "data-ready"),
        ("analyse", f"{base}/analyse", None, "data-ready"),
        ("leaderboard", f"{base}/leaderboard", None, "data-ready"),
        ("profile", f"{base}/u/Amel", None, "data-ready"),
        ("moderation", f"{base}/moderation", None, "data-ready"),
    ]


def talk(base: str, game: str, token: str) -> None:
    """Seat 1 says a quick phrase and a line of markup in the room's chat."""
    from websockets.sync.client import connect

    with connect(base.replace("http", "ws") + "/ws") as ws:
        ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
        for n, said in enumerate(({"phrase": "good_luck"}, {"text": "<b>hi</b> https://x.example"})):
            ws.send(json.dumps({"type": "chat", **said, "id": n}))
            while json.loads(ws.recv(timeout=30)).get("re") != n:
                pass


def test_axe_finds_nothing_serious_on_any_page(server: ServerProcess, browser: Any) -> None:
    d = browser
    shown = pages(server)
    d.get(server.base + "/")
    for _, _, token, _ in shown:
        if token:
            d.execute_script("localStorage.setItem(arguments[0], arguments[1])",
                             *token.split("=", 1))
    problems: list[str] = []
    checked = 0
    for size, lang in sweep():
        set_size(d, size)
        d.execute_script("localStorage.setItem('chkobba.lang', arguments[0])", lang)
        for name, url, _, ready in shown:
            d.get(url)
            wait(d, lambda d, ready=ready: body(d, ready) is not None)
            assert d.find_element(By.TAG_NAME, "html").get_attribute("lang") == lang
            problems += [f"{name} {lang} {size}: {p}" for p in axe_problems(d)]
            checked += 1
    assert checked == (len(LANGUAGES) + len(PHONE_LANGUAGES)) * len(shown)
    assert not problems, "\n".join(problems)


def press(d: Any, key: str) -> None:
    """A key pressed where the focus is (the page itself when nothing has it)."""
    ActionChains(d).send_keys(key).perform()


def focus_at_table(d: Any) -> bool:
    return bool(d.execute_script(
        "const a = document.activeElement;"
        "return ['hand', 'choices', 'cut'].some((id) => document.getElementById(id).contains(a));"
    ))


def told(d: Any) -> str:
    return str(d.find_element(By.ID, "announce").get_attribute("textContent"))


def test_a_whole_game_with_the_keyboard_alone(server: ServerProcess, browser: Any) -> None:
    d = browser
    made = post(server.base, "/api/games", {"rules": "chkobba", "level": "random", "target": 11,
                                            "name": "Selma"})
    open_as(d, server.base, made["game"], made["token"])
    # The help, under "?".
    press(d, "?")
    wait(d, lambda d: visible(d, "dialog#keys-help[open]"))
    assert "Keyboard shortcuts" in d.find_element(By.ID, "keys-help").text
    press(d, Keys.ESCAPE)
    wait(d, lambda d: not visible(d, "dialog#keys-help[open]"))
    # The hand in one key press.
    press(d, "h")
    assert focus_at_table(d)
    # The other seats' hidden cards are named as such.
    backs = d.find_element(By.CSS_SELECTOR, '.seat:not(.me) .backs').get_attribute("aria-label")
    assert backs.startswith("Computer 2") and backs.endswith("cards")
    moves = rounds = separators = 0
    deadline = time.monotonic() + 300
    while body(d, "data-over") != "1":
        assert time.monotonic() < deadline, "the game did not end in time"
        if visible(d, "dialog#breakdown[open]"):
            rounds += 1
            # The round's result told as the breakdown shows it.
            assert "is over" in told(d) and "Points this round" in told(d)
            press(d, Keys.ESCAPE)
            wait(d, lambda d: not visible(d, "dialog#breakdown[open]"))
            # The last round's plays and the new round's apart, under its number.
            separators += len(visible(d, "#log li.round-sep"))
            continue
        if body(d, "data-my-turn") != "1":
            time.sleep(0.02)
            continue
        ply = int(body(d, "data-ply") or 0)
        if visible(d, "#cut-keep"):
            press(d, "k")
        else:
            press(d, "1")
            if visible(d, "#choices button.choice"):
                # The capture choice opens with the focus on its first choice.
                assert focus_at_table(d)
                press(d, "1")
        moves += 1
        wait(d, lambda d, ply=ply: int(body(d, "data-ply") or 0) > ply
             or visible(d, "dialog#breakdown[open]"))
        # After the move the focus is still at the table, not dropped to the page.
        if d.find_elements(By.CSS_SELECTOR, "#hand .card") and not visible(d, "dialog[open]"):
            wait(d, lambda d: focus_at_table(d), timeout=5)
    assert moves >= 18 and rounds >= 1 and separators >= 1
    # The screen reader was told the moves, the turns and each round's result.
    said = told(d)
    assert "Selma lays" in said or "Selma plays" in said
    assert "wins" in said or "The match is over" in said


def test_axe_finds_nothing_serious_in_play_now_and_challenges(
    server: ServerProcess, browser: Any
) -> None:
    """The lobby's "Play now" panel and challenges in their states: a challenge received
    (by its link), then waiting in the queue with the computer offered and a challenge
    sent, its link shown; in every language, at both sizes (:func:`sweep`)."""
    d = browser
    problems: list[str] = []
    for size, lang in sweep():
        set_size(d, size)
        link = post(server.base, "/api/challenges", {"pool": "scopa", "name": "Selma"})
        d.get(server.base + "/")
        d.execute_script("localStorage.setItem('chkobba.lang', arguments[0])", lang)
        d.get(f"{server.base}/#challenge={link['challenge']}")
        wait(d, lambda d: body(d, "data-ready") == "1")
        wait(d, lambda d: visible(d, "#incoming li button"))
        problems += [f"challenged {lang} {size}: {p}" for p in axe_problems(d)]
        d.find_element(By.ID, "p-go").click()
        wait(d, lambda d: body(d, "data-queue") == "waiting")
        # The offer of the computer comes after a wait the player chose (30 s at the
        # least): shown here as the page shows it then, without the wait.
        d.execute_script("document.getElementById('p-computer').classList.remove('hidden')")
        d.find_element(By.ID, "x-send").click()
        wait(d, lambda d: visible(d, "#x-link"))
        problems += [f"waiting {lang} {size}: {p}" for p in axe_problems(d)]
        # Out of the queue and the challenge taken back, with the keyboard's buttons.
        d.find_element(By.ID, "p-cancel").click()
        wait(d, lambda d: visible(d, "#p-go"))
        d.find_element(By.ID, "x-cancel").click()
        wait(d, lambda d: visible(d, "#x-send"))
    assert not problems, "\n".join(problems)
