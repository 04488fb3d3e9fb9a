"""The pages' defects of issue 13 (section 4), each checked in headless Chromium: the share
link's box, a guest's coach controls, the lobby's words, no turn while waiting, raised cards
under the hand's label, a computer's name at the start of a sentence, and the online dots."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import (
    body,
    choose_lang,
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
    yield from served(tmp_path_factory, "pages")


one_browser, browser = shared_browser("412,915")


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        return dict(json.loads(r.read()))


def open_as(d: Any, base: str, game: str, token: str | None) -> None:
    """Open a game's page, holding the seat of ``token`` (None: as a visitor)."""
    d.get(base + "/")
    if token is not None:
        d.execute_script(f"localStorage.setItem('chkobba.token.{game}', '{token}')")
    d.get(f"{base}/g/{game}")
    wait(d, lambda d: body(d, "data-ply") is not None)


def rect(d: Any, css: str) -> dict[str, float]:
    return dict(
        d.execute_script(f"return document.querySelector({css!r}).getBoundingClientRect()")
    )


def test_the_share_link_box_has_room(server: ServerProcess, browser: Any) -> None:
    d = browser
    room = post(server.base, "/api/games", {"mode": "room", "name": "Hedi"})
    open_as(d, server.base, room["game"], room["token"])
    wait(d, lambda d: visible(d, "#share-url"))
    box, link, copy = rect(d, ".sharebox"), rect(d, "#share-url"), rect(d, "#copy")
    # The link takes most of the row, the button only what its word needs.
    assert link["width"] > 0.6 * box["width"], (link, box)
    assert copy["width"] < 0.35 * box["width"]
    assert abs(link["top"] - copy["top"]) < 20  # side by side


def test_no_turn_outline_while_waiting_and_a_guest_gets_the_coach(
    server: ServerProcess, browser: Any
) -> None:
    from selenium.webdriver.common.by import By

    d = browser
    # Coaching is a room setting, off by default between people: this room turns it on.
    room = post(server.base, "/api/games", {"mode": "room", "name": "Hedi", "coaching": True})
    open_as(d, server.base, room["game"], None)
    wait(d, lambda d: visible(d, "#join-box"))
    # The game has not started: no seat is outlined as the one to move.
    assert d.find_elements(By.CSS_SELECTOR, "#seats .seat")
    assert not d.find_elements(By.CSS_SELECTOR, "#seats .seat.turn")
    assert not d.find_elements(By.ID, "coach-hint")  # a visitor has no seat to coach
    d.find_element(By.ID, "join-name").send_keys("Ines")
    d.find_element(By.ID, "join-btn").click()
    # Seated, without a reload: the coach's controls appear.
    wait(d, lambda d: d.find_elements(By.ID, "coach-opt-hints"), timeout=15)
    assert body(d, "data-seat") == "1"
    # Every seat taken, the game starts: the other seat is outlined when it is to move.
    wait(d, lambda d: not visible(d, "#waiting"))
    theirs = body(d, "data-turn") != "1"
    assert bool(d.find_elements(By.CSS_SELECTOR, "#seats .seat.turn")) == theirs


def test_the_lobby_link_to_the_analysis_is_translated(
    server: ServerProcess, browser: Any
) -> None:
    from selenium.webdriver.common.by import By

    d = browser
    d.get(server.base + "/")
    wait(d, lambda d: body(d, "data-ready") == "1")
    texts = {}
    for lang in ("fr", "ar", "en"):
        choose_lang(d, lang)
        texts[lang] = d.find_element(By.ID, "analyse-link").text
    assert texts["en"] == "Analyse a game record with the expert"
    assert "Analyser" in texts["fr"] and "حلّل" in texts["ar"]


def test_raised_cards_stay_below_the_hands_label(server: ServerProcess, browser: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    d = browser
    g = post(server.base, "/api/games", {"mode": "computer", "level": "random", "target": 11})
    open_as(d, server.base, g["game"], g["token"])
    # The cut button can show before the seat's turn is live; a click then is lost, so
    # decide the cut only on our turn and wait for the ply it makes.
    my_turn = lambda d: body(d, "data-my-turn") == "1"  # noqa: E731
    wait(d, lambda d: my_turn(d) and (visible(d, "#hand .card.playable")
                                      or visible(d, "#cut-keep")))
    if visible(d, "#cut-keep"):  # this seat cuts first: decide, then play
        ply = int(body(d, "data-ply") or 0)
        visible(d, "#cut-keep")[0].click()
        wait(d, lambda d: int(body(d, "data-ply") or 0) > ply)
        wait(d, lambda d: my_turn(d) and visible(d, "#hand .card.playable"))
    label = rect(d, "#hand-zone h3")
    outline = 3  # px, drawn outside the card's box
    for card in visible(d, "#hand .card.playable"):
        ActionChains(d).move_to_element(card).perform()  # hovered: raised the most
        # Hovered, and past any transition (none today, reduced motion or not).
        wait(d, lambda d, card=card: d.execute_script(
            """const c = arguments[0];
               return c.matches(':hover')
                 && c.getAnimations().every((a) => a.playState !== 'running');""", card))
        top = float(d.execute_script("return arguments[0].getBoundingClientRect().top", card))
        assert top - outline >= label["bottom"], (top, label)


def test_a_computer_at_the_start_of_a_sentence_is_capitalised(
    server: ServerProcess, browser: Any
) -> None:
    d = browser
    d.get(server.base + "/")
    wait(d, lambda d: body(d, "data-ready") == "1")
    found = d.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        import("/static/common.js").then((m) => {
          const players = [{ seat: 0, name: "Amel", computer: null },
                           { seat: 1, name: null, computer: "random" }];
          done([m.seatName(players, 1), m.describeMove({ seat: 1, move: "5s" }, players)]);
        });
        """
    )
    name, line = found
    assert name.startswith("Computer 2") and line.startswith("Computer 2"), found


def test_the_online_dots_follow_the_connections(tmp_path: Path, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from websockets.sync.client import connect

    d = browser
    srv = ServerProcess(tmp_path / "data", "--bot-delay", "0")
    try:
        srv.start()
        room = post(srv.base, "/api/games", {"mode": "room", "name": "Hedi"})
        game = room["game"]
        guest = post(srv.base, f"/api/games/{game}/join", {"name": "Ines"})
        open_as(d, srv.base, game, room["token"])

        def dot_on(d: Any) -> bool:
            return bool(d.find_elements(By.CSS_SELECTOR, "#seats .seat[data-seat='1'] .dot.on"))

        ws_url = srv.base.replace("http", "ws", 1) + "/ws"
        with connect(ws_url) as ws:
            ws.send(json.dumps({"type": "hello", "game": game, "token": guest["token"]}))
            wait(d, dot_on, timeout=15)
        # The guest left: the room message turns the dot grey.
        wait(d, lambda d: not dot_on(d), timeout=15)
        with connect(ws_url) as ws:
            ws.send(json.dumps({"type": "hello", "game": game, "token": guest["token"]}))
            wait(d, dot_on, timeout=15)
            # This page's own connection lost: it knows nobody is online, itself included.
            srv.stop()
            wait(d, lambda d: body(d, "data-connected") == "0", timeout=15)
            assert not dot_on(d) and visible(d, "#conn")
        srv.start()
        wait(d, lambda d: body(d, "data-connected") == "1", timeout=30)
        assert not visible(d, "#conn")
    finally:
        srv.stop()
