"""Every kind of game played by clicks in headless Chromium, the screen checked against the
engine: a whole game of Scopa for two and of Scopone two against two (the partner opposite,
the next seat on the right: play goes counter-clockwise, docs/rules.md §2.1), a game of
Cirulla whose declared hands are shown face up (docs/rules.md §3, scopa-wikipedia-fr.txt:83),
and a deal of Touti with its contract, tricks and running card points (docs/rules.md §4).

The engine's side: the game's record replayed by the engine at the end, and the seat's
``state`` message (docs/protocol.md) read over a second WebSocket while the page waits
for the person's move."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from test_web_browser import (
    SHORT,
    body,
    make_browser,
    needs_chromium,
    served,
    shared_browser,
    visible,
)
from wsutil import ServerProcess

from chkobba.fishing.cards import CARDS, SUIT_SYMBOLS, SUITS
from chkobba.fishing.record import GameRecord, replay
from chkobba.fishing.rules import PRESETS
from chkobba.words.cards import suit_name

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from served(tmp_path_factory, "games")


one_browser, browser = shared_browser("1280,900")


def wait(d: Any, cond: Callable[[Any], Any], timeout: float = 40) -> Any:
    """Wait for ``cond``; a page drawn again (or left) meanwhile is looked at again."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(
        d, timeout, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,)
    ).until(cond)


def engine_state(server: ServerProcess, game: str, token: str) -> dict[str, Any]:
    """The seat's ``state`` as the server sends it, on a WebSocket of its own."""
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{server.port}/ws") as ws:
        ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
        while True:
            msg = json.loads(ws.recv(timeout=30))
            if msg["type"] == "state":
                return dict(msg)


def record_of(server: ServerProcess, game: str) -> GameRecord:
    with urllib.request.urlopen(f"{server.base}/api/games/{game}/record", timeout=30) as r:
        return GameRecord.loads(r.read().decode())


def start_from_lobby(d: Any, server: ServerProcess, rules: str, seating: str, target: str) -> str:
    """Choose the game, the seating, the target and the quickest computer in the lobby;
    return the game's code once its page shows the game."""
    d.get(server.base + "/")
    wait(d, lambda d: body(d, "data-ready") == "1")
    Select(d.find_element(By.ID, "c-rules")).select_by_value(rules)
    seatings = [o.get_attribute("value") for o in
                Select(d.find_element(By.ID, "c-seating")).options]
    if rules in PRESETS:
        assert seatings == list(PRESETS[rules].seatings)
    Select(d.find_element(By.ID, "c-seating")).select_by_value(seating)
    Select(d.find_element(By.ID, "c-target")).select_by_value(target)
    Select(d.find_element(By.ID, "c-level")).select_by_value("random")
    assert d.find_element(By.ID, "c-rules-link").get_attribute("href").endswith(f"/rules/{rules}")
    d.find_element(By.ID, "c-start").click()
    wait(d, lambda d: "/g/" in d.current_url and body(d, "data-ply") is not None)
    return str(d.current_url.rsplit("/", 1)[1])


def token_of(d: Any, game: str, key: str = "chkobba") -> str:
    return str(d.execute_script(f"return localStorage.getItem('{key}.token.{game}')"))


def screen_totals(d: Any) -> list[int]:
    """The match points the page shows, by side: the score bar's, or the seats' with three
    sides or more."""
    found = d.execute_script(
        "const bar = [...document.querySelectorAll('#scores .score[data-side] b')];"
        "const seats = [...document.querySelectorAll('#seats .seat-score[data-side] b')];"
        "const by = document.querySelector('#scores').classList.contains('by-seat');"
        "const els = by ? seats : bar;"
        "const out = {}; for (const e of els) out[e.parentElement.dataset.side] = +e.textContent;"
        "return out;"
    )
    return [found[str(s)] for s in range(len(found))]


def play_by_clicks(
    d: Any, each_turn: Callable[[Any], None] | None = None, stop: Callable[[Any], bool] | None
    = None, seconds: float = 240
) -> tuple[int, list[list[int]]]:
    """Click until the match is over (or ``stop``): keep the cut card, play the last
    playable card, take the first capture offered; at each round's breakdown note the match
    points the page shows. ``each_turn`` looks at the page whenever it waits for a move."""
    clicks = 0
    after_rounds: list[list[int]] = []
    deadline = time.monotonic() + seconds
    while body(d, "data-over") != "1":
        assert time.monotonic() < deadline, "the game did not end in time"
        if stop is not None and stop(d):
            break
        close = visible(d, "dialog[open] #breakdown-close")
        if close:
            after_rounds.append(screen_totals(d))
            close[0].click()
            continue
        if body(d, "data-my-turn") != "1":
            time.sleep(0.02)
            continue
        if each_turn is not None:
            each_turn(d)
        ply = int(body(d, "data-ply") or 0)
        cut, cards = visible(d, "#cut-keep"), visible(d, "#hand .card.playable")
        if cut:
            cut[0].click()
        elif cards:
            cards[-1].click()
            choices = visible(d, "#choices button.choice")
            if choices:
                choices[0].click()
        else:
            time.sleep(0.02)
            continue
        clicks += 1
        wait(d, lambda d, ply=ply: int(body(d, "data-ply") or 0) > ply
             or bool(visible(d, "dialog[open] #breakdown-close")))
    return clicks, after_rounds


def check_end(d: Any, server: ServerProcess, game: str, after_rounds: list[list[int]]) -> Any:
    """The record, replayed by the engine, gives the match points the page showed after
    each round and at the end, and the winner it names."""
    wait(d, lambda d: visible(d, "#over"))
    # The last round's breakdown opens at the match's end too (after the table is collected).
    wait(d, lambda d: visible(d, "dialog[open] #breakdown-close"))
    after_rounds = [*after_rounds, screen_totals(d)]
    rep = replay(record_of(server, game))
    running = [0] * len(rep.totals)
    cumulative = []
    for r in rep.rounds:
        if r.score is not None:
            running = [a + b for a, b in zip(running, r.score.points, strict=True)]
            cumulative.append(running)
    # Each breakdown seen is one round's, in order, the last one's included.
    assert after_rounds == cumulative
    assert screen_totals(d) == rep.totals
    assert rep.winner is not None
    over = d.find_element(By.ID, "over-score").text
    assert over.endswith(" – ".join(str(t) for t in rep.totals))
    return rep


def check_turn(server: ServerProcess, game: str, token: str) -> Callable[[Any], None]:
    """A check of the page against the seat's state, at the person's turn: the hand, the
    table, each seat's hidden cards and the legal cards."""
    seen = {"n": 0}

    def look(d: Any) -> None:
        seen["n"] += 1
        if seen["n"] % 4 != 1:
            return  # often enough to see every round, seldom enough to stay quick
        state = engine_state(server, game, token)
        # Read in one go: the page may be drawn again between two reads.
        page = d.execute_script(
            "const cards = (css) => [...document.querySelectorAll(css)]"
            "  .map((c) => c.dataset.card);"
            "const backs = {};"
            "for (const s of document.querySelectorAll('#seats .seat[data-seat]'))"
            "  backs[s.dataset.seat] = s.querySelectorAll('.backs .card').length;"
            "return {ply: +document.body.dataset.ply, hand: cards('#hand .card'),"
            "  table: cards('#table .cards .card'), playable: cards('#hand .card.playable'),"
            "  backs};"
        )
        if page["ply"] != state["ply"]:
            return  # the page is drawing a newer state
        assert page["hand"] == state["hand"]
        assert sorted(page["table"]) == sorted(state["table"])
        for s, n in enumerate(state["hand_sizes"]):
            if s != state["you"]:
                assert page["backs"][str(s)] == n
        legal_cards = {m.split(":")[0] for m in state["legal"] if m not in ("keep", "table")}
        assert set(page["playable"]) == legal_cards

    return look


def test_a_whole_game_of_scopa_for_two(server: ServerProcess, browser: Any) -> None:
    d = browser
    # A match of one round (unless tied): the page is tested, not the match's length.
    game = start_from_lobby(d, server, "scopa", "2", str(SHORT))
    look = check_turn(server, game, token_of(d, game))
    clicks, after_rounds = play_by_clicks(d, look)
    assert clicks >= 18  # at least a round: six deals of three cards
    rep = check_end(d, server, game, after_rounds)
    assert rep.rules.name == "scopa" and max(rep.totals) >= SHORT
    # The last round's breakdown names Scopa's points, with their counts.
    if not visible(d, "dialog[open]"):
        d.find_element(By.ID, "show-last").click()
    wait(d, lambda d: visible(d, "dialog[open] table.breakdown"))
    rows = [r.get_attribute("data-point") for r in
            d.find_elements(By.CSS_SELECTOR, "#breakdown tr[data-point]")]
    assert rows == list(PRESETS["scopa"].scoring)
    last = rep.rounds[-1].score
    carte = d.find_element(By.CSS_SELECTOR, "#breakdown tr[data-point='carte']").text
    assert all(str(n) in carte for n in last.cards)


def test_a_whole_game_of_scopone_two_against_two(server: ServerProcess, browser: Any) -> None:
    d = browser
    game = start_from_lobby(d, server, "scopone", "2v2", str(SHORT))
    assert len(d.find_elements(By.CSS_SELECTOR, "#hand .card")) in (8, 9)

    def centre(css: str) -> tuple[float, float]:
        r = d.find_element(By.CSS_SELECTOR, css).rect
        return r["x"] + r["width"] / 2, r["y"] + r["height"] / 2

    ring_x, ring_y = centre("#ring")
    partner_x, partner_y = centre(".ring .seat[data-seat='2']")
    right_x, _ = centre(".ring .seat[data-seat='1']")
    left_x, _ = centre(".ring .seat[data-seat='3']")
    me_x, me_y = centre(".ring .seat[data-seat='0']")
    # Partners face each other; the next to play sits on the right.
    assert partner_y < ring_y < me_y and abs(partner_x - ring_x) < 5 and abs(me_x - ring_x) < 5
    assert left_x < ring_x < right_x
    assert "partner" in d.find_element(By.CSS_SELECTOR, ".ring .seat[data-seat='2']").text
    look = check_turn(server, game, token_of(d, game))
    clicks, after_rounds = play_by_clicks(d, look, seconds=300)
    rep = check_end(d, server, game, after_rounds)
    assert rep.rules.name == "scopone" and len(rep.totals) == 2
    assert clicks >= 9


def test_cirulla_shows_the_declared_hands_face_up(server: ServerProcess, browser: Any) -> None:
    d = browser

    def shown_declarations(d: Any) -> set[tuple[int, str, frozenset[str]]]:
        found = d.execute_script(
            "return [...document.querySelectorAll('.declared')].map((e) => ["
            "  e.closest('.seat') ? +e.closest('.seat').dataset.seat : +document.body.dataset.seat,"
            "  e.dataset.declared,"
            "  [...e.querySelectorAll('.card')].map((c) => c.dataset.card)])"
        )
        if found:
            # A seat showing a declared hand stays on the table, the top one too.
            top, bottom, boxes = d.execute_script(
                "const r = document.getElementById('ring').getBoundingClientRect();"
                "return [r.top, r.bottom, [...document.querySelectorAll('#seats .seat')]"
                "  .map((e) => [e.getBoundingClientRect().top, e.getBoundingClientRect().bottom])]"
            )
            assert all(top - 1 <= a and b <= bottom + 1 for a, b in boxes), (top, bottom, boxes)
        return {(seat, name, frozenset(cards)) for seat, name, cards in found}

    for _attempt in range(3):
        game = start_from_lobby(d, server, "cirulla", "4", "11")
        seen: set[tuple[int, str, frozenset[str]]] = set()
        _, after_rounds = play_by_clicks(d, lambda d, seen=seen: seen.update(
            shown_declarations(d)), seconds=300)
        rep = check_end(d, server, game, after_rounds)
        recorded = {
            (x.seat, x.name, frozenset(str(CARDS[i]) for i in range(40) if x.cards >> i & 1))
            for r in rep.rounds for x in r.declarations
        }
        # What the page showed face up is what the engine declared: seat, name, hand.
        assert seen <= recorded
        if seen:
            return
    pytest.fail("no hand was declared in three games of Cirulla")


def test_a_deal_of_touti_from_the_lobby(server: ServerProcess, browser: Any) -> None:
    d = browser
    d.get(server.base + "/")
    wait(d, lambda d: body(d, "data-ready") == "1")
    Select(d.find_element(By.ID, "c-rules")).select_by_value("touti")
    assert [o.get_attribute("value") for o in
            Select(d.find_element(By.ID, "c-seating")).options] == ["2v2"]
    levels = [o.get_attribute("value") for o in Select(d.find_element(By.ID, "c-level")).options]
    assert levels == ["random", "technique", "search"]
    Select(d.find_element(By.ID, "c-level")).select_by_value("random")
    d.find_element(By.ID, "c-start").click()
    wait(d, lambda d: "/touti/" in d.current_url and body(d, "data-ply") is not None)
    game = d.current_url.rsplit("/", 1)[1]
    token = token_of(d, game, "touti")
    checked_play = False
    deadline = time.monotonic() + 180
    while True:
        assert time.monotonic() < deadline, "the deal did not end in time"
        if body(d, "data-my-turn") != "1":
            time.sleep(0.03)
            continue
        state = engine_state(server, game, token)
        if state["deal"] > 1 or state["over"]:
            break
        if state["ply"] != int(body(d, "data-ply") or -1):
            continue
        hand = d.execute_script(
            "return [...document.querySelectorAll('#t-hand .card')].map((c) => c.dataset.card)"
        )
        assert hand == state["hand"]
        if state["phase"] == "play":
            # The middle of the table: the contract, the trumps, each team's tricks and card
            # points so far, as the engine counts them. Read in one go: the computers play
            # on and the middle is drawn again meanwhile (an element found, then read, can
            # be gone).
            center = d.execute_script(
                """const t = (css) => [...document.querySelectorAll(css)].map((e) => e.innerText);
                   return [t('#t-center .team'), t('#t-center .contract'),
                           t('#t-center .trump')];""")
            teams, contract, trump = center
            if body(d, "data-ply") != str(state["ply"]):
                continue  # drawn again for a later move: look again
            for t, text in enumerate(teams):
                n = state["tricks"][t]
                assert f" {n} {'trick' if n == 1 else 'tricks'} ·" in text
                assert f"{state['card_points'][t]} card points" in text
            assert len(teams) == 2
            assert str(state["bid"]) in contract[0]
            # The trumps in the deck's words: Touti's Spanish cards name the suit (oros).
            deck = body(d, "data-deck")
            assert trump[0] == (
                SUIT_SYMBOLS[SUITS.index(state["trump"])] if deck == "french"
                else suit_name(state["trump"], deck, "en"))
            checked_play = checked_play or sum(state["tricks"]) > 0
        elif state["phase"] == "bid":
            # Each seat's last word in this deal's bidding, at its place.
            for e in [e for e in state["log"] if e["kind"] in ("bid", "pass")]:
                place = f".touti-seat[data-at='{e['seat']}'] .said"
                assert d.find_element(By.CSS_SELECTOR, place).text
        ply = body(d, "data-ply")
        buttons, cards = visible(d, "#t-actions button"), visible(d, "#t-hand .card.playable")
        target = (cards or buttons)[0]
        target.click()
        wait(d, lambda d, ply=ply: body(d, "data-ply") != ply)
    summary = json.loads(urllib.request.urlopen(f"{server.base}/api/games/{game}").read())
    assert summary["game_name"] == "touti"
    # A deal was played through (or ended without a contract, then redealt).
    assert checked_play or summary["totals"] == [0, 0]


def test_a_touti_room_for_friends(server: ServerProcess, browser: Any) -> None:
    host = browser
    host.get(server.base + "/")
    wait(host, lambda d: body(d, "data-ready") == "1")
    host.find_element(By.ID, "r-name").send_keys("Hedi")
    Select(host.find_element(By.ID, "r-rules")).select_by_value("touti")
    host.find_element(By.ID, "r-create").click()
    wait(host, lambda d: "/touti/" in d.current_url and visible(d, "#t-wait"))
    code = host.current_url.rsplit("/", 1)[1]
    assert host.find_element(By.ID, "t-share").get_attribute("value").endswith(f"/touti/{code}")
    assert visible(host, "#t-fill") and not visible(host, "#t-join")
    guest = make_browser("412,915")
    try:
        guest.get(server.base + "/")
        wait(guest, lambda d: body(d, "data-ready") == "1")
        guest.find_element(By.ID, "j-code").send_keys(code)
        guest.find_element(By.ID, "j-go").click()
        # The code of a Touti room leads to Touti's page, where a seat can be taken.
        wait(guest, lambda d: f"/touti/{code}" in d.current_url and visible(d, "#t-join"))
        guest.find_element(By.ID, "t-join").click()
        wait(guest, lambda d: not visible(d, "#t-join"))
        host.find_element(By.ID, "t-fill").click()
        wait(host, lambda d: not visible(d, "#t-wait"))
        wait(guest, lambda d: not visible(d, "#t-wait"))
        # Each sees the table from their own seat: the guest (seat 1) at the bottom, its
        # partner (seat 3) opposite, the host (seat 0) on its left, named.
        places = guest.execute_script(
            "return Object.fromEntries([...document.querySelectorAll('.touti-seat')]"
            ".map((s) => [s.dataset.seat, [s.dataset.at, s.querySelector('.who').textContent]]))"
        )
        assert [places[p][0] for p in "0123"] == ["1", "2", "3", "0"]
        assert places["3"][1].startswith("Hedi")
        assert places["2"][1].startswith("Partner")
        token = token_of(guest, code, "touti")
        state = engine_state(server, code, token)
        assert state["you"] == 1
        hand = guest.execute_script(
            "return [...document.querySelectorAll('#t-hand .card')].map((c) => c.dataset.card)"
        )
        assert hand == state["hand"]
    finally:
        guest.quit()


def test_the_rules_pages_in_every_language(server: ServerProcess, browser: Any) -> None:
    d = browser
    d.get(server.base + "/")
    wait(d, lambda d: body(d, "data-ready") == "1")
    Select(d.find_element(By.ID, "c-rules")).select_by_value("cirulla")
    d.find_element(By.ID, "c-rules-link").click()
    wait(d, lambda d: body(d, "data-rules") == "cirulla")
    with urllib.request.urlopen(f"{server.base}/api/rules/cirulla", timeout=30) as r:
        rules = json.loads(r.read())
    # Arabic last: the page is then right to left.
    for lang in ("en", "fr", "it", "es", "ar"):
        Select(d.find_element(By.ID, "lang")).select_by_value(lang)
        wait(d, lambda d, lang=lang: body(d, "data-lang") == lang)
        assert d.find_element(By.ID, "rules-description").text == rules["description"][lang]
        rows = d.find_elements(By.CSS_SELECTOR, "#rules-options tr[data-option]")
        assert [r.get_attribute("data-option") for r in rows] == list(PRESETS["cirulla"].options())
        wild = d.find_element(By.CSS_SELECTOR, "#rules-options tr[data-option='capture_total']")
        option = next(o for o in rules["options"] if o["key"] == "capture_total")
        assert option["help"][lang] in wild.text and "15" in wild.text
        points = d.find_elements(By.CSS_SELECTOR, "#rules-points tr[data-point]")
        assert [p.get_attribute("data-point") for p in points] == list(
            PRESETS["cirulla"].scoring)
    assert d.find_element(By.TAG_NAME, "html").get_attribute("dir") == "rtl"
    # "Play it" leads back to the lobby with the game chosen.
    d.find_element(By.ID, "rules-play").click()
    wait(d, lambda d: body(d, "data-ready") == "1")
    assert Select(d.find_element(By.ID, "c-rules")).first_selected_option.get_attribute(
        "value") == "cirulla"
    d.get(server.base + "/rules/nonesuch")
    wait(d, lambda d: body(d, "data-ready") == "1")
    assert "nonesuch" in d.find_element(By.ID, "error").text
