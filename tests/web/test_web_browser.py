"""End to end in headless Chromium: the lobby, a whole game against the computer by clicks,
its replay, and a screenshot of the game screen under test-artifacts/."""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from wsutil import ServerProcess

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver") or (
    "/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None
)

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="headless Chromium not installed: apt-get install -y chromium chromium-driver",
)
"""The mark of every browser test module."""
pytestmark = needs_chromium


SHORT = 1
"""The target of a match played to its end where the test is about the pages, not the
match's length: one round (``chkobba serve --short-matches``, docs/development.md)."""


def served(
    tmp_path_factory: pytest.TempPathFactory, name: str, *extra: str
) -> Iterator[ServerProcess]:
    """A ``chkobba serve`` for a module's browser tests (the computer moving at once; a
    match may be played to 1 point, :data:`SHORT`), stopped at the end: the body of each
    module's ``server`` fixture."""
    srv = ServerProcess(
        tmp_path_factory.mktemp(name), "--bot-delay", "0", "--short-matches", *extra
    )
    try:
        srv.start()
        yield srv
    finally:
        # Killed, not stopped: nothing is checked after the module's tests, and a polite
        # stop waits for the coach's worker processes to finish (or still start) their
        # jobs, tens of seconds under load. They end with the server (test_web_limits.py).
        srv.kill()


def browser_at(size: str) -> Iterator[Any]:
    """A browser of window ``size`` for one test, closed after it (a fixture's body)."""
    d = make_browser(size)
    try:
        yield d
    finally:
        d.quit()


def as_new(d: Any, size: str) -> Any:
    """``d`` made like a browser just started at window ``size``, for the next test of a
    module sharing one browser (launching one and quitting it cost a second or more each
    under load): no page open (every connection of the last test's pages closed), no
    other window, no storage of any site (local storage, cookies, service workers,
    caches), no emulated screen or touch, an empty HTTP cache and console log."""
    d.get("about:blank")
    for handle in d.window_handles[1:]:
        d.switch_to.window(handle)
        d.close()
    d.switch_to.window(d.window_handles[0])
    d.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": "*", "storageTypes": "all"})
    d.execute_cdp_cmd("Network.clearBrowserCookies", {})
    d.execute_cdp_cmd("Network.clearBrowserCache", {})
    d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    d.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
    w, h = (int(x) for x in size.split(","))
    d.set_window_size(w, h)
    d.get_log("browser")  # read: a test sees its own pages' messages only
    return d


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from served(tmp_path_factory, "browser")


def make_browser(size: str, motion: bool = False, accept_languages: str | None = None) -> Any:
    """A headless Chromium with a window of ``size`` ("412,915"); without ``motion`` it
    prefers reduced motion, so the pages show each move at once (static/motion.js);
    ``accept_languages`` ("it-IT,en") sets the browser's languages (navigator.languages)."""
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    for arg in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={tempfile.mkdtemp(prefix='chkobba-chromium-')}",
        f"--window-size={size}",
    ):
        opts.add_argument(arg)
    if not motion:
        opts.add_argument("--force-prefers-reduced-motion")
    if accept_languages:
        opts.add_argument(f"--lang={accept_languages.split(',')[0]}")
        opts.add_experimental_option("prefs", {"intl.accept_languages": accept_languages})
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    opts.binary_location = CHROMIUM
    return webdriver.Chrome(service=Service(DRIVER), options=opts)


def shared_browser(size: str) -> tuple[Any, Any]:
    """The fixtures ``one_browser`` (one Chromium at window ``size`` for a module) and
    ``browser`` (that one made like new for each test), for a module to bind:
    ``one_browser, browser = shared_browser("1280,800")``."""

    @pytest.fixture(scope="module", name="one_browser")
    def one() -> Iterator[Any]:
        yield from browser_at(size)

    @pytest.fixture(name="browser")
    def fresh(one_browser: Any) -> Any:
        return as_new(one_browser, size)

    return one, fresh


# A phone-sized window: the pages must work there.
one_browser, browser = shared_browser("412,915")


def visible(d: Any, css: str) -> list[Any]:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    shown = []
    for e in d.find_elements(By.CSS_SELECTOR, css):
        try:
            if e.is_displayed():
                shown.append(e)
        except StaleElementReferenceException:
            pass  # redrawn between the query and the look: no longer on the page
    return shown


def body(d: Any, attr: str) -> str | None:
    from selenium.webdriver.common.by import By

    value = d.find_element(By.TAG_NAME, "body").get_attribute(attr)
    return str(value) if value is not None else None


def wait(d: Any, cond: Any, timeout: float = 40) -> Any:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # A page that redraws while the condition reads it is asked again, not failed.
    return WebDriverWait(d, timeout, poll_frequency=0.05,
                         ignored_exceptions=[StaleElementReferenceException]).until(cond)


def choose_lang(d: Any, code: str) -> None:
    """Pick ``code`` in the page's language switch and wait until the page speaks it (a
    catalogue not loaded yet is fetched first: static/i18n.js)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    Select(d.find_element(By.ID, "lang")).select_by_value(code)
    wait(d, lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == code)


def test_play_a_game_against_the_computer_and_replay_it(
    server: ServerProcess, browser: Any
) -> None:
    from selenium.common.exceptions import (
        ElementClickInterceptedException,
        StaleElementReferenceException,
    )
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d = browser
    ARTIFACTS.mkdir(exist_ok=True)
    d.get(server.base + "/")
    wait(d, lambda d: body(d, "data-ready") == "1")
    levels = [o.get_attribute("value") for o in Select(d.find_element(By.ID, "c-level")).options]
    assert "random" in levels and "cheater" not in levels
    d.find_element(By.ID, "c-name").send_keys("Selma")
    Select(d.find_element(By.ID, "c-level")).select_by_value("random")
    # A match of one round: the page is what is tested, not the match's length.
    Select(d.find_element(By.ID, "c-target")).select_by_value(str(SHORT))
    d.find_element(By.ID, "c-start").click()
    wait(d, lambda d: "/g/" in d.current_url and body(d, "data-ply") is not None)
    game = d.current_url.rsplit("/", 1)[1]

    clicks = breakdowns = 0
    screenshot = False
    deadline = time.monotonic() + 240
    while body(d, "data-over") != "1":
        assert time.monotonic() < deadline, "the game did not end in time"
        close = visible(d, "dialog[open] #breakdown-close")
        if close:
            # Each round ends with its breakdown, naming the points in Arabic too.
            text = d.find_element(By.ID, "breakdown").text
            assert "كارطة" in text and "barmīla" in text
            breakdowns += 1
            close[0].click()
            continue
        if body(d, "data-my-turn") != "1":
            time.sleep(0.02)
            continue
        ply = int(body(d, "data-ply") or 0)
        cut = visible(d, "#cut-keep")
        cards = visible(d, "#hand .card.playable")
        try:
            if cut:
                cut[0].click()
            elif cards:
                if not screenshot and (len(cards) >= 2 or clicks > 10):
                    d.save_screenshot(str(ARTIFACTS / "web-game.png"))
                    screenshot = True
                cards[-1].click()
                choices = visible(d, "#choices button.choice")
                if choices:
                    choices[0].click()
            else:
                time.sleep(0.02)
                continue
        except (ElementClickInterceptedException, StaleElementReferenceException):
            # The round's breakdown opened over the hand, or the hand was redrawn,
            # between looking and clicking: look again (the loop closes the dialog).
            continue
        clicks += 1
        wait(d, lambda d, ply=ply: int(body(d, "data-ply") or 0) > ply)
    # The last round's breakdown opens at the match's end too (after the table is collected).
    wait(d, lambda d: visible(d, "dialog[open] #breakdown-close"))
    text = d.find_element(By.ID, "breakdown").text
    assert "كارطة" in text and "barmīla" in text
    breakdowns += 1
    assert clicks >= 18 and breakdowns >= 1
    wait(d, lambda d: visible(d, "#over"))
    close = visible(d, "dialog[open] #breakdown-close")
    if close:
        close[0].click()
    title = d.find_element(By.ID, "over-title").text
    assert title
    d.save_screenshot(str(ARTIFACTS / "web-game-over.png"))
    assert screenshot and (ARTIFACTS / "web-game.png").stat().st_size > 10_000

    def to_replay(d: Any) -> bool:
        """Click the replay link, first closing the last round's breakdown if it opened."""
        close = visible(d, "dialog[open] #breakdown-close")
        try:
            (close[0] if close else d.find_element(By.ID, "replay-link")).click()
        except (ElementClickInterceptedException, StaleElementReferenceException):
            return False
        return not close

    wait(d, to_replay)
    wait(d, lambda d: body(d, "data-ready") == "1")
    assert game in d.find_element(By.ID, "code").text
    steps = int(d.find_element(By.ID, "slider").get_attribute("max"))
    assert steps > clicks
    for _ in range(4):
        d.find_element(By.ID, "next").click()
    assert body(d, "data-step") == "4"
    d.find_element(By.ID, "prev").click()
    assert body(d, "data-step") == "3"
    d.find_element(By.ID, "last").click()
    assert body(d, "data-step") == str(steps)
    assert "كارطة" in d.find_element(By.ID, "end").text
    d.save_screenshot(str(ARTIFACTS / "web-replay.png"))
    href = d.find_element(By.ID, "download-link").get_attribute("href")
    assert href.endswith(f"/api/games/{game}/record")


def test_arabic_is_right_to_left(server: ServerProcess, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    d = browser
    d.get(server.base + "/")
    wait(d, lambda d: body(d, "data-ready") == "1")
    choose_lang(d, "ar")
    html = d.find_element(By.TAG_NAME, "html")
    assert html.get_attribute("dir") == "rtl" and html.get_attribute("lang") == "ar"
    assert d.find_element(By.ID, "c-start").text == "ابدأ"
    choose_lang(d, "fr")
    assert html.get_attribute("dir") == "ltr"
    assert d.find_element(By.ID, "c-start").text == "Commencer"
    d.refresh()
    wait(d, lambda d: body(d, "data-ready") == "1")
    # The choice is remembered.
    assert d.find_element(By.ID, "c-start").text == "Commencer"


def test_room_by_code_join_fill_and_watch(server: ServerProcess, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    host = browser
    host.get(server.base + "/")
    wait(host, lambda d: body(d, "data-ready") == "1")
    host.find_element(By.ID, "r-name").send_keys("Hedi")
    Select(host.find_element(By.ID, "r-seating")).select_by_value("3")
    host.find_element(By.ID, "r-create").click()
    wait(host, lambda d: visible(d, "#waiting") and d.find_element(By.ID, "share-code").text)
    code = host.find_element(By.ID, "share-code").text
    assert host.find_element(By.ID, "share-url").get_attribute("value").endswith(f"/g/{code}")
    assert visible(host, "#fill-box") and not visible(host, "#join-box")

    guest = make_browser("1280,800")
    try:
        guest.get(server.base + "/")
        wait(guest, lambda d: body(d, "data-ready") == "1")
        guest.find_element(By.ID, "j-code").send_keys(code.lower())
        guest.find_element(By.ID, "j-go").click()
        wait(guest, lambda d: visible(d, "#join-box"))
        guest.find_element(By.ID, "join-name").send_keys("Ines")
        guest.find_element(By.ID, "join-btn").click()
        wait(guest, lambda d: not visible(d, "#join-box"))
        # The host sees the guest arrive, then fills the last seat with the computer.
        wait(host, lambda d: "Ines" in d.find_element(By.ID, "seat-list").text)
        Select(host.find_element(By.ID, "fill-level")).select_by_value("random")
        host.find_element(By.ID, "fill-btn").click()
        wait(host, lambda d: not visible(d, "#waiting"))
        wait(guest, lambda d: not visible(d, "#waiting"))
        seats = guest.find_element(By.ID, "seats").text
        assert "Hedi" in seats
        guest.save_screenshot(str(ARTIFACTS / "web-room.png"))
    finally:
        guest.quit()

    watcher = make_browser("412,915")
    try:
        watcher.get(server.base + "/")
        wait(watcher, lambda d: body(d, "data-ready") == "1")
        wait(watcher, lambda d: visible(d, f"#playing a[href='/g/{code}']"))
        visible(watcher, f"#playing a[href='/g/{code}']")[0].click()
        wait(watcher, lambda d: body(d, "data-ply") is not None)
        assert not visible(watcher, "#hand-zone")
        assert "Hedi" in watcher.find_element(By.ID, "seats").text
    finally:
        watcher.quit()
