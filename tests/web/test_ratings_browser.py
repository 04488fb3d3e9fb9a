"""Ratings in headless Chromium: a profile (its ratings, its chart, its recent games, every
name shown as text) and the leaderboard with its pool switch, reached by the keyboard and
clean for axe-core; a rated game lost on time named so on the profile, the replay, the
game's page and the lobby."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from test_web_browser import body, needs_chromium, served, shared_browser, wait
from test_web_browser_a11y import axe_problems
from wsutil import ServerProcess

pytestmark = needs_chromium

EVIL = "<img src=x onerror=h=1>"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from served(tmp_path_factory, "ratings", "--bench-seats", "--rate", "10000")


one_browser, browser = shared_browser("1280,800")


def call(base: str, path: str, data: dict[str, Any] | None = None,
         cookie: str | None = None) -> tuple[dict[str, Any], str | None]:
    """A JSON request; its answer and the session cookie it sets, if any."""
    headers = {"Content-Type": "application/json", **({"Cookie": cookie} if cookie else {})}
    body_bytes = json.dumps(data).encode() if data is not None else None
    req = urllib.request.Request(base + path, body_bytes, headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        set_cookie = r.headers.get("set-cookie")
        return dict(json.loads(r.read())), set_cookie.split(";", 1)[0] if set_cookie else None


def finished(base: str, code: str) -> None:
    for _ in range(600):
        if call(base, f"/api/games/{code}")[0]["status"] == "finished":
            return
        time.sleep(0.1)
    raise AssertionError(f"{code} did not finish")


def test_a_profile_and_the_leaderboard(server: ServerProcess, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from websockets.sync.client import connect

    base = server.base
    _, alice = call(base, "/api/account/signup", {"name": "alice", "password": "a long password"})
    _, bob = call(base, "/api/account/signup", {"name": "bob", "password": "a long password"})
    # Two rated games through the real rating code (computer players in the accounts' seats).
    for _ in range(2):
        code = call(base, "/api/bench/rated", {"pool": "chkobba", "names": ["alice", "bob"],
                                               "levels": ["random", "random"]})[0]["game"]
        finished(base, code)
    # A public casual game against a guest whose name is HTML, which alice resigns.
    made, _ = call(base, "/api/games", {"mode": "room", "unlisted": False}, alice)
    call(base, f"/api/games/{made['game']}/join", {"name": EVIL})
    with connect(base.replace("http", "ws") + "/ws",
                 additional_headers={"Cookie": alice or ""}) as ws:
        ws.send(json.dumps({"type": "hello", "game": made["game"], "token": made["token"]}))
        ws.send(json.dumps({"type": "resign", "game": made["game"]}))
        while json.loads(ws.recv(timeout=30))["type"] != "resigned":
            pass
    # A rated game nobody plays: the seat to move runs out of time.
    late, _ = call(base, "/api/games", {"mode": "room", "rated": True, "clock": 0.3}, alice)
    call(base, f"/api/games/{late['game']}/join", {}, bob)
    finished(base, late["game"])
    out = call(base, f"/api/games/{late['game']}")[0]
    out_of_time = f"{['alice', 'bob'][out['resigned']]}: out of time"

    d = browser
    d.get(f"{base}/u/alice")
    wait(d, lambda d: body(d, "data-ready") == "1")
    assert d.find_element(By.ID, "who").text == "alice"
    assert "4 games played" in d.find_element(By.ID, "played").text
    rating = d.find_element(By.CSS_SELECTOR, "#ratings li[data-pool=chkobba]").text
    assert "±" in rating and "provisional" in rating
    chart = d.find_element(By.CSS_SELECTOR, "#charts svg[data-pool=chkobba]")
    assert chart.get_attribute("role") == "img" and "Chkobba" in chart.get_attribute("aria-label")
    assert len(chart.find_elements(By.CSS_SELECTOR, "circle")) == 3
    recent = d.find_element(By.ID, "recent")
    assert EVIL in recent.text and not recent.find_elements(By.TAG_NAME, "img")
    assert d.execute_script("return 'h' in window") is False
    assert len(recent.find_elements(By.LINK_TEXT, "Replay")) == 4
    # How a game ended, on the profile, the replay and the lobby: resigned, out of time.
    row = f"#recent li[data-game='{late['game']}']"
    assert out_of_time in d.find_element(By.CSS_SELECTOR, row).text
    row = f"#recent li[data-game='{made['game']}']"
    assert "alice resigned" in d.find_element(By.CSS_SELECTOR, row).text
    assert not axe_problems(d)
    d.get(f"{base}/replay/{late['game']}")
    wait(d, lambda d: body(d, "data-step") is not None)
    d.find_element(By.ID, "last").click()
    wait(d, lambda d: d.find_elements(By.ID, "ending"))
    assert d.find_element(By.ID, "ending").text.startswith(out_of_time)
    d.get(f"{base}/g/{late['game']}")  # the game's own page, as a spectator
    wait(d, lambda d: body(d, "data-over") == "1")
    assert d.find_element(By.ID, "over-title").text.startswith(out_of_time)
    d.get(f"{base}/")
    row = f"#finished li[data-game='{late['game']}']"
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, row))
    assert out_of_time in d.find_element(By.CSS_SELECTOR, row).text
    d.get(f"{base}/u/alice")
    wait(d, lambda d: body(d, "data-ready") == "1")

    # The leaderboard, from the profile's header, then another pool with the keyboard.
    d.find_element(By.CSS_SELECTOR, "header a[href='/leaderboard']").click()
    wait(d, lambda d: "/leaderboard" in d.current_url and body(d, "data-ready") == "1")
    rows = d.find_elements(By.CSS_SELECTOR, "#rows tr")
    assert sorted(r.get_attribute("data-player") for r in rows) == ["alice", "bob"]
    assert not axe_problems(d)
    picker = d.find_element(By.ID, "pool")
    picker.send_keys(Keys.ARROW_DOWN)
    wait(d, lambda d: "pool=chkobba-2v2" in d.current_url)
    wait(d, lambda d: d.find_element(By.ID, "empty").text.startswith("Nobody has played"))
    assert d.find_elements(By.CSS_SELECTOR, "#rows tr") == []


def test_a_rated_game_between_two_browsers_to_its_end_changes_both_ratings(
    server: ServerProcess,
) -> None:
    """Two people signed in, each in their own browser, at a rated room: one resigns
    through the page, the game ends on both, and both ratings move on the leaderboard."""
    from selenium.webdriver.common.by import By
    from test_web_browser import make_browser, visible

    base = server.base
    _, amel = call(base, "/api/account/signup", {"name": "amel", "password": "a long password"})
    _, hedi = call(base, "/api/account/signup", {"name": "hedi", "password": "a long password"})
    assert amel and hedi
    # Scopa's pool: the module's other test rates games in Chkobba's, on the same server.
    made, _ = call(base, "/api/games",
                   {"mode": "room", "rated": True, "seating": "2", "rules": "scopa"}, amel)
    call(base, f"/api/games/{made['game']}/join", {}, hedi)
    browsers = []
    try:
        for cookie in (amel, hedi):
            d = make_browser("1280,800")
            browsers.append(d)
            d.get(base + "/")
            name, value = cookie.split("=", 1)
            d.add_cookie({"name": name, "value": value, "path": "/"})
            # No token in the link: the account's session seats each at their own place.
            d.get(f"{base}/g/{made['game']}")
            wait(d, lambda d: body(d, "data-ply") is not None)
            wait(d, lambda d: "rated game" in d.find_element(By.ID, "life-settings").text)
        a, b = browsers
        assert body(a, "data-seat") != body(b, "data-seat")
        visible(a, "#resign-btn")[0].click()
        wait(a, lambda d: visible(d, "#resign-yes"))
        visible(a, "#resign-yes")[0].click()
        for d in browsers:
            wait(d, lambda d: body(d, "data-over") == "1")
        b.get(f"{base}/leaderboard?pool=scopa")
        wait(b, lambda d: body(d, "data-ready") == "1")
        wait(b, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#rows tr")) == 2)
        rows = b.find_elements(By.CSS_SELECTOR, "#rows tr")
        assert [r.get_attribute("data-player") for r in rows] == ["hedi", "amel"]
        ratings = {n: next(r for r in call(base, f"/api/users/{n}")[0]["ratings"]
                           if r["pool"] == "scopa") for n in ("amel", "hedi")}
        assert ratings["hedi"]["rating"] > 1500 > ratings["amel"]["rating"]
        assert (ratings["hedi"]["games"], ratings["hedi"]["wins"]) == (1, 1)
        assert (ratings["amel"]["games"], ratings["amel"]["wins"]) == (1, 0)
    finally:
        for d in browsers:
            d.quit()
