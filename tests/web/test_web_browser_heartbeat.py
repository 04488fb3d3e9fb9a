"""In headless Chromium: a game page whose pings go unanswered drops its connection and
reconnects (static/heartbeat.js, docs/protocol.md "Heartbeat"). The page's pings are
swallowed before they leave, as by a hung server, and its heartbeat's clock runs 50 times
fast, so that the test takes seconds, not minutes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_web_browser import body, browser_at, needs_chromium, served, wait
from test_web_browser_pages import open_as, post
from wsutil import ServerProcess

pytestmark = needs_chromium

DEAF = """
const clock = window.setTimeout;
window.setTimeout = (fn, ms, ...rest) =>
  clock(fn, ms === 15000 || ms === 10000 ? ms / 50 : ms, ...rest);
const Real = window.WebSocket;
window.__sockets = [];
window.__pings = 0;
window.WebSocket = class extends Real {
  constructor(...args) {
    super(...args);
    window.__sockets.push(this);
  }
  send(data) {
    if (JSON.parse(data).type === "ping") {
      window.__pings += 1;
      return;  // never sent: no pong will come
    }
    super.send(data);
  }
};
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from served(tmp_path_factory, "heartbeat")


@pytest.fixture
def browser() -> Iterator[Any]:
    yield from browser_at("412,915")


def test_a_page_without_pongs_reconnects(server: ServerProcess, browser: Any) -> None:
    d = browser
    d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": DEAF})
    g = post(server.base, "/api/games", {"level": "random", "target": 11, "name": "Amel"})
    open_as(d, server.base, g["game"], g["token"])
    wait(d, lambda d: d.execute_script("return window.__sockets.length") >= 3, timeout=30)
    pings = d.execute_script("return window.__pings")
    assert pings >= 2
    # Each connection given up on is closed: one at most is open, and the page plays on.
    wait(d, lambda d: d.execute_script(
        "return window.__sockets.filter((s) => s.readyState === 1).length") == 1)
    assert body(d, "data-ply") is not None
    wait(d, lambda d: d.execute_script(
        "return window.__sockets.slice(0, -1).every((s) => s.readyState === 3)"))
