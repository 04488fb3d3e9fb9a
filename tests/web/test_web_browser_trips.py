"""In headless Chromium: what players tripped on in the game screen (issue 27, §4), each
checked where it showed: the page itself, or its scripts' logic run in the page."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from test_web_browser import as_new, body, browser_at, needs_chromium, served, visible, wait
from test_web_browser_a11y import set_size
from test_web_browser_pages import open_as, post
from wsutil import ServerProcess

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from served(tmp_path_factory, "trips")


@pytest.fixture(scope="module")
def one_browser() -> Iterator[Any]:
    yield from browser_at("1280,800")


@pytest.fixture
def browser(one_browser: Any) -> Any:
    # One browser for the module's tests, made like new for each.
    return as_new(one_browser, "1280,800")


def run_js(d: Any, module: str, code: str) -> Any:
    """``code`` (an expression of ``m``, the page's module ``module``) run in the page."""
    return d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"import('/static/{module}').then((m) => done({code})).catch((e) => done(String(e)));"
    )


def test_the_end_of_a_round_in_words(server: ServerProcess, browser: Any) -> None:
    d = browser
    made = post(server.base, "/api/games", {"rules": "scopa", "level": "random"})
    open_as(d, server.base, made["game"], made["token"])
    players = ("[{seat: 0, name: 'Selma'}, {seat: 1, computer: 'random'},"
               " {seat: 2, name: 'Hedi'}, {seat: 3, computer: 'random'}]")
    # Partners take the rest of the table: the verb agrees with the two of them.
    notes = run_js(d, "common.js", "m.endNotes({swept: ['7d'], taker: 1, leftover: []}, "
                   f"{players}, [0, 1, 0, 1])")
    assert notes == ["Computer 2 (Beginner) & Computer 4 (Beginner) take the rest of the table: "
                     "\u20687 of coins\u2069"]
    notes = run_js(d, "common.js", "m.endNotes({swept: ['7d'], taker: 1, leftover: []}, "
                   "[{seat: 0, name: 'Selma'}, {seat: 1, name: 'Hedi'}], [0, 1])")
    assert notes == ["Hedi takes the rest of the table: \u20687 of coins\u2069"]
    # A tie in a game of the Scopa family is nobody's; bājī is Chkobba's word.
    scopa = run_js(d, "common.js", "m.breakdownTable("
                   "{score: {points: [0, 0], carte: null, cards: [20, 20]}}, "
                   "[{name: 'Selma'}, {name: 'Hedi'}], [0, 1], null, "
                   "[{key: 'carte', name: 'carte', rule: 'cards'}]).textContent")
    assert "nobody" in scopa and "bājī" not in scopa
    chkobba = run_js(d, "common.js", "m.breakdownTable("
                     "{score: {points: [0, 0], karta: null, dinari: 0, barmila: 0, haya: 0,"
                     " cards: [20, 20], diamonds: [6, 4], sevens: [2, 2], sixes: [2, 2],"
                     " chkobba: [0, 0]}}, [{name: 'Selma'}, {name: 'Hedi'}], [0, 1]).textContent")
    assert "nobody (bājī)" in chkobba


def test_captured_cards_fly_to_the_takers_score_at_three_players(
    server: ServerProcess, browser: Any
) -> None:
    d = browser
    made = post(server.base, "/api/games",
                {"rules": "chkobba", "level": "random", "seating": "3"})
    open_as(d, server.base, made["game"], made["token"])
    assert "by-seat" in d.find_element(By.ID, "scores").get_attribute("class")
    for side in range(3):
        # Where the animation aims: a score drawn at the seat, not a hidden chip (whose
        # place is the window's top-left corner).
        box = run_js(d, "motion.js", f"(() => {{ const e = m.pileOf({side});"
                     " if (!e) return null; const r = e.getBoundingClientRect();"
                     " return [r.left, r.top, r.width, e.className]; })()")
        assert box is not None and box[2] > 0 and (box[0] > 5 or box[1] > 5), box
        assert box[3] == "seat-score"


def test_no_last_move_to_show_before_any_move(server: ServerProcess, browser: Any) -> None:
    d = browser
    # A room waiting for its players: the cards are dealt, nobody has moved.
    made = post(server.base, "/api/games", {"mode": "room", "seating": "2", "name": "Selma"})
    open_as(d, server.base, made["game"], made["token"])
    wait(d, lambda d: body(d, "data-animating") in (None, "0"))
    assert body(d, "data-ply") == "0"
    assert not visible(d, "#last-move")


def test_no_summary_asked_of_a_game_ended_before_any_round(
    server: ServerProcess, browser: Any
) -> None:
    d = browser
    made = post(server.base, "/api/games", {"rules": "chkobba", "level": "random"})
    open_as(d, server.base, made["game"], made["token"])
    d.get_log("browser")
    wait(d, lambda d: visible(d, "#resign-btn"))[0].click()
    wait(d, lambda d: visible(d, "#resign-yes"))[0].click()
    wait(d, lambda d: body(d, "data-over") == "1")
    # The page asked again every 3 s after a refusal: give it the time to do so.
    time.sleep(3.5)
    errors = [e["message"] for e in d.get_log("browser") if "/summary" in e["message"]]
    assert errors == []


def test_the_hand_and_the_capture_choice_stay_in_view(
    server: ServerProcess, browser: Any
) -> None:
    d = browser
    # Sums of fifteen: cards with several captures come often.
    made = post(server.base, "/api/games",
                {"rules": "escoba-del-15", "level": "random", "target": 21})
    open_as(d, server.base, made["game"], made["token"])

    def in_view(css: str) -> bool:
        return bool(d.execute_script(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
            "return r.top >= 0 && r.bottom <= window.innerHeight + 1;", css))

    seen = {"1280,800": False, "390,844": False}
    deadline = time.monotonic() + 240
    size = "390,844"
    set_size(d, size)
    turns = 0
    while not all(seen.values()):
        assert time.monotonic() < deadline and body(d, "data-over") != "1", seen
        close = visible(d, "dialog[open] #breakdown-close")
        if close:
            close[0].click()
            continue
        if body(d, "data-my-turn") != "1" or body(d, "data-animating") not in (None, "0"):
            time.sleep(0.05)
            continue
        turns += 1
        # Each turn, the hand is in the window (on the phone too, from the first turn).
        wait(d, lambda d: in_view("#hand-zone"), timeout=5)
        ply = int(body(d, "data-ply") or 0)
        many = visible(d, '#hand .card.playable:not([data-moves="1"])')
        if visible(d, "#cut-keep"):
            visible(d, "#cut-keep")[0].click()
        elif many:
            many[0].click()
            wait(d, lambda d: visible(d, "#choices button.choice"))
            assert in_view("#hand-zone") and in_view("#choices"), size
            seen[size] = True
            visible(d, "#choices button.choice")[0].click()
            size = "1280,800" if size == "390,844" else "390,844"
            set_size(d, size)
        else:
            visible(d, "#hand .card.playable")[0].click()
        wait(d, lambda d, ply=ply: int(body(d, "data-ply") or 0) > ply)
    assert turns >= 2


def test_six_seats_on_a_phone_keep_apart(server: ServerProcess, browser: Any) -> None:
    d = browser
    set_size(d, "390,844")
    made = post(server.base, "/api/games", {"rules": "scopa", "level": "random", "seating": "6"})
    open_as(d, server.base, made["game"], made["token"])
    boxes = d.execute_script(
        "return [...document.querySelectorAll('#seats .seat')].map((s) => {"
        " const r = s.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; });")
    assert len(boxes) == 6
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            # Apart by a few pixels at least, across or down.
            gap = max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])
            assert gap >= 4, (a, b)


def test_a_lost_connection_shows_the_hand_unplayable_until_back(
    tmp_path_factory: pytest.TempPathFactory, browser: Any
) -> None:
    d = browser
    srv = ServerProcess(tmp_path_factory.mktemp("offline"), "--bot-delay", "0")
    srv.start()
    try:
        # Scopa: no cut, the first move is a card of the hand.
        made = post(srv.base, "/api/games", {"rules": "scopa", "level": "random"})
        open_as(d, srv.base, made["game"], made["token"])
        wait(d, lambda d: body(d, "data-my-turn") == "1" and visible(d, "#hand .card.playable"))
        srv.kill()
        wait(d, lambda d: body(d, "data-connected") == "0")
        # Under no "Your turn": the hand is shown cut off, and nothing in it can be played.
        assert body(d, "data-my-turn") == "0"
        assert not visible(d, "#hand .card.playable")
        assert "offline" in d.find_element(By.ID, "hand-zone").get_attribute("class")
        assert "Connection lost" in d.find_element(By.ID, "status").text
        assert visible(d, "#offline-note")
        srv.start()
        wait(d, lambda d: body(d, "data-connected") == "1" and visible(d, "#hand .card.playable"))
        assert not visible(d, "#offline-note")
    finally:
        srv.stop()


def test_touti_shows_each_deals_result(server: ServerProcess, browser: Any) -> None:
    d = browser
    made = post(server.base, "/api/games", {"game": "touti", "mode": "room", "name": "Selma",
                                            "computers": [None, "random", "random", "random"]})
    d.get(server.base + "/")
    d.execute_script("localStorage.setItem(arguments[0], arguments[1])",
                     f"touti.token.{made['game']}", made["token"])
    d.get(f"{server.base}/touti/{made['game']}")
    wait(d, lambda d: body(d, "data-ply") is not None)
    deadline = time.monotonic() + 180
    while not visible(d, "#t-deal-end"):
        assert time.monotonic() < deadline, "no deal's result shown"
        if body(d, "data-my-turn") != "1":
            time.sleep(0.03)
            continue
        ply = body(d, "data-ply")
        target = (visible(d, "#t-hand .card.playable") or visible(d, "#t-actions button"))[0]
        target.click()
        wait(d, lambda d, ply=ply: body(d, "data-ply") != ply)
    text = d.find_element(By.ID, "t-deal-end").text
    # The card points say the 10 of the last trick are in them, and whose total meets the bid.
    assert "Deal 1 is over" in text and "10 of them for the last trick" in text
    assert "The declarer's team has" in text and "+10" not in text
    d.find_element(By.ID, "t-deal-close").click()
    assert not visible(d, "#t-deal-end")


def resign(server: ServerProcess, game: str, token: str) -> None:
    """Seat 0 resigns, over a socket of the test's own."""
    import json

    from websockets.sync.client import connect

    with connect(server.base.replace("http", "ws") + "/ws") as ws:
        ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
        while json.loads(ws.recv(timeout=30))["type"] != "state":
            pass
        ws.send(json.dumps({"type": "resign"}))
        while (msg := json.loads(ws.recv(timeout=30)))["type"] != "state" or not msg["over"]:
            pass


@pytest.mark.parametrize("game", ["scopa", "touti"])
def test_the_replay_of_a_resigned_game_says_so(
    server: ServerProcess, browser: Any, game: str
) -> None:
    d = browser
    made = post(server.base, "/api/games", {"rules": "scopa", "level": "random", "name": "Selma"}
                if game == "scopa" else {"game": "touti", "mode": "room", "name": "Selma",
                                         "computers": [None, "random", "random", "random"]})
    resign(server, made["game"], made["token"])
    d.get(f"{server.base}/replay/{made['game']}")
    wait(d, lambda d: body(d, "data-ready") == "1")
    d.find_element(By.ID, "last").click()
    shown = d.find_element(By.ID, "ending" if game == "scopa" else "t-what")
    wait(d, lambda d: "resigned" in shown.text)
    assert "Selma" in shown.text and "wins" in shown.text
