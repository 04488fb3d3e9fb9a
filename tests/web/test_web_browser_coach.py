"""End to end in headless Chromium, the coach: a hint and the unseen cards in a game,
the summary chart once it is over, and the expert's analysis on the replay page."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import (
    ARTIFACTS,
    SHORT,
    body,
    choose_lang,
    make_browser,
    needs_chromium,
    served,
    visible,
    wait,
)
from wsutil import ServerProcess, play_out

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # The test plays a whole game over a socket of its own, faster than a person would.
    yield from served(tmp_path_factory, "browser-coach", "--rate", "10000")


def post(base: str, path: str, data: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        base + path, json.dumps(data).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req) as r:
        return dict(json.loads(r.read()))


def new_game(base: str) -> tuple[str, str]:
    # A match of one round: its summary and analyses are what is tested, not its length.
    g = post(base, "/api/games", {"mode": "computer", "level": "random", "target": SHORT})
    return g["game"], g["token"]



def test_coach_in_the_browser(server: ServerProcess, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d = make_browser("1280,900")
    try:
        ARTIFACTS.mkdir(exist_ok=True)
        game, token = new_game(server.base)
        d.get(server.base + "/")
        d.execute_script(f"localStorage.setItem('chkobba.token.{game}', '{token}')")
        d.get(f"{server.base}/g/{game}")
        wait(d, lambda d: body(d, "data-ply") is not None)
        # Hints are off by default; turned on, the button asks the expert.
        assert not visible(d, "#coach-hint")
        d.find_element(By.ID, "coach-opt-hints").click()
        d.find_element(By.ID, "coach-opt-unseen").click()
        wait(d, lambda d: "Unseen cards" in d.find_element(By.ID, "coach-unseen").text)
        # A hint needs two plays or more: cut or play until the hint answers.
        deadline = time.monotonic() + 60
        while "top plays" not in d.find_element(By.ID, "coach-out").text:
            assert time.monotonic() < deadline, d.find_element(By.ID, "coach-out").text
            wait(d, lambda d: body(d, "data-my-turn") == "1")
            d.find_element(By.ID, "coach-hint").click()
            wait(d, lambda d: "thinking" not in d.find_element(By.ID, "coach-out").text)
            if "top plays" in d.find_element(By.ID, "coach-out").text:
                break
            ply = int(body(d, "data-ply") or 0)
            cut = visible(d, "#cut-keep")
            cards = visible(d, "#hand .card.playable")
            (cut or cards)[0].click()
            wait(d, lambda d, ply=ply: int(body(d, "data-ply") or 0) > ply)
        d.execute_script("document.getElementById('coach').scrollIntoView()")
        d.save_screenshot(str(ARTIFACTS / "web-coach-hint.png"))

        play_out(server.base, game, token)
        d.refresh()
        wait(d, lambda d: visible(d, "#coach-summary svg"))
        d.execute_script("document.getElementById('coach-summary').scrollIntoView()")
        d.save_screenshot(str(ARTIFACTS / "web-coach-summary.png"))
        assert "Points per category" in d.find_element(By.ID, "coach-summary").text
        with urllib.request.urlopen(f"{server.base}/api/games/{game}/record") as r:
            record = json.loads(r.read())
        assert record["meta"]["coach"]["hints"] == 1

        d.get(f"{server.base}/replay/{game}")
        wait(d, lambda d: visible(d, "#coach-run"))
        # The quick precision keeps the test short; the default is tested in test_coach.py.
        Select(d.find_element(By.ID, "coach-samples")).select_by_value("1000")
        d.find_element(By.ID, "coach-run").click()
        wait(d, lambda d: body(d, "data-analysed") == "1", timeout=90)
        d.find_element(By.ID, "last").click()
        d.find_element(By.ID, "first").click()
        for _ in range(3):
            d.find_element(By.ID, "next").click()
        wait(d, lambda d: d.find_element(By.ID, "coach-move").text.strip() != "")
        assert d.find_element(By.ID, "coach-mistakes")
        # The coach's panel follows the page's language, the analysis kept.
        choose_lang(d, "fr")
        assert "L'analyse de l'expert" in d.find_element(By.ID, "coach-analysis").text
        assert d.find_element(By.ID, "coach-mistakes")
        choose_lang(d, "en")
        d.execute_script("document.getElementById('coach-result').scrollIntoView()")
        d.save_screenshot(str(ARTIFACTS / "web-coach-analysis.png"))

        # Any record file: the analysis page takes it, and steps through it.
        path = tmp_path / "game.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        d.get(f"{server.base}/analyse")
        wait(d, lambda d: body(d, "data-ready") == "1")
        d.find_element(By.ID, "record-file").send_keys(str(path))
        wait(d, lambda d: visible(d, "#coach-run"))
        Select(d.find_element(By.ID, "coach-samples")).select_by_value("1000")
        d.find_element(By.ID, "coach-run").click()
        wait(d, lambda d: body(d, "data-analysed") == "1", timeout=90)
        for _ in range(3):
            d.find_element(By.ID, "next").click()
        assert d.find_element(By.ID, "coach-move").text.strip()
        # Each position on the game screen's table, every hand face up at its seat.
        seats = visible(d, "#ring #seats .seat")
        assert len(seats) == record["seats"]
        assert all(s.find_elements(By.CSS_SELECTOR, ".open [data-card]") for s in seats)
        d.save_screenshot(str(ARTIFACTS / "web-coach-file.png"))
    finally:
        d.quit()
